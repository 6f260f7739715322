import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { GroupUsersAddBody } from '../schemas/groups.js';
import { answers, GroupUsersResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { addGroupUsers } from '../services/groups.js';

export const path = '/v1/organizations/usergroups/users/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Add users to an organization user group; the group must exist (SPEC 12)',
        tags: ['users'],
        body: GroupUsersAddBody(services.limits),
        response: answers(GroupUsersResult, [404]),
      },
    },
    (request) =>
      then(addGroupUsers(services, tenantOf(request), request.body.data), (data) =>
        success('Added organization users to group successfully.', data),
      ),
  );
}
