// The statements of notifications, SQLite and PostgreSQL side by side, and the select list of the
// notification read.
import { CREDENTIALS_VERSION, columnsOf, PROFILE_VERSION, positions } from '../select.js';
import { madeOnDemand, type Statement, same, sql } from '../sql.js';

const NOTIFICATION_SELECT = {
  notificationId: 'n.notification_id',
  timestamp: 'n.timestamp',
  actionUserId: 'n.action_user_id',
  actionUserName: 'n.action_user_name',
  actionUserEmail: 'n.action_user_email',
  answer: 'n.answer',
  profileVersion: PROFILE_VERSION,
  credentialsVersion: CREDENTIALS_VERSION,
} as const;
/** Where each field sits in a row of the notification read. */
export const N = positions(NOTIFICATION_SELECT);

/** The notification's columns and the organization's profile version: a page is one query. */
const COLUMNS = columnsOf(NOTIFICATION_SELECT);
/**
 * A user's inbox rows carry every column of the select list (migration 6), under the same alias: the
 * read by user is one range scan of contiguous rows, with no descent into notifications per row.
 */
const INBOX = 'inbox n';

export const NOTIFICATIONS_SQL = {
  insert: same(
    'insertNotification',
    `INSERT INTO notifications (tenant_id, organization_id, notification_id, document_id, location_id,
       action_user_id, action_user_name, action_user_email, headline_template, headline_data,
       body_message, source_data, timestamp, recipients, answer)
     VALUES (@tenantId, @organizationId, @notificationId, @documentId, @locationId, @actionUserId,
       @actionUserName, @actionUserEmail, @headlineTemplate, @headlineData, @bodyMessage,
       @sourceData, @timestamp, @recipients, @answer)
     ON CONFLICT DO NOTHING`,
  ),
  insertInbox: sql('insertInbox', {
    sqlite: `INSERT INTO inbox (tenant_id, organization_id, user_id, timestamp, notification_id, position, unread, document_id,
               location_id, action_user_id, action_user_name, action_user_email, answer)
             VALUES (@tenantId, @organizationId, @userId, @timestamp, @notificationId, @position, 1, @documentId,
               @locationId, @actionUserId, @actionUserName, @actionUserEmail, @answer)`,
    postgres: `INSERT INTO inbox (tenant_id, organization_id, user_id, timestamp, notification_id, position, unread, document_id,
                 location_id, action_user_id, action_user_name, action_user_email, answer)
               SELECT @tenantId, @organizationId, r.user_id, @timestamp, @notificationId, r.position, true, @documentId,
                 @locationId, @actionUserId, @actionUserName, @actionUserEmail, @answer
               FROM unnest(@userId::text[], @position::int[]) AS r(user_id, position)`,
  }),
};

/** Which of notifications/get's optional filters a query has. */
export interface NotificationFilterSet {
  /** By recipient (the inbox index) rather than by document. */
  byUser: boolean;
  document: boolean;
  location: boolean;
  ids: boolean;
}

/** Every filter set notifications/get can produce (by document, the document is always given). */
export const NOTIFICATION_FILTER_SETS: readonly NotificationFilterSet[] = [false, true].flatMap((byUser) =>
  [false, true].flatMap((location) =>
    [false, true].flatMap((ids) => (byUser ? [false, true] : [true]).map((document) => ({ byUser, document, location, ids }))),
  ),
);

const filterSetKey = (f: NotificationFilterSet): string =>
  `${f.byUser ? 'inbox' : 'document'}${f.byUser && f.document ? '+document' : ''}${f.location ? '+location' : ''}` +
  `${f.ids ? '+ids' : ''}`;

/**
 * SQLite: one statement per filter set and page size. A filter that is absent leaves no clause at all:
 * SQLite runs a smaller program, which measured 10-15 us faster per read than one statement with
 * `(@x IS NULL OR ...)` for every filter. The limit is part of the text, not a parameter: with
 * `LIMIT ?` the same read measured 30-60 us slower (SQLite plans a bound limit as unknown).
 */
function sqliteRead(f: NotificationFilterSet, limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`bad notification read limit ${limit}`);
  const where = [
    `n.tenant_id = @tenantId`,
    `n.organization_id = @organizationId`,
    ...(f.byUser ? ['n.user_id = @userId'] : []),
    ...(f.document ? ['n.document_id = @documentId'] : []),
    ...(f.location ? ['n.location_id = @locationId'] : []),
    ...(f.ids ? [`n.notification_id IN (SELECT value FROM json_each(@ids))`] : []),
    `(n.timestamp, n.notification_id) < (@afterTimestamp, @afterId)`,
  ];
  return `SELECT ${COLUMNS} FROM ${f.byUser ? INBOX : 'notifications n'} WHERE ${where.join(' AND ')}
    ORDER BY n.timestamp DESC, n.notification_id DESC LIMIT ${limit}`;
}

/** PostgreSQL: two statements (inbox, document) with optional filters; its planner handles both well. */
const PG_BY_DOCUMENT = `SELECT ${COLUMNS} FROM notifications n
  WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId AND n.document_id = @documentId
    AND (@locationId::text IS NULL OR n.location_id = @locationId)
    AND (@ids::text[] IS NULL OR n.notification_id = ANY(@ids::text[]))
    AND (n.timestamp, n.notification_id) < (@afterTimestamp::bigint, @afterId::text)
  ORDER BY n.timestamp DESC, n.notification_id DESC
  LIMIT @limit`;
const PG_BY_USER = `SELECT ${COLUMNS} FROM ${INBOX}
  WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId AND n.user_id = @userId
    AND (@documentId::text IS NULL OR n.document_id = @documentId)
    AND (@locationId::text IS NULL OR n.location_id = @locationId)
    AND (@ids::text[] IS NULL OR n.notification_id = ANY(@ids::text[]))
    AND (n.timestamp, n.notification_id) < (@afterTimestamp::bigint, @afterId::text)
  ORDER BY n.timestamp DESC, n.notification_id DESC
  LIMIT @limit`;

/** The notification read for a filter set and page size. Each walks one index in (timestamp desc, id desc) order. */
export const notificationRead = (f: NotificationFilterSet, limit: number): Statement => madeRead({ f, limit });

const madeRead = madeOnDemand(
  ({ f, limit }: { f: NotificationFilterSet; limit: number }) => `${filterSetKey(f)} ${limit}`,
  ({ f, limit }) => makeNotificationRead(f, limit),
);

function makeNotificationRead(f: NotificationFilterSet, limit: number): Statement {
  return {
    sqlite: { name: `notifications ${filterSetKey(f)} ${limit}`, text: sqliteRead(f, limit) },
    postgres: f.byUser
      ? { name: 'notificationsByUser', text: PG_BY_USER }
      : { name: 'notificationsByDocument', text: PG_BY_DOCUMENT },
  };
}
