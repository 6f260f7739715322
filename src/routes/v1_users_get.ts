import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { UsersGetBody } from '../schemas/users.js';
import { answers, MembersResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { getMembers } from '../services/members.js';

export const path = '/v1/users/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Members of the organization, or of a document, folder or user groups, in userId order and paged (SPEC 12)',
        tags: ['users'],
        body: UsersGetBody(services.limits),
        response: answers(MembersResult),
      },
    },
    (request) =>
      then(getMembers(services, tenantOf(request), request.body.data), (got) =>
        success('User(s) retrieved successfully.', got.users, got.nextPageToken ? { pageToken: got.nextPageToken } : {}),
      ),
  );
}
