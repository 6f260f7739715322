import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { OrganizationsGetBody } from '../schemas/organizations.js';
import { answers, OrganizationListResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { getOrganizations } from '../services/organizations.js';

export const path = '/v1/organizations/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "The tenant's organizations, by id or all, in id order and paged (SPEC 12)",
        tags: ['organizations'],
        body: OrganizationsGetBody(services.limits),
        response: answers(OrganizationListResult),
      },
    },
    (request) =>
      then(getOrganizations(services, tenantOf(request), request.body.data), (got) =>
        success(
          'Organization(s) retrieved successfully.',
          got.organizations,
          got.nextPageToken ? { pageToken: got.nextPageToken } : {},
        ),
      ),
  );
}
