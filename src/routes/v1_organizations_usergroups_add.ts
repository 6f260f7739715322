import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { UserGroupsAddBody } from '../schemas/groups.js';
import { answers, UserGroupsResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { addUserGroups } from '../services/groups.js';

export const path = '/v1/organizations/usergroups/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Create organization user groups, or rename them (SPEC 12)',
        tags: ['users'],
        body: UserGroupsAddBody(services.limits),
        response: answers(UserGroupsResult),
      },
    },
    (request) =>
      then(addUserGroups(services, tenantOf(request), request.body.data), (data) =>
        success('Organization User Groups added successfully.', data),
      ),
  );
}
