// Activity logs and their settings (docs/api.md, "Activities"); a write's events become activities in the
// write's own transaction (core.ts, `emitting`). This feature's part of the Store (store.ts): each method
// runs its store code through the core.
import type { ActivityRow, ActivitySettings } from '../../domain/activities.js';
import type { Maybe } from '../../maybe.js';
import { turn } from '../batches.js';
import type { StoreCore } from '../core.js';
import * as activities from './activities.js';
import type { ActivityQuery, NewActivity, Outcomes } from './activities.js';

export type { ActivityQuery, NewActivity, Outcomes } from './activities.js';

export const activitiesStore = (core: StoreCore) => ({
  /**
   * activities/add: the activities written (those given an id write over a stored one of that id, unless it
   * is immutable), with the immutability the settings say; 'disabled' (nothing written) when the tenant
   * keeps no activities.
   */
  addActivities(tenantId: string, list: readonly NewActivity[], now: number): Maybe<number | 'disabled'> {
    const byDefault = core.options.activitiesByDefault ?? false;
    return core.write('addActivities', function* () {
      if (!(yield* activities.enabled(tenantId, byDefault))) return 'disabled' as const;
      return yield* activities.upsert(tenantId, list, now);
    });
  },

  /** An operator's or an erasure's activity, kept when the tenant keeps activities. */
  recordActivity(tenantId: string, activity: NewActivity, now: number): Maybe<boolean> {
    const byDefault = core.options.activitiesByDefault ?? false;
    return core.write('recordActivity', () => activities.record(tenantId, activity, now, byDefault));
  },

  /** activities/get: a page in time order after the cursor. */
  getActivities(tenantId: string, query: ActivityQuery): Maybe<ActivityRow[]> {
    return core.read('getActivities', () => activities.read(tenantId, query));
  },

  /** activities/update: each activity's body changed by its function; false where absent or immutable. */
  updateActivities(
    tenantId: string,
    organizationId: string,
    changes: ReadonlyMap<string, (stored: string) => string>,
  ): Maybe<Outcomes> {
    return core.write('updateActivities', () => activities.update(tenantId, organizationId, changes));
  },

  /** activities/delete by ids: the ids that went (the others were absent or immutable). */
  deleteActivitiesByIds(tenantId: string, organizationId: string, ids: readonly string[]): Maybe<string[]> {
    return core.write('deleteActivitiesByIds', () => activities.deleteByIds(tenantId, organizationId, ids));
  },

  /**
   * activities/delete by document and/or entity: at most `most` of them (MARGINALIA_ACTIVITIES_DELETE_MAX), a
   * batch of at most MARGINALIA_ERASURE_BATCH_SIZE rows per transaction, with a turn of the event loop between
   * them, so a long log holds no lock for long. Answers the ids that went (the immutable ones stay).
   */
  async deleteActivitiesOf(
    tenantId: string,
    organizationId: string,
    documentId: string | null,
    targetEntityId: string | null,
    most: number,
  ): Promise<string[]> {
    const gone: string[] = [];
    while (gone.length < most) {
      const limit = Math.min(core.options.mostRowsPerBatch, most - gone.length);
      const ids = await core.write('deleteActivitiesOf', () =>
        activities.deleteSome(tenantId, organizationId, documentId, targetEntityId, limit),
      );
      gone.push(...ids);
      if (ids.length < limit) break;
      await turn();
    }
    return gone;
  },

  /** workspace/activityconfig/get: the tenant's settings as stored (null: never set). */
  activitySettings(tenantId: string): Maybe<ActivitySettings | null> {
    return core.read('activitySettings', () => activities.settings(tenantId));
  },

  /** workspace/activityconfig/update: the stored settings merged with the change, one update at a time. */
  updateActivitySettings(
    tenantId: string,
    merge: (stored: ActivitySettings | null) => ActivitySettings,
    now: number,
  ): Maybe<ActivitySettings> {
    return core.write('updateActivitySettings', () => activities.updateSettings(tenantId, merge, now));
  },

  /** Whether the installation keeps activities for a tenant that never set it (MARGINALIA_ACTIVITIES_ENABLED). */
  activitiesByDefault(): boolean {
    return core.options.activitiesByDefault ?? false;
  },

  /** Retention: every tenant with the days its activities are kept (`defaultDays` where its settings name none). */
  activityRetentions(defaultDays: number): Maybe<{ tenantId: string; days: number }[]> {
    return core.read('activityRetentions', () => activities.retentions(defaultDays));
  },

  /** Retention: deletes at most `limit` of the tenant's activities made before `before`; answers how many went. */
  pruneActivities(tenantId: string, before: number, limit: number): Maybe<number> {
    return core.write('pruneActivities', () => activities.prune(tenantId, before, limit));
  },
});

export type ActivitiesStore = ReturnType<typeof activitiesStore>;
