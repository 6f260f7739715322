// A token bucket per API key, in this process (SPEC 3: MARGINALIA_RATE_LIMIT requests per second,
// a burst of twice that). Buckets refill lazily on use, so idle keys cost nothing but their entry;
// full buckets are forgotten to keep memory bounded by the keys active in the last few seconds.
import type { Clock } from '../clock.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until a request would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;
  private lastSweep = 0;

  constructor(private readonly perSecond: number, private readonly clock: Clock) {
    this.burst = perSecond * 2;
  }

  take(key: string): RateDecision {
    const now = this.clock();
    this.sweep(now);
    const b = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.updatedAt) / 1000) * this.perSecond);
    b.updatedAt = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond)) };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    const refillMs = (this.burst / this.perSecond) * 1000;
    for (const [key, b] of this.buckets) if (now - b.updatedAt >= refillMs) this.buckets.delete(key);
  }
}
