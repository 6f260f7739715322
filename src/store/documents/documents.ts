// Documents as objects (docs/api.md, "Documents"): made by documents/add or by the first write that names one,
// renamed, moved between folders, given an access type, disabled, listed in id order, deleted with all in them.
import { missingFolder } from '../../domain/folder-tree.js';
import { NOTIFICATIONS_SQL } from '../notifications/sql.js';
import { disabledDocument, enter } from '../organizations/organizations.js';
import { deletedSome, type StepResult, stepDone } from '../batches.js';
import { all, first, idsInKeyOrder, list, type Params, run, type Work } from '../sql.js';
import {
  type AccessType,
  createdTimes,
  type DocumentQuery,
  type DocumentRecord,
  type DocumentWrite,
} from '../../domain/organizations.js';
import { DOCUMENTS_SQL as SQL } from './sql.js';
import { folderMadeIfMissing } from '../folders/made-on-demand.js';

/** How many notification ids one delete statement takes (the list is one parameter either way). */
const NOTIFICATION_CHUNK = 1000;

/**
 * One upsert or update per document, in key order (two writes naming the same documents lock their
 * rows in the same order, so they cannot deadlock on PostgreSQL). A row that answers disabled refuses
 * the write, named as the first such document of the request: thrown after the loop, so the
 * transaction writes nothing. Answers the ids that had a row.
 */
function* writeEach(
  statement: (typeof SQL)[keyof typeof SQL],
  ids: readonly string[],
  params: (documentId: string) => Params,
): Work<Set<string>> {
  const found = new Set<string>();
  const disabled = new Set<string>();
  for (const documentId of idsInKeyOrder(ids)) {
    const row = yield* first(statement, params(documentId));
    if (row) found.add(documentId);
    if (row?.disabled) disabled.add(documentId);
  }
  const refused = ids.find((id) => disabled.has(id));
  if (refused !== undefined) throw disabledDocument(refused);
  return found;
}

/** The folder a write names must exist (NOT_FOUND otherwise), locked on PostgreSQL until the write commits; null: no folder. */
export function* requireFolder(tenantId: string, organizationId: string, folderId: string | null): Work<void> {
  if (folderId !== null && !(yield* first(SQL.folderExists, { tenantId, organizationId, folderId })))
    throw missingFolder(folderId);
}

/** documents/add: each created (with the times given, else now), renamed when given a name, placed in the folder when one is given. */
export function* add(
  tenantId: string,
  organizationId: string,
  folderId: string | null,
  entries: readonly DocumentWrite[],
  now: number,
  createFolder = false,
): Work<void> {
  yield* enter(tenantId, organizationId, null, true);
  if (createFolder && folderId !== null) yield* folderMadeIfMissing(tenantId, organizationId, folderId, now);
  yield* requireFolder(tenantId, organizationId, folderId);
  const byId = new Map(entries.map((e) => [e.documentId, e]));
  yield* writeEach(SQL.add, [...byId.keys()], (documentId) => ({
    tenantId,
    organizationId,
    documentId,
    name: byId.get(documentId)!.name,
    folderId,
    now,
    ...createdTimes(byId.get(documentId)!, now),
  }));
}

/** documents/update: renames those that exist; answers which did. */
export function* update(
  tenantId: string,
  organizationId: string,
  entries: readonly DocumentWrite[],
  now: number,
): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const names = new Map(entries.map((e) => [e.documentId, e.name]));
  return yield* writeEach(SQL.rename, [...names.keys()], (documentId) => ({
    tenantId,
    organizationId,
    documentId,
    name: names.get(documentId),
    now,
  }));
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
  yield* writeEach(SQL.move, ids, (documentId) => ({ tenantId, organizationId, documentId, folderId, now }));
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
  yield* writeEach(SQL.access, ids, (documentId) => ({ tenantId, organizationId, documentId, accessType, now }));
}

/**
 * documents/access/disablestate/update: only the organization is checked (docs/api.md,
 * "Disabled organizations and documents": a disabled document takes its own disable-state update); a missing
 * document is created, like organizations'.
 */
export function* setDisabled(
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
  disabled: boolean,
  now: number,
): Work<void> {
  yield* enter(tenantId, organizationId, null, true);
  for (const documentId of idsInKeyOrder(ids)) yield* run(SQL.disable, { tenantId, organizationId, documentId, disabled, now });
}

/**
 * documents/delete, first transaction (per document): marks it deleting (and disabled: every write to
 * it is refused from now on); answers whether it exists. Its rows then go a batch at a time
 * (DOCUMENT_PARTS), and finishDeletion deletes what is left and the row: its threads, comments, thread
 * read marks, notifications (their inbox rows and read marks; the counters follow by trigger),
 * memberships, notification settings and live states. A disabled document may be deleted
 * (docs/decisions.md); its organization must not be disabled. Versions (document_versions,
 * profile_versions) stay: caches are keyed by them, and the annotations' triggers have moved the
 * document's already.
 */
export function* markDeleting(tenantId: string, organizationId: string, documentId: string): Work<boolean> {
  yield* enter(tenantId, organizationId, null, false);
  return (yield* first(SQL.markDeleting, { tenantId, organizationId, documentId })) !== undefined;
}

interface DocumentScope {
  tenantId: string;
  organizationId: string;
  documentId: string;
}

/** The document's notifications, a batch at a time, with their inbox rows and read marks (notifications/delete's order). */
function* someNotifications(at: DocumentScope, limit: number): Work<StepResult> {
  const ids = (yield* all(SQL.someNotificationIds, { ...at, limit })).map((r) => r.notification_id as string);
  yield* deleteNotifications(at, ids);
  return stepDone(ids.length < limit);
}

function* deleteNotifications({ tenantId, organizationId }: DocumentScope, notificationIds: readonly string[]): Work<void> {
  const org = { tenantId, organizationId };
  for (let i = 0; i < notificationIds.length; i += NOTIFICATION_CHUNK) {
    const chunk = list(notificationIds.slice(i, i + NOTIFICATION_CHUNK));
    yield* run(NOTIFICATIONS_SQL.deleteNotifications, { ...org, ids: chunk });
    yield* run(NOTIFICATIONS_SQL.deleteInbox, { ...org, ids: chunk });
    yield* run(NOTIFICATIONS_SQL.deleteReads, { ...org, ids: chunk });
  }
}

const someRows = (statement: (typeof SQL)['someThreads']) =>
  function* (at: DocumentScope, limit: number): Work<StepResult> {
    return yield* deletedSome(statement, { ...at }, limit);
  };

/**
 * What a document holds, in the order its batches delete it: threads before their comments and read
 * marks, notifications before their inbox rows and marks (the order writers lock them in on PostgreSQL).
 */
export const DOCUMENT_PARTS: readonly ((at: DocumentScope, limit: number) => Work<StepResult>)[] = [
  someRows(SQL.someThreads),
  someRows(SQL.someComments),
  someRows(SQL.someThreadReads),
  someNotifications,
  someRows(SQL.someMemberships),
  someRows(SQL.someRoles),
  someRows(SQL.someSettings),
  someRows(SQL.someLiveStates),
  someRows(SQL.somePresence),
];

/**
 * documents/delete, last transaction (per document): the row first (locked on PostgreSQL), then what is
 * left (nothing, but what a write that began before the mark added). Answers whether the row was there.
 */
export function* finishDeletion(tenantId: string, organizationId: string, documentId: string): Work<boolean> {
  const at = { tenantId, organizationId, documentId };
  if (!(yield* first(SQL.remove, at))) return false;
  yield* run(SQL.threads, at);
  yield* run(SQL.comments, at);
  yield* run(SQL.threadReads, at);
  yield* deleteNotifications(
    at,
    (yield* all(SQL.notificationIds, at)).map((r) => r.notification_id as string),
  );
  yield* run(SQL.memberships, at);
  yield* run(SQL.roles, at);
  yield* run(SQL.settings, at);
  yield* run(SQL.liveStates, at);
  yield* run(SQL.presence, at);
  return true;
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
