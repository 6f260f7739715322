import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { OrganizationsDisableBody } from '../schemas/organizations.js';
import { answers, DisableStateResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { setOrganizationsDisabled } from '../services/organizations.js';

export const path = '/v1/organizations/access/disablestate/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Disable organizations (every write under them is refused) or enable them again (SPEC 12)',
        tags: ['organizations'],
        body: OrganizationsDisableBody(services.limits),
        response: answers(DisableStateResult),
      },
    },
    (request) =>
      then(setOrganizationsDisabled(services, tenantOf(request), request.body.data), (data) =>
        success('Updated disable state for Organization(s) successfully.', data),
      ),
  );
}
