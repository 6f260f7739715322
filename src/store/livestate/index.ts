// Documents' live state.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { LiveStateBounds, LiveStateBroadcast, LiveStateRecord } from '../../domain/live-state.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { liveStateBroadcast } from './events.js';
import * as liveStates from './livestate.js';

export const liveStatesStore = (core: StoreCore) => ({
  /**
   * livestate/broadcast: the state under the id replaced or shallow-merged, with its event; a new id
   * past `most` of the document is RESOURCE_EXHAUSTED. Answers the state as written.
   */
  broadcastLiveState(
    tenantId: string,
    broadcast: LiveStateBroadcast,
    bounds: LiveStateBounds,
    now: number,
  ): Maybe<LiveStateRecord> {
    return core.emitting(
      'broadcastLiveState',
      tenantId,
      now,
      () => liveStates.broadcast(tenantId, broadcast, bounds, now),
      (state) => [liveStateBroadcast(broadcast.organizationId, broadcast.documentId, state, broadcast.merge)],
    );
  },

  /** livestate/get: up to `limit` of the document's states (those of `ids`, or all) after the id `after`, in id order. */
  getLiveStates(
    tenantId: string,
    organizationId: string,
    documentId: string,
    ids: readonly string[] | null,
    after: string | null,
    limit: number,
  ): Maybe<LiveStateRecord[]> {
    return core.query('getLiveStates', liveStates.states(tenantId, { organizationId, documentId, ids, after, limit }));
  },
});

export type LiveStatesStore = ReturnType<typeof liveStatesStore>;
