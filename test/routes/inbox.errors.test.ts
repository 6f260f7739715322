// The inbox operations, the rejections: every malformed member of notifications/update,
// delete, count/get, read, config/get and config/set is INVALID_ARGUMENT naming the member (docs/api.md,
// "Wire format"), as are the inbox rules of docs/api.md "Notifications" (unread needs userId, a filter for delete,
// notifyAll false needs recipients, page tokens bound to unread); and a rejected request wrote nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, notificationData, PATHS, T0, user, type TestApp } from '../helpers/app.js';

let t: TestApp;
let now = T0;
let initial: unknown[] = [];
const ORG = 'org-inbox-bad';

before(async () => {
  t = await makeTestApp({ clock: () => now });
  await t.a.ok(PATHS.usersAdd, { organizationId: ORG, users: [user('m'), user('r1')] });
  now += 1;
  await t.a.ok(PATHS.notificationsAdd, notificationData(ORG, { notificationId: 'e1', notifyUsers: [user('r1'), user('r2')] }));
  now += 1;
  await t.a.ok(PATHS.notificationsAdd, notificationData(ORG, { notificationId: 'e2', notifyUsers: undefined }));
  now += 1;
  initial = await state();
});
after(async () => {
  await t.close();
});

const js = (x: unknown) => String(JSON.stringify(x)).slice(0, 800);
const many = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));

/** Everything of ORG the operations could change, as the readers see it. */
async function state() {
  const lists: unknown[] = [];
  for (const filter of [{ documentId: 'doc-1' }, { userId: 'r1' }, { userId: 'r2' }, { userId: 'm' }]) {
    lists.push((await t.a.ok(PATHS.notificationsGet, { organizationId: ORG, ...filter })).data);
  }
  for (const userId of ['r1', 'r2', 'm']) {
    lists.push((await t.a.ok(PATHS.notificationsCount, { organizationId: ORG, userId })).data);
  }
  lists.push(
    (await t.a.ok(PATHS.notificationsConfigGet, { organizationId: ORG, userId: 'r1', documentIds: ['doc-1', 'doc-2'] })).data,
  );
  return lists;
}

type Case = [string, Record<string, unknown>, string];

/** Runs each case as its own test: 400 INVALID_ARGUMENT whose message names the member path. */
function rejects(path: string, cases: Case[]) {
  for (const [name, data, member] of cases) {
    test(name, async () => {
      const r = await t.a.post(path, data);
      const message = expectError(r, 400, 'INVALID_ARGUMENT', name);
      assert.ok(message.includes(member), `message should name ${member}: ${r.body}`);
    });
  }
}

/** `data` with `member` left out. */
const without = (data: Record<string, unknown>, member: string) => {
  const d = { ...data };
  delete d[member];
  return d;
};

describe('notifications/update', () => {
  const ok = { organizationId: ORG, notifications: [{ id: 'e1', displayBodyMessage: 'changed' }] };
  const entry = (over: Record<string, unknown>, i = 0) => ({
    organizationId: ORG,
    notifications: [...many(i, () => ({ id: 'e1', readByUserIds: ['r1'] })), { id: 'e1', ...over }],
  });
  rejects(PATHS.notificationsUpdate, [
    ['organizationId missing', without(ok, 'organizationId'), 'data.organizationId'],
    ['organizationId empty', { ...ok, organizationId: '' }, 'data.organizationId'],
    ['organizationId a number', { ...ok, organizationId: 1 }, 'data.organizationId'],
    ['notifications missing', without(ok, 'notifications'), 'data.notifications'],
    ['notifications null', { ...ok, notifications: null }, 'data.notifications'],
    ['notifications []', { ...ok, notifications: [] }, 'data.notifications'],
    ['notifications 1001 entries', { ...ok, notifications: many(1001, () => ({ id: 'e1' })) }, 'data.notifications'],
    ['notifications an object', { ...ok, notifications: { id: 'e1' } }, 'data.notifications'],
    ['notifications[1] a string', { ...ok, notifications: [{ id: 'e1' }, 'e2'] }, 'data.notifications[1]'],
    ['notifications[0].id missing', { ...ok, notifications: [{ displayBodyMessage: 'x' }] }, 'data.notifications[0].id'],
    ['notifications[0].id null', entry({ id: null }), 'data.notifications[0].id'],
    ['notifications[0].id empty', entry({ id: '' }), 'data.notifications[0].id'],
    ['notifications[0].id a number', entry({ id: 1 }), 'data.notifications[0].id'],
    ['readByUserIds a string', entry({ readByUserIds: 'r1' }), 'data.notifications[0].readByUserIds'],
    ['readByUserIds[1] a number', entry({ readByUserIds: ['r1', 2] }), 'data.notifications[0].readByUserIds[1]'],
    ['readByUserIds[0] empty', entry({ readByUserIds: [''] }), 'data.notifications[0].readByUserIds[0]'],
    ['readByUserIds[0] 257 chars', entry({ readByUserIds: ['u'.repeat(257)] }), 'data.notifications[0].readByUserIds[0]'],
    ['readByUserIds 1001 entries', entry({ readByUserIds: many(1001, (i) => `u${i}`) }), 'data.notifications[0].readByUserIds'],
    ['unreadByUserIds an object', entry({ unreadByUserIds: { r1: true } }, 1), 'data.notifications[1].unreadByUserIds'],
    ['unreadByUserIds[0] null', entry({ unreadByUserIds: [null] }), 'data.notifications[0].unreadByUserIds[0]'],
    [
      'the same user in readByUserIds and unreadByUserIds',
      entry({ readByUserIds: ['r2', 'r1'], unreadByUserIds: ['r1'] }, 1),
      'data.notifications[1].readByUserIds',
    ],
    ['actionUser a string', entry({ actionUser: 'a' }), 'data.notifications[0].actionUser'],
    ['actionUser without userId', entry({ actionUser: { name: 'A' } }, 2), 'data.notifications[2].actionUser.userId'],
    [
      'actionUser.email over 254 characters',
      entry({ actionUser: { userId: 'a', email: `${'x'.repeat(251)}@y.z` } }),
      'data.notifications[0].actionUser.email',
    ],
    ['actionUser.name a number', entry({ actionUser: { userId: 'a', name: 1 } }), 'data.notifications[0].actionUser.name'],
    [
      'displayHeadlineMessageTemplate a number',
      entry({ displayHeadlineMessageTemplate: 1 }),
      'data.notifications[0].displayHeadlineMessageTemplate',
    ],
    [
      'displayHeadlineMessageTemplateData an array',
      entry({ displayHeadlineMessageTemplateData: [1] }),
      'data.notifications[0].displayHeadlineMessageTemplateData',
    ],
    [
      'displayHeadlineMessageTemplateData a string',
      entry({ displayHeadlineMessageTemplateData: 'x' }),
      'data.notifications[0].displayHeadlineMessageTemplateData',
    ],
    ['displayBodyMessage a number', entry({ displayBodyMessage: 5 }, 1), 'data.notifications[1].displayBodyMessage'],
    ['displayBodyMessage an object', entry({ displayBodyMessage: {} }), 'data.notifications[0].displayBodyMessage'],
    ['notificationSourceData an array', entry({ notificationSourceData: [] }), 'data.notifications[0].notificationSourceData'],
    ['notificationSourceData a number', entry({ notificationSourceData: 3 }), 'data.notifications[0].notificationSourceData'],
  ]);
});

describe('notifications/delete', () => {
  const ok = { organizationId: ORG, notificationIds: ['e1'] };
  const noFilter = 'data.documentId';
  rejects(PATHS.notificationsDelete, [
    ['organizationId missing', without(ok, 'organizationId'), 'data.organizationId'],
    ['organizationId null', { ...ok, organizationId: null }, 'data.organizationId'],
    ['organizationId 257 chars', { ...ok, organizationId: 'o'.repeat(257) }, 'data.organizationId'],
    ['no filter at all', { organizationId: ORG }, noFilter],
    [
      'every filter null',
      { organizationId: ORG, documentId: null, locationId: null, userId: null, notificationIds: null },
      noFilter,
    ],
    ['only an empty notificationIds (no filter)', { organizationId: ORG, notificationIds: [] }, noFilter],
    ['documentId empty', { organizationId: ORG, documentId: '' }, 'data.documentId'],
    ['documentId a number', { organizationId: ORG, documentId: 1 }, 'data.documentId'],
    ['locationId an array', { organizationId: ORG, locationId: ['L'] }, 'data.locationId'],
    ['userId empty', { organizationId: ORG, userId: '' }, 'data.userId'],
    ['userId an object', { organizationId: ORG, userId: { userId: 'r1' } }, 'data.userId'],
    ['notificationIds a string', { organizationId: ORG, notificationIds: 'e1' }, 'data.notificationIds'],
    ['notificationIds[1] a number', { organizationId: ORG, notificationIds: ['e1', 2] }, 'data.notificationIds[1]'],
    [
      'notificationIds 1001 entries',
      { organizationId: ORG, notificationIds: many(1001, (i) => `n${i}`) },
      'data.notificationIds',
    ],
    [
      'a good filter beside a bad one',
      { organizationId: ORG, documentId: 'doc-1', notificationIds: [null] },
      'data.notificationIds[0]',
    ],
  ]);
});

describe('notifications/count/get', () => {
  const ok = { organizationId: ORG, userId: 'r1', documentId: 'doc-1' };
  rejects(PATHS.notificationsCount, [
    ['organizationId missing', without(ok, 'organizationId'), 'data.organizationId'],
    ['organizationId empty', { ...ok, organizationId: '' }, 'data.organizationId'],
    ['userId missing', without(ok, 'userId'), 'data.userId'],
    ['userId null', { ...ok, userId: null }, 'data.userId'],
    ['userId empty', { ...ok, userId: '' }, 'data.userId'],
    ['userId a number', { ...ok, userId: 7 }, 'data.userId'],
    ['userId 257 chars', { ...ok, userId: 'u'.repeat(257) }, 'data.userId'],
    ['documentId empty', { ...ok, documentId: '' }, 'data.documentId'],
    ['documentId a boolean', { ...ok, documentId: true }, 'data.documentId'],
  ]);
});

describe('notifications/read', () => {
  const ok = { organizationId: ORG, userId: 'r1' };
  rejects(PATHS.notificationsRead, [
    ['organizationId missing', without(ok, 'organizationId'), 'data.organizationId'],
    ['userId missing', without(ok, 'userId'), 'data.userId'],
    ['userId null', { ...ok, userId: null }, 'data.userId'],
    ['userId a number', { ...ok, userId: 1 }, 'data.userId'],
    ['documentId empty', { ...ok, documentId: '' }, 'data.documentId'],
    ['documentId an object', { ...ok, documentId: {} }, 'data.documentId'],
    ['notificationIds a string', { ...ok, notificationIds: 'e1' }, 'data.notificationIds'],
    ['notificationIds[0] a number', { ...ok, notificationIds: [1] }, 'data.notificationIds[0]'],
    ['notificationIds 1001 entries', { ...ok, notificationIds: many(1001, (i) => `n${i}`) }, 'data.notificationIds'],
  ]);
});

describe('notifications/config/get', () => {
  const ok = { organizationId: ORG, userId: 'r1', documentIds: ['doc-1'] };
  rejects(PATHS.notificationsConfigGet, [
    ['organizationId missing', without(ok, 'organizationId'), 'data.organizationId'],
    ['userId missing', without(ok, 'userId'), 'data.userId'],
    ['userId empty', { ...ok, userId: '' }, 'data.userId'],
    ['documentIds missing', without(ok, 'documentIds'), 'data.documentIds'],
    ['documentIds null', { ...ok, documentIds: null }, 'data.documentIds'],
    ['documentIds []', { ...ok, documentIds: [] }, 'data.documentIds'],
    ['documentIds 1001 entries', { ...ok, documentIds: many(1001, (i) => `d${i}`) }, 'data.documentIds'],
    ['documentIds a string', { ...ok, documentIds: 'doc-1' }, 'data.documentIds'],
    ['documentIds[1] empty', { ...ok, documentIds: ['doc-1', ''] }, 'data.documentIds[1]'],
    ['documentIds[0] a number', { ...ok, documentIds: [1] }, 'data.documentIds[0]'],
  ]);
});

describe('notifications/config/set', () => {
  const ok = { organizationId: ORG, userIds: ['r1'], documentIds: ['doc-1'], config: { inbox: 'ALL', email: 'NONE' } };
  rejects(PATHS.notificationsConfigSet, [
    ['organizationId missing', without(ok, 'organizationId'), 'data.organizationId'],
    ['documentIds missing', without(ok, 'documentIds'), 'data.documentIds'],
    ['documentIds []', { ...ok, documentIds: [] }, 'data.documentIds'],
    ['documentIds 1001 entries', { ...ok, documentIds: many(1001, (i) => `d${i}`) }, 'data.documentIds'],
    ['documentIds[0] empty', { ...ok, documentIds: [''] }, 'data.documentIds[0]'],
    ['userIds missing', without(ok, 'userIds'), 'data.userIds'],
    ['userIds []', { ...ok, userIds: [] }, 'data.userIds'],
    ['userIds 1001 entries', { ...ok, userIds: many(1001, (i) => `u${i}`) }, 'data.userIds'],
    ['userIds[1] a number', { ...ok, userIds: ['r1', 2] }, 'data.userIds[1]'],
    ['userIds a string', { ...ok, userIds: 'r1' }, 'data.userIds'],
    ['config missing', without(ok, 'config'), 'data.config'],
    ['config null', { ...ok, config: null }, 'data.config'],
    ['config {}', { ...ok, config: {} }, 'data.config'],
    ['config with only unknown members', { ...ok, config: { push: 'ALL' } }, 'data.config'],
    ['config with every channel null', { ...ok, config: { inbox: null, email: null } }, 'data.config'],
    ['config a string', { ...ok, config: 'ALL' }, 'data.config'],
    ['config an array', { ...ok, config: [{ inbox: 'ALL' }] }, 'data.config'],
    ['config.inbox lowercase', { ...ok, config: { inbox: 'all' } }, 'data.config.inbox'],
    ['config.inbox not a value', { ...ok, config: { inbox: 'SOME' } }, 'data.config.inbox'],
    ['config.inbox empty', { ...ok, config: { inbox: '', email: 'ALL' } }, 'data.config.inbox'],
    ['config.inbox an array', { ...ok, config: { inbox: ['ALL'] } }, 'data.config.inbox'],
    ['config.email a number', { ...ok, config: { inbox: 'ALL', email: 1 } }, 'data.config.email'],
    ['config.email with a space', { ...ok, config: { email: 'NONE ' } }, 'data.config.email'],
    ['config.email a boolean', { ...ok, config: { email: false } }, 'data.config.email'],
  ]);
});

describe('notifications/get: unread needs userId', () => {
  rejects(PATHS.notificationsGet, [
    ['unread without userId', { organizationId: ORG, documentId: 'doc-1', unread: true }, 'data.unread'],
    ['unread false without userId', { organizationId: ORG, documentId: 'doc-1', unread: false }, 'data.unread'],
    ['unread a string', { organizationId: ORG, userId: 'r1', unread: 'true' }, 'data.unread'],
    ['unread a number', { organizationId: ORG, userId: 'r1', unread: 1 }, 'data.unread'],
  ]);

  test('a page token is bound to its unread filter: another value, or none, is INVALID_ARGUMENT', async () => {
    const org = 'org-token-unread';
    for (let i = 0; i < 4; i++) {
      now += 1;
      await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notifyUsers: [user('r1')] }));
    }
    const base = { organizationId: org, userId: 'r1', pageSize: 1 };
    const tokens: Record<string, string> = {};
    for (const [label, unread] of [
      ['none', undefined],
      ['true', true],
      ['false', false],
    ] as const) {
      await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1', notificationIds: [] });
      // Two read, two unread: every unread value has a next page.
      await t.a.ok(PATHS.notificationsUpdate, {
        organizationId: org,
        notifications: (await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'r1', pageSize: 2 })).data.map(
          (n: any) => ({ id: n.id, unreadByUserIds: ['r1'] }),
        ),
      });
      const r = await t.a.ok(PATHS.notificationsGet, { ...base, ...(unread === undefined ? {} : { unread }) });
      assert.equal(typeof r.pageToken, 'string', `${label}: ${js(r)}`);
      tokens[label] = r.pageToken;
    }
    for (const [from, token] of Object.entries(tokens)) {
      for (const [label, unread] of [
        ['none', undefined],
        ['true', true],
        ['false', false],
      ] as const) {
        const r = await t.a.post(PATHS.notificationsGet, {
          ...base,
          pageToken: token,
          ...(unread === undefined ? {} : { unread }),
        });
        if (from === label) assert.equal(r.status, 200, `${from} with ${label}: ${r.body}`);
        else expectError(r, 400, 'INVALID_ARGUMENT', `token of ${from} used with ${label}`);
      }
    }
  });
});

describe('notifications/add: notifyAll false needs notifyUsers', () => {
  const org = 'org-add-nobody';
  rejects(PATHS.notificationsAdd, [
    [
      'notifyAll false with notifyUsers absent',
      notificationData(org, { notifyAll: false, notifyUsers: undefined }),
      'data.notifyAll',
    ],
    ['notifyAll false with notifyUsers []', notificationData(org, { notifyAll: false, notifyUsers: [] }), 'data.notifyAll'],
    ['notifyAll false with notifyUsers null', notificationData(org, { notifyAll: false, notifyUsers: null }), 'data.notifyAll'],
    ['notifyAll a number', notificationData(org, { notifyAll: 1 }), 'data.notifyAll'],
  ]);

  test('and wrote no notification', async () => {
    assert.deepEqual((await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1' })).data, []);
  });
});

describe('a rejected request wrote nothing (all-or-nothing)', () => {
  test('every rejection above left the organization as it was', async () => {
    assert.deepEqual(await state(), initial);
  });

  test('update: a bad second entry keeps the first one from changing content or read marks', async () => {
    const before = await state();
    for (const second of [
      { id: 'e2', displayBodyMessage: 5 },
      { id: 'e2', readByUserIds: ['m'], unreadByUserIds: ['m'] },
      { id: 'e2', actionUser: { userId: '' } },
      { id: '' },
    ]) {
      const r = await t.a.post(PATHS.notificationsUpdate, {
        organizationId: ORG,
        notifications: [
          { id: 'e1', displayBodyMessage: 'must not be written', actionUser: { userId: 'x' }, readByUserIds: ['r1', 'r2'] },
          { id: 'e2', readByUserIds: ['m'] },
          second,
        ],
      });
      expectError(r, 400, 'INVALID_ARGUMENT', js(second));
    }
    assert.deepEqual(await state(), before);
  });

  test('delete, read and config/set: a bad member anywhere, nothing deleted, marked or set', async () => {
    const before = await state();
    const refused = [
      [PATHS.notificationsDelete, { organizationId: ORG, documentId: 'doc-1', userId: 5 }],
      [PATHS.notificationsDelete, { organizationId: ORG, notificationIds: ['e1', 'e2', {}] }],
      [PATHS.notificationsRead, { organizationId: ORG, userId: 'r1', notificationIds: ['e1', 3] }],
      [PATHS.notificationsRead, { organizationId: ORG, userId: 'm', documentId: 9 }],
      [
        PATHS.notificationsConfigSet,
        { organizationId: ORG, documentIds: ['doc-1'], userIds: ['r1', ''], config: { inbox: 'NONE' } },
      ],
      [
        PATHS.notificationsConfigSet,
        { organizationId: ORG, documentIds: ['doc-1', 'doc-2'], userIds: ['r1'], config: { inbox: 'ALL', email: 'X' } },
      ],
    ] as const;
    for (const [path, data] of refused) {
      expectError(await t.a.post(path, data), 400, 'INVALID_ARGUMENT', `${path} ${js(data)}`);
    }
    assert.deepEqual(await state(), before);
  });

  test('none of it was a no-op for want of data: the same requests made valid do change things', async () => {
    const org = 'org-valid-twin';
    await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: 'e1', notifyUsers: [user('r1'), user('r2')] }));
    const r = await t.a.ok(PATHS.notificationsUpdate, {
      organizationId: org,
      notifications: [{ id: 'e1', displayBodyMessage: 'written', readByUserIds: ['r1', 'r2'] }],
    });
    assert.equal(r.data.e1.success, true);
    const [n] = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1' })).data;
    assert.equal(n.displayBodyMessage, 'written');
    assert.deepEqual(n.notifyUsersByUserId, { r1: false, r2: false });
  });
});
