// users/get and users/delete (docs/api.md, "POST /v1/users/get"), on the configured database. Happy: members of the
// organization, of a document, a folder and groups; paging; removal from a scope or the organization.
// Errors: the request rules, INVALID_ARGUMENT; a disabled organization refuses users/delete. Security:
// credentials first; tenant b reads and removes nothing of a's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type TestApp, user } from '../helpers/app.js';
import { assertNoLeak, badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const ids = async (data: Record<string, unknown>, who = t.a) =>
  ((await who.ok(PATHS.usersGet, data)).data as { userId: string }[]).map((u) => u.userId);

describe('users/get and users/delete: happy paths', () => {
  test('members of the organization, of a document, a folder and a group; unknown ids left out', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [user('u1', { photoUrl: 'https://img.example/u1.png' }), user('u2')],
    });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'doc', users: [user('u3')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, folderId: 'f', users: [user('u4')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'bare' }] });
    const got = await t.a.ok(PATHS.usersGet, { organizationId: org });
    assert.equal(got.message, 'User(s) retrieved successfully.');
    assert.deepEqual(
      got.data.map((u: { userId: string }) => u.userId),
      ['bare', 'u1', 'u2', 'u3', 'u4'],
    );
    assert.deepEqual(got.data[1], {
      userId: 'u1',
      name: 'Name u1',
      email: 'u1@example.com',
      photoUrl: 'https://img.example/u1.png',
    });
    assert.deepEqual(got.data[0], { userId: 'bare', name: '', email: '', photoUrl: '' }, 'never set reads as ""');
    assert.deepEqual(await ids({ organizationId: org, documentId: 'doc' }), ['u3']);
    assert.deepEqual(await ids({ organizationId: org, folderId: 'f' }), ['u4']);
    assert.deepEqual(await ids({ organizationId: org, userIds: ['u2', 'ghost', 'u1'] }), ['u1', 'u2']);
    assert.deepEqual(
      await ids({ organizationId: org, userIds: [] }),
      ['bare', 'u1', 'u2', 'u3', 'u4'],
      'an empty filter is none',
    );
    assert.deepEqual(await ids({ organizationId: uniq('nothing') }), [], 'an unknown organization reads as empty');
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    await t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: ['u2', 'u4'] });
    assert.deepEqual(await ids({ organizationId: org, organizationUserGroupIds: ['g', 'nope'] }), ['u2', 'u4']);
    assert.deepEqual(
      await ids({ organizationId: org, folderId: 'f', organizationUserGroupIds: ['g'] }),
      ['u4'],
      'filters combine',
    );
  });

  test('pages in userId order; a token is good only for its filters', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: ['e', 'a', 'd', 'c', 'b'].map((u) => user(u)) });
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await t.a.ok(PATHS.usersGet, { organizationId: org, pageSize: 2, ...(token ? { pageToken: token } : {}) });
      seen.push(...page.data.map((u: { userId: string }) => u.userId));
      token = page.pageToken;
    } while (token);
    assert.deepEqual(seen, ['a', 'b', 'c', 'd', 'e']);
    const first = await t.a.ok(PATHS.usersGet, { organizationId: org, pageSize: 2 });
    const other = await t.a.post(PATHS.usersGet, { organizationId: org, userIds: ['a'], pageToken: first.pageToken });
    expectError(other, 400, 'INVALID_ARGUMENT', 'token of other filters');
  });

  test('delete: the profile, memberships and group entries go; with a document only that membership', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1'), user('u2')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'doc', users: [user('u2'), user('u3')] });
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    await t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: ['u2'] });
    const del = await t.a.ok(PATHS.usersDelete, { organizationId: org, userIds: ['u2', 'ghost'] });
    assert.equal(del.message, 'User(s) deleted successfully.');
    assert.deepEqual(del.data, {
      u2: { success: true, message: 'User removed.' },
      ghost: { success: false, message: 'User does not exist.' },
    });
    assert.deepEqual(await ids({ organizationId: org }), ['u1', 'u3']);
    assert.deepEqual(await ids({ organizationId: org, documentId: 'doc' }), ['u3']);
    const groupRows = await t.db.query(`SELECT user_id FROM group_members WHERE organization_id = '${org}'`);
    assert.deepEqual(groupRows, [], 'the group entry went');
    const upd = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'u2', name: 'x' }] });
    assert.equal(upd.data.u2.success, false, 'the profile is gone');
    const fromDoc = await t.a.ok(PATHS.usersDelete, { organizationId: org, documentId: 'doc', userIds: ['u3', 'u1'] });
    assert.deepEqual(fromDoc.data, {
      u3: { success: true, message: 'User removed.' },
      u1: { success: false, message: 'User does not exist.' },
    });
    assert.deepEqual(await ids({ organizationId: org, documentId: 'doc' }), []);
    assert.deepEqual(await ids({ organizationId: org }), ['u1', 'u3'], 'only the document membership went');
  });

  test('a deleted profile no longer shows in what others read: its comments show what the writer sent', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('w', { name: 'Profile Name' })] });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [{ annotationId: 't', commentData: [{ commentHtml: 'hi', from: { userId: 'w', name: 'Sent Name' } }] }],
    });
    const read = async () =>
      (await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 't' })).data[0].from.name;
    assert.equal(await read(), 'Profile Name');
    await t.a.ok(PATHS.usersDelete, { organizationId: org, userIds: ['w'] });
    assert.equal(await read(), 'Sent Name');
  });
});

describe('users/get and users/delete: errors', () => {
  test('request rules: INVALID_ARGUMENT, nothing removed', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd', folderId: undefined, users: [user('u1')] });
    const cases: [string, unknown][] = [
      [PATHS.usersGet, {}],
      [PATHS.usersGet, { organizationId: org, documentId: 'd', folderId: 'f' }],
      [PATHS.usersGet, { organizationId: org, userIds: 'u1' }],
      [PATHS.usersGet, { organizationId: org, pageSize: 0 }],
      [PATHS.usersGet, { organizationId: org, pageToken: 'not a token' }],
      [PATHS.usersDelete, { organizationId: org }],
      [PATHS.usersDelete, { organizationId: org, userIds: [] }],
      [PATHS.usersDelete, { organizationId: org, documentId: 'd', folderId: 'f', userIds: ['u1'] }],
      [PATHS.usersDelete, { organizationId: '', userIds: ['u1'] }],
    ];
    for (const [path, data] of cases) {
      const r = await t.a.post(path, data);
      expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${JSON.stringify(data)}`);
      assertNoLeak(r, path);
    }
    assert.deepEqual(await ids({ organizationId: org }), ['u1']);
  });

  test('a disabled organization or document refuses users/delete; users/get still reads', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd', users: [user('u1')] });
    await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['d'], disabled: true });
    const doc = await t.a.post(PATHS.usersDelete, { organizationId: org, documentId: 'd', userIds: ['u1'] });
    assert.equal(expectError(doc, 403, 'PERMISSION_DENIED'), 'Document d is disabled.');
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    const r = await t.a.post(PATHS.usersDelete, { organizationId: org, userIds: ['u1'] });
    assert.equal(expectError(r, 403, 'PERMISSION_DENIED'), `Organization ${org} is disabled.`);
    assert.deepEqual(await ids({ organizationId: org }), ['u1']);
    assert.deepEqual(await ids({ organizationId: org, documentId: 'd' }), ['u1']);
  });
});

describe('users/get and users/delete: security', () => {
  test('credentials are checked first', async () => {
    for (const path of [PATHS.usersGet, PATHS.usersDelete]) {
      await expectMissingCredentials(t, path, { data: { organizationId: 'o', userIds: ['u'] } });
      for (const [label, headers] of badCredentialCases(t)) {
        await expectBadCredentials(t, path, label, headers, { data: { organizationId: 'o', userIds: ['u'] } });
      }
    }
  });

  test("tenant b reads and removes nothing of a's, whatever ids it names", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd', users: [user('u1')] });
    assert.deepEqual(await ids({ organizationId: org }, t.b), []);
    assert.deepEqual(await ids({ organizationId: org, documentId: 'd', userIds: ['u1'] }, t.b), []);
    const del = await t.b.ok(PATHS.usersDelete, { organizationId: org, userIds: ['u1'] });
    assert.deepEqual(del.data, { u1: { success: false, message: 'User does not exist.' } });
    const fromDoc = await t.b.ok(PATHS.usersDelete, { organizationId: org, documentId: 'd', userIds: ['u1'] });
    assert.deepEqual(fromDoc.data, { u1: { success: false, message: 'User does not exist.' } });
    assert.deepEqual(await ids({ organizationId: org, documentId: 'd' }), ['u1']);
  });
});
