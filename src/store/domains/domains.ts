// Store code of a tenant's allowed browser domains (workspace/domains/add and delete; CORS for its
// end-user requests). Domains come normalized, each once (services/domain-names.ts).
import { all, batch, first, idsInKeyOrder, list, type Work } from '../sql.js';
import { DOMAINS_SQL as SQL } from './sql.js';

/** What an add did, each list in the order the domains were given; or that it would pass the tenant's limit. */
export type DomainsAdded = { added: string[]; skipped: string[] } | 'too_many';

/** Adds the domains the tenant does not allow yet, unless that would make it more than `most`; skips the others. */
export function* add(tenantId: string, domains: readonly string[], most: number, now: number): Work<DomainsAdded> {
  yield* first(SQL.lockTenant, { tenantId });
  const present = new Set((yield* all<{ domain: string }>(SQL.among, { tenantId, domains: list(domains) })).map((r) => r.domain));
  const added = domains.filter((d) => !present.has(d));
  if (added.length > 0) {
    const count = Number((yield* first<{ n: unknown }>(SQL.count, { tenantId }))?.n ?? 0);
    if (count + added.length > most) return 'too_many';
    yield* batch(
      SQL.insert,
      { tenantId, now },
      idsInKeyOrder(added).map((domain) => ({ domain })),
    );
  }
  return { added, skipped: domains.filter((d) => present.has(d)) };
}

/** Deletes the domains; answers those the tenant allowed (the others were skipped), in the order given. */
export function* remove(tenantId: string, domains: readonly string[]): Work<string[]> {
  const rows = yield* all<{ domain: string }>(SQL.delete, { tenantId, domains: list(domains) });
  const removed = new Set(rows.map((r) => r.domain));
  return domains.filter((d) => removed.has(d));
}

/** The tenant's domains, in code-unit order. */
export function* ofTenant(tenantId: string): Work<string[]> {
  return (yield* all<{ domain: string }>(SQL.ofTenant, { tenantId })).map((r) => r.domain);
}

/** Whether the tenant (null: any tenant) allows one of the candidate keys of an origin. */
export function* allowsAny(tenantId: string | null, candidates: readonly string[]): Work<boolean> {
  const found =
    tenantId === null
      ? yield* first(SQL.anyAllows, { candidates: list(candidates) })
      : yield* first(SQL.tenantAllows, { tenantId, candidates: list(candidates) });
  return found !== undefined;
}
