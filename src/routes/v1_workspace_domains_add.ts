import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { then } from '../maybe.js';
import { answers, DomainsAddedResult } from '../schemas/responses.js';
import { DomainsBody } from '../schemas/workspace.js';
import type { Services } from '../services/context.js';
import { DOMAINS_ADDED, addDomains } from '../services/workspace-domains.js';

export const path = '/v1/workspace/domains/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "Allow browser domains: pages there may read the tenant's end-user answers (CORS)",
        tags: ['workspace'],
        body: DomainsBody(services.limits),
        response: answers(DomainsAddedResult, [], {
          partial: 'some domains were allowed already: they were skipped, the others added (`domainsAdded`, `skippedDomains`)',
        }),
      },
    },
    (request) => then(addDomains(services, tenantOf(request), request.body.data), (data) => success(DOMAINS_ADDED, data)),
  );
}
