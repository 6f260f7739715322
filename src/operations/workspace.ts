// The tenant's allowed browser domains.
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { DOMAINS_ADDED, DOMAINS_REMOVED, addDomains, deleteDomains } from '../services/workspace-domains.js';

/** The tenant's allowed browser domains. */
export const workspace = [
  operation(CONTRACT.domainsAdd, {
    run: addDomains,
    answer: DOMAINS_ADDED,
  }),
  operation(CONTRACT.domainsDelete, {
    run: deleteDomains,
    answer: DOMAINS_REMOVED,
  }),
];
