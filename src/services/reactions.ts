// Reactions on comments (docs/api.md, "Reactions"): reactions/add and reactions/delete, and the reactions the /v2
// reads show on each comment (reactionAnnotationIds, reactionAnnotations).
import {
  commentKeyOf,
  DEFAULT_MAX_REACTION_ICONS_PER_COMMENT,
  DEFAULT_MAX_REACTIONS_PER_COMMENT,
  DEFAULT_REACTION_ICON_MAX_LENGTH,
  isReactionIcon,
  reactionMembers,
  type StoredReaction,
} from '../domain/reactions.js';
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import { organizationOf } from '../schemas/common.js';
import type { ReactionData } from '../schemas/reactions.js';
import type { ReactionChange, ReactionWrite } from '../store/reactions/index.js';
import type { Caller, Services } from './context.js';

export type ReactionAnswer = Record<
  string,
  { success: boolean; id: string; message: string; reactionAnnotationId: string; count: number }
>;

/** The reaction a request names, its icon checked (docs/decisions.md, "Reactions (issue 41)"). */
function reactionOf(services: Services, input: ReactionData): ReactionWrite {
  const most = services.reactions?.iconMaxLength ?? DEFAULT_REACTION_ICON_MAX_LENGTH;
  if (input.icon.length > most)
    throw invalid(`data.icon is longer than ${most} characters (MARGINALIA_REACTION_ICON_MAX_LENGTH).`);
  if (!isReactionIcon(input.icon))
    throw invalid('data.icon must be one emoji (such as 👍 or 👍🏽) or an icon name of A-Z, 0-9 and _ (such as RAISED_HANDS).');
  if (input.userId == null) throw invalid('data.userId is required: the user who reacts.');
  return {
    organizationId: organizationOf(input),
    documentId: input.documentId,
    annotationId: input.annotationId,
    commentId: input.commentId,
    icon: input.icon,
    userId: input.userId,
  };
}

/** The per-icon answer: a delete that found nothing is `Not found` (as comments/delete answers an absent comment). */
const answer =
  (done: string, alwaysDone: boolean) =>
  (c: ReactionChange): ReactionAnswer => {
    const success = alwaysDone || c.changed;
    const entry = {
      success,
      id: c.icon,
      message: success ? done : 'Not found',
      reactionAnnotationId: c.reactionAnnotationId,
      count: c.count,
    };
    return Object.fromEntries([[c.icon, entry]]);
  };

export function addReaction(services: Services, caller: Caller, input: ReactionData): Maybe<ReactionAnswer> {
  const bounds = {
    perComment: services.reactions?.perComment ?? DEFAULT_MAX_REACTIONS_PER_COMMENT,
    iconsPerComment: services.reactions?.iconsPerComment ?? DEFAULT_MAX_REACTION_ICONS_PER_COMMENT,
  };
  return then(
    services.store.addReaction(caller.id, reactionOf(services, input), bounds, services.clock()),
    answer('Added successfully', true),
  );
}

export function deleteReaction(services: Services, caller: Caller, input: ReactionData): Maybe<ReactionAnswer> {
  return then(
    services.store.deleteReaction(caller.id, reactionOf(services, input), services.clock()),
    answer('Deleted successfully', false),
  );
}

type Json = Record<string, unknown>;

/** The reactions of a page's comments: the users who reacted (whose profiles the answer shows), and each comment's members. */
export interface ReactionsOf {
  userIds: string[];
  members(
    at: { documentId: string; annotationId: string },
    commentId: number,
    user: (userId: string) => Json,
  ): { reactionAnnotationIds: string[]; reactionAnnotations: Json[] };
}

/** The reactions to the comments of these threads (one read for a page), for the /v2 answers (answers/v2-threads.ts). */
export function reactionsOnComments(
  services: Services,
  caller: Caller,
  organizationId: string,
  threads: readonly { documentId: string; annotationId: string }[],
): Maybe<ReactionsOf> {
  return then(services.store.reactionsOfThreads(caller.id, organizationId, threads), (rows) => {
    const byComment = new Map<string, StoredReaction[]>();
    for (const r of rows) {
      const key = commentKeyOf(r.documentId, r.annotationId, r.commentId);
      const held = byComment.get(key);
      if (held) held.push(r);
      else byComment.set(key, [r]);
    }
    return {
      userIds: [...new Set(rows.map((r) => r.userId))],
      members: (at, commentId, user) =>
        reactionMembers({ ...at, commentId }, byComment.get(commentKeyOf(at.documentId, at.annotationId, commentId)) ?? [], user),
    };
  });
}
