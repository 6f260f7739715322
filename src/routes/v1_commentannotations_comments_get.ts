import { confirmedBy, tenantOf } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { CommentsGetBody } from '../schemas/comments.js';
import { answers, CommentsResult } from '../schemas/responses.js';
import { getComments } from '../services/comments.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/comments/get';

export function register(app: App, services: Services): void {
  // "Comments(s)" is the seed's own wording, kept for compatibility.
  app.post(
    path,
    {
      config: { confirmsCredentials: true },
      schema: {
        summary: 'Get the comments of an annotation, optionally by author or commentId',
        tags: ['comments'],
        body: CommentsGetBody(services.limits),
        response: answers(CommentsResult),
      },
    },
    (request, reply) =>
      then(getComments(services, tenantOf(request), request.body.data), ({ commentsJson, credentialsVersion }) => {
        confirmedBy(request, credentialsVersion);
        return sendSuccessJson(reply, 'Comments(s) retrieved successfully.', commentsJson);
      }),
  );
}
