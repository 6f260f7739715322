// Store code for comment annotations and their comments.
import { enter, refuseWhenDisabled } from '../organizations/organizations.js';
import { storedComments, storedHead } from '../../domain/answers/annotations.js';
import { assignCommentIds } from './comment-ids.js';
import { headFrom } from './head.js';
import { latestFrom, latestOf } from './latest.js';
import { type Positions, type VersionPositions, versionsOf } from '../select.js';
import {
  all,
  arrays,
  batch,
  first,
  inKeyOrder,
  jsonOrNull,
  list,
  type Params,
  type Query,
  query,
  run,
  type Work,
} from '../sql.js';
import type {
  AddCommentsResult,
  CommentDraft,
  CommentFacts,
  CommentQuery,
  NewAnnotation,
  NewComment,
  StoredComment,
  TaggedContact,
  ThreadHead,
} from '../../domain/threads.js';
import { createdTimes } from '../../domain/organizations.js';
import { emit } from '../events/emit.js';
import { notifyOfComments, type WrittenComment } from '../notifications/fan-out.js';
import { commentsAdded, threadsAdded } from './events.js';
import { C, type COMMENT_COLUMNS, COMMENTS_SQL as SQL, L } from './sql.js';

export interface Thread extends Params {
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

/**
 * The times a new comment is stored with: those the caller gave (docs/api.md, "What an import keeps"), else `now`.
 */
export function commentTimes(c: NewComment, now: number): { createdAt: number; lastUpdated: number } {
  const { createdAt, updatedAt } = createdTimes(c, now);
  return { createdAt, lastUpdated: updatedAt };
}

/** A new comment as stored, after `afterSeq` in the thread (what is inserted, and rendered). */
type Placed = CommentFacts & { seq: number };

/** New comments as they will be stored: in creation order after `afterSeq`, with their times. */
const placedAfter = (comments: readonly NewComment[], afterSeq: number, now: number): Placed[] =>
  comments.map((c, i) => ({
    commentId: c.commentId,
    seq: afterSeq + i + 1,
    html: c.html,
    text: c.text,
    from: c.from,
    ...commentTimes(c, now),
    status: 'added',
    type: 'text',
    taggedUserContacts: jsonOrNull(c.taggedUserContacts),
    context: jsonOrNull(c.context),
    attachments: jsonOrNull(c.attachments),
    agent: jsonOrNull(c.agent),
  }));

function* insertComments(thread: Thread, comments: readonly Placed[]): Work<void> {
  yield* batch(
    SQL.insertComments,
    thread,
    comments.map((c) => ({
      commentId: c.commentId,
      seq: c.seq,
      html: c.html,
      text: c.text,
      fromUserId: c.from.userId,
      fromName: c.from.name,
      fromEmail: c.from.email,
      createdAt: c.createdAt,
      lastUpdated: c.lastUpdated,
      tags: c.taggedUserContacts,
      context: c.context ?? null,
      attachments: c.attachments ?? null,
      agent: c.agent ?? null,
    })),
  );
}

/** Comments just written, as the fan-out sees them (drafts and placed in the same order). */
const written = (annotationId: string, drafts: readonly NewComment[], placed: readonly Placed[]): WrittenComment[] =>
  placed.map((c, i) => ({
    annotationId,
    commentId: c.commentId,
    seq: c.seq,
    author: c.from,
    text: c.text,
    mentioned: mentionedIn(drafts[i]?.taggedUserContacts ?? null),
  }));

/** The userIds a comment's tags name (a tag's own userId, docs/api.md "Comment HTML"). */
export const mentionedIn = (tags: readonly TaggedContact[] | null): string[] => [...new Set((tags ?? []).map((t) => t.userId))];

/** The latest lastUpdated among comments (0 for none). */
const latestChange = (comments: readonly Placed[]): number => Math.max(0, ...comments.map((c) => c.lastUpdated));

/**
 * The status object's id, which statusIds filters compare (docs/api.md, "POST /v1/commentannotations/get"): only a
 * string id is one.
 */
export const statusIdOf = (status: object): string | null => {
  const id = (status as { id?: unknown }).id;
  return typeof id === 'string' ? id : null;
};

/** Adds the annotations whose id is free; returns the ids that were already taken (and were skipped). */
export function* addAnnotations(
  tenantId: string,
  organizationId: string,
  documentId: string,
  annotations: NewAnnotation[],
  now: number,
  notify = false,
): Work<Set<string>> {
  // docs/api.md "Disabled organizations and documents": the organization and the document exist from the first write
  // that names them, and refuse when disabled.
  yield* enter(tenantId, organizationId, documentId, true);
  const taken = new Set<string>();
  // The comments written, by annotation: the fan-out takes them in request order (threads are written in key order).
  const notified = new Map<string, WrittenComment[]>();
  // The threads written, by annotation: their events go in request order too, from their stored answers.
  const threadsWritten = new Map<string, { head: string; comments: string }>();
  for (const a of inKeyOrder(annotations, (x) => x.annotationId)) {
    const thread: Thread = { tenantId, organizationId, documentId, annotationId: a.annotationId };
    const comments = placedAfter(a.comments, 0, now);
    const createdAt = a.createdAt ?? now;
    const head: ThreadHead = {
      annotationId: a.annotationId,
      location: jsonOrNull(a.location),
      locationId: a.locationId,
      context: jsonOrNull(a.context),
      status: JSON.stringify(a.status),
      createdAt,
      // Not given: the latest change it has, its own creation or any of its comments' (docs/api.md,
      // "What a thread reads as").
      lastUpdated: a.lastUpdated ?? Math.max(now, createdAt, latestChange(comments)),
      color: a.color,
      assignedTo: a.assignedTo,
      priority: jsonOrNull(a.priority),
      targetElement: jsonOrNull(a.targetElement),
      kind: a.kind ?? 'comment',
      suggestion: jsonOrNull(a.suggestion),
      commentType: a.commentType ?? null,
      visibility: jsonOrNull(a.visibility),
    };
    const stored = { head: storedHead(head, organizationId, documentId), comments: storedComments(comments) };
    const added = yield* run(SQL.insertAnnotation, {
      ...thread,
      ...head,
      assignedTo: jsonOrNull(head.assignedTo),
      statusId: statusIdOf(a.status),
      firstUserId: a.comments[0]?.from.userId ?? null,
      ...stored,
      ...latestOf(comments),
      ...agentOf(a.comments),
    });
    if (added === 0) taken.add(a.annotationId);
    else {
      threadsWritten.set(a.annotationId, stored);
      yield* insertComments(thread, comments);
      if (notify) notified.set(a.annotationId, written(a.annotationId, a.comments, comments));
    }
  }
  // A thread's first comments are not replies (docs/api.md, "Notifications from comments (triggerNotification)"):
  // mentions and members only.
  const inRequestOrder = annotations.flatMap((a) => notified.get(a.annotationId) ?? []);
  // A thread whose first comment says triggerActivities: false is not logged as an activity.
  const quiet = (a: (typeof annotations)[number]) => a.comments[0]?.noActivity === true;
  const added = annotations.flatMap((a) => (threadsWritten.has(a.annotationId) ? [a] : []));
  yield* emit(
    threadsAdded(
      organizationId,
      documentId,
      added.map((a) => threadsWritten.get(a.annotationId)!),
    ).map((d, i) => (quiet(added[i]!) ? { ...d, noActivity: true } : d)),
  );
  yield* notifyOfComments({ tenantId, organizationId, documentId }, inRequestOrder, now, 'newlyAdded');
  return taken;
}

/**
 * Appends comments to a thread, as one atomic operation: the thread is locked, caller-chosen ids are
 * checked, generated ids follow docs/api.md "Comment ids" (comment-ids.ts), and createdAt never goes back.
 */
export function* addComments(thread: Thread, comments: CommentDraft[], now: number, notify = false): Work<AddCommentsResult> {
  const locked = (yield* arrays(SQL.lockAnnotation, thread))[0];
  if (!locked) return { kind: 'annotation_not_found' };
  refuseWhenDisabled(locked[L.organizationDisabled], locked[L.documentDisabled], thread);
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
  const drafts = comments.map((x, i) => ({ ...x, commentId: assigned.commentIds[i]! }));
  const placed = placedAfter(drafts, Number(tail.max_seq), notBefore(now, Number(tail.last_created)));
  yield* insertComments(thread, placed);
  const appended = storedComments(placed);
  yield* emit(commentsAdded(thread, appended).map((d, i) => (drafts[i]?.noActivity ? { ...d, noActivity: true } : d)));
  if (notify) yield* notifyOfComments(thread, written(thread.annotationId, drafts, placed), now, 'added');
  // The stored answer: the head again (lastUpdated moves), the new comments appended (answers/annotations.ts).
  const head = headFrom(locked, L);
  head.lastUpdated = Math.max(head.lastUpdated, latestChange(placed));
  yield* run(SQL.afterAdd, {
    ...thread,
    lastUpdated: head.lastUpdated,
    firstUserId: placed[0]?.from.userId ?? null,
    head: storedHead(head, thread.organizationId, thread.documentId),
    comments: appended,
    ...latestOf(placed, latestFrom(locked, L)),
  });
  return { kind: 'added', commentIds: assigned.commentIds };
}

/** The ids of a thread's first agent comment (what threads are filtered by: search-sql.ts), as parameters. */
function agentOf(comments: readonly NewComment[]) {
  const agent = comments.find((c) => c.agent)?.agent;
  return {
    agentId: agent?.agentId ?? null,
    agentSource: agent?.agentSource ?? null,
    executionId: typeof agent?.executionId === 'string' ? agent.executionId : null,
    agentType: typeof agent?.agentType === 'string' ? agent.agentType : null,
    agentUrl: typeof agent?.url === 'string' ? agent.url : null,
  };
}

/** A comment from a read row; `at` says where its columns sit (the comment read's, or the thread read's). */
export function commentFrom(r: unknown[], at: Positions<typeof COMMENT_COLUMNS> & VersionPositions = C): StoredComment {
  return {
    commentId: Number(r[at.commentId]),
    html: r[at.html] as string,
    text: r[at.text] as string,
    from: { userId: r[at.fromUserId] as string, name: r[at.fromName] as string | null, email: r[at.fromEmail] as string | null },
    ...versionsOf(r, at),
    status: r[at.status] as string,
    type: r[at.type] as string,
    createdAt: Number(r[at.createdAt]),
    lastUpdated: Number(r[at.lastUpdated]),
    taggedUserContacts: r[at.taggedUserContacts] as string | null,
    context: r[at.commentContext] as string | null,
    attachments: r[at.attachments] as string | null,
    agent: r[at.agent] as string | null,
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
  return query(SQL.comments, params, true, (rows) => inCreationOrder(rows as unknown[][]).map((r) => commentFrom(r)));
}

/** Rows read in key order, put in creation order; callers' ids usually grow with it, so most need no sort. */
export function inCreationOrder(rows: unknown[][], seqAt: number = C.seq): unknown[][] {
  const seq = (r: unknown[]) => Number(r[seqAt]);
  for (let i = 1; i < rows.length; i++) {
    if (seq(rows[i]!) < seq(rows[i - 1]!)) return rows.sort((a, b) => seq(a) - seq(b));
  }
  return rows;
}
