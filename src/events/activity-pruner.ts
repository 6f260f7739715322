// Activity retention (docs/api.md, "Activities"): every few minutes, each tenant's activities older than its
// settings' retentionDays (else MARGINALIA_ACTIVITY_RETENTION_DAYS) are deleted a batch at a time, each batch
// its own short transaction with a turn of the event loop between them, as the outbox's pruner does
// (pruner.ts), so pruning never holds the write lock (SQLite) or many row locks for long.
import type { Store } from '../store/store.js';
import { PRUNE_BATCH } from './pruner.js';

const DAY_MS = 86_400_000;

/** Deletes every activity past its tenant's retention, a batch at a time; answers how many went. */
export async function pruneActivities(store: Store, now: number, defaultDays: number, batch = PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (const { tenantId, days } of await store.activityRetentions(defaultDays)) {
    const before = now - days * DAY_MS;
    for (;;) {
      const n = await store.pruneActivities(tenantId, before, batch);
      total += n;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (n < batch) break;
    }
  }
  return total;
}

export interface ActivityPruner {
  stop(): Promise<void>;
}

export function startActivityPruner(
  store: Store,
  options: { retentionDays: number; everyMs?: number; now?: () => number; onError?: (err: unknown) => void },
): ActivityPruner {
  const now = options.now ?? Date.now;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = pruneActivities(store, now(), options.retentionDays)
      .catch(options.onError ?? (() => {}))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, options.everyMs ?? 5 * 60_000);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
