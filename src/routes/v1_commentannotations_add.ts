import Type from 'typebox';
import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { Batch, FreeObject, Id, Opt, RequestBody, type InputLimits } from '../schemas/common.js';
import { CommentIn } from '../schemas/comments.js';
import { addAnnotations } from '../services/comments.js';
import type { Services } from '../services/context.js';
import { answers, AnnotationsResult } from '../schemas/responses.js';

export const path = '/v1/commentannotations/add';

/** The request body, with the configured limits (exported for the typed client). */
export const Body = (limits: InputLimits) => RequestBody(Type.Object({
  organizationId: Id,
  documentId: Id,
  commentAnnotations: Batch(limits, Type.Object({
    annotationId: Opt(Id),
    location: Opt(FreeObject),
    locationId: Opt(Id),
    context: Opt(FreeObject),
    status: Opt(FreeObject),
    commentData: Batch(limits, CommentIn(limits)),
  })),
}));

export function register(app: App, services: Services): void {
  app.post(path, { schema: { summary: 'Add comment annotations (threads), each with its first comments', tags: ['comments'], body: Body(services.limits), response: answers(AnnotationsResult, [409]) } }, async (request) =>
    success('Comment Annotation(s) added successfully.', await addAnnotations(services, tenantOf(request), request.body.data)));
}
