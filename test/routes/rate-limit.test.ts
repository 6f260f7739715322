// The in-process rate limit (docs/api.md, "Rate limits" and "Wire format"): N requests per second per API key with
// a burst of 2N; over it a request is 429 RESOURCE_EXHAUSTED with Retry-After; 0 turns it off. Through the app with
// a hand-driven clock, and the RateLimiter itself with a fake clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LocalRateLimiter, type RateDecision } from '../../src/http/rate-limiter.js';
import { expectError, makeTestApp, PATHS, user, type Caller, type Reply, type TestApp } from '../helpers/app.js';

const T0 = Date.UTC(2024, 5, 20, 9, 53, 42, 258);

/** An app whose clock only moves when the test moves it. */
async function appWithClock(rateLimit: number): Promise<{ t: TestApp; advance(ms: number): void }> {
  let now = T0;
  const t = await makeTestApp({ rateLimit, clock: () => now });
  return {
    t,
    advance: (ms) => {
      now += ms;
    },
  };
}

const read = (c: Caller) => c.post(PATHS.notificationsGet, { organizationId: 'rl-org', documentId: 'rl-doc' });

function expectLimited(r: Reply, what = ''): number {
  const message = expectError(r, 429, 'RESOURCE_EXHAUSTED', what);
  assert.ok(message.length > 0);
  const retry = r.headers['retry-after'];
  assert.equal(typeof retry, 'string', `${what} Retry-After header missing: ${JSON.stringify(r.headers)}`);
  assert.match(String(retry), /^\d+$/, `${what} Retry-After must be whole seconds: ${String(retry)}`);
  const seconds = Number(retry);
  assert.ok(seconds >= 1, `${what} Retry-After ${seconds}`);
  assert.match(String(r.headers['x-request-id']), /^[A-Za-z0-9._:-]{1,128}$/, `${what} x-request-id on a 429`);
  return seconds;
}

describe('through the app', () => {
  test('a burst of 2N requests passes, the next one is 429 RESOURCE_EXHAUSTED with Retry-After', async () => {
    const { t } = await appWithClock(3);
    try {
      for (let i = 0; i < 6; i++) {
        const r = await read(t.a);
        assert.equal(r.status, 200, `request ${i + 1} of the burst of 6: ${r.body}`);
      }
      const seconds = expectLimited(await read(t.a), 'request 7');
      assert.equal(seconds, 1, 'one token comes back within a second at 3/s');
      expectLimited(await read(t.a), 'request 8');
      // Every operation shares the one budget of the key.
      expectLimited(await t.a.post(PATHS.usersAdd, { organizationId: 'rl-org', users: [user('x')] }), 'users/add');
    } finally {
      await t.close();
    }
  });

  test('every answer to an identified key carries RateLimit-Limit, -Remaining and -Reset; answers to no key carry none', async () => {
    const { t, advance } = await appWithClock(2);
    const fields = (r: Reply) => [r.headers['ratelimit-limit'], r.headers['ratelimit-remaining'], r.headers['ratelimit-reset']];
    try {
      assert.deepEqual(fields(await read(t.a)), ['4', '3', '1'], 'first of a burst of 4 at 2/s');
      assert.deepEqual(fields(await read(t.a)), ['4', '2', '1']);
      const bad = await t.a.post(PATHS.notificationsGet, { organizationId: 7 });
      expectError(bad, 400, 'INVALID_ARGUMENT');
      assert.deepEqual(fields(bad), ['4', '1', '2'], 'a 400 counts and says so');
      assert.deepEqual(fields(await read(t.a)), ['4', '0', '2']);
      const limited = await read(t.a);
      expectLimited(limited);
      assert.deepEqual(fields(limited), ['4', '0', '2'], 'the 429 too');
      advance(2_000);
      assert.deepEqual(fields(await read(t.a)), ['4', '3', '1'], 'refilled to the burst, then one spent');
      const none = [undefined, undefined, undefined];
      assert.deepEqual(
        fields(await t.request(PATHS.notificationsGet, { body: { data: {} } })),
        none,
        '401: no key to count against',
      );
      assert.deepEqual(fields(await t.request('/v1/nope', { body: { data: {} } })), none, '404');
      assert.deepEqual(fields(await t.request('/healthz', { method: 'GET' })), none, '/healthz');
    } finally {
      await t.close();
    }
  });

  test('the budget is per API key: tenant b is unaffected while tenant a is limited', async () => {
    const { t } = await appWithClock(2);
    try {
      for (let i = 0; i < 4; i++) assert.equal((await read(t.a)).status, 200);
      expectLimited(await read(t.a), 'tenant a');
      for (let i = 0; i < 4; i++) {
        const r = await read(t.b);
        assert.equal(r.status, 200, `tenant b request ${i + 1}: ${r.body}`);
      }
      expectLimited(await read(t.b), 'tenant b after its own burst');
      expectLimited(await read(t.a), 'tenant a still');
    } finally {
      await t.close();
    }
  });

  test('tokens come back at N per second, never beyond the burst', async () => {
    const { t, advance } = await appWithClock(2);
    try {
      for (let i = 0; i < 4; i++) assert.equal((await read(t.a)).status, 200);
      expectLimited(await read(t.a));
      advance(499);
      expectLimited(await read(t.a), 'after 499 ms (0.998 tokens)');
      advance(1);
      assert.equal((await read(t.a)).status, 200, 'after 500 ms one token is back');
      expectLimited(await read(t.a), 'and only one');
      advance(1_000);
      assert.equal((await read(t.a)).status, 200);
      assert.equal((await read(t.a)).status, 200);
      expectLimited(await read(t.a), 'two tokens per second');
      // A long idle time refills to the burst, not more.
      advance(3_600_000);
      for (let i = 0; i < 4; i++) assert.equal((await read(t.a)).status, 200, `after an hour, request ${i + 1}`);
      expectLimited(await read(t.a), 'the burst caps the refill');
    } finally {
      await t.close();
    }
  });

  test('waiting the Retry-After seconds is enough', async () => {
    const { t, advance } = await appWithClock(1);
    try {
      for (let i = 0; i < 2; i++) assert.equal((await read(t.a)).status, 200);
      const seconds = expectLimited(await read(t.a));
      advance(seconds * 1000);
      assert.equal((await read(t.a)).status, 200, `after Retry-After ${seconds}s`);
    } finally {
      await t.close();
    }
  });

  test('a limited write writes nothing; the limit is checked before the body', async () => {
    const { t, advance } = await appWithClock(1);
    try {
      for (let i = 0; i < 2; i++) assert.equal((await read(t.a)).status, 200);
      const add = await t.a.post(PATHS.notificationsAdd, {
        organizationId: 'rl-org',
        documentId: 'rl-doc',
        notificationId: 'limited',
        actionUser: user('u'),
        displayHeadlineMessageTemplate: 'h',
        notifyUsers: [user('r')],
      });
      expectLimited(add, 'notifications/add');
      expectLimited(
        await t.a.post(PATHS.notificationsGet, null, { raw: 'not json', headers: { 'content-type': 'application/json' } }),
        'garbage body',
      );
      advance(10_000);
      const r = await t.a.ok(PATHS.notificationsGet, { organizationId: 'rl-org', documentId: 'rl-doc' });
      assert.deepEqual(r.data, [], JSON.stringify(r.data));
    } finally {
      await t.close();
    }
  });

  test('requests without valid credentials are 401, not 429, and the operational endpoints are not limited', async () => {
    const { t } = await appWithClock(1);
    try {
      for (let i = 0; i < 2; i++) assert.equal((await read(t.a)).status, 200);
      expectLimited(await read(t.a));
      const noCreds = await t.request(PATHS.notificationsGet, { body: { data: { organizationId: 'o', documentId: 'd' } } });
      expectError(noCreds, 401, 'UNAUTHENTICATED');
      const wrong = await t.request(PATHS.notificationsGet, {
        body: { data: { organizationId: 'o', documentId: 'd' } },
        headers: { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': 'wrong' },
      });
      expectError(wrong, 401, 'UNAUTHENTICATED');
      for (let i = 0; i < 5; i++) {
        assert.equal((await t.request('/healthz', { method: 'GET' })).status, 200);
        assert.equal((await t.request('/readyz', { method: 'GET' })).status, 200);
      }
    } finally {
      await t.close();
    }
  });

  test('rateLimit 0 turns the limiter off', async () => {
    const { t } = await appWithClock(0);
    try {
      for (let i = 0; i < 120; i++) {
        const r = await read(i % 2 === 0 ? t.a : t.b);
        assert.equal(r.status, 200, `request ${i + 1}: ${r.body}`);
        assert.equal(r.headers['retry-after'], undefined);
      }
    } finally {
      await t.close();
    }
  });

  test('the default test app (no rateLimit) is not limited either', async () => {
    const t = await makeTestApp();
    try {
      for (let i = 0; i < 60; i++) assert.equal((await read(t.a)).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('LocalRateLimiter', () => {
  function limiter(perSecond: number) {
    let now = T0;
    const l = new LocalRateLimiter(perSecond, () => now);
    return {
      l,
      advance: (ms: number) => {
        now += ms;
      },
    };
  }
  const drain = (l: LocalRateLimiter, key: string): number => {
    let n = 0;
    while (l.take(key).allowed) {
      n++;
      if (n > 100_000) assert.fail('never limited');
    }
    return n;
  };

  test('a new key gets a burst of twice the rate', () => {
    for (const perSecond of [1, 2, 5, 100]) {
      const { l } = limiter(perSecond);
      assert.equal(drain(l, 'k'), perSecond * 2, `perSecond ${perSecond}`);
    }
  });

  test('a take reports the bucket: limit (the burst), remaining, seconds to full, and retryAfterSeconds 0 when allowed', () => {
    const { l, advance } = limiter(3);
    assert.deepEqual(l.take('k'), { allowed: true, limit: 6, remaining: 5, resetSeconds: 1, retryAfterSeconds: 0 });
    for (let i = 0; i < 5; i++) l.take('k');
    assert.deepEqual(l.take('k'), { allowed: false, limit: 6, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 });
    advance(1_000);
    assert.deepEqual(
      l.take('k'),
      { allowed: true, limit: 6, remaining: 2, resetSeconds: 2, retryAfterSeconds: 0 },
      '3 back, 1 spent: 4 to refill at 3/s',
    );
  });

  test('keys are independent', () => {
    const { l } = limiter(2);
    assert.equal(drain(l, 'a'), 4);
    assert.equal(l.take('a').allowed, false);
    assert.equal(drain(l, 'b'), 4);
    assert.equal(l.take('a').allowed, false);
  });

  test('refill: N tokens per second, by fractions of a second, capped at the burst', () => {
    const { l, advance } = limiter(4);
    assert.equal(drain(l, 'k'), 8);
    advance(250);
    assert.equal(drain(l, 'k'), 1, '250 ms at 4/s is one token');
    advance(125);
    assert.equal(l.take('k').allowed, false, '125 ms is half a token');
    advance(125);
    assert.equal(drain(l, 'k'), 1, 'the halves add up');
    advance(1_000);
    assert.equal(drain(l, 'k'), 4, 'one second is four tokens');
    advance(10_000);
    assert.equal(drain(l, 'k'), 8, 'ten idle seconds refill to the burst only');
    advance(60_000);
    assert.equal(drain(l, 'k'), 8, 'a key forgotten after idling starts again with a full burst');
  });

  const pick = ({ allowed, retryAfterSeconds }: RateDecision) => ({ allowed, retryAfterSeconds });

  test('retryAfterSeconds: whole seconds until one token is back, at least 1', () => {
    const a = limiter(1);
    drain(a.l, 'k');
    assert.deepEqual(pick(a.l.take('k')), { allowed: false, retryAfterSeconds: 1 });

    const b = limiter(1000);
    drain(b.l, 'k');
    assert.deepEqual(pick(b.l.take('k')), { allowed: false, retryAfterSeconds: 1 }, 'a millisecond rounds up to 1 s');

    const slow = limiter(0.5); // burst 1, one token every 2 s
    assert.equal(drain(slow.l, 'k'), 1);
    assert.deepEqual(pick(slow.l.take('k')), { allowed: false, retryAfterSeconds: 2 });
    slow.advance(1_000);
    assert.deepEqual(pick(slow.l.take('k')), { allowed: false, retryAfterSeconds: 1 }, 'half a token there, one second to go');
    slow.advance(1_000);
    assert.equal(slow.l.take('k').allowed, true);

    const partial = limiter(0.5);
    drain(partial.l, 'k');
    partial.advance(500); // a quarter token: 1.5 s to go rounds up to 2
    assert.deepEqual(pick(partial.l.take('k')), { allowed: false, retryAfterSeconds: 2 });
  });

  test('a denied take does not spend a token; waiting retryAfterSeconds is always enough', () => {
    const { l, advance } = limiter(3);
    drain(l, 'k');
    for (let i = 0; i < 10; i++) assert.equal(l.take('k').allowed, false);
    advance(334);
    assert.equal(l.take('k').allowed, true, 'denied takes did not dig a hole');
    for (let round = 0; round < 5; round++) {
      drain(l, 'k');
      const d = l.take('k');
      assert.equal(d.allowed, false);
      advance(d.retryAfterSeconds * 1000);
      assert.equal(l.take('k').allowed, true, `round ${round}: after ${d.retryAfterSeconds}s`);
    }
  });
});
