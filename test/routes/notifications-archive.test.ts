// A user's archive of notifications (docs/api.md, "POST /v1/notifications/archive", "POST /v1/notifications/unarchive"
// and the `archived` member of notifications/get and count/get; docs/decisions.md, "Per-recipient archive (issue 40)"):
// happy paths on /v1 and /v2 for listed and organization-wide notifications, archive of everything read, read marks
// and deletes of archived ones, the export and erasure of a user's archive, an organization's deletion; errors; and
// isolation (another tenant, user, organization; end users). After each step count/get agrees with notifications/get
// for every `archived` filter. Runs on the configured database (SQLite, or PostgreSQL in its pass).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type Caller,
  expectError,
  makeTestApp,
  notificationData,
  PATHS,
  type Reply,
  T0,
  type TestApp,
  user,
  v2,
} from '../helpers/app.js';

let t: TestApp;
let now = T0;
before(async () => {
  t = await makeTestApp({ clock: () => now, config: { endUserRateLimit: 0 } });
});
after(async () => t.close());

const P = PATHS;
let seq = 0;
const orgId = (label: string) => `org-archive-${label}-${++seq}`;

/** notifications/add of `id` in document `doc` (null: none) to the users listed (none: organization-wide). */
async function add(org: string, id: string, listed: string[], doc: string | null = 'doc-1', c: Caller = t.a) {
  now += 1;
  await c.ok(P.notificationsAdd, {
    ...notificationData(org, { notificationId: id, documentId: doc }),
    notifyUsers: listed.length > 0 ? listed.map((u) => user(u)) : undefined,
  });
}

const archive = async (org: string, userId: string, what: string[] | 'allRead', c: Caller = t.a, path = P.notificationsArchive) =>
  (await c.ok(path, { organizationId: org, userId, ...(what === 'allRead' ? { allRead: true } : { notificationIds: what }) }))
    .data.archived as number;
const unarchive = async (org: string, userId: string, ids: string[], c: Caller = t.a, path = P.notificationsUnarchive) =>
  (await c.ok(path, { organizationId: org, userId, notificationIds: ids })).data.unarchived as number;

type Archived = boolean | null | undefined;
const filter = (archived: Archived) => (archived === undefined ? {} : { archived });

async function ids(org: string, userId: string, archived: Archived, extra: Record<string, unknown> = {}, c = t.a) {
  const r = await c.ok(P.notificationsGet, { organizationId: org, userId, ...filter(archived), ...extra });
  return (r.data as any[]).map((n) => n.id as string);
}

/**
 * The user's notifications for each `archived` (absent, true, null), with and without the document, and that
 * count/get agrees with them; answers the ids for absent, true and null (all documents).
 */
async function inbox(org: string, userId: string, c: Caller = t.a): Promise<[string[], string[], string[]]> {
  const seen: string[][] = [];
  for (const archived of [undefined, true, null] as const) {
    for (const doc of [{}, { documentId: 'doc-1' }]) {
      const all = await ids(org, userId, archived, doc, c);
      const unread = await ids(org, userId, archived, { ...doc, unread: true }, c);
      const count = await c.ok(P.notificationsCount, { organizationId: org, userId, ...filter(archived), ...doc });
      assert.deepEqual(
        count.data,
        { total: all.length, unread: unread.length },
        `${userId} archived ${archived} ${JSON.stringify(doc)}`,
      );
      if (!('documentId' in doc)) seen.push(all);
    }
  }
  return seen as [string[], string[], string[]];
}

describe('notifications/archive and unarchive: listed recipients', () => {
  test('archives for one recipient only; get and count/get hide, show only or show both', async () => {
    const org = orgId('listed');
    await add(org, 'n1', ['r1', 'r2']);
    await add(org, 'n2', ['r1'], 'doc-2');
    assert.equal(await archive(org, 'r1', ['n1']), 1);
    assert.deepEqual(await inbox(org, 'r1'), [['n2'], ['n1'], ['n2', 'n1']]);
    // r2's own inbox is untouched.
    assert.deepEqual(await inbox(org, 'r2'), [['n1'], [], ['n1']]);
    // By document, without a user: the document's notifications, archive or not.
    const byDoc = await t.a.ok(P.notificationsGet, { organizationId: org, documentId: 'doc-1' });
    assert.deepEqual(
      byDoc.data.map((n: any) => n.id),
      ['n1'],
    );
    // Again: nothing newly archived; an unknown id changes nothing and is no error.
    assert.equal(await archive(org, 'r1', ['n1', 'ghost']), 0);
    assert.equal(await unarchive(org, 'r1', ['n1', 'ghost']), 1);
    assert.equal(await unarchive(org, 'r1', ['n1']), 0);
    assert.deepEqual(await inbox(org, 'r1'), [['n2', 'n1'], [], ['n2', 'n1']]);
  });

  test('read and unread marks of an archived notification move the archived counts', async () => {
    const org = orgId('marks');
    await add(org, 'n1', ['r1']);
    await add(org, 'n2', ['r1']);
    assert.equal(await archive(org, 'r1', ['n1']), 1);
    const archivedCount = async () =>
      (await t.a.ok(P.notificationsCount, { organizationId: org, userId: 'r1', archived: true })).data;
    assert.deepEqual(await archivedCount(), { total: 1, unread: 1 });
    await t.a.ok(P.notificationsUpdate, { organizationId: org, notifications: [{ id: 'n1', readByUserIds: ['r1'] }] });
    assert.deepEqual(await archivedCount(), { total: 1, unread: 0 });
    await inbox(org, 'r1');
    await t.a.ok(P.notificationsUpdate, { organizationId: org, notifications: [{ id: 'n1', unreadByUserIds: ['r1'] }] });
    assert.deepEqual(await archivedCount(), { total: 1, unread: 1 });
    // notifications/read marks archived ones too (it names no archive filter).
    assert.equal((await t.a.ok(P.notificationsRead, { organizationId: org, userId: 'r1' })).data.read, 2);
    assert.deepEqual(await archivedCount(), { total: 1, unread: 0 });
    assert.deepEqual(await inbox(org, 'r1'), [['n2'], ['n1'], ['n2', 'n1']]);
  });

  test('allRead archives what the user has read, not what is unread, nor what others read', async () => {
    const org = orgId('all-read');
    await add(org, 'n1', ['r1', 'r2']);
    await add(org, 'n2', ['r1']);
    await add(org, 'n3', ['r1']);
    await t.a.ok(P.notificationsUpdate, {
      organizationId: org,
      notifications: [
        { id: 'n1', readByUserIds: ['r1', 'r2'] },
        { id: 'n3', readByUserIds: ['r1'] },
      ],
    });
    assert.equal(await archive(org, 'r1', 'allRead'), 2);
    assert.deepEqual(await inbox(org, 'r1'), [['n2'], ['n3', 'n1'], ['n3', 'n2', 'n1']]);
    assert.deepEqual(await inbox(org, 'r2'), [['n1'], [], ['n1']]);
    assert.equal(await archive(org, 'r1', 'allRead'), 0);
  });

  test('/v2 paths do the same; a page token of an archived read pages the same filter', async () => {
    const org = orgId('v2');
    for (const id of ['a', 'b', 'c']) await add(org, id, ['r1']);
    assert.equal(await archive(org, 'r1', ['a', 'b', 'c'], t.a, v2(P.notificationsArchive)), 3);
    const one = await t.a.ok(v2(P.notificationsGet), { organizationId: org, userId: 'r1', archived: true, pageSize: 2 });
    assert.deepEqual(
      one.data.map((n: any) => n.id),
      ['c', 'b'],
    );
    const two = await t.a.ok(v2(P.notificationsGet), {
      organizationId: org,
      userId: 'r1',
      archived: true,
      pageSize: 2,
      pageToken: one.pageToken,
    });
    assert.deepEqual(
      two.data.map((n: any) => n.id),
      ['a'],
    );
    // The token is bound to its filter: without archived it is refused.
    const r = await t.a.post(v2(P.notificationsGet), {
      organizationId: org,
      userId: 'r1',
      pageSize: 2,
      pageToken: one.pageToken,
    });
    expectError(r, 400, 'INVALID_ARGUMENT', 'token of another filter');
    const counted = await t.a.ok(v2(P.notificationsCount), { organizationId: org, userId: 'r1', archived: null });
    assert.deepEqual(counted.data, { total: 3, unread: 3 });
    assert.equal(await unarchive(org, 'r1', ['b'], t.a, v2(P.notificationsUnarchive)), 1);
    assert.deepEqual(await inbox(org, 'r1'), [['b'], ['c', 'a'], ['c', 'b', 'a']]);
  });
});

describe('notifications/archive: organization-wide notifications', () => {
  test('a member archives one for themself; read marks, allRead and unarchive keep the counts', async () => {
    const org = orgId('wide');
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('m1'), user('m2')] });
    await add(org, 'w1', []);
    await add(org, 'w2', [], 'doc-2');
    await add(org, 'w3', []);
    assert.equal(await archive(org, 'm1', ['w1']), 1);
    assert.deepEqual(await inbox(org, 'm1'), [['w3', 'w2'], ['w1'], ['w3', 'w2', 'w1']]);
    assert.deepEqual(await inbox(org, 'm2'), [['w3', 'w2', 'w1'], [], ['w3', 'w2', 'w1']]);
    // Read while archived, unread again, read again.
    assert.equal(
      (await t.a.ok(P.notificationsRead, { organizationId: org, userId: 'm1', notificationIds: ['w1'] })).data.read,
      1,
    );
    await inbox(org, 'm1');
    await t.a.ok(P.notificationsUpdate, { organizationId: org, notifications: [{ id: 'w1', unreadByUserIds: ['m1'] }] });
    await inbox(org, 'm1');
    await t.a.ok(P.notificationsUpdate, { organizationId: org, notifications: [{ id: 'w1', readByUserIds: ['m1'] }] });
    await t.a.ok(P.notificationsUpdate, { organizationId: org, notifications: [{ id: 'w2', readByUserIds: ['m1', 'm2'] }] });
    assert.equal(await archive(org, 'm1', 'allRead'), 1);
    assert.deepEqual(await inbox(org, 'm1'), [['w3'], ['w2', 'w1'], ['w3', 'w2', 'w1']]);
    const docCount = await t.a.ok(P.notificationsCount, {
      organizationId: org,
      userId: 'm1',
      documentId: 'doc-2',
      archived: true,
    });
    assert.deepEqual(docCount.data, { total: 1, unread: 0 });
    assert.equal(await unarchive(org, 'm1', ['w1', 'w3']), 1);
    assert.deepEqual(await inbox(org, 'm1'), [['w3', 'w1'], ['w2'], ['w3', 'w2', 'w1']]);
  });

  test('a non-member archives nothing of the organization-wide ones; a listed member archives their row', async () => {
    const org = orgId('wide-nonmember');
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('m1')] });
    await add(org, 'w1', []);
    assert.equal(await archive(org, 'stranger', ['w1']), 0);
    now += 1;
    await t.a.ok(P.notificationsAdd, {
      ...notificationData(org, { notificationId: 'w2' }),
      notifyUsers: [user('m1')],
      notifyAll: true,
    });
    assert.equal(await archive(org, 'm1', ['w1', 'w2']), 2);
    assert.deepEqual(await inbox(org, 'm1'), [[], ['w2', 'w1'], ['w2', 'w1']]);
  });
});

describe('notifications/archive: deletes, erasure, export, organization deletion', () => {
  test('deleting archived ones (by id, document, user) keeps the counts right; a new one of the same id is not archived', async () => {
    const org = orgId('delete');
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('m1')] });
    await add(org, 'w1', []);
    await add(org, 'n1', ['m1']);
    await add(org, 'n2', ['m1'], 'doc-2');
    await t.a.ok(P.notificationsRead, { organizationId: org, userId: 'm1', notificationIds: ['w1'] });
    assert.equal(await archive(org, 'm1', ['w1', 'n1', 'n2']), 3);
    await t.a.ok(P.notificationsDelete, { organizationId: org, notificationIds: ['w1'] });
    assert.deepEqual(await inbox(org, 'm1'), [[], ['n2', 'n1'], ['n2', 'n1']]);
    await t.a.ok(P.notificationsDelete, { organizationId: org, documentId: 'doc-1' });
    await t.a.ok(P.notificationsDelete, { organizationId: org, userId: 'm1' });
    assert.deepEqual(await inbox(org, 'm1'), [[], [], []]);
    await add(org, 'w1', []);
    await add(org, 'n1', ['m1']);
    assert.deepEqual(await inbox(org, 'm1'), [['n1', 'w1'], [], ['n1', 'w1']]);
  });

  test("documents/delete takes its notifications' archive with them; the organization's others stay archived", async () => {
    const org = orgId('document-delete');
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('m1')] });
    await add(org, 'w1', []);
    await add(org, 'w2', [], 'doc-2');
    await add(org, 'n1', ['m1']);
    await t.a.ok(P.notificationsRead, { organizationId: org, userId: 'm1', notificationIds: ['w1'] });
    assert.equal(await archive(org, 'm1', ['w1', 'w2', 'n1']), 3);
    await t.a.ok(P.documentsDelete, { organizationId: org, documentIds: ['doc-1'] });
    assert.deepEqual(await inbox(org, 'm1'), [[], ['w2'], ['w2']]);
    await add(org, 'w1', []);
    assert.deepEqual(await inbox(org, 'm1'), [['w1'], ['w2'], ['w1', 'w2']]);
  });

  test('users/data/get lists what the user archived; users/data/delete erases it', async () => {
    const org = orgId('erasure');
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('u'), user('v')] });
    await add(org, 'w1', []);
    await add(org, 'n1', ['u', 'v']);
    await add(org, 'n2', ['u']);
    assert.equal(await archive(org, 'u', ['w1', 'n1']), 2);
    assert.equal(await archive(org, 'v', ['w1']), 1);
    const exported = await t.a.ok(P.userDataGet, { organizationId: org, userId: 'u' });
    assert.deepEqual(exported.data.archivedNotificationIds, ['n1', 'w1']);
    const nothing = await t.a.ok(P.userDataGet, { organizationId: org, userId: 'nobody' });
    assert.equal(nothing.data.archivedNotificationIds, undefined, 'only where there are some');
    await t.a.ok(P.userDataDelete, { userIds: ['u'], organizationIds: [org] });
    assert.deepEqual(await inbox(org, 'u'), [[], [], []]);
    // Back as a member: the organization-wide one is theirs again, not archived.
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('u')] });
    assert.deepEqual(await inbox(org, 'u'), [['w1'], [], ['w1']]);
    // v keeps their archive.
    assert.deepEqual(await inbox(org, 'v'), [['n1'], ['w1'], ['n1', 'w1']]);
  });

  test('organizations/delete takes the archive with it', async () => {
    const org = orgId('org-delete');
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('m1')] });
    await add(org, 'w1', []);
    await add(org, 'n1', ['m1']);
    assert.equal(await archive(org, 'm1', ['w1', 'n1']), 2);
    await t.a.ok(P.organizationsDelete, { organizationIds: [org] });
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('m1')] });
    await add(org, 'w1', []);
    await add(org, 'n1', ['m1']);
    assert.deepEqual(await inbox(org, 'm1'), [['n1', 'w1'], [], ['n1', 'w1']]);
  });
});

describe('notifications/archive: errors', () => {
  test('one of notificationIds and allRead; lists bounded; archived a boolean or null, with a userId', async () => {
    const org = orgId('errors');
    const bad = async (path: string, data: Record<string, unknown>, what: string) =>
      expectError(await t.a.post(path, { organizationId: org, ...data }), 400, 'INVALID_ARGUMENT', what);
    await bad(P.notificationsArchive, { userId: 'r1' }, 'neither');
    await bad(P.notificationsArchive, { userId: 'r1', allRead: false }, 'allRead false alone');
    await bad(P.notificationsArchive, { userId: 'r1', notificationIds: ['n1'], allRead: true }, 'both');
    await bad(P.notificationsArchive, { userId: 'r1', notificationIds: [] }, 'empty list');
    await bad(P.notificationsArchive, { notificationIds: ['n1'] }, 'no userId');
    await bad(
      P.notificationsArchive,
      { userId: 'r1', notificationIds: Array.from({ length: 1001 }, (_, i) => `n${i}`) },
      'too many',
    );
    await bad(P.notificationsUnarchive, { userId: 'r1' }, 'unarchive without ids');
    await bad(P.notificationsUnarchive, { userId: 'r1', notificationIds: [] }, 'unarchive empty');
    await bad(P.notificationsGet, { userId: 'r1', archived: 'yes' }, 'archived a string');
    await bad(P.notificationsGet, { documentId: 'doc-1', archived: true }, 'archived without userId');
    await bad(P.notificationsCount, { userId: 'r1', archived: 1 }, 'count archived a number');
    await bad(v2(P.notificationsArchive), { userId: 'r1' }, 'v2 neither');
  });
});

describe('notifications/archive: isolation', () => {
  test('another tenant, another user, another organization change nothing', async () => {
    const org = orgId('isolation');
    const other = orgId('isolation-other');
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('m1')] });
    await add(org, 'n1', ['r1']);
    await add(org, 'w1', []);
    // Tenant b, same organization id and ids: its own (empty) organization.
    assert.equal(await archive(org, 'r1', ['n1'], t.b), 0);
    assert.equal(await archive(org, 'm1', ['w1'], t.b), 0);
    assert.equal(await archive(org, 'r1', 'allRead', t.b), 0);
    // Another user of the same organization: n1 does not list them.
    assert.equal(await archive(org, 'r2', ['n1']), 0);
    // Another organization of the same tenant, same ids.
    assert.equal(await archive(other, 'r1', ['n1']), 0);
    assert.equal(await unarchive(other, 'r1', ['n1']), 0);
    assert.deepEqual(await inbox(org, 'r1'), [['n1'], [], ['n1']]);
    assert.deepEqual(await inbox(org, 'm1'), [['w1'], [], ['w1']]);
    // a's archive is not b's.
    assert.equal(await archive(org, 'r1', ['n1']), 1);
    assert.deepEqual(await inbox(org, 'r1', t.b), [[], [], []]);
    assert.equal(await unarchive(org, 'r1', ['n1'], t.b), 0);
    assert.deepEqual(await inbox(org, 'r1'), [[], ['n1'], ['n1']]);
  });

  test('end users archive, unarchive and read only their own', async () => {
    const org = orgId('end-users');
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('ana'), user('bo')] });
    await add(org, 'n1', ['ana', 'bo']);
    await add(org, 'w1', []);
    const tokenOf = async (userId: string) =>
      (
        await t.a.ok(P.authTokenGet, {
          userId,
          userProperties: { organizationId: org, name: `Name ${userId}`, email: `${userId}@x.test` },
        })
      ).data.token as string;
    const ana = await tokenOf('ana');
    const as = (path: string, data: unknown): Promise<Reply> =>
      t.request(path, { body: { data }, headers: { authorization: `Bearer ${ana}` } });
    const okAs = async (path: string, data: unknown) => {
      const r = await as(path, data);
      assert.equal(r.status, 200, r.body.slice(0, 400));
      return r.json.result;
    };
    const denied = async (path: string, data: unknown, what: string) =>
      expectError(await as(path, data), 403, 'PERMISSION_DENIED', what);
    for (const path of [P.notificationsArchive, v2(P.notificationsArchive)]) {
      assert.equal(
        (await okAs(path, { organizationId: org, userId: 'ana', notificationIds: ['n1', 'w1'] })).data.archived,
        path === P.notificationsArchive ? 2 : 0,
      );
    }
    const mine = await okAs(P.notificationsGet, { organizationId: org, userId: 'ana', archived: true });
    assert.deepEqual(
      mine.data.map((n: any) => n.id),
      ['w1', 'n1'],
    );
    assert.deepEqual((await okAs(P.notificationsCount, { organizationId: org, userId: 'ana', archived: true })).data, {
      total: 2,
      unread: 2,
    });
    await denied(P.notificationsArchive, { organizationId: org, userId: 'bo', notificationIds: ['n1'] }, 'another user');
    await denied(
      P.notificationsUnarchive,
      { organizationId: org, userId: 'bo', notificationIds: ['n1'] },
      'unarchive another user',
    );
    await denied(v2(P.notificationsArchive), { organizationId: org, userId: 'bo', allRead: true }, 'v2 another user');
    await denied(P.notificationsGet, { organizationId: org, userId: 'bo', archived: true }, "another user's archive");
    await denied(
      P.notificationsArchive,
      { organizationId: orgId('elsewhere'), userId: 'ana', notificationIds: ['n1'] },
      'another organization',
    );
    // bo's inbox is untouched.
    assert.deepEqual(await inbox(org, 'bo'), [['w1', 'n1'], [], ['w1', 'n1']]);
    assert.equal(
      (await okAs(v2(P.notificationsUnarchive), { organizationId: org, userId: 'ana', notificationIds: ['n1'] })).data.unarchived,
      1,
    );
    assert.deepEqual(await inbox(org, 'ana'), [['n1'], ['w1'], ['w1', 'n1']]);
  });
});
