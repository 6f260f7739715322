// Organizations as objects (SPEC 12): made by organizations/add or by the first write that names one,
// renamed, listed in id order.
import { ApiError } from '../../errors.js';
import { all, first, list, run, type Work } from '../sql.js';
import type { OrganizationRecord, OrganizationWrite } from '../store.js';
import { ORGANIZATIONS_SQL as SQL } from './sql.js';

/**
 * The first step of every write under an organization (SPEC 12, SPEC 14.8): a disabled organization,
 * or a disabled document the write names, refuses it with PERMISSION_DENIED; thrown, so the
 * transaction writes nothing. With `create`, the organization and the document come into being.
 */
export function* enter(tenantId: string, organizationId: string, documentId: string | null, create: boolean): Work<void> {
  const scope = { tenantId, organizationId, documentId };
  if (!create) {
    const refused = yield* all(SQL.disabled, scope);
    if (refused.some((r) => r.what === 'organization')) throw disabledOrganization(organizationId);
    if (refused.length) throw disabledDocument(documentId!);
    return;
  }
  if ((yield* all(SQL.enterOrganization, scope)).some((r) => Boolean(r.disabled))) throw disabledOrganization(organizationId);
  if (documentId !== null) yield* enterDocument(tenantId, organizationId, documentId);
}

/** enter's step for one more document of the write, after its organization's. */
export function* enterDocument(tenantId: string, organizationId: string, documentId: string): Work<void> {
  if ((yield* all(SQL.enterDocument, { tenantId, organizationId, documentId })).some((r) => Boolean(r.disabled)))
    throw disabledDocument(documentId);
}

const disabledOrganization = (id: string) => new ApiError('PERMISSION_DENIED', `Organization ${id} is disabled.`);
const disabledDocument = (id: string) => new ApiError('PERMISSION_DENIED', `Document ${id} is disabled.`);

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
