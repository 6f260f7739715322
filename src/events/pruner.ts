// Retention (MARGINALIA_EVENT_RETENTION_HOURS): every few minutes, events older than that, and webhook
// deliveries finished and attempts made before it, are deleted a batch at a time (and documents'
// presence that has expired, whatever its age: docs/api.md "Presence"), each batch its own
// short transaction with a turn of the event loop between them, so pruning never holds the write lock
// (SQLite) or many row locks for long.
import type { Store } from '../store/store.js';

export const PRUNE_BATCH = 1000;

/** A table's pruning: rows made before `before` (retention), or expired at `now`. */
type PruneStep = (store: Store, before: number, limit: number, now: number) => number | Promise<number>;

/**
 * Runs `deleteSome` (at most `batch` rows, its own transaction) until it deletes fewer, with a turn of the
 * event loop between batches; answers how many went.
 */
export async function inTurns(deleteSome: (limit: number) => number | Promise<number>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteSome(batch);
    total += n;
    if (n < batch) return total;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Deletes every row `step` prunes from before `before`, a batch at a time; answers how many went. */
const inBatches = (store: Store, step: PruneStep, before: number, batch: number, now = Date.now()): Promise<number> =>
  inTurns((limit) => step(store, before, limit, now), batch);

const OUTBOX: PruneStep = (s, before, n) => s.pruneEvents(before, n);
const DELIVERIES: PruneStep = (s, before, n) => s.pruneWebhookDeliveries(before, n);
const PRESENCE: PruneStep = (s, _before, n, now) => s.pruneExpiredPresence(now, n);

/** Deletes every event recorded before `before`, a batch at a time; answers how many went. */
export const pruneEvents = (store: Store, before: number, batch = PRUNE_BATCH): Promise<number> =>
  inBatches(store, OUTBOX, before, batch);

/** Deletes every presence that expired by `now`, a batch at a time; answers how many went. */
export const pruneExpiredPresence = (store: Store, now: number, batch = PRUNE_BATCH): Promise<number> =>
  inBatches(store, PRESENCE, now, batch, now);

/** What retention deletes, in turn: the outbox, the webhooks' finished deliveries and attempts, expired presence. */
const STEPS: readonly PruneStep[] = [OUTBOX, DELIVERIES, PRESENCE];

async function pruneAll(store: Store, before: number, now: number): Promise<void> {
  for (const step of STEPS) await inBatches(store, step, before, PRUNE_BATCH, now);
}

export interface Pruner {
  stop(): Promise<void>;
}

/**
 * Runs `task` now and every `everyMs` (5 minutes by default), never two at once; its failures go to `onError`.
 * The timer does not keep the process alive; stop() waits for a run under way.
 */
export function periodically(
  task: () => Promise<unknown>,
  options: { everyMs?: number | undefined; onError?: ((err: unknown) => void) | undefined },
): Pruner {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = task()
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

export function startPruner(
  store: Store,
  options: { retentionHours: number; everyMs?: number; now?: () => number; onError?: (err: unknown) => void },
): Pruner {
  const now = options.now ?? Date.now;
  return periodically(() => {
    const at = now();
    return pruneAll(store, at - options.retentionHours * 3_600_000, at);
  }, options);
}
