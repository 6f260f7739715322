// notifications/add and notifications/get, the success paths (docs/api.md, "Notifications" and
// "Identifiers and limits").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  HEX32,
  makeTestApp,
  PATHS,
  steppingClock,
  user,
  type Caller,
  type TestApp,
  notificationData,
  T0,
} from '../helpers/app.js';

const ID_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

let t: TestApp;
/** The app's clock: tests set it before the writes whose timestamp they check. */
let now = T0;

before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => {
  await t.close();
});

const note = notificationData;

async function add(data: Record<string, unknown>, caller: Caller = t.a): Promise<string> {
  const result = await caller.ok(PATHS.notificationsAdd, data);
  return result.data.id as string;
}

async function get(data: Record<string, unknown>, caller: Caller = t.a): Promise<any[]> {
  const result = await caller.ok(PATHS.notificationsGet, data);
  assert.ok(Array.isArray(result.data), `data must be an array: ${JSON.stringify(result)}`);
  return result.data as any[];
}

const idsOf = (list: any[]): string[] => list.map((n) => n.id as string);

/** The internal user id users/update reports (for missing users too, without creating them). */
async function internalIdOf(organizationId: string, userId: string, caller: Caller = t.a): Promise<string> {
  const result = await caller.ok(PATHS.usersUpdate, { organizationId, users: [{ userId }] });
  const id = result.data[userId]?.id;
  assert.match(String(id), HEX32, JSON.stringify(result));
  return id as string;
}

/** Code unit order, as docs/api.md "Paging" compares ids (not localeCompare). */
const byCodeUnitDesc = (x: string, y: string): number => (x < y ? 1 : x > y ? -1 : 0);

describe('notifications/add', () => {
  test('answers the success envelope with the caller-chosen id', async () => {
    const r = await t.a.post(PATHS.notificationsAdd, note('org-add-1', { notificationId: 'n-chosen_1' }));
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(
      r.json,
      {
        result: {
          status: 'success',
          message: 'Notification added successfully.',
          data: { success: true, id: 'n-chosen_1', message: 'Notification added successfully.' },
        },
      },
      r.body,
    );
  });

  test('a notificationId absent or null is generated, fits the shape and is new each time', async () => {
    const org = 'org-gen';
    const generated = new Set<string>();
    for (const over of [{}, { notificationId: null }, {}, { notificationId: null }]) {
      const id = await add(note(org, over));
      assert.match(id, ID_SHAPE, `generated id ${id}`);
      generated.add(id);
    }
    assert.equal(generated.size, 4, `generated ids must differ: ${[...generated].join(', ')}`);
    const list = await get({ organizationId: org, documentId: 'doc-1' });
    assert.deepEqual(idsOf(list).sort(), [...generated].sort(), JSON.stringify(list));
    const one = [...generated][1]!;
    assert.deepEqual(idsOf(await get({ organizationId: org, documentId: 'doc-1', notificationIds: [one] })), [one]);
  });

  test('notificationIds at the limits of the shape are accepted and read back as sent', async () => {
    const org = 'org-shape';
    const chosen = ['x', 'A'.repeat(128), 'aZ09_-', '-', '_', '0123456789'];
    for (const id of chosen) assert.equal(await add(note(org, { notificationId: id })), id);
    const list = await get({ organizationId: org, documentId: 'doc-1' });
    assert.deepEqual(idsOf(list).sort(), [...chosen].sort(), JSON.stringify(idsOf(list)));
  });

  test('the same notificationId in two organizations of one tenant is two notifications', async () => {
    await add(note('org-twin-1', { notificationId: 'twin', displayBodyMessage: 'one' }));
    await add(note('org-twin-2', { notificationId: 'twin', displayBodyMessage: 'two' }));
    const one = await get({ organizationId: 'org-twin-1', documentId: 'doc-1' });
    const two = await get({ organizationId: 'org-twin-2', documentId: 'doc-1' });
    assert.deepEqual(
      one.map((n) => [n.id, n.displayBodyMessage]),
      [['twin', 'one']],
      JSON.stringify(one),
    );
    assert.deepEqual(
      two.map((n) => [n.id, n.displayBodyMessage]),
      [['twin', 'two']],
      JSON.stringify(two),
    );
  });

  test('notifications/add never creates user profiles (actor, recipients, template users)', async () => {
    const org = 'org-noprofile';
    await add(
      note(org, {
        actionUser: user('np-actor'),
        notifyUsers: [user('np-r1'), user('np-r2')],
        displayHeadlineMessageTemplateData: { recipientUser: user('np-tpl') },
      }),
    );
    const r = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: ['np-actor', 'np-r1', 'np-r2', 'np-tpl'].map((userId) => ({ userId, name: 'Changed' })),
    });
    for (const userId of ['np-actor', 'np-r1', 'np-r2', 'np-tpl']) {
      assert.equal(r.data[userId]?.success, false, `${userId} must not exist: ${JSON.stringify(r.data)}`);
      assert.equal(r.data[userId]?.message, 'User does not exist.', JSON.stringify(r.data));
    }
    // And the names shown are still the ones sent, not "Changed".
    const [n] = await get({ organizationId: org, documentId: 'doc-1' });
    assert.equal(n?.actionUser.name, 'Name np-actor', JSON.stringify(n));
  });
});

describe('notifications/get entries', () => {
  test('an entry has every field docs/api.md lists, with the values written', async () => {
    const org = 'org-full';
    now = T0 + 5_000;
    await add({
      organizationId: org,
      documentId: 'doc-full',
      notificationId: 'full-1',
      actionUser: { userId: 'actor', name: 'Ann Actor', email: 'ann@example.com' },
      displayHeadlineMessageTemplate: '{actionUser} assigned you {task}',
      displayHeadlineMessageTemplateData: {
        task: 'Review',
        actionUser: { userId: 'actor', name: 'Ann Actor', email: 'ann@example.com' },
      },
      displayBodyMessage: 'Please have a look.',
      notificationSourceData: { kind: 'annotation', annotationId: 'an-1', nested: { n: [1, 'two', null, true] } },
      notifyUsers: [user('r1'), { userId: 'r2' }],
    });
    now = T0 + 9_999;
    const list = await get({ organizationId: org, documentId: 'doc-full' });
    assert.equal(list.length, 1, JSON.stringify(list));
    const r1 = await internalIdOf(org, 'r1');
    const r2 = await internalIdOf(org, 'r2');
    assert.deepEqual(
      list[0],
      {
        id: 'full-1',
        notificationSource: 'custom',
        notificationSourceData: { kind: 'annotation', annotationId: 'an-1', nested: { n: [1, 'two', null, true] } },
        actionUser: { email: 'ann@example.com', name: 'Ann Actor', userId: 'actor' },
        displayBodyMessage: 'Please have a look.',
        displayHeadlineMessageTemplate: '{actionUser} assigned you {task}',
        displayHeadlineMessageTemplateData: {
          task: 'Review',
          actionUser: { userId: 'actor', name: 'Ann Actor', email: 'ann@example.com' },
        },
        metadata: { apiKey: t.a.creds.apiKey, organizationId: org, documentId: 'doc-full' },
        notifyUsers: { [r1]: true, [r2]: true },
        notifyUsersByUserId: { r1: true, r2: true },
        timestamp: T0 + 5_000,
      },
      JSON.stringify(list[0]),
    );
    now = T0;
  });

  test('the result envelope of get: message, data array, no pageToken when all fit', async () => {
    const r = await t.a.post(PATHS.notificationsGet, { organizationId: 'org-full', documentId: 'doc-full' });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.result.status, 'success', r.body);
    assert.equal(r.json.result.message, 'Notification(s) retrieved successfully.', r.body);
    assert.deepEqual(Object.keys(r.json.result).sort(), ['data', 'message', 'status'], r.body);
    assert.deepEqual(Object.keys(r.json), ['result'], r.body);
  });

  test('timestamp is the server clock at add time, integer milliseconds', async () => {
    const org = 'org-clock';
    now = 1_718_877_222_258;
    await add(note(org, { notificationId: 'c1' }));
    now = 1_718_877_222_258 + 60_000;
    await add(note(org, { notificationId: 'c2' }));
    now = T0;
    const list = await get({ organizationId: org, documentId: 'doc-1' });
    assert.deepEqual(
      list.map((n) => [n.id, n.timestamp]),
      [
        ['c2', 1_718_877_282_258],
        ['c1', 1_718_877_222_258],
      ],
      JSON.stringify(list),
    );
    for (const n of list) assert.ok(Number.isInteger(n.timestamp), `timestamp must be an integer: ${n.timestamp}`);
  });

  test('metadata is {apiKey, organizationId, documentId}; documentId left out when absent; locationId added when present', async () => {
    const org = 'org-meta';
    await add(note(org, { notificationId: 'm-doc' }));
    await add(note(org, { notificationId: 'm-doc-loc', locationId: 'loc-7' }));
    await add(note(org, { notificationId: 'm-none', documentId: undefined }));
    await add(note(org, { notificationId: 'm-null', documentId: null, locationId: null }));
    await add(note(org, { notificationId: 'm-loc', documentId: undefined, locationId: 'loc-8' }));
    const list = await get({ organizationId: org, userId: 'r1' });
    const meta = Object.fromEntries(list.map((n) => [n.id, n.metadata]));
    const apiKey = t.a.creds.apiKey;
    assert.deepEqual(
      meta,
      {
        'm-doc': { apiKey, organizationId: org, documentId: 'doc-1' },
        'm-doc-loc': { apiKey, organizationId: org, documentId: 'doc-1', locationId: 'loc-7' },
        'm-none': { apiKey, organizationId: org },
        'm-null': { apiKey, organizationId: org },
        'm-loc': { apiKey, organizationId: org, locationId: 'loc-8' },
      },
      JSON.stringify(meta),
    );
    for (const n of list.filter((x) => x.id === 'm-none' || x.id === 'm-loc')) {
      assert.equal(Object.hasOwn(n.metadata, 'documentId'), false, `documentId must be left out: ${JSON.stringify(n.metadata)}`);
    }
  });

  test('notifyUsers is keyed by the internal ids users/add returns, notifyUsersByUserId by userId, true while unread', async () => {
    const org = 'org-keys';
    const added = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('k1'), user('k2')] });
    await add(note(org, { notificationId: 'keys', notifyUsers: [user('k1'), user('k2'), user('k3-no-profile')] }));
    const [n] = await get({ organizationId: org, documentId: 'doc-1' });
    assert.ok(n, 'one notification expected');
    const k3 = await internalIdOf(org, 'k3-no-profile');
    assert.deepEqual(n.notifyUsersByUserId, { k1: true, k2: true, 'k3-no-profile': true }, JSON.stringify(n));
    assert.deepEqual(n.notifyUsers, { [added.data.k1.id]: true, [added.data.k2.id]: true, [k3]: true }, JSON.stringify(n));
    for (const key of Object.keys(n.notifyUsers)) assert.match(key, HEX32, `notifyUsers key ${key}`);
    // The same userId in another organization has another internal id, so the key is per organization.
    const elsewhere = await internalIdOf('org-keys-other', 'k1');
    assert.notEqual(elsewhere, added.data.k1.id);
  });

  test('a notification stored before internal ids were kept on the row shows the same notifyUsers', async () => {
    const org = 'org-legacy';
    await add(note(org, { notificationId: 'legacy', notifyUsers: [user('l1'), user('l2')] }));
    const [before] = await get({ organizationId: org, documentId: 'doc-1' });
    // Rows of earlier versions list recipients as [userId, unread], with no internal id.
    await t.db.exec(`UPDATE notifications SET recipients = '[["l1",true],["l2",true]]' WHERE notification_id = 'legacy'`);
    const [after] = await get({ organizationId: org, documentId: 'doc-1' });
    assert.deepEqual(after, before);
    assert.deepEqual(Object.keys(after.notifyUsers), [await internalIdOf(org, 'l1'), await internalIdOf(org, 'l2')]);
  });

  test('a recipient listed twice is notified once', async () => {
    const org = 'org-dup';
    await add(
      note(org, {
        notificationId: 'dup',
        notifyUsers: [user('d1'), { userId: 'd2' }, user('d1', { name: 'Other name' }), { userId: 'd2' }],
      }),
    );
    const list = await get({ organizationId: org, documentId: 'doc-1' });
    assert.equal(list.length, 1, JSON.stringify(list));
    assert.deepEqual(list[0].notifyUsersByUserId, { d1: true, d2: true }, JSON.stringify(list[0]));
    assert.equal(Object.keys(list[0].notifyUsers).length, 2, JSON.stringify(list[0]));
    assert.deepEqual(idsOf(await get({ organizationId: org, userId: 'd1' })), ['dup']);
  });

  test('unusual userIds are ordinary keys (__proto__, constructor, dots and spaces)', async () => {
    const org = 'org-odd-users';
    const odd = ['__proto__', 'constructor', 'a.b c', 'ü/ß'];
    await add(note(org, { notificationId: 'odd', notifyUsers: odd.map((userId) => ({ userId })) }));
    const r = await t.a.post(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1' });
    assert.equal(r.status, 200, r.body);
    const n = r.json.result.data[0];
    assert.deepEqual(Object.keys(n.notifyUsersByUserId).sort(), [...odd].sort(), r.body);
    assert.equal(Object.keys(n.notifyUsers).length, 4, r.body);
    for (const userId of odd) {
      assert.deepEqual(idsOf(await get({ organizationId: org, userId })), ['odd'], `userId filter ${userId}`);
    }
  });

  test('defaults: displayBodyMessage "", notificationSourceData {}, displayHeadlineMessageTemplateData {} (absent or null)', async () => {
    const org = 'org-defaults';
    await add(note(org, { notificationId: 'absent' }));
    await add(
      note(org, {
        notificationId: 'nulls',
        displayBodyMessage: null,
        notificationSourceData: null,
        displayHeadlineMessageTemplateData: null,
      }),
    );
    const list = await get({ organizationId: org, documentId: 'doc-1' });
    assert.equal(list.length, 2, JSON.stringify(list));
    for (const n of list) {
      assert.equal(n.displayBodyMessage, '', JSON.stringify(n));
      assert.deepEqual(n.notificationSourceData, {}, JSON.stringify(n));
      assert.deepEqual(n.displayHeadlineMessageTemplateData, {}, JSON.stringify(n));
      assert.equal(n.notificationSource, 'custom', JSON.stringify(n));
    }
  });

  test('strings are kept exactly as sent (empty template, unicode, markup)', async () => {
    const org = 'org-strings';
    await add(
      note(org, {
        notificationId: 's1',
        displayHeadlineMessageTemplate: '',
        displayBodyMessage: '<b>not sanitized</b> “quotes” 😀 \n\t',
      }),
    );
    const [n] = await get({ organizationId: org, documentId: 'doc-1' });
    assert.equal(n?.displayHeadlineMessageTemplate, '', JSON.stringify(n));
    assert.equal(n?.displayBodyMessage, '<b>not sanitized</b> “quotes” 😀 \n\t', JSON.stringify(n));
  });
});

describe('user resolution at read time', () => {
  test('actionUser: what was sent, then the profile, then a users/update shows at once; "" with neither', async () => {
    const org = 'org-actor';
    await add(note(org, { notificationId: 'sent', actionUser: { userId: 'act', name: 'Sent Name', email: 'sent@example.com' } }));
    await add(note(org, { notificationId: 'bare', actionUser: { userId: 'bare-actor' } }));
    await add(note(org, { notificationId: 'nulls', actionUser: { userId: 'null-actor', name: null, email: null } }));
    const actors = async () =>
      Object.fromEntries((await get({ organizationId: org, documentId: 'doc-1' })).map((n) => [n.id, n.actionUser]));

    assert.deepEqual(await actors(), {
      sent: { email: 'sent@example.com', name: 'Sent Name', userId: 'act' },
      bare: { email: '', name: '', userId: 'bare-actor' },
      nulls: { email: '', name: '', userId: 'null-actor' },
    });

    // A profile in another organization does not apply.
    await t.a.ok(PATHS.usersAdd, {
      organizationId: 'org-actor-elsewhere',
      users: [{ userId: 'act', name: 'Wrong Org', email: 'wrong@example.com' }],
    });
    assert.deepEqual((await actors()).sent, { email: 'sent@example.com', name: 'Sent Name', userId: 'act' });

    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [{ userId: 'act', name: 'Profile Name', email: 'profile@example.com' }],
    });
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [{ userId: 'bare-actor', name: 'Bare Profile', email: 'bare@example.com' }],
    });
    let shown = await actors();
    assert.deepEqual(shown.sent, { email: 'profile@example.com', name: 'Profile Name', userId: 'act' }, JSON.stringify(shown));
    assert.deepEqual(
      shown.bare,
      { email: 'bare@example.com', name: 'Bare Profile', userId: 'bare-actor' },
      JSON.stringify(shown),
    );

    const upd = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: [{ userId: 'act', name: 'Renamed', email: 'renamed@example.com' }],
    });
    assert.equal(upd.data.act.success, true, JSON.stringify(upd));
    shown = await actors();
    assert.deepEqual(shown.sent, { email: 'renamed@example.com', name: 'Renamed', userId: 'act' }, JSON.stringify(shown));
  });

  test('user objects inside displayHeadlineMessageTemplateData are resolved; other values kept as sent', async () => {
    const org = 'org-template';
    const templateData = {
      actionUser: { userId: 'tpl-actor', name: 'Sent Actor', email: 'sent-actor@example.com' },
      recipientUser: { userId: 'tpl-recipient', name: 'Sent Recipient', email: 'sent-r@example.com' },
      bareUser: { userId: 'tpl-bare' },
      custom: 'a custom string',
      count: 3,
      flag: false,
      nothing: null,
      list: ['x', { userId: 'in-array' }],
      plainObject: { a: 1, b: { c: 'd' } },
      numericUserId: { userId: 42, name: 'Not a user object' },
      emptyObject: {},
    };
    await add(note(org, { notificationId: 'tpl', displayHeadlineMessageTemplateData: templateData }));
    const read = async () => (await get({ organizationId: org, documentId: 'doc-1' }))[0]?.displayHeadlineMessageTemplateData;

    let data = await read();
    assert.deepEqual(
      data,
      {
        ...templateData,
        bareUser: { userId: 'tpl-bare', name: '', email: '' },
      },
      JSON.stringify(data),
    );

    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [
        { userId: 'tpl-actor', name: 'Profile Actor', email: 'actor@example.com' },
        { userId: 'tpl-bare', name: 'Profile Bare', email: 'bare@example.com' },
        { userId: 'in-array', name: 'Array Profile', email: 'arr@example.com' },
      ],
    });
    await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: [{ userId: 'tpl-actor', name: 'Updated Actor', email: 'updated@example.com' }],
    });
    data = await read();
    assert.deepEqual(
      data.actionUser,
      { userId: 'tpl-actor', name: 'Updated Actor', email: 'updated@example.com' },
      JSON.stringify(data),
    );
    assert.deepEqual(
      data.bareUser,
      { userId: 'tpl-bare', name: 'Profile Bare', email: 'bare@example.com' },
      JSON.stringify(data),
    );
    assert.deepEqual(data.recipientUser, templateData.recipientUser, JSON.stringify(data));
    for (const key of ['custom', 'count', 'flag', 'nothing', 'list', 'plainObject', 'numericUserId', 'emptyObject'] as const) {
      assert.deepEqual(data[key], templateData[key], `${key} must be kept as sent: ${JSON.stringify(data)}`);
    }
  });

  test('a user object keeps the userId it was sent with and gets name and email', async () => {
    const org = 'org-template-extra';
    await add(
      note(org, { notificationId: 'x', displayHeadlineMessageTemplateData: { someone: { userId: 'sx', role: 'editor' } } }),
    );
    const [n] = await get({ organizationId: org, documentId: 'doc-1' });
    const someone = n?.displayHeadlineMessageTemplateData.someone;
    assert.equal(someone?.userId, 'sx', JSON.stringify(n));
    assert.equal(someone?.name, '', JSON.stringify(n));
    assert.equal(someone?.email, '', JSON.stringify(n));
  });
});

describe('filters (every combination of userId, documentId and locationId)', () => {
  const org = 'org-filters';
  // id: [documentId, locationId, recipients]; added in this order, one millisecond apart.
  const rows: [string, string | null, string | null, string[]][] = [
    ['f1', 'd1', 'L1', ['u1', 'u2']],
    ['f2', 'd1', 'L2', ['u1']],
    ['f3', 'd1', null, ['u2']],
    ['f4', 'd2', 'L1', ['u1']],
    ['f5', null, 'L1', ['u1']],
    ['f6', null, null, ['u2']],
    ['f7', 'd1', 'L1', ['u3']],
  ];

  before(async () => {
    let i = 0;
    for (const [id, documentId, locationId, recipients] of rows) {
      now = T0 + 100_000 + i++;
      await add({
        organizationId: org,
        notificationId: id,
        documentId,
        locationId,
        actionUser: { userId: 'u1' }, // the actor is not a recipient unless listed
        displayHeadlineMessageTemplate: id,
        notifyUsers: recipients.map((userId) => ({ userId })),
      });
    }
    // Same ids and shape in another organization and another tenant: never part of these results.
    now = T0 + 200_000;
    await add({
      organizationId: 'org-filters-other',
      notificationId: 'f1',
      documentId: 'd1',
      locationId: 'L1',
      actionUser: { userId: 'u1' },
      displayHeadlineMessageTemplate: 'x',
      notifyUsers: [{ userId: 'u1' }],
    });
    await add(
      {
        organizationId: org,
        notificationId: 'f1',
        documentId: 'd1',
        locationId: 'L1',
        actionUser: { userId: 'u1' },
        displayHeadlineMessageTemplate: 'x',
        notifyUsers: [{ userId: 'u1' }],
      },
      t.b,
    );
    now = T0;
  });

  const cases: [string, Record<string, unknown>, string[]][] = [
    ['documentId', { documentId: 'd1' }, ['f7', 'f3', 'f2', 'f1']],
    ['documentId + notificationIds', { documentId: 'd1', notificationIds: ['f1', 'f3', 'f4', 'f5', 'nope'] }, ['f3', 'f1']],
    ['documentId + locationId', { documentId: 'd1', locationId: 'L1' }, ['f7', 'f1']],
    ['documentId + locationId + notificationIds', { documentId: 'd1', locationId: 'L1', notificationIds: ['f1', 'f2'] }, ['f1']],
    ['userId', { userId: 'u1' }, ['f5', 'f4', 'f2', 'f1']],
    ['userId + notificationIds', { userId: 'u1', notificationIds: ['f2', 'f3', 'f5'] }, ['f5', 'f2']],
    ['documentId + userId', { documentId: 'd1', userId: 'u1' }, ['f2', 'f1']],
    ['locationId + userId', { locationId: 'L1', userId: 'u1' }, ['f5', 'f4', 'f1']],
    ['documentId + locationId + userId', { documentId: 'd1', locationId: 'L1', userId: 'u1' }, ['f1']],
  ];
  for (const [name, filter, expected] of cases) {
    test(`${name}`, async () => {
      const list = await get({ organizationId: org, ...filter });
      assert.deepEqual(idsOf(list), expected, `${JSON.stringify(filter)} -> ${JSON.stringify(idsOf(list))}`);
      for (const n of list) {
        assert.equal(n.metadata.apiKey, t.a.creds.apiKey);
        assert.equal(n.metadata.organizationId, org);
        assert.equal(n.displayHeadlineMessageTemplate, n.id, 'the entry is the one added under this id');
      }
    });
  }

  test('userId filters by recipients only: the actor u1 does not see f3 and f6, which it only sent', async () => {
    assert.deepEqual(idsOf(await get({ organizationId: org, userId: 'u3' })), ['f7']);
    assert.deepEqual(idsOf(await get({ organizationId: org, userId: 'u2' })), ['f6', 'f3', 'f1']);
    assert.deepEqual(idsOf(await get({ organizationId: org, userId: 'nobody' })), []);
  });

  test('an empty notificationIds list means no filter', async () => {
    assert.deepEqual(idsOf(await get({ organizationId: org, documentId: 'd1', notificationIds: [] })), ['f7', 'f3', 'f2', 'f1']);
    assert.deepEqual(idsOf(await get({ organizationId: org, userId: 'u1', notificationIds: [] })), ['f5', 'f4', 'f2', 'f1']);
    assert.deepEqual(
      idsOf(await get({ organizationId: org, documentId: 'd1', notificationIds: null, locationId: null, userId: null })),
      ['f7', 'f3', 'f2', 'f1'],
    );
  });

  test('notificationIds may repeat ids and hold any string; unknown ones simply match nothing', async () => {
    assert.deepEqual(idsOf(await get({ organizationId: org, documentId: 'd1', notificationIds: ['f1', 'f1', 'f2', 'f1'] })), [
      'f2',
      'f1',
    ]);
    const odd = ['', 'has space', 'a.b', 'x'.repeat(2000), "f1' OR '1'='1", '%', 'f_', '😀', 'F1'];
    assert.deepEqual(idsOf(await get({ organizationId: org, documentId: 'd1', notificationIds: odd })), []);
    assert.deepEqual(idsOf(await get({ organizationId: org, userId: 'u1', notificationIds: ['%', 'f_'] })), []);
  });

  test('nothing matches: data is []', async () => {
    for (const filter of [
      { documentId: 'no-such-doc' },
      { documentId: 'd2', locationId: 'L2' },
      { userId: 'u2', locationId: 'L2' },
      { documentId: 'd2', userId: 'u2' },
      { documentId: 'D1' },
    ]) {
      const r = await t.a.post(PATHS.notificationsGet, { organizationId: org, ...filter });
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(r.json.result.data, [], `${JSON.stringify(filter)}: ${r.body}`);
      assert.equal(r.json.result.pageToken, undefined, r.body);
    }
    assert.deepEqual(await get({ organizationId: 'org-never-used', documentId: 'd1' }), []);
  });
});

describe('order', () => {
  test('timestamp descending (stepping clock), timestamp before id', async () => {
    const s = await makeTestApp({ clock: steppingClock() });
    try {
      // Added in this order: later ones are newer, whatever their ids say.
      const order = ['a', 'z', 'm', 'B', 'b', '0'];
      for (const id of order) await s.a.ok(PATHS.notificationsAdd, note('org-order', { notificationId: id }));
      const r = await s.a.ok(PATHS.notificationsGet, { organizationId: 'org-order', documentId: 'doc-1' });
      const list = r.data as any[];
      assert.deepEqual(idsOf(list), [...order].reverse(), JSON.stringify(idsOf(list)));
      for (let i = 1; i < list.length; i++) {
        assert.ok(
          list[i - 1].timestamp > list[i].timestamp,
          `timestamps must strictly decrease: ${JSON.stringify(list.map((n) => n.timestamp))}`,
        );
      }
      const byUser = await s.a.ok(PATHS.notificationsGet, { organizationId: 'org-order', userId: 'r1' });
      assert.deepEqual(idsOf(byUser.data), [...order].reverse());
    } finally {
      await s.close();
    }
  });

  test('equal timestamps: id descending, comparing code units (B < a < b, - < 0 < Z < _ < a)', async () => {
    const c = await makeTestApp({ clock: () => T0 });
    try {
      const given = ['a', 'B', 'b', '_', '-', '0', 'Z', 'z', 'aa', 'a-', 'A', '9', 'b_', 'bA'];
      for (const id of given) await c.a.ok(PATHS.notificationsAdd, note('org-tie', { notificationId: id }));
      const expected = [...given].sort(byCodeUnitDesc);
      assert.deepEqual(expected.slice(0, 6), ['z', 'b_', 'bA', 'b', 'aa', 'a-']);
      for (const filter of [{ documentId: 'doc-1' }, { userId: 'r1' }, { documentId: 'doc-1', userId: 'r1' }]) {
        const r = await c.a.ok(PATHS.notificationsGet, { organizationId: 'org-tie', ...filter });
        assert.deepEqual(idsOf(r.data), expected, `${JSON.stringify(filter)}: ${JSON.stringify(idsOf(r.data))}`);
        for (const n of r.data) assert.equal(n.timestamp, T0);
      }
    } finally {
      await c.close();
    }
  });
});

describe('paging', () => {
  let p: TestApp;
  let pnow = T0;
  const org = 'org-paging';
  const all: string[] = [];

  before(async () => {
    p = await makeTestApp({ clock: () => pnow });
    // 10 notifications in 4 timestamp groups, ties included, so pages split inside a tie.
    const groups: string[][] = [['p-a', 'p-B', 'p-b'], ['q1', 'q2'], ['Z', 'a', 'b', 'c'], ['only']];
    for (const g of groups) g.sort();
    for (let i = 0; i < groups.length; i++) {
      pnow = T0 + i * 10;
      for (const id of groups[i]!) await p.a.ok(PATHS.notificationsAdd, note(org, { notificationId: id }));
    }
    const r = await p.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1' });
    all.push(...idsOf(r.data));
  });
  after(async () => {
    await p.close();
  });

  test('the full list is in (timestamp desc, id desc) order', () => {
    assert.deepEqual(all, ['only', 'c', 'b', 'a', 'Z', 'q2', 'q1', 'p-b', 'p-a', 'p-B']);
  });

  async function walk(filter: Record<string, unknown>, pageSize: number): Promise<{ ids: string[]; pages: number[] }> {
    const ids: string[] = [];
    const pages: number[] = [];
    let token: string | undefined;
    for (let guard = 0; guard < 100; guard++) {
      const r = await p.a.post(PATHS.notificationsGet, {
        organizationId: org,
        ...filter,
        pageSize,
        ...(token ? { pageToken: token } : {}),
      });
      assert.equal(r.status, 200, r.body);
      const result = r.json.result;
      assert.ok(result.data.length <= pageSize, r.body);
      ids.push(...idsOf(result.data));
      pages.push(result.data.length);
      if (result.pageToken === undefined) return { ids, pages };
      assert.equal(typeof result.pageToken, 'string', r.body);
      assert.ok(result.pageToken.length > 0, r.body);
      assert.equal(result.data.length, pageSize, `a page with a token after it is full: ${r.body}`);
      token = result.pageToken;
    }
    assert.fail('paging did not end');
  }

  for (const size of [1, 2, 3, 4, 9, 10, 11, 1000]) {
    test(`walking pages of ${size} returns every entry exactly once, in order`, async () => {
      const { ids, pages } = await walk({ documentId: 'doc-1' }, size);
      assert.deepEqual(ids, all, `pageSize ${size}: ${JSON.stringify(pages)}`);
      assert.equal(pages.length, Math.max(1, Math.ceil(all.length / size)), `no empty trailing page: ${JSON.stringify(pages)}`);
    });
  }

  test('every page size from 1 to 100 gives its first page, with the page-size reads cached and evicted in between', async () => {
    // The SQLite store keeps a bounded set of prepared reads per page size; more sizes than it holds,
    // asked twice over, must still each answer exactly.
    for (const round of [1, 2]) {
      for (let size = 1; size <= 100; size++) {
        const r = await p.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1', pageSize: size });
        assert.deepEqual(idsOf(r.data), all.slice(0, size), `round ${round}, pageSize ${size}`);
        assert.equal(r.pageToken === undefined, size >= all.length, `round ${round}, pageSize ${size}: token`);
      }
    }
  });

  test('walking with the userId filter and a notificationIds filter', async () => {
    assert.deepEqual((await walk({ userId: 'r1' }, 3)).ids, all);
    const subset = ['Z', 'q1', 'p-B', 'only', 'c'];
    const expected = all.filter((id) => subset.includes(id));
    assert.deepEqual((await walk({ documentId: 'doc-1', notificationIds: subset }, 2)).ids, expected);
  });

  test('pageToken sits beside data in result, only while more remain', async () => {
    const first = await p.a.post(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1', pageSize: 9 });
    assert.equal(first.status, 200, first.body);
    assert.deepEqual(Object.keys(first.json.result).sort(), ['data', 'message', 'pageToken', 'status'], first.body);
    assert.ok(Array.isArray(first.json.result.data), first.body);
    assert.equal(first.json.pageToken, undefined, 'never outside result');
    const last = await p.a.post(PATHS.notificationsGet, {
      organizationId: org,
      documentId: 'doc-1',
      pageSize: 9,
      pageToken: first.json.result.pageToken,
    });
    assert.deepEqual(idsOf(last.json.result.data), all.slice(9), last.body);
    assert.equal(Object.hasOwn(last.json.result, 'pageToken'), false, `no token on the last page: ${last.body}`);
    // Exactly pageSize entries in all: no token.
    const exact = await p.a.post(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1', pageSize: all.length });
    assert.equal(Object.hasOwn(exact.json.result, 'pageToken'), false, exact.body);
    assert.equal(exact.json.result.data.length, all.length);
  });

  test('the page size may change between pages (it is not a filter)', async () => {
    const first = await p.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1', pageSize: 2 });
    const rest = await p.a.ok(PATHS.notificationsGet, {
      organizationId: org,
      documentId: 'doc-1',
      pageSize: 5,
      pageToken: first.pageToken,
    });
    assert.deepEqual([...idsOf(first.data), ...idsOf(rest.data)], all.slice(0, 7));
  });

  test('a token stays good when newer notifications arrive: they do not shift the next page', async () => {
    const empty = await p.a.ok(PATHS.notificationsGet, { organizationId: 'org-paging-live', documentId: 'doc-1', pageSize: 1 });
    assert.deepEqual(empty.data, []);
    assert.equal(empty.pageToken, undefined, 'empty organization: no token');
    pnow = T0 + 1_000;
    for (const id of ['l1', 'l2', 'l3']) {
      pnow += 1;
      await p.a.ok(PATHS.notificationsAdd, note('org-paging-live', { notificationId: id }));
    }
    const page1 = await p.a.ok(PATHS.notificationsGet, { organizationId: 'org-paging-live', documentId: 'doc-1', pageSize: 1 });
    assert.deepEqual(idsOf(page1.data), ['l3']);
    pnow += 1;
    await p.a.ok(PATHS.notificationsAdd, note('org-paging-live', { notificationId: 'l4' }));
    const page2 = await p.a.ok(PATHS.notificationsGet, {
      organizationId: 'org-paging-live',
      documentId: 'doc-1',
      pageSize: 1,
      pageToken: page1.pageToken,
    });
    assert.deepEqual(idsOf(page2.data), ['l2']);
  });

  test('default page size is 1000; 1001 entries give a full page and a token to the last one', async () => {
    const big = 'org-paging-big';
    pnow = T0 + 50_000;
    for (let i = 0; i < 1001; i++) {
      await p.a.ok(PATHS.notificationsAdd, note(big, { notificationId: `n${String(i).padStart(4, '0')}` }));
    }
    const first = await p.a.post(PATHS.notificationsGet, { organizationId: big, documentId: 'doc-1' });
    assert.equal(first.status, 200, first.body.slice(0, 300));
    assert.equal(first.json.result.data.length, 1000);
    assert.equal(first.json.result.data[0].id, 'n1000');
    assert.equal(typeof first.json.result.pageToken, 'string', 'a token while one remains');
    const second = await p.a.ok(PATHS.notificationsGet, {
      organizationId: big,
      documentId: 'doc-1',
      pageToken: first.json.result.pageToken,
    });
    assert.deepEqual(idsOf(second.data), ['n0000']);
    assert.equal(second.pageToken, undefined);
    const max = await p.a.ok(PATHS.notificationsGet, { organizationId: big, userId: 'r1', pageSize: 1000 });
    assert.equal(max.data.length, 1000);
    assert.equal(typeof max.pageToken, 'string');
  });
});
