// Store code for notifications and their recipients' inboxes.
import { joinedProfile } from '../select.js';
import { arrays, batch, list, run, type Work } from '../sql.js';
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
  const key = { tenantId, organizationId, notificationId: n.notificationId };
  const inserted = yield* run(SQL.insert, {
    ...key,
    documentId: n.documentId,
    locationId: n.locationId,
    actionUserId: n.actionUser.userId,
    actionUserName: n.actionUser.name,
    actionUserEmail: n.actionUser.email,
    headlineTemplate: n.headlineTemplate,
    headlineData: JSON.stringify(n.headlineData),
    bodyMessage: n.bodyMessage,
    sourceData: JSON.stringify(n.sourceData),
    timestamp: n.timestamp,
    recipients: recipientsJson(n.recipients),
  });
  if (inserted === 0) return false;
  yield* batch(
    SQL.insertRecipients,
    { ...key, timestamp: n.timestamp },
    n.recipients.map((r, position) => ({ userId: r.userId, position })),
  );
  return true;
}

/**
 * The row's recipients column: [[userId, unread, internalId], ...] in the order they were listed. Rows
 * written before the internal id was kept have no third element.
 */
function recipientsFrom(json: string): StoredNotification['recipients'] {
  return (JSON.parse(json) as [string, boolean | number, string?][]).map(([userId, unread, internalId]) => ({
    userId,
    internalId: internalId ?? null,
    unread: Boolean(unread),
  }));
}

function notificationFrom(r: unknown[]): StoredNotification {
  return {
    notificationId: r[N.notificationId] as string,
    documentId: r[N.documentId] as string | null,
    locationId: r[N.locationId] as string | null,
    actionUser: {
      userId: r[N.actionUserId] as string,
      name: r[N.actionUserName] as string | null,
      email: r[N.actionUserEmail] as string | null,
    },
    headlineTemplate: r[N.headlineTemplate] as string,
    headlineData: JSON.parse(r[N.headlineData] as string) as Record<string, unknown>,
    bodyMessage: r[N.bodyMessage] as string,
    sourceData: JSON.parse(r[N.sourceData] as string) as Record<string, unknown>,
    timestamp: Number(r[N.timestamp]),
    recipients: recipientsFrom(r[N.recipients] as string),
    actionUserProfile: joinedProfile(r, N),
  };
}

export function* read(tenantId: string, q: NotificationQuery): Work<StoredNotification[]> {
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
  const rows = yield* arrays(statement, {
    tenantId,
    organizationId: q.organizationId,
    userId: q.userId,
    documentId: q.documentId,
    locationId: q.locationId,
    ids: list(q.notificationIds),
    afterTimestamp: after.timestamp,
    afterId: after.notificationId,
    limit: q.limit,
  });
  return rows.map(notificationFrom);
}
