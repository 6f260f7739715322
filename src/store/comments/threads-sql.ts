// The statements of whole threads (SPEC 10): read, change, delete, count, mark read. SQLite and
// PostgreSQL side by side; the comment statements are in sql.ts.
import { CREDENTIALS_VERSION, columnsOf, PROFILE_VERSION, positions } from '../select.js';
import { type Statement, sql } from '../sql.js';
import { COMMENT_COLUMNS } from './sql.js';

/** A list filter on a column: SQLite reads the list from JSON text, PostgreSQL from an array (dialect.ts). */
const inList = (column: string, param: string, type = 'text') => ({
  sqlite: `(@${param} IS NULL OR ${column} IN (SELECT value FROM json_each(@${param})))`,
  postgres: `(@${param}::${type}[] IS NULL OR ${column} = ANY(@${param}::${type}[]))`,
});

/** The threads of a document that ThreadFilters match (columns of `alias`, '' for none). */
function threadFilters(alias: string): { sqlite: string; postgres: string } {
  const a = alias ? `${alias}.` : '';
  const lists = [
    inList(`${a}annotation_id`, 'annotationIds'),
    inList(`${a}location_id`, 'locationIds'),
    inList(`${a}first_user_id`, 'userIds'),
    inList(`${a}status_id`, 'statusIds'),
  ];
  const document = `${a}tenant_id = @tenantId AND ${a}organization_id = @organizationId AND ${a}document_id = @documentId`;
  return {
    sqlite: [document, ...lists.map((l) => l.sqlite)].join(' AND '),
    postgres: [document, ...lists.map((l) => l.postgres)].join(' AND '),
  };
}

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
function threadRead(kind: 'sqlite' | 'postgres'): string {
  const after =
    kind === 'sqlite'
      ? '(t.created_at, t.annotation_id) < (@afterCreatedAt, @afterId)'
      : '(t.created_at, t.annotation_id) < (@afterCreatedAt::bigint, @afterId::text)';
  return `WITH page AS (
    SELECT * FROM annotations t WHERE ${threadFilters('t')[kind]} AND ${after}
    ORDER BY t.created_at DESC, t.annotation_id DESC LIMIT @limit)
  SELECT ${columnsOf(THREAD_SELECT)} FROM page a LEFT JOIN comments c ON ${SAME_THREAD('c', 'a')}
  ORDER BY a.created_at DESC, a.annotation_id DESC, c.comment_id`;
}

/** Sets a member when its `set...` flag is true, and leaves it otherwise (a change names only some). */
const setIf = (column: string, param: string, kind: 'sqlite' | 'postgres', type = 'text') =>
  kind === 'sqlite'
    ? `${column} = CASE WHEN @set_${param} THEN @${param} ELSE ${column} END`
    : `${column} = CASE WHEN @set_${param}::boolean THEN @${param}::${type} ELSE ${column} END`;

const CHANGED_MEMBERS: [column: string, param: string][] = [
  ['status', 'status'],
  ['status_id', 'statusId'],
  ['location', 'location'],
  ['location_id', 'locationId'],
  ['context', 'context'],
  ['assigned_to', 'assignedTo'],
  ['priority', 'priority'],
  ['target_element', 'targetElement'],
];

function updateThreads(kind: 'sqlite' | 'postgres'): string {
  const sets = CHANGED_MEMBERS.map(([column, param]) => setIf(column, param, kind));
  return `UPDATE annotations SET ${sets.join(', ')}, last_updated = @now WHERE ${threadFilters('')[kind]}
    RETURNING annotation_id`;
}

/** The comment columns a comments/update may set, and the parameter each is set from. */
const CHANGED_COMMENT_MEMBERS: [column: string, param: string, flag: string][] = [
  ['comment_html', 'html', 'body'],
  ['comment_text', 'text', 'body'],
  ['from_user_id', 'fromUserId', 'from'],
  ['from_name', 'fromName', 'from'],
  ['from_email', 'fromEmail', 'from'],
  ['tagged_user_contacts', 'tags', 'tags'],
];

const THREAD = `tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
  AND annotation_id = @annotationId`;

function updateComments(kind: 'sqlite' | 'postgres'): string {
  const sets = CHANGED_COMMENT_MEMBERS.map(([column, param, flag]) =>
    kind === 'sqlite'
      ? `${column} = CASE WHEN @set_${flag} THEN @${param} ELSE ${column} END`
      : `${column} = CASE WHEN @set_${flag}::boolean THEN @${param}::text ELSE ${column} END`,
  );
  return `UPDATE comments SET ${sets.join(', ')}, status = 'updated', last_updated = @now
    WHERE ${THREAD} AND ${inList('comment_id', 'commentIds', 'int')[kind]} RETURNING comment_id`;
}

/**
 * A thread is unread by a user with a comment by someone else created after the user's mark (r, joined
 * once per thread), or with no mark.
 */
const UNREAD = (kind: 'sqlite' | 'postgres') => `EXISTS (SELECT 1 FROM comments c WHERE ${SAME_THREAD('c', 'a')}
    AND c.from_user_id <> @userId AND c.created_at > coalesce(r.read_at, ${kind === 'sqlite' ? '-1' : '-1::bigint'}))`;

const count = (kind: 'sqlite' | 'postgres') => `SELECT a.document_id, count(*) AS total,
    sum(CASE WHEN ${UNREAD(kind)} THEN 1 ELSE 0 END) AS unread
  FROM annotations a LEFT JOIN annotation_reads r ON ${SAME_THREAD('r', 'a')} AND r.user_id = @userId
  WHERE a.tenant_id = @tenantId AND a.organization_id = @organizationId AND a.document_id ${
    // Always given: an IN the planner walks document by document along the primary key, never the
    // organization's threads (SQLite scanned them all behind a NULL check).
    kind === 'sqlite' ? 'IN (SELECT value FROM json_each(@documentIds))' : '= ANY(@documentIds::text[])'
  }
    AND ${inList('a.status_id', 'statusIds')[kind]}
  GROUP BY a.document_id`;

/**
 * The mark is "read as of now": now, or the thread's newest comment time when that is later (an
 * import may date comments ahead, and comments/add never dates one before the newest), so that
 * marking a thread read always covers every comment it has.
 */
const markRead = (kind: 'sqlite' | 'postgres') => `INSERT INTO annotation_reads (tenant_id, organization_id, document_id,
    annotation_id, user_id, read_at)
  SELECT a.tenant_id, a.organization_id, a.document_id, a.annotation_id, ${kind === 'sqlite' ? '@userId' : '@userId::text'},
    ${kind === 'sqlite' ? 'max' : 'greatest'}(${kind === 'sqlite' ? '@now' : '@now::bigint'},
      coalesce((SELECT max(c.created_at) FROM comments c WHERE ${SAME_THREAD('c', 'a')}), 0))
  FROM annotations a
  WHERE a.tenant_id = @tenantId AND a.organization_id = @organizationId AND a.document_id = @documentId
    AND ${inList('a.annotation_id', 'annotationIds')[kind]}${
      // PostgreSQL: a thread being deleted is waited for, and then not marked (its marks are deleted
      // with it; a mark written beside the delete would outlive the thread and pass to a new one).
      kind === 'sqlite' ? '' : ' FOR KEY SHARE OF a'
    }
  ON CONFLICT (tenant_id, organization_id, document_id, annotation_id, user_id) DO UPDATE SET read_at = excluded.read_at`;

const both = (name: string, make: (kind: 'sqlite' | 'postgres') => string): Statement =>
  sql(name, { sqlite: make('sqlite'), postgres: make('postgres') });

export const THREADS_SQL = {
  read: both('annotations', threadRead),
  update: both('updateAnnotations', updateThreads),
  // The threads a delete means, locked on PostgreSQL so that a concurrent write waits for the delete.
  matching: sql('matchingAnnotations', {
    sqlite: `SELECT annotation_id FROM annotations WHERE ${threadFilters('').sqlite}`,
    postgres: `SELECT annotation_id FROM annotations WHERE ${threadFilters('').postgres} ORDER BY annotation_id FOR UPDATE`,
  }),
  cascadeComments: both(
    'deleteThreadComments',
    (kind) =>
      `DELETE FROM comments WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
        AND ${inList('annotation_id', 'annotationIds')[kind]}`,
  ),
  cascadeReads: both(
    'deleteThreadReads',
    (kind) =>
      `DELETE FROM annotation_reads WHERE tenant_id = @tenantId AND organization_id = @organizationId
        AND document_id = @documentId AND ${inList('annotation_id', 'annotationIds')[kind]}`,
  ),
  deleteThreads: both(
    'deleteAnnotations',
    (kind) =>
      `DELETE FROM annotations WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
        AND ${inList('annotation_id', 'annotationIds')[kind]}`,
  ),
  count: both('countAnnotations', count),
  markRead: both('markAnnotationsRead', markRead),
  updateComments: both('updateComments', updateComments),
  deleteComments: both(
    'deleteComments',
    (kind) => `DELETE FROM comments WHERE ${THREAD} AND ${inList('comment_id', 'commentIds', 'int')[kind]} RETURNING comment_id`,
  ),
  // After comments change or go: the thread's first author may be another, and lastUpdated moves to now.
  refreshThread: sql('refreshThread', {
    sqlite: `UPDATE annotations SET last_updated = max(last_updated, @now),
      first_user_id = (SELECT c.from_user_id FROM comments c WHERE ${SAME_THREAD('c', 'annotations')} ORDER BY c.seq LIMIT 1)
      WHERE ${THREAD}`,
    postgres: `UPDATE annotations SET last_updated = greatest(last_updated, @now),
      first_user_id = (SELECT c.from_user_id FROM comments c WHERE ${SAME_THREAD('c', 'annotations')} ORDER BY c.seq LIMIT 1)
      WHERE ${THREAD}`,
  }),
};
