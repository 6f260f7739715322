import Type from 'typebox';
import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { CommentId, Filter, Id, RequestBody, type InputLimits } from '../schemas/common.js';
import { getComments } from '../services/comments.js';
import type { Services } from '../services/context.js';
import { answers, CommentsResult } from '../schemas/responses.js';

export const path = '/v1/commentannotations/comments/get';

/** The request body, with the configured limits (exported for the typed client). */
export const Body = (limits: InputLimits) => RequestBody(Type.Object({
  organizationId: Id,
  documentId: Id,
  annotationId: Id,
  userIds: Filter(limits, Id),
  commentIds: Filter(limits, CommentId),
}));

export function register(app: App, services: Services): void {
  // "Comments(s)" is the seed's own wording, kept for compatibility.
  app.post(path, { schema: { summary: 'Get the comments of an annotation, optionally by author or commentId', tags: ['comments'], body: Body(services.limits), response: answers(CommentsResult) } }, async (request) =>
    success('Comments(s) retrieved successfully.', await getComments(services, tenantOf(request), request.body.data)));
}
