// Retention of the event outbox (MARGINALIA_EVENT_RETENTION_HOURS): every few minutes, events older
// than that are deleted a batch at a time, each batch its own short transaction with a turn of the
// event loop between them, so pruning never holds the write lock (SQLite) or many row locks for long.
import type { Store } from '../store/store.js';

export const PRUNE_BATCH = 1000;

/** Deletes every event recorded before `before`, a batch at a time; answers how many went. */
export async function pruneEvents(store: Store, before: number, batch = PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await store.pruneEvents(before, batch);
    total += n;
    if (n < batch) return total;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export interface Pruner {
  stop(): Promise<void>;
}

export function startPruner(
  store: Store,
  options: { retentionHours: number; everyMs?: number; now?: () => number; onError?: (err: unknown) => void },
): Pruner {
  const now = options.now ?? Date.now;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = pruneEvents(store, now() - options.retentionHours * 3_600_000)
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
