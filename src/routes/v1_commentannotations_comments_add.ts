import Type from 'typebox';
import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { Batch, Id, RequestBody, type InputLimits } from '../schemas/common.js';
import { CommentIn } from '../schemas/comments.js';
import { addComments } from '../services/comments.js';
import type { Services } from '../services/context.js';
import { answers, CommentIdsResult } from '../schemas/responses.js';

export const path = '/v1/commentannotations/comments/add';

/** The request body, with the configured limits (exported for the typed client). */
export const Body = (limits: InputLimits) => RequestBody(Type.Object({
  organizationId: Id,
  documentId: Id,
  annotationId: Id,
  commentData: Batch(limits, CommentIn(limits)),
}));

export function register(app: App, services: Services): void {
  app.post(path, { schema: { summary: 'Add comments to an existing annotation', tags: ['comments'], body: Body(services.limits), response: answers(CommentIdsResult, [404, 409]) } }, async (request) =>
    success('Comment(s) added successfully.', await addComments(services, tenantOf(request), request.body.data)));
}
