// A token bucket per API key (docs/api.md, "Rate limits": MARGINALIA_RATE_LIMIT requests per second, a burst of
// twice that). This one lives in the process: buckets refill lazily on use, so idle keys cost nothing but
// their entry, and full buckets are forgotten to keep memory bounded by the keys active lately.
// shared-rate-limiter.ts keeps the same buckets in Redis for all instances.
import type { Clock } from '../clock.js';

/** One request's answer from a limiter, and what the RateLimit-* headers report. */
export interface RateDecision {
  allowed: boolean;
  /** The bucket's size: how many requests may come at once. */
  limit: number;
  /** Requests left in the bucket after this one. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until a request would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimit {
  take(key: string): RateDecision | Promise<RateDecision>;
  close(): Promise<void>;
}

/** The bucket a limit of `perSecond` gives (docs/api.md, "Rate limits": a burst of twice the rate). */
export const burstOf = (perSecond: number): number => perSecond * 2;

/** What a bucket holding `tokens` (after this request was counted or refused) means for the caller. */
export function decision(allowed: boolean, tokens: number, perSecond: number): RateDecision {
  const limit = burstOf(perSecond);
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((limit - tokens) / perSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perSecond)),
  };
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class LocalRateLimiter implements RateLimit {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;
  private lastSweep = 0;

  constructor(
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {
    this.burst = burstOf(perSecond);
  }

  take(key: string): RateDecision {
    const now = this.clock();
    this.sweep(now);
    const b = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    b.tokens = Math.min(this.burst, b.tokens + (Math.max(0, now - b.updatedAt) / 1000) * this.perSecond);
    b.updatedAt = now;
    this.buckets.set(key, b);
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    return decision(allowed, b.tokens, this.perSecond);
  }

  async close(): Promise<void> {}

  private sweep(now: number): void {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    const refillMs = (this.burst / this.perSecond) * 1000;
    for (const [key, b] of this.buckets) if (now - b.updatedAt >= refillMs) this.buckets.delete(key);
  }
}
