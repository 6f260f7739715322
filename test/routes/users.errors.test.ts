// users/add and users/update: every rejection of docs/api.md "Wire format", "Identifiers and limits" and "Users", and
// that a rejected request wrote nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, user, type Caller, type TestApp } from '../helpers/app.js';

let t: TestApp;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;
const BOTH = [PATHS.usersAdd, PATHS.usersUpdate] as const;

async function tenantIdOf(caller: Caller): Promise<string> {
  const found = await t.store.findCredentials(caller.creds.apiKey);
  assert.ok(found, 'tenant of caller not found');
  return found.tenant.id;
}

async function profilesOf(caller: Caller, organizationId: string, userIds: string[]) {
  return t.store.findProfiles(await tenantIdOf(caller), organizationId, userIds);
}

/** Expects 400 INVALID_ARGUMENT whose message names `member`. */
function expectInvalid(r: Awaited<ReturnType<Caller['post']>>, member: string, what: string): string {
  const message = expectError(r, 400, 'INVALID_ARGUMENT', what);
  assert.ok(message.includes(member), `${what}: message should name ${member}: ${message}`);
  return message;
}

describe('users errors', () => {
  before(async () => {
    t = await makeTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('organizationId missing, null, empty, too long or not a string', async () => {
    const long = '😀'.repeat(257);
    for (const path of BOTH) {
      for (const [label, data] of [
        ['missing', { users: [user('u')] }],
        ['null', { organizationId: null, users: [user('u')] }],
        ['empty', { organizationId: '', users: [user('u')] }],
        ['257 code points', { organizationId: long, users: [user('u')] }],
        ['number', { organizationId: 42, users: [user('u')] }],
        ['array', { organizationId: ['o'], users: [user('u')] }],
        ['object', { organizationId: { id: 'o' }, users: [user('u')] }],
      ] as const) {
        expectInvalid(await t.a.post(path, data), 'organizationId', `${path} organizationId ${label}`);
      }
    }
  });

  test('users missing, null, not an array, empty, or over 1000 entries', async () => {
    const org = uniq('org');
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ userId: `many-${i}` }));
    for (const path of BOTH) {
      for (const [label, data] of [
        ['missing', { organizationId: org }],
        ['null', { organizationId: org, users: null }],
        ['object', { organizationId: org, users: { userId: 'u' } }],
        ['string', { organizationId: org, users: 'u' }],
        ['empty', { organizationId: org, users: [] }],
        ['1001 entries', { organizationId: org, users: tooMany }],
      ] as const) {
        expectInvalid(await t.a.post(path, data), 'users', `${path} users ${label}`);
      }
    }
    assert.equal((await profilesOf(t.a, org, ['many-0', 'many-1000'])).size, 0, '1001 users: nothing written');
  });

  test('a user entry that is not an object names its index', async () => {
    for (const path of BOTH) {
      for (const bad of [null, 'u', 5, ['u']]) {
        expectInvalid(
          await t.a.post(path, { organizationId: 'o', users: [user('ok'), bad] }),
          'data.users[1]',
          `${path} users[1]=${JSON.stringify(bad)}`,
        );
      }
    }
  });

  test('userId missing, null, empty, too long or not a string names data.users[i].userId', async () => {
    for (const path of BOTH) {
      for (const [label, entry] of [
        ['missing', { name: 'n' }],
        ['null', { userId: null }],
        ['empty', { userId: '' }],
        ['257 astral code points', { userId: '😀'.repeat(257) }],
        ['257 ascii', { userId: 'u'.repeat(257) }],
        ['number', { userId: 7 }],
        ['boolean', { userId: true }],
      ] as const) {
        const r = await t.a.post(path, { organizationId: 'o', users: [user('a'), user('b'), entry] });
        expectInvalid(r, 'data.users[2]', `${path} userId ${label}`);
        assert.ok(r.json.error.message.includes('userId'), `${path} userId ${label}: ${r.body}`);
      }
    }
  });

  test('name over 256 code points or not a string names data.users[i].name', async () => {
    for (const path of BOTH) {
      for (const [label, name] of [
        ['257 ascii', 'n'.repeat(257)],
        ['257 astral', '😀'.repeat(257)],
        ['number', 12],
        ['object', { first: 'x' }],
      ] as const) {
        expectInvalid(
          await t.a.post(path, { organizationId: 'o', users: [user('a'), { userId: 'b', name }] }),
          'data.users[1].name',
          `${path} name ${label}`,
        );
      }
    }
  });

  test('email over 254 characters, or not a string, names data.users[i].email', async () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(186)}.com`;
    assert.equal(long.length, 255);
    for (const path of BOTH) {
      for (const email of [long, 5, false, ['a@b']]) {
        expectInvalid(
          await t.a.post(path, { organizationId: 'o', users: [user('a'), user('b'), { userId: 'c', email }] }),
          'data.users[2].email',
          `${path} email ${JSON.stringify(email)}`,
        );
      }
    }
  });

  test('photoUrl over 2048 characters or not a string names data.users[i].photoUrl', async () => {
    for (const path of BOTH) {
      for (const photoUrl of [`https://x/${'p'.repeat(2039)}`, 1, ['u']]) {
        if (typeof photoUrl === 'string') assert.equal(photoUrl.length, 2049);
        expectInvalid(
          await t.a.post(path, { organizationId: 'o', users: [{ userId: 'a', photoUrl }] }),
          'data.users[0].photoUrl',
          `${path} photoUrl`,
        );
      }
    }
  });

  test('documentId / folderId empty, too long or not a string', async () => {
    for (const path of BOTH) {
      for (const member of ['documentId', 'folderId']) {
        for (const value of ['', 'x'.repeat(257), '😀'.repeat(257), 3, { id: 'x' }]) {
          expectInvalid(
            await t.a.post(path, { organizationId: 'o', [member]: value, users: [user('u')] }),
            `data.${member}`,
            `${path} ${member}=${JSON.stringify(value).slice(0, 20)}`,
          );
        }
      }
    }
  });

  test('documentId and folderId together are INVALID_ARGUMENT and nothing is written', async () => {
    const org = uniq('org');
    const add = await t.a.post(PATHS.usersAdd, { organizationId: org, documentId: 'd', folderId: 'f', users: [user('both')] });
    const message = expectError(add, 400, 'INVALID_ARGUMENT', 'users/add documentId+folderId');
    assert.ok(message.includes('documentId') && message.includes('folderId'), message);
    assert.equal((await profilesOf(t.a, org, ['both'])).size, 0, 'users/add rejected: no profile written');

    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd', users: [user('both', { name: 'Kept' })] });
    const upd = await t.a.post(PATHS.usersUpdate, {
      organizationId: org,
      documentId: 'd',
      folderId: 'f',
      users: [user('both', { name: 'Changed' })],
    });
    expectError(upd, 400, 'INVALID_ARGUMENT', 'users/update documentId+folderId');
    assert.equal((await profilesOf(t.a, org, ['both'])).get('both')?.name, 'Kept', 'users/update rejected: nothing changed');
  });

  test('duplicate userIds in users/add are INVALID_ARGUMENT naming the entry; nothing is written', async () => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.usersAdd, {
      organizationId: org,
      users: [user('d1'), user('d2'), user('d1', { name: 'Again' })],
    });
    expectInvalid(r, 'data.users[2].userId', 'users/add duplicate');
    assert.equal((await profilesOf(t.a, org, ['d1', 'd2'])).size, 0, 'no user of the rejected request was written');
  });

  test('duplicate userIds in users/update are INVALID_ARGUMENT; nothing is changed', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('e1', { name: 'E1' }), user('e2', { name: 'E2' })] });
    const r = await t.a.post(PATHS.usersUpdate, {
      organizationId: org,
      users: [user('e1', { name: 'X1' }), user('e2', { name: 'X2' }), user('e2', { name: 'Y2' })],
    });
    expectInvalid(r, 'data.users[2].userId', 'users/update duplicate');
    const p = await profilesOf(t.a, org, ['e1', 'e2']);
    assert.equal(p.get('e1')?.name, 'E1', 'e1 unchanged');
    assert.equal(p.get('e2')?.name, 'E2', 'e2 unchanged');
  });

  test('one invalid entry rejects the whole batch: nothing written', async () => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.usersAdd, {
      organizationId: org,
      users: [user('v1'), user('v2'), user('v3', { email: 7 })],
    });
    expectInvalid(r, 'data.users[2].email', 'users/add invalid third entry');
    assert.equal((await profilesOf(t.a, org, ['v1', 'v2', 'v3'])).size, 0);

    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('w1', { name: 'W1' })] });
    const u = await t.a.post(PATHS.usersUpdate, {
      organizationId: org,
      users: [user('w1', { name: 'Changed' }), { userId: 'w2', name: 'n'.repeat(300) }],
    });
    expectInvalid(u, 'data.users[1].name', 'users/update invalid second entry');
    assert.equal((await profilesOf(t.a, org, ['w1'])).get('w1')?.name, 'W1');
  });

  test('null for a required member is an error, not "absent"', async () => {
    for (const path of BOTH) {
      expectInvalid(
        await t.a.post(path, { organizationId: 'o', users: [{ userId: null, name: 'x' }] }),
        'data.users[0].userId',
        `${path} userId null`,
      );
      expectInvalid(
        await t.a.post(path, { organizationId: null, users: [user('u')] }),
        'data.organizationId',
        `${path} organizationId null`,
      );
      expectInvalid(await t.a.post(path, { organizationId: 'o', users: null }), 'data.users', `${path} users null`);
    }
  });

  test('body shape: data missing, null or not an object; body not an object', async () => {
    for (const path of BOTH) {
      expectInvalid(await t.a.post(path, undefined), 'data', `${path} data missing`);
      expectInvalid(await t.a.post(path, null), 'data', `${path} data null`);
      expectInvalid(await t.a.post(path, [user('u')]), 'data', `${path} data array`);
      expectInvalid(await t.a.post(path, 'users'), 'data', `${path} data string`);
      for (const raw of ['[1]', '"x"', 'null', '42']) {
        expectError(
          await t.a.post(path, null, { raw, headers: { 'content-type': 'application/json' } }),
          400,
          'INVALID_ARGUMENT',
          `${path} body ${raw}`,
        );
      }
    }
  });

  test('a body that is not JSON, or empty, is INVALID_ARGUMENT', async () => {
    for (const path of BOTH) {
      for (const raw of ['{', '{"data": {', 'data=1', "{'data':{}}", '']) {
        const r = await t.a.post(path, null, { raw, headers: { 'content-type': 'application/json' } });
        expectError(r, 400, 'INVALID_ARGUMENT', `${path} raw ${JSON.stringify(raw)}`);
      }
    }
  });

  test('a Content-Type other than application/json is INVALID_ARGUMENT and writes nothing', async () => {
    const org = uniq('org');
    const raw = JSON.stringify({ data: { organizationId: org, users: [user('ct')] } });
    for (const path of BOTH) {
      for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'text/json', 'application/jsonx', undefined]) {
        const r = await t.a.post(path, null, { raw, headers: { 'content-type': ct } });
        const message = expectError(r, 400, 'INVALID_ARGUMENT', `${path} content-type ${ct}`);
        assert.match(message, /content-type/i);
      }
    }
    assert.equal((await profilesOf(t.a, org, ['ct'])).size, 0);
  });

  test('a method other than POST is 405 with Allow: POST', async () => {
    for (const path of BOTH) {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
        const r = await t.request(path, {
          method,
          headers: { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': t.a.creds.authToken },
        });
        expectError(r, 405, 'INVALID_ARGUMENT', `${method} ${path}`);
        assert.equal(r.headers.allow, 'POST', `${method} ${path}: ${JSON.stringify(r.headers)}`);
      }
    }
  });

  test('error envelope: only error{message,status}, JSON content type', async () => {
    const r = await t.a.post(PATHS.usersAdd, { organizationId: 'o', users: [user('a'), user('b'), user('c', { email: 1 })] });
    expectError(r, 400, 'INVALID_ARGUMENT');
    assert.deepEqual(Object.keys(r.json), ['error'], r.body);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(r.json.error.message.includes('data.users[2].email'), true, r.body);
  });
});
