// users/add and users/update: credentials, tenant isolation, hostile ids and payloads (docs/api.md, "Wire format",
// "Credentials", "Identifiers and limits", "Users" and "What always holds").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant } from '../../src/services/credentials.js';
import { expectError, HEX32, makeTestApp, PATHS, user, type Caller, type TestApp } from '../helpers/app.js';
import { assertNoLeak, BAD_CREDENTIALS, badCredentialCases, raw } from '../helpers/security.js';

let t: TestApp;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;
const BOTH = [PATHS.usersAdd, PATHS.usersUpdate] as const;

async function tenantIdOf(caller: Caller): Promise<string> {
  const found = await t.store.findCredentials(caller.creds.apiKey);
  assert.ok(found, 'tenant of caller not found');
  return found.tenant.id;
}

async function profileOf(caller: Caller, organizationId: string, userId: string) {
  return (await t.store.findProfiles(await tenantIdOf(caller), organizationId, [userId])).get(userId) ?? null;
}

describe('users security', () => {
  before(async () => {
    t = await makeTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('missing x-service-api-key: 401 naming the header, before the body is looked at', async () => {
    for (const path of BOTH) {
      for (const body of [{ data: { organizationId: 'o', users: [user('u')] } }, '{garbage', '']) {
        const r = await raw(t, path, { 'x-service-auth-token': t.a.creds.authToken }, body);
        const message = expectError(r, 401, 'UNAUTHENTICATED', `${path} no api key, body ${JSON.stringify(body).slice(0, 30)}`);
        assert.ok(message.includes('x-service-api-key'), message);
      }
    }
  });

  test('missing x-service-auth-token: 401 naming the header, before the body is looked at', async () => {
    for (const path of BOTH) {
      for (const body of [{ data: { organizationId: 'o', users: [user('u')] } }, '{garbage']) {
        const r = await raw(t, path, { 'x-service-api-key': t.a.creds.apiKey }, body);
        const message = expectError(r, 401, 'UNAUTHENTICATED', `${path} no token`);
        assert.ok(message.includes('x-service-auth-token'), message);
      }
    }
  });

  test('both headers missing or empty: 401', async () => {
    for (const path of BOTH) {
      expectError(await raw(t, path, {}, { data: {} }), 401, 'UNAUTHENTICATED', `${path} no headers`);
      expectError(
        await raw(t, path, { 'x-service-api-key': '', 'x-service-auth-token': '' }, { data: {} }),
        401,
        'UNAUTHENTICATED',
        `${path} empty headers`,
      );
    }
  });

  test("wrong token, unknown key, or another tenant's token: 401 with one message; nothing written", async () => {
    const org = uniq('org');
    const body = { data: { organizationId: org, users: [user('intruder')] } };
    const cases = badCredentialCases(t);
    for (const path of BOTH) {
      for (const [label, headers] of cases) {
        const r = await raw(t, path, headers, body);
        const message = expectError(r, 401, 'UNAUTHENTICATED', `${path} ${label}`);
        assert.equal(message, BAD_CREDENTIALS, `${path} ${label}`);
        // Still 401 with a garbage body or a wrong content type.
        const g = await t.request(path, { headers: { ...headers, 'content-type': 'text/plain' }, raw: '<<not json' });
        assert.equal(expectError(g, 401, 'UNAUTHENTICATED', `${path} ${label} garbage`), BAD_CREDENTIALS);
      }
    }
    assert.equal(await profileOf(t.a, org, 'intruder'), null);
    assert.equal(await profileOf(t.b, org, 'intruder'), null);
  });

  test('credentials are checked before the body size: an oversized body without credentials is 401', async () => {
    const big = JSON.stringify({ data: { organizationId: 'o', users: [{ userId: 'x', name: 'y'.repeat(2_000_000) }] } });
    for (const path of BOTH) {
      expectError(
        await t.request(path, { raw: big, headers: { 'content-type': 'application/json' } }),
        401,
        'UNAUTHENTICATED',
        `${path} big, no creds`,
      );
      const wrong = await t.request(path, {
        raw: big,
        headers: { 'content-type': 'application/json', 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': 'nope' },
      });
      assert.equal(expectError(wrong, 401, 'UNAUTHENTICATED', `${path} big, wrong token`), BAD_CREDENTIALS);
      // With good credentials the size limit answers: 413 in the envelope.
      expectError(
        await t.a.post(path, null, { raw: big, headers: { 'content-type': 'application/json' } }),
        413,
        'INVALID_ARGUMENT',
        `${path} big, good creds`,
      );
    }
  });

  test('header names are case-insensitive', async () => {
    const org = uniq('org');
    const r = await raw(
      t,
      PATHS.usersAdd,
      { 'X-Service-Api-Key': t.a.creds.apiKey, 'X-SERVICE-AUTH-TOKEN': t.a.creds.authToken },
      { data: { organizationId: org, users: [user('cased')] } },
    );
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.result.data.cased.success, true, r.body);
  });

  test('revoked key and revoked token are 401 with the one message; a disabled tenant is 403', async () => {
    const clock = () => Date.now();
    const revokedKey = await createTenant(t.store, clock, 'revoked-key');
    const revokedToken = await createTenant(t.store, clock, 'revoked-token');
    const disabled = await createTenant(t.store, clock, 'disabled');
    const body = { data: { organizationId: 'o', users: [user('u')] } };
    const headersOf = (c: { apiKey: string; authToken: string }) => ({
      'x-service-api-key': c.apiKey,
      'x-service-auth-token': c.authToken,
    });
    // They work before.
    for (const c of [revokedKey, revokedToken, disabled])
      assert.equal((await raw(t, PATHS.usersAdd, headersOf(c), body)).status, 200);

    assert.ok(await t.store.revokeTenant(revokedKey.apiKey, Date.now()));
    const tid = (await t.store.findCredentials(revokedToken.apiKey))!.tenant.id;
    const [tok] = await t.store.listTokens(tid);
    assert.ok(await t.store.revokeToken(tid, tok!.hash, Date.now()));
    assert.ok(await t.store.setTenantDisabled(disabled.apiKey, true));

    for (const path of BOTH) {
      assert.equal(
        expectError(await raw(t, path, headersOf(revokedKey), body), 401, 'UNAUTHENTICATED', 'revoked key'),
        BAD_CREDENTIALS,
      );
      assert.equal(
        expectError(await raw(t, path, headersOf(revokedToken), body), 401, 'UNAUTHENTICATED', 'revoked token'),
        BAD_CREDENTIALS,
      );
      expectError(await raw(t, path, headersOf(disabled), body), 403, 'PERMISSION_DENIED', 'disabled tenant');
    }
  });

  test("tenant isolation: tenant b cannot see or change tenant a's users", async () => {
    const org = uniq('org');
    const added = await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      documentId: 'doc',
      users: [{ userId: 'alice', name: 'Alice A', email: 'alice@a.example' }],
    });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [{ annotationId: 'thread', commentData: [{ commentText: 'by alice', from: { userId: 'alice' } }] }],
    });

    // b names a's organization, document, folder and user: they do not exist for b.
    for (const scope of [{}, { documentId: 'doc' }, { folderId: 'doc' }]) {
      const r = await t.b.ok(PATHS.usersUpdate, {
        organizationId: org,
        ...scope,
        users: [{ userId: 'alice', name: 'Hacked', email: 'evil@b.example' }],
      });
      assert.equal(r.data.alice.success, false, `${JSON.stringify(scope)}: ${JSON.stringify(r)}`);
      assert.equal(r.data.alice.message, 'User does not exist.');
      assert.match(r.data.alice.id, HEX32);
      assert.notEqual(r.data.alice.id, added.data.alice.id, "b's id for the same names differs from a's");
    }
    assert.deepEqual(await profileOf(t.a, org, 'alice'), {
      userId: 'alice',
      name: 'Alice A',
      email: 'alice@a.example',
      photoUrl: null,
    });
    assert.equal(await profileOf(t.b, org, 'alice'), null, 'users/update by b created nothing');

    // b creates its own user with the same ids: independent of a's.
    const bAdded = await t.b.ok(PATHS.usersAdd, {
      organizationId: org,
      documentId: 'doc',
      users: [{ userId: 'alice', name: 'Alice B', email: 'alice@b.example' }],
    });
    assert.equal(bAdded.data.alice.success, true);
    assert.notEqual(bAdded.data.alice.id, added.data.alice.id);
    const bUpd = await t.b.ok(PATHS.usersUpdate, {
      organizationId: org,
      documentId: 'doc',
      users: [{ userId: 'alice', name: 'Alice B2' }],
    });
    assert.equal(bUpd.data.alice.success, true, JSON.stringify(bUpd));
    assert.equal(bUpd.data.alice.id, bAdded.data.alice.id);
    assert.equal((await profileOf(t.b, org, 'alice'))?.name, 'Alice B2');
    assert.deepEqual(await profileOf(t.a, org, 'alice'), {
      userId: 'alice',
      name: 'Alice A',
      email: 'alice@a.example',
      photoUrl: null,
    });

    // a's comment still shows a's profile, not b's.
    const got = await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 'thread' });
    assert.deepEqual(got.data[0].from, { email: 'alice@a.example', name: 'Alice A', userId: 'alice' }, JSON.stringify(got));
    // And a's later update does not touch b's.
    await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'alice', name: 'Alice A2' }] });
    assert.equal((await profileOf(t.b, org, 'alice'))?.name, 'Alice B2');
  });

  test('__proto__, constructor and other Object.prototype names work as ordinary userIds and organizationIds', async () => {
    const names = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
    for (const org of [uniq('org'), '__proto__', 'constructor']) {
      const r = await t.a.post(PATHS.usersAdd, { organizationId: org, users: names.map((n) => ({ userId: n, name: `N${n}` })) });
      assert.equal(r.status, 200, r.body);
      const data = r.json.result.data;
      // Own properties, each a proper entry.
      assert.deepEqual(Object.keys(data).sort(), [...names].sort(), r.body);
      for (const n of names) {
        const entry = Object.getOwnPropertyDescriptor(data, n)?.value;
        assert.equal(entry?.success, true, `${org}/${n}: ${r.body}`);
        assert.equal(entry?.message, 'User added.');
        assert.match(entry?.id, HEX32);
      }
      const u = await t.a.post(PATHS.usersUpdate, {
        organizationId: org,
        users: [{ userId: '__proto__', email: 'p@x.io' }, { userId: 'constructor' }, { userId: '__missing__' }],
      });
      assert.equal(u.status, 200, u.body);
      const ud = u.json.result.data;
      assert.equal(Object.getOwnPropertyDescriptor(ud, '__proto__')?.value?.success, true, u.body);
      assert.equal(Object.getOwnPropertyDescriptor(ud, 'constructor')?.value?.success, true, u.body);
      assert.equal(Object.getOwnPropertyDescriptor(ud, '__missing__')?.value?.success, false, u.body);
      assert.deepEqual(await profileOf(t.a, org, '__proto__'), {
        userId: '__proto__',
        name: 'N__proto__',
        email: 'p@x.io',
        photoUrl: null,
      });
    }
    // Duplicates among such names are still caught.
    const dup = await t.a.post(PATHS.usersAdd, {
      organizationId: uniq('org'),
      users: [{ userId: '__proto__' }, { userId: '__proto__' }],
    });
    expectError(dup, 400, 'INVALID_ARGUMENT', 'duplicate __proto__');
    assert.equal(({} as Record<string, unknown>).success, undefined, 'Object.prototype not polluted');
  });

  test('__proto__ and constructor keys in the JSON body are harmless', async () => {
    const org = uniq('org');
    const payload =
      `{"__proto__":{"polluted":1},"data":{"__proto__":{"users":[{"userId":"viaProto"}],"polluted":2},` +
      `"constructor":{"prototype":{"polluted":3}},"organizationId":"${org}",` +
      `"users":[{"userId":"real","__proto__":{"name":"fromProto","isAdmin":true},"constructor":{"prototype":{"x":1}}}]}}`;
    for (const path of [PATHS.usersAdd, PATHS.usersUpdate]) {
      const r = await t.a.post(path, null, { raw: payload, headers: { 'content-type': 'application/json' } });
      assert.ok(r.status === 200 || r.status === 400, `${path}: ${r.status} ${r.body}`);
      if (r.status === 200) assert.deepEqual(Object.keys(r.json.result.data), ['real'], r.body);
      else expectError(r, 400, 'INVALID_ARGUMENT');
    }
    const p = await profileOf(t.a, org, 'real');
    if (p) assert.equal(p.name, null, `a __proto__ key must not supply a name: ${JSON.stringify(p)}`);
    assert.equal(await profileOf(t.a, org, 'viaProto'), null);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype not polluted');
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined, 'Object.prototype not polluted');
    // The app still serves ordinary requests.
    const ok = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('after')] });
    assert.equal(ok.data.after.success, true);
  });

  test('SQL-looking ids are plain strings: they match only themselves', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('victim', { name: 'Victim' })] });
    const hostile = ["' OR '1'='1", "victim' --", '"; DROP TABLE users; --', '%', '_', 'victim%', '*', "') OR 1=1 --"];
    const r = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: hostile.map((userId) => ({ userId, name: 'Pwned' })),
    });
    for (const h of hostile) assert.equal(r.data[h]?.success, false, `${h}: ${JSON.stringify(r)}`);
    assert.equal((await profileOf(t.a, org, 'victim'))?.name, 'Victim');
    const orgHostile = await t.a.ok(PATHS.usersUpdate, {
      organizationId: `${org}' OR '1'='1`,
      users: [{ userId: 'victim', name: 'Pwned' }],
    });
    assert.equal(orgHostile.data.victim.success, false);
    // Stored and found literally.
    const add = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: hostile.map((userId) => ({ userId })) });
    assert.equal(Object.keys(add.data).length, hostile.length);
    const again = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: hostile.map((userId) => ({ userId, name: 'ok' })),
    });
    for (const h of hostile) assert.equal(again.data[h]?.success, true, h);
    assert.equal((await profileOf(t.a, org, 'victim'))?.name, 'Victim');
  });

  test('HTML in names is data: returned as JSON strings with a JSON content type', async () => {
    const org = uniq('org');
    const name = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const r = await t.a.post(PATHS.usersAdd, { organizationId: org, users: [{ userId: '<b>u</b>', name }] });
    assert.equal(r.status, 200, r.body);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(r.json.result.data['<b>u</b>'].success, true);
    assert.equal((await profileOf(t.a, org, '<b>u</b>'))?.name, name);
    // Any string is an email (docs/decisions.md): markup in one is kept, and shown only as a JSON string.
    const email = '<script>alert(1)</script>';
    const odd = await t.a.post(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'x', email }] });
    assert.equal(odd.status, 200, odd.body);
    assert.equal((await profileOf(t.a, org, 'x'))?.email, email);
  });

  test('error messages never carry stack traces, paths or SQL; odd input never gives 500', async () => {
    let deep = '0';
    for (let i = 0; i < 20000; i++) deep = `[${deep}]`;
    const cases: [string, string][] = [
      ['not json', '{"data":'],
      ['wrong type deep', JSON.stringify({ data: { organizationId: 'o', users: [{ userId: 'u', name: { $gt: '' } }] } })],
      ['huge number', '{"data":{"organizationId":1e999,"users":[{"userId":"u"}]}}'],
      ['control chars', JSON.stringify({ data: { organizationId: '\u0000\u0001', users: [{ userId: '\u0000' }] } })],
      ['lone surrogate', '{"data":{"organizationId":"\\ud800","users":[{"userId":"\\udfff"}]}}'],
      ['deeply nested unknown member', `{"data":{"organizationId":"o","x":${deep},"users":[{"userId":"deep"}]}}`],
      ['deeply nested known member', `{"data":{"organizationId":${deep},"users":[{"userId":"deep"}]}}`],
      ['duplicate keys', '{"data":{"organizationId":"o","organizationId":5,"users":[{"userId":"u"}]}}'],
      [
        'sql in id',
        JSON.stringify({
          data: { organizationId: "o'; SELECT * FROM tenants; --", users: [{ userId: "u' OR 1=1" }, { userId: "u' OR 1=1" }] },
        }),
      ],
      ['BOM', '\ufeff{"data":{"organizationId":"o","users":[{"userId":"u"}]}}'],
    ];
    for (const path of BOTH) {
      for (const [label, payload] of cases) {
        const r = await t.a.post(path, null, { raw: payload, headers: { 'content-type': 'application/json' } });
        assert.ok(r.status === 200 || r.status === 400, `${path} ${label}: ${r.status} ${r.body.slice(0, 300)}`);
        if (r.status === 400) expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${label}`);
        assertNoLeak(r, `${path} ${label}`);
      }
    }
    // Unknown path and 401s leak nothing either.
    assertNoLeak(await t.a.post('/v1/users/remove', { organizationId: 'o' }), 'unknown path');
    expectError(await t.a.post('/v1/users/remove', { organizationId: 'o' }), 404, 'NOT_FOUND');
    assertNoLeak(
      await raw(t, PATHS.usersAdd, { 'x-service-api-key': "'", 'x-service-auth-token': "'" }, {}),
      'quote credentials',
    );
  });
});
