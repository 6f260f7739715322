// Documents' presence (presence/add, update, delete; presence/get, an extension).
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { PresenceBounds, PresenceRecord, PresenceWrite } from '../../domain/presence.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { presenceRemoved, presenceWritten } from './events.js';
import * as presence from './presence.js';

export const presenceStore = (core: StoreCore) => ({
  /** presence/add: the users' presence written with a new expiry, and its event; answers it as written. */
  addPresence(tenantId: string, w: PresenceWrite, bounds: PresenceBounds, now: number): Maybe<PresenceRecord[]> {
    return core.emitting(
      'addPresence',
      tenantId,
      now,
      () => presence.add(tenantId, w, bounds, now),
      (users) => presenceWritten('presence.add', w.organizationId, w.documentId, users),
    );
  },

  /** presence/update: the present users' presence changed with a new expiry (NOT_FOUND, nothing written, if one is not). */
  updatePresence(tenantId: string, w: PresenceWrite, ttlMs: number, now: number): Maybe<PresenceRecord[]> {
    return core.emitting(
      'updatePresence',
      tenantId,
      now,
      () => presence.update(tenantId, w, ttlMs, now),
      (users) => presenceWritten('presence.update', w.organizationId, w.documentId, users),
    );
  },

  /** presence/delete: the users' presence goes; answers the users who were present, with their event. */
  deletePresence(
    tenantId: string,
    organizationId: string,
    documentId: string,
    userIds: readonly string[],
    now: number,
  ): Maybe<string[]> {
    return core.emitting(
      'deletePresence',
      tenantId,
      now,
      () => presence.remove(tenantId, organizationId, documentId, userIds, now),
      (gone) => presenceRemoved(organizationId, documentId, gone),
    );
  },

  /** presence/get: up to `limit` users present on the document at `now`, in userId order. */
  getPresence(tenantId: string, organizationId: string, documentId: string, now: number, limit: number): Maybe<PresenceRecord[]> {
    return core.read('getPresence', () => presence.ofDocument(tenantId, organizationId, documentId, now, limit));
  },

  /** Retention (events/pruner.ts): up to `limit` expired presence rows deleted; answers how many. */
  pruneExpiredPresence(now: number, limit: number): Maybe<number> {
    return core.write('pruneExpiredPresence', () => presence.pruneExpired(now, limit));
  },
});

export type PresenceStore = ReturnType<typeof presenceStore>;
