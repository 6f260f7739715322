import { confirmedBy, tenantOf } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { AnnotationsCountBody } from '../schemas/comments.js';
import { answers, AnnotationCountsResult } from '../schemas/responses.js';
import { countAnnotations } from '../services/annotations.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/count/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      config: { confirmsCredentials: true },
      schema: {
        summary: 'Count the threads of documents, and those unread by a user',
        tags: ['comments'],
        body: AnnotationsCountBody(services.limits),
        response: answers(AnnotationCountsResult),
      },
    },
    (request, reply) =>
      then(countAnnotations(services, tenantOf(request), request.body.data), (got) => {
        confirmedBy(request, got.credentialsVersion);
        return sendSuccessJson(reply, 'Comment count retrieved successfully.', got.json);
      }),
  );
}
