// The tenant's allowed browser domains: workspace/domains/add and delete, with the original service's
// answers, and whether an origin is allowed (CORS for end-user requests, http/cors.ts). Entries are
// normalized by domain-names.ts; a request that names one it cannot use writes nothing.
import { ApiError, invalid, PartialSuccess } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { DomainsData } from '../schemas/workspace.js';
import type { Store } from '../store/store.js';
import type { Caller, Services } from './context.js';
import { MAX_ORIGIN_LENGTH, normalizeDomain, originCandidates } from './domain-names.js';
import { spell } from './member-path.js';

/** Most domains a tenant may allow, unless MARGINALIA_MAX_ALLOWED_DOMAINS says otherwise. */
export const DEFAULT_MAX_ALLOWED_DOMAINS = 1000;

export const DOMAINS_ADDED = 'Domain(s) added successfully to allowed domains.';
export const DOMAINS_REMOVED = 'Domain(s) removed successfully from allowed domains.';

/**
 * The entries normalized, each once, in the order first given; one that is malformed is INVALID_ARGUMENT naming it
 * (as `member`[i]: workspace/apikey/create names its list allowedDomains).
 */
export function normalizedDomains(entries: readonly string[], member = 'domains'): string[] {
  const domains = new Set<string>();
  entries.forEach((entry, i) => {
    const normalized = normalizeDomain(entry);
    if ('problem' in normalized)
      throw invalid(
        `${spell([member, i])} ${normalized.problem}; an entry is a URL or a host, such as https://app.example.com, ` +
          'localhost:3000 or *.example.com.',
      );
    domains.add(normalized.domain);
  });
  return [...domains];
}

/**
 * workspace/domains/add: the domains the tenant does not allow yet are added. When some were there
 * already, those are skipped and the answer is the page's 500 INTERNAL with what was added and skipped.
 */
export function addDomains(
  { store, clock, maxAllowedDomains = DEFAULT_MAX_ALLOWED_DOMAINS }: Services,
  caller: Caller,
  input: DomainsData,
): Maybe<{ domainsAdded: string[] }> {
  const domains = normalizedDomains(input.domains);
  return then(store.addAllowedDomains(caller.id, domains, maxAllowedDomains, clock()), (done) => {
    if (done === 'too_many')
      throw new ApiError(
        'RESOURCE_EXHAUSTED',
        `A tenant may allow at most ${maxAllowedDomains} domains (MARGINALIA_MAX_ALLOWED_DOMAINS), and these would pass ` +
          'that: nothing was added. Delete some first.',
      );
    if (done.skipped.length > 0)
      throw new PartialSuccess(`${DOMAINS_ADDED} Skipped existing domains.`, {
        domainsAdded: done.added,
        skippedDomains: done.skipped,
      });
    return { domainsAdded: done.added };
  });
}

/**
 * workspace/domains/delete: the domains the tenant allows are removed. When some were not there, those
 * are skipped and the answer is the page's 500 INTERNAL with what was removed and skipped.
 */
export function deleteDomains({ store }: Services, caller: Caller, input: DomainsData): Maybe<{ domainsRemoved: string[] }> {
  const domains = normalizedDomains(input.domains);
  return then(store.deleteAllowedDomains(caller.id, domains), (removed) => {
    if (removed.length < domains.length)
      throw new PartialSuccess(`${DOMAINS_REMOVED} Skipped non-existing domains.`, {
        domainsRemoved: removed,
        skippedDomains: domains.filter((d) => !removed.includes(d)),
      });
    return { domainsRemoved: removed };
  });
}

/** Whether the tenant's domains allow a request from `origin` (an Origin header): CORS for its end-user requests. */
export function tenantAllowsOrigin(store: Store, tenantId: string, origin: string): Maybe<boolean> {
  const candidates = originCandidates(origin);
  return candidates.length === 0 ? false : store.tenantAllowsDomain(tenantId, candidates);
}

/** Whether any tenant's domains allow it: a preflight carries no credentials, so names no tenant. */
export function anyTenantAllowsOrigin(store: Store, origin: string): Maybe<boolean> {
  const candidates = originCandidates(origin);
  return candidates.length === 0 ? false : store.anyTenantAllowsDomain(candidates);
}

/** How long a preflight's answer about an origin is held unless MARGINALIA_PREFLIGHT_ANSWER_MS says otherwise. */
export const DEFAULT_PREFLIGHT_ANSWER_MS = 5000;
/**
 * How many origins' answers are held at most (the oldest go first). Only origins of at most
 * MAX_ORIGIN_LENGTH characters are held, so this is at most about 4 MB (docs/decisions.md).
 */
export const PREFLIGHT_ANSWERS_HELD = 10_000;

/**
 * anyTenantAllowsOrigin's answers, held briefly: a preflight carries no credentials and counts against
 * no rate limit, so without this every OPTIONS from any origin would cost a database read. Refusals are
 * held too (those are what a flood sends); a lookup that fails is not.
 */
export class PreflightAnswers {
  private readonly held = new Map<string, { allowed: boolean; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly heldMs = DEFAULT_PREFLIGHT_ANSWER_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  allows(origin: string): Maybe<boolean> {
    // Longer than any origin a browser sends: no domain allows it (originCandidates), and it is not
    // held, or a flood of such preflights could fill the held answers with headers of kilobytes each.
    if (origin.length > MAX_ORIGIN_LENGTH) return false;
    if (this.heldMs === 0) return anyTenantAllowsOrigin(this.store, origin);
    const at = this.now();
    const kept = this.held.get(origin);
    if (kept && kept.until > at) return kept.allowed;
    return then(anyTenantAllowsOrigin(this.store, origin), (allowed) => {
      this.held.delete(origin);
      if (this.held.size >= PREFLIGHT_ANSWERS_HELD) this.held.delete(this.held.keys().next().value!);
      this.held.set(origin, { allowed, until: at + this.heldMs });
      return allowed;
    });
  }
}
