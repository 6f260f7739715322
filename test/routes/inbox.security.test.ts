// The inbox operations across credentials and tenants (docs/api.md, "Wire format", "Credentials",
// "Identifiers and limits", "What always holds" and "Notifications"): 401 before 400 on every new operation, tenant
// b naming tenant a's organization, notification, user and document ids reads, counts, changes, marks and deletes
// nothing of a's, hostile ids are plain strings that come back as sent, and no error message says anything
// internal.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, notificationData, PATHS, T0, user, type Caller, type TestApp } from '../helpers/app.js';
import {
  assertNoLeak,
  BAD_CREDENTIALS,
  badCredentialCases,
  expectBadCredentials,
  expectMissingCredentials,
  raw,
} from '../helpers/security.js';

let t: TestApp;
let now = T0;

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;
const js = (x: unknown) => String(JSON.stringify(x)).slice(0, 800);

/** The six operations of the inbox beyond notifications/add and get. */
const INBOX_OPS = [
  PATHS.notificationsUpdate,
  PATHS.notificationsDelete,
  PATHS.notificationsCount,
  PATHS.notificationsRead,
  PATHS.notificationsConfigGet,
  PATHS.notificationsConfigSet,
] as const;

/** A request of each operation that would change or show something of `org` (doc d1, users r1, r2, m). */
function dataFor(path: string, org: string): Record<string, unknown> {
  switch (path) {
    case PATHS.notificationsUpdate:
      return {
        organizationId: org,
        notifications: [
          { id: 'n1', readByUserIds: ['r1', 'm'], displayBodyMessage: 'pwned', actionUser: { userId: 'intruder' } },
          { id: 'w1', readByUserIds: ['m'], unreadByUserIds: ['r2'], notificationSourceData: { pwned: true } },
        ],
      };
    case PATHS.notificationsDelete:
      return { organizationId: org, documentId: 'd1' };
    case PATHS.notificationsCount:
      return { organizationId: org, userId: 'r1' };
    case PATHS.notificationsRead:
      return { organizationId: org, userId: 'm' };
    case PATHS.notificationsConfigGet:
      return { organizationId: org, userId: 'r1', documentIds: ['d1'] };
    case PATHS.notificationsConfigSet:
      return { organizationId: org, userIds: ['r1', 'm'], documentIds: ['d1'], config: { inbox: 'NONE', email: 'NONE' } };
    default:
      throw new Error(path);
  }
}

/**
 * In `org` of `caller`: members m and r1; n1 (d1, L1, to r1 and r2), n2 (d1, to r2), w1 (organization-wide,
 * d1), n3 (no document, to r1); r2 has read n2, m has read w1; r1 has settings for d1.
 */
async function fixture(caller: Caller = t.a, org = uniq('org')): Promise<string> {
  const mark = caller === t.a ? 'a' : 'b';
  await caller.ok(PATHS.usersAdd, { organizationId: org, users: [user('m'), user('r1', { name: `${mark} r1` })] });
  const add = async (over: Record<string, unknown>) => {
    now += 1;
    await caller.ok(PATHS.notificationsAdd, notificationData(org, { displayBodyMessage: `secret of ${mark}`, ...over }));
  };
  await add({ notificationId: 'n1', documentId: 'd1', locationId: 'L1', notifyUsers: [user('r1'), user('r2')] });
  await add({ notificationId: 'n2', documentId: 'd1', notifyUsers: [user('r2')] });
  await add({ notificationId: 'w1', documentId: 'd1', notifyUsers: undefined });
  await add({ notificationId: 'n3', documentId: null, notifyUsers: [user('r1')] });
  await caller.ok(PATHS.notificationsUpdate, {
    organizationId: org,
    notifications: [
      { id: 'n2', readByUserIds: ['r2'] },
      { id: 'w1', readByUserIds: ['m'] },
    ],
  });
  await caller.ok(PATHS.notificationsConfigSet, {
    organizationId: org,
    documentIds: ['d1'],
    userIds: ['r1'],
    config: { inbox: 'ALL', email: 'NONE' },
  });
  return org;
}

/** Everything of `org` a caller can see through the inbox operations. */
async function state(org: string, caller: Caller = t.a) {
  const out: Record<string, unknown> = {};
  for (const [label, filter] of [
    ['doc', { documentId: 'd1' }],
    ['r1', { userId: 'r1' }],
    ['r2', { userId: 'r2' }],
    ['m', { userId: 'm' }],
    ['m unread', { userId: 'm', unread: true }],
    ['r2 read', { userId: 'r2', unread: false }],
  ] as const) {
    out[label] = (await caller.ok(PATHS.notificationsGet, { organizationId: org, ...filter })).data;
  }
  for (const userId of ['r1', 'r2', 'm']) {
    out[`count ${userId}`] = (await caller.ok(PATHS.notificationsCount, { organizationId: org, userId })).data;
    out[`count ${userId} d1`] = (
      await caller.ok(PATHS.notificationsCount, { organizationId: org, userId, documentId: 'd1' })
    ).data;
    out[`config ${userId}`] = (
      await caller.ok(PATHS.notificationsConfigGet, { organizationId: org, userId, documentIds: ['d1', 'd2'] })
    ).data;
  }
  return out;
}

describe('inbox operations: security', () => {
  before(async () => {
    t = await makeTestApp({ clock: () => now });
  });
  after(async () => {
    await t.close();
  });

  // ---- credentials: 401 before 400 ----

  test('missing credential headers: 401 naming the header, for every new operation, even with a garbage body', async () => {
    const org = await fixture();
    const before = await state(org);
    for (const path of INBOX_OPS) {
      for (const body of [{ data: dataFor(path, org) }, '{{{not json', '', { data: 'garbage' }, '[1,2]', { data: {} }]) {
        await expectMissingCredentials(t, path, body);
        const emptyKey = await raw(t, path, { 'x-service-api-key': '', 'x-service-auth-token': t.a.creds.authToken }, body);
        expectError(emptyKey, 401, 'UNAUTHENTICATED', `${path} empty key`);
        const emptyToken = await raw(t, path, { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': '' }, body);
        expectError(emptyToken, 401, 'UNAUTHENTICATED', `${path} empty token`);
      }
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('wrong or mismatched credentials: the one 401 message, before the body is looked at; nothing changed', async () => {
    const org = await fixture();
    const before = await state(org);
    for (const path of INBOX_OPS) {
      for (const [label, headers] of badCredentialCases(t)) {
        await expectBadCredentials(t, path, label, headers, { data: dataFor(path, org) });
        const invalid = await raw(t, path, headers, {
          data: { organizationId: 5, notifications: [], documentIds: 'x', config: {} },
        });
        assert.equal(expectError(invalid, 401, 'UNAUTHENTICATED', `${path} ${label} invalid data`), BAD_CREDENTIALS);
      }
    }
    assert.deepEqual(await state(org), before, 'nothing changed by any refused request');
  });

  test('credential header names are case-insensitive on the new operations', async () => {
    const org = await fixture();
    const r = await raw(
      t,
      PATHS.notificationsCount,
      { 'X-Service-Api-Key': t.a.creds.apiKey, 'X-SERVICE-AUTH-TOKEN': t.a.creds.authToken },
      { data: dataFor(PATHS.notificationsCount, org) },
    );
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json.result.data, { total: 3, unread: 3 });
  });

  // ---- tenant isolation ----

  test("isolation: b naming a's organization, users and documents reads and counts nothing; sees default settings", async () => {
    const org = await fixture();
    for (const filter of [
      { documentId: 'd1' },
      { userId: 'r1' },
      { userId: 'm' },
      { userId: 'm', unread: true },
      { userId: 'r2', unread: false },
      { userId: 'r1', documentId: 'd1', locationId: 'L1', notificationIds: ['n1', 'n2', 'w1', 'n3'] },
    ]) {
      const r = await t.b.ok(PATHS.notificationsGet, { organizationId: org, ...filter, pageSize: 1 });
      assert.deepEqual(r.data, [], `b with ${js(filter)}: ${js(r)}`);
      assert.equal(r.pageToken, undefined);
    }
    for (const userId of ['r1', 'r2', 'm']) {
      for (const documentId of [undefined, 'd1']) {
        const r = await t.b.ok(PATHS.notificationsCount, { organizationId: org, userId, documentId });
        assert.deepEqual(r.data, { total: 0, unread: 0 }, `${userId} ${documentId}`);
      }
    }
    const cfg = await t.b.ok(PATHS.notificationsConfigGet, { organizationId: org, userId: 'r1', documentIds: ['d1'] });
    assert.deepEqual(cfg.data, [
      {
        config: { inbox: 'MINE', email: 'MINE' },
        metadata: { organizationId: org, documentId: 'd1', userId: 'r1', apiKey: t.b.creds.apiKey },
      },
    ]);
  });

  test("isolation: b cannot update, mark read, delete or set a's; a sees everything as it was", async () => {
    const org = await fixture();
    const before = await state(org);
    const upd = await t.b.ok(PATHS.notificationsUpdate, dataFor(PATHS.notificationsUpdate, org));
    assert.deepEqual(upd.data, {
      n1: { success: false, message: 'Failed to update notification.' },
      w1: { success: false, message: 'Failed to update notification.' },
    });
    for (const userId of ['r1', 'r2', 'm']) {
      assert.deepEqual((await t.b.ok(PATHS.notificationsRead, { organizationId: org, userId })).data, { read: 0 });
      const byIds = await t.b.ok(PATHS.notificationsRead, {
        organizationId: org,
        userId,
        notificationIds: ['n1', 'n2', 'w1', 'n3'],
      });
      assert.deepEqual(byIds.data, { read: 0 });
      const byDoc = await t.b.ok(PATHS.notificationsRead, { organizationId: org, userId, documentId: 'd1' });
      assert.deepEqual(byDoc.data, { read: 0 });
    }
    const delIds = await t.b.ok(PATHS.notificationsDelete, { organizationId: org, notificationIds: ['n1', 'w1', 'n3'] });
    assert.deepEqual(delIds.data, {
      n1: { success: false, message: 'Failed to delete notification.' },
      w1: { success: false, message: 'Failed to delete notification.' },
      n3: { success: false, message: 'Failed to delete notification.' },
    });
    for (const filter of [
      { documentId: 'd1' },
      { locationId: 'L1' },
      { userId: 'r1' },
      { userId: 'm' },
      { userId: 'r2', documentId: 'd1' },
    ]) {
      const r = await t.b.ok(PATHS.notificationsDelete, { organizationId: org, ...filter });
      assert.deepEqual(r.data, {}, `b delete ${js(filter)}: ${js(r)}`);
    }
    await t.b.ok(PATHS.notificationsConfigSet, dataFor(PATHS.notificationsConfigSet, org));
    assert.deepEqual(await state(org), before, 'a sees its inbox exactly as before');
  });

  test('isolation: the same ids in two tenants are two inboxes; each tenant changes only its own', async () => {
    const org = uniq('org');
    await fixture(t.a, org);
    await fixture(t.b, org);
    const aBefore = await state(org, t.a);
    // b reads, changes, sets and finally deletes everything of its own.
    await t.b.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1' });
    await t.b.ok(PATHS.notificationsRead, { organizationId: org, userId: 'm' });
    await t.b.ok(PATHS.notificationsUpdate, dataFor(PATHS.notificationsUpdate, org));
    await t.b.ok(PATHS.notificationsConfigSet, dataFor(PATHS.notificationsConfigSet, org));
    assert.deepEqual((await t.b.ok(PATHS.notificationsCount, { organizationId: org, userId: 'r1' })).data, {
      total: 3,
      unread: 0,
    });
    assert.deepEqual(await state(org, t.a), aBefore, "b's writes on its own inbox leave a's alone");
    const bDel = await t.b.ok(PATHS.notificationsDelete, { organizationId: org, notificationIds: ['n1', 'n2', 'w1', 'n3'] });
    assert.ok(
      Object.values(bDel.data).every((e: any) => e.success === true),
      js(bDel),
    );
    assert.deepEqual(await state(org, t.a), aBefore, "b deleting all of its notifications leaves a's");
    // And the other way round.
    await fixture(t.b, org);
    const bBefore = await state(org, t.b);
    await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r2' });
    await t.a.ok(PATHS.notificationsDelete, { organizationId: org, documentId: 'd1' });
    await t.a.ok(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: ['d1', 'd2'],
      userIds: ['r1', 'r2', 'm'],
      config: { inbox: 'NONE' },
    });
    assert.deepEqual(await state(org, t.b), bBefore, "a's writes leave b's inbox alone");
  });

  test("isolation: b's profiles do not make a user a member of a's organization", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: 'wide', notifyUsers: undefined }));
    await t.b.ok(PATHS.usersAdd, { organizationId: org, users: [user('only-in-b')] });
    assert.deepEqual((await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'only-in-b' })).data, []);
    assert.deepEqual((await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'only-in-b' })).data, {
      total: 0,
      unread: 0,
    });
    assert.deepEqual((await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'only-in-b' })).data, { read: 0 });
    const upd = await t.a.ok(PATHS.notificationsUpdate, {
      organizationId: org,
      notifications: [{ id: 'wide', readByUserIds: ['only-in-b'] }],
    });
    assert.equal(upd.data.wide.success, true);
    const [n] = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1' })).data;
    assert.deepEqual(n.notifyUsersByUserId, {}, 'no read mark for a non-member');
  });

  test("isolation: a's unread page token gives b nothing of a's", async () => {
    const org = await fixture();
    await fixture(t.b, org);
    const aFirst = await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'r1', unread: true, pageSize: 1 });
    assert.equal(typeof aFirst.pageToken, 'string', js(aFirst));
    const r = await t.b.post(PATHS.notificationsGet, {
      organizationId: org,
      userId: 'r1',
      unread: true,
      pageSize: 10,
      pageToken: aFirst.pageToken,
    });
    if (r.status === 200) {
      for (const n of r.json.result.data) assert.equal(n.metadata.apiKey, t.b.creds.apiKey, r.body);
      assert.ok(!r.body.includes('secret of a'), r.body);
    } else {
      expectError(r, 400, 'INVALID_ARGUMENT', 'a foreign token may be refused');
    }
  });

  // ---- hostile ids ----

  const HOSTILE_USERS = [
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'prototype',
    "o'brien",
    'say "hi"',
    'back\\slash',
    'ü/ß',
    '😀 emoji',
    'a.b c',
    '%',
    '_',
    "' OR '1'='1",
    '$where',
    '[0]',
  ];

  test('hostile user ids as recipients, members and readers round-trip in maps, filters, counts and marks', async () => {
    const org = uniq('org-hostile-users');
    const half = HOSTILE_USERS.slice(0, 8);
    const rest = HOSTILE_USERS.slice(8);
    const members = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: rest.map((userId) => ({ userId })) });
    for (const u of rest) assert.equal(members.data[u]?.success, true, `${u}: ${js(members)}`);
    now += 1;
    await t.a.ok(
      PATHS.notificationsAdd,
      notificationData(org, { notificationId: 'listed', notifyUsers: half.map((userId) => ({ userId })) }),
    );
    now += 1;
    await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: 'wide', notifyUsers: undefined }));
    const upd = await t.a.ok(PATHS.notificationsUpdate, {
      organizationId: org,
      notifications: [
        { id: 'listed', readByUserIds: half.slice(0, 4) },
        { id: 'wide', readByUserIds: rest.slice(0, 4) },
      ],
    });
    assert.deepEqual(Object.keys(upd.data), ['listed', 'wide']);
    const r = await t.a.post(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1' });
    assert.equal(r.status, 200, r.body);
    const [wide, listed] = r.json.result.data;
    assert.deepEqual(
      Object.entries(listed.notifyUsersByUserId),
      half.map((u, i) => [u, i >= 4]),
      r.body,
    );
    assert.equal(Object.hasOwn(listed.notifyUsersByUserId, '__proto__'), true, 'an own key, as sent');
    assert.equal(Object.keys(listed.notifyUsers).length, half.length);
    assert.deepEqual(
      Object.entries(wide.notifyUsersByUserId),
      [...rest.slice(0, 4)].sort().map((u) => [u, false]),
      r.body,
    );
    for (const u of half) {
      const mine = await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: u });
      assert.deepEqual(
        mine.data.map((n: any) => n.id),
        ['listed'],
        `userId ${JSON.stringify(u)}`,
      );
      const c = await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: u });
      assert.deepEqual(c.data, { total: 1, unread: half.indexOf(u) >= 4 ? 1 : 0 }, u);
    }
    for (const u of rest) {
      const mine = await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: u, unread: true });
      assert.deepEqual(
        mine.data.map((n: any) => n.id),
        rest.indexOf(u) >= 4 ? ['wide'] : [],
        `userId ${JSON.stringify(u)}`,
      );
      const read = await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: u });
      assert.deepEqual(read.data, { read: rest.indexOf(u) >= 4 ? 1 : 0 }, u);
    }
    // Similar-looking ids are other users: nothing leaks between them.
    for (const u of ['__PROTO__', 'Constructor', "o'brien ", '%%', 'a', '']) {
      if (u === '') continue;
      const c = await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: u });
      assert.deepEqual(c.data, { total: 0, unread: 0 }, JSON.stringify(u));
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('hostile notification ids: valid ones round-trip as keys; any other string is a plain unknown id', async () => {
    const org = uniq('org-hostile-ids');
    const valid = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '_', '-'];
    for (const id of valid) {
      now += 1;
      await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: id }));
    }
    const strange = ["n' OR '1'='1", 'a"b', '%', '😀', 'ü', '__proto__ ', 'CONSTRUCTOR', '\\', '#{x}', '[object Object]'];
    const asked = [...valid, ...strange];
    const upd = await t.a.post(PATHS.notificationsUpdate, {
      organizationId: org,
      notifications: asked.map((id) => ({ id, displayBodyMessage: `body of ${id}` })),
    });
    assert.equal(upd.status, 200, upd.body);
    assert.deepEqual(Object.keys(upd.json.result.data), asked, upd.body);
    for (const id of valid) assert.deepEqual(upd.json.result.data[id], { success: true, message: 'Notification updated.' }, id);
    for (const id of strange) {
      assert.deepEqual(upd.json.result.data[id], { success: false, message: 'Failed to update notification.' }, id);
    }
    const list = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1' })).data as any[];
    assert.deepEqual(
      list.map((n) => [n.id, n.displayBodyMessage]),
      [...valid].reverse().map((id) => [id, `body of ${id}`]),
    );
    assert.deepEqual(
      (await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1', notificationIds: strange })).data,
      { read: 0 },
    );
    assert.deepEqual(
      (
        await t.a.ok(PATHS.notificationsRead, {
          organizationId: org,
          userId: 'r1',
          notificationIds: ['__proto__', 'constructor'],
        })
      ).data,
      { read: 2 },
    );
    const del = await t.a.post(PATHS.notificationsDelete, { organizationId: org, notificationIds: [...strange, '__proto__'] });
    assert.equal(del.status, 200, del.body);
    assert.deepEqual(Object.keys(del.json.result.data), [...strange, '__proto__'], del.body);
    assert.deepEqual(Object.getOwnPropertyDescriptor(del.json.result.data, '__proto__')?.value, {
      success: true,
      message: 'Notification deleted.',
    });
    assert.equal(Object.hasOwn(del.json.result.data, '__proto__'), true);
    for (const id of strange) assert.equal(del.json.result.data[id].success, false, id);
    const left = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1' })).data.map((n: any) => n.id);
    assert.deepEqual(
      left,
      [...valid].reverse().filter((id) => id !== '__proto__'),
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('notificationIds filters take any string: long ones simply match nothing', async () => {
    const org = uniq('org-long-ids');
    now += 1;
    await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: 'real' }));
    const long = 'x'.repeat(2000);
    const read = await t.a.post(PATHS.notificationsRead, {
      organizationId: org,
      userId: 'r1',
      notificationIds: [long, '', 'real'],
    });
    assert.equal(read.status, 200, read.body);
    assert.deepEqual(read.json.result.data, { read: 1 });
    const del = await t.a.post(PATHS.notificationsDelete, { organizationId: org, notificationIds: [long, '', 'real'] });
    assert.equal(del.status, 200, del.body);
    assert.deepEqual(del.json.result.data, {
      [long]: { success: false, message: 'Failed to delete notification.' },
      '': { success: false, message: 'Failed to delete notification.' },
      real: { success: true, message: 'Notification deleted.' },
    });
  });

  test('hostile document and user ids in settings, counts and reads round-trip in answers and metadata', async () => {
    const org = uniq('org-hostile-docs');
    const docs = ['__proto__', 'constructor', "d' OR 1=1 --", 'a"b', 'ü/ß', '😀', '%', '_'];
    const users = ['__proto__', 'constructor', 'ü', '"quoted"'];
    const set = await t.a.post(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: docs,
      userIds: users,
      config: { inbox: 'ALL' },
    });
    assert.equal(set.status, 200, set.body);
    assert.deepEqual(Object.keys(set.json.result.data), users, set.body);
    for (const u of users) {
      assert.deepEqual(set.json.result.data[u], {
        success: true,
        userId: u,
        documentId: docs[docs.length - 1],
        message: 'User config set successfully.',
      });
    }
    for (const u of users) {
      const got = await t.a.ok(PATHS.notificationsConfigGet, { organizationId: org, userId: u, documentIds: [...docs, 'plain'] });
      assert.deepEqual(
        got.data,
        [...docs, 'plain'].map((documentId) => ({
          config: { inbox: documentId === 'plain' ? 'MINE' : 'ALL', email: 'MINE' },
          metadata: { organizationId: org, documentId, userId: u, apiKey: t.a.creds.apiKey },
        })),
        u,
      );
    }
    // Notifications in those documents, for those users.
    for (const documentId of docs) {
      now += 1;
      await t.a.ok(
        PATHS.notificationsAdd,
        notificationData(org, { documentId, notifyUsers: users.map((userId) => ({ userId })) }),
      );
    }
    for (const documentId of docs) {
      const c = await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: '__proto__', documentId });
      assert.deepEqual(c.data, { total: 1, unread: 1 }, documentId);
      const [n] = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId })).data;
      assert.equal(n.metadata.documentId, documentId);
      assert.deepEqual(Object.keys(n.notifyUsersByUserId), users);
    }
    for (const documentId of ['__PROTO__', 'd', '%%', '*']) {
      const c = await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: '__proto__', documentId });
      assert.deepEqual(c.data, { total: 0, unread: 0 }, documentId);
    }
    const read = await t.a.ok(PATHS.notificationsRead, {
      organizationId: org,
      userId: 'constructor',
      documentId: "d' OR 1=1 --",
    });
    assert.deepEqual(read.data, { read: 1 });
    assert.deepEqual((await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'constructor' })).data, {
      total: docs.length,
      unread: docs.length - 1,
    });
    const del = await t.a.ok(PATHS.notificationsDelete, { organizationId: org, documentId: '%' });
    assert.equal(Object.keys(del.data).length, 1, js(del));
    assert.deepEqual((await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'ü' })).data, {
      total: docs.length - 1,
      unread: docs.length - 1,
    });
  });

  // ---- what errors say ----

  test('error messages leak no SQL, stack or driver, whatever the input', async () => {
    const org = await fixture();
    const bad: [string, unknown][] = [
      [
        PATHS.notificationsUpdate,
        { organizationId: org, notifications: [{ id: "x'; DROP TABLE notifications; --", displayBodyMessage: 1 }] },
      ],
      [
        PATHS.notificationsUpdate,
        { organizationId: org, notifications: [{ id: 'n1', readByUserIds: ['r1'], unreadByUserIds: ['r1'] }] },
      ],
      [PATHS.notificationsUpdate, { organizationId: org, notifications: 'SELECT * FROM notifications' }],
      [PATHS.notificationsDelete, { organizationId: org }],
      [PATHS.notificationsDelete, { organizationId: org, notificationIds: [{ $gt: '' }] }],
      [PATHS.notificationsDelete, { organizationId: org, documentId: 'x'.repeat(100_000) }],
      [PATHS.notificationsCount, { organizationId: org, userId: ["' OR 1=1"] }],
      [PATHS.notificationsRead, { organizationId: org, userId: 'r1', notificationIds: Array.from({ length: 5000 }, () => 'x') }],
      [PATHS.notificationsConfigGet, { organizationId: org, userId: 'r1', documentIds: [] }],
      [PATHS.notificationsConfigSet, { organizationId: org, userIds: ['r1'], documentIds: ['d1'], config: { inbox: "ALL' --" } }],
      [
        PATHS.notificationsConfigSet,
        { organizationId: org, userIds: ['r1'], documentIds: ['d1'], config: { inbox: 'ALL', email: { $ne: 1 } } },
      ],
      [PATHS.notificationsGet, { organizationId: org, documentId: 'd1', unread: true }],
      [PATHS.notificationsGet, { organizationId: org, userId: 'r1', unread: true, pageToken: "' UNION SELECT 1 --" }],
    ];
    for (const [path, data] of bad) {
      const r = await t.a.post(path, data);
      assertNoLeak(r, `${path} ${js(data).slice(0, 100)}`);
      expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${js(data).slice(0, 100)}`);
    }
    // Odd but valid input answers 200 and leaks nothing either; a NUL character is refused plainly.
    for (const path of INBOX_OPS) {
      const odd = JSON.parse(JSON.stringify(dataFor(path, org)).replaceAll('"d1"', '"\\ud83d\\ude00 \\u00fc\\t"'));
      const r = await t.a.post(path, odd);
      assertNoLeak(r, path);
      assert.equal(r.status, 200, `${path}: ${r.body}`);
      const nul = await t.a.post(path, { ...dataFor(path, org), organizationId: `${org}\u0000` });
      assertNoLeak(nul, `${path} NUL`);
      expectError(nul, 400, 'INVALID_ARGUMENT', `${path} NUL`);
    }
  });
});
