// Store code of comments' reactions (reactions/add and delete; the reactions reads show): a row per comment, icon
// and user (migration 45). A comment's delete, and its move to another document, take its reactions along (the
// migration's triggers), so nothing else here follows comments.
import { type CommentKey, reactionAnnotationId, type StoredReaction } from '../../domain/reactions.js';
import { Refusal } from '../../domain/refusal.js';
import { enter } from '../organizations/organizations.js';
import { all, first, list, type Row, run, type Work } from '../sql.js';
import { REACTIONS_SQL as SQL } from './sql.js';

/** A reaction as a write names it. */
export interface ReactionWrite extends CommentKey {
  icon: string;
  userId: string;
}

/** The bounds of a comment's reactions (MARGINALIA_MAX_REACTIONS_PER_COMMENT, MARGINALIA_MAX_REACTION_ICONS_PER_COMMENT). */
export interface ReactionBounds {
  perComment: number;
  iconsPerComment: number;
}

/** What a write did: `changed` false when the reaction was already there (add) or was not (delete); count: the icon's users now. */
export interface ReactionChange extends ReactionWrite {
  reactionAnnotationId: string;
  changed: boolean;
  count: number;
}

export const reactionOf = (r: Row): StoredReaction => ({
  documentId: r.document_id as string,
  annotationId: r.annotation_id as string,
  commentId: Number(r.comment_id),
  icon: r.icon as string,
  userId: r.user_id as string,
  createdAt: Number(r.created_at),
});

const noComment = (w: ReactionWrite) =>
  new Refusal('NOT_FOUND', `Comment ${w.commentId} not found in annotation ${w.annotationId} of document ${w.documentId}.`);

const tooMany = (w: ReactionWrite, what: string, most: number, setting: string) =>
  new Refusal(
    'RESOURCE_EXHAUSTED',
    `Comment ${w.commentId} would have more than ${most} ${what}, the most it may (${setting}); nothing was written.`,
  );

/** The comment, locked (its organization and document not disabled); NOT_FOUND when it is not there. */
function* lockComment(tenantId: string, w: ReactionWrite): Work<Record<string, unknown>> {
  yield* enter(tenantId, w.organizationId, w.documentId, false);
  const at = { tenantId, ...w };
  if (!(yield* first(SQL.lockComment, at))) throw noComment(w);
  return at;
}

function* counted(at: Record<string, unknown>): Work<{ n: number; icons: number; sameIcon: number }> {
  const r = (yield* first(SQL.counts, at))!;
  return { n: Number(r.n), icons: Number(r.icons), sameIcon: Number(r.same_icon) };
}

/** reactions/add: the user's reaction, once (again: nothing changes); past the comment's bounds, nothing is written. */
export function* add(tenantId: string, w: ReactionWrite, bounds: ReactionBounds, now: number): Work<ReactionChange> {
  const at = yield* lockComment(tenantId, w);
  const changed = (yield* run(SQL.add, { ...at, now })) > 0;
  const c = yield* counted(at);
  if (changed) {
    if (c.n > bounds.perComment) throw tooMany(w, 'reactions', bounds.perComment, 'MARGINALIA_MAX_REACTIONS_PER_COMMENT');
    if (c.icons > bounds.iconsPerComment)
      throw tooMany(w, 'distinct reaction icons', bounds.iconsPerComment, 'MARGINALIA_MAX_REACTION_ICONS_PER_COMMENT');
    yield* run(SQL.userOrganization, at);
  }
  return { ...w, reactionAnnotationId: reactionAnnotationId(w, w.icon), changed, count: c.sameIcon };
}

/** reactions/delete: the user's reaction goes; `changed` false when there was none. */
export function* remove(tenantId: string, w: ReactionWrite): Work<ReactionChange> {
  const at = yield* lockComment(tenantId, w);
  const changed = (yield* run(SQL.remove, at)) > 0;
  const c = yield* counted(at);
  return { ...w, reactionAnnotationId: reactionAnnotationId(w, w.icon), changed, count: c.sameIcon };
}

/** The reactions to the threads of a page, by document: what the /v2 reads show on comments. */
export function* ofThreads(
  tenantId: string,
  organizationId: string,
  threads: readonly { documentId: string; annotationId: string }[],
): Work<StoredReaction[]> {
  const byDocument = new Map<string, Set<string>>();
  for (const t of threads) {
    const held = byDocument.get(t.documentId);
    if (held) held.add(t.annotationId);
    else byDocument.set(t.documentId, new Set([t.annotationId]));
  }
  const out: StoredReaction[] = [];
  for (const [documentId, ids] of byDocument) {
    const rows = yield* all(SQL.ofThreads, { tenantId, organizationId, documentId, annotationIds: list([...ids]) });
    out.push(...rows.map(reactionOf));
  }
  return out;
}

/** Where users/data/get's list of reactions goes on from. */
export interface ReactionCursor {
  documentId: string;
  annotationId: string;
  commentId: number;
  icon: string;
}

/** users/data/get: up to `limit` of the user's reactions after the cursor, in key order. */
export function* ofUser(
  tenantId: string,
  organizationId: string,
  userId: string,
  after: ReactionCursor,
  limit: number,
): Work<StoredReaction[]> {
  const rows = yield* all(SQL.ofUser, {
    tenantId,
    organizationId,
    userId,
    afterDocument: after.documentId,
    afterAnnotation: after.annotationId,
    afterComment: after.commentId,
    afterIcon: after.icon,
    limit,
  });
  return rows.map(reactionOf);
}
