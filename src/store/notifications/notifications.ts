// Store code for notifications, their recipients' inboxes, read state, counts and settings (docs/api.md,
// "Notifications").
import { disabledDocument, enter, enterDocument } from '../organizations/organizations.js';
import { internalUserId } from '../../domain/ids.js';
import { headlineOf } from '../../domain/search.js';
import { emit } from '../events/emit.js';
import { versionsOf } from '../select.js';
import { notificationAdded } from './events.js';
import { all, batch, inKeyOrder, list, type Query, query, run, sendBatch, type Work } from '../sql.js';
import {
  type InboxCount,
  type NewNotification,
  type ChangeSource,
  type NotificationChange,
  type NotificationDeletion,
  type NotificationQuery,
  type NotificationSetting,
  type Recipient,
  type StoredNotification,
  ORGANIZATION_LEVEL,
} from '../../domain/notifications.js';
import { N, NOTIFICATIONS_SQL as SQL, notificationRead } from './sql.js';

/** A position before every row of the (timestamp desc, id desc) order: "from the start". */
const FROM_START = { timestamp: Number.MAX_SAFE_INTEGER, notificationId: '' };
/** The same in the (timestamp asc, id asc) order (`order: "asc"`). */
const FROM_START_ASCENDING = { timestamp: -1, notificationId: '' };

/**
 * The recipients column as written by add: [userId, true, internalId] per recipient. The middle member
 * is the unread flag of releases before migration 12 (read state now lives in each user's own row); it
 * stays so the column keeps one shape, which migration 5's backfill and content changes read.
 */
export function recipientsJson(recipients: readonly Recipient[]): string {
  return JSON.stringify(recipients.map((r) => [r.userId, true, r.internalId]));
}

/** The recipients column read back; rows from before the internal id was kept have none, and get it derived. */
export function recipientsFrom(
  json: string,
  tenantId: string,
  organizationId: string,
): { userId: string; internalId: string; unread: boolean }[] {
  return (JSON.parse(json) as [string, boolean | number, string?][]).map(([userId, unread, id]) => ({
    userId,
    unread: Boolean(unread),
    internalId: id ?? internalUserId(tenantId, organizationId, userId),
  }));
}

/** MARGINALIA_INBOX_ANSWER_COPIES' default (docs/decisions.md, "Each answer written once"). */
export const DEFAULT_INBOX_ANSWER_COPIES = 5;

/**
 * notifications/add. Each recipient's inbox row holds a copy of the answer, so that a page of the inbox is
 * one range scan, only while the notification has at most `answerCopies` recipients: the answer names
 * every recipient, so copies cost the square of their number (docs/decisions.md, "Each answer written once").
 * Returns false when the notificationId is taken in the organization.
 */
export function* add(tenantId: string, organizationId: string, n: NewNotification, answerCopies: number): Work<boolean> {
  // docs/api.md "Disabled organizations and documents": the organization (and the document) exist from the first write
  // that names them, and refuse when disabled.
  yield* enter(tenantId, organizationId, n.documentId ?? null, true);
  // What the notification row and each of its inbox rows hold alike.
  const shared = {
    tenantId,
    organizationId,
    notificationId: n.notificationId,
    timestamp: n.timestamp,
    documentId: n.documentId,
    locationId: n.locationId,
    actionUserId: n.actionUser.userId,
    actionUserName: n.actionUser.name,
    actionUserEmail: n.actionUser.email,
    answer: n.answer,
    notifyAll: n.notifyAll,
  };
  const inserted = yield* run(SQL.insert, {
    ...shared,
    headlineTemplate: n.headlineTemplate,
    headlineData: JSON.stringify(n.headlineData),
    headlineText: headlineOf(n.headlineTemplate, n.headlineData, n.actionUser),
    bodyMessage: n.bodyMessage,
    sourceData: JSON.stringify(n.sourceData),
    recipients: recipientsJson(n.recipients),
    source: n.source,
    context: n.context ?? null,
    resolverUsed: n.resolverUsed ?? false,
  });
  if (inserted === 0) return false;
  yield* emit([notificationAdded(organizationId, n)]);
  // Sent: nothing waits on its answer, so it goes out with what follows (sql.ts, `send`).
  yield* sendBatch(
    SQL.insertInbox,
    n.recipients.length <= answerCopies ? shared : { ...shared, answer: '' },
    n.recipients.map((r, position) => ({ userId: r.userId, position })),
  );
  return true;
}

type NotificationPositions = Pick<
  typeof N,
  | 'notificationId'
  | 'timestamp'
  | 'actionUserId'
  | 'actionUserName'
  | 'actionUserEmail'
  | 'answer'
  | 'listedReaders'
  | 'wideReaders'
  | 'profileVersion'
  | 'credentialsVersion'
>;

/** "[]" (SQLite) and null (PostgreSQL) both say nobody. */
const noneIn = (readers: unknown): boolean => readers === null || readers === '[]';

/** The read marks of a row (answers/notifications.ts lays them over its stored answer); null for none, as almost always. */
function readersOf(listed: unknown, wide: unknown): [string, string | null][] | null {
  if (noneIn(listed) && noneIn(wide)) return null;
  return [
    ...(noneIn(listed) ? [] : (JSON.parse(listed as string) as string[]).map((u): [string, null] => [u, null])),
    ...(noneIn(wide) ? [] : (JSON.parse(wide as string) as [string, string][])),
  ];
}

/** A notification read's row (positions `at`: the notification read's own, or another read's with the same fields). */
export function notificationFrom(r: unknown[], at: NotificationPositions = N): StoredNotification {
  return {
    notificationId: r[at.notificationId] as string,
    timestamp: Number(r[at.timestamp]),
    actionUser: {
      userId: r[at.actionUserId] as string,
      name: r[at.actionUserName] as string | null,
      email: r[at.actionUserEmail] as string | null,
    },
    ...versionsOf(r, at),
    answer: r[at.answer] as string,
    readers: readersOf(r[at.listedReaders], r[at.wideReaders]),
  };
}

export function read(tenantId: string, q: NotificationQuery): Query<StoredNotification[]> {
  const ascending = q.ascending === true;
  const after = q.after ?? (ascending ? FROM_START_ASCENDING : FROM_START);
  const statement = notificationRead(
    {
      byUser: q.userId !== null,
      document: q.documentId !== null,
      location: q.locationId !== null,
      ids: q.notificationIds !== null,
      unread: q.userId !== null ? q.unread : null,
      archived: q.userId !== null ? q.archived : null,
      ascending,
    },
    q.limit,
  );
  const params = {
    tenantId,
    organizationId: q.organizationId,
    userId: q.userId,
    documentId: q.documentId,
    locationId: q.locationId,
    ids: list(q.notificationIds),
    afterTimestamp: after.timestamp,
    afterId: after.notificationId,
    limit: q.limit,
  };
  return query(statement, params, true, (rows) => (rows as unknown[][]).map((r) => notificationFrom(r)));
}

/**
 * notifications/update, in one transaction: content changes (each re-rendered by `render` from the
 * row as it is), then read marks. Answers the ids that exist.
 */
export function* change(
  tenantId: string,
  organizationId: string,
  changes: readonly NotificationChange[],
  render: (row: ChangeSource, change: NotificationChange) => { answer: string; row: ChangeSource },
): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const org = { tenantId, organizationId };
  const rows = yield* all(SQL.lockForChange, { ...org, ids: list(changes.map((c) => c.id)) });
  const refused = rows.find((r) => Boolean(r.document_disabled));
  if (refused) throw disabledDocument(String(refused.document_id));
  const found = new Map(rows.map((r) => [r.notification_id as string, sourceFrom(r, tenantId, organizationId)]));
  const contentRows: Record<string, unknown>[] = [];
  for (const c of changes) {
    const row = found.get(c.id);
    if (!row || !c.content) continue;
    const { answer, row: changed } = render(row, c);
    found.set(c.id, changed);
    contentRows.push({
      notificationId: c.id,
      actionUserId: changed.actionUser.userId,
      actionUserName: changed.actionUser.name,
      actionUserEmail: changed.actionUser.email,
      headlineTemplate: changed.headlineTemplate,
      headlineData: changed.headlineData,
      headlineText: headlineOf(changed.headlineTemplate, JSON.parse(changed.headlineData), changed.actionUser),
      bodyMessage: changed.bodyMessage,
      sourceData: changed.sourceData,
      answer,
    });
  }
  // A notification named twice changes once, as its last entry left it.
  const last = [...new Map(contentRows.map((r) => [r.notificationId as string, r])).values()];
  yield* batch(SQL.changeContent, org, last);
  yield* batch(
    SQL.changeInboxContent,
    org,
    last.map(({ notificationId, actionUserId, actionUserName, actionUserEmail, answer }) => ({
      notificationId,
      actionUserId,
      actionUserName,
      actionUserEmail,
      answer,
    })),
  );
  // Marks in (notification, user) order, so two writers lock counters in the same order (PostgreSQL).
  for (const c of inKeyOrder(changes, (x) => x.id)) {
    const row = found.get(c.id);
    if (!row) continue;
    for (const [users, unread] of [
      [c.readBy, false],
      [c.unreadBy, true],
    ] as const) {
      if (users.length === 0) continue;
      const params = { ...org, notificationId: c.id };
      const sorted = [...users].sort();
      // Listed recipients whose state changed; the others (already so, or not listed) are tried as members.
      const changed = new Set(
        (yield* all(SQL.markListed, { ...params, userIds: list(sorted), unread })).map((r) => r.user_id as string),
      );
      if (!row.notifyAll) continue;
      const rest = sorted.filter((u) => !changed.has(u));
      if (unread) yield* run(SQL.markWideUnread, { ...params, userIds: list(rest) });
      else {
        // A member's mark keeps their internal id, which the answer shows; derived only here, where it is needed.
        const members = rest.map((userId) => ({ userId, internalId: internalUserId(tenantId, organizationId, userId) }));
        yield* batch(SQL.markWideRead, params, members);
      }
    }
  }
  return new Set(found.keys());
}

/** A row of lockForChange as the notification it is. */
export function sourceFrom(r: Record<string, unknown>, tenantId: string, organizationId: string): ChangeSource {
  return {
    notificationId: r.notification_id as string,
    documentId: r.document_id as string | null,
    locationId: r.location_id as string | null,
    actionUser: {
      userId: r.action_user_id as string,
      name: r.action_user_name as string | null,
      email: r.action_user_email as string | null,
    },
    headlineTemplate: r.headline_template as string,
    headlineData: r.headline_data as string,
    bodyMessage: r.body_message as string,
    sourceData: r.source_data as string,
    timestamp: Number(r.timestamp),
    recipients: recipientsFrom(r.recipients as string, tenantId, organizationId).map(({ userId, internalId }) => ({
      userId,
      internalId,
    })),
    source: r.source as string,
    notifyAll: Boolean(r.notify_all),
    context: r.context as string | null,
    resolverUsed: Boolean(r.resolver_used),
  };
}

/**
 * docs/api.md "Disabled organizations and documents" for writes that reach notifications by id or by filters rather
 * than by their document: named ids in a disabled document refuse the write; found by other filters, they are
 * passed over.
 */
function* outsideDisabledDocuments(tenantId: string, organizationId: string, ids: string[], named: boolean): Work<string[]> {
  if (ids.length === 0) return ids;
  const disabled = yield* all(SQL.inDisabledDocuments, { tenantId, organizationId, ids: list(ids) });
  if (disabled.length === 0) return ids;
  if (named) throw disabledDocument(String(disabled[0]!.document_id));
  const skipped = new Set(disabled.map((r) => r.notification_id as string));
  return ids.filter((id) => !skipped.has(id));
}

/** notifications/delete: the notifications named, or matched by the filters, for everyone. Answers the ids deleted. */
export function* remove(tenantId: string, q: NotificationDeletion): Work<string[]> {
  yield* enter(tenantId, q.organizationId, q.documentId ?? null, false);
  const org = { tenantId, organizationId: q.organizationId };
  const found = yield* outsideDisabledDocuments(
    tenantId,
    q.organizationId,
    yield* selected(tenantId, q),
    q.notificationIds !== null,
  );
  const deleted = new Set<string>();
  for (let i = 0; i < found.length; i += 1000) {
    const ids = list(found.slice(i, i + 1000));
    // The notifications first: on PostgreSQL that locks them before their read rows go (see sql.ts).
    for (const r of yield* all(SQL.deleteNotifications, { ...org, ids })) deleted.add(r.notification_id as string);
    yield* run(SQL.deleteInbox, { ...org, ids });
    yield* run(SQL.deleteReads, { ...org, ids });
  }
  return found.filter((id) => deleted.has(id));
}

/** The ids a deletion selects, newest first. */
function* selected(tenantId: string, q: NotificationDeletion): Work<string[]> {
  const params = { tenantId, organizationId: q.organizationId, locationId: q.locationId, ids: list(q.notificationIds) };
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.notification_id as string);
  // By user: what lists them (docs/api.md, "POST /v1/notifications/delete"), never organization-wide ones by
  // membership alone.
  if (q.userId !== null) return ids(yield* all(SQL.idsListing, { ...params, userId: q.userId, documentId: q.documentId }));
  if (q.documentId !== null) return ids(yield* all(SQL.idsOfDocument, { ...params, documentId: q.documentId }));
  if (q.locationId !== null) return ids(yield* all(SQL.idsAtLocation, params));
  return ids(yield* all(SQL.idsNamed, params));
}

/** count/get's rows, as the service adds them up (services/inbox.ts). */
export function count(tenantId: string, organizationId: string, userId: string, documentId: string | null): Query<InboxCount> {
  return query(SQL.count, { tenantId, organizationId, userId, documentId: documentId ?? '' }, true, (rows) => {
    const [
      total,
      unread,
      wideListed,
      wideRead,
      archived,
      archivedUnread,
      wideArchived,
      wideArchivedRead,
      wide,
      member,
      credentialsVersion,
    ] = (rows as unknown[][])[0]!;
    return {
      total: Number(total ?? 0),
      unread: Number(unread ?? 0),
      wideListed: Number(wideListed ?? 0),
      wideRead: Number(wideRead ?? 0),
      archived: Number(archived ?? 0),
      archivedUnread: Number(archivedUnread ?? 0),
      wideArchived: Number(wideArchived ?? 0),
      wideArchivedRead: Number(wideArchivedRead ?? 0),
      wide: Number(wide ?? 0),
      member: Boolean(member),
      credentialsVersion: Number(credentialsVersion),
    };
  });
}

/** notifications/read: marks what matches read by the user; answers how many were newly marked. */
export function* markRead(
  tenantId: string,
  organizationId: string,
  user: Recipient,
  documentId: string | null,
  ids: string[] | null,
): Work<number> {
  yield* enter(tenantId, organizationId, documentId, false);
  // Named by id, one in a disabled document refuses the write; by filters, those are passed over (in the statements).
  if (ids !== null) yield* outsideDisabledDocuments(tenantId, organizationId, ids, true);
  const params = { tenantId, organizationId, userId: user.userId, internalId: user.internalId, documentId, ids: list(ids) };
  return (yield* run(SQL.readListed, params)) + (yield* run(SQL.readWide, params));
}

/**
 * notifications/archive (docs/api.md, "POST /v1/notifications/archive"): the notifications named (ids), or every
 * one the user has read (null), archived for the user alone; answers how many were newly archived. A named
 * notification that does not reach the user (not listed, not organization-wide for a member) is passed over.
 */
export function* archive(tenantId: string, organizationId: string, userId: string, ids: string[] | null): Work<number> {
  yield* enter(tenantId, organizationId, null, false);
  // Named by id, one in a disabled document refuses the write, as a read mark does; all read passes those over.
  if (ids !== null) yield* outsideDisabledDocuments(tenantId, organizationId, ids, true);
  const params = { tenantId, organizationId, userId, ids: list(ids) };
  if (ids === null) return (yield* run(SQL.archiveListedRead, params)) + (yield* run(SQL.archiveWideRead, params));
  return (yield* run(SQL.archiveListed, params)) + (yield* run(SQL.archiveWide, params));
}

/** notifications/unarchive: the notifications named, back in the user's inbox; answers how many changed. */
export function* unarchive(tenantId: string, organizationId: string, userId: string, ids: string[]): Work<number> {
  yield* enter(tenantId, organizationId, null, false);
  yield* outsideDisabledDocuments(tenantId, organizationId, ids, true);
  const params = { tenantId, organizationId, userId, ids: list(ids) };
  return (yield* run(SQL.unarchiveListed, params)) + (yield* run(SQL.unarchiveWide, params));
}

/** The document of each notification named that exists (null: a notification of the organization). */
export function* documentsOf(tenantId: string, organizationId: string, ids: readonly string[]): Work<Map<string, string | null>> {
  const rows = yield* all(SQL.documentsOf, { tenantId, organizationId, ids: list(ids) });
  return new Map(rows.map((r) => [r.notification_id as string, r.document_id as string | null]));
}

/** notifications/config/get: the settings the user set for each of the documents (absent: never set). */
export function* settingsOf(
  tenantId: string,
  organizationId: string,
  userId: string,
  documentIds: readonly string[],
): Work<Map<string, NotificationSetting>> {
  const rows = yield* all(SQL.settingsOf, { tenantId, organizationId, userId, documentIds: list(documentIds) });
  return new Map(rows.map((r) => [r.document_id as string, { inbox: r.inbox, email: r.email } as NotificationSetting]));
}

/** notifications/config/set: each (document, user) pair, in key order. */
export function* setSettings(
  tenantId: string,
  organizationId: string,
  documentIds: readonly string[],
  userIds: readonly string[],
  setting: Partial<NotificationSetting>,
): Work<void> {
  // docs/api.md "Disabled organizations and documents": the organization and each document exist from the first write
  // that names them, and refuse when disabled.
  yield* enter(tenantId, organizationId, null, true);
  for (const documentId of [...documentIds].sort())
    if (documentId !== ORGANIZATION_LEVEL) yield* enterDocument(tenantId, organizationId, documentId);
  const pairs = [...documentIds].sort().flatMap((documentId) => [...userIds].sort().map((userId) => ({ documentId, userId })));
  yield* batch(SQL.setSettings, { tenantId, organizationId, inbox: setting.inbox ?? null, email: setting.email ?? null }, pairs);
}
