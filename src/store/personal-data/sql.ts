// The statements of users/data/get and users/data/delete (docs/api.md, "POST /v1/users/data/delete"): one user's
// rows in an organization, read a page at a time and erased a batch at a time. SQLite and PostgreSQL side by side.
import { COMMENT_COLUMNS } from '../comments/sql.js';
import { CREDENTIALS_VERSION, columnsOf, PROFILE_VERSION, positions } from '../select.js';
import { SQLITE, type Syntax } from '../dialect/syntax.js';
import { KEPT_COPY } from '../notifications/sql.js';
import { same, sql, written } from '../sql.js';

const ORG = 'tenant_id = @tenantId AND organization_id = @organizationId';

/** A comment of the user's, as comments/get shows it, and where it is. */
const COMMENT_SELECT = {
  documentId: 'c.document_id',
  annotationId: 'c.annotation_id',
  ...COMMENT_COLUMNS,
  profileVersion: PROFILE_VERSION,
  credentialsVersion: CREDENTIALS_VERSION,
} as const;
export const UC = positions(COMMENT_SELECT);

/** Who has read a notification (as notifications/get lays it over the answer): "[]" or null for nobody. */
const readers = (s: Syntax) => ({
  listedReaders: `(SELECT ${s.jsonAgg('i.user_id', 'i.user_id')} FROM inbox i WHERE i.tenant_id = n.tenant_id
          AND i.organization_id = n.organization_id AND i.notification_id = n.notification_id AND ${s.isFalse('i.unread')})`,
  wideReaders: `(SELECT ${s.jsonAgg(s.jsonArray('w.user_id', 'w.internal_id'), 'w.user_id')} FROM notification_reads w
          WHERE w.tenant_id = n.tenant_id AND w.organization_id = n.organization_id AND w.notification_id = n.notification_id)`,
});

const notificationSelect = (s: Syntax) =>
  ({
    notificationId: 'n.notification_id',
    timestamp: 'n.timestamp',
    actionUserId: 'n.action_user_id',
    actionUserName: 'n.action_user_name',
    actionUserEmail: 'n.action_user_email',
    answer: 'n.answer',
    ...readers(s),
    profileVersion: PROFILE_VERSION,
    credentialsVersion: CREDENTIALS_VERSION,
  }) as const;
export const UN = positions(notificationSelect(SQLITE));

/** The erased users' rows of a column: `column IN (the list)`; an empty list matches nothing. */
const ofUsers = (s: Syntax, column: string) => s.isIn(column, 'userIds');

/**
 * The erased users' rows of a table keyed by (tenant, organization, ..., user), at most @limit of them
 * (an erasure batch), in no particular order (each batch deletes what it found; syntax.ts, deleteSomeByKey).
 */
const someOf = (table: string, keys: string) =>
  written(`erase ${table}`, (s) => s.deleteSomeByKey(table, keys, `${ORG} AND ${ofUsers(s, 'user_id')}`));

/**
 * Which of the listed users have a row of their own in the organization (the indexes by user of
 * migration 15, the primary keys of users, inbox on SQLite and inbox_counts): one probe per user and
 * table, each stopping at the first row.
 */
const HELD_BY_USER: [table: string, column: string][] = [
  ['users', 'user_id'],
  ['comments', 'from_user_id'],
  ['notifications', 'action_user_id'],
  ['inbox', 'user_id'],
  ['memberships', 'user_id'],
  ['group_members', 'user_id'],
  ['annotation_reads', 'user_id'],
  ['notification_reads', 'user_id'],
  ['notification_archives', 'user_id'],
  ['notification_settings', 'user_id'],
  ['inbox_counts', 'user_id'],
];
/**
 * One probe per user and table, each a scalar subquery stopping at the first row: PostgreSQL runs it
 * per user through the index by user, where an EXISTS could be planned (for a table just filled, not
 * yet analyzed) as a hash of every row of the organization.
 */
const heldBy = (column: string, tables: readonly (readonly [string, string])[]) =>
  tables
    .map(
      ([table, col]) => `(SELECT 1 FROM ${table} t WHERE t.tenant_id = @tenantId AND t.organization_id = @organizationId
        AND t.${col} = ${column} LIMIT 1) IS NOT NULL`,
    )
    .join('\n      OR ');
/** The listed users (@userIds) of whom one of `tables` holds a row in the organization. */
const usersWithRows = (s: Syntax, tables: readonly (readonly [string, string])[]) =>
  `SELECT u.value AS user_id FROM ${s.listRows('userIds', 'u')} WHERE ${heldBy('u.value', tables)}`;

/** The next window of a scan in key order (erasure: rows that may name the user in their JSON). */
const window = (s: Syntax, table: string, keys: string[], types: string[], columns: string) => {
  const after = keys.map((k, i) => s.typed(`after_${k}`, types[i]!)).join(', ');
  return `SELECT ${keys.join(', ')}, ${columns} FROM ${table} WHERE ${ORG} AND (${keys.join(', ')}) > (${after})
    ORDER BY ${keys.join(', ')} LIMIT @limit`;
};

/** Past the last batch's last comment of the user, in key order. */
const AFTER_AUTHORED = (s: Syntax) => `(document_id, annotation_id, comment_id) > (${s.typed('afterDocument', 'text')},
    ${s.typed('afterAnnotation', 'text')}, ${s.typed('afterComment', 'int')})`;

/**
 * The user's comments of one document from the batch's first to its last there, in key order
 * (comments_by_author). With the document fixed, PostgreSQL bounds the index scan by both row
 * comparisons; across documents it walked every index entry of the user from the first, deleted ones
 * included, on every batch (20 ms a batch after 5,000 of them).
 */
const AUTHORED_IN_RANGE = (s: Syntax) => `${ORG} AND from_user_id = @userId AND document_id = @documentId
  AND (annotation_id, comment_id) >= (${s.typed('firstAnnotation', 'text')}, ${s.typed('firstComment', 'int')})
  AND (annotation_id, comment_id) <= (${s.typed('lastAnnotation', 'text')}, ${s.typed('lastComment', 'int')})`;

export const PERSONAL_DATA_SQL = {
  // --- users/data/get ---
  /** The user's comments in (document, thread, commentId) order after the page token's position. */
  comments: written(
    'userDataComments',
    (s) => `SELECT ${columnsOf(COMMENT_SELECT)} FROM comments c
     WHERE c.tenant_id = @tenantId AND c.organization_id = @organizationId AND c.from_user_id = @userId
       AND (c.document_id, c.annotation_id, c.comment_id)
         > (${s.typed('afterDocument', 'text')}, ${s.typed('afterAnnotation', 'text')}, ${s.typed('afterComment', 'int')})
     ORDER BY c.document_id, c.annotation_id, c.comment_id LIMIT @limit`,
  ),
  /**
   * The notifications the user acted in, is listed in, or receives as a member (organization-wide,
   * docs/api.md "POST /v1/users/data/get"), newest first after the page token's position: a union of three walks of
   * at most
   * @limit each, the user's inbox (by user, newest first), the organization-wide ones (notifications_wide)
   * and the ones they acted in (notifications_by_actor: only their own rows are ordered), instead of
   * one walk of every notification of the organization.
   */
  /** Of the notifications @ids, those the user archived: their inbox rows' flag, or an archive row (migration 41). */
  archivedOf: written(
    'userDataArchived',
    (s) => `SELECT notification_id FROM inbox WHERE ${ORG} AND user_id = @userId AND ${s.isTrue('archived')}
       AND ${s.isIn('notification_id', 'ids')}
     UNION ALL SELECT notification_id FROM notification_archives WHERE ${ORG} AND user_id = @userId
       AND ${s.isIn('notification_id', 'ids')}`,
  ),
  notifications: written('userDataNotifications', (s) => {
    const after = `(${s.typed('afterTimestamp', 'bigint')}, ${s.typed('afterId', 'text')})`;
    const walk = (alias: string, from: string, where: string) => `SELECT notification_id FROM (SELECT ${alias}.notification_id
        FROM ${from} ${alias} WHERE ${alias}.tenant_id = @tenantId AND ${alias}.organization_id = @organizationId AND ${where}
          AND (${alias}.timestamp, ${alias}.notification_id) < ${after}
        ORDER BY ${alias}.timestamp DESC, ${alias}.notification_id DESC LIMIT @limit) ${alias}_walk`;
    const member = `EXISTS (SELECT 1 FROM users p WHERE p.tenant_id = @tenantId AND p.organization_id = @organizationId
          AND p.user_id = @userId)`;
    return `SELECT ${columnsOf(notificationSelect(s))} FROM notifications n
     WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId
       AND (n.timestamp, n.notification_id) < ${after}
       AND n.notification_id IN (
         ${walk('i', 'inbox', 'i.user_id = @userId')}
         UNION ${walk('w', 'notifications', `${s.isTrue('w.notify_all')} AND ${member}`)}
         UNION ${walk('a', 'notifications', 'a.action_user_id = @userId')})
     ORDER BY n.timestamp DESC, n.notification_id DESC LIMIT @limit`;
  }),

  // --- users/data/delete ---
  /**
   * Where the users have rows or are named (migration 27's index, by user): the organizations an
   * erasure visits, among @organizationIds when given, each with its users. A user found nowhere costs
   * one probe of the index.
   */
  organizations: written(
    'erasureOrganizations',
    (s) => `SELECT organization_id, user_id, named FROM user_organizations
     WHERE tenant_id = @tenantId AND ${s.isIn('user_id', 'userIds')} AND ${s.inList('organization_id', 'organizationIds')}
     ORDER BY organization_id, user_id`,
  ),
  /** The index's entries of the users in the organization, last (a batch at a time). */
  entries: someOf('user_organizations', 'tenant_id, user_id, organization_id, named'),
  /** Of the users erased, those with any row of their own in the organization (the others' steps are skipped). */
  usersWithRows: written('erasureUsersWithRows', (s) => usersWithRows(s, HELD_BY_USER)),
  /** Of the users erased, those with a comment left in the organization. */
  authors: written('erasureAuthors', (s) => usersWithRows(s, [['comments', 'from_user_id']])),
  /**
   * The keys of one user's next comments after the last batch's (comments_by_author): a batch is a range
   * of them, from the first to the last. Starting after the last batch's, not at the user's first key:
   * on PostgreSQL the rows deleted before stay in the index until vacuumed, and a walk from the first
   * would step over all of them on every batch.
   */
  nextAuthored: written(
    'nextAuthoredComments',
    (s) => `SELECT document_id, annotation_id, comment_id FROM comments WHERE ${ORG} AND from_user_id = @userId
       AND ${AFTER_AUTHORED(s)} ORDER BY document_id, annotation_id, comment_id LIMIT @limit`,
  ),
  /**
   * A document's listed threads, locked in key order on PostgreSQL before their comments or their own
   * columns change (as every comment write locks its thread first: one lock order). SQLite runs one
   * write at a time: nothing to lock, so there the statement reads nothing.
   */
  lockThreads: written('erasureLockThreads', (s) =>
    s.locksRows
      ? `SELECT annotation_id FROM annotations WHERE ${ORG} AND document_id = @documentId
         AND ${s.isIn('annotation_id', 'annotationIds')} ${s.lockInOrder('annotation_id', 'UPDATE')}`
      : 'SELECT NULL AS annotation_id WHERE 0',
  ),
  /**
   * One user's comments up to and including the batch's last one (the earlier ones went in earlier
   * batches). A range, not a key list: PostgreSQL without fresh statistics planned a key list as a
   * scan of the table per key.
   */
  deleteAuthored: written(
    'deleteAuthoredComments',
    (s) => `DELETE FROM comments WHERE ${AUTHORED_IN_RANGE(s)} RETURNING document_id, annotation_id`,
  ),
  /** Whether the user still has a comment in the thread (a batch may end in the middle of one). */
  authoredIn: same(
    'authoredIn',
    `SELECT 1 AS one FROM comments WHERE ${ORG} AND document_id = @documentId AND annotation_id = @annotationId
       AND from_user_id = @userId LIMIT 1`,
  ),
  /** Of the listed threads of a document, those left without a comment. */
  emptyThreads: written(
    'emptyThreads',
    (s) => `SELECT a.annotation_id FROM annotations a WHERE a.tenant_id = @tenantId AND a.organization_id = @organizationId
       AND a.document_id = @documentId AND ${s.isIn('a.annotation_id', 'annotationIds')}
       AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.tenant_id = a.tenant_id AND c.organization_id = a.organization_id
         AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id)`,
  ),
  // Neither needs an order: each batch deletes (or unlists) what it found, so the next finds the rest;
  // with several users an order would sort all their rows on every batch (PostgreSQL 15 does not read
  // an index in order under an IN list on a column after the first).
  actedIn: written(
    'actedInNotifications',
    (s) => `SELECT notification_id FROM notifications WHERE ${ORG} AND ${ofUsers(s, 'action_user_id')} LIMIT @limit`,
  ),
  listing: written(
    'notificationsListing',
    (s) => `SELECT notification_id FROM inbox WHERE ${ORG} AND ${ofUsers(s, 'user_id')} LIMIT @limit`,
  ),
  deleteOwnInbox: written(
    'deleteOwnInboxRows',
    (s) => `DELETE FROM inbox WHERE ${ORG} AND ${ofUsers(s, 'user_id')} AND ${s.isIn('notification_id', 'ids')}`,
  ),
  /** A notification's recipients and stored answer, without the erased user. */
  changeRecipients: sql('changeRecipients', {
    sqlite: `UPDATE notifications SET recipients = @recipients, answer = @answer WHERE ${ORG} AND notification_id = @notificationId`,
    postgres: `UPDATE notifications n SET recipients = x.recipients, answer = x.answer
               FROM unnest(@notificationId::text[], @recipients::text[], @answer::text[]) AS x(notification_id, recipients, answer)
               WHERE n.tenant_id = @tenantId AND n.organization_id = @organizationId AND n.notification_id = x.notification_id`,
  }),
  changeInboxAnswers: sql('changeInboxAnswers', {
    sqlite: `UPDATE inbox SET answer = ${KEPT_COPY('answer', '@answer')} WHERE ${ORG} AND notification_id = @notificationId`,
    postgres: `UPDATE inbox i SET answer = ${KEPT_COPY('i.answer', 'x.answer')}
               FROM unnest(@notificationId::text[], @answer::text[]) AS x(notification_id, answer)
               WHERE i.tenant_id = @tenantId AND i.organization_id = @organizationId AND i.notification_id = x.notification_id`,
  }),
  notificationWindow: written('notificationWindow', (s) =>
    window(s, 'notifications', ['notification_id'], ['text'], 'headline_data'),
  ),
  threadWindow: written('threadWindow', (s) =>
    window(s, 'annotations', ['document_id', 'annotation_id'], ['text', 'text'], 'assigned_to'),
  ),
  commentWindow: written('commentWindow', (s) =>
    window(s, 'comments', ['document_id', 'annotation_id', 'comment_id'], ['text', 'text', 'int'], 'tagged_user_contacts'),
  ),
  unassign: same(
    'unassignThread',
    `UPDATE annotations SET assigned_to = NULL WHERE ${ORG} AND document_id = @documentId
    AND annotation_id = @annotationId`,
  ),
  retag: same(
    'retagComment',
    `UPDATE comments SET tagged_user_contacts = @tags WHERE ${ORG} AND document_id = @documentId
       AND annotation_id = @annotationId AND comment_id = @commentId`,
  ),
  annotationReads: someOf('annotation_reads', 'tenant_id, organization_id, document_id, annotation_id, user_id'),
  notificationReads: someOf('notification_reads', 'tenant_id, organization_id, notification_id, user_id'),
  notificationArchives: someOf('notification_archives', 'tenant_id, organization_id, notification_id, user_id'),
  mails: someOf('email_outbox', 'tenant_id, organization_id, notification_id, user_id'),
  reactions: someOf('comment_reactions', 'tenant_id, organization_id, document_id, annotation_id, comment_id, icon, user_id'),
  settings: someOf('notification_settings', 'tenant_id, organization_id, document_id, user_id'),
  memberships: someOf('memberships', 'tenant_id, organization_id, scope_kind, scope_id, user_id'),
  groupEntries: someOf('group_members', 'tenant_id, organization_id, group_id, user_id'),
  counts: someOf('inbox_counts', 'tenant_id, organization_id, user_id, document_id'),
  profiles: someOf('users', 'tenant_id, organization_id, user_id'),
  // The history of what happened (migration 17), walked once per erasure for the whole tenant: an event
  // or a webhook delivery (whose body is an event) that names an erased user goes whole.
  /** The tenant's next window of events, in id order. */
  eventWindow: written(
    'erasureEventWindow',
    (s) => `SELECT id, organization_id, audience, body FROM events
     WHERE tenant_id = @tenantId AND id > ${s.typed('after', 'bigint')} ORDER BY id LIMIT @limit`,
  ),
  deleteEvents: written(
    'erasureDeleteEvents',
    (s) => `DELETE FROM events WHERE tenant_id = @tenantId AND ${s.isIn('id', 'ids', 'bigint')}`,
  ),
  /** The tenant's next window of webhook deliveries, in key order. */
  deliveryWindow: written('erasureDeliveryWindow', (s) => {
    const after = `(${s.typed('afterWebhook', 'text')}, ${s.typed('afterEvent', 'bigint')})`;
    return `SELECT webhook_id, event_id, organization_id, body FROM webhook_deliveries
     WHERE tenant_id = @tenantId AND (webhook_id, event_id) > ${after} ORDER BY webhook_id, event_id LIMIT @limit`;
  }),
  deleteDeliveries: sql('erasureDeleteDeliveries', {
    sqlite: 'DELETE FROM webhook_deliveries WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND event_id = @eventId',
    postgres: `DELETE FROM webhook_deliveries d USING unnest(@webhookId::text[], @eventId::bigint[]) AS x(webhook_id, event_id)
               WHERE d.tenant_id = @tenantId AND d.webhook_id = x.webhook_id AND d.event_id = x.event_id`,
  }),
  /** The tenant's next window of live states, in key order. */
  liveStateWindow: written('erasureLiveStateWindow', (s) => {
    const after = `(${['afterOrganization', 'afterDocument', 'afterId'].map((p) => s.typed(p, 'text')).join(', ')})`;
    return `SELECT organization_id, document_id, live_state_data_id, data FROM live_states
     WHERE tenant_id = @tenantId AND (organization_id, document_id, live_state_data_id) > ${after}
     ORDER BY organization_id, document_id, live_state_data_id LIMIT @limit`;
  }),
  deleteLiveState: same(
    'erasureDeleteLiveState',
    `DELETE FROM live_states WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND document_id = @documentId AND live_state_data_id = @liveStateDataId`,
  ),
  // Approval workflows' executions (migration 36) are tenant-wide, their organization in `target`: an
  // execution whose own columns, steps or log name an erased user goes whole, with its steps and log.
  /** The tenant's next window of workflow executions, in key order. */
  workflowExecutionWindow: same(
    'erasureWorkflowExecutionWindow',
    `SELECT execution_id, target, trigger_context FROM workflow_executions
     WHERE tenant_id = @tenantId AND execution_id > @after ORDER BY execution_id LIMIT @limit`,
  ),
  /** The tenant's next window of workflow steps, in key order, with their execution's target. */
  workflowStepWindow: same(
    'erasureWorkflowStepWindow',
    `SELECT s.execution_id, s.step_id, s.output, s.error, s.aggregator, x.target FROM workflow_steps s
     JOIN workflow_executions x ON x.tenant_id = s.tenant_id AND x.execution_id = s.execution_id
     WHERE s.tenant_id = @tenantId AND (s.execution_id > @afterExecution
       OR (s.execution_id = @afterExecution AND s.step_id > @afterStep))
     ORDER BY s.execution_id, s.step_id LIMIT @limit`,
  ),
  /** The tenant's next window of workflow log entries, in key order, with their execution's target. */
  workflowEventWindow: written('erasureWorkflowEventWindow', (s) => {
    const afterSeq = s.typed('afterSeq', 'bigint');
    return `SELECT e.execution_id, e.seq, e.data, x.target FROM workflow_events e
     JOIN workflow_executions x ON x.tenant_id = e.tenant_id AND x.execution_id = e.execution_id
     WHERE e.tenant_id = @tenantId AND (e.execution_id > @afterExecution
       OR (e.execution_id = @afterExecution AND e.seq > ${afterSeq}))
     ORDER BY e.execution_id, e.seq LIMIT @limit`;
  }),
  deleteWorkflowEvents: written(
    'erasureDeleteWorkflowEvents',
    (s) => `DELETE FROM workflow_events WHERE tenant_id = @tenantId AND ${s.isIn('execution_id', 'executionIds')}`,
  ),
  deleteWorkflowSteps: written(
    'erasureDeleteWorkflowSteps',
    (s) => `DELETE FROM workflow_steps WHERE tenant_id = @tenantId AND ${s.isIn('execution_id', 'executionIds')}`,
  ),
  deleteWorkflowExecutions: written(
    'erasureDeleteWorkflowExecutions',
    (s) => `DELETE FROM workflow_executions WHERE tenant_id = @tenantId AND ${s.isIn('execution_id', 'executionIds')}`,
  ),
  recordJob: same(
    'recordErasureJob',
    'INSERT INTO erasure_jobs (tenant_id, job_id, tasks_count, completed_at) VALUES (@tenantId, @jobId, @tasksCount, @completedAt)',
  ),
  job: same('erasureJob', 'SELECT tasks_count, completed_at FROM erasure_jobs WHERE tenant_id = @tenantId AND job_id = @jobId'),
  // Job ids are ordered by time (domain/ids.ts): newest first along the primary key, no sort.
  latestJobs: same(
    'latestErasureJobs',
    'SELECT job_id, tasks_count, completed_at FROM erasure_jobs WHERE tenant_id = @tenantId ORDER BY job_id DESC LIMIT @limit',
  ),
  jobsBefore: same(
    'erasureJobsBefore',
    `SELECT job_id, tasks_count, completed_at FROM erasure_jobs WHERE tenant_id = @tenantId AND job_id < @before
     ORDER BY job_id DESC LIMIT @limit`,
  ),
};
