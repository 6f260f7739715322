import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { AnnotationsUpdateBody } from '../schemas/comments.js';
import { answers, AnnotationChangesResult } from '../schemas/responses.js';
import { updateAnnotations } from '../services/annotations.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Change threads of a document (status, location, context, assignee, priority, target); null clears',
        tags: ['comments'],
        body: AnnotationsUpdateBody(services.limits),
        response: answers(AnnotationChangesResult),
      },
    },
    (request) =>
      then(updateAnnotations(services, tenantOf(request), request.body.data), (data) =>
        success('Annotations updated successfully.', data),
      ),
  );
}
