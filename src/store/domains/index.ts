// A tenant's allowed browser domains (workspace/domains): tenant settings, like webhooks, so no events (docs/decisions.md).
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import * as domains from './domains.js';
import type { DomainsAdded } from './domains.js';

export const domainsStore = (core: StoreCore) => ({
  /**
   * workspace/domains/add: the domains (normalized, each once) the tenant does not allow yet are added,
   * the others skipped; 'too_many' (nothing written) when it would then allow more than `most`.
   */
  addAllowedDomains(tenantId: string, list: readonly string[], most: number, now: number): Maybe<DomainsAdded> {
    return core.write('addAllowedDomains', () => domains.add(tenantId, list, most, now));
  },

  /** workspace/domains/delete: answers the domains the tenant allowed, in the order given (the others were skipped). */
  deleteAllowedDomains(tenantId: string, list: readonly string[]): Maybe<string[]> {
    return core.write('deleteAllowedDomains', () => domains.remove(tenantId, list));
  },

  /** The tenant's allowed domains, in code-unit order. */
  allowedDomains(tenantId: string): Maybe<string[]> {
    return core.read('allowedDomains', () => domains.ofTenant(tenantId));
  },

  /** Whether the tenant allows one of an origin's candidate keys (services/domain-names.ts): its end-user requests' CORS. */
  tenantAllowsDomain(tenantId: string, candidates: readonly string[]): Maybe<boolean> {
    return core.read('tenantAllowsDomain', () => domains.allowsAny(tenantId, candidates));
  },

  /** Whether any tenant allows one of them: a preflight, which carries no credentials. */
  anyTenantAllowsDomain(candidates: readonly string[]): Maybe<boolean> {
    return core.read('anyTenantAllowsDomain', () => domains.allowsAny(null, candidates));
  },
});

export type DomainsStore = ReturnType<typeof domainsStore>;
