// Browsers (docs/events.md, "Browsers"): CORS for the configured origins only, and further names for the credential
// headers. Through the app in process, on whichever database the run uses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StoreUnavailableError, type Store } from '../../src/store/store.js';
import { anotherInstance, expectError, makeTestApp, PATHS, type Reply, type TestApp } from '../helpers/app.js';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const read = { organizationId: 'cors-org', documentId: 'cors-doc' };

const corsHeaders = (r: Reply) => Object.keys(r.headers).filter((h) => h.startsWith('access-control-'));
const preflight = (t: TestApp, path: string, origin: string | undefined, method: string | null = 'POST') =>
  t.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method ?? undefined,
      'access-control-request-headers': 'content-type, x-service-api-key, x-service-auth-token',
    },
  });
const varies = (r: Reply, name: string) =>
  String(r.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes(name.toLowerCase());

describe('CORS with MARGINALIA_CORS_ORIGINS set', () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp({
      rateLimit: 1,
      config: {
        corsOrigins: [ALLOWED, 'http://localhost:3000'],
        apiKeyHeaders: ['x-api-key'],
        authTokenHeaders: ['x-auth-token'],
      },
    });
  });
  after(() => t.close());

  test('a preflight from an allowed origin is answered 204 with the CORS headers, without credentials', async () => {
    for (const path of [PATHS.usersAdd, PATHS.notificationsGet]) {
      const r = await preflight(t, path, ALLOWED);
      assert.equal(r.status, 204, `${path}: ${r.body}`);
      assert.equal(r.body, '');
      assert.equal(r.headers['access-control-allow-origin'], ALLOWED);
      assert.ok(varies(r, 'origin'), `Vary: ${r.headers.vary}`);
      assert.equal(r.headers['access-control-allow-methods'], 'GET, POST');
      const allowed = String(r.headers['access-control-allow-headers']).split(', ');
      for (const h of [
        'content-type',
        'x-service-api-key',
        'x-service-auth-token',
        'x-api-key',
        'x-auth-token',
        'authorization',
        'last-event-id',
      ])
        assert.ok(allowed.includes(h), `${h} missing from ${allowed.join(', ')}`);
      assert.equal(r.headers['access-control-max-age'], '600');
      assert.equal(r.headers['access-control-allow-credentials'], undefined, 'no cookies are involved');
      assert.equal(r.headers['ratelimit-limit'], undefined, 'a preflight is no request of a key');
    }
    const local = await preflight(t, PATHS.usersAdd, 'http://localhost:3000');
    assert.equal(local.headers['access-control-allow-origin'], 'http://localhost:3000');
  });

  test('a preflight from another origin gets no CORS headers: the usual 405 (operation) or 404 envelope', async () => {
    for (const origin of [OTHER, 'https://app.example.com:8443', 'http://app.example.com', undefined]) {
      const r = await preflight(t, PATHS.usersAdd, origin);
      expectError(r, 405, 'INVALID_ARGUMENT', `from ${origin}`);
      assert.deepEqual(corsHeaders(r), [], `from ${origin}: ${JSON.stringify(r.headers)}`);
      const unknown = await preflight(t, '/v1/nothing/here', origin);
      expectError(unknown, 404, 'NOT_FOUND', `unknown path from ${origin}`);
      assert.deepEqual(corsHeaders(unknown), []);
    }
  });

  test('an OPTIONS from an allowed origin that is no preflight (no Access-Control-Request-Method) is routed as usual', async () => {
    const r = await preflight(t, PATHS.usersAdd, ALLOWED, null);
    expectError(r, 405, 'INVALID_ARGUMENT');
    assert.deepEqual(corsHeaders(r), []);
  });

  test('answers to an allowed origin echo it and expose the request id and rate-limit fields; others get none', async () => {
    const ok = await t.a.post(PATHS.notificationsGet, read, { headers: { origin: ALLOWED } });
    assert.equal(ok.status, 200, ok.body);
    assert.equal(ok.headers['access-control-allow-origin'], ALLOWED);
    assert.ok(varies(ok, 'origin'));
    const exposed = String(ok.headers['access-control-expose-headers']).split(', ');
    for (const h of ['x-request-id', 'ratelimit-remaining', 'retry-after']) assert.ok(exposed.includes(h), exposed.join());
    // A refusal is readable by the page too.
    const refused = await t.request(PATHS.notificationsGet, { body: { data: read }, headers: { origin: ALLOWED } });
    expectError(refused, 401, 'UNAUTHENTICATED');
    assert.equal(refused.headers['access-control-allow-origin'], ALLOWED);
    const other = await t.b.post(PATHS.notificationsGet, read, { headers: { origin: OTHER } });
    assert.equal(other.status, 200, 'CORS is the browser refusing, the server still answers');
    assert.deepEqual(corsHeaders(other), []);
  });

  test('preflights never count against a rate limit', async () => {
    const fresh = await makeTestApp({ rateLimit: 1, config: { corsOrigins: [ALLOWED] } });
    try {
      for (let i = 0; i < 10; i++) assert.equal((await preflight(fresh, PATHS.notificationsGet, ALLOWED)).status, 204);
      // A burst of 2 at 1/s: both requests pass, the third is refused.
      for (let i = 0; i < 2; i++) {
        const r = await fresh.a.post(PATHS.notificationsGet, read, { headers: { origin: ALLOWED } });
        assert.equal(r.status, 200, `request ${i + 1}: ${r.body}`);
      }
      expectError(await fresh.a.post(PATHS.notificationsGet, read), 429, 'RESOURCE_EXHAUSTED');
    } finally {
      await fresh.close();
    }
  });
});

describe('CORS with MARGINALIA_CORS_ORIGINS unset', () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp();
  });
  after(() => t.close());

  test('no CORS headers at all, and OPTIONS is the usual 405 or 404', async () => {
    const r = await preflight(t, PATHS.usersAdd, ALLOWED);
    expectError(r, 405, 'INVALID_ARGUMENT');
    assert.equal(r.headers.allow, 'POST');
    assert.deepEqual(corsHeaders(r), []);
    expectError(await preflight(t, '/v1/nothing/here', ALLOWED), 404, 'NOT_FOUND');
    const ok = await t.a.post(PATHS.notificationsGet, read, { headers: { origin: ALLOWED } });
    assert.equal(ok.status, 200, ok.body);
    assert.deepEqual(corsHeaders(ok), []);
    assert.ok(!varies(ok, 'origin'));
  });
});

describe("CORS when the tenants' domains cannot be read", () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp();
  });
  after(() => t.close());

  // The lookup throws on SQLite and rejects on PostgreSQL: both are the request's error, not a crash.
  const failures = {
    thrown: (err: Error): never => {
      throw err;
    },
    'a rejection': (err: Error) => Promise.reject(err),
  };
  for (const [how, fail] of Object.entries(failures)) {
    test(`a preflight from an origin that is not listed, its lookup failing (${how}), is the usual 503 envelope`, async () => {
      const failing = (store: Store) =>
        new Proxy(store, {
          get(target, name) {
            if (name === 'anyTenantAllowsDomain') return () => fail(new StoreUnavailableError('down'));
            const value = Reflect.get(target, name);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      const other = await anotherInstance(t.db, {}, failing);
      try {
        const send = async (headers: Record<string, string>) => {
          const res = await other.app.inject({ method: 'OPTIONS', url: PATHS.notificationsGet, headers });
          return { status: res.statusCode, headers: res.headers, body: res.body, json: JSON.parse(res.body) };
        };
        const r = await send({ origin: OTHER, 'access-control-request-method': 'POST' });
        expectError(r, 503, 'UNAVAILABLE');
        assert.deepEqual(corsHeaders(r), []);
        // The server goes on: an OPTIONS without Origin reads nothing, and is the usual 405.
        expectError(await send({}), 405, 'INVALID_ARGUMENT');
      } finally {
        await other.app.close();
        await other.store.close();
      }
    });
  }
});

describe('credential header aliases', () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp({ config: { apiKeyHeaders: ['x-api-key', 'apikey'], authTokenHeaders: ['x-auth-token'] } });
  });
  after(() => t.close());
  const send = (headers: Record<string, string | undefined>) =>
    t.request(PATHS.notificationsGet, { body: { data: read }, headers });

  test('a request with only alias headers authenticates, on reads (twice: from the auth cache) and writes', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await send({ 'x-api-key': t.a.creds.apiKey, 'x-auth-token': t.a.creds.authToken });
      assert.equal(r.status, 200, r.body);
    }
    const second = await send({ apikey: t.a.creds.apiKey, 'x-auth-token': t.a.creds.authToken });
    assert.equal(second.status, 200, `the second alias: ${second.body}`);
    const write = await t.request(PATHS.organizationsAdd, {
      body: { data: { organizations: [{ organizationId: 'cors-org' }] } },
      headers: { 'x-api-key': t.a.creds.apiKey, 'x-auth-token': t.a.creds.authToken },
    });
    assert.equal(write.status, 200, write.body);
  });

  test('the x-service-* header is read first, then the aliases in order', async () => {
    const r = await send({
      'x-service-api-key': t.a.creds.apiKey,
      'x-api-key': t.b.creds.apiKey,
      'x-auth-token': t.a.creds.authToken,
    });
    assert.equal(r.status, 200, r.body);
    const ordered = await send({ 'x-api-key': t.a.creds.apiKey, apikey: t.b.creds.apiKey, 'x-auth-token': t.a.creds.authToken });
    assert.equal(ordered.status, 200, ordered.body);
    const empty = await send({ 'x-service-api-key': '', 'x-api-key': t.a.creds.apiKey, 'x-auth-token': t.a.creds.authToken });
    assert.equal(empty.status, 200, `an empty header counts as absent: ${empty.body}`);
  });

  test('a wrong token under an alias is the usual 401; a missing one names the x-service-* header', async () => {
    expectError(await send({ 'x-api-key': t.a.creds.apiKey, 'x-auth-token': t.b.creds.authToken }), 401, 'UNAUTHENTICATED');
    expectError(await send({ 'x-api-key': 'no-such-key', 'x-auth-token': t.a.creds.authToken }), 401, 'UNAUTHENTICATED');
    const message = expectError(await send({ 'x-api-key': t.a.creds.apiKey }), 401, 'UNAUTHENTICATED');
    assert.equal(message, 'Missing header x-service-auth-token.');
    const noKey = expectError(await send({ 'x-auth-token': t.a.creds.authToken }), 401, 'UNAUTHENTICATED');
    assert.equal(noKey, 'Missing header x-service-api-key.');
  });

  test('on auth/token/get (credentials also in the body) alias headers count as headers', async () => {
    const r = await t.request(PATHS.authTokenGet, {
      body: { data: { userId: 'ada', userProperties: { organizationId: 'cors-org' } } },
      headers: { 'x-api-key': t.a.creds.apiKey, 'x-auth-token': t.a.creds.authToken },
    });
    assert.equal(r.status, 200, r.body);
    const wrong = await t.request(PATHS.authTokenGet, {
      body: { data: { userId: 'ada', userProperties: { organizationId: 'cors-org' }, ...t.a.creds } },
      headers: { 'x-api-key': t.a.creds.apiKey, 'x-auth-token': t.b.creds.authToken },
    });
    expectError(wrong, 401, 'UNAUTHENTICATED', 'the headers decide, the body members are ignored');
  });

  test('with no aliases configured, alias headers are ignored', async () => {
    const plain = await makeTestApp();
    try {
      const r = await plain.request(PATHS.notificationsGet, {
        body: { data: read },
        headers: { 'x-api-key': plain.a.creds.apiKey, 'x-auth-token': plain.a.creds.authToken },
      });
      assert.equal(expectError(r, 401, 'UNAUTHENTICATED'), 'Missing header x-service-api-key.');
    } finally {
      await plain.close();
    }
  });
});
