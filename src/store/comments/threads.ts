// Store code for whole threads (SPEC 10): the thread read, changes and deletes by filter, counts and
// read marks, and changes and deletes of a thread's comments.
import { all, first, jsonOrNull, list, type Params, type Query, query, run, type Work } from '../sql.js';
import type {
  AnnotationQuery,
  CommentChange,
  StoredAnnotation,
  ThreadChange,
  ThreadCount,
  ThreadFilters,
  ThreadRef,
  UserRef,
} from '../store.js';
import { versionsOf } from '../select.js';
import { commentFrom, inCreationOrder, statusIdOf } from './comments.js';
import { COMMENTS_SQL } from './sql.js';
import { T, THREADS_SQL as SQL } from './threads-sql.js';

/** A position before every thread of the (createdAt desc, annotationId desc) order: "from the newest". */
const FROM_NEWEST = { createdAt: Number.MAX_SAFE_INTEGER, annotationId: '' };

const filterParams = (tenantId: string, f: ThreadFilters): Params => ({
  tenantId,
  organizationId: f.organizationId,
  documentId: f.documentId,
  annotationIds: list(f.annotationIds),
  locationIds: list(f.locationIds),
  userIds: list(f.userIds),
  statusIds: list(f.statusIds),
});

const userRefOf = (json: string | null): UserRef | null => (json === null ? null : (JSON.parse(json) as UserRef));

function threadFrom(r: unknown[]): StoredAnnotation {
  return {
    annotationId: r[T.annotationId] as string,
    location: r[T.location] as string | null,
    locationId: r[T.locationId] as string | null,
    context: r[T.context] as string | null,
    status: r[T.threadStatus] as string,
    createdAt: Number(r[T.threadCreatedAt]),
    lastUpdated: Number(r[T.threadLastUpdated]),
    assignedTo: userRefOf(r[T.assignedTo] as string | null),
    priority: r[T.priority] as string | null,
    targetElement: r[T.targetElement] as string | null,
    ...versionsOf(r, T),
    comments: [],
  };
}

/** The rows of the thread read (one per comment, thread columns repeated), as threads in the order read. */
function threadsOf(rows: unknown[][]): StoredAnnotation[] {
  const threads: StoredAnnotation[] = [];
  for (let i = 0; i < rows.length; ) {
    let end = i + 1;
    while (end < rows.length && rows[end]![T.annotationId] === rows[i]![T.annotationId]) end++;
    const thread = threadFrom(rows[i]!);
    const withComments = rows.slice(i, end).filter((r) => r[T.commentId] !== null);
    thread.comments = inCreationOrder(withComments, T.seq).map((r) => commentFrom(r, T));
    threads.push(thread);
    i = end;
  }
  return threads;
}

export function annotations(tenantId: string, q: AnnotationQuery): Query<StoredAnnotation[]> {
  const after = q.after ?? FROM_NEWEST;
  const params = { ...filterParams(tenantId, q), afterCreatedAt: after.createdAt, afterId: after.annotationId, limit: q.limit };
  return query(SQL.read, params, true, (rows) => threadsOf(rows as unknown[][]));
}

/** A thread change as statement parameters: each member's value and whether the change names it. */
function changeParams(change: ThreadChange): Params {
  const named = (key: keyof ThreadChange) => change[key] !== undefined;
  return {
    set_status: named('status'),
    status: change.status ? JSON.stringify(change.status) : null,
    statusId: change.status ? statusIdOf(change.status) : null,
    set_location: named('location'),
    location: jsonOrNull(change.location),
    set_locationId: named('locationId'),
    locationId: change.locationId ?? null,
    set_context: named('context'),
    context: jsonOrNull(change.context),
    set_assignedTo: named('assignedTo'),
    assignedTo: jsonOrNull(change.assignedTo),
    set_priority: named('priority'),
    priority: jsonOrNull(change.priority),
    set_targetElement: named('targetElement'),
    targetElement: jsonOrNull(change.targetElement),
  };
}

export function* updateAnnotations(tenantId: string, f: ThreadFilters, change: ThreadChange, now: number): Work<string[]> {
  const rows = yield* all(SQL.update, { ...filterParams(tenantId, f), ...changeParams(change), now });
  return rows.map((r) => r.annotation_id as string);
}

/** Deletes the matching threads, their comments and their read marks. */
export function* deleteAnnotations(tenantId: string, f: ThreadFilters): Work<string[]> {
  const ids = (yield* all(SQL.matching, filterParams(tenantId, f))).map((r) => r.annotation_id as string);
  if (ids.length === 0) return [];
  const these = { tenantId, organizationId: f.organizationId, documentId: f.documentId, annotationIds: list(ids) };
  yield* run(SQL.cascadeComments, these);
  yield* run(SQL.cascadeReads, these);
  yield* run(SQL.deleteThreads, these);
  return ids;
}

export function* countAnnotations(
  tenantId: string,
  organizationId: string,
  documentIds: string[],
  userId: string,
  statusIds: string[] | null,
): Work<ThreadCount[]> {
  const rows = yield* all(SQL.count, {
    tenantId,
    organizationId,
    documentIds: list(documentIds),
    userId,
    statusIds: list(statusIds),
  });
  return rows.map((r) => ({ documentId: r.document_id as string, total: Number(r.total), unread: Number(r.unread) }));
}

export function* markRead(
  tenantId: string,
  organizationId: string,
  documentId: string,
  userId: string,
  annotationIds: string[] | null,
  now: number,
): Work<number> {
  return yield* run(SQL.markRead, { tenantId, organizationId, documentId, userId, annotationIds: list(annotationIds), now });
}

/** The thread, locked (PostgreSQL) so its comments change one writer at a time; false when it does not exist. */
function* lockThread(tenantId: string, t: ThreadRef): Work<Params | null> {
  const thread = { tenantId, organizationId: t.organizationId, documentId: t.documentId, annotationId: t.annotationId };
  return (yield* first(COMMENTS_SQL.lockAnnotation, thread)) ? thread : null;
}

export function* updateComments(
  tenantId: string,
  t: ThreadRef,
  commentIds: number[],
  change: CommentChange,
  now: number,
): Work<number[] | null> {
  const thread = yield* lockThread(tenantId, t);
  if (!thread) return null;
  const rows = yield* all(SQL.updateComments, {
    ...thread,
    commentIds: list(commentIds),
    now,
    set_body: change.body !== undefined,
    html: change.body?.html ?? null,
    text: change.body?.text ?? null,
    set_from: change.from !== undefined,
    fromUserId: change.from?.userId ?? null,
    fromName: change.from?.name ?? null,
    fromEmail: change.from?.email ?? null,
    set_tags: change.taggedUserContacts !== undefined,
    tags: jsonOrNull(change.taggedUserContacts),
  });
  if (rows.length > 0) yield* run(SQL.refreshThread, { ...thread, now });
  return rows.map((r) => Number(r.comment_id));
}

export function* deleteComments(tenantId: string, t: ThreadRef, commentIds: number[] | null, now: number): Work<number[] | null> {
  const thread = yield* lockThread(tenantId, t);
  if (!thread) return null;
  const rows = yield* all(SQL.deleteComments, { ...thread, commentIds: list(commentIds) });
  if (rows.length > 0) yield* run(SQL.refreshThread, { ...thread, now });
  return rows.map((r) => Number(r.comment_id)).sort((a, b) => a - b);
}
