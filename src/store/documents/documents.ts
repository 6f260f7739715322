// Documents as objects (SPEC 12): made by documents/add or by the first write that names one, renamed,
// moved between folders, given an access type, disabled, listed in id order, deleted with all in them.
import { ApiError } from '../../errors.js';
import { NOTIFICATIONS_SQL } from '../notifications/sql.js';
import { disabledDocument, enter } from '../organizations/organizations.js';
import { all, first, list, type Params, run, type Work } from '../sql.js';
import type { AccessType, DocumentQuery, DocumentRecord, DocumentWrite } from '../store.js';
import { DOCUMENTS_SQL as SQL } from './sql.js';

/** How many notification ids one delete statement takes (the list is one parameter either way). */
const NOTIFICATION_CHUNK = 1000;

export const missingFolder = (id: string) => new ApiError('NOT_FOUND', `Folder ${id} does not exist.`);

/** An upsert or update that answered a disabled row refuses the write: thrown, so nothing is written. */
function* written(statement: (typeof SQL)[keyof typeof SQL], params: Params, documentId: string): Work<boolean> {
  const row = yield* first(statement, params);
  if (row?.disabled) throw disabledDocument(documentId);
  return row !== undefined;
}

/** The folder a write names must exist (NOT_FOUND otherwise); null: no folder. */
export function* requireFolder(tenantId: string, organizationId: string, folderId: string | null): Work<void> {
  if (folderId !== null && !(yield* first(SQL.folderExists, { tenantId, organizationId, folderId })))
    throw missingFolder(folderId);
}

/** documents/add: each created, renamed when given a name, placed in the folder when one is given. */
export function* add(
  tenantId: string,
  organizationId: string,
  folderId: string | null,
  entries: readonly DocumentWrite[],
  now: number,
): Work<void> {
  yield* enter(tenantId, organizationId, null, true);
  yield* requireFolder(tenantId, organizationId, folderId);
  for (const e of entries) {
    yield* written(SQL.add, { tenantId, organizationId, documentId: e.documentId, name: e.name, folderId, now }, e.documentId);
  }
}

/** documents/update: renames those that exist; answers which did. */
export function* update(
  tenantId: string,
  organizationId: string,
  entries: readonly DocumentWrite[],
  now: number,
): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const updated = new Set<string>();
  for (const e of entries) {
    const params = { tenantId, organizationId, documentId: e.documentId, name: e.name, now };
    if (yield* written(SQL.rename, params, e.documentId)) updated.add(e.documentId);
  }
  return updated;
}

/** documents/move: into an existing folder (null: out of any); a document not yet known comes into being there. */
export function* move(
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
  folderId: string | null,
  now: number,
): Work<void> {
  yield* enter(tenantId, organizationId, null, false);
  yield* requireFolder(tenantId, organizationId, folderId);
  for (const documentId of ids) yield* written(SQL.move, { tenantId, organizationId, documentId, folderId, now }, documentId);
}

/** documents/access/update: a document not yet known comes into being with that access type. */
export function* setAccess(
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
  accessType: AccessType,
  now: number,
): Work<void> {
  yield* enter(tenantId, organizationId, null, false);
  for (const documentId of ids) yield* written(SQL.access, { tenantId, organizationId, documentId, accessType, now }, documentId);
}

/**
 * documents/access/disablestate/update: only the organization is checked (SPEC 14.8: a disabled
 * document takes its own disable-state update); a missing document is created, like organizations'.
 */
export function* setDisabled(
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
  disabled: boolean,
  now: number,
): Work<void> {
  yield* enter(tenantId, organizationId, null, true);
  for (const documentId of ids) yield* run(SQL.disable, { tenantId, organizationId, documentId, disabled, now });
}

/**
 * documents/delete: each document that exists, with its threads, comments, thread read marks,
 * notifications (their inbox rows and read marks; the counters follow by trigger), memberships and
 * notification settings. A disabled document may be deleted (SPEC 14.8); its organization must not be
 * disabled. Versions (document_versions, profile_versions) stay: caches are keyed by them, and the
 * annotations' triggers have moved the document's already. Answers the ids deleted.
 */
export function* remove(tenantId: string, organizationId: string, ids: readonly string[]): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const deleted = new Set<string>();
  for (const documentId of ids) {
    const at = { tenantId, organizationId, documentId };
    if (!(yield* first(SQL.remove, at))) continue;
    deleted.add(documentId);
    yield* run(SQL.comments, at);
    yield* run(SQL.threadReads, at);
    yield* run(SQL.threads, at);
    const notificationIds = (yield* all(SQL.notificationIds, at)).map((r) => r.notification_id as string);
    const org = { tenantId, organizationId };
    for (let i = 0; i < notificationIds.length; i += NOTIFICATION_CHUNK) {
      const chunk = list(notificationIds.slice(i, i + NOTIFICATION_CHUNK));
      yield* run(NOTIFICATIONS_SQL.deleteNotifications, { ...org, ids: chunk });
      yield* run(NOTIFICATIONS_SQL.deleteInbox, { ...org, ids: chunk });
      yield* run(NOTIFICATIONS_SQL.deleteReads, { ...org, ids: chunk });
    }
    yield* run(SQL.memberships, at);
    yield* run(SQL.settings, at);
  }
  return deleted;
}

/** documents/get: up to `limit` documents after the id `after`, by ids and folder, in id order. */
export function* page(tenantId: string, q: DocumentQuery): Work<DocumentRecord[]> {
  const folderMode = q.folder === undefined ? 0 : q.folder === null ? 1 : 2;
  const rows = yield* all(SQL.page, {
    tenantId,
    organizationId: q.organizationId,
    ids: list(q.documentIds),
    folderMode,
    folderId: q.folder ?? null,
    after: q.after,
    limit: q.limit,
  });
  return rows.map((r) => ({
    documentId: String(r.document_id),
    name: String(r.name),
    folderId: r.folder_id === null ? null : String(r.folder_id),
    accessType: String(r.access_type) as AccessType,
    disabled: Boolean(r.disabled),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}
