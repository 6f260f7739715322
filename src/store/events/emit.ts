// A write says what it did where it does it: its store code yields `emit(drafts)` next to the
// statements that wrote the rows, and the store records the drafts in the same transaction
// (core.ts, `emitting`). No other code needs to learn what a write did from its statements.
import type { Work } from '../sql.js';
import type { EventDraft } from './outbox.js';

/** Announces `drafts` as events of the write under way, in the order emitted. */
export function* emit(drafts: readonly EventDraft[]): Work<void> {
  if (drafts.length > 0) yield { op: 'emit', drafts };
}

/**
 * Runs `work`, keeping what it emits in `into` and passing every other step to the database. A write
 * that PostgreSQL runs again after a serialization failure starts with a new list (core.ts).
 */
export function* collecting<T>(work: Work<T>, into: EventDraft[]): Work<T> {
  let next = work.next();
  while (!next.done) {
    const step = next.value;
    if (step.op === 'emit') {
      for (const d of step.drafts) into.push(d);
      next = work.next(undefined);
    } else next = work.next(yield step);
  }
  return next.value;
}
