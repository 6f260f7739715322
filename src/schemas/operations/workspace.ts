// The tenant's allowed browser domains.
import { DomainsAddedResult, DomainsRemovedResult } from '../responses.js';
import { DomainsBody } from '../workspace.js';
import { contract } from './contract.js';

export const workspace = {
  domainsAdd: contract({
    paths: { v1: 'workspace/domains/add', v2: 'workspace/domains/add' },
    summary: "Allow browser domains: pages there may read the tenant's end-user answers (CORS)",
    tags: ['workspace'],
    body: DomainsBody,
    example: { domains: ['https://www.google.com', 'https://*.firebase.com'] },
    result: DomainsAddedResult,
    partial: 'some domains were allowed already: they were skipped, the others added (`domainsAdded`, `skippedDomains`)',
  }),
  domainsDelete: contract({
    paths: { v1: 'workspace/domains/delete', v2: 'workspace/domains/delete' },
    summary: 'Remove allowed browser domains',
    tags: ['workspace'],
    body: DomainsBody,
    example: { domains: ['https://www.google.com', 'https://*.firebase.com'] },
    result: DomainsRemovedResult,
    partial: 'some domains were not allowed: they were skipped, the others removed (`domainsRemoved`, `skippedDomains`)',
  }),
};
