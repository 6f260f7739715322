// The inbox (docs/api.md, "Notifications"), the success paths: organization-wide addressing, the unread filter
// of notifications/get, read state in the recipient maps, notifications/update, notifications/delete,
// count/get and read, settings (config/get and config/set), and exact paging over a mixed inbox. Where docs/api.md
// is silent the tests follow docs/decisions.md, "Notifications with a whole life".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HEX32, makeTestApp, PATHS, T0, user, notificationData, type Caller, type TestApp } from '../helpers/app.js';

let t: TestApp;
/** The app's clock: every add moves it on by 1 ms unless a test sets it. */
let now = T0;

before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => {
  await t.close();
});

let seq = 0;
/** An organization id unique within this file. */
const orgId = (label: string) => `org-${label}-${++seq}`;

const js = (x: unknown) => String(JSON.stringify(x)).slice(0, 1200);

/** notifications/add with the helper defaults (doc-1, actor, notifyUsers [r1]) replaced by `over`. */
async function add(org: string, over: Record<string, unknown>, caller: Caller = t.a): Promise<string> {
  now += 1;
  const r = await caller.ok(PATHS.notificationsAdd, notificationData(org, over));
  return r.data.id as string;
}

/** An organization-wide notification: no notifyUsers. */
const wide = (over: Record<string, unknown> = {}) => ({ notifyUsers: undefined, ...over });
/** Addressed to the users listed, by userId. */
const to = (...userIds: string[]) => ({ notifyUsers: userIds.map((userId) => ({ userId })) });

async function get(data: Record<string, unknown>, caller: Caller = t.a): Promise<any[]> {
  const r = await caller.ok(PATHS.notificationsGet, data);
  assert.ok(Array.isArray(r.data), js(r));
  return r.data as any[];
}

const idsOf = (list: any[]): string[] => list.map((n) => n.id as string);

async function ids(data: Record<string, unknown>, caller: Caller = t.a): Promise<string[]> {
  return idsOf(await get(data, caller));
}

/** The one notification `id` as the document read shows it (any filter that finds it). */
async function one(org: string, id: string, filter: Record<string, unknown> = { documentId: 'doc-1' }): Promise<any> {
  const [n, ...rest] = await get({ organizationId: org, ...filter, notificationIds: [id] });
  assert.ok(n, `${id} not found with ${js(filter)}`);
  assert.equal(rest.length, 0);
  return n;
}

async function count(org: string, userId: string, documentId?: string, caller: Caller = t.a) {
  const r = await caller.ok(PATHS.notificationsCount, { organizationId: org, userId, ...(documentId ? { documentId } : {}) });
  return r.data as { total: number; unread: number };
}

async function markRead(org: string, userId: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId, ...extra });
  return r.data.read as number;
}

async function update(org: string, notifications: Record<string, unknown>[]): Promise<Record<string, unknown>> {
  const r = await t.a.ok(PATHS.notificationsUpdate, { organizationId: org, notifications });
  return r.data;
}

/** Profiles (membership) via users/add, in the organization or a document or folder of it; answers internal ids. */
async function members(org: string, userIds: string[], scope: Record<string, string> = {}): Promise<Record<string, string>> {
  const r = await t.a.ok(PATHS.usersAdd, { organizationId: org, ...scope, users: userIds.map((u) => user(u)) });
  return Object.fromEntries(userIds.map((u) => [u, r.data[u].id as string]));
}

/** The internal user id users/update reports (for missing users too, without creating them). */
async function internalIdOf(org: string, userId: string): Promise<string> {
  const r = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId }] });
  assert.match(String(r.data[userId]?.id), HEX32, js(r));
  return r.data[userId].id as string;
}

describe('addressing', () => {
  test('notifyUsers absent, null or empty: the whole organization, whichever way its members joined', async () => {
    const org = orgId('wide');
    await members(org, ['m-org']);
    await members(org, ['m-doc'], { documentId: 'some-doc' });
    await members(org, ['m-folder'], { folderId: 'some-folder' });
    await members(orgId('elsewhere'), ['m-other-org']);
    const absent = await add(org, wide({ notificationId: 'w-absent' }));
    const nul = await add(org, { notificationId: 'w-null', notifyUsers: null });
    const empty = await add(org, { notificationId: 'w-empty', notifyUsers: [] });
    const expected = [empty, nul, absent];
    for (const u of ['m-org', 'm-doc', 'm-folder']) {
      assert.deepEqual(await ids({ organizationId: org, userId: u }), expected, `member ${u}`);
      assert.deepEqual(await count(org, u), { total: 3, unread: 3 }, `count of ${u}`);
    }
    for (const u of ['m-other-org', 'stranger', 'actor']) {
      assert.deepEqual(await ids({ organizationId: org, userId: u }), [], `non-member ${u}`);
      assert.deepEqual(await count(org, u), { total: 0, unread: 0 }, `count of ${u}`);
    }
    // By document it is there as any notification is; nobody is listed and nobody has read it.
    const list = await get({ organizationId: org, documentId: 'doc-1' });
    assert.deepEqual(idsOf(list), expected);
    for (const n of list) {
      assert.deepEqual(n.notifyUsers, {}, js(n));
      assert.deepEqual(n.notifyUsersByUserId, {}, js(n));
      assert.equal(n.notificationSource, 'custom');
    }
  });

  test('notifyAll true with listed users: listed ones find it (members or not), every member finds it, once', async () => {
    const org = orgId('all-listed');
    const ids0 = await members(org, ['m1', 'm2']);
    const id = await add(org, { notificationId: 'al', notifyAll: true, ...to('listed-stranger', 'm1') });
    for (const u of ['listed-stranger', 'm1', 'm2']) {
      assert.deepEqual(await ids({ organizationId: org, userId: u }), [id], u);
      assert.deepEqual(await count(org, u), { total: 1, unread: 1 }, u);
      assert.deepEqual(await ids({ organizationId: org, userId: u, unread: true }), [id], u);
    }
    assert.deepEqual(await ids({ organizationId: org, userId: 'stranger' }), []);
    const n = await one(org, id);
    assert.deepEqual(n.notifyUsersByUserId, { 'listed-stranger': true, m1: true }, js(n));
    assert.deepEqual(n.notifyUsers, { [await internalIdOf(org, 'listed-stranger')]: true, [ids0.m1!]: true }, js(n));
  });

  test('notifyAll false with listed users: only they find it, members do not', async () => {
    const org = orgId('not-all');
    await members(org, ['m1', 'm2']);
    const id = await add(org, { notifyAll: false, ...to('m1', 'x') });
    assert.deepEqual(await ids({ organizationId: org, userId: 'm1' }), [id]);
    assert.deepEqual(await ids({ organizationId: org, userId: 'x' }), [id]);
    assert.deepEqual(await ids({ organizationId: org, userId: 'm2' }), []);
    assert.deepEqual(await count(org, 'm2'), { total: 0, unread: 0 });
    // Listed users without notifyAll: the same (notifyAll defaults to false).
    const id2 = await add(org, to('m1'));
    assert.deepEqual(await ids({ organizationId: org, userId: 'm2' }), []);
    assert.deepEqual(await ids({ organizationId: org, userId: 'm1' }), [id2, id]);
  });

  test('membership is looked up at read time: a member added later finds what was sent before', async () => {
    const org = orgId('later');
    const w = await add(org, wide());
    const listed = await add(org, to('other'));
    assert.deepEqual(await ids({ organizationId: org, userId: 'late' }), []);
    assert.deepEqual(await count(org, 'late'), { total: 0, unread: 0 });
    await members(org, ['late'], { documentId: 'd-late' });
    assert.deepEqual(await ids({ organizationId: org, userId: 'late' }), [w]);
    assert.deepEqual(await count(org, 'late'), { total: 1, unread: 1 });
    assert.deepEqual(await ids({ organizationId: org, userId: 'late', unread: true }), [w]);
    assert.deepEqual(await ids({ organizationId: org, userId: 'late', unread: false }), []);
    assert.ok(!(await ids({ organizationId: org, userId: 'late' })).includes(listed));
    const w2 = await add(org, wide());
    assert.deepEqual(await ids({ organizationId: org, userId: 'late' }), [w2, w]);
  });

  test("another organization's members never find it, nor does another tenant's member of the same organization", async () => {
    const org = orgId('wide-iso');
    const other = orgId('wide-iso-other');
    await members(other, ['m']);
    await t.b.ok(PATHS.usersAdd, { organizationId: org, users: [user('m')] });
    await add(org, wide());
    assert.deepEqual(await ids({ organizationId: other, userId: 'm' }), []);
    assert.deepEqual(await ids({ organizationId: org, userId: 'm' }), [], 'm has a profile in org under tenant b only');
    assert.deepEqual(await ids({ organizationId: org, userId: 'm' }, t.b), []);
    assert.deepEqual(await count(org, 'm', undefined, t.b), { total: 0, unread: 0 });
  });
});

describe('the unread filter', () => {
  const org = orgId('unread');
  const n: Record<string, string> = {};

  before(async () => {
    await members(org, ['u']);
    n.a1 = await add(org, { notificationId: 'a1', documentId: 'd1', locationId: 'L1', ...to('u', 'v') });
    n.a2 = await add(org, { notificationId: 'a2', documentId: 'd1', locationId: 'L2', ...to('u') });
    n.a3 = await add(org, { notificationId: 'a3', documentId: 'd2', locationId: 'L1', ...to('u') });
    n.w1 = await add(org, wide({ notificationId: 'w1', documentId: 'd1', locationId: 'L1' }));
    n.w2 = await add(org, wide({ notificationId: 'w2', documentId: null }));
    n.w3 = await add(org, wide({ notificationId: 'w3', documentId: 'd2', notifyAll: true, ...to('u') }));
    n.x = await add(org, { notificationId: 'x', documentId: 'd1', ...to('v') });
    const r = await update(org, [
      { id: 'a1', readByUserIds: ['u'] },
      { id: 'w1', readByUserIds: ['u'] },
      { id: 'w3', readByUserIds: ['u'] },
    ]);
    assert.equal(Object.values(r).filter((e: any) => e.success).length, 3, js(r));
  });

  const cases: [string, Record<string, unknown>, string[]][] = [
    ['no unread', {}, ['w3', 'w2', 'w1', 'a3', 'a2', 'a1']],
    ['unread true', { unread: true }, ['w2', 'a3', 'a2']],
    ['unread false', { unread: false }, ['w3', 'w1', 'a1']],
    ['unread null means absent', { unread: null }, ['w3', 'w2', 'w1', 'a3', 'a2', 'a1']],
    ['documentId, unread true', { documentId: 'd1', unread: true }, ['a2']],
    ['documentId, unread false', { documentId: 'd1', unread: false }, ['w1', 'a1']],
    ['documentId d2, unread true', { documentId: 'd2', unread: true }, ['a3']],
    ['documentId d2, unread false', { documentId: 'd2', unread: false }, ['w3']],
    ['locationId, unread true', { locationId: 'L1', unread: true }, ['a3']],
    ['locationId, unread false', { locationId: 'L1', unread: false }, ['w1', 'a1']],
    ['documentId + locationId, unread false', { documentId: 'd1', locationId: 'L1', unread: false }, ['w1', 'a1']],
    ['notificationIds, unread true', { notificationIds: ['a1', 'a2', 'w1', 'w2', 'x'], unread: true }, ['w2', 'a2']],
    ['notificationIds, unread false', { notificationIds: ['a1', 'a2', 'w1', 'w2', 'x'], unread: false }, ['w1', 'a1']],
    ['all filters, unread true', { documentId: 'd1', locationId: 'L2', notificationIds: ['a2'], unread: true }, ['a2']],
    ['all filters, unread false', { documentId: 'd1', locationId: 'L2', notificationIds: ['a2'], unread: false }, []],
  ];
  for (const [name, filter, expected] of cases) {
    test(name, async () => {
      assert.deepEqual(await ids({ organizationId: org, userId: 'u', ...filter }), expected, js(filter));
    });
  }

  test("one user's reads are not another's: v still has a1 unread; x is v's only", async () => {
    assert.deepEqual(await ids({ organizationId: org, userId: 'v', unread: true }), ['x', 'a1']);
    assert.deepEqual(await ids({ organizationId: org, userId: 'v', unread: false }), []);
    // v is no member: the organization-wide ones are not in v's inbox at all.
    assert.deepEqual(await ids({ organizationId: org, userId: 'v' }), ['x', 'a1']);
  });

  test('count/get agrees with the filter, with and without documentId', async () => {
    assert.deepEqual(await count(org, 'u'), { total: 6, unread: 3 });
    assert.deepEqual(await count(org, 'u', 'd1'), { total: 3, unread: 1 });
    assert.deepEqual(await count(org, 'u', 'd2'), { total: 2, unread: 1 });
    assert.deepEqual(await count(org, 'u', 'd-none'), { total: 0, unread: 0 });
    assert.deepEqual(await count(org, 'v'), { total: 2, unread: 2 });
  });
});

describe('read state in notifyUsers and notifyUsersByUserId', () => {
  test('listed recipients: false after read, true again after unread; notifyUsers keys are internal ids', async () => {
    const org = orgId('maps');
    const id = await add(org, to('r1', 'r2', 'r3'));
    const r1 = await internalIdOf(org, 'r1');
    const r2 = await internalIdOf(org, 'r2');
    const r3 = await internalIdOf(org, 'r3');
    assert.deepEqual(await update(org, [{ id, readByUserIds: ['r1', 'r3'] }]), {
      [id]: { success: true, message: 'Notification updated.' },
    });
    let n = await one(org, id);
    assert.deepEqual(n.notifyUsersByUserId, { r1: false, r2: true, r3: false }, js(n));
    assert.deepEqual(n.notifyUsers, { [r1]: false, [r2]: true, [r3]: false }, js(n));
    assert.deepEqual(Object.keys(n.notifyUsersByUserId), ['r1', 'r2', 'r3'], 'listed order kept');
    assert.deepEqual(Object.keys(n.notifyUsers), [r1, r2, r3], 'listed order kept');
    // The same through the user read (the inbox rows) and by document.
    assert.deepEqual((await one(org, id, { userId: 'r2' })).notifyUsersByUserId, { r1: false, r2: true, r3: false });
    await update(org, [{ id, unreadByUserIds: ['r1'], readByUserIds: ['r2'] }]);
    n = await one(org, id);
    assert.deepEqual(n.notifyUsersByUserId, { r1: true, r2: false, r3: false }, js(n));
    assert.deepEqual(n.notifyUsers, { [r1]: true, [r2]: false, [r3]: false }, js(n));
    // Marking read again, or unread what is unread, changes nothing and still succeeds.
    assert.deepEqual(await update(org, [{ id, readByUserIds: ['r2'], unreadByUserIds: ['r1'] }]), {
      [id]: { success: true, message: 'Notification updated.' },
    });
    assert.deepEqual((await one(org, id)).notifyUsersByUserId, { r1: true, r2: false, r3: false });
  });

  test('organization-wide: listed first, then members who read it (userId order), all false; unread removes a member', async () => {
    const org = orgId('maps-wide');
    const internal = await members(org, ['m-b', 'm-a', 'm-c', 'r1']);
    const id = await add(org, wide({ notifyAll: true, ...to('r1', 'zz-listed') }));
    const zz = await internalIdOf(org, 'zz-listed');
    let n = await one(org, id);
    assert.deepEqual(n.notifyUsersByUserId, { r1: true, 'zz-listed': true }, js(n));
    await update(org, [{ id, readByUserIds: ['m-c'] }]);
    await markRead(org, 'm-a');
    n = await one(org, id);
    assert.deepEqual(Object.keys(n.notifyUsersByUserId), ['r1', 'zz-listed', 'm-a', 'm-c'], js(n));
    assert.deepEqual(n.notifyUsersByUserId, { r1: true, 'zz-listed': true, 'm-a': false, 'm-c': false }, js(n));
    assert.deepEqual(Object.keys(n.notifyUsers), [internal.r1!, zz, internal['m-a']!, internal['m-c']!], js(n));
    assert.deepEqual(Object.values(n.notifyUsers), [true, true, false, false]);
    // Internal ids of members equal users/update's id for them.
    assert.equal(internal['m-a'], await internalIdOf(org, 'm-a'));
    // A listed member reading shows in place, not appended.
    await update(org, [{ id, readByUserIds: ['r1'] }]);
    n = await one(org, id, { userId: 'm-b' });
    assert.deepEqual(Object.keys(n.notifyUsersByUserId), ['r1', 'zz-listed', 'm-a', 'm-c'], js(n));
    assert.deepEqual(n.notifyUsersByUserId, { r1: false, 'zz-listed': true, 'm-a': false, 'm-c': false }, js(n));
    // Unread again: a member reader leaves the maps; a listed one flips back to true.
    await update(org, [{ id, unreadByUserIds: ['m-a', 'r1'] }]);
    n = await one(org, id);
    assert.deepEqual(n.notifyUsersByUserId, { r1: true, 'zz-listed': true, 'm-c': false }, js(n));
    assert.deepEqual(n.notifyUsers, { [internal.r1!]: true, [zz]: true, [internal['m-c']!]: false }, js(n));
    assert.deepEqual(await ids({ organizationId: org, userId: 'm-a', unread: true }), [id]);
    assert.deepEqual(await ids({ organizationId: org, userId: 'm-c', unread: true }), []);
  });

  test('read marks for users who are neither recipients nor (organization-wide) members are ignored', async () => {
    const org = orgId('maps-ignored');
    await members(org, ['member']);
    const listed = await add(org, to('r1'));
    const w = await add(org, wide());
    const r = await update(org, [
      { id: listed, readByUserIds: ['member', 'stranger'] },
      { id: w, readByUserIds: ['stranger', 'r1'] },
    ]);
    assert.deepEqual(r, {
      [listed]: { success: true, message: 'Notification updated.' },
      [w]: { success: true, message: 'Notification updated.' },
    });
    assert.deepEqual((await one(org, listed)).notifyUsersByUserId, { r1: true });
    assert.deepEqual((await one(org, w)).notifyUsersByUserId, {});
    assert.deepEqual(await count(org, 'stranger'), { total: 0, unread: 0 });
    assert.deepEqual(await count(org, 'member'), { total: 1, unread: 1 });
    assert.deepEqual(await ids({ organizationId: org, userId: 'member' }), [w]);
    assert.deepEqual(await ids({ organizationId: org, userId: 'stranger' }), []);
  });
});

describe('notifications/update', () => {
  test('the answer: exact envelope, one {success, message} per id, unknown ids fail', async () => {
    const org = orgId('upd-answer');
    const id = await add(org, { notificationId: 'known' });
    const r = await t.a.post(PATHS.notificationsUpdate, {
      organizationId: org,
      notifications: [{ id: 'nope' }, { id, displayBodyMessage: 'changed' }, { id: 'Known' }],
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      result: {
        status: 'success',
        message: 'Notification(s) updated successfully.',
        data: {
          nope: { success: false, message: 'Failed to update notification.' },
          known: { success: true, message: 'Notification updated.' },
          Known: { success: false, message: 'Failed to update notification.' },
        },
      },
    });
    assert.deepEqual(Object.keys(r.json.result.data), ['nope', 'known', 'Known'], 'request order');
    assert.equal((await one(org, id)).displayBodyMessage, 'changed');
  });

  test('an entry with neither marks nor content succeeds for an existing id and changes nothing', async () => {
    const org = orgId('upd-empty');
    const id = await add(org, {});
    const before = await one(org, id);
    assert.deepEqual(await update(org, [{ id }, { id: 'missing' }]), {
      [id]: { success: true, message: 'Notification updated.' },
      missing: { success: false, message: 'Failed to update notification.' },
    });
    assert.deepEqual(await one(org, id), before);
  });

  test('each content member changes; id, source, timestamp, recipients, read state and metadata stay', async () => {
    const org = orgId('upd-content');
    await members(org, ['prof-actor', 'prof-tpl', 'r1']);
    await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: [
        { userId: 'prof-actor', name: 'Actor Profile', email: 'actor@profile.example' },
        { userId: 'prof-tpl', name: 'Tpl Profile', email: 'tpl@profile.example' },
      ],
    });
    now = T0 + 1_000_000;
    const id = await add(org, {
      notificationId: 'content',
      locationId: 'loc-c',
      notifyAll: true,
      ...to('r1', 'r2'),
      actionUser: user('first-actor'),
      displayHeadlineMessageTemplate: 'first {x}',
      displayHeadlineMessageTemplateData: { x: 1 },
      displayBodyMessage: 'first body',
      notificationSourceData: { first: true },
    });
    const stamp = now;
    await update(org, [{ id, readByUserIds: ['r2', 'prof-tpl'] }]);
    const before = await one(org, id);
    const steps: [Record<string, unknown>, (n: any) => void][] = [
      [
        { actionUser: { userId: 'prof-actor', name: 'Sent', email: 'sent@example.com' } },
        (n) => assert.deepEqual(n.actionUser, { userId: 'prof-actor', name: 'Actor Profile', email: 'actor@profile.example' }),
      ],
      [
        { displayHeadlineMessageTemplate: '{who} changed it' },
        (n) => assert.equal(n.displayHeadlineMessageTemplate, '{who} changed it'),
      ],
      [
        { displayHeadlineMessageTemplateData: { who: { userId: 'prof-tpl', name: 'Sent' }, bare: { userId: 'nobody' }, k: [1] } },
        (n) =>
          assert.deepEqual(n.displayHeadlineMessageTemplateData, {
            who: { userId: 'prof-tpl', name: 'Tpl Profile', email: 'tpl@profile.example' },
            bare: { userId: 'nobody', name: '', email: '' },
            k: [1],
          }),
      ],
      [{ displayBodyMessage: 'second body' }, (n) => assert.equal(n.displayBodyMessage, 'second body')],
      [
        { notificationSourceData: { second: { deep: [1, 'x'] } } },
        (n) => assert.deepEqual(n.notificationSourceData, { second: { deep: [1, 'x'] } }),
      ],
    ];
    const expected = { ...before };
    for (const [change, check] of steps) {
      now += 1_000;
      assert.deepEqual(await update(org, [{ id, ...change }]), { [id]: { success: true, message: 'Notification updated.' } });
      for (const filter of [
        { documentId: 'doc-1' },
        { userId: 'r1' },
        { userId: 'prof-actor' },
        { userId: 'r2', unread: false },
      ]) {
        const n = await one(org, id, filter);
        check(n);
        const key = Object.keys(change)[0]!;
        expected[key] = n[key];
        assert.deepEqual(n, expected, `after ${js(change)} read with ${js(filter)}`);
        assert.equal(n.id, 'content');
        assert.equal(n.notificationSource, 'custom');
        assert.equal(n.timestamp, stamp);
        assert.deepEqual(n.metadata, { apiKey: t.a.creds.apiKey, organizationId: org, documentId: 'doc-1', locationId: 'loc-c' });
        assert.deepEqual(n.notifyUsersByUserId, { r1: true, r2: false, 'prof-tpl': false }, js(n));
      }
    }
    // A users/update after the content change shows at once, as for any actionUser.
    await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'prof-actor', name: 'Renamed Actor' }] });
    assert.equal((await one(org, id)).actionUser.name, 'Renamed Actor');
    // Still in the same inboxes, with the same read state.
    assert.deepEqual(await count(org, 'r2'), { total: 1, unread: 0 });
    assert.deepEqual(await count(org, 'r1'), { total: 1, unread: 1 });
  });

  test('an actionUser without name and email changes to the bare user, resolved as any other', async () => {
    const org = orgId('upd-bare-actor');
    const id = await add(org, { actionUser: user('sent-actor') });
    await update(org, [{ id, actionUser: { userId: 'new-actor' } }]);
    assert.deepEqual((await one(org, id)).actionUser, { userId: 'new-actor', name: '', email: '' });
  });

  test('several notifications in one request, and one id named twice gets both changes in order', async () => {
    const org = orgId('upd-many');
    const a = await add(org, to('r1'));
    const b = await add(org, to('r1', 'r2'));
    const r = await update(org, [
      { id: a, displayBodyMessage: 'a first', readByUserIds: ['r1'] },
      { id: b, displayHeadlineMessageTemplate: 'b template', readByUserIds: ['r2'] },
      { id: a, displayBodyMessage: 'a second', displayHeadlineMessageTemplate: 'a template', unreadByUserIds: ['r1'] },
    ]);
    assert.deepEqual(Object.keys(r), [a, b]);
    const na = await one(org, a);
    assert.equal(na.displayBodyMessage, 'a second');
    assert.equal(na.displayHeadlineMessageTemplate, 'a template');
    assert.deepEqual(na.notifyUsersByUserId, { r1: true });
    const nb = await one(org, b);
    assert.equal(nb.displayHeadlineMessageTemplate, 'b template');
    assert.equal(nb.displayBodyMessage, '');
    assert.deepEqual(nb.notifyUsersByUserId, { r1: true, r2: false });
  });

  test('content of an organization-wide notification changes for every member', async () => {
    const org = orgId('upd-wide');
    await members(org, ['m1', 'm2']);
    const id = await add(org, wide());
    await update(org, [{ id, displayBodyMessage: 'for all' }]);
    for (const u of ['m1', 'm2']) assert.equal((await one(org, id, { userId: u })).displayBodyMessage, 'for all');
  });
});

describe('notifications/delete', () => {
  /**
   * A fresh organization: p1..p4 addressed, w1 organization-wide (u1 and m are members), in this order.
   *   p1 doc d1 loc L1 [u1]     p2 doc d1 loc L2 [u2]     p3 doc d2 loc L1 [u1, u2]
   *   p4 no doc loc L1 [u1]     w1 doc d1 no loc (wide)   p5 doc d1 loc L1 [u2, u1]
   */
  async function fixture() {
    const org = orgId('del');
    await members(org, ['u1', 'm']);
    await add(org, { notificationId: 'p1', documentId: 'd1', locationId: 'L1', ...to('u1') });
    await add(org, { notificationId: 'p2', documentId: 'd1', locationId: 'L2', ...to('u2') });
    await add(org, { notificationId: 'p3', documentId: 'd2', locationId: 'L1', ...to('u1', 'u2') });
    await add(org, { notificationId: 'p4', documentId: null, locationId: 'L1', ...to('u1') });
    await add(org, wide({ notificationId: 'w1', documentId: 'd1' }));
    await add(org, { notificationId: 'p5', documentId: 'd1', locationId: 'L1', ...to('u2', 'u1') });
    return org;
  }
  const ALL = ['p5', 'w1', 'p4', 'p3', 'p2', 'p1'];

  /** Every notification of the organization, found through each way in. */
  async function remaining(org: string): Promise<string[]> {
    const found = new Set<string>();
    for (const filter of [{ documentId: 'd1' }, { documentId: 'd2' }, { userId: 'u1' }, { userId: 'u2' }, { userId: 'm' }]) {
      for (const id of await ids({ organizationId: org, ...filter })) found.add(id);
    }
    return ALL.filter((id) => found.has(id));
  }

  const DONE = { success: true, message: 'Notification deleted.' };
  const FAILED = { success: false, message: 'Failed to delete notification.' };

  const cases: [string, Record<string, unknown>, [string, boolean][]][] = [
    [
      'documentId',
      { documentId: 'd1' },
      [
        ['p5', true],
        ['w1', true],
        ['p2', true],
        ['p1', true],
      ],
    ],
    [
      'locationId',
      { locationId: 'L1' },
      [
        ['p5', true],
        ['p4', true],
        ['p3', true],
        ['p1', true],
      ],
    ],
    // docs/api.md "POST /v1/notifications/delete": userId deletes what lists the user, never organization-wide ones
    // by membership alone.
    [
      'userId (what lists the user)',
      { userId: 'u1' },
      [
        ['p5', true],
        ['p4', true],
        ['p3', true],
        ['p1', true],
      ],
    ],
    ['userId of a member listed nowhere (never organization-wide by membership alone)', { userId: 'm' }, []],
    ['userId of nobody', { userId: 'nobody' }, []],
    [
      'notificationIds (request order, repeats answered once, unknown ids fail)',
      { notificationIds: ['p2', 'nope', 'w1', 'p2', 'P1'] },
      [
        ['p2', true],
        ['nope', false],
        ['w1', true],
        ['P1', false],
      ],
    ],
    [
      'documentId + locationId',
      { documentId: 'd1', locationId: 'L1' },
      [
        ['p5', true],
        ['p1', true],
      ],
    ],
    [
      'documentId + userId',
      { documentId: 'd1', userId: 'u2' },
      [
        ['p5', true],
        ['p2', true],
      ],
    ],
    [
      'locationId + userId',
      { locationId: 'L1', userId: 'u2' },
      [
        ['p5', true],
        ['p3', true],
      ],
    ],
    [
      'documentId + notificationIds: an id that fails the other filter fails',
      { documentId: 'd1', notificationIds: ['p3', 'p1', 'w1'] },
      [
        ['p3', false],
        ['p1', true],
        ['w1', true],
      ],
    ],
    [
      'userId + notificationIds',
      { userId: 'u1', notificationIds: ['p2', 'p3'] },
      [
        ['p2', false],
        ['p3', true],
      ],
    ],
    [
      'every filter',
      { documentId: 'd1', locationId: 'L1', userId: 'u1', notificationIds: ['p1', 'p5', 'p2'] },
      [
        ['p1', true],
        ['p5', true],
        ['p2', false],
      ],
    ],
    ['an empty notificationIds with another filter is no filter', { documentId: 'd2', notificationIds: [] }, [['p3', true]]],
    ['null filters are absent', { documentId: 'd2', locationId: null, userId: null, notificationIds: null }, [['p3', true]]],
    ['nothing matches', { documentId: 'd1', locationId: 'L-none' }, []],
  ];

  for (const [name, filter, expected] of cases) {
    test(name, async () => {
      const org = await fixture();
      const r = await t.a.post(PATHS.notificationsDelete, { organizationId: org, ...filter });
      assert.equal(r.status, 200, r.body);
      assert.equal(r.json.result.message, 'Notification(s) deleted successfully.');
      const data = r.json.result.data;
      assert.deepEqual(
        Object.keys(data),
        expected.map(([id]) => id),
        `answer order: ${r.body}`,
      );
      assert.deepEqual(data, Object.fromEntries(expected.map(([id, ok]) => [id, ok ? DONE : FAILED])), r.body);
      const gone = new Set(expected.filter(([, ok]) => ok).map(([id]) => id));
      assert.deepEqual(
        await remaining(org),
        ALL.filter((id) => !gone.has(id)),
        'deleted for everyone, the rest stays',
      );
    });
  }

  test('deleted for everyone: counts drop for every recipient and member, read marks go with it', async () => {
    const org = await fixture();
    await markRead(org, 'm');
    await markRead(org, 'u2', { notificationIds: ['p5'] });
    assert.deepEqual(await count(org, 'u1'), { total: 5, unread: 5 });
    assert.deepEqual(await count(org, 'u2'), { total: 3, unread: 2 });
    assert.deepEqual(await count(org, 'm'), { total: 1, unread: 0 });
    await t.a.ok(PATHS.notificationsDelete, { organizationId: org, notificationIds: ['w1', 'p5'] });
    assert.deepEqual(await count(org, 'u1'), { total: 3, unread: 3 });
    assert.deepEqual(await count(org, 'u1', 'd1'), { total: 1, unread: 1 });
    assert.deepEqual(await count(org, 'u2'), { total: 2, unread: 2 });
    assert.deepEqual(await count(org, 'm'), { total: 0, unread: 0 });
    assert.deepEqual(await ids({ organizationId: org, userId: 'm' }), []);
    // A notification of the same id added again starts unread for everyone.
    await add(org, wide({ notificationId: 'w1', documentId: 'd1' }));
    assert.deepEqual(await count(org, 'm'), { total: 1, unread: 1 });
    assert.deepEqual((await one(org, 'w1', { documentId: 'd1' })).notifyUsersByUserId, {});
  });

  test('without notificationIds the answer lists what was deleted newest first, ties by id descending', async () => {
    const org = orgId('del-order');
    now = T0 + 5_000_000;
    for (const id of ['b', 'B', 'a', '_x']) await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: id }));
    now += 10;
    await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: 'A' }));
    const r = await t.a.ok(PATHS.notificationsDelete, { organizationId: org, documentId: 'doc-1' });
    assert.deepEqual(Object.keys(r.data), ['A', 'b', 'a', '_x', 'B']);
  });

  test("another organization's notifications of the same ids stay", async () => {
    const org = await fixture();
    const other = await fixture();
    await t.a.ok(PATHS.notificationsDelete, { organizationId: org, documentId: 'd1' });
    await t.a.ok(PATHS.notificationsDelete, { organizationId: org, notificationIds: ALL });
    assert.deepEqual(await remaining(org), []);
    assert.deepEqual(await remaining(other), ALL);
  });
});

describe('notifications/count/get', () => {
  test('the answer: exact envelope and shape; zeros for an unknown user or organization', async () => {
    const org = orgId('count-answer');
    await add(org, to('c1'));
    const r = await t.a.post(PATHS.notificationsCount, { organizationId: org, userId: 'c1' });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      result: { status: 'success', message: 'Notification count retrieved successfully.', data: { total: 1, unread: 1 } },
    });
    assert.deepEqual(await count(org, 'nobody'), { total: 0, unread: 0 });
    assert.deepEqual(await count('org-never-seen', 'c1'), { total: 0, unread: 0 });
    assert.deepEqual(await count(org, 'c1', 'doc-unknown'), { total: 0, unread: 0 });
  });

  test('addressed and organization-wide, by document; a member vs not; listed + notifyAll counted once', async () => {
    const org = orgId('count');
    await members(org, ['mem', 'both']);
    await add(org, { documentId: 'd1', ...to('mem', 'out') });
    await add(org, { documentId: 'd2', ...to('out') });
    await add(org, { documentId: null, ...to('mem') });
    await add(org, wide({ documentId: 'd1' }));
    await add(org, wide({ documentId: null }));
    await add(org, wide({ documentId: 'd2', notifyAll: true, ...to('both', 'out') }));
    const expect: [string, string | undefined, number][] = [
      ['mem', undefined, 5],
      ['mem', 'd1', 2],
      ['mem', 'd2', 1],
      ['both', undefined, 3],
      ['both', 'd2', 1],
      ['out', undefined, 3],
      ['out', 'd1', 1],
      ['out', 'd2', 2],
      ['nobody', undefined, 0],
    ];
    for (const [u, doc, total] of expect) {
      assert.deepEqual(await count(org, u, doc), { total, unread: total }, `${u} ${doc}`);
      const listed = await ids({ organizationId: org, userId: u, ...(doc ? { documentId: doc } : {}) });
      assert.equal(listed.length, total, `get agrees for ${u} ${doc}`);
    }
    await markRead(org, 'both', { documentId: 'd2' });
    await markRead(org, 'mem', { documentId: 'd1' });
    assert.deepEqual(await count(org, 'both'), { total: 3, unread: 2 });
    assert.deepEqual(await count(org, 'both', 'd2'), { total: 1, unread: 0 });
    assert.deepEqual(await count(org, 'mem'), { total: 5, unread: 3 });
    assert.deepEqual(await count(org, 'mem', 'd1'), { total: 2, unread: 0 });
    assert.deepEqual(await count(org, 'out'), { total: 3, unread: 3 }, "others' reads are theirs");
  });
});

describe('notifications/read', () => {
  test('the answer: exact envelope, the count newly marked; again 0', async () => {
    const org = orgId('read-answer');
    await add(org, to('rd'));
    await add(org, to('rd'));
    const r = await t.a.post(PATHS.notificationsRead, { organizationId: org, userId: 'rd' });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, { result: { status: 'success', message: 'Notification(s) marked read.', data: { read: 2 } } });
    assert.equal(await markRead(org, 'rd'), 0);
    assert.deepEqual(await count(org, 'rd'), { total: 2, unread: 0 });
  });

  test('all, by document, by ids; organization-wide ones for members only', async () => {
    const org = orgId('read');
    await members(org, ['mem']);
    const a1 = await add(org, { documentId: 'd1', ...to('mem', 'out') });
    const a2 = await add(org, { documentId: 'd2', ...to('mem') });
    const a3 = await add(org, { documentId: null, ...to('mem', 'out') });
    const w1 = await add(org, wide({ documentId: 'd1' }));
    const w2 = await add(org, wide({ documentId: 'd2', notifyAll: true, ...to('out') }));
    const w3 = await add(org, wide({ documentId: null }));

    assert.equal(await markRead(org, 'mem', { notificationIds: [a2, w3, 'nope', a2] }), 2);
    assert.equal(await markRead(org, 'mem', { notificationIds: [a2, w3] }), 0);
    assert.deepEqual(await ids({ organizationId: org, userId: 'mem', unread: true }), [w2, w1, a3, a1]);
    assert.equal(await markRead(org, 'mem', { documentId: 'd1' }), 2);
    assert.deepEqual(await ids({ organizationId: org, userId: 'mem', unread: true }), [w2, a3]);
    assert.equal(await markRead(org, 'mem', { documentId: 'd1', notificationIds: [w2, a1] }), 0);
    assert.equal(await markRead(org, 'mem', { documentId: 'd2', notificationIds: [w2, a1] }), 1);
    assert.equal(await markRead(org, 'mem', { notificationIds: [] }), 1, 'empty ids: every one left');
    assert.deepEqual(await ids({ organizationId: org, userId: 'mem', unread: true }), []);
    assert.deepEqual(await count(org, 'mem'), { total: 6, unread: 0 });

    // out is no member: w1 and w3 are not in their inbox, and reading them marks nothing.
    assert.equal(await markRead(org, 'out', { notificationIds: [w1, w3] }), 0);
    assert.equal(await markRead(org, 'out'), 3, 'a1, a3 and the listed w2');
    assert.deepEqual(await count(org, 'out'), { total: 3, unread: 0 });
    assert.deepEqual((await one(org, w1, { documentId: 'd1' })).notifyUsersByUserId, { mem: false });
    assert.deepEqual((await one(org, w2, { documentId: 'd2' })).notifyUsersByUserId, { out: false, mem: false });
    assert.deepEqual((await one(org, w3, { userId: 'mem' })).notifyUsersByUserId, { mem: false });
    assert.deepEqual((await one(org, a1, { documentId: 'd1' })).notifyUsersByUserId, { mem: false, out: false });
  });

  test("a reader's marks touch nobody else's state", async () => {
    const org = orgId('read-own');
    await members(org, ['x', 'y']);
    const w = await add(org, wide());
    const a = await add(org, to('x', 'y'));
    assert.equal(await markRead(org, 'x'), 2);
    assert.deepEqual(await count(org, 'y'), { total: 2, unread: 2 });
    assert.deepEqual(await ids({ organizationId: org, userId: 'y', unread: true }), [a, w]);
  });
});

describe('notifications/config/get and config/set', () => {
  const meta = (organizationId: string, documentId: string, userId: string) => ({
    organizationId,
    documentId,
    userId,
    apiKey: t.a.creds.apiKey,
  });
  const entry = (org: string, doc: string, u: string, inbox: string, email: string) => ({
    config: { inbox, email },
    metadata: meta(org, doc, u),
  });

  async function config(org: string, userId: string, documentIds: string[]): Promise<any[]> {
    const r = await t.a.ok(PATHS.notificationsConfigGet, { organizationId: org, userId, documentIds });
    return r.data as any[];
  }

  test('get: the exact answer; never set reads MINE/MINE', async () => {
    const org = orgId('cfg-default');
    const r = await t.a.post(PATHS.notificationsConfigGet, { organizationId: org, userId: 'u', documentIds: ['d1', 'd2'] });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      result: {
        status: 'success',
        message: 'User config fetched successfully.',
        data: [entry(org, 'd1', 'u', 'MINE', 'MINE'), entry(org, 'd2', 'u', 'MINE', 'MINE')],
      },
    });
  });

  test('set: the exact answer keyed by userId with the last document', async () => {
    const org = orgId('cfg-set');
    const r = await t.a.post(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: ['d2', 'd1'],
      userIds: ['u1', 'u2'],
      config: { inbox: 'ALL', email: 'NONE' },
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      result: {
        status: 'success',
        message: 'User config set successfully.',
        data: {
          u1: { success: true, userId: 'u1', documentId: 'd1', message: 'User config set successfully.' },
          u2: { success: true, userId: 'u2', documentId: 'd1', message: 'User config set successfully.' },
        },
      },
    });
    for (const u of ['u1', 'u2']) {
      assert.deepEqual(await config(org, u, ['d1', 'd2', 'd3']), [
        entry(org, 'd1', u, 'ALL', 'NONE'),
        entry(org, 'd2', u, 'ALL', 'NONE'),
        entry(org, 'd3', u, 'MINE', 'MINE'),
      ]);
    }
    assert.deepEqual(await config(org, 'u3', ['d1']), [entry(org, 'd1', 'u3', 'MINE', 'MINE')]);
    const other = orgId('cfg-other');
    assert.deepEqual(await config(other, 'u1', ['d1']), [entry(other, 'd1', 'u1', 'MINE', 'MINE')]);
  });

  test('set changes only the channels it names (inbox only keeps email, and the other way round)', async () => {
    const org = orgId('cfg-partial');
    const set = (cfg: Record<string, string | null>, documentIds = ['d1'], userIds = ['u']) =>
      t.a.ok(PATHS.notificationsConfigSet, { organizationId: org, documentIds, userIds, config: cfg });
    await set({ inbox: 'NONE' });
    assert.deepEqual(await config(org, 'u', ['d1']), [entry(org, 'd1', 'u', 'NONE', 'MINE')]);
    await set({ email: 'ALL' });
    assert.deepEqual(await config(org, 'u', ['d1']), [entry(org, 'd1', 'u', 'NONE', 'ALL')]);
    await set({ inbox: 'ALL' });
    assert.deepEqual(await config(org, 'u', ['d1']), [entry(org, 'd1', 'u', 'ALL', 'ALL')]);
    await set({ email: 'MINE', inbox: 'MINE' });
    assert.deepEqual(await config(org, 'u', ['d1']), [entry(org, 'd1', 'u', 'MINE', 'MINE')]);
    await set({ email: 'NONE' });
    assert.deepEqual(await config(org, 'u', ['d1']), [entry(org, 'd1', 'u', 'MINE', 'NONE')]);
    // Per document and per user: one pair set leaves the others.
    await set({ inbox: 'ALL' }, ['d2'], ['v']);
    assert.deepEqual(await config(org, 'u', ['d2', 'd1']), [
      entry(org, 'd2', 'u', 'MINE', 'MINE'),
      entry(org, 'd1', 'u', 'MINE', 'NONE'),
    ]);
    assert.deepEqual(await config(org, 'v', ['d1', 'd2']), [
      entry(org, 'd1', 'v', 'MINE', 'MINE'),
      entry(org, 'd2', 'v', 'ALL', 'MINE'),
    ]);
  });

  test('a channel sent as null is absent: the other one is set, this one kept', async () => {
    const org = orgId('cfg-null');
    const base = { organizationId: org, documentIds: ['d1'], userIds: ['u'] };
    await t.a.ok(PATHS.notificationsConfigSet, { ...base, config: { inbox: 'ALL', email: 'ALL' } });
    await t.a.ok(PATHS.notificationsConfigSet, { ...base, config: { inbox: null, email: 'NONE' } });
    assert.deepEqual(await config(org, 'u', ['d1']), [entry(org, 'd1', 'u', 'ALL', 'NONE')]);
    await t.a.ok(PATHS.notificationsConfigSet, { ...base, config: { inbox: 'MINE', email: null } });
    assert.deepEqual(await config(org, 'u', ['d1']), [entry(org, 'd1', 'u', 'MINE', 'NONE')]);
  });

  test('get answers a document asked twice once, in the order first asked; set tolerates repeats', async () => {
    const org = orgId('cfg-dup');
    const r = await t.a.ok(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: ['d1', 'd1', 'd2'],
      userIds: ['u', 'u'],
      config: { inbox: 'NONE' },
    });
    assert.deepEqual(r.data, { u: { success: true, userId: 'u', documentId: 'd2', message: 'User config set successfully.' } });
    assert.deepEqual(await config(org, 'u', ['d3', 'd1', 'd3', 'd2', 'd1']), [
      entry(org, 'd3', 'u', 'MINE', 'MINE'),
      entry(org, 'd1', 'u', 'NONE', 'MINE'),
      entry(org, 'd2', 'u', 'NONE', 'MINE'),
    ]);
  });

  test('settings need no profile, and are per organization', async () => {
    const a = orgId('cfg-org-a');
    const b = orgId('cfg-org-b');
    await t.a.ok(PATHS.notificationsConfigSet, {
      organizationId: a,
      documentIds: ['d'],
      userIds: ['ghost'],
      config: { inbox: 'ALL' },
    });
    assert.deepEqual(await config(a, 'ghost', ['d']), [entry(a, 'd', 'ghost', 'ALL', 'MINE')]);
    assert.deepEqual(await config(b, 'ghost', ['d']), [entry(b, 'd', 'ghost', 'MINE', 'MINE')]);
    const r = await t.a.ok(PATHS.usersUpdate, { organizationId: a, users: [{ userId: 'ghost' }] });
    assert.equal(r.data.ghost.success, false, 'setting a config creates no profile');
  });
});

describe('exact paging over a mixed inbox', () => {
  let p: TestApp;
  let pnow = T0;
  const org = 'org-mixed-paging';
  /** Every notification in the pager's inbox: [id, timestamp], in no order. */
  const inbox: [string, number][] = [];
  const wideIds = new Set<string>();
  const docOf = new Map<string, string>();
  const cmp = (x: [string, number], y: [string, number]) =>
    x[1] !== y[1] ? y[1] - x[1] : x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0;

  before(async () => {
    p = await makeTestApp({ clock: () => pnow });
    await p.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('pager'), user('other')] });
    // 25 addressed and 10 organization-wide, in 9 timestamp groups, so ties mix both kinds; notifications
    // for someone else sit between them.
    let i = 0;
    const base = ['a', 'B', 'c', 'D', 'e', '_', '-', 'z', '0', 'Zz'];
    for (let k = 0; k < 35; k++) {
      pnow = T0 + Math.floor(k / 4) * 100;
      const isWide = k % 7 === 3 || k % 5 === 1;
      const id = `${base[k % base.length]}${String(35 - k).padStart(2, '0')}`;
      if (isWide && wideIds.size < 10) {
        await p.a.ok(
          PATHS.notificationsAdd,
          notificationData(org, { notificationId: id, notifyUsers: undefined, documentId: `d${k % 2}` }),
        );
        wideIds.add(id);
      } else {
        const also = k % 3 === 0 ? [{ userId: 'other' }] : [];
        await p.a.ok(
          PATHS.notificationsAdd,
          notificationData(org, { notificationId: id, notifyUsers: [...also, { userId: 'pager' }], documentId: `d${k % 2}` }),
        );
      }
      inbox.push([id, pnow]);
      docOf.set(id, `d${k % 2}`);
      await p.a.ok(
        PATHS.notificationsAdd,
        notificationData(org, { notificationId: `not-mine-${i++}`, notifyUsers: [{ userId: 'other' }] }),
      );
    }
    inbox.sort(cmp);
  });
  after(async () => {
    await p.close();
  });

  async function walk(filter: Record<string, unknown>, pageSize: number): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    for (let guard = 0; guard < 200; guard++) {
      const r = await p.a.post(PATHS.notificationsGet, {
        organizationId: org,
        userId: 'pager',
        ...filter,
        pageSize,
        ...(token ? { pageToken: token } : {}),
      });
      assert.equal(r.status, 200, r.body);
      const { data, pageToken } = r.json.result;
      assert.ok(data.length <= pageSize, r.body);
      out.push(...idsOf(data));
      if (pageToken === undefined) return out;
      assert.equal(data.length, pageSize, `a page before a token is full: ${r.body.slice(0, 300)}`);
      token = pageToken;
    }
    assert.fail('paging did not end');
  }

  test('the inbox has 25 addressed and 10 organization-wide notifications, in (timestamp desc, id desc) order', async () => {
    assert.equal(inbox.length, 35);
    assert.equal(wideIds.size, 10);
    const all = await p.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'pager' });
    assert.deepEqual(
      idsOf(all.data),
      inbox.map(([id]) => id),
    );
    assert.equal(all.pageToken, undefined);
  });

  for (let size = 1; size <= 7; size++) {
    test(`pageSize ${size}: every entry exactly once, in order; also with a documentId`, async () => {
      assert.deepEqual(
        await walk({}, size),
        inbox.map(([id]) => id),
        `pageSize ${size}`,
      );
      const d1 = inbox.map(([id]) => id).filter((id) => docOf.get(id) === 'd1');
      assert.ok(d1.length > 10);
      assert.deepEqual(await walk({ documentId: 'd1' }, size), d1, `d1, pageSize ${size}`);
    });
  }

  test('after reads of both kinds, unread true and false page exactly too', async () => {
    // Read every third entry (addressed and organization-wide alike) by ids, and one more through update.
    const read = inbox.filter((_, i) => i % 3 === 1).map(([id]) => id);
    const viaUpdate = inbox[0]![0];
    const r = await p.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'pager', notificationIds: read });
    assert.equal(r.data.read, read.length);
    await p.a.ok(PATHS.notificationsUpdate, {
      organizationId: org,
      notifications: [{ id: viaUpdate, readByUserIds: ['pager'] }],
    });
    const readSet = new Set([...read, viaUpdate]);
    assert.ok([...readSet].some((id) => wideIds.has(id)) && [...readSet].some((id) => !wideIds.has(id)), 'both kinds read');
    const unread = inbox.map(([id]) => id).filter((id) => !readSet.has(id));
    const seen = inbox.map(([id]) => id).filter((id) => readSet.has(id));
    for (let size = 1; size <= 7; size++) {
      assert.deepEqual(await walk({ unread: true }, size), unread, `unread, pageSize ${size}`);
      assert.deepEqual(await walk({ unread: false }, size), seen, `read, pageSize ${size}`);
    }
    const c = await p.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'pager' });
    assert.deepEqual(c.data, { total: 35, unread: unread.length });
  });
});
