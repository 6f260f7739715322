import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { UsersDeleteBody } from '../schemas/users.js';
import { answers, MembersDeletedResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { deleteMembers } from '../services/members.js';

export const path = '/v1/users/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Remove users from the organization, or only from a document or folder (SPEC 12)',
        tags: ['users'],
        body: UsersDeleteBody(services.limits),
        response: answers(MembersDeletedResult),
      },
    },
    (request) =>
      then(deleteMembers(services, tenantOf(request), request.body.data), (data) =>
        success('User(s) deleted successfully.', data),
      ),
  );
}
