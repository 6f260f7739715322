import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { OrganizationIdsBody } from '../schemas/organizations.js';
import { answers, OrganizationsDeleteResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { deleteOrganizations } from '../services/organizations.js';

export const path = '/v1/organizations/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Delete organizations with everything in them, in one transaction (SPEC 12)',
        tags: ['organizations'],
        body: OrganizationIdsBody(services.limits),
        response: answers(OrganizationsDeleteResult),
      },
    },
    (request) =>
      then(deleteOrganizations(services, tenantOf(request), request.body.data), (data) =>
        success('Organization(s) deleted successfully.', data),
      ),
  );
}
