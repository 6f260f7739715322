// Activity retention (docs/api.md, "Activities"): every few minutes, each tenant's activities older than its
// settings' retentionDays (else MARGINALIA_ACTIVITY_RETENTION_DAYS) are deleted a batch at a time, each batch
// its own short transaction with a turn of the event loop between them, as the outbox's pruner does
// (pruner.ts), so pruning never holds the write lock (SQLite) or many row locks for long.
import type { Store } from '../store/store.js';
import { inTurns, PRUNE_BATCH, type Pruner, periodically } from './pruner.js';

const DAY_MS = 86_400_000;

/** Deletes every activity past its tenant's retention, a batch at a time; answers how many went. */
export async function pruneActivities(store: Store, now: number, defaultDays: number, batch = PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (const { tenantId, days } of await store.activityRetentions(defaultDays)) {
    const before = now - days * DAY_MS;
    total += await inTurns((limit) => store.pruneActivities(tenantId, before, limit), batch);
  }
  return total;
}

export type ActivityPruner = Pruner;

export function startActivityPruner(
  store: Store,
  options: { retentionDays: number; everyMs?: number; now?: () => number; onError?: (err: unknown) => void },
): ActivityPruner {
  const now = options.now ?? Date.now;
  return periodically(() => pruneActivities(store, now(), options.retentionDays), options);
}
