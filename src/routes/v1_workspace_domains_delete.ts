import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { then } from '../maybe.js';
import { answers, DomainsRemovedResult } from '../schemas/responses.js';
import { DomainsBody } from '../schemas/workspace.js';
import type { Services } from '../services/context.js';
import { DOMAINS_REMOVED, deleteDomains } from '../services/workspace-domains.js';

export const path = '/v1/workspace/domains/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Remove allowed browser domains',
        tags: ['workspace'],
        body: DomainsBody(services.limits),
        response: answers(DomainsRemovedResult, [], {
          partial: 'some domains were not allowed: they were skipped, the others removed (`domainsRemoved`, `skippedDomains`)',
        }),
      },
    },
    (request) => then(deleteDomains(services, tenantOf(request), request.body.data), (data) => success(DOMAINS_REMOVED, data)),
  );
}
