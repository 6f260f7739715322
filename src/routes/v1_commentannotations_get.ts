import { confirmedBy, tenantOf } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { AnnotationsGetBody } from '../schemas/comments.js';
import { AnnotationListResult, answers } from '../schemas/responses.js';
import { getAnnotations } from '../services/annotations.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      config: { confirmsCredentials: true },
      schema: {
        summary: "Get a document's threads with their comments, newest first and paged, or by annotationId",
        tags: ['comments'],
        body: AnnotationsGetBody(services.limits),
        response: answers(AnnotationListResult),
      },
    },
    (request, reply) =>
      then(getAnnotations(services, tenantOf(request), request.body.data), (got) => {
        confirmedBy(request, got.credentialsVersion);
        const more: Record<string, string> = got.nextPageToken ? { pageToken: got.nextPageToken } : {};
        return sendSuccessJson(reply, 'Annotations fetched successfully.', got.data, more);
      }),
  );
}
