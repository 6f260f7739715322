// Long operations (an erasure, an organization's or a document's deletion) as runs of short
// transactions. No transaction may hold SQLite's one writer, or PostgreSQL's row locks, for longer than
// the write budget (MARGINALIA_WRITE_BUDGET_MS, docs/configuration.md): every other tenant's write waits
// at most that long behind one of them. A row does not cost a known time (a notification with 10,000
// recipients deletes 10,000 inbox rows and moves their counters), so the size of a batch is measured,
// not configured: each step starts small and the sizer below grows or shrinks its next batch from the
// time the last one took. Between two batches the job gives the event loop a turn (setImmediate), so
// the requests that arrived meanwhile are served (docs/decisions.md, "Long operations").

import { type Params, run, type Statement, type Work } from './sql.js';

/** MARGINALIA_WRITE_BUDGET_MS unless set: a batch of a long operation holds the writer about this long at most. */
export const DEFAULT_WRITE_BUDGET_MS = 50;

/** MARGINALIA_ERASURE_BATCH_SIZE unless set: the most rows a batch takes, however fast they go. */
export const DEFAULT_MOST_ROWS_PER_BATCH = 1000;

/** The answer of one batch: done, or where the next one starts (null for steps that need no position). */
export type StepResult = { done: true } | { done: false; cursor: unknown };

export const stepDone = (done: boolean, cursor: unknown = null): StepResult => (done ? { done: true } : { done: false, cursor });

/** A batch that deletes at most @limit rows: done when it deleted fewer (the next would find none). */
export function* deletedSome(statement: Statement, params: Params, limit: number): Work<StepResult> {
  return stepDone((yield* run(statement, { ...params, limit })) < limit);
}

/** The first batch of a step: small enough for any row to fit the budget, large enough to finish a small step at once. */
export const FIRST_BATCH = 64;

/**
 * The size of a step's next batch, from how long the last one took. The budget is a bound, not a
 * target: batches aim at half of it, so that one slowed by what it does not control (SQLite's
 * checkpoint at a commit, a garbage collection, a busy machine) still lands under it. Past half the
 * budget the next batch shrinks in proportion; under a quarter it doubles, up to `most`
 * (MARGINALIA_ERASURE_BATCH_SIZE). Never below one row.
 */
export class BatchSizer {
  private size: number;

  constructor(
    private readonly budgetMs: number,
    private readonly most: number,
    first = FIRST_BATCH,
  ) {
    this.size = Math.max(1, Math.min(first, most));
  }

  get next(): number {
    return this.size;
  }

  /** The last batch of `size` rows took `ms`. */
  took(ms: number): void {
    const aim = this.budgetMs / 2;
    if (ms > aim) this.size = Math.max(1, Math.floor((this.size * aim) / ms));
    else if (ms < aim / 2) this.size = Math.min(this.most, this.size * 2);
  }
}

/** A turn of the event loop: what arrived meanwhile (requests, their I/O) is served before the next batch. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
