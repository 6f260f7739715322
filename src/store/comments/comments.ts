// Store code for comment annotations and their comments.
import { assignCommentIds } from './comment-ids.js';
import { versionsOf } from '../select.js';
import { all, batch, first, inKeyOrder, jsonOrNull, list, type Params, type Query, query, run, type Work } from '../sql.js';
import type { AddCommentsResult, CommentDraft, CommentQuery, NewAnnotation, NewComment, StoredComment } from '../store.js';
import { C, COMMENTS_SQL as SQL } from './sql.js';

interface Thread extends Params {
  tenantId: string;
  organizationId: string;
  documentId: string;
  annotationId: string;
}

/**
 * The createdAt of comments appended to a thread: now, but never before the thread's newest comment.
 * Creation order is the order the thread lock was taken in (seq); the time was read before the lock,
 * and instances' clocks differ, so without this a later comment could read as created earlier.
 */
const notBefore = (now: number, newest: number): number => Math.max(now, newest);

function* insertComments(thread: Thread, comments: readonly NewComment[], afterSeq: number, now: number): Work<void> {
  yield* batch(
    SQL.insertComments,
    { ...thread, now },
    comments.map((c, i) => ({
      commentId: c.commentId,
      seq: afterSeq + i + 1,
      html: c.html,
      text: c.text,
      fromUserId: c.from.userId,
      fromName: c.from.name,
      fromEmail: c.from.email,
    })),
  );
}

/** Adds the annotations whose id is free; returns the ids that were already taken (and were skipped). */
export function* addAnnotations(
  tenantId: string,
  organizationId: string,
  documentId: string,
  annotations: NewAnnotation[],
  now: number,
): Work<Set<string>> {
  const taken = new Set<string>();
  for (const a of inKeyOrder(annotations, (x) => x.annotationId)) {
    const thread: Thread = { tenantId, organizationId, documentId, annotationId: a.annotationId };
    const added = yield* run(SQL.insertAnnotation, {
      ...thread,
      location: jsonOrNull(a.location),
      locationId: a.locationId,
      context: jsonOrNull(a.context),
      status: JSON.stringify(a.status),
      now,
    });
    if (added === 0) taken.add(a.annotationId);
    else yield* insertComments(thread, a.comments, 0, now);
  }
  return taken;
}

/**
 * Appends comments to a thread, as one atomic operation: the thread is locked, caller-chosen ids are
 * checked, generated ids follow SPEC 6 (comment-ids.ts), and createdAt never goes back.
 */
export function* addComments(thread: Thread, comments: CommentDraft[], now: number): Work<AddCommentsResult> {
  if (!(yield* first(SQL.lockAnnotation, thread))) return { kind: 'annotation_not_found' };
  const chosen = comments.flatMap((x) => (x.commentId === undefined ? [] : [x.commentId]));
  if (chosen.length > 0) {
    const taken = new Set(
      (yield* all(SQL.takenCommentIds, { ...thread, commentIds: list(chosen) })).map((r) => Number(r.comment_id)),
    );
    const clash = chosen.find((id) => taken.has(id));
    if (clash !== undefined) return { kind: 'comment_exists', commentId: clash };
  }
  const tail = (yield* first(SQL.threadTail, thread))!;
  const assigned = assignCommentIds(
    comments.map((x) => x.commentId),
    Number(tail.max_id),
  );
  if (assigned.kind === 'exhausted') return { kind: 'ids_exhausted' };
  if (assigned.kind === 'clash') return { kind: 'comment_exists', commentId: assigned.commentId };
  const placed = comments.map((x, i) => ({ ...x, commentId: assigned.commentIds[i]! }));
  yield* insertComments(thread, placed, Number(tail.max_seq), notBefore(now, Number(tail.last_created)));
  return { kind: 'added', commentIds: assigned.commentIds };
}

function commentFrom(r: unknown[]): StoredComment {
  return {
    commentId: Number(r[C.commentId]),
    html: r[C.html] as string,
    text: r[C.text] as string,
    from: { userId: r[C.fromUserId] as string, name: r[C.fromName] as string | null, email: r[C.fromEmail] as string | null },
    ...versionsOf(r, C),
    status: r[C.status] as string,
    type: r[C.type] as string,
    createdAt: Number(r[C.createdAt]),
    lastUpdated: Number(r[C.lastUpdated]),
  };
}

export function comments(tenantId: string, q: CommentQuery): Query<StoredComment[]> {
  const params = {
    tenantId,
    organizationId: q.organizationId,
    documentId: q.documentId,
    annotationId: q.annotationId,
    userIds: list(q.userIds),
    commentIds: list(q.commentIds),
  };
  return query(SQL.comments, params, true, (rows) => inCreationOrder(rows as unknown[][]).map(commentFrom));
}

/** Rows read in key order, put in creation order; callers' ids usually grow with it, so most need no sort. */
function inCreationOrder(rows: unknown[][]): unknown[][] {
  const seq = (r: unknown[]) => Number(r[C.seq]);
  for (let i = 1; i < rows.length; i++) {
    if (seq(rows[i]!) < seq(rows[i - 1]!)) return rows.sort((a, b) => seq(a) - seq(b));
  }
  return rows;
}
