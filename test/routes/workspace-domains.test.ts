// workspace/domains/add and delete (the tenant's allowed browser domains) on the configured database:
// the original service's examples answered exactly as its pages show them, normalization, the
// documented partial answer (500 INTERNAL with details) with the rest done, malformed entries and bad
// bodies refused naming the member with nothing written, the limit, and tenants kept apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type Caller, type TestApp } from '../helpers/app.js';
import { expectMissingCredentials } from '../helpers/security.js';

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
