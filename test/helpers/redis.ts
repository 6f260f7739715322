// The Redis system tests run against: TEST_REDIS_URL, or the local one. They skip themselves, saying
// why, where none answers, except in CI (MARGINALIA_TEST_REQUIRE_REDIS), where that is a failure.
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

export const NEEDS_REDIS = (await redisAnswers()) ? false : `no Redis answers at ${REDIS_URL} (set TEST_REDIS_URL)`;
if (NEEDS_REDIS && process.env.MARGINALIA_TEST_REQUIRE_REDIS)
  throw new Error(`MARGINALIA_TEST_REQUIRE_REDIS is set, but ${NEEDS_REDIS}`);
