// Organizations as objects (docs/api.md, "Organizations"): made by organizations/add or by the first write that
// names one, renamed, listed in id order.
import { Refusal } from '../../domain/refusal.js';
import { all, first, inKeyOrder, list, type Row, run, type Work } from '../sql.js';
import { createdTimes, type OrganizationRecord, type OrganizationWrite } from '../../domain/organizations.js';
import { deletedSome, type StepResult } from '../batches.js';
import { DELETE_FROM, DELETE_SOME_FROM, ORGANIZATION_TABLES, ORGANIZATIONS_SQL as SQL } from './sql.js';

/**
 * The first step of every write under an organization (docs/api.md, "Disabled organizations and documents"): a
 * disabled organization, or a disabled document the write names, refuses it with PERMISSION_DENIED; thrown, so the
 * transaction writes nothing. With `create`, the organization and the document come into being.
 */
export function* enter(tenantId: string, organizationId: string, documentId: string | null, create: boolean): Work<void> {
  const scope = { tenantId, organizationId, documentId };
  if (!create) return refuseListed(yield* all(SQL.disabled, scope), organizationId, documentId);
  if ((yield* all(SQL.enterOrganization, scope)).some((r) => Boolean(r.disabled))) throw disabledOrganization(organizationId);
  if (documentId !== null) yield* enterDocument(tenantId, organizationId, documentId);
}

/** enter's step for one more document of the write, after its organization's. */
export function* enterDocument(tenantId: string, organizationId: string, documentId: string): Work<void> {
  if ((yield* all(SQL.enterDocument, { tenantId, organizationId, documentId })).some((r) => Boolean(r.disabled)))
    throw disabledDocument(documentId);
}

/** Refuses when rows of DISABLED_IN_SCOPE (sql.ts) name the organization or the document. */
export function refuseListed(rows: readonly Row[], organizationId: string, documentId: string | null): void {
  if (rows.some((r) => r.what === 'organization')) throw disabledOrganization(organizationId);
  if (documentId !== null && rows.some((r) => r.what === 'document')) throw disabledDocument(documentId);
}

/** For a write that read the disabled flags with a row it needed anyway (a locked thread). */
export function refuseWhenDisabled(organizationDisabled: unknown, documentDisabled: unknown, at: ThreadScope): void {
  if (organizationDisabled) throw disabledOrganization(at.organizationId);
  if (documentDisabled) throw disabledDocument(at.documentId);
}
interface ThreadScope {
  organizationId: string;
  documentId: string;
}

export const disabledOrganization = (id: string) => new Refusal('PERMISSION_DENIED', `Organization ${id} is disabled.`);
export const disabledDocument = (id: string) => new Refusal('PERMISSION_DENIED', `Document ${id} is disabled.`);

/**
 * A rename is a write under the organization: a disabled one refuses it (docs/api.md,
 * "Disabled organizations and documents").
 */
function* refuseDisabledAmong(tenantId: string, ids: readonly string[]): Work<void> {
  const disabled = yield* first(SQL.disabledAmong, { tenantId, ids: list(ids) });
  if (disabled) throw disabledOrganization(String(disabled.organization_id));
}

/** organizations/add: each created (with the times given, else now), or renamed when given a name. */
export function* add(tenantId: string, entries: readonly OrganizationWrite[], now: number): Work<void> {
  yield* refuseDisabledAmong(
    tenantId,
    entries.map((e) => e.organizationId),
  );
  // Key order: two requests naming the same organizations lock them in the same order.
  for (const e of inKeyOrder(entries, (x) => x.organizationId))
    yield* run(SQL.add, { tenantId, organizationId: e.organizationId, name: e.name, now, ...createdTimes(e, now) });
}

/** organizations/update: renames those that exist; answers which did. */
export function* update(tenantId: string, entries: readonly OrganizationWrite[], now: number): Work<Set<string>> {
  yield* refuseDisabledAmong(
    tenantId,
    entries.map((e) => e.organizationId),
  );
  const updated = new Set<string>();
  for (const e of inKeyOrder(entries, (x) => x.organizationId)) {
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

/** organizations/access/disablestate/update: each that exists set so; answers those that exist. */
export function* setDisabled(
  tenantId: string,
  organizationIds: readonly string[],
  disabled: boolean,
  now: number,
): Work<Set<string>> {
  const found = new Set<string>();
  for (const organizationId of [...organizationIds].sort())
    if (yield* first(SQL.setDisabled, { tenantId, organizationId, disabled, now })) found.add(organizationId);
  return found;
}

/**
 * organizations/delete, first transaction: marks the organization deleting (and disabled: every write
 * under it is refused from now on); answers whether it exists. Its rows then go a batch at a time
 * (deleteSome), and finishDeletion deletes what is left and the row.
 */
export function* markDeleting(tenantId: string, organizationId: string): Work<boolean> {
  return (yield* first(SQL.markDeleting, { tenantId, organizationId })) !== undefined;
}

export type OrganizationTable = (typeof ORGANIZATION_TABLES)[number];

/** A batch of the organization's rows of one table: done when it found fewer than `limit`. */
export function* deleteSome(table: OrganizationTable, tenantId: string, organizationId: string, limit: number): Work<StepResult> {
  return yield* deletedSome(DELETE_SOME_FROM[table], { tenantId, organizationId }, limit);
}

/**
 * organizations/delete, last transaction: its row first (on PostgreSQL that locks it before its data
 * goes), then the profile version, as every users write takes it before the users rows (one lock
 * order), then whatever is left (nothing, but what a write that began before the mark added).
 */
export function* finishDeletion(tenantId: string, organizationId: string): Work<boolean> {
  const at = { tenantId, organizationId };
  if (!(yield* first(SQL.deleteOrganization, at))) return false;
  yield* run(SQL.moveProfileVersion, at);
  for (const table of ORGANIZATION_TABLES) yield* run(DELETE_FROM[table], at);
  return true;
}
