import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { answers, UsersResult } from '../schemas/responses.js';
import { UsersBody } from '../schemas/users.js';
import type { Services } from '../services/context.js';
import { addUsers } from '../services/users.js';

export const path = '/v1/users/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Add users or update their profiles, optionally as members of a document or folder',
        tags: ['users'],
        body: UsersBody(services.limits),
        response: answers(UsersResult),
      },
    },
    (request) =>
      then(addUsers(services, tenantOf(request), request.body.data), (data) => success('User(s) processed successfully.', data)),
  );
}
