import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { AnnotationsAddBody } from '../schemas/comments.js';
import { answers, AnnotationsResult } from '../schemas/responses.js';
import { addAnnotations } from '../services/comments.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Add comment annotations (threads), each with its first comments',
        tags: ['comments'],
        body: AnnotationsAddBody(services.limits),
        response: answers(AnnotationsResult, [409]),
      },
    },
    (request) =>
      then(addAnnotations(services, tenantOf(request), request.body.data), (data) =>
        success('Comment Annotation(s) added successfully.', data),
      ),
  );
}
