// Comments' reactions (reactions/add and delete, extensions; the /v2 reads show them).
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { StoredReaction } from '../../domain/reactions.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { reactionChanged } from './events.js';
import * as reactions from './reactions.js';
import type { ReactionBounds, ReactionChange, ReactionWrite } from './reactions.js';

export type { ReactionBounds, ReactionChange, ReactionWrite } from './reactions.js';

export const reactionsStore = (core: StoreCore) => ({
  /** reactions/add: the user's reaction to the comment, once, with its event when it is new. */
  addReaction(tenantId: string, w: ReactionWrite, bounds: ReactionBounds, now: number): Maybe<ReactionChange> {
    return core.emitting(
      'addReaction',
      tenantId,
      now,
      () => reactions.add(tenantId, w, bounds, now),
      (c) => reactionChanged('comment.reaction_add', c),
    );
  },

  /** reactions/delete: the user's reaction to the comment goes, with its event when there was one. */
  deleteReaction(tenantId: string, w: ReactionWrite, now: number): Maybe<ReactionChange> {
    return core.emitting(
      'deleteReaction',
      tenantId,
      now,
      () => reactions.remove(tenantId, w),
      (c) => reactionChanged('comment.reaction_delete', c),
    );
  },

  /** The reactions to these threads (a page of a /v2 read) in the organization. */
  reactionsOfThreads(
    tenantId: string,
    organizationId: string,
    threads: readonly { documentId: string; annotationId: string }[],
  ): Maybe<StoredReaction[]> {
    if (threads.length === 0) return [];
    return core.read('reactionsOfThreads', () => reactions.ofThreads(tenantId, organizationId, threads));
  },
});

export type ReactionsStore = ReturnType<typeof reactionsStore>;
