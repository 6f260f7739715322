// The event outbox: every write records its events in its own transaction (core.ts, `emitting`).
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import * as outbox from './outbox.js';
import type { StoredEvent } from './outbox.js';

export const eventsStore = (core: StoreCore) => ({
  /** The tenant's events after `afterId`, in id order, at most `limit`. */
  eventsAfter(tenantId: string, afterId: number, limit: number): Maybe<StoredEvent[]> {
    return core.read('eventsAfter', () => outbox.after(tenantId, afterId, limit));
  },

  /** The tenant's last event id (0: none yet). */
  lastEventId(tenantId: string): Maybe<number> {
    return core.read('lastEventId', () => outbox.lastId(tenantId));
  },

  /** Deletes up to `limit` events recorded before `before` (ms); answers how many went. */
  pruneEvents(before: number, limit: number): Maybe<number> {
    return core.write('pruneEvents', () => outbox.prune(before, limit));
  },
});

export type EventsStore = ReturnType<typeof eventsStore>;
