// The rate limit shared through Redis (MARGINALIA_REDIS_URL), against the real Redis: the bucket
// behaves like the local one, two server processes share one budget, and when Redis goes away (cut at
// a TCP proxy) the service keeps serving on its local limit, says so in its log, and shares again
// once Redis is back. Skips itself, saying why, where no Redis answers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SharedRateLimiter } from '../../src/http/shared-rate-limiter.js';
import { createKey, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { CuttableProxy } from '../helpers/tcp-proxy.js';
import { NEEDS_REDIS, REDIS_URL } from '../helpers/redis.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';
import { eventually } from '../helpers/eventually.js';

interface LogLine {
  level: string;
  msg: string;
}
function memoryLogger() {
  const lines: LogLine[] = [];
  return {
    lines,
    warn: (_: unknown, msg?: string) => {
      lines.push({ level: 'warn', msg: msg ?? String(_) });
    },
    info: (msg: unknown) => {
      lines.push({ level: 'info', msg: String(msg) });
    },
  };
}

/**
 * A connected limiter over Redis, with keys of this test's own. The timeout is generous unless a test
 * cuts Redis: a slow answer under load would otherwise fall back to the local bucket and blur counts.
 */
async function shared(perSecond: number, url = REDIS_URL, timeoutMs = 2000) {
  const logger = memoryLogger();
  const limiter = new SharedRateLimiter({ url, perSecond, timeoutMs, clock: Date.now, logger });
  assert.equal(await limiter.connect(), true, `connected to ${url}`);
  return { limiter, logger, key: `test-${randomUUID()}` };
}

describe('the rate limit shared through Redis', { skip: NEEDS_REDIS }, () => {
  test('a key gets a burst of twice the rate, then is refused with Retry-After; keys are independent', async () => {
    const { limiter, logger, key } = await shared(5);
    try {
      const takes = [];
      for (let i = 0; i < 12; i++) takes.push(await limiter.take(key));
      // At 5/s a token comes back every 200 ms; the 12 round trips take far less, but allow one.
      const allowed = takes.filter((d) => d.allowed).length;
      assert.ok(allowed === 10 || allowed === 11, `allowed ${allowed} of 12`);
      assert.deepEqual(
        takes.slice(0, 3).map((d) => [d.limit, d.remaining]),
        [
          [10, 9],
          [10, 8],
          [10, 7],
        ],
      );
      const refused = takes.at(-1)!;
      assert.equal(refused.allowed, false);
      assert.equal(refused.retryAfterSeconds, 1);
      assert.equal(refused.remaining, 0);
      assert.equal((await limiter.take(`${key}-other`)).allowed, true, 'another key has its own bucket');
      assert.equal(logger.lines.length, 0, `every check was answered by Redis: ${JSON.stringify(logger.lines)}`);
    } finally {
      await limiter.close();
    }
  });

  test('two limiters (two instances) share one budget: allowed matches the configured rate plus burst', async () => {
    const a = await shared(50);
    const b = { ...(await shared(50)), key: a.key };
    try {
      const started = Date.now();
      let allowed = 0;
      let asked = 0;
      // Hammer the one key from both for 1.5 s: the shared bucket allows the burst plus the refill.
      while (Date.now() - started < 1500) {
        const [x, y] = await Promise.all([a.limiter.take(a.key), b.limiter.take(b.key)]);
        allowed += Number(x.allowed) + Number(y.allowed);
        asked += 2;
      }
      const elapsed = (Date.now() - started) / 1000;
      const expected = 100 + 50 * elapsed;
      // Report what was measured: allowed against configured, for the closing note.
      console.log(
        `shared limit accuracy: ${allowed} allowed of ${asked} asked in ${elapsed.toFixed(2)} s; configured` +
          ` ${expected.toFixed(0)} (${((allowed / expected) * 100).toFixed(1)}%)`,
      );
      assert.ok(asked > allowed, 'the test asked for more than the budget');
      assert.ok(allowed <= expected + 1, `allowed ${allowed} > configured ${expected.toFixed(1)}`);
      assert.ok(allowed >= expected - 10, `allowed ${allowed} far below configured ${expected.toFixed(1)}`);
      assert.equal(a.logger.lines.length + b.logger.lines.length, 0, 'every check was answered by Redis');
    } finally {
      await a.limiter.close();
      await b.limiter.close();
    }
  });

  test(
    'Redis cut (reset or silent): checks fall back to the local bucket within the timeout, logged once;' + ' back when Redis is',
    async () => {
      const target = new URL(REDIS_URL);
      const proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 6379) });
      const port = await proxy.listen();
      const { limiter, logger, key } = await shared(1000, `redis://127.0.0.1:${port}`, 200);
      try {
        assert.equal((await limiter.take(key)).allowed, true);
        assert.equal(logger.lines.length, 0, JSON.stringify(logger.lines));
        for (const mode of ['reset', 'silent'] as const) {
          proxy.cut(mode);
          for (let i = 0; i < 5; i++) {
            const started = Date.now();
            const d = await limiter.take(key);
            const took = Date.now() - started;
            assert.equal(d.allowed, true, `${mode}: served by the local bucket`);
            // The first check may wait out the timeout; the next ones, within the retry second, do not.
            assert.ok(took < (i === 0 ? 1000 : 50), `${mode}: check ${i} took ${took} ms`);
          }
          assert.deepEqual(
            logger.lines.map((l) => l.level),
            ['warn'],
            `${mode}: one warning for the outage: ${JSON.stringify(logger.lines)}`,
          );
          assert.match(logger.lines[0]!.msg, /Redis is unavailable/);
          proxy.restore();
          // Each look takes from the limiter: what finds Redis back.
          await eventually(
            'the limiter to find Redis back',
            async () => {
              if (logger.lines.length >= 2) return true;
              await limiter.take(key);
              return false;
            },
            { ms: 10_000, everyMs: 50 },
          );
          assert.deepEqual(
            logger.lines.map((l) => l.level),
            ['warn', 'info'],
            `${mode}: recovery logged: ${JSON.stringify(logger.lines)}`,
          );
          assert.match(logger.lines[1]!.msg, /Redis answers again/);
          logger.lines.length = 0;
        }
      } finally {
        await limiter.close();
        await proxy.close();
      }
    },
  );
});

describe('two server processes with MARGINALIA_REDIS_URL', { skip: NEEDS_REDIS }, () => {
  let db: FreshDatabase;
  let servers: ServerProcess[] = [];
  let creds: { apiKey: string; authToken: string };

  before(async () => {
    db = freshDatabase();
    creds = createKey(db.env, 'redis-limit');
    // A rate of 2/s, burst 4: small enough that the test's requests outrun the refill.
    const env = {
      ...db.env,
      MARGINALIA_RATE_LIMIT: '2',
      MARGINALIA_REDIS_URL: REDIS_URL,
      MARGINALIA_REDIS_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'info',
    };
    servers = await Promise.all([startServer({ env }), startServer({ env })]);
  });
  after(async () => {
    await Promise.all(servers.map((s) => stopServer(s)));
    await db.drop();
  });

  test('share one budget: a burst of 4 across both, then 429 from either', async () => {
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 8; i++) {
      const r = await post(servers[i % 2]!.url, '/v1/notifications/get', creds, { organizationId: 'o', documentId: 'd' });
      statuses.push(r.status);
    }
    const ok = statuses.filter((s) => s === 200).length;
    // One burst of 4 for both, plus what refills at 2/s while the requests run.
    const most = 4 + Math.floor((2 * (Date.now() - started)) / 1000);
    assert.ok(
      ok >= 4 && ok <= most,
      `one budget of 4 (+ refill, at most ${most}) for both instances: ${JSON.stringify(statuses)}`,
    );
    assert.deepEqual(statuses.slice(0, 4), [200, 200, 200, 200], JSON.stringify(statuses));
    assert.ok(statuses.includes(429), JSON.stringify(statuses));
    for (const s of servers) assert.doesNotMatch(s.stdout(), /Redis is unavailable/, 'Redis answered every check');
    for (const s of servers) assert.match(s.stdout(), /rate limit shared through Redis/);
  });
});

describe('a server process whose Redis goes away', { skip: NEEDS_REDIS }, () => {
  let db: FreshDatabase;
  let proxy: CuttableProxy;
  let server: ServerProcess;
  let creds: { apiKey: string; authToken: string };

  before(async () => {
    db = freshDatabase();
    creds = createKey(db.env, 'redis-outage');
    const target = new URL(REDIS_URL);
    proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const port = await proxy.listen();
    server = await startServer({
      env: { ...db.env, MARGINALIA_RATE_LIMIT: '1000', MARGINALIA_REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'info' },
    });
  });
  after(async () => {
    if (server) await stopServer(server);
    await proxy?.close();
    await db?.drop();
  });

  test('keeps serving on its local limit, says so in its log, and shares again once Redis is back', async () => {
    const read = () => post(server.url, '/v1/notifications/get', creds, { organizationId: 'o', documentId: 'd' });
    assert.equal((await read()).status, 200);
    proxy.cut('silent');
    for (let i = 0; i < 5; i++) {
      const r = await read();
      assert.equal(r.status, 200, `during the outage: ${r.text}`);
      assert.equal(r.headers.get('ratelimit-limit'), '2000', 'the local bucket reports the same limit');
    }
    const lines = () =>
      server
        .stdout()
        .split('\n')
        .filter((l) => l.includes('rate limit'));
    assert.ok(
      lines().some((l) => /"level":40/.test(l) && /Redis is unavailable/.test(l)),
      lines().join('\n'),
    );
    proxy.restore();
    // Requests go on meanwhile, answered: one of them finds Redis back.
    await eventually(
      'the server to find Redis back',
      async () => {
        if (lines().some((l) => /Redis answers again/.test(l))) return true;
        assert.equal((await read()).status, 200);
        return false;
      },
      { ms: 10_000, everyMs: 100 },
    );
    assert.ok(
      lines().some((l) => /"level":30/.test(l) && /Redis answers again/.test(l)),
      lines().join('\n'),
    );
  });
});
