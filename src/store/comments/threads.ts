// Store code for whole threads (docs/api.md, "Comment threads"): the thread read, changes and deletes by filter,
// counts and read marks, and changes and deletes of a thread's comments.
import { storedComments, storedHead } from '../../domain/answers/annotations.js';
import { versionsOf } from '../select.js';
import { NO_ORGANIZATION } from '../../schemas/common.js';
import {
  all,
  arrays,
  batch,
  first,
  jsonOrNull,
  list,
  type Params,
  type Query,
  query,
  run,
  type Statement,
  type Work,
} from '../sql.js';
import { emit } from '../events/emit.js';
import { notifyOfComments } from '../notifications/fan-out.js';
import { commentsUpdated } from './events.js';
import type {
  AnnotationQuery,
  CommentChange,
  StoredAnnotation,
  StoredThreadAnswer,
  ThreadChange,
  ThreadCounts,
  DocumentVersions,
  ThreadFilters,
  TaggedContact,
  ThreadRef,
  ThreadsUpdated,
} from '../../domain/threads.js';
import { upsert as upsertProfiles } from '../users/users.js';
import { commentFrom, inCreationOrder, mentionedIn, statusIdOf, type Thread } from './comments.js';
import { latestOf } from './latest.js';
import { headFrom } from './head.js';
import { COMMENTS_SQL, L } from './sql.js';
import { enter, refuseWhenDisabled } from '../organizations/organizations.js';
import { P, THREADS_SQL as SQL, threadPageRead, W } from './threads-sql.js';

/** A position before every thread of the (createdAt desc, annotationId desc) order: "from the newest". */
const FROM_NEWEST = { createdAt: Number.MAX_SAFE_INTEGER, annotationId: '' };

/** A ThreadFilters as the parameters of the statements that select by it. */
export const filterParams = (tenantId: string, f: ThreadFilters): Params => ({
  tenantId,
  organizationId: f.organizationId,
  documentId: f.documentId,
  annotationIds: list(f.annotationIds),
  locationIds: list(f.locationIds),
  userIds: list(f.userIds),
  statusIds: list(f.statusIds),
  agentId: f.agentId ?? null,
  agentSuggestions: f.agentSuggestions ?? false,
  agentUrls: list(f.agentUrls ?? null),
});

/** The rows of the whole-thread read (one per comment, thread columns repeated), as threads. */
function threadsOf(rows: unknown[][]): StoredAnnotation[] {
  const threads: StoredAnnotation[] = [];
  for (let i = 0; i < rows.length; ) {
    let end = i + 1;
    while (end < rows.length && rows[end]![W.annotationId] === rows[i]![W.annotationId]) end++;
    const withComments = rows.slice(i, end).filter((r) => r[W.commentId] !== null);
    threads.push({ ...headFrom(rows[i]!, W), comments: inCreationOrder(withComments, W.seq).map((r) => commentFrom(r, W)) });
    i = end;
  }
  return threads;
}

/** What a thread keeps of its comments, rendered from the thread (its columns as statement parameters). */
export function keptOf(t: StoredAnnotation, organizationId: string, documentId: string): Params {
  const latest = latestOf(t.comments);
  return {
    annotationId: t.annotationId,
    firstUserId: t.comments[0]?.from.userId ?? null,
    head: storedHead(t, organizationId, documentId),
    comments: storedComments(t.comments),
    ...latest,
  };
}

/**
 * Renders the listed threads' stored answers again from their rows, after a change that is not an
 * append (a thread's members, a comment changed or deleted; threads written before migration 9).
 */
export function* renderThreads(
  tenantId: string,
  organizationId: string,
  documentId: string,
  annotationIds: string[],
  read: Statement = SQL.whole,
): Work<void> {
  if (annotationIds.length === 0) return;
  const document = { tenantId, organizationId, documentId };
  const threads = threadsOf(yield* arrays(read, { ...document, annotationIds: list(annotationIds) }));
  yield* batch(
    SQL.store,
    document,
    threads.map((t) => keptOf(t, organizationId, documentId)),
  );
}

export function annotations(tenantId: string, q: AnnotationQuery): Query<StoredThreadAnswer[]> {
  const after = q.after ?? FROM_NEWEST;
  const params = { ...filterParams(tenantId, q), afterCreatedAt: after.createdAt, afterId: after.annotationId, limit: q.limit };
  const filterSet = {
    annotationIds: q.annotationIds !== null,
    locationIds: q.locationIds !== null,
    userIds: q.userIds !== null,
    statusIds: q.statusIds !== null,
  };
  return query(threadPageRead({ f: filterSet, limit: q.limit }), params, true, (rows) =>
    (rows as unknown[][]).map((r) => ({
      annotationId: r[P.annotationId] as string,
      createdAt: Number(r[P.createdAt]),
      head: r[P.head] as string,
      comments: r[P.comments] as string,
      documentVersion: Number(r[P.documentVersion]),
      ...versionsOf(r, P),
    })),
  );
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
    set_color: named('color'),
    color: change.color ?? null,
    set_assignedTo: named('assignedTo'),
    assignedTo: jsonOrNull(change.assignedTo),
    set_priority: named('priority'),
    priority: jsonOrNull(change.priority),
    set_targetElement: named('targetElement'),
    targetElement: jsonOrNull(change.targetElement),
    set_resolvedBy: named('resolvedBy'),
    resolvedBy: change.resolvedBy ?? null,
    set_statusUpdatedBy: named('statusUpdatedBy'),
    statusUpdatedBy: change.statusUpdatedBy ?? null,
  };
}

export function* updateAnnotations(tenantId: string, f: ThreadFilters, change: ThreadChange, now: number): Work<ThreadsUpdated> {
  yield* enter(tenantId, f.organizationId, f.documentId, false);
  const swaps = change.users ?? [];
  // New authors with a name or email become profiles of the organization, where there is one and a
  // thread matches (documents without an organization have no profiles): first, as every users write
  // takes the profile version before any other row. The probe locks nothing; a thread deleted after it
  // leaves a profile, as users/add would have made.
  const profiled = swaps.flatMap(({ to }) =>
    to.name != null || to.email != null ? [{ userId: to.userId, name: to.name ?? undefined, email: to.email ?? undefined }] : [],
  );
  const profiles =
    profiled.length > 0 && f.organizationId !== NO_ORGANIZATION && (yield* first(SQL.anyMatching, filterParams(tenantId, f)))
      ? profiled
      : [];
  const written = profiles.length > 0 ? yield* upsertProfiles(tenantId, f.organizationId, null, profiles, now) : null;
  const rows = yield* all(SQL.update, { ...filterParams(tenantId, f), ...changeParams(change), now });
  const ids = rows.map((r) => r.annotation_id as string);
  const reauthored = swaps.length > 0 ? yield* reauthor(tenantId, f, ids, swaps) : new Map<string, number[]>();
  yield* renderThreads(tenantId, f.organizationId, f.documentId, ids);
  // In the order updateUsers names them (a Map keeps the first), as their events come.
  const shown = new Map(
    profiles.flatMap(({ userId }) => (written?.has(userId) ? [[userId, written.get(userId)!] as const] : [])),
  );
  return { ids, reauthored, profiled: shown };
}

/**
 * updateUsers: each comment of the threads by a `from` gets that pair's `to` as its author, every pair
 * at once (the comments are found before any changes, so A->B with B->A swaps them). Answers the
 * comments changed, by thread.
 */
function* reauthor(
  tenantId: string,
  f: ThreadFilters,
  ids: readonly string[],
  swaps: NonNullable<ThreadChange['users']>,
): Work<Map<string, number[]>> {
  const changed = new Map<string, number[]>();
  if (ids.length === 0) return changed;
  const to = new Map(swaps.map((s) => [s.from, s.to]));
  const document = { tenantId, organizationId: f.organizationId, documentId: f.documentId };
  const found = yield* all(SQL.commentsBy, { ...document, annotationIds: list(ids), userIds: list([...to.keys()]) });
  // By thread and old author: the comments one statement changes.
  const groups = new Map<string, { annotationId: string; from: string; commentIds: number[] }>();
  for (const r of found) {
    const key = JSON.stringify([r.annotation_id, r.from_user_id]);
    const group = groups.get(key) ?? { annotationId: r.annotation_id as string, from: r.from_user_id as string, commentIds: [] };
    group.commentIds.push(Number(r.comment_id));
    groups.set(key, group);
  }
  for (const { annotationId, from, commentIds } of groups.values()) {
    const user = to.get(from)!;
    yield* run(SQL.reauthor, {
      ...document,
      annotationId,
      commentIds: list(commentIds),
      userId: user.userId,
      name: user.name ?? null,
      email: user.email ?? null,
    });
    changed.set(
      annotationId,
      [...(changed.get(annotationId) ?? []), ...commentIds].sort((a, b) => a - b),
    );
  }
  return changed;
}

/** Deletes the matching threads, their comments and their read marks. */
export function* deleteAnnotations(tenantId: string, f: ThreadFilters): Work<string[]> {
  yield* enter(tenantId, f.organizationId, f.documentId, false);
  const ids = (yield* all(SQL.matching, filterParams(tenantId, f))).map((r) => r.annotation_id as string);
  if (ids.length === 0) return [];
  const these = { tenantId, organizationId: f.organizationId, documentId: f.documentId, annotationIds: list(ids) };
  yield* run(SQL.cascadeComments, these);
  yield* run(SQL.cascadeReads, these);
  yield* run(SQL.deleteThreads, these);
  return ids;
}

/** The versions a page of the document's threads would be read under now (migration 11): one row, run directly. */
export function documentVersions(tenantId: string, organizationId: string, documentId: string): Query<DocumentVersions> {
  return query(SQL.documentVersions, { tenantId, organizationId, documentId }, true, (rows) => {
    const r = rows[0] as unknown[];
    return { documentVersion: Number(r[0]), ...versionsOf(r, { profileVersion: 1, credentialsVersion: 2 }) };
  });
}

/** Counts as one statement, run directly (a read), answering one row: the JSON text and the credentials version. */
export function countAnnotations(
  tenantId: string,
  organizationId: string,
  documentIds: readonly string[],
  userId: string,
  statusIds: string[] | null,
): Query<ThreadCounts> {
  const params = { tenantId, organizationId, documentIds: list(documentIds), userId, statusIds: list(statusIds) };
  return query(SQL.count, params, true, (rows) => {
    const [json, credentialsVersion] = rows[0] as [string, number | string];
    return { json, credentialsVersion: Number(credentialsVersion) };
  });
}

export function* markRead(
  tenantId: string,
  organizationId: string,
  documentId: string,
  userId: string,
  annotationIds: string[] | null,
  now: number,
): Work<number> {
  yield* enter(tenantId, organizationId, documentId, false);
  return yield* run(SQL.markRead, { tenantId, organizationId, documentId, userId, annotationIds: list(annotationIds), now });
}

/** After a thread's comments changed or went: lastUpdated moves to now, and the thread is rendered again. */
function* touched(thread: Thread, now: number): Work<void> {
  yield* run(SQL.touchThread, { ...thread, now });
  yield* renderThreads(thread.tenantId, thread.organizationId, thread.documentId, [thread.annotationId]);
}

/** The thread, locked (PostgreSQL) so its comments change one writer at a time; false when it does not exist. */
function* lockThread(tenantId: string, t: ThreadRef): Work<Thread | null> {
  const thread = { tenantId, organizationId: t.organizationId, documentId: t.documentId, annotationId: t.annotationId };
  const locked = (yield* arrays(COMMENTS_SQL.lockAnnotation, thread))[0];
  if (!locked) return null;
  refuseWhenDisabled(locked[L.organizationDisabled], locked[L.documentDisabled], thread);
  return thread;
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
    set_context: change.context !== undefined,
    context: jsonOrNull(change.context),
    set_attachments: change.attachments !== undefined,
    attachments: jsonOrNull(change.attachments),
  });
  if (rows.length > 0) yield* touched(thread, now);
  const changed = rows.map((r) => Number(r.comment_id));
  yield* emit(yield* commentsUpdated(tenantId, t, changed));
  if (change.notify && changed.length > 0) {
    const written = (yield* all(SQL.changedComments, { ...thread, commentIds: list(changed) })).map((r) => ({
      annotationId: thread.annotationId,
      commentId: Number(r.comment_id),
      seq: Number(r.seq),
      author: { userId: r.from_user_id as string, name: r.from_name as string | null, email: r.from_email as string | null },
      text: r.comment_text as string,
      mentioned: mentionedIn(r.tagged_user_contacts ? (JSON.parse(r.tagged_user_contacts as string) as TaggedContact[]) : null),
    }));
    // Only comments/add makes replies (docs/api.md, "Notifications from comments (triggerNotification)"): an edit
    // tells the mentioned and the members.
    yield* notifyOfComments(thread, written, now, 'updated');
  }
  return changed;
}

export function* deleteComments(tenantId: string, t: ThreadRef, commentIds: number[] | null, now: number): Work<number[] | null> {
  const thread = yield* lockThread(tenantId, t);
  if (!thread) return null;
  const rows = yield* all(SQL.deleteComments, { ...thread, commentIds: list(commentIds) });
  if (rows.length > 0) yield* touched(thread, now);
  return rows.map((r) => Number(r.comment_id)).sort((a, b) => a - b);
}
