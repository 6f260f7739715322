// When a full cache lets something new in (services/profiles.ts, services/thread-pages.ts). Reads spread
// evenly over more than a cache holds replaced a held entry at every miss, and what was replaced had
// lived long enough to reach V8's old generation: its full collections, one a second under such reads,
// became the tail of every request (docs/decisions.md, "Caches that let new entries in at a bounded rate").
import { systemClock, type Clock } from '../clock.js';

/**
 * Once a cache has let something go to make room, at most one new entry comes in per this many
 * milliseconds; what does not come in is answered and not kept. At 10 ms a cache still turns over in
 * seconds when what is read changes, and an entry read often is likely to be the one let in.
 */
export const ADMIT_EVERY_MS = 10;

export class Admission {
  /** Something held was let go for something new since the cache last held at most half its bound. */
  private full = false;
  /** When a new entry last came in while full (the clock's milliseconds). */
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly clock: Clock = systemClock) {}

  /** Something held was let go to make room: from now on new entries come in at the bounded rate. */
  filled(): void {
    this.full = true;
  }

  /**
   * The cache holds `held` bytes of its bound now: at most half (emptied at rest, or a large entry
   * replaced by a small one), and everything comes in again until something must be let go.
   */
  holds(held: number, bound: number): void {
    if (held <= bound / 2) this.full = false;
  }

  /** Whether a new entry may come in now (and, while full, that this one does). */
  admits(): boolean {
    if (!this.full) return true;
    const now = this.clock();
    // A clock set back (NTP, a resumed machine) must not shut the gate until it catches up.
    if (now >= this.last && now - this.last < ADMIT_EVERY_MS) return false;
    this.last = now;
    return true;
  }
}
