// Organizations as objects (SPEC 12): made by organizations/add or by the first write that names one,
// renamed, listed in id order.
import { all, first, list, run, type Work } from '../sql.js';
import type { OrganizationRecord, OrganizationWrite } from '../store.js';
import { ORGANIZATIONS_SQL as SQL } from './sql.js';

/** The first step of every write that names an organization: it exists from then on. */
export function* touch(tenantId: string, organizationId: string): Work<void> {
  yield* run(SQL.touch, { tenantId, organizationId });
}

/** organizations/add: each created, or renamed when given a name. */
export function* add(tenantId: string, entries: readonly OrganizationWrite[], now: number): Work<void> {
  for (const e of entries) yield* run(SQL.add, { tenantId, organizationId: e.organizationId, name: e.name, now });
}

/** organizations/update: renames those that exist; answers which did. */
export function* update(tenantId: string, entries: readonly OrganizationWrite[], now: number): Work<Set<string>> {
  const updated = new Set<string>();
  for (const e of entries) {
    if (yield* first(SQL.update, { tenantId, organizationId: e.organizationId, name: e.name, now }))
      updated.add(e.organizationId);
  }
  return updated;
}

/** organizations/get: up to `limit` organizations after `after` (an id), by id or all, in id order. */
export function* page(tenantId: string, ids: string[] | null, after: string | null, limit: number): Work<OrganizationRecord[]> {
  const rows = yield* all(SQL.page, { tenantId, ids: list(ids), after, limit });
  return rows.map((r) => ({
    organizationId: String(r.organization_id),
    name: String(r.name),
    disabled: Boolean(r.disabled),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}
