import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { AnnotationsDeleteBody } from '../schemas/comments.js';
import { answers, AnnotationChangesResult } from '../schemas/responses.js';
import { deleteAnnotations } from '../services/annotations.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Delete threads of a document with their comments',
        tags: ['comments'],
        body: AnnotationsDeleteBody(services.limits),
        response: answers(AnnotationChangesResult),
      },
    },
    (request) =>
      then(deleteAnnotations(services, tenantOf(request), request.body.data), (data) =>
        success('Annotations deleted successfully.', data),
      ),
  );
}
