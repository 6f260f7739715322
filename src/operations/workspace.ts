// The tenant's allowed browser domains.
import { operation } from './operation.js';
import { DomainsAddedResult, DomainsRemovedResult, answers } from '../schemas/responses.js';
import { DomainsBody } from '../schemas/workspace.js';
import { DOMAINS_ADDED, DOMAINS_REMOVED, addDomains, deleteDomains } from '../services/workspace-domains.js';

/** The tenant's allowed browser domains. */
export const workspace = [
  operation({
    paths: { v1: 'workspace/domains/add' },
    summary: "Allow browser domains: pages there may read the tenant's end-user answers (CORS)",
    tags: ['workspace'],
    body: DomainsBody,
    response: answers(DomainsAddedResult, [], {
      partial: 'some domains were allowed already: they were skipped, the others added (`domainsAdded`, `skippedDomains`)',
    }),
    run: addDomains,
    answer: DOMAINS_ADDED,
  }),
  operation({
    paths: { v1: 'workspace/domains/delete' },
    summary: 'Remove allowed browser domains',
    tags: ['workspace'],
    body: DomainsBody,
    response: answers(DomainsRemovedResult, [], {
      partial: 'some domains were not allowed: they were skipped, the others removed (`domainsRemoved`, `skippedDomains`)',
    }),
    run: deleteDomains,
    answer: DOMAINS_REMOVED,
  }),
];
