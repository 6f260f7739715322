// workspace/domains/add and delete (the tenant's allowed browser domains) on the configured database:
// the original service's examples answered exactly as its pages show them, normalization, the
// documented partial answer (500 INTERNAL with details) with the rest done, malformed entries and bad
// bodies refused naming the member with nothing written, the limit, and tenants kept apart. Then CORS
// from those domains, over real HTTP: a preflight any tenant's domains allow is answered, and an
// end-user stream gets the CORS headers only when its own tenant's domains allow its origin.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { anotherInstance, expectError, makeTestApp, PATHS, type Caller, type Reply, type TestApp } from '../helpers/app.js';
import { expectMissingCredentials } from '../helpers/security.js';
import { openStream } from '../helpers/sse.js';

const ADDED = 'Domain(s) added successfully to allowed domains.';
const REMOVED = 'Domain(s) removed successfully from allowed domains.';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

const tenantOf = async (c: Caller) => (await t.store.findCredentials(c.creds.apiKey))!.tenant.id;
const listOf = async (c: Caller) => t.store.allowedDomains(await tenantOf(c));
/** Each test starts from no domains, for both tenants. */
async function clear(): Promise<void> {
  for (const c of [t.a, t.b]) {
    const domains = await listOf(c);
    if (domains.length > 0) await c.ok(PATHS.domainsDelete, { domains });
  }
}

describe('workspace/domains: happy paths', () => {
  test("add: the page's example, answered exactly as the page shows it", async () => {
    await clear();
    const r = await t.a.post(PATHS.domainsAdd, { domains: ['https://www.google.com', 'https://*.firebase.com'] });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      result: { status: 'success', message: ADDED, data: { domainsAdded: ['google.com', '*.firebase.com'] } },
    });
    assert.deepEqual(await listOf(t.a), ['*.firebase.com', 'google.com']);
  });

  test("delete: the page's example, answered exactly as the page shows it", async () => {
    await clear();
    await t.a.ok(PATHS.domainsAdd, { domains: ['google.com', '*.firebase.com', 'velt.dev'] });
    const r = await t.a.post(PATHS.domainsDelete, { domains: ['https://www.google.com', 'https://*.firebase.com'] });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      result: { status: 'success', message: REMOVED, data: { domainsRemoved: ['google.com', '*.firebase.com'] } },
    });
    assert.deepEqual(await listOf(t.a), ['velt.dev']);
  });

  test('entries are normalized (scheme, port, path, credentials, case, www., IDN) and repeats count once', async () => {
    await clear();
    const r = await t.a.ok(PATHS.domainsAdd, {
      domains: [
        'https://user:pw@WWW.Example.com:8443/path?q=1#f',
        'example.com',
        'http://localhost:3000',
        '  127.0.0.1  ',
        'https://Bücher.de',
        'www.example.com',
      ],
    });
    assert.deepEqual(r.data.domainsAdded, ['example.com', 'localhost', '127.0.0.1', 'xn--bcher-kva.de']);
    const removed = await t.a.ok(PATHS.domainsDelete, { domains: ['http://EXAMPLE.com', 'https://www.example.com/x'] });
    assert.deepEqual(removed.data.domainsRemoved, ['example.com'], 'a delete normalizes alike');
  });
});

describe('workspace/domains: the documented partial answer', () => {
  test("an add of domains allowed already: the page's 500 with details, and the others were added", async () => {
    await clear();
    await t.a.ok(PATHS.domainsAdd, { domains: ['google.com'] });
    const r = await t.a.post(PATHS.domainsAdd, { domains: ['velt.dev', 'https://www.google.com'] });
    assert.equal(r.status, 500, r.body);
    assert.deepEqual(r.json, {
      error: {
        message: 'Domain(s) added successfully to allowed domains. Skipped existing domains.',
        status: 'INTERNAL',
        details: { domainsAdded: ['velt.dev'], skippedDomains: ['google.com'] },
      },
    });
    assert.deepEqual(await listOf(t.a), ['google.com', 'velt.dev'], 'velt.dev was added');
    const all = await t.a.post(PATHS.domainsAdd, { domains: ['google.com'] });
    assert.deepEqual(all.json.error.details, { domainsAdded: [], skippedDomains: ['google.com'] }, 'all of them skipped');
  });

  test("a delete of domains not allowed: the page's 500 with details, and the others were removed", async () => {
    await clear();
    await t.a.ok(PATHS.domainsAdd, { domains: ['velt.dev', 'keep.example'] });
    const r = await t.a.post(PATHS.domainsDelete, { domains: ['velt.dev', 'google.com'] });
    assert.equal(r.status, 500, r.body);
    assert.deepEqual(r.json, {
      error: {
        message: 'Domain(s) removed successfully from allowed domains. Skipped non-existing domains.',
        status: 'INTERNAL',
        details: { domainsRemoved: ['velt.dev'], skippedDomains: ['google.com'] },
      },
    });
    assert.deepEqual(await listOf(t.a), ['keep.example'], 'velt.dev was removed');
  });
});

describe('workspace/domains: errors', () => {
  test('malformed entries are INVALID_ARGUMENT naming the entry, and nothing is written or removed', async () => {
    await clear();
    await t.a.ok(PATHS.domainsAdd, { domains: ['keep.example'] });
    for (const bad of [
      'a.*.example.com',
      '*',
      'https://*',
      '*.com',
      '**.example.com',
      'exa mple.com',
      'ftp://example.com',
      '   ',
      'https://',
      'a..example.com',
    ]) {
      for (const path of [PATHS.domainsAdd, PATHS.domainsDelete]) {
        const r = await t.a.post(path, { domains: ['fresh.example', 'keep.example', bad] });
        const message = expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${JSON.stringify(bad)}`);
        assert.ok(message.startsWith('data.domains[2] '), message);
      }
    }
    assert.deepEqual(await listOf(t.a), ['keep.example'], 'nothing added, nothing removed');
  });

  test('a missing, empty, too long or mistyped list, and mistyped or too long entries, name the member', async () => {
    await clear();
    const cases: [unknown, RegExp][] = [
      [{}, /^data\.domains\b/],
      [{ domains: null }, /^data\.domains\b/],
      [{ domains: [] }, /^data\.domains\b/],
      [{ domains: Array.from({ length: 101 }, (_, i) => `d${i}.example`) }, /^data\.domains\b/],
      [{ domains: 'example.com' }, /^data\.domains\b/],
      [{ domains: { 0: 'example.com' } }, /^data\.domains\b/],
      [{ domains: ['ok.example', 7] }, /^data\.domains\[1\]/],
      [{ domains: ['ok.example', null] }, /^data\.domains\[1\]/],
      [{ domains: ['ok.example', ''] }, /^data\.domains\[1\]/],
      [{ domains: [`https://ok.example/${'x'.repeat(2048)}`] }, /^data\.domains\[0\]/],
    ];
    for (const path of [PATHS.domainsAdd, PATHS.domainsDelete]) {
      for (const [data, member] of cases) {
        const r = await t.a.post(path, data);
        assert.match(expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${JSON.stringify(data).slice(0, 80)}`), member);
      }
      expectError(await t.a.post(path, null, { raw: '{}' }), 400, 'INVALID_ARGUMENT', `${path} without data`);
      expectError(await t.a.post(path, null, { raw: '{"data": [1]}' }), 400, 'INVALID_ARGUMENT', `${path} data not an object`);
    }
    const hundred = await t.a.ok(PATHS.domainsAdd, { domains: Array.from({ length: 100 }, (_, i) => `d${i}.example`) });
    assert.equal(hundred.data.domainsAdded.length, 100, 'a hundred is the bound, inclusive');
    assert.deepEqual((await listOf(t.a)).length, 100, 'only the accepted request wrote');
  });

  test('past MARGINALIA_MAX_ALLOWED_DOMAINS an add is RESOURCE_EXHAUSTED and adds nothing', async () => {
    const small = await makeTestApp({ config: { maxAllowedDomains: 3 } });
    try {
      await small.a.ok(PATHS.domainsAdd, { domains: ['a.example', 'b.example'] });
      const r = await small.a.post(PATHS.domainsAdd, { domains: ['c.example', 'd.example'] });
      assert.match(expectError(r, 429, 'RESOURCE_EXHAUSTED'), /at most 3 domains \(MARGINALIA_MAX_ALLOWED_DOMAINS\)/);
      assert.equal(r.headers['retry-after'], undefined, 'permanent: waiting does not end it');
      const tenant = (await small.store.findCredentials(small.a.creds.apiKey))!.tenant.id;
      assert.deepEqual(await small.store.allowedDomains(tenant), ['a.example', 'b.example'], 'nothing added');
      const third = await small.a.ok(PATHS.domainsAdd, { domains: ['c.example'] });
      assert.deepEqual(third.data.domainsAdded, ['c.example'], 'up to the limit is fine');
      assert.deepEqual(
        (await small.b.ok(PATHS.domainsAdd, { domains: ['x.example'] })).data.domainsAdded,
        ['x.example'],
        'per tenant',
      );
    } finally {
      await small.close();
    }
  });
});

describe('workspace/domains: security', () => {
  test('credentials come first: 401 before any look at the body', async () => {
    for (const path of [PATHS.domainsAdd, PATHS.domainsDelete]) {
      await expectMissingCredentials(t, path, { data: { domains: ['*'] } });
      const wrong = await t.request(path, {
        raw: '{"data": {"domains": 7',
        headers: {
          'content-type': 'application/json',
          'x-service-api-key': t.a.creds.apiKey,
          'x-service-auth-token': t.b.creds.authToken,
        },
      });
      expectError(wrong, 401, 'UNAUTHENTICATED', `${path} wrong token, broken body`);
    }
  });

  test("each tenant has its own list: another tenant's add and delete never touch it", async () => {
    await clear();
    await t.a.ok(PATHS.domainsAdd, { domains: ['a-only.example', 'shared.example'] });
    assert.deepEqual((await t.b.ok(PATHS.domainsAdd, { domains: ['shared.example'] })).data.domainsAdded, ['shared.example']);
    const r = await t.b.post(PATHS.domainsDelete, { domains: ['a-only.example', 'shared.example'] });
    assert.deepEqual(r.json.error.details, { domainsRemoved: ['shared.example'], skippedDomains: ['a-only.example'] });
    assert.deepEqual(await listOf(t.a), ['a-only.example', 'shared.example'], "a's list is untouched");
    assert.deepEqual(await listOf(t.b), []);
  });
});

describe('CORS from allowed domains (MARGINALIA_CORS_ORIGINS unset)', () => {
  const A_PAGE = 'https://app.a-tenant.example';
  const A_WILD = 'http://deep.shop.a-wild.example:8080';
  const B_PAGE = 'https://b-tenant.example';
  let base: string;
  /** The lookups CORS made of the store, counted by a wrapper around the real one. */
  const lookups = { tenant: 0, any: 0 };
  let counted: Awaited<ReturnType<typeof anotherInstance>>;

  before(async () => {
    await clear();
    await t.a.ok(PATHS.domainsAdd, { domains: [A_PAGE, '*.a-wild.example'] });
    await t.b.ok(PATHS.domainsAdd, { domains: [B_PAGE] });
    const counting = (store: Store) =>
      new Proxy(store, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (typeof value !== 'function') return value;
          if (name !== 'tenantAllowsDomain' && name !== 'anyTenantAllowsDomain') return value.bind(target);
          return (...args: unknown[]) => {
            lookups[name === 'tenantAllowsDomain' ? 'tenant' : 'any']++;
            return value.apply(target, args);
          };
        },
      });
    // Every preflight reads (MARGINALIA_PREFLIGHT_ANSWER_MS 0), so each lookup is counted; holding is tested below.
    counted = await anotherInstance(t.db, { preflightAnswerMs: 0 }, counting);
    await counted.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(counted.app.server.address() as { port: number }).port}`;
  });
  after(async () => {
    await counted.app.close();
    await counted.store.close();
  });

  const corsHeaders = (headers: Reply['headers']) => Object.keys(headers).filter((h) => h.startsWith('access-control-'));
  const varies = (headers: Reply['headers']) => /(^|,)\s*origin\s*(,|$)/i.test(String(headers.vary ?? ''));
  const preflight = async (path: string, origin: string, method = 'GET') => {
    const res = await fetch(base + path, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
  const tokenOf = async (c: Caller, userId = 'page-user') =>
    (await c.ok(PATHS.authTokenGet, { userId, userProperties: { organizationId: 'cors-org' } })).data.token as string;
  /** An end-user stream's answer headers (status, and the body of a refusal); the stream is closed at once. */
  async function stream(query: string, headers: Record<string, string>) {
    const s = await openStream(`${base}/v1/events${query}`, headers);
    s.close();
    return s;
  }

  test('a preflight from a tenant domain (or a subdomain its wildcard covers) is answered, for end-user headers', async () => {
    for (const origin of [A_PAGE, A_WILD, B_PAGE]) {
      const r = await preflight('/v1/events', origin);
      assert.equal(r.status, 204, `${origin}: ${r.body}`);
      assert.equal(r.body, '');
      assert.equal(r.headers['access-control-allow-origin'], origin);
      assert.ok(varies(r.headers), `Vary: ${r.headers.vary}`);
      assert.equal(r.headers['access-control-allow-methods'], 'GET, POST');
      assert.equal(r.headers['access-control-allow-headers'], 'content-type, authorization, last-event-id');
      assert.equal(r.headers['access-control-max-age'], '600');
      assert.equal(r.headers['access-control-allow-credentials'], undefined);
      assert.equal(r.headers['ratelimit-limit'], undefined, 'a preflight is no request of a key');
    }
    const post = await preflight(PATHS.notificationsGet, A_PAGE, 'POST');
    assert.equal(post.status, 204, 'an operation path too: end-user tokens are headed for some POSTs');
  });

  test('a preflight from an origin no tenant allows gets no CORS headers: the usual 405 envelope', async () => {
    for (const origin of ['https://a-tenant.example', 'https://a-wild.example', 'https://evil.example', 'null']) {
      const r = await preflight('/v1/events', origin);
      assert.equal(r.status, 405, `${origin}: ${r.body}`);
      assert.equal(JSON.parse(r.body).error.status, 'INVALID_ARGUMENT');
      assert.deepEqual(corsHeaders(r.headers), [], origin);
    }
  });

  test("an end-user stream from its tenant's domain carries the CORS headers, with the token as ?token= or Bearer", async () => {
    const token = await tokenOf(t.a);
    for (const [query, headers] of [
      [`?token=${token}`, { origin: A_PAGE }],
      ['', { origin: A_WILD, authorization: `Bearer ${token}` }],
    ] as const) {
      const s = await stream(query, headers);
      assert.equal(s.status, 200, s.body);
      assert.equal(s.headers['access-control-allow-origin'], headers.origin);
      assert.ok(varies(s.headers), `Vary: ${s.headers.vary}`);
      assert.match(String(s.headers['access-control-expose-headers']), /x-request-id/);
    }
    const refused = await stream(`?token=${token}&types=nope`, { origin: A_PAGE });
    assert.equal(refused.status, 400, 'a bad filter, after the token checked out');
    assert.equal(refused.headers['access-control-allow-origin'], A_PAGE, 'the page can read why');
  });

  test("another tenant's stream gets nothing from these domains; nor does a bad token, or the server credentials", async () => {
    // A token used from an origin its tenant does not allow is refused (docs/api.md, "End users").
    const s = await stream(`?token=${await tokenOf(t.b)}`, { origin: A_PAGE });
    assert.equal(s.status, 403, s.body);
    assert.equal(JSON.parse(s.body).error.status, 'PERMISSION_DENIED');
    assert.deepEqual(corsHeaders(s.headers), [], "b's stream from a's domain");
    const own = await stream(`?token=${await tokenOf(t.b)}`, { origin: B_PAGE });
    assert.equal(own.headers['access-control-allow-origin'], B_PAGE, 'from its own');
    const bad = await stream('?token=not-a-token', { origin: A_PAGE });
    assert.equal(bad.status, 401);
    assert.deepEqual(corsHeaders(bad.headers), []);
    const server = await stream('', {
      origin: A_PAGE,
      'x-service-api-key': t.a.creds.apiKey,
      'x-service-auth-token': t.a.creds.authToken,
    });
    assert.equal(server.status, 200, server.body);
    assert.deepEqual(corsHeaders(server.headers), [], 'server credentials need MARGINALIA_CORS_ORIGINS');
    const post = await fetch(base + PATHS.notificationsGet, {
      method: 'POST',
      headers: {
        origin: A_PAGE,
        'content-type': 'application/json',
        'x-service-api-key': t.a.creds.apiKey,
        'x-service-auth-token': t.a.creds.authToken,
      },
      body: JSON.stringify({ data: { organizationId: 'cors-org', userId: 'u' } }),
    });
    assert.equal(post.status, 200);
    assert.deepEqual(corsHeaders(Object.fromEntries(post.headers)), []);
  });

  test('a request without Origin reads no domain and gets no CORS headers nor Vary; a deleted domain allows no more', async () => {
    lookups.tenant = 0;
    lookups.any = 0;
    const token = await tokenOf(t.a);
    const s = await stream(`?token=${token}`, {});
    assert.equal(s.status, 200, s.body);
    assert.deepEqual(corsHeaders(s.headers), []);
    assert.ok(!varies(s.headers));
    assert.deepEqual(lookups, { tenant: 0, any: 0 }, 'no lookup without an Origin');
    assert.equal((await stream(`?token=${token}`, { origin: A_PAGE })).headers['access-control-allow-origin'], A_PAGE);
    assert.deepEqual(lookups, { tenant: 1, any: 0 }, "one lookup of the stream's own tenant");
    await t.a.ok(PATHS.domainsDelete, { domains: [A_PAGE] });
    assert.equal((await preflight('/v1/events', A_PAGE)).status, 405, 'the preflight is refused');
    assert.deepEqual(corsHeaders((await stream(`?token=${token}`, { origin: A_PAGE })).headers), [], 'and the stream');
    await t.a.ok(PATHS.domainsAdd, { domains: [A_PAGE] });
  });

  test("a preflight's answer about an origin is held for MARGINALIA_PREFLIGHT_ANSWER_MS: one lookup, refusals too", async () => {
    let any = 0;
    const holding = await anotherInstance(t.db, { preflightAnswerMs: 60_000 }, (store) =>
      Object.assign(Object.create(store) as Store, {
        anyTenantAllowsDomain: (candidates: readonly string[]) => {
          any++;
          return store.anyTenantAllowsDomain(candidates);
        },
      }),
    );
    try {
      const ask = async (origin: string) =>
        (
          await holding.app.inject({
            method: 'OPTIONS',
            url: '/v1/events',
            headers: { origin, 'access-control-request-method': 'GET' },
          })
        ).statusCode;
      for (let i = 0; i < 3; i++) assert.equal(await ask(A_PAGE), 204);
      for (let i = 0; i < 3; i++) assert.equal(await ask('https://nobody.example'), 405);
      assert.equal(any, 2, 'one lookup per origin');
      await t.a.ok(PATHS.domainsDelete, { domains: [A_PAGE] });
      assert.equal(await ask(A_PAGE), 204, 'held: the deletion applies to preflights once the answer expires');
      await t.a.ok(PATHS.domainsAdd, { domains: [A_PAGE] });
    } finally {
      await holding.app.close();
      await holding.store.close();
    }
  });

  test('with MARGINALIA_CORS_ORIGINS listing the origin, an end-user stream is allowed as before, without a lookup', async () => {
    const listed = await anotherInstance(t.db, { corsOrigins: ['https://listed.example'] });
    try {
      await listed.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(listed.app.server.address() as { port: number }).port}/v1/events?token=${await tokenOf(t.a)}`;
      const s = await openStream(url, { origin: 'https://listed.example' });
      s.close();
      assert.equal(s.status, 200, s.body);
      assert.equal(s.headers['access-control-allow-origin'], 'https://listed.example');
      const fromDomain = await openStream(url, { origin: A_WILD });
      fromDomain.close();
      assert.equal(fromDomain.headers['access-control-allow-origin'], A_WILD, "and from the tenant's domains too");
    } finally {
      await listed.app.close();
      await listed.store.close();
    }
  });
});
