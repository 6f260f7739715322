import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { AnnotationsReadBody } from '../schemas/comments.js';
import { answers, MarkedReadResult } from '../schemas/responses.js';
import { markAnnotationsRead } from '../services/annotations.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/read';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Mark threads of a document read by a user, as of now (extension)',
        tags: ['comments'],
        body: AnnotationsReadBody(services.limits),
        response: answers(MarkedReadResult),
      },
    },
    (request) =>
      then(markAnnotationsRead(services, tenantOf(request), request.body.data), (data) =>
        success('Annotation(s) marked read.', data),
      ),
  );
}
