// PostgreSQL numbers a write's events right after its commit (migrations 18, 21). A process that
// stops between the two, or numberings that fail, leave drafts: this sweep numbers them, every
// MARGINALIA_EVENT_POLL_MS (the bound it already sets on a lost notice). SQLite has no drafts: there
// the sweep asks nothing of the database.
import type { Store } from '../store/store.js';

/** Drafts younger than this are their writers' to number (each does within milliseconds of its commit). */
export const DRAFT_GRACE_MS = 1000;

export interface DraftSweep {
  stop(): Promise<void>;
}

export function startDraftSweep(
  store: Store,
  options: { everyMs: number; now?: () => number; onError?: (err: unknown) => void },
): DraftSweep {
  const now = options.now ?? Date.now;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = store
      .numberLeftDrafts(now() - DRAFT_GRACE_MS)
      .catch(options.onError ?? (() => {}))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, options.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
