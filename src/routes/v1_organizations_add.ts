import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { OrganizationsBody } from '../schemas/organizations.js';
import { answers, OrganizationsResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { addOrganizations } from '../services/organizations.js';

export const path = '/v1/organizations/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Create organizations, or rename them (SPEC 12)',
        tags: ['organizations'],
        body: OrganizationsBody(services.limits),
        response: answers(OrganizationsResult),
      },
    },
    (request) =>
      then(addOrganizations(services, tenantOf(request), request.body.data), (data) =>
        success('Organization(s) added successfully.', data),
      ),
  );
}
