// Organization user groups (docs/api.md, "POST /v1/organizations/usergroups/add"): usergroups/add,
// usergroups/users/add and usergroups/users/delete, on the configured database. Happy: a group made and renamed,
// users in and out, deleteAll. Errors: the request rules; an unknown group is NOT_FOUND (docs/api.md,
// "What does not exist"); a disabled organization refuses every group write. Security: credentials first; tenant b
// cannot see or change a's groups.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, HEX32, makeTestApp, PATHS, type TestApp, user } from '../helpers/app.js';
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
