import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { CommentsAddBody } from '../schemas/comments.js';
import { answers, CommentIdsResult } from '../schemas/responses.js';
import { addComments } from '../services/comments.js';
import type { Services } from '../services/context.js';

export const path = '/v1/commentannotations/comments/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Add comments to an existing annotation',
        tags: ['comments'],
        body: CommentsAddBody(services.limits),
        response: answers(CommentIdsResult, [404, 409]),
      },
    },
    (request) =>
      then(addComments(services, tenantOf(request), request.body.data), (data) =>
        success('Comment(s) added successfully.', data),
      ),
  );
}
