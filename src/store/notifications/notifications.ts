// Store code for notifications and their recipients' inboxes.
import { versionsOf } from '../select.js';
import { batch, list, type Query, query, run, type Work } from '../sql.js';
import type { NewNotification, NotificationQuery, Recipient, StoredNotification } from '../store.js';
import { N, NOTIFICATIONS_SQL as SQL, notificationRead } from './sql.js';

/** A position after every row of the (timestamp desc, id desc) order: "from the start". */
const FROM_START = { timestamp: Number.MAX_SAFE_INTEGER, notificationId: '' };

/** The recipients column as written by add: everyone unread. */
export function recipientsJson(recipients: readonly Recipient[]): string {
  return JSON.stringify(recipients.map((r) => [r.userId, true, r.internalId]));
}

/** Returns false when the notificationId is taken in the organization. */
export function* add(tenantId: string, organizationId: string, n: NewNotification): Work<boolean> {
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
  };
  const inserted = yield* run(SQL.insert, {
    ...shared,
    headlineTemplate: n.headlineTemplate,
    headlineData: JSON.stringify(n.headlineData),
    bodyMessage: n.bodyMessage,
    sourceData: JSON.stringify(n.sourceData),
    recipients: recipientsJson(n.recipients),
  });
  if (inserted === 0) return false;
  yield* batch(
    SQL.insertInbox,
    shared,
    n.recipients.map((r, position) => ({ userId: r.userId, position })),
  );
  return true;
}

function notificationFrom(r: unknown[]): StoredNotification {
  return {
    notificationId: r[N.notificationId] as string,
    timestamp: Number(r[N.timestamp]),
    actionUser: {
      userId: r[N.actionUserId] as string,
      name: r[N.actionUserName] as string | null,
      email: r[N.actionUserEmail] as string | null,
    },
    ...versionsOf(r, N),
    answer: r[N.answer] as string,
  };
}

export function read(tenantId: string, q: NotificationQuery): Query<StoredNotification[]> {
  const after = q.after ?? FROM_START;
  const statement = notificationRead(
    {
      byUser: q.userId !== null,
      document: q.documentId !== null,
      location: q.locationId !== null,
      ids: q.notificationIds !== null,
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
  return query(statement, params, true, (rows) => (rows as unknown[][]).map(notificationFrom));
}
