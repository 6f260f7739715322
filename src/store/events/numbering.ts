// PostgreSQL numbers a tenant's events after their writes commit (migration 21): one numbering at a
// time per tenant in this process, at most one every MARGINALIA_EVENT_NUMBERING_MS, the writes that
// commit meanwhile served together by the next (docs/architecture.md, "Events").
import { guarded } from '../../maybe.js';
import type { Dialect } from '../dialect/dialect.js';
import type { EventListener } from '../store.js';
import { sequence as sequenceDrafts } from './outbox.js';

/** One numbering of a tenant's drafts: settles when it has run (rejects when it failed, after one retry). */
interface Turn {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function newTurn(): Turn {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A failed turn nobody waits for (a write's) is not an unhandled rejection; those who wait still see it.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** A tenant's numberings in this process: the one under way, and the next (wanted since it began). */
interface Numbering {
  running: Turn | null;
  next: Turn | null;
}

export class EventNumbering {
  /** Who hears of a tenant's new last id (the process's live streams). */
  listener: EventListener | null = null;

  constructor(
    private readonly dialect: Dialect,
    private readonly failed: (err: unknown) => never,
    private readonly intervalMs: number,
  ) {}

  /**
   * PostgreSQL: numbers every committed draft of the tenant, one numbering at a time per tenant in this
   * process: writes that commit while one runs or waits share the next, which starts at most
   * numberingIntervalMs after the one before (at once when none was under way or wanted), so under load
   * a numbering serves many writes. Answers that next numbering: it settles once it has run, and
   * rejects if it failed twice (its drafts are then left to the tenant's next numbering, or the sweep's).
   */
  readonly numberings = new Map<string, Numbering>();

  numbered(tenantId: string): Promise<void> {
    const numbering = this.numberings.get(tenantId);
    if (numbering?.next) return numbering.next.promise;
    const turn = newTurn();
    if (numbering) numbering.next = turn;
    else {
      const started: Numbering = { running: null, next: turn };
      this.numberings.set(tenantId, started);
      void this.numberInTurn(tenantId, started);
    }
    return turn.promise;
  }

  private async numberInTurn(tenantId: string, numbering: Numbering): Promise<void> {
    const interval = this.intervalMs;
    const sequence = () =>
      Promise.resolve(guarded(() => this.dialect.aside('sequenceEvents', () => sequenceDrafts(tenantId)), this.failed));
    let startedAt = Number.NEGATIVE_INFINITY;
    try {
      while (numbering.next) {
        // A monotonic clock, the wait capped: a step of the wall clock must not hold numberings back.
        const wait = Math.min(startedAt + interval - performance.now(), interval);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const turn = numbering.next;
        numbering.running = turn;
        numbering.next = null;
        startedAt = performance.now();
        try {
          const last = await sequence().catch(() => sequence());
          turn.resolve();
          if (last > 0) this.heard(tenantId, last);
        } catch (err) {
          turn.reject(err);
        }
        numbering.running = null;
      }
    } finally {
      this.numberings.delete(tenantId);
      numbering.next?.reject(new Error('numbering stopped'));
    }
  }

  /** Tells the listener of a tenant's new last id; a listener that throws must not stop the numberings. */
  private heard(tenantId: string, last: number): void {
    try {
      this.listener?.(tenantId, last);
    } catch {
      // The listener's own fault (the hub logs its failures); the events are numbered all the same.
    }
  }

  eventsNumbered(tenantId: string): Promise<void> {
    const numbering = this.numberings.get(tenantId);
    return (numbering?.next ?? numbering?.running)?.promise ?? Promise.resolve();
  }
}
