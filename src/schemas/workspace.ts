// The request data of the tenant's workspace settings: its allowed browser domains
// (workspace/domains/add and delete; docs/api.md).
import Type from 'typebox';
import { RequestBody, type DataOf, type InputLimits } from './common.js';

/** Most domains one workspace/domains/add or delete names: the contract's bound, whatever MARGINALIA_MAX_BATCH says. */
export const MAX_DOMAINS_PER_CALL = 100;
/** The longest entry: a URL may carry a path, a query and a fragment, which are dropped. */
export const MAX_DOMAIN_ENTRY_LENGTH = 2048;

const DomainEntry = Type.String({
  minLength: 1,
  maxLength: MAX_DOMAIN_ENTRY_LENGTH,
  description: 'A URL or a host (https://www.example.com, localhost:3000, *.example.com); its host is kept, normalized',
});

/** workspace/domains/add and delete. */
export const DomainsBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ domains: Type.Array(DomainEntry, { minItems: 1, maxItems: MAX_DOMAINS_PER_CALL }) }));
export type DomainsData = DataOf<typeof DomainsBody>;
