import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { answers, UsersResult } from '../schemas/responses.js';
import { UsersBody } from '../schemas/users.js';
import type { Services } from '../services/context.js';
import { updateUsers } from '../services/users.js';

export const path = '/v1/users/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Update existing users; missing users are reported, not created',
        tags: ['users'],
        body: UsersBody(services.limits),
        response: answers(UsersResult),
      },
    },
    (request) =>
      then(updateUsers(services, tenantOf(request), request.body.data), (data) =>
        success('User(s) processed successfully.', data),
      ),
  );
}
