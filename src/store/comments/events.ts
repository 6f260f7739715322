// The events of thread and comment writes (events/drafts.ts): from the stored answers the write
// wrote, or read back in its own transaction.
import { eventCommentJson } from '../../domain/answers/comments.js';
import { eventCommentsOf, eventThreadJson } from '../../domain/answers/annotations.js';
import type { ThreadFilters, ThreadRef, ThreadsUpdated } from '../../domain/threads.js';
import { CHUNK, chunks, draft, json, once } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';
import { all, queried, type Work } from '../sql.js';
import { usersShown } from '../users/events.js';
import { comments as commentsRead } from './comments.js';
import { THREADS_SQL } from './threads-sql.js';
import { annotations, filterParams } from './threads.js';

/** commentannotations/add: each thread added, from its stored answer (in the order the request listed them). */
export const threadsAdded = (
  organizationId: string,
  documentId: string,
  added: readonly { head: string; comments: string }[],
): EventDraft[] => added.map((t) => draft('comment_annotation.add', organizationId, documentId, eventThreadJson(t)));

/** The stored answers of a document's threads (at most CHUNK ids a call). */
export function* storedThreads(tenantId: string, organizationId: string, documentId: string, ids: readonly string[]) {
  const filters = { organizationId, documentId, locationIds: null, userIds: null, statusIds: null };
  const found = new Map<string, { head: string; comments: string }>();
  for (const annotationIds of chunks(ids)) {
    const rows = yield* queried(annotations(tenantId, { ...filters, annotationIds, after: null, limit: CHUNK }));
    for (const r of rows) found.set(r.annotationId, r);
  }
  return found;
}

/** A thread's status as JSON text, from its stored answer. */
const statusOf = (t: { head: string }): string =>
  json((JSON.parse(eventThreadJson({ head: t.head, comments: '' })) as { status: unknown }).status);

/**
 * Before commentannotations/update names a status: the matching threads' statuses, locked (PostgreSQL)
 * so that none changes before the update, which then reports the threads whose status it changed.
 */
export function* threadStatuses(tenantId: string, f: ThreadFilters): Work<Map<string, string>> {
  const rows = yield* all(THREADS_SQL.matching, filterParams(tenantId, f));
  const ids = rows.map((r) => r.annotation_id as string);
  const stored = yield* storedThreads(tenantId, f.organizationId, f.documentId, ids);
  return new Map([...stored].map(([id, t]) => [id, statusOf(t)]));
}

/**
 * commentannotations/update: the profiles updateUsers wrote, as users/get shows them; each thread
 * changed, as it now reads, and its status change, when it had another; each comment given another author.
 */
export function* threadsUpdated(
  tenantId: string,
  f: ThreadFilters,
  { ids, reauthored, profiled }: ThreadsUpdated,
  statusesBefore: ReadonlyMap<string, string> | null,
): Work<EventDraft[]> {
  const users = usersShown('user.add', f.organizationId, null, [...profiled.keys()], profiled);
  const stored = yield* storedThreads(tenantId, f.organizationId, f.documentId, ids);
  const comments: EventDraft[] = [];
  for (const [annotationId, commentIds] of reauthored)
    comments.push(...(yield* commentsUpdated(tenantId, { ...f, annotationId }, commentIds)));
  const threads = ids.flatMap((id) => {
    const t = stored.get(id);
    if (!t) return [];
    const data = eventThreadJson(t);
    const changed = statusesBefore !== null && statusesBefore.get(id) !== statusOf(t);
    return [
      draft('comment_annotation.update', f.organizationId, f.documentId, data),
      ...(changed ? [draft('comment_annotation.status_change', f.organizationId, f.documentId, data)] : []),
    ];
  });
  return [...users, ...threads, ...comments];
}

export const threadsDeleted = (organizationId: string, documentId: string, ids: readonly string[]): EventDraft[] =>
  ids.map((annotationId) => draft('comment_annotation.delete', organizationId, documentId, json({ annotationId })));

/** commentannotations/read: the user's read marks (the threads named, or all of the document's). */
export const threadsRead = (
  organizationId: string,
  documentId: string,
  userId: string,
  annotationIds: readonly string[] | null,
): EventDraft => ({
  ...draft(
    'comment_annotation.read',
    organizationId,
    documentId,
    json(annotationIds ? { userId, annotationIds: once(annotationIds) } : { userId, all: true }),
  ),
  // One user's read marks: an end-user stream carries them to that user only.
  audience: { users: [userId], wide: false },
});

/** comments/add: the comments appended, from their stored answers. */
export const commentsAdded = (thread: ThreadRef, comments: string): EventDraft[] =>
  eventCommentsOf(comments, thread.annotationId).map((data) =>
    draft('comment.add', thread.organizationId, thread.documentId, data),
  );

/** comments/update: each comment changed, read back as comments/get shows it. */
export function* commentsUpdated(tenantId: string, thread: ThreadRef, commentIds: readonly number[]): Work<EventDraft[]> {
  if (commentIds.length === 0) return [];
  const read = yield* queried(commentsRead(tenantId, { ...thread, userIds: null, commentIds: [...commentIds] }));
  return read.map((c) =>
    draft('comment.update', thread.organizationId, thread.documentId, eventCommentJson(c, thread.annotationId)),
  );
}

export const commentsDeleted = (thread: ThreadRef, commentIds: readonly number[]): EventDraft[] =>
  commentIds.map((commentId) =>
    draft('comment.delete', thread.organizationId, thread.documentId, json({ annotationId: thread.annotationId, commentId })),
  );
