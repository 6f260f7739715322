import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { GroupUsersDeleteBody } from '../schemas/groups.js';
import { answers, GroupUsersResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { deleteGroupUsers } from '../services/groups.js';

export const path = '/v1/organizations/usergroups/users/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Remove users (or all) from an organization user group (SPEC 12)',
        tags: ['users'],
        body: GroupUsersDeleteBody(services.limits),
        response: answers(GroupUsersResult, [404]),
      },
    },
    (request) =>
      then(deleteGroupUsers(services, tenantOf(request), request.body.data), (data) =>
        success('Deleted users from group successfully.', data),
      ),
  );
}
