// Retention of approval workflow executions (docs/api.md, "Approval workflows"): every few minutes, executions
// that ended (completed, failed or cancelled) more than MARGINALIA_WORKFLOW_EXECUTION_RETENTION_DAYS ago go with
// their steps and event logs, every tenant's, a batch of at most PRUNE_BATCH rows at a time, each batch its own
// short transaction with a turn of the event loop between them, as the outbox's and the activities' pruners do
// (events/pruner.ts), so pruning never holds the write lock (SQLite) or many row locks for long. Running
// executions are never pruned, however old.
import { inTurns, PRUNE_BATCH, type Pruner, periodically } from '../events/pruner.js';
import type { Store } from '../store/store.js';

const DAY_MS = 86_400_000;

/** MARGINALIA_WORKFLOW_EXECUTION_RETENTION_DAYS unless set: days a finished execution is kept after it ended. */
export const DEFAULT_WORKFLOW_RETENTION_DAYS = 90;

/** Deletes every execution that ended more than `days` before `now`, with its steps and events; answers how many rows went. */
export const pruneWorkflowExecutions = (store: Store, now: number, days: number, batch = PRUNE_BATCH): Promise<number> =>
  inTurns((limit) => store.pruneWorkflowExecutions(now - days * DAY_MS, limit), batch);

export function startWorkflowPruner(
  store: Store,
  options: { retentionDays: number; everyMs?: number; now?: () => number; onError?: (err: unknown) => void },
): Pruner {
  const now = options.now ?? Date.now;
  return periodically(() => pruneWorkflowExecutions(store, now(), options.retentionDays), options);
}
