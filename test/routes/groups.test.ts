// Organization user groups (docs/api.md, "POST /v1/organizations/usergroups/add"): usergroups/add,
// usergroups/users/add and usergroups/users/delete, and the extension read usergroups/get (docs/api.md,
// "POST /v1/organizations/usergroups/get"), on the configured database. Happy: a group made and renamed,
// users in and out, deleteAll. Errors: the request rules; an unknown group is NOT_FOUND (docs/api.md,
// "What does not exist"); a disabled organization refuses every group write. Security: credentials first; tenant b
// cannot see or change a's groups.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, HEX32, makeTestApp, PATHS, type TestApp, user, v2 } from '../helpers/app.js';
import { assertNoLeak, badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const inGroup = async (org: string, groupId: string, who = t.a) =>
  ((await who.ok(PATHS.usersGet, { organizationId: org, organizationUserGroupIds: [groupId] })).data as { userId: string }[]).map(
    (u) => u.userId,
  );
const groupRow = async (org: string, groupId: string) =>
  (await t.db.query(`SELECT name FROM user_groups WHERE organization_id = '${org}' AND group_id = '${groupId}'`))[0];

describe('user groups: happy paths', () => {
  test('add makes a group (and its organization) with a stable internal id; add again renames it, or keeps its name', async () => {
    const org = uniq('org');
    const add = await t.a.ok(PATHS.userGroupsAdd, {
      organizationId: org,
      organizationUserGroups: [{ groupId: 'g1', groupName: 'Editors' }, { groupId: 'g2' }],
    });
    assert.equal(add.message, 'Organization User Groups added successfully.');
    for (const g of ['g1', 'g2']) {
      assert.equal(add.data[g].success, true);
      assert.equal(add.data[g].message, 'Organization user group added.');
      assert.match(add.data[g].id, HEX32);
    }
    assert.notEqual(add.data.g1.id, add.data.g2.id);
    assert.deepEqual(await groupRow(org, 'g1'), { name: 'Editors' });
    const again = await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g1' }] });
    assert.equal(again.data.g1.id, add.data.g1.id);
    assert.deepEqual(await groupRow(org, 'g1'), { name: 'Editors' }, 'no name keeps the name');
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g1', groupName: 'Writers' }] });
    assert.deepEqual(await groupRow(org, 'g1'), { name: 'Writers' });
    const [o] = (await t.a.ok(PATHS.organizationsGet, { organizationIds: [org] })).data;
    assert.equal(o?.id, org, 'the organization came into being');
  });

  test('users in and out; leaving keeps the profile; twice is once; deleteAll empties the group', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1'), user('u2'), user('u3')] });
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g1' }] });
    const join = await t.a.ok(PATHS.groupUsersAdd, {
      organizationId: org,
      organizationUserGroupId: 'g1',
      userIds: ['u1', 'u2', 'u1'],
    });
    assert.equal(join.message, 'Added organization users to group successfully.');
    assert.deepEqual(join.data, {
      u1: { success: true, organizationUserGroupId: 'g1', message: 'User added to organization user group.' },
      u2: { success: true, organizationUserGroupId: 'g1', message: 'User added to organization user group.' },
    });
    await t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g1', userIds: ['u2', 'u3'] });
    assert.deepEqual(await inGroup(org, 'g1'), ['u1', 'u2', 'u3']);
    const leave = await t.a.ok(PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g1', userIds: ['u1'] });
    assert.equal(leave.message, 'Deleted users from group successfully.');
    assert.deepEqual(leave.data, {
      u1: { success: true, organizationUserGroupId: 'g1', message: 'User deleted from organization user group.' },
    });
    assert.deepEqual(await inGroup(org, 'g1'), ['u2', 'u3']);
    const all = await t.a.ok(PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g1', deleteAll: true });
    assert.deepEqual(Object.keys(all.data), ['u2', 'u3'], 'each user removed is answered');
    assert.deepEqual(await inGroup(org, 'g1'), []);
    const users = (await t.a.ok(PATHS.usersGet, { organizationId: org })).data.map((u: { userId: string }) => u.userId);
    assert.deepEqual(users, ['u1', 'u2', 'u3'], 'leaving a group keeps the profile');
  });

  test('a user without a profile can join; users/get shows them once the profile exists', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    await t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: ['later'] });
    assert.deepEqual(await inGroup(org, 'g'), []);
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('later')] });
    assert.deepEqual(await inGroup(org, 'g'), ['later']);
  });
});

describe('user groups: errors', () => {
  test('an unknown group is NOT_FOUND for users/add and users/delete, and nothing is written', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1')] });
    for (const path of [PATHS.groupUsersAdd, PATHS.groupUsersDelete]) {
      const r = await t.a.post(path, { organizationId: org, organizationUserGroupId: 'nope', userIds: ['u1'] });
      assert.match(expectError(r, 404, 'NOT_FOUND', path), /nope/);
    }
    assert.deepEqual(await t.db.query(`SELECT * FROM group_members WHERE organization_id = '${org}'`), []);
  });

  test('request rules: INVALID_ARGUMENT', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    const cases: [string, unknown][] = [
      [PATHS.userGroupsAdd, { organizationId: org }],
      [PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [] }],
      [PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'x' }, { groupId: 'x' }] }],
      [PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupName: 'no id' }] }],
      [PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g' }],
      [PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: [] }],
      [PATHS.groupUsersAdd, { organizationId: org, userIds: ['u'] }],
      [PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g' }],
      [PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g', userIds: [], deleteAll: false }],
      [PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g', deleteAll: 'yes' }],
    ];
    for (const [path, data] of cases) {
      const r = await t.a.post(path, data);
      expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${JSON.stringify(data)}`);
      assertNoLeak(r, path);
    }
    assert.equal((await t.db.query(`SELECT * FROM user_groups WHERE organization_id = '${org}'`)).length, 1);
  });

  test('a disabled organization refuses every group write', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    await t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: ['u1'] });
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    const writes: [string, unknown][] = [
      [PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g2' }] }],
      [PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: ['u2'] }],
      [PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g', deleteAll: true }],
    ];
    for (const [path, data] of writes) {
      assert.equal(expectError(await t.a.post(path, data), 403, 'PERMISSION_DENIED', path), `Organization ${org} is disabled.`);
    }
    const rows = await t.db.query(`SELECT group_id, user_id FROM group_members WHERE organization_id = '${org}'`);
    assert.deepEqual(rows, [{ group_id: 'g', user_id: 'u1' }]);
    assert.equal((await t.db.query(`SELECT * FROM user_groups WHERE organization_id = '${org}'`)).length, 1);
  });
});

describe('user groups: security', () => {
  test('credentials are checked first', async () => {
    const body = {
      data: { organizationId: 'o', organizationUserGroupId: 'g', organizationUserGroups: [{ groupId: 'g' }], userIds: ['u'] },
    };
    for (const path of [PATHS.userGroupsAdd, PATHS.groupUsersAdd, PATHS.groupUsersDelete]) {
      await expectMissingCredentials(t, path, body);
      for (const [label, headers] of badCredentialCases(t)) await expectBadCredentials(t, path, label, headers, body);
    }
  });

  test("tenant b cannot see, fill or empty a's groups", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1')] });
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    await t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: ['u1'] });
    assert.deepEqual(await inGroup(org, 'g', t.b), []);
    expectError(
      await t.b.post(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: ['x'] }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.b.post(PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g', deleteAll: true }),
      404,
      'NOT_FOUND',
    );
    // b's own group of the same ids is another group.
    await t.b.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g', groupName: 'B' }] });
    const mine = await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    const theirs = await t.b.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    assert.notEqual(mine.data.g.id, theirs.data.g.id);
    assert.deepEqual(await inGroup(org, 'g'), ['u1']);
  });
});

describe('user groups: the read (an extension)', () => {
  const listed = (org: string, extra: Record<string, unknown> = {}, path = PATHS.userGroupsGet, who = t.a) =>
    who.ok(path, { organizationId: org, ...extra });

  test('groups in groupId order, names as stored ("" when never named), paged over several pages', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.userGroupsAdd, {
      organizationId: org,
      organizationUserGroups: [{ groupId: 'g3', groupName: 'Third' }, { groupId: 'g1', groupName: 'First' }, { groupId: 'g2' }],
    });
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'G0' }] });
    const all = await listed(org);
    assert.equal(all.message, 'Organization user groups retrieved successfully.');
    const expected = [
      { groupId: 'G0', groupName: '' },
      { groupId: 'g1', groupName: 'First' },
      { groupId: 'g2', groupName: '' },
      { groupId: 'g3', groupName: 'Third' },
    ];
    assert.deepEqual(all.data, expected, 'code unit order: upper case first');
    assert.equal(all.pageToken, undefined);
    for (const path of [PATHS.userGroupsGet, v2(PATHS.userGroupsGet)]) {
      const seen: unknown[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const page = await listed(org, { pageSize: 3 - (pages === 0 ? 1 : 0), ...(pageToken ? { pageToken } : {}) }, path);
        seen.push(...page.data);
        pageToken = page.pageToken;
        assert.equal(page.nextPageToken, undefined, `${path}: the token is pageToken on both versions`);
        pages++;
      } while (pageToken);
      assert.deepEqual(seen, expected, path);
      assert.equal(pages, 2, `${path}: 2 then 3 of 4`);
    }
    const exact = await listed(org, { pageSize: 4 });
    assert.equal(exact.pageToken, undefined, 'no token when the page holds the last one');
  });

  test('an empty organization and an unknown one answer [], as users/get does', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1')] });
    assert.deepEqual((await listed(org)).data, []);
    assert.deepEqual((await listed(uniq('nowhere'))).data, []);
    assert.deepEqual((await t.a.ok(PATHS.usersGet, { organizationId: uniq('nowhere') })).data, []);
  });

  test("a group's members: users/get by that group, as the import reads them", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1'), user('u2')] });
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g', groupName: 'G' }] });
    await t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: ['u2'] });
    const [g] = (await listed(org)).data as { groupId: string }[];
    assert.deepEqual(await inGroup(org, g!.groupId), ['u2']);
  });

  test('errors: a malformed token, a token of another organization, a missing organizationId, a bad pageSize', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'a' }, { groupId: 'b' }] });
    const token = (await listed(org, { pageSize: 1 })).pageToken as string;
    assert.ok(token);
    const other = uniq('org');
    const orgToken = (await t.a.ok(PATHS.organizationsGet, { pageSize: 1 })).pageToken as string | undefined;
    const cases: [unknown, RegExp | null][] = [
      [{ organizationId: org, pageToken: 'garbage!' }, /pageToken is malformed/],
      [{ organizationId: org, pageToken: 'WzIsIngiLCJ5Il0' }, /other filters/],
      [{ organizationId: other, pageToken: token }, /other filters/],
      [{ pageSize: 10 }, null],
      [{ organizationId: '' }, null],
      [{ organizationId: org, pageSize: 0 }, null],
      [{ organizationId: org, pageSize: 1001 }, null],
      [{ organizationId: org, pageToken: 7 }, null],
      ...(orgToken ? ([[{ organizationId: org, pageToken: orgToken }, /other filters/]] as [unknown, RegExp][]) : []),
    ];
    for (const [data, message] of cases) {
      for (const path of [PATHS.userGroupsGet, v2(PATHS.userGroupsGet)]) {
        const r = await t.a.post(path, data);
        const said = expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${JSON.stringify(data)}`);
        if (message) assert.match(said, message);
        assertNoLeak(r, path);
      }
    }
    // The body without its {data} envelope.
    const bare = await t.a.post(PATHS.userGroupsGet, null, {
      raw: JSON.stringify({ organizationId: org }),
      headers: { 'content-type': 'application/json' },
    });
    expectError(bare, 400, 'INVALID_ARGUMENT', 'no data envelope');
    assertNoLeak(bare, 'no data envelope');
  });
});

describe('user groups: the read, security', () => {
  test('credentials are checked first', async () => {
    const body = { data: { organizationId: 'o' } };
    for (const path of [PATHS.userGroupsGet, v2(PATHS.userGroupsGet)]) {
      await expectMissingCredentials(t, path, body);
      for (const [label, headers] of badCredentialCases(t)) await expectBadCredentials(t, path, label, headers, body);
    }
  });

  test("another tenant sees none of a's groups, and a none of b's", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'ga', groupName: 'A' }] });
    assert.deepEqual((await t.b.ok(PATHS.userGroupsGet, { organizationId: org })).data, []);
    await t.b.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'gb', groupName: 'B' }] });
    assert.deepEqual((await t.a.ok(PATHS.userGroupsGet, { organizationId: org })).data, [{ groupId: 'ga', groupName: 'A' }]);
    assert.deepEqual((await t.b.ok(PATHS.userGroupsGet, { organizationId: org })).data, [{ groupId: 'gb', groupName: 'B' }]);
  });

  test('an end-user token may not call it, as the other group operations (server credentials only)', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('ana')] });
    await t.a.ok(PATHS.userGroupsAdd, { organizationId: org, organizationUserGroups: [{ groupId: 'g' }] });
    const token = (await t.a.ok(PATHS.authTokenGet, { userId: 'ana', userProperties: { organizationId: org } })).data.token;
    const data = { organizationId: org };
    for (const path of [PATHS.userGroupsGet, v2(PATHS.userGroupsGet), PATHS.userGroupsAdd]) {
      const r = await t.request(path, {
        body: { data: path === PATHS.userGroupsAdd ? { ...data, organizationUserGroups: [{ groupId: 'x' }] } : data },
        headers: { authorization: `Bearer ${token}` },
      });
      assert.match(expectError(r, 403, 'PERMISSION_DENIED', path), /server credentials/);
      assertNoLeak(r, path);
    }
  });
});
