// The reads admitted from the auth cache (http/auth.ts): notifications/get and comments/get run one
// statement, which returns the credentials version, instead of a version read and then the data. Every
// answer they give still comes after the database has confirmed the credentials: a key or token
// revoked (or a tenant disabled) since the cache admitted them is refused on the very next request,
// whatever that request would have answered, and a 401 still comes before a 400.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createTenant, type IssuedCredentials } from '../../src/services/credentials.js';
import { expectError, makeTestApp, notificationData, PATHS, type TestApp } from '../helpers/app.js';
import { sample } from '../helpers/metrics.js';
import { BAD_CREDENTIALS, raw } from '../helpers/security.js';
import { TEST_STORE } from '../helpers/test-database.js';

const ORG = 'conf-org';
const headersOf = (c: IssuedCredentials) => ({ 'x-service-api-key': c.apiKey, 'x-service-auth-token': c.authToken });

/** Each read these routes can give: with rows, empty, and a 400. */
const READS: { what: string; path: string; data: unknown; status: number }[] = [
  { what: 'a page of notifications', path: PATHS.notificationsGet, data: { organizationId: ORG, userId: 'r1' }, status: 200 },
  { what: 'an empty page', path: PATHS.notificationsGet, data: { organizationId: ORG, userId: 'nobody' }, status: 200 },
  {
    what: 'a thread',
    path: PATHS.commentsGet,
    data: { organizationId: ORG, documentId: 'doc-1', annotationId: 'thread' },
    status: 200,
  },
  {
    what: 'a missing thread (no comments)',
    path: PATHS.commentsGet,
    data: { organizationId: ORG, documentId: 'doc-1', annotationId: 'none' },
    status: 200,
  },
  // Read once before the change: held in memory (services/thread-pages.ts), so the reads after it
  // are answered from there, with the credentials version of the versions' read.
  { what: 'a page of threads', path: PATHS.annotationsGet, data: { organizationId: ORG, documentId: 'doc-1' }, status: 200 },
  {
    what: 'an empty page of threads',
    path: PATHS.annotationsGet,
    data: { organizationId: ORG, documentId: 'none' },
    status: 200,
  },
  {
    what: 'counts',
    path: PATHS.annotationsCount,
    data: { organizationId: ORG, documentIds: ['doc-1', 'none'], userId: 'u2' },
    status: 200,
  },
  { what: 'a bad body', path: PATHS.notificationsGet, data: { organizationId: 7 }, status: 400 },
];

/** The tenant's notification and thread, in its own organization (each test makes a new tenant). */
async function seed(t: TestApp, creds: IssuedCredentials) {
  const post = (path: string, data: unknown) => raw(t, path, headersOf(creds), { data });
  assert.equal((await post(PATHS.notificationsAdd, notificationData(ORG, { notificationId: 'n1' }))).status, 200);
  const thread = { annotationId: 'thread', commentData: [{ commentText: 'secret text', from: { userId: 'u1' } }] };
  const added = await post(PATHS.annotationsAdd, { organizationId: ORG, documentId: 'doc-1', commentAnnotations: [thread] });
  assert.equal(added.status, 200, added.body);
}

describe('reads admitted from the auth cache are confirmed before they answer', () => {
  let t: TestApp;
  let fresh: IssuedCredentials;

  before(async () => {
    t = await makeTestApp({ rateLimit: 1000, authFailureFloorMs: 0 });
  });
  after(async () => {
    await t.close();
  });
  beforeEach(async () => {
    fresh = await createTenant(t.store, () => Date.now(), 'confirmed');
    await seed(t, fresh);
  });

  /** Every read, once with the credentials (the cache holds them after), then `change`, then each again. */
  async function afterChange(change: () => unknown, status: number, code: string) {
    for (const read of READS) {
      const warm = await raw(t, read.path, headersOf(fresh), { data: read.data });
      assert.equal(warm.status, read.status, `${read.what} before the change: ${warm.body}`);
    }
    await change();
    for (const read of READS) {
      // Each read is made twice in a row: the first admitted from the cache under the old version.
      for (const attempt of [1, 2]) {
        const r = await raw(t, read.path, headersOf(fresh), { data: read.data });
        const what = `${read.what}, attempt ${attempt}`;
        const message = expectError(r, status, code, what);
        if (code === 'UNAUTHENTICATED') assert.equal(message, BAD_CREDENTIALS, what);
        assert.ok(!/secret text|n1|doc-1/.test(r.body), `${what} shows no data: ${r.body}`);
        for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
          assert.equal(r.headers[name], undefined, `${what}: a refused request gets no ${name}`);
      }
    }
  }

  test('a revoked token is refused on the next read, whatever the read would have answered', async () => {
    await afterChange(
      async () => {
        const tenantId = (await t.store.findCredentials(fresh.apiKey))!.tenant.id;
        const [token] = await t.store.listTokens(tenantId);
        assert.ok(await t.store.revokeToken(tenantId, token!.hash, Date.now()));
      },
      401,
      'UNAUTHENTICATED',
    );
  });

  test('a revoked key is refused on the next read', async () => {
    await afterChange(() => t.store.revokeTenant(fresh.apiKey, Date.now()), 401, 'UNAUTHENTICATED');
  });

  test('a disabled tenant gets 403 on the next read', async () => {
    await afterChange(() => t.store.setTenantDisabled(fresh.apiKey, true), 403, 'PERMISSION_DENIED');
  });

  test('a change to other credentials leaves these working: each read answers as before, data included', async () => {
    for (const read of READS) {
      await raw(t, read.path, headersOf(fresh), { data: read.data });
      await createTenant(t.store, () => Date.now(), 'someone else'); // moves the credentials version
      const r = await raw(t, read.path, headersOf(fresh), { data: read.data });
      assert.equal(r.status, read.status, `${read.what}: ${r.body}`);
      if (read.what === 'a thread') assert.ok(r.body.includes('secret text'), r.body);
      if (read.what === 'a page of notifications') assert.ok(r.body.includes('"n1"'), r.body);
      if (r.status === 200) assert.ok(r.headers['ratelimit-remaining'] !== undefined, `${read.what} keeps its rate-limit fields`);
    }
  });

  test('a read that returns rows runs no separate credentials-version statement; an empty one, an error and a write do', async () => {
    const versionReads = async () => {
      const text = (await t.request('/metrics', { method: 'GET' })).body;
      const labels = { database: TEST_STORE, method: 'credentialsVersion', outcome: 'ok' };
      return sample(text, 'marginalia_store_call_duration_seconds_count', labels) ?? 0;
    };
    const read = async (path: string, data: unknown, status = 200) =>
      assert.equal((await raw(t, path, headersOf(fresh), { data })).status, status);
    const named = (what: string) => {
      const r = READS.find((x) => x.what === what)!;
      return () => read(r.path, r.data, r.status);
    };
    await named('a page of notifications')(); // the cache holds the credentials from here on
    await named('a page of threads')(); // and this page is held in memory
    const counted: [string, () => Promise<void>, number][] = [
      ['a page of notifications', named('a page of notifications'), 0],
      ['a thread', named('a thread'), 0],
      ['a page of threads, from memory', named('a page of threads'), 0],
      ['counts', named('counts'), 0],
      ['an empty page', named('an empty page'), 1],
      ['a missing thread', named('a missing thread (no comments)'), 1],
      ['an empty page of threads', named('an empty page of threads'), 1],
      ['a bad body', named('a bad body'), 1],
      ['a write', () => read(PATHS.usersAdd, { organizationId: ORG, users: [{ userId: 'w' }] }), 1],
    ];
    for (const [what, request, expected] of counted) {
      const before = await versionReads();
      await request();
      assert.equal((await versionReads()) - before, expected, `${what}: separate credentials-version reads`);
    }
  });
});
