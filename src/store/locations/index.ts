// A document's locations: what sits at one, moved or deleted together.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { LocationMove } from '../../domain/threads.js';
import { threadsDeleted, threadsUpdated } from '../comments/events.js';
import type { StoreCore } from '../core.js';
import { emit } from '../events/emit.js';
import type { Audience } from '../events/outbox.js';
import * as locations from './locations.js';
import { deletionAudiences, notificationsChanged, notificationsDeleted } from '../notifications/events.js';

export const locationsStore = (core: StoreCore) => ({
  /**
   * locations/update: the document's threads and notifications at `move.from` go to `move.to`; answers
   * the threads moved and the notifications moved, as they now are.
   */
  moveLocation(tenantId: string, organizationId: string, documentId: string, move: LocationMove, now: number) {
    const document = { tenantId, organizationId, documentId };
    const f = { organizationId, documentId, annotationIds: null, locationIds: null, userIds: null, statusIds: null };
    return core.emitting(
      'moveLocation',
      tenantId,
      now,
      () => locations.move(document, move, now),
      function* (moved) {
        const threads = yield* threadsUpdated(
          tenantId,
          f,
          { ids: moved.threads, reauthored: new Map(), profiled: new Map() },
          null,
        );
        return [...threads, ...notificationsChanged(organizationId, [], moved.notifications, new Set())];
      },
    );
  },

  /** locations/data/delete: the document's threads and notifications at the location; answers their ids. */
  deleteLocationData(tenantId: string, organizationId: string, documentId: string, locationId: string, now: number) {
    const document = { tenantId, organizationId, documentId };
    return core.emitting('deleteLocationData', tenantId, now, function* () {
      const located = yield* locations.locate(document, locationId);
      // Whom each notification was addressed to, read first (after the threads are locked, in the lock
      // order of locations/update): the delete leaves nothing to read it from.
      const audiences = new Map<string, Audience>();
      for (const q of located.notifications)
        for (const [id, audience] of yield* deletionAudiences(tenantId, q)) audiences.set(id, audience);
      const deleted = yield* locations.removeData(document, located);
      yield* emit(threadsDeleted(organizationId, documentId, deleted.threads));
      yield* emit(notificationsDeleted(organizationId, deleted.notifications, audiences));
      return deleted;
    });
  },
});

export type LocationsStore = ReturnType<typeof locationsStore>;
