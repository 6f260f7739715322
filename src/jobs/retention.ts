// Retention policies applied (docs/api.md, "Retention"; docs/operations.md, "Retention"): every
// MARGINALIA_RETENTION_INTERVAL_SECONDS, each tenant with a policy has what its policies reach deleted, kind
// after kind, a batch of at most MARGINALIA_RETENTION_BATCH_SIZE rows at a time, each batch its own short
// transaction sized to the write budget with a turn of the event loop between them (store/batches.ts), so
// another tenant's write waits at most about one batch. retention/run runs the same for one tenant now.
// Several instances may run it at once: every batch finds what is still due, and deletes and emits only
// what it found there (docs/decisions.md, "Retention (issue 40)").
import { type RetentionCounts, noneCounted, retentionTargets, visitsOrganizations } from '../domain/retention.js';
import { type Pruner, periodically } from '../events/pruner.js';
import { DEFAULT_MOST_ROWS_PER_BATCH } from '../store/batches.js';
import type { Store } from '../store/store.js';

/** MARGINALIA_RETENTION_INTERVAL_SECONDS unless set: how often the server applies every tenant's policies. */
export const DEFAULT_RETENTION_INTERVAL_SECONDS = 3600;

/** MARGINALIA_RETENTION_BATCH_SIZE unless set: the most rows one batch of retention deletes. */
export const DEFAULT_RETENTION_BATCH_SIZE = DEFAULT_MOST_ROWS_PER_BATCH;

export interface RetentionRun {
  /** Count only, delete nothing. */
  dryRun: boolean;
  /** The most rows a batch deletes. */
  batchSize: number;
  now: () => number;
}

/**
 * Applies a tenant's policies now (or, with dryRun, counts what that would delete): in one organization
 * (`only`), or in every one and the tenant's logs. The windows are measured from the run's start, so a
 * dry run counts what a run started at the same moment deletes. Answers the rows per kind.
 */
export async function retainTenant(
  store: Store,
  tenantId: string,
  only: string | null,
  run: RetentionRun,
): Promise<RetentionCounts> {
  const counts = noneCounted();
  const policies = await store.retentionPolicies(tenantId);
  if (policies.length === 0) return counts;
  const organizations = only === null && visitsOrganizations(policies) ? await store.retentionOrganizations(tenantId) : [];
  for (const target of retentionTargets(policies, organizations, run.now(), only)) {
    counts[target.kind] += run.dryRun
      ? await store.countRetention(tenantId, target)
      : await store.applyRetention(tenantId, target, run.batchSize, run.now);
  }
  return counts;
}

/** One round of the job: every tenant with a policy, one after the other; answers the rows deleted. */
export async function retainAll(store: Store, batchSize: number, now: () => number = Date.now): Promise<number> {
  let total = 0;
  for (const tenantId of await store.retentionTenants()) {
    const counts = await retainTenant(store, tenantId, null, { dryRun: false, batchSize, now });
    total += counts.notifications + counts.resolvedThreads + counts.events + counts.activities;
  }
  return total;
}

export function startRetention(
  store: Store,
  options: { intervalSeconds: number; batchSize: number; now?: () => number; onError?: (err: unknown) => void },
): Pruner {
  const now = options.now ?? Date.now;
  return periodically(() => retainAll(store, options.batchSize, now), {
    everyMs: options.intervalSeconds * 1000,
    onError: options.onError,
  });
}
