// The statements of notifications, SQLite and PostgreSQL side by side, and the select list of the
// notification read.
import { CREDENTIALS_VERSION, columnsOf, PROFILE_VERSION, positions } from '../select.js';
import { POSTGRES, SQLITE, type Syntax } from '../dialect/syntax.js';
import { madeOnDemand, same, sql, type Statement, written } from '../sql.js';

/** The columns a branch of the read takes from its rows (an inbox row or a notification: same names). */
const ROW_COLUMNS = 'n.notification_id, n.timestamp, n.action_user_id, n.action_user_name, n.action_user_email, n.answer';
/**
 * The same from an inbox row, whose answer is a copy of its notification's, or '' where the
 * notification has more recipients than MARGINALIA_INBOX_ANSWER_COPIES: then the answer, which names
 * every recipient, is read once from the notification (docs/decisions.md, "Each answer written once").
 */
const INBOX_COLUMNS = `n.notification_id, n.timestamp, n.action_user_id, n.action_user_name, n.action_user_email,
  CASE WHEN n.answer = '' THEN (SELECT x.answer FROM notifications x WHERE x.tenant_id = n.tenant_id
    AND x.organization_id = n.organization_id AND x.notification_id = n.notification_id) ELSE n.answer END AS answer`;

/**
 * Who has read the notification, as JSON text: listed recipients whose inbox row is read
 * (inbox_readers holds only those) as [userId, ...], and members who read an organization-wide one
 * (notification_reads) as [[userId, internalId], ...]. SQLite answers "[]" for none, PostgreSQL null.
 * Almost every notification has none: two probes of small indexes that find nothing. Both walk an index
 * keyed (..., notification_id, user_id), so SQLite yields readers in userId order without a sort (the
 * query-plan test holds the indexes); PostgreSQL is told the order.
 */
const listedReaders = (s: Syntax, n: string): string => {
  const from = `FROM inbox i WHERE i.tenant_id = @tenantId AND i.organization_id = @organizationId
      AND i.notification_id = ${n}.notification_id AND ${s.isFalse('i.unread')}`;
  return s.aggregateOrNull(s.jsonAgg('i.user_id', 'i.user_id'), from);
};
const wideReaders = (s: Syntax, n: string): string => {
  const from = `FROM notification_reads w WHERE w.tenant_id = @tenantId AND w.organization_id = @organizationId
      AND w.notification_id = ${n}.notification_id`;
  return s.aggregateOrNull(s.jsonAgg(s.jsonArray('w.user_id', 'w.internal_id'), 'w.user_id'), from);
};

/** The select list over rows named `n` (a notification, an inbox row, or a merged page of both). */
const selectList = (s: Syntax, n = 'n') =>
  ({
    notificationId: `${n}.notification_id`,
    timestamp: `${n}.timestamp`,
    actionUserId: `${n}.action_user_id`,
    actionUserName: `${n}.action_user_name`,
    actionUserEmail: `${n}.action_user_email`,
    answer: `${n}.answer`,
    listedReaders: listedReaders(s, n),
    wideReaders: wideReaders(s, n),
    profileVersion: PROFILE_VERSION,
    credentialsVersion: CREDENTIALS_VERSION,
  }) as const;
/** Where each field sits in a row of the notification read. */
export const N = positions(selectList(SQLITE));

/** The user has a profile in the organization: what makes them a member, who finds its organization-wide notifications. */
export const IS_MEMBER = `EXISTS (SELECT 1 FROM users p WHERE p.tenant_id = @tenantId AND p.organization_id = @organizationId
  AND p.user_id = @userId)`;

/**
 * One key probe per organization-wide row, as a scalar subquery: PostgreSQL turns NOT EXISTS into an
 * anti-join, and with a busy inbox chose to read all of it (9,000 rows) to rule out a handful of rows.
 */
const found = (from: string, yes: boolean): string => `(SELECT 1 ${from} LIMIT 1) IS ${yes ? 'NOT ' : ''}NULL`;

/** Whether the notification n lists the user. */
const listsUser = (yes: boolean): string =>
  found(
    `FROM inbox i WHERE i.tenant_id = n.tenant_id AND i.organization_id = n.organization_id
  AND i.notification_id = n.notification_id AND i.user_id = @userId`,
    yes,
  );
const LISTS_NOT = listsUser(false);

/** Whether the user has read the organization-wide notification n that does not list them. */
const wideRead = (yes: boolean): string =>
  found(
    `FROM notification_reads w WHERE w.tenant_id = n.tenant_id
  AND w.organization_id = n.organization_id AND w.notification_id = n.notification_id AND w.user_id = @userId`,
    yes,
  );
const WIDE_UNREAD = wideRead(false);

/** Whether the user has archived the organization-wide notification n that does not list them (migration 41). */
const wideArchived = (yes: boolean): string =>
  found(
    `FROM notification_archives a WHERE a.tenant_id = n.tenant_id
  AND a.organization_id = n.organization_id AND a.notification_id = n.notification_id AND a.user_id = @userId`,
    yes,
  );

/**
 * PostgreSQL: a read mark of an organization-wide notification holds its row (KEY SHARE), so it waits
 * for a delete that has it (notifications/delete deletes the row first) and then finds it gone: no read
 * row outlives its notification. SQLite runs one write at a time. In key order: `n.notification_id`.
 */
const lockNotification = (s: Syntax, order: string) => s.lockInOrder(order, 'KEY SHARE', { of: 'n' });

/**
 * Whether the row's document (`alias`.document_id; none for a notification without one) is disabled (docs/api.md,
 * "Disabled organizations and documents").
 */
const IN_DISABLED_DOCUMENT = (alias: string) => `EXISTS (SELECT 1 FROM documents dd WHERE dd.tenant_id = ${alias}.tenant_id
  AND dd.organization_id = ${alias}.organization_id AND dd.document_id = ${alias}.document_id AND dd.disabled)`;

/** The columns a changed notification is rendered from (notifications.ts, sourceFrom): a change and a location move read them. */
export const CHANGE_SOURCE_COLUMNS = `notification_id, document_id, location_id, action_user_id, action_user_name, action_user_email,
  headline_template, headline_data, body_message, source_data, timestamp, recipients, source, notify_all, context, resolver_used`;

/** An inbox row's answer (`row`) after its notification's changed to `answer`: the new copy, or none if it kept none. */
export const KEPT_COPY = (row: string, answer: string): string => `CASE WHEN ${row} = '' THEN '' ELSE ${answer} END`;

export const NOTIFICATIONS_SQL = {
  insert: same(
    'insertNotification',
    `INSERT INTO notifications (tenant_id, organization_id, notification_id, document_id, location_id,
       action_user_id, action_user_name, action_user_email, headline_template, headline_data, headline_text,
       body_message, source_data, timestamp, recipients, answer, notify_all, source, context, resolver_used)
     VALUES (@tenantId, @organizationId, @notificationId, @documentId, @locationId, @actionUserId,
       @actionUserName, @actionUserEmail, @headlineTemplate, @headlineData, @headlineText, @bodyMessage,
       @sourceData, @timestamp, @recipients, @answer, @notifyAll, @source, @context, @resolverUsed)
     ON CONFLICT DO NOTHING`,
  ),
  insertInbox: sql('insertInbox', {
    sqlite: `INSERT INTO inbox (tenant_id, organization_id, user_id, timestamp, notification_id, position, unread, document_id,
               location_id, action_user_id, action_user_name, action_user_email, answer, wide)
             VALUES (@tenantId, @organizationId, @userId, @timestamp, @notificationId, @position, 1, @documentId,
               @locationId, @actionUserId, @actionUserName, @actionUserEmail, @answer, @notifyAll)`,
    postgres: `INSERT INTO inbox (tenant_id, organization_id, user_id, timestamp, notification_id, position, unread, document_id,
                 location_id, action_user_id, action_user_name, action_user_email, answer, wide)
               SELECT @tenantId, @organizationId, r.user_id, @timestamp, @notificationId, r.position, true, @documentId,
                 @locationId, @actionUserId, @actionUserName, @actionUserEmail, @answer, @notifyAll::boolean
               FROM unnest(@userId::text[], @position::int[]) AS r(user_id, position)
               ORDER BY r.user_id`,
  }),
  /** The document of each notification named (null: the organization's): what verifyUserPermissions checks access to. */
  documentsOf: written(
    'notificationDocuments',
    (s) => `SELECT notification_id, document_id FROM notifications
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND ${s.isIn('notification_id', 'ids')}`,
  ),
  /** What notifications/update renders a changed answer from; locks the rows on PostgreSQL. */
  lockForChange: written(
    'lockNotificationsForChange',
    // document_disabled: a notification of a disabled document refuses the change (docs/api.md,
    // "Disabled organizations and documents"), read with the lock.
    (s) => `SELECT ${CHANGE_SOURCE_COLUMNS}, ${IN_DISABLED_DOCUMENT('notifications')} AS document_disabled
     FROM notifications WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND ${s.isIn('notification_id', 'ids')}
     ORDER BY notification_id${s.lock('UPDATE')}`,
  ),
  changeContent: sql('changeNotificationContent', {
    sqlite: `UPDATE notifications SET action_user_id = @actionUserId, action_user_name = @actionUserName,
               action_user_email = @actionUserEmail, headline_template = @headlineTemplate, headline_data = @headlineData,
               headline_text = @headlineText, body_message = @bodyMessage, source_data = @sourceData, answer = @answer
             WHERE tenant_id = @tenantId AND organization_id = @organizationId AND notification_id = @notificationId`,
    postgres: `UPDATE notifications n SET action_user_id = x.action_user_id, action_user_name = x.action_user_name,
                 action_user_email = x.action_user_email, headline_template = x.headline_template,
                 headline_data = x.headline_data, headline_text = x.headline_text, body_message = x.body_message,
                 source_data = x.source_data, answer = x.answer
               FROM unnest(@notificationId::text[], @actionUserId::text[], @actionUserName::text[], @actionUserEmail::text[],
                 @headlineTemplate::text[], @headlineData::text[], @headlineText::text[], @bodyMessage::text[],
                 @sourceData::text[], @answer::text[])
                 AS x(notification_id, action_user_id, action_user_name, action_user_email, headline_template,
                   headline_data, headline_text, body_message, source_data, answer)
               WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId AND n.notification_id = x.notification_id`,
  }),
  /** The recipients' rows follow a change; a row without a copy of the answer ('') stays without. */
  changeInboxContent: sql('changeInboxContent', {
    sqlite: `UPDATE inbox SET action_user_id = @actionUserId, action_user_name = @actionUserName,
               action_user_email = @actionUserEmail, answer = ${KEPT_COPY('answer', '@answer')}
             WHERE tenant_id = @tenantId AND organization_id = @organizationId AND notification_id = @notificationId`,
    postgres: `UPDATE inbox i SET action_user_id = x.action_user_id, action_user_name = x.action_user_name,
                 action_user_email = x.action_user_email, answer = ${KEPT_COPY('i.answer', 'x.answer')}
               FROM unnest(@notificationId::text[], @actionUserId::text[], @actionUserName::text[], @actionUserEmail::text[],
                 @answer::text[]) AS x(notification_id, action_user_id, action_user_name, action_user_email, answer)
               WHERE i.tenant_id = @tenantId AND i.organization_id = @organizationId AND i.notification_id = x.notification_id`,
  }),
  /** Listed recipients' marks: their own inbox rows; answers the users whose state changed. */
  markListed: written(
    'markListedRecipients',
    (s) => `UPDATE inbox SET unread = @unread${s.cast('boolean')}
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND notification_id = @notificationId
       AND ${s.isIn('user_id', 'userIds')}
       AND unread <> @unread${s.cast('boolean')}
     RETURNING user_id`,
  ),
  /** A member's read of an organization-wide notification that does not list them. */
  markWideRead: sql('markWideRead', {
    sqlite: `INSERT INTO notification_reads (tenant_id, organization_id, notification_id, user_id, internal_id, document_id)
             SELECT n.tenant_id, n.organization_id, n.notification_id, @userId, @internalId, n.document_id FROM notifications n
             WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId AND n.notification_id = @notificationId
               AND n.notify_all = 1 AND ${IS_MEMBER} AND ${LISTS_NOT}
             ON CONFLICT DO NOTHING`,
    postgres: `INSERT INTO notification_reads (tenant_id, organization_id, notification_id, user_id, internal_id, document_id)
               SELECT n.tenant_id, n.organization_id, n.notification_id, u.user_id, u.internal_id, n.document_id
               FROM unnest(@userId::text[], @internalId::text[]) AS u(user_id, internal_id)
               JOIN notifications n ON n.tenant_id = @tenantId AND n.organization_id = @organizationId
                 AND n.notification_id = @notificationId AND n.notify_all
               WHERE EXISTS (SELECT 1 FROM users p WHERE p.tenant_id = n.tenant_id AND p.organization_id = n.organization_id
                   AND p.user_id = u.user_id)
                 AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.tenant_id = n.tenant_id AND i.organization_id = n.organization_id
                   AND i.notification_id = n.notification_id AND i.user_id = u.user_id)
               ${lockNotification(POSTGRES, 'u.user_id')}
               ON CONFLICT DO NOTHING`,
  }),
  markWideUnread: written(
    'markWideUnread',
    (s) => `DELETE FROM notification_reads WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND notification_id = @notificationId
       AND ${s.isIn('user_id', 'userIds')}`,
  ),
  /**
   * notifications/delete by location without a document or user: the organization's notifications at
   * that location (no index holds locations alone; the organization's range of the key is walked).
   */
  idsAtLocation: written(
    'notificationIdsAtLocation',
    (s) => `SELECT notification_id FROM notifications
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND location_id = @locationId
       AND ${s.inList('notification_id', 'ids')}
     ORDER BY timestamp DESC, notification_id DESC`,
  ),
  /**
   * notifications/delete by user: what lists the user (docs/api.md, "POST /v1/notifications/delete": never
   * organization-wide ones by membership).
   */
  idsListing: written(
    'notificationIdsListing',
    (s) => `SELECT notification_id FROM inbox
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
       AND ${s.whenGiven('document_id', 'documentId')}
       AND ${s.whenGiven('location_id', 'locationId')}
       AND ${s.inList('notification_id', 'ids')}
     ORDER BY timestamp DESC, notification_id DESC`,
  ),
  /**
   * Through inbox_by_notification: SQLite, not told, chose the primary key's (tenant, organization)
   * prefix with a Bloom filter, a walk of every inbox row of the organization per call (an erasure of
   * 6,000 notifications went from under a second to a minute: docs/decisions.md, "Long operations").
   */
  deleteInbox: written(
    'deleteInboxOf',
    (s) => `DELETE FROM inbox${s.indexedBy('inbox_by_notification')}
       WHERE tenant_id = @tenantId AND organization_id = @organizationId AND ${s.isIn('notification_id', 'ids')}`,
  ),
  deleteReads: written(
    'deleteReadsOf',
    (s) => `DELETE FROM notification_reads WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND ${s.isIn('notification_id', 'ids')}`,
  ),
  /** First in a delete: it locks the rows, so a concurrent read mark waits and then finds nothing. */
  deleteNotifications: written(
    'deleteNotifications',
    (s) => `DELETE FROM notifications WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND ${s.isIn('notification_id', 'ids')}
     RETURNING notification_id`,
  ),
  /**
   * The documents, disabled, of the notifications @ids (docs/api.md, "Disabled organizations and documents"): a
   * write must not change those.
   */
  inDisabledDocuments: written(
    'notificationsInDisabledDocuments',
    (s) => `SELECT n.notification_id, n.document_id FROM notifications n
     WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId AND ${s.isIn('n.notification_id', 'ids')}
       AND ${IN_DISABLED_DOCUMENT('n')} ORDER BY n.notification_id`,
  ),
  /** notifications/delete by ids alone: those that exist. */
  idsNamed: written(
    'notificationIdsNamed',
    (s) => `SELECT notification_id FROM notifications WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND ${s.isIn('notification_id', 'ids')}
     ORDER BY timestamp DESC, notification_id DESC`,
  ),
  /** notifications/delete by document: what notifications/get by document reads, ids only. */
  idsOfDocument: written(
    'notificationIdsOfDocument',
    (s) => `SELECT notification_id FROM notifications
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
       AND ${s.whenGiven('location_id', 'locationId')} AND ${s.inList('notification_id', 'ids')}
     ORDER BY timestamp DESC, notification_id DESC`,
  ),
  /**
   * count/get: the user's counters, the organization-wide count, whether they are a member, and the
   * credentials version, in one statement of key lookups (notifications/counts-schema.ts).
   */
  count: same(
    'countNotifications',
    // An aggregate over the one counter row (or none) answers exactly one row.
    `SELECT max(c.total) AS total, max(c.unread) AS unread, max(c.wide_listed) AS wide_listed, max(c.wide_read) AS wide_read,
       max(c.archived) AS archived, max(c.archived_unread) AS archived_unread, max(c.wide_archived) AS wide_archived,
       max(c.wide_archived_read) AS wide_archived_read,
       (SELECT w.total FROM wide_counts w WHERE w.tenant_id = @tenantId AND w.organization_id = @organizationId
          AND w.document_id = @documentId) AS wide,
       ${IS_MEMBER} AS member, ${CREDENTIALS_VERSION} AS credentials_version
     FROM inbox_counts c WHERE c.tenant_id = @tenantId AND c.organization_id = @organizationId
       AND c.user_id = @userId AND c.document_id = @documentId`,
  ),
  /** notifications/read: the user's unread listed rows that match; answers how many. */
  readListed: written(
    'readListed',
    // SQLite is told the index: with few statistics it would walk the user's whole inbox by key.
    (s) => `UPDATE inbox${s.indexedBy('inbox_unread')} SET unread = ${s.false}
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
       AND unread = ${s.true}
       AND ${s.whenGiven('document_id', 'documentId')}
       AND ${s.inList('notification_id', 'ids')} AND NOT ${IN_DISABLED_DOCUMENT('inbox')}`,
  ),
  /** notifications/read: the organization-wide notifications that match and that a member has not read. */
  readWide: written(
    'readWide',
    (s) => `INSERT INTO notification_reads (tenant_id, organization_id, notification_id, user_id, internal_id, document_id)
     SELECT n.tenant_id, n.organization_id, n.notification_id, @userId, @internalId, n.document_id
     FROM notifications n${s.indexedBy('notifications_wide')}
     WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId AND n.notify_all = ${s.true}
       AND ${s.whenGiven('n.document_id', 'documentId')}
       AND ${s.inList('n.notification_id', 'ids')} AND NOT ${IN_DISABLED_DOCUMENT('n')}
       AND ${IS_MEMBER} AND ${LISTS_NOT} AND ${WIDE_UNREAD}
     ${lockNotification(s, 'n.notification_id')}
     ON CONFLICT DO NOTHING`,
  ),
  /**
   * notifications/archive by ids (docs/api.md, "POST /v1/notifications/archive"): the user's listed rows named
   * that are not archived; answers how many changed.
   */
  archiveListed: written(
    'archiveListed',
    (s) => `UPDATE inbox${s.indexedBy('inbox_by_notification')} SET archived = ${s.true}
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
       AND archived = ${s.false} AND ${s.isIn('notification_id', 'ids')}`,
  ),
  /** notifications/archive with allRead: the user's read listed rows not archived, outside disabled documents. */
  archiveListedRead: written(
    'archiveListedRead',
    (s) => `UPDATE inbox SET archived = ${s.true}
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
       AND archived = ${s.false} AND unread = ${s.false} AND NOT ${IN_DISABLED_DOCUMENT('inbox')}`,
  ),
  /**
   * notifications/archive by ids: the organization-wide notifications named that do not list the member. Holds
   * the notification's row like readWide, so it waits for a delete and then finds nothing.
   */
  archiveWide: written(
    'archiveWide',
    (s) => `INSERT INTO notification_archives (tenant_id, organization_id, notification_id, user_id, document_id)
     SELECT n.tenant_id, n.organization_id, n.notification_id, @userId, n.document_id FROM notifications n
     WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId AND ${s.isIn('n.notification_id', 'ids')}
       AND n.notify_all = ${s.true} AND ${IS_MEMBER} AND ${LISTS_NOT}
     ${lockNotification(s, 'n.notification_id')}
     ON CONFLICT DO NOTHING`,
  ),
  /** notifications/archive with allRead: the organization-wide notifications the member has read (notification_reads). */
  archiveWideRead: written(
    'archiveWideRead',
    (s) => `INSERT INTO notification_archives (tenant_id, organization_id, notification_id, user_id, document_id)
     SELECT n.tenant_id, n.organization_id, n.notification_id, @userId, n.document_id
     FROM notification_reads w JOIN notifications n ON n.tenant_id = w.tenant_id AND n.organization_id = w.organization_id
       AND n.notification_id = w.notification_id
     WHERE w.tenant_id = @tenantId AND w.organization_id = @organizationId AND w.user_id = @userId
       AND ${IS_MEMBER} AND NOT ${IN_DISABLED_DOCUMENT('n')}
     ${lockNotification(s, 'n.notification_id')}
     ON CONFLICT DO NOTHING`,
  ),
  /** notifications/unarchive: the user's archived listed rows named. */
  unarchiveListed: written(
    'unarchiveListed',
    (s) => `UPDATE inbox${s.indexedBy('inbox_by_notification')} SET archived = ${s.false}
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
       AND archived = ${s.true} AND ${s.isIn('notification_id', 'ids')}`,
  ),
  /** notifications/unarchive: the user's archives of organization-wide notifications named. */
  unarchiveWide: written(
    'unarchiveWide',
    (s) => `DELETE FROM notification_archives
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
       AND ${s.isIn('notification_id', 'ids')}`,
  ),
  /** notifications/config/get: the settings the user has for the documents. */
  settingsOf: written(
    'notificationSettingsOf',
    (s) => `SELECT document_id, inbox, email FROM notification_settings
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
       AND ${s.isIn('document_id', 'documentIds')}`,
  ),
  /**
   * The inbox settings of users for one document (the fan-out): each user's for the document, and their
   * organization-level one ('', the default for documents without one), the document's first.
   */
  inboxSettings: written(
    'inboxSettings',
    (s) => `SELECT user_id, inbox FROM notification_settings
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id IN (@documentId, '')
       AND ${s.isIn('user_id', 'userIds')}
     ORDER BY document_id`,
  ),
  /** notifications/config/set: a setting not named keeps its value, or is MINE when there was none. */
  setSettings: sql('setNotificationSettings', {
    sqlite: `INSERT INTO notification_settings (tenant_id, organization_id, document_id, user_id, inbox, email)
             VALUES (@tenantId, @organizationId, @documentId, @userId, coalesce(@inbox, 'MINE'), coalesce(@email, 'MINE'))
             ON CONFLICT DO UPDATE SET inbox = coalesce(@inbox, inbox), email = coalesce(@email, email)`,
    postgres: `INSERT INTO notification_settings AS s (tenant_id, organization_id, document_id, user_id, inbox, email)
               SELECT @tenantId, @organizationId, x.document_id, x.user_id, coalesce(@inbox::text, 'MINE'), coalesce(@email::text, 'MINE')
               FROM unnest(@documentId::text[], @userId::text[]) AS x(document_id, user_id)
               ORDER BY x.document_id, x.user_id
               ON CONFLICT (tenant_id, organization_id, document_id, user_id)
               DO UPDATE SET inbox = coalesce(@inbox::text, s.inbox), email = coalesce(@email::text, s.email)`,
  }),
  /** Each author of a thread, with the place of their first comment (the fan-out's earlier authors). */
  threadAuthors: same(
    'threadAuthors',
    `SELECT from_user_id, min(seq) AS first_seq FROM comments
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
       AND annotation_id = @annotationId
     GROUP BY from_user_id`,
  ),
  /**
   * The document's members (users/add with the documentId) whose inbox setting (the document's, else their
   * organization-level one) is ALL: the fan-out's third rule.
   */
  membersWithAll: same(
    'documentMembersWithAll',
    `SELECT m.user_id FROM memberships m
       LEFT JOIN notification_settings d ON d.tenant_id = m.tenant_id AND d.organization_id = m.organization_id
         AND d.document_id = m.scope_id AND d.user_id = m.user_id
       LEFT JOIN notification_settings o ON o.tenant_id = m.tenant_id AND o.organization_id = m.organization_id
         AND o.document_id = '' AND o.user_id = m.user_id
     WHERE m.tenant_id = @tenantId AND m.organization_id = @organizationId AND m.scope_kind = 'document'
       AND m.scope_id = @documentId AND coalesce(d.inbox, o.inbox) = 'ALL'`,
  ),
};

/** Which of notifications/get's optional filters a query has. */
export interface NotificationFilterSet {
  /** By recipient (the inbox, and organization-wide notifications for a member) rather than by document. */
  byUser: boolean;
  document: boolean;
  location: boolean;
  ids: boolean;
  /** The user's read state: only unread (true), only read (false), or both (null). Needs byUser. */
  unread: boolean | null;
  /** The user's archive (migration 41): only archived (true), none archived (false), or both (null). Needs byUser. */
  archived: boolean | null;
  /** Oldest first (`order: "asc"`): the same indexes, walked the other way. */
  ascending?: boolean;
}

/** Every filter set notifications/get can produce (by document, the document is always given). */
export const NOTIFICATION_FILTER_SETS: readonly NotificationFilterSet[] = [false, true].flatMap((byUser) =>
  [false, true].flatMap((location) =>
    [false, true].flatMap((ids) =>
      (byUser ? [false, true] : [true]).flatMap((document) =>
        (byUser ? [null, true, false] : [null]).flatMap((unread) =>
          (byUser ? [false, true, null] : [null]).flatMap((archived) =>
            [false, true].map((ascending) => ({ byUser, document, location, ids, unread, archived, ascending })),
          ),
        ),
      ),
    ),
  ),
);

const filterSetKey = (f: NotificationFilterSet): string =>
  `${f.byUser ? 'inbox' : 'document'}${f.byUser && f.document ? '+document' : ''}${f.location ? '+location' : ''}` +
  `${f.ids ? '+ids' : ''}${f.unread === null ? '' : f.unread ? '+unread' : '+read'}${archivedKey(f)}${f.ascending ? ' asc' : ''}`;

/** Reads by user hide what the user archived unless told (false, the default, adds nothing to the names). */
const archivedKey = (f: NotificationFilterSet): string =>
  !f.byUser || f.archived === false ? '' : f.archived ? '+archived' : '+withArchived';
/** The statement name's part for it on PostgreSQL. */
const archivedName = (f: NotificationFilterSet): string =>
  !f.byUser || f.archived === false ? '' : f.archived ? 'Archived' : 'WithArchived';

/** A read's order, its direction, and the comparison that takes the rows after the page token's. */
const direction = (f: NotificationFilterSet) => {
  const way = f.ascending ? 'ASC' : 'DESC';
  return {
    order: (alias: string) => `ORDER BY ${alias}timestamp ${way}, ${alias}notification_id ${way}`,
    after: f.ascending ? '>' : '<',
  };
};

/**
 * SQLite: one statement per filter set and page size. A filter that is absent leaves no clause at all:
 * SQLite runs a smaller program, which measured 10-15 us faster per read than one statement with
 * `(@x IS NULL OR ...)` for every filter. The limit is part of the text, not a parameter: with
 * `LIMIT ?` the same read measured 30-60 us slower (SQLite plans a bound limit as unknown).
 *
 * By user, the page merges two walks in (timestamp desc, id desc) order, each at most a page long: the
 * user's inbox rows, and the organization's organization-wide notifications that do not list the user
 * (when the user is a member). So paging stays exact however the two interleave.
 */
function sqliteRead(f: NotificationFilterSet, limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`bad notification read limit ${limit}`);
  const way = direction(f);
  const filters = [
    ...(f.document ? ['n.document_id = @documentId'] : []),
    ...(f.location ? ['n.location_id = @locationId'] : []),
    ...(f.ids ? [`n.notification_id IN (SELECT value FROM json_each(@ids))`] : []),
    `(n.timestamp, n.notification_id) ${way.after} (@afterTimestamp, @afterId)`,
  ];
  const org = ['n.tenant_id = @tenantId', 'n.organization_id = @organizationId'];
  if (!f.byUser) {
    const where = [...org, ...filters].join(' AND ');
    return `SELECT ${columnsOf(selectList(SQLITE))} FROM notifications n WHERE ${where} ${way.order('n.')} LIMIT ${limit}`;
  }
  const inbox = [
    ...org,
    'n.user_id = @userId',
    ...(f.unread === null ? [] : [`n.unread = ${f.unread ? 1 : 0}`]),
    ...(f.archived === null ? [] : [`n.archived = ${f.archived ? 1 : 0}`]),
    ...filters,
  ];
  const wide = [
    ...org,
    'n.notify_all = 1',
    ...filters,
    IS_MEMBER,
    `${LISTS_NOT}`,
    ...(f.unread === null ? [] : [wideRead(!f.unread)]),
    ...(f.archived === null ? [] : [wideArchived(f.archived)]),
  ];
  // SQLite merges the two walks (MERGE (UNION ALL)) and stops at the limit: no sort, and the readers
  // of a row are looked up only for the rows of the page.
  // The unread walk is told its index: without statistics SQLite would take the key and skip read rows.
  const inboxIndex = f.unread ? ' INDEXED BY inbox_unread' : '';
  return `SELECT ${columnsOf(selectList(SQLITE, 'page'))} FROM (
    SELECT ${INBOX_COLUMNS} FROM inbox n${inboxIndex} WHERE ${inbox.join(' AND ')}
    UNION ALL
    SELECT ${ROW_COLUMNS} FROM notifications n INDEXED BY notifications_wide WHERE ${wide.join(' AND ')}
    ${way.order('')} LIMIT ${limit}
  ) AS page ${way.order('page.')}`;
}

/** PostgreSQL: by document, and by user per read state, with optional filters; its planner handles them well. */
function postgresRead(f: NotificationFilterSet): string {
  const way = direction(f);
  const ORDER = way.order('n.');
  const filters = [
    POSTGRES.whenGiven('n.location_id', 'locationId'),
    POSTGRES.inList('n.notification_id', 'ids'),
    `(n.timestamp, n.notification_id) ${way.after} (@afterTimestamp::bigint, @afterId::text)`,
  ];
  const org = ['n.tenant_id = @tenantId', 'n.organization_id = @organizationId'];
  if (!f.byUser) {
    const where = [...org, 'n.document_id = @documentId', ...filters].join(' AND ');
    return `SELECT ${columnsOf(selectList(POSTGRES))} FROM notifications n WHERE ${where}
      ${ORDER} LIMIT @limit`;
  }
  const document = POSTGRES.whenGiven('n.document_id', 'documentId');
  const inbox = [
    ...org,
    'n.user_id = @userId',
    ...(f.unread === null ? [] : [f.unread ? 'n.unread' : 'NOT n.unread']),
    ...(f.archived === null ? [] : [f.archived ? 'n.archived' : 'NOT n.archived']),
    document,
    ...filters,
  ];
  const wide = [
    ...org,
    'n.notify_all',
    document,
    ...filters,
    IS_MEMBER,
    `${LISTS_NOT}`,
    ...(f.unread === null ? [] : [wideRead(!f.unread)]),
    ...(f.archived === null ? [] : [wideArchived(f.archived)]),
  ];
  return `SELECT ${columnsOf(selectList(POSTGRES, 'page'))} FROM (
    (SELECT ${INBOX_COLUMNS} FROM inbox n WHERE ${inbox.join(' AND ')} ${ORDER} LIMIT @limit)
    UNION ALL
    (SELECT ${ROW_COLUMNS} FROM notifications n WHERE ${wide.join(' AND ')} ${ORDER} LIMIT @limit)
  ) AS page ${way.order('page.')} LIMIT @limit`;
}

/** The notification read for a filter set and page size. Each walks its indexes in (timestamp desc, id desc) order. */
export const notificationRead = (f: NotificationFilterSet, limit: number): Statement => madeRead({ f, limit });

const madeRead = madeOnDemand(
  ({ f, limit }: { f: NotificationFilterSet; limit: number }) => `${filterSetKey(f)} ${limit}`,
  ({ f, limit }) => ({
    sqlite: { name: `notifications ${filterSetKey(f)} ${limit}`, text: sqliteRead(f, limit) },
    postgres: {
      name:
        (f.byUser ? `notificationsByUser${f.unread === null ? '' : f.unread ? 'Unread' : 'Read'}` : 'notificationsByDocument') +
        archivedName(f) +
        (f.ascending ? 'Ascending' : ''),
      text: postgresRead(f),
    },
  }),
);
