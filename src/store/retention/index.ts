// Retention policies and what they delete (docs/api.md, "Retention").
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { RetentionPolicy, RetentionTarget, StoredPolicy } from '../../domain/retention.js';
import type { Maybe } from '../../maybe.js';
import { BatchSizer, turn } from '../batches.js';
import type { StoreCore } from '../core.js';
import type { Work } from '../sql.js';
import * as retention from './retention.js';

export const retentionStore = (core: StoreCore) => {
  /** One batch of a target's deletion, its own transaction; notifications and threads with their events. */
  const batchOf = (tenantId: string, t: RetentionTarget, limit: number, now: number): Maybe<retention.Batch> => {
    switch (t.kind) {
      case 'notifications':
        return core.emitting('retentionNotifications', tenantId, now, () =>
          retention.deleteNotifications(tenantId, t.organizationId, t.before, t.scope, limit),
        );
      case 'resolvedThreads':
        return core.emitting('retentionThreads', tenantId, now, () =>
          retention.deleteThreads(tenantId, t.organizationId, t.before, limit),
        );
      case 'events':
        return core.write('retentionEvents', () => retention.deleteEvents(tenantId, t.before, limit));
      case 'activities':
        return core.write('retentionActivities', () => retention.deleteActivities(tenantId, t.before, limit));
    }
  };

  return {
    /** The tenant's policies: its own (organizationId '') and its organizations'. */
    retentionPolicies(tenantId: string): Maybe<StoredPolicy[]> {
      return core.read('retentionPolicies', () => retention.policies(tenantId));
    },

    /** Writes the tenant's policy (organizationId '') or an organization's, replacing what was there. */
    setRetentionPolicy(tenantId: string, organizationId: string, policy: RetentionPolicy, now: number): Maybe<void> {
      return core.write('setRetentionPolicy', () => retention.setPolicy(tenantId, organizationId, policy, now));
    },

    /** Removes an organization's own policy: the tenant's applies there again. */
    removeRetentionPolicy(tenantId: string, organizationId: string): Maybe<void> {
      return core.write('removeRetentionPolicy', () => retention.removePolicy(tenantId, organizationId));
    },

    /** The tenants with a policy (the retention job's round). */
    retentionTenants(): Maybe<string[]> {
      return core.read('retentionTenants', () => retention.tenants());
    },

    /** The tenant's organizations (where its own policy reaches). */
    retentionOrganizations(tenantId: string): Maybe<string[]> {
      return core.read('retentionOrganizations', () => retention.organizations(tenantId));
    },

    /** How many rows a target's deletion would delete now (a dry run), in one read. */
    countRetention(tenantId: string, t: RetentionTarget): Maybe<number> {
      const count = (): Work<number> => {
        switch (t.kind) {
          case 'notifications':
            return retention.countNotifications(tenantId, t.organizationId, t.before, t.scope);
          case 'resolvedThreads':
            return retention.countThreads(tenantId, t.organizationId, t.before);
          case 'events':
            return retention.countEvents(tenantId, t.before);
          case 'activities':
            return retention.countActivities(tenantId, t.before);
        }
      };
      return core.read('countRetention', count);
    },

    /**
     * Deletes every row of a target, a batch at a time: each batch its own transaction, sized to the write
     * budget from the time the last one took and never above `most` rows (batches.ts), with a turn of the
     * event loop after it, so other tenants' writes wait at most about one batch. Answers how many rows went.
     */
    async applyRetention(tenantId: string, t: RetentionTarget, most: number, now: () => number): Promise<number> {
      const sizer = new BatchSizer(core.options.writeBudgetMs, most);
      let total = 0;
      for (;;) {
        const limit = sizer.next;
        const started = performance.now();
        const { found, deleted } = await batchOf(tenantId, t, limit, now());
        sizer.took(performance.now() - started);
        total += deleted;
        await turn();
        // Nothing went of a full batch: what it found is not due any more (changed meanwhile), so is the rest.
        if (found < limit || deleted === 0) return total;
      }
    },
  };
};

export type RetentionStore = ReturnType<typeof retentionStore>;
