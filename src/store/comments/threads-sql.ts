// The statements of whole threads (docs/api.md, "Comment threads"): read, change, delete, count, mark read. SQLite
// and PostgreSQL side by side; the comment statements are in sql.ts.
import { CREDENTIALS_VERSION, columnsOf, DOCUMENT_VERSION, PROFILE_VERSION, positions } from '../select.js';
import { POSTGRES, type Syntax } from '../dialect/syntax.js';
import { madeOnDemand, same, sql, type Statement, written } from '../sql.js';
import { COMMENT_COLUMNS, HEAD_COLUMNS, THREAD } from './sql.js';

/** A document's threads (columns of `alias`, '' for none). */
const documentThreads = (alias: string) => {
  const a = alias ? `${alias}.` : '';
  return `${a}tenant_id = @tenantId AND ${a}organization_id = @organizationId AND ${a}document_id = @documentId`;
};

/** The list filters of ThreadFilters, as [column, parameter]. */
const LIST_FILTERS = [
  ['annotation_id', 'annotationIds'],
  ['location_id', 'locationIds'],
  ['first_user_id', 'userIds'],
  ['status_id', 'statusIds'],
] as const;

/** The threads of a document that ThreadFilters match. */
const threadFilters = (s: Syntax, alias: string) => {
  const a = alias ? `${alias}.` : '';
  const lists = LIST_FILTERS.map(([column, param]) => s.inList(`${a}${column}`, param));
  return [documentThreads(alias), ...lists].join(' AND ');
};

/** /v2's agent filters of commentannotations/delete (ThreadFilters): each passes every row when not given. */
const agentFilters = (s: Syntax) =>
  [
    s.whenGiven('agent_id', 'agentId'),
    `(NOT @agentSuggestions${s.cast('boolean')} OR (kind = 'suggestion' AND agent_id IS NOT NULL))`,
    s.inList('agent_url', 'agentUrls'),
  ].join(' AND ');

const SAME_THREAD = (c: string, a: string) =>
  `${c}.tenant_id = ${a}.tenant_id AND ${c}.organization_id = ${a}.organization_id AND ${c}.document_id = ${a}.document_id
    AND ${c}.annotation_id = ${a}.annotation_id`;

/** A row of the page read: the thread's place in the order, its stored answer, the versions read under. */
const PAGE_SELECT = {
  annotationId: 'a.annotation_id',
  createdAt: 'a.created_at',
  head: 'a.answer_head',
  comments: 'a.answer_comments',
  profileVersion: PROFILE_VERSION,
  credentialsVersion: CREDENTIALS_VERSION,
  documentVersion: DOCUMENT_VERSION,
} as const;
/** Where each field sits in a row of the page read. */
export const P = positions(PAGE_SELECT);

/** Which list filters a page read is given. */
export type ThreadFilterSet = Record<(typeof LIST_FILTERS)[number][1], boolean>;

/** Every filter set (the query-plan test checks each). */
export const THREAD_FILTER_SETS: readonly ThreadFilterSet[] = Array.from({ length: 16 }, (_, bits) => ({
  annotationIds: (bits & 1) !== 0,
  locationIds: (bits & 2) !== 0,
  userIds: (bits & 4) !== 0,
  statusIds: (bits & 8) !== 0,
}));

const filterSetKey = (f: ThreadFilterSet) =>
  LIST_FILTERS.filter(([, p]) => f[p])
    .map(([, p]) => `+${p}`)
    .join('');

/**
 * A page of a document's threads, newest createdAt first, then annotationId descending, through
 * annotations_by_time: each thread's answer as stored, no comment read (answers/annotations.ts).
 * SQLite, as the notification read (notifications/sql.ts): one statement per filter set and page
 * size, absent filters leaving no clause, the limit in the text; measured in a loop on the large bench
 * file, 130 -> 66-80 us for a page of 20.
 */
function sqlitePageRead(f: ThreadFilterSet, limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`bad thread read limit ${limit}`);
  const where = [
    documentThreads('a'),
    ...LIST_FILTERS.filter(([, p]) => f[p]).map(([column, p]) => `a.${column} IN (SELECT value FROM json_each(@${p}))`),
  ];
  // Threads asked by id are not paged, and the caller orders them as asked: each is found by its key,
  // however many threads the document has.
  if (f.annotationIds) return `SELECT ${columnsOf(PAGE_SELECT)} FROM annotations a WHERE ${where.join(' AND ')}`;
  return `SELECT ${columnsOf(PAGE_SELECT)} FROM annotations a
    WHERE ${[...where, '(a.created_at, a.annotation_id) < (@afterCreatedAt, @afterId)'].join(' AND ')}
    ORDER BY a.created_at DESC, a.annotation_id DESC LIMIT ${limit}`;
}

/** PostgreSQL: one statement with optional filters; its planner handles it well. */
const PG_PAGE_READ = `SELECT ${columnsOf(PAGE_SELECT)} FROM annotations a WHERE ${threadFilters(POSTGRES, 'a')}
    AND (a.created_at, a.annotation_id) < (@afterCreatedAt::bigint, @afterId::text)
  ORDER BY a.created_at DESC, a.annotation_id DESC LIMIT @limit`;

/** The page read for a filter set and page size. */
export const threadPageRead = madeOnDemand(
  ({ f, limit }: { f: ThreadFilterSet; limit: number }) => `${filterSetKey(f)} ${limit}`,
  ({ f, limit }): Statement => ({
    sqlite: { name: `annotations${filterSetKey(f)} ${limit}`, text: sqlitePageRead(f, limit) },
    postgres: { name: 'annotations', text: PG_PAGE_READ },
  }),
);

/** A row of the whole-thread read: the thread's columns, then one comment's (null for a thread without comments). */
const WHOLE_SELECT = {
  ...HEAD_COLUMNS,
  ...COMMENT_COLUMNS,
  profileVersion: PROFILE_VERSION,
  credentialsVersion: CREDENTIALS_VERSION,
} as const;
/** Where each field sits in a row of the whole-thread read. */
export const W = positions(WHOLE_SELECT);

/**
 * Listed threads of a document with all their comments, in key order: what a thread's stored answer
 * is rendered from again after a change that is not an append. The caller puts comments in creation order.
 */
const wholeRead = (s: Syntax, select: typeof WHOLE_SELECT = WHOLE_SELECT) => `SELECT ${columnsOf(select)}
  FROM annotations a LEFT JOIN comments c ON ${SAME_THREAD('c', 'a')}
  WHERE ${documentThreads('a')} AND ${s.inList('a.annotation_id', 'annotationIds')}
  ORDER BY a.annotation_id, c.comment_id`;

/** Writes what a thread keeps of its comments: its first author, its stored answer, its newest comments. */
/**
 * Two shapes: SQLite runs the statement once per thread; PostgreSQL once for all of them, each column
 * an array read with unnest (sql.ts: batch).
 */
const STORE_THREADS = {
  sqlite: `UPDATE annotations SET first_user_id = @firstUserId, answer_head = @head, answer_comments = @comments,
        last_comment_at = @lastAt, last_comment_by = @lastBy, last_other_at = @otherAt
      WHERE ${THREAD}`,
  postgres: `UPDATE annotations a SET first_user_id = x.first_user_id, answer_head = x.head, answer_comments = x.comments,
        last_comment_at = x.last_at, last_comment_by = x.last_by, last_other_at = x.other_at
      FROM unnest(@annotationId::text[], @firstUserId::text[], @head::text[], @comments::text[], @lastAt::bigint[],
        @lastBy::text[], @otherAt::bigint[]) AS x(annotation_id, first_user_id, head, comments, last_at, last_by, other_at)
      WHERE ${documentThreads('a')} AND a.annotation_id = x.annotation_id`,
};

/** The thread columns an update may set: [column, parameter, the flag that says the change names it]. */
const CHANGED_MEMBERS: [column: string, param: string, flag: string][] = [
  ['status', 'status', 'set_status'],
  ['status_id', 'statusId', 'set_status'],
  ['location', 'location', 'set_location'],
  ['location_id', 'locationId', 'set_locationId'],
  ['context', 'context', 'set_context'],
  ['color', 'color', 'set_color'],
  ['assigned_to', 'assignedTo', 'set_assignedTo'],
  ['priority', 'priority', 'set_priority'],
  ['target_element', 'targetElement', 'set_targetElement'],
  ['resolved_by', 'resolvedBy', 'set_resolvedBy'],
  ['status_updated_by', 'statusUpdatedBy', 'set_statusUpdatedBy'],
];

/** The comment columns a comments/update may set, likewise. */
const CHANGED_COMMENT_MEMBERS: [column: string, param: string, flag: string][] = [
  ['comment_html', 'html', 'set_body'],
  ['comment_text', 'text', 'set_body'],
  ['from_user_id', 'fromUserId', 'set_from'],
  ['from_name', 'fromName', 'set_from'],
  ['from_email', 'fromEmail', 'set_from'],
  ['tagged_user_contacts', 'tags', 'set_tags'],
  ['context', 'context', 'set_context'],
  ['attachments', 'attachments', 'set_attachments'],
];

const sets = (s: Syntax, members: [string, string, string][]) =>
  members.map(([column, param, flag]) => s.setWhen(column, param, flag)).join(', ');

const updateThreads = (s: Syntax) => `UPDATE annotations SET ${sets(s, CHANGED_MEMBERS)}, last_updated = @now
  WHERE ${threadFilters(s, '')} RETURNING annotation_id`;

const updateComments = (s: Syntax) => `UPDATE comments SET ${sets(s, CHANGED_COMMENT_MEMBERS)}, status = 'updated',
  last_updated = @now WHERE ${THREAD} AND ${s.inList('comment_id', 'commentIds', 'int')} RETURNING comment_id`;

/**
 * A thread is unread by a user with a comment by someone else created after the user's mark (r, joined
 * once per thread), or with no mark. The thread keeps its newest comment by anyone but u (latest.ts),
 * so no comment is read.
 */
const UNREAD = `(CASE WHEN a.last_comment_by <> @userId THEN a.last_comment_at ELSE a.last_other_at END)
    > coalesce(r.read_at, -1)`;

/**
 * The whole answer as JSON text, one entry per document asked for (the service passes them without
 * repeats), in the order asked, zeros for a document without threads, and the credentials version.
 * Each document is one probe of annotations_counted, which holds every column a count reads, so no
 * thread's row (kilobytes of stored answer, each on its own page) is touched; and the database writes
 * the answer, instead of a row per document (50 rows as objects cost as much as the probes).
 * SQLite concatenates in the order json_each walks the list, without the sort an ORDER BY adds to
 * each request (a test holds the order); PostgreSQL orders by the list's ordinality.
 */
const count = (s: Syntax) => {
  const counts = `(SELECT '{"total":' || count(*) || ',"unread":' || coalesce(sum(CASE WHEN ${UNREAD} THEN 1 ELSE 0 END), 0) || '}'
    FROM annotations a LEFT JOIN annotation_reads r ON ${SAME_THREAD('r', 'a')} AND r.user_id = @userId
    WHERE a.tenant_id = @tenantId AND a.organization_id = @organizationId AND a.document_id = d.value
      AND ${s.inList('a.status_id', 'statusIds')})`;
  return `SELECT '{' || coalesce(${s.concatInListOrder(`${s.jsonQuote('d.value')} || ':' || ${counts}`, "','", 'd')}, '') || '}' AS answer,
    ${CREDENTIALS_VERSION} AS credentials_version
  FROM ${s.listRowsInOrder('documentIds', 'd')}`;
};

/**
 * The mark is "read as of now": now, or the thread's newest comment time when that is later (an
 * import may date comments ahead, and comments/add never dates one before the newest), so that
 * marking a thread read always covers every comment it has.
 */
const markRead = (s: Syntax) => `INSERT INTO annotation_reads (tenant_id, organization_id, document_id,
    annotation_id, user_id, read_at)
  SELECT a.tenant_id, a.organization_id, a.document_id, a.annotation_id, ${s.typed('userId', 'text')},
    ${s.greatest(s.typed('now', 'bigint'), 'coalesce(a.last_comment_at, 0)')}
  FROM annotations a
  WHERE a.tenant_id = @tenantId AND a.organization_id = @organizationId AND a.document_id = @documentId
    AND ${s.inList('a.annotation_id', 'annotationIds')}${
      // PostgreSQL: a thread being deleted is waited for, and then not marked (its marks are deleted
      // with it; a mark written beside the delete would outlive the thread and pass to a new one).
      s.lock('KEY SHARE', { of: 'a' })
    }
  ON CONFLICT (tenant_id, organization_id, document_id, annotation_id, user_id) DO UPDATE SET read_at = excluded.read_at`;

/** The listed threads of a document (a delete's cascade). */
const listedThreads = (s: Syntax) => `${documentThreads('')} AND ${s.inList('annotation_id', 'annotationIds')}`;

export const THREADS_SQL = {
  /** What the fan-out needs of comments just changed (comments/update with triggerNotification). */
  changedComments: written(
    'changedComments',
    (s) => `SELECT comment_id, seq, from_user_id, from_name, from_email, comment_text, tagged_user_contacts FROM comments
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
       AND annotation_id = @annotationId AND ${s.inList('comment_id', 'commentIds', 'int')} ORDER BY seq`,
  ),
  // What a page of threads held in memory was read under, now (services/thread-pages.ts).
  documentVersions: same(
    'documentVersions',
    `SELECT ${DOCUMENT_VERSION} AS document_version, ${PROFILE_VERSION} AS profile_version,
      ${CREDENTIALS_VERSION} AS credentials_version`,
  ),
  whole: written('wholeAnnotations', (s) => wholeRead(s)),
  /**
   * The same for migration 9's data step, which runs on the schema of its own release: columns added
   * since (a thread's color, migration 25; /v2's members, migration 30) are not there yet, and no thread has one.
   */
  wholeAsOfMigration9: written('wholeAnnotationsAsOfMigration9', (s) =>
    wholeRead(s, {
      ...WHOLE_SELECT,
      color: 'NULL',
      kind: `'comment'`,
      suggestion: 'NULL',
      commentType: 'NULL',
      visibility: 'NULL',
      resolvedBy: 'NULL',
      statusUpdatedBy: 'NULL',
      commentContext: 'NULL',
      attachments: 'NULL',
      agent: 'NULL',
    } as unknown as typeof WHOLE_SELECT),
  ),
  store: sql('storeAnnotations', STORE_THREADS),
  /** updateUsers: the comments of the listed threads by any of @userIds, in key order. */
  commentsBy: written(
    'commentsByAuthors',
    (s) => `SELECT annotation_id, comment_id, from_user_id FROM comments WHERE ${listedThreads(s)}
      AND ${s.inList('from_user_id', 'userIds')} ORDER BY annotation_id, comment_id`,
  ),
  /** updateUsers: the listed comments of a thread get another author (their text, status and times stay). */
  reauthor: written(
    'reauthorComments',
    (s) => `UPDATE comments SET from_user_id = @userId, from_name = @name, from_email = @email
      WHERE ${THREAD} AND ${s.inList('comment_id', 'commentIds', 'int')}`,
  ),
  update: written('updateAnnotations', updateThreads),
  /** Whether any thread matches the filters (updateUsers, before it writes profiles): a read, no lock. */
  anyMatching: written(
    'anyMatchingAnnotation',
    (s) => `SELECT 1 AS found FROM annotations WHERE ${threadFilters(s, '')} LIMIT 1`,
  ),
  // The threads a delete means, locked on PostgreSQL so that a concurrent write waits for the delete.
  matching: written(
    'matchingAnnotations',
    (s) =>
      `SELECT annotation_id FROM annotations WHERE ${threadFilters(s, '')} AND ${agentFilters(s)}
        ${s.lockInOrder('annotation_id', 'UPDATE')}`,
  ),
  cascadeComments: written('deleteThreadComments', (s) => `DELETE FROM comments WHERE ${listedThreads(s)}`),
  cascadeReads: written('deleteThreadReads', (s) => `DELETE FROM annotation_reads WHERE ${listedThreads(s)}`),
  deleteThreads: written('deleteAnnotations', (s) => `DELETE FROM annotations WHERE ${listedThreads(s)}`),
  count: written('countAnnotations', count),
  markRead: written('markAnnotationsRead', markRead),
  updateComments: written('updateComments', updateComments),
  deleteComments: written(
    'deleteComments',
    (s) => `DELETE FROM comments WHERE ${THREAD} AND ${s.inList('comment_id', 'commentIds', 'int')} RETURNING comment_id`,
  ),
  // After comments change or go, lastUpdated moves to now (the rest is rendered again, threads.ts).
  touchThread: written(
    'touchThread',
    (s) => `UPDATE annotations SET last_updated = ${s.greatest('last_updated', s.typed('now', 'bigint'))}
      WHERE ${THREAD}`,
  ),
};
