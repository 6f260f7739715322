// The statements of whole threads (SPEC 10): read, change, delete, count, mark read. SQLite and
// PostgreSQL side by side; the comment statements are in sql.ts.
import { CREDENTIALS_VERSION, columnsOf, PROFILE_VERSION, positions } from '../select.js';
import { byKind, greatest, inList, setWhen } from '../sql.js';
import { COMMENT_COLUMNS, THREAD } from './sql.js';
import type { DatabaseKind as Kind } from '../dialect/dialect.js';

/** A document's threads (columns of `alias`, '' for none). */
const documentThreads = (alias: string) => {
  const a = alias ? `${alias}.` : '';
  return `${a}tenant_id = @tenantId AND ${a}organization_id = @organizationId AND ${a}document_id = @documentId`;
};

/** The threads of a document that ThreadFilters match. */
const threadFilters = (kind: Kind, alias: string) => {
  const a = alias ? `${alias}.` : '';
  const lists = [
    ['annotation_id', 'annotationIds'],
    ['location_id', 'locationIds'],
    ['first_user_id', 'userIds'],
    ['status_id', 'statusIds'],
  ].map(([column, param]) => inList(kind, `${a}${column}`, param!));
  return [documentThreads(alias), ...lists].join(' AND ');
};

const SAME_THREAD = (c: string, a: string) =>
  `${c}.tenant_id = ${a}.tenant_id AND ${c}.organization_id = ${a}.organization_id AND ${c}.document_id = ${a}.document_id
    AND ${c}.annotation_id = ${a}.annotation_id`;

/** A row of the thread read: the thread's columns, then one comment's (null for a thread without comments). */
const THREAD_SELECT = {
  annotationId: 'a.annotation_id',
  location: 'a.location',
  locationId: 'a.location_id',
  context: 'a.context',
  threadStatus: 'a.status',
  threadCreatedAt: 'a.created_at',
  threadLastUpdated: 'a.last_updated',
  assignedTo: 'a.assigned_to',
  priority: 'a.priority',
  targetElement: 'a.target_element',
  ...COMMENT_COLUMNS,
  profileVersion: PROFILE_VERSION,
  credentialsVersion: CREDENTIALS_VERSION,
} as const;
/** Where each field sits in a row of the thread read. */
export const T = positions(THREAD_SELECT);

/**
 * A page of a document's threads (newest createdAt first, then annotationId descending; through
 * annotations_by_time) joined with their comments in key order: one statement, one snapshot, one
 * round trip on PostgreSQL. The caller groups the rows by thread and puts comments in creation order.
 */
function threadRead(kind: Kind): string {
  const after =
    kind === 'sqlite'
      ? '(t.created_at, t.annotation_id) < (@afterCreatedAt, @afterId)'
      : '(t.created_at, t.annotation_id) < (@afterCreatedAt::bigint, @afterId::text)';
  return `WITH page AS (
    SELECT * FROM annotations t WHERE ${threadFilters(kind, 't')} AND ${after}
    ORDER BY t.created_at DESC, t.annotation_id DESC LIMIT @limit)
  SELECT ${columnsOf(THREAD_SELECT)} FROM page a LEFT JOIN comments c ON ${SAME_THREAD('c', 'a')}
  ORDER BY a.created_at DESC, a.annotation_id DESC, c.comment_id`;
}

/** The thread columns an update may set: [column, parameter, the flag that says the change names it]. */
const CHANGED_MEMBERS: [column: string, param: string, flag: string][] = [
  ['status', 'status', 'set_status'],
  ['status_id', 'statusId', 'set_status'],
  ['location', 'location', 'set_location'],
  ['location_id', 'locationId', 'set_locationId'],
  ['context', 'context', 'set_context'],
  ['assigned_to', 'assignedTo', 'set_assignedTo'],
  ['priority', 'priority', 'set_priority'],
  ['target_element', 'targetElement', 'set_targetElement'],
];

/** The comment columns a comments/update may set, likewise. */
const CHANGED_COMMENT_MEMBERS: [column: string, param: string, flag: string][] = [
  ['comment_html', 'html', 'set_body'],
  ['comment_text', 'text', 'set_body'],
  ['from_user_id', 'fromUserId', 'set_from'],
  ['from_name', 'fromName', 'set_from'],
  ['from_email', 'fromEmail', 'set_from'],
  ['tagged_user_contacts', 'tags', 'set_tags'],
];

const sets = (kind: Kind, members: [string, string, string][]) =>
  members.map(([column, param, flag]) => setWhen(kind, column, param, flag)).join(', ');

const updateThreads = (kind: Kind) => `UPDATE annotations SET ${sets(kind, CHANGED_MEMBERS)}, last_updated = @now
  WHERE ${threadFilters(kind, '')} RETURNING annotation_id`;

const updateComments = (kind: Kind) => `UPDATE comments SET ${sets(kind, CHANGED_COMMENT_MEMBERS)}, status = 'updated',
  last_updated = @now WHERE ${THREAD} AND ${inList(kind, 'comment_id', 'commentIds', 'int')} RETURNING comment_id`;

/**
 * A thread is unread by a user with a comment by someone else created after the user's mark (r, joined
 * once per thread), or with no mark.
 */
const UNREAD = (kind: Kind) => `EXISTS (SELECT 1 FROM comments c WHERE ${SAME_THREAD('c', 'a')}
    AND c.from_user_id <> @userId AND c.created_at > coalesce(r.read_at, ${kind === 'sqlite' ? '-1' : '-1::bigint'}))`;

const count = (kind: Kind) => `SELECT a.document_id, count(*) AS total,
    sum(CASE WHEN ${UNREAD(kind)} THEN 1 ELSE 0 END) AS unread
  FROM annotations a LEFT JOIN annotation_reads r ON ${SAME_THREAD('r', 'a')} AND r.user_id = @userId
  WHERE a.tenant_id = @tenantId AND a.organization_id = @organizationId AND a.document_id ${
    // Always given: an IN the planner walks document by document along the primary key, never the
    // organization's threads (SQLite scanned them all behind a NULL check).
    kind === 'sqlite' ? 'IN (SELECT value FROM json_each(@documentIds))' : '= ANY(@documentIds::text[])'
  }
    AND ${inList(kind, 'a.status_id', 'statusIds')}
  GROUP BY a.document_id`;

/**
 * The mark is "read as of now": now, or the thread's newest comment time when that is later (an
 * import may date comments ahead, and comments/add never dates one before the newest), so that
 * marking a thread read always covers every comment it has.
 */
const markRead = (kind: Kind) => `INSERT INTO annotation_reads (tenant_id, organization_id, document_id,
    annotation_id, user_id, read_at)
  SELECT a.tenant_id, a.organization_id, a.document_id, a.annotation_id, ${kind === 'sqlite' ? '@userId' : '@userId::text'},
    ${greatest(
      kind,
      kind === 'sqlite' ? '@now' : '@now::bigint',
      `coalesce((SELECT max(c.created_at) FROM comments c
      WHERE ${SAME_THREAD('c', 'a')}), 0)`,
    )}
  FROM annotations a
  WHERE a.tenant_id = @tenantId AND a.organization_id = @organizationId AND a.document_id = @documentId
    AND ${inList(kind, 'a.annotation_id', 'annotationIds')}${
      // PostgreSQL: a thread being deleted is waited for, and then not marked (its marks are deleted
      // with it; a mark written beside the delete would outlive the thread and pass to a new one).
      kind === 'sqlite' ? '' : ' FOR KEY SHARE OF a'
    }
  ON CONFLICT (tenant_id, organization_id, document_id, annotation_id, user_id) DO UPDATE SET read_at = excluded.read_at`;

/** The listed threads of a document (a delete's cascade). */
const listedThreads = (kind: Kind) => `${documentThreads('')} AND ${inList(kind, 'annotation_id', 'annotationIds')}`;

export const THREADS_SQL = {
  read: byKind('annotations', threadRead),
  update: byKind('updateAnnotations', updateThreads),
  // The threads a delete means, locked on PostgreSQL so that a concurrent write waits for the delete.
  matching: byKind(
    'matchingAnnotations',
    (kind) =>
      `SELECT annotation_id FROM annotations WHERE ${threadFilters(kind, '')}
        ${kind === 'sqlite' ? '' : 'ORDER BY annotation_id FOR UPDATE'}`,
  ),
  cascadeComments: byKind('deleteThreadComments', (kind) => `DELETE FROM comments WHERE ${listedThreads(kind)}`),
  cascadeReads: byKind('deleteThreadReads', (kind) => `DELETE FROM annotation_reads WHERE ${listedThreads(kind)}`),
  deleteThreads: byKind('deleteAnnotations', (kind) => `DELETE FROM annotations WHERE ${listedThreads(kind)}`),
  count: byKind('countAnnotations', count),
  markRead: byKind('markAnnotationsRead', markRead),
  updateComments: byKind('updateComments', updateComments),
  deleteComments: byKind(
    'deleteComments',
    (kind) => `DELETE FROM comments WHERE ${THREAD} AND ${inList(kind, 'comment_id', 'commentIds', 'int')} RETURNING comment_id`,
  ),
  // After comments change or go: the thread's first author may be another, and lastUpdated moves to now.
  refreshThread: byKind(
    'refreshThread',
    (kind) => `UPDATE annotations SET last_updated = ${greatest(kind, 'last_updated', '@now')},
      first_user_id = (SELECT c.from_user_id FROM comments c WHERE ${SAME_THREAD('c', 'annotations')} ORDER BY c.seq LIMIT 1)
      WHERE ${THREAD}`,
  ),
};
