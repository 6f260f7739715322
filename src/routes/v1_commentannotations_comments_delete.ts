import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { CommentsDeleteBody } from '../schemas/comments.js';
import { answers, CommentChangesResult } from '../schemas/responses.js';
import { deleteComments } from '../services/comments.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/comments/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Delete comments of a thread (all without commentIds); the thread stays',
        tags: ['comments'],
        body: CommentsDeleteBody(services.limits),
        response: answers(CommentChangesResult, [404]),
      },
    },
    (request) =>
      then(deleteComments(services, tenantOf(request), request.body.data), (data) =>
        success('Comments(s) deleted successfully.', data),
      ),
  );
}
