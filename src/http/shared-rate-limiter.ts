// The rate limit shared by every instance (MARGINALIA_REDIS_URL): the same token bucket per API key
// as rate-limiter.ts, kept in Redis and updated by one Lua script, so a check is atomic across
// instances and uses Redis's clock (instances' clocks may disagree).
//
// Redis is an aid, not a dependency: when it does not answer within MARGINALIA_REDIS_TIMEOUT_MS (down,
// unreachable, slow), the request is counted by this instance's local bucket instead and the service
// keeps serving. The switch is logged once each way. While Redis is away, checks go straight to the
// local bucket and Redis is tried again once a second, so an outage costs one timeout a second, not
// one a request; a timed-out connection is dropped and made anew (a dead network may never close it).
// While Redis is away, N instances allow up to N times the rate: the price of not failing requests
// over a rate limiter. The script uses TIME before writing, which needs Redis 5 or newer.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { burstOf, decision, LocalRateLimiter, type RateDecision, type RateLimit } from './rate-limiter.js';

/** Refills, takes one token if there is one, and returns [allowed (0/1), tokens left as a string]. */
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(b[1]) or burst
local ts = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate / 1000)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * 1000 / rate) + 1000)
return {allowed, tostring(tokens)}
`;

/** Bucket keys; a tenant id is a UUID, so keys of different deployments sharing a Redis differ too. */
const KEY_PREFIX = 'marginalia:ratelimit:';
/** While Redis is away, how often a check tries it again. */
const RETRY_MS = 1000;

type RedisWithTake = Redis & { marginaliaTake(key: string, rate: number, burst: number): Promise<[number, string]> };

export interface SharedRateLimiterOptions {
  url: string;
  perSecond: number;
  timeoutMs: number;
  clock: Clock;
  logger: Pick<Logger, 'warn' | 'info'>;
}

export class SharedRateLimiter implements RateLimit {
  private readonly redis: RedisWithTake;
  private readonly local: LocalRateLimiter;
  private readonly perSecond: number;
  private readonly logger: SharedRateLimiterOptions['logger'];
  private readonly connectTimeoutMs: number;
  private readonly clock: Clock;
  /** Whether requests are being counted locally because Redis did not answer. */
  private degraded = false;
  /** While degraded, when the next check may try Redis again. */
  private retryAt = 0;

  constructor({ url, perSecond, timeoutMs, clock, logger }: SharedRateLimiterOptions) {
    this.perSecond = perSecond;
    this.logger = logger;
    this.clock = clock;
    this.local = new LocalRateLimiter(perSecond, clock);
    this.connectTimeoutMs = Math.max(timeoutMs, 1000);
    this.redis = new Redis(url, {
      // Fail a check at once while disconnected rather than queue it; reconnect in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeoutMs,
      connectTimeout: this.connectTimeoutMs,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    }) as RedisWithTake;
    // Connection errors surface as failed checks (and one log line); the event must be handled.
    this.redis.on('error', () => {});
    this.redis.defineCommand('marginaliaTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  /**
   * Waits for the first connection, up to the connect timeout; false if Redis did not answer (checks
   * then count locally until it does). Checks never wait for a connection themselves.
   */
  async connect(): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    const ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.connectTimeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    return ready;
  }

  async take(key: string): Promise<RateDecision> {
    const now = this.clock();
    if (this.degraded && now < this.retryAt) return this.local.take(key);
    try {
      const [allowed, tokens] = await this.redis.marginaliaTake(KEY_PREFIX + key, this.perSecond, burstOf(this.perSecond));
      if (this.degraded) {
        this.degraded = false;
        this.logger.info('rate limit: Redis answers again; the limit is shared by all instances');
      }
      return decision(allowed === 1, Number(tokens), this.perSecond);
    } catch (err) {
      this.retryAt = now + RETRY_MS;
      // A timeout on an open connection means the network went silent: drop it and connect anew,
      // which also fails whatever is still queued on it.
      if (/timed out/i.test((err as Error).message) && this.redis.status === 'ready') this.redis.disconnect(true);
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn(
          { err },
          'rate limit: Redis is unavailable; each instance applies the limit on its own until it is back',
        );
      }
      return this.local.take(key);
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
