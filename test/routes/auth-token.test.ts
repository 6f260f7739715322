// End-user tokens (docs/api.md, "POST /v1/auth/token/get"): auth/token/get, on the configured database. Happy: the
// token's claims decode and verify; the credentials may come in `data` when both headers are absent. Errors:
// missing userId or organizationId are INVALID_ARGUMENT. Security: credentials first, in the headers or in the
// body (a wrong pair in the body is the same 401), and a token of tenant A never verifies as tenant B.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Services } from '../../src/services/context.js';
import { verifyEndUserToken } from '../../src/services/end-user-tokens.js';
import { expectError, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';
import { assertNoLeak, badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';

let t: TestApp;
let services: Services;
before(async () => {
  t = await makeTestApp();
  services = { store: t.store, clock: () => Date.now() } as unknown as Services;
});
after(async () => t.close());

const data = (over: Record<string, unknown> = {}) => ({
  userId: 'user-1',
  userProperties: { organizationId: 'org-1', email: 'user-1@example.com', name: 'User One', isAdmin: false },
  ...over,
});
const tenantIdOf = async (apiKey: string) => (await t.store.findCredentials(apiKey))!.tenant.id;
const body = (d: unknown) => ({ data: d });

describe('auth/token/get: happy paths', () => {
  test('answers a token whose claims decode and verify', async () => {
    const before = Math.floor(Date.now() / 1000);
    const result = await t.a.ok(PATHS.authTokenGet, data());
    assert.equal(result.message, 'Token generated successfully.');
    assert.deepEqual(Object.keys(result.data), ['token']);
    const { token } = result.data;
    assert.equal(decodeProtectedHeader(token).alg, 'HS256');
    assert.equal(typeof decodeProtectedHeader(token).kid, 'string');
    const claims = decodeJwt(token);
    const tid = await tenantIdOf(t.a.creds.apiKey);
    assert.equal(claims.sub, 'user-1');
    assert.equal(claims.tid, tid);
    assert.equal(claims.org, 'org-1');
    assert.equal(claims.email, 'user-1@example.com');
    assert.equal(claims.name, 'User One');
    assert.equal(claims.isAdmin, false);
    assert.ok((claims.iat as number) >= before - 1 && (claims.iat as number) <= Date.now() / 1000 + 1);
    assert.equal((claims.exp as number) - (claims.iat as number), 48 * 3600);
    const verified = await verifyEndUserToken(services, token);
    assert.deepEqual(
      [verified.tenantId, verified.userId, verified.organizationId, verified.isAdmin],
      [tid, 'user-1', 'org-1', false],
    );
  });

  test('only the required members: no email, name or isAdmin claims', async () => {
    const result = await t.a.ok(PATHS.authTokenGet, { userId: 'u2', userProperties: { organizationId: 'org-2', email: null } });
    assert.deepEqual(Object.keys(decodeJwt(result.data.token)).sort(), ['exp', 'iat', 'jti', 'org', 'sub', 'tid']);
  });

  test('credentials in data when both headers are absent, as the original sample calls it', async () => {
    const r = await t.request(PATHS.authTokenGet, {
      body: body({ ...data(), apiKey: t.a.creds.apiKey, authToken: t.a.creds.authToken }),
    });
    assert.equal(r.status, 200, r.body);
    const claims = decodeJwt(r.json.result.data.token);
    assert.equal(claims.tid, await tenantIdOf(t.a.creds.apiKey));
    assert.equal(claims.apiKey, undefined, 'credentials never go into the token');
    assert.equal(claims.authToken, undefined);
    assert.ok(!r.body.includes(t.a.creds.authToken));
  });

  test('with the headers there, the body members are ignored (the headers decide)', async () => {
    const r = await t.a.post(PATHS.authTokenGet, { ...data(), apiKey: t.b.creds.apiKey, authToken: 'wrong' });
    assert.equal(r.status, 200, r.body);
    assert.equal(decodeJwt(r.json.result.data.token).tid, await tenantIdOf(t.a.creds.apiKey));
  });
});

describe('auth/token/get: errors', () => {
  test('missing userId or organizationId, and bad members: 400 INVALID_ARGUMENT', async () => {
    const cases: [string, unknown][] = [
      ['no userId', { userProperties: { organizationId: 'org-1' } }],
      ['empty userId', { userId: '', userProperties: { organizationId: 'org-1' } }],
      ['no userProperties', { userId: 'u1' }],
      ['no organizationId', { userId: 'u1', userProperties: { email: 'a@b.c' } }],
      ['empty organizationId', { userId: 'u1', userProperties: { organizationId: '' } }],
      ['userId too long', { userId: 'x'.repeat(257), userProperties: { organizationId: 'o' } }],
      ['email not a string', { userId: 'u1', userProperties: { organizationId: 'o', email: 5 } }],
      ['email over 254', { userId: 'u1', userProperties: { organizationId: 'o', email: `${'a'.repeat(250)}@b.co` } }],
      ['isAdmin not boolean', { userId: 'u1', userProperties: { organizationId: 'o', isAdmin: 'yes' } }],
    ];
    for (const [what, d] of cases) {
      const r = await t.a.post(PATHS.authTokenGet, d);
      expectError(r, 400, 'INVALID_ARGUMENT', what);
      assertNoLeak(r, what);
    }
  });

  test('body credentials that pass, with a bad body: 400 after the 401 check', async () => {
    const r = await t.request(PATHS.authTokenGet, {
      body: body({ userId: 'u1', apiKey: t.a.creds.apiKey, authToken: t.a.creds.authToken }),
    });
    expectError(r, 400, 'INVALID_ARGUMENT', 'no userProperties');
  });
});

describe('auth/token/get: security', () => {
  test('missing and bad header credentials: 401 before the body is looked at', async () => {
    await expectMissingCredentials(t, PATHS.authTokenGet, body(data()));
    for (const [label, headers] of badCredentialCases(t))
      await expectBadCredentials(t, PATHS.authTokenGet, label, headers, body(data()));
  });

  test('wrong credentials in the body: 400 "Auth token not found.", as the original service answers them', async () => {
    for (const [label, headers] of badCredentialCases(t)) {
      const r = await t.request(PATHS.authTokenGet, {
        body: body({ ...data(), apiKey: headers['x-service-api-key'], authToken: headers['x-service-auth-token'] }),
      });
      assert.equal(expectError(r, 400, 'INVALID_ARGUMENT', `body ${label}`), 'Auth token not found.');
    }
  });

  test('no headers and no (or partial, or malformed) body credentials: 401, never a 400', async () => {
    const cases: [string, { body?: unknown; raw?: string; headers?: Record<string, string> }][] = [
      ['nothing in data', { body: body(data()) }],
      ['only apiKey', { body: body({ ...data(), apiKey: t.a.creds.apiKey }) }],
      ['only authToken', { body: body({ ...data(), authToken: t.a.creds.authToken }) }],
      ['credentials not strings', { body: body({ ...data(), apiKey: 1, authToken: ['x'] }) }],
      ['empty credentials', { body: body({ ...data(), apiKey: '', authToken: '' }) }],
      ['credentials outside data', { body: { data: data(), apiKey: t.a.creds.apiKey, authToken: t.a.creds.authToken } }],
      ['data not an object', { body: body('x') }],
      ['body null', { raw: 'null', headers: { 'content-type': 'application/json' } }],
      ['no body', {}],
      ['broken JSON', { raw: '{"data": {', headers: { 'content-type': 'application/json' } }],
      ['text/plain', { raw: 'hello', headers: { 'content-type': 'text/plain' } }],
      [
        'inherited member',
        { raw: '{"data":{"__proto__":{"apiKey":"k","authToken":"t"}}}', headers: { 'content-type': 'application/json' } },
      ],
    ];
    for (const [what, opts] of cases) {
      const r = await t.request(PATHS.authTokenGet, opts);
      expectError(r, 401, 'UNAUTHENTICATED', what);
      assertNoLeak(r, what);
    }
  });

  test('one header present: the body credentials are not read (the other header is missing)', async () => {
    const r = await t.request(PATHS.authTokenGet, {
      headers: { 'x-service-api-key': t.a.creds.apiKey },
      body: body({ ...data(), apiKey: t.a.creds.apiKey, authToken: t.a.creds.authToken }),
    });
    assert.ok(expectError(r, 401, 'UNAUTHENTICATED').includes('x-service-auth-token'), r.body);
  });

  test('a body over the limit with no headers: 401', async () => {
    const r = await t.request(PATHS.authTokenGet, { body: body({ ...data(), pad: 'x'.repeat(1_100_000) }) });
    expectError(r, 401, 'UNAUTHENTICATED', 'too large');
  });

  test('a disabled tenant: 403 with body credentials as with headers', async () => {
    const { createTenant } = await import('../../src/services/credentials.js');
    const creds = await createTenant(t.store, () => Date.now(), 'tenant-disabled');
    await t.store.setTenantDisabled(creds.apiKey, true);
    const r = await t.request(PATHS.authTokenGet, { body: body({ ...data(), ...creds }) });
    expectError(r, 403, 'PERMISSION_DENIED');
  });

  test('tenant isolation: a token of A verifies as A only, never as B; A and B sign with different keys', async () => {
    const ta = (await t.a.ok(PATHS.authTokenGet, data())).data.token;
    const tb = (await t.b.ok(PATHS.authTokenGet, data())).data.token;
    const [ida, idb] = [await tenantIdOf(t.a.creds.apiKey), await tenantIdOf(t.b.creds.apiKey)];
    assert.equal((await verifyEndUserToken(services, ta)).tenantId, ida);
    assert.equal((await verifyEndUserToken(services, tb)).tenantId, idb);
    assert.notEqual(decodeProtectedHeader(ta).kid, decodeProtectedHeader(tb).kid);
    // A's token with its tenant claim changed to B (header and signature kept) does not verify.
    const [h, , s] = ta.split('.') as [string, string, string];
    const p = Buffer.from(JSON.stringify({ ...decodeJwt(ta), tid: idb })).toString('base64url');
    await assert.rejects(verifyEndUserToken(services, `${h}.${p}.${s}`), { code: 'UNAUTHENTICATED' });
    // B's signature on A's payload does not verify either.
    const [, pa] = ta.split('.') as [string, string];
    const [hb, , sb] = tb.split('.') as [string, string, string];
    await assert.rejects(verifyEndUserToken(services, `${hb}.${pa}.${sb}`), { code: 'UNAUTHENTICATED' });
  });
});
