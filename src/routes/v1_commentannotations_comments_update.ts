import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { CommentsUpdateBody } from '../schemas/comments.js';
import { answers, CommentChangesResult } from '../schemas/responses.js';
import { updateComments } from '../services/comments.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/comments/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Change comments of a thread: body, author, tagged contacts',
        tags: ['comments'],
        body: CommentsUpdateBody(services.limits),
        response: answers(CommentChangesResult, [404]),
      },
    },
    (request) =>
      then(updateComments(services, tenantOf(request), request.body.data), (data) =>
        success('Comment updated successfully.', data),
      ),
  );
}
