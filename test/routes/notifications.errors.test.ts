// notifications/add and notifications/get, the rejections (docs/api.md, "Wire format", "Identifiers and limits" and
// "Notifications"): every one is INVALID_ARGUMENT (or ALREADY_EXISTS) naming the member, and none of them writes
// anything.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, user, type TestApp, notificationData, T0 } from '../helpers/app.js';

let t: TestApp;
let now = T0;

before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => {
  await t.close();
});

const note = notificationData;

async function getAll(organizationId: string, filter: Record<string, unknown> = { userId: 'r1' }): Promise<any[]> {
  const result = await t.a.ok(PATHS.notificationsGet, { organizationId, ...filter });
  return result.data as any[];
}

const cp = (n: number) => '😀'.repeat(n); // n code points, 2n UTF-16 code units

describe('notifications/add rejects bad members, naming them, and writes nothing', () => {
  const org = 'org-add-bad';
  const without = (member: string) => {
    const d = note(org);
    delete d[member];
    return d;
  };
  const cases: [string, Record<string, unknown>, string][] = [
    ['organizationId missing', without('organizationId'), 'data.organizationId'],
    ['organizationId null', note(org, { organizationId: null }), 'data.organizationId'],
    ['organizationId empty', note(org, { organizationId: '' }), 'data.organizationId'],
    ['organizationId 257 chars', note(org, { organizationId: 'o'.repeat(257) }), 'data.organizationId'],
    ['organizationId a number', note(org, { organizationId: 7 }), 'data.organizationId'],
    ['documentId empty', note(org, { documentId: '' }), 'data.documentId'],
    ['documentId 257 code points', note(org, { documentId: cp(257) }), 'data.documentId'],
    ['documentId a number', note(org, { documentId: 1 }), 'data.documentId'],
    ['documentId an object', note(org, { documentId: { id: 'd' } }), 'data.documentId'],
    ['locationId empty', note(org, { locationId: '' }), 'data.locationId'],
    ['locationId 257 chars', note(org, { locationId: 'l'.repeat(257) }), 'data.locationId'],
    ['locationId an array', note(org, { locationId: ['l'] }), 'data.locationId'],
    ['notificationId 129 chars', note(org, { notificationId: 'n'.repeat(129) }), 'data.notificationId'],
    ['notificationId with a dot', note(org, { notificationId: 'a.b' }), 'data.notificationId'],
    ['notificationId with a space', note(org, { notificationId: 'a b' }), 'data.notificationId'],
    ['notificationId empty', note(org, { notificationId: '' }), 'data.notificationId'],
    ['notificationId with a slash', note(org, { notificationId: 'a/b' }), 'data.notificationId'],
    ['notificationId non-ASCII letter', note(org, { notificationId: 'caf\u00e9' }), 'data.notificationId'],
    ['notificationId with a newline', note(org, { notificationId: 'abc\n' }), 'data.notificationId'],
    ['notificationId a number', note(org, { notificationId: 12 }), 'data.notificationId'],
    ['actionUser missing', without('actionUser'), 'data.actionUser'],
    ['actionUser null', note(org, { actionUser: null }), 'data.actionUser'],
    ['actionUser a string', note(org, { actionUser: 'actor' }), 'data.actionUser'],
    ['actionUser without userId', note(org, { actionUser: { name: 'A', email: 'a@example.com' } }), 'data.actionUser.userId'],
    ['actionUser.userId null', note(org, { actionUser: { userId: null } }), 'data.actionUser.userId'],
    ['actionUser.userId empty', note(org, { actionUser: { userId: '' } }), 'data.actionUser.userId'],
    ['actionUser.userId a number', note(org, { actionUser: { userId: 5 } }), 'data.actionUser.userId'],
    ['actionUser.name a number', note(org, { actionUser: { userId: 'a', name: 5 } }), 'data.actionUser.name'],
    [
      'actionUser.email not a string',
      note(org, { actionUser: { userId: 'a', email: ['not-an-email'] } }),
      'data.actionUser.email',
    ],
    ['displayHeadlineMessageTemplate missing', without('displayHeadlineMessageTemplate'), 'data.displayHeadlineMessageTemplate'],
    [
      'displayHeadlineMessageTemplate null',
      note(org, { displayHeadlineMessageTemplate: null }),
      'data.displayHeadlineMessageTemplate',
    ],
    [
      'displayHeadlineMessageTemplate a number',
      note(org, { displayHeadlineMessageTemplate: 1 }),
      'data.displayHeadlineMessageTemplate',
    ],
    [
      'displayHeadlineMessageTemplateData a string',
      note(org, { displayHeadlineMessageTemplateData: 'x' }),
      'data.displayHeadlineMessageTemplateData',
    ],
    [
      'displayHeadlineMessageTemplateData an array',
      note(org, { displayHeadlineMessageTemplateData: [] }),
      'data.displayHeadlineMessageTemplateData',
    ],
    ['displayBodyMessage a number', note(org, { displayBodyMessage: 3 }), 'data.displayBodyMessage'],
    ['displayBodyMessage an object', note(org, { displayBodyMessage: {} }), 'data.displayBodyMessage'],
    ['notificationSourceData a string', note(org, { notificationSourceData: 'x' }), 'data.notificationSourceData'],
    ['notificationSourceData an array', note(org, { notificationSourceData: [1] }), 'data.notificationSourceData'],
    // Missing, null or empty notifyUsers address the whole organization (docs/api.md, "Addressing and read state"):
    // not errors any more.
    ['notifyAll a string', note(org, { notifyAll: 'yes' }), 'data.notifyAll'],
    ['notifyUsers an object', note(org, { notifyUsers: { userId: 'r1' } }), 'data.notifyUsers'],
    [
      'notifyUsers 1001 entries',
      note(org, { notifyUsers: Array.from({ length: 1001 }, (_, i) => ({ userId: `u${i}` })) }),
      'data.notifyUsers',
    ],
    ['notifyUsers[1] without userId', note(org, { notifyUsers: [user('r1'), { name: 'No Id' }] }), 'data.notifyUsers[1].userId'],
    ['notifyUsers[2] a string', note(org, { notifyUsers: [user('r1'), user('r2'), 'r3'] }), 'data.notifyUsers[2]'],
    ['notifyUsers[0].userId a number', note(org, { notifyUsers: [{ userId: 1 }] }), 'data.notifyUsers[0].userId'],
    [
      'notifyUsers[1].userId 257 chars',
      note(org, { notifyUsers: [user('r1'), { userId: 'u'.repeat(257) }] }),
      'data.notifyUsers[1].userId',
    ],
    [
      'notifyUsers[0].email over 254 characters',
      note(org, { notifyUsers: [{ userId: 'r1', email: `${'x'.repeat(251)}@y.z` }] }),
      'data.notifyUsers[0].email',
    ],
  ];

  for (const [name, data, path] of cases) {
    test(name, async () => {
      const r = await t.a.post(PATHS.notificationsAdd, data);
      const message = expectError(r, 400, 'INVALID_ARGUMENT', name);
      assert.ok(message.includes(path), `message should name ${path}: ${r.body}`);
    });
  }

  test('none of the rejected requests wrote anything', async () => {
    for (const filter of [{ documentId: 'doc-1' }, { userId: 'r1' }, { userId: 'r2' }, { userId: 'u0' }]) {
      assert.deepEqual(await getAll(org, filter), [], JSON.stringify(filter));
    }
    // And the actors and recipients got no profiles.
    const r = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'actor' }, { userId: 'r1' }] });
    assert.equal(r.data.actor.success, false, JSON.stringify(r));
    assert.equal(r.data.r1.success, false, JSON.stringify(r));
  });

  test('lengths count code points: 256 emoji ids are accepted, 1000 recipients are accepted', async () => {
    const ok = await t.a.post(
      PATHS.notificationsAdd,
      note('org-add-limits', {
        documentId: cp(256),
        locationId: cp(256),
        actionUser: { userId: cp(256) },
        notificationId: 'z'.repeat(128),
        notifyUsers: Array.from({ length: 1000 }, (_, i) => ({ userId: `u${i}` })),
      }),
    );
    assert.equal(ok.status, 200, ok.body);
    const list = await getAll('org-add-limits', { documentId: cp(256), locationId: cp(256) });
    assert.equal(list.length, 1, JSON.stringify(list).slice(0, 300));
    assert.equal(Object.keys(list[0].notifyUsersByUserId).length, 1000);
    assert.equal(list[0].actionUser.userId, cp(256));
  });
});

describe('a taken notificationId', () => {
  test('is ALREADY_EXISTS (409) and nothing changes', async () => {
    const org = 'org-taken';
    now = T0 + 1_000;
    await t.a.ok(
      PATHS.notificationsAdd,
      note(org, {
        notificationId: 'taken',
        displayBodyMessage: 'original',
        notifyUsers: [user('r1')],
        displayHeadlineMessageTemplateData: { v: 'original' },
        notificationSourceData: { v: 'original' },
      }),
    );
    const before = await getAll(org, { documentId: 'doc-1' });

    now = T0 + 2_000;
    const again = await t.a.post(
      PATHS.notificationsAdd,
      note(org, {
        notificationId: 'taken',
        documentId: 'doc-2',
        locationId: 'L',
        displayBodyMessage: 'second',
        notifyUsers: [user('r1'), user('r9')],
        actionUser: user('intruder'),
        displayHeadlineMessageTemplateData: { v: 'second' },
        notificationSourceData: { v: 'second' },
      }),
    );
    const message = expectError(again, 409, 'ALREADY_EXISTS');
    assert.match(message, /taken/, again.body);

    assert.deepEqual(await getAll(org, { documentId: 'doc-1' }), before);
    assert.deepEqual(await getAll(org, { documentId: 'doc-2' }), []);
    assert.deepEqual(await getAll(org, { userId: 'r9' }), []);
    const byR1 = await getAll(org, { userId: 'r1' });
    assert.equal(byR1.length, 1, JSON.stringify(byR1));
    assert.equal(byR1[0].displayBodyMessage, 'original');
    assert.equal(byR1[0].timestamp, T0 + 1_000);
    assert.deepEqual(byR1[0].notifyUsersByUserId, { r1: true });
    // The intruding actor got no profile either.
    const u = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'intruder' }] });
    assert.equal(u.data.intruder.success, false);
    now = T0;
  });

  test('ids are case-sensitive: Taken and taken are two notifications', async () => {
    const org = 'org-taken-case';
    await t.a.ok(PATHS.notificationsAdd, note(org, { notificationId: 'taken' }));
    await t.a.ok(PATHS.notificationsAdd, note(org, { notificationId: 'Taken' }));
    const list = await getAll(org, { documentId: 'doc-1' });
    assert.deepEqual(list.map((n) => n.id).sort(), ['Taken', 'taken']);
  });
});

describe('notifications/get rejects bad members', () => {
  const org = 'org-get-bad';
  const base = { organizationId: org, documentId: 'doc-1' };
  const cases: [string, Record<string, unknown>, string][] = [
    ['organizationId missing', { documentId: 'doc-1' }, 'data.organizationId'],
    ['organizationId null', { ...base, organizationId: null }, 'data.organizationId'],
    ['organizationId empty', { ...base, organizationId: '' }, 'data.organizationId'],
    ['organizationId a number', { ...base, organizationId: 1 }, 'data.organizationId'],
    ['documentId a number', { ...base, documentId: 1 }, 'data.documentId'],
    ['documentId empty', { ...base, documentId: '' }, 'data.documentId'],
    ['documentId 257 chars', { ...base, documentId: 'd'.repeat(257) }, 'data.documentId'],
    ['userId a boolean', { organizationId: org, userId: true }, 'data.userId'],
    ['userId empty', { organizationId: org, userId: '' }, 'data.userId'],
    ['locationId a number', { ...base, locationId: 2 }, 'data.locationId'],
    ['locationId empty', { ...base, locationId: '' }, 'data.locationId'],
    ['notificationIds a string', { ...base, notificationIds: 'n1' }, 'data.notificationIds'],
    ['notificationIds[1] a number', { ...base, notificationIds: ['n1', 2] }, 'data.notificationIds[1]'],
    ['notificationIds[0] null', { ...base, notificationIds: [null] }, 'data.notificationIds[0]'],
    [
      'notificationIds 1001 entries',
      { ...base, notificationIds: Array.from({ length: 1001 }, (_, i) => `n${i}`) },
      'data.notificationIds',
    ],
    ['pageSize 0', { ...base, pageSize: 0 }, 'data.pageSize'],
    ['pageSize 1001', { ...base, pageSize: 1001 }, 'data.pageSize'],
    ['pageSize -1', { ...base, pageSize: -1 }, 'data.pageSize'],
    ['pageSize 1.5', { ...base, pageSize: 1.5 }, 'data.pageSize'],
    ['pageSize "10"', { ...base, pageSize: '10' }, 'data.pageSize'],
    ['pageToken a number', { ...base, pageToken: 5 }, 'data.pageToken'],
  ];
  for (const [name, data, path] of cases) {
    test(name, async () => {
      const r = await t.a.post(PATHS.notificationsGet, data);
      const message = expectError(r, 400, 'INVALID_ARGUMENT', name);
      assert.ok(message.includes(path), `message should name ${path}: ${r.body}`);
    });
  }

  test('documentId or userId is required (absent, null, or only locationId / notificationIds)', async () => {
    for (const data of [
      { organizationId: org },
      { organizationId: org, documentId: null, userId: null },
      { organizationId: org, locationId: 'L1' },
      { organizationId: org, notificationIds: ['n1'] },
      { organizationId: org, locationId: 'L1', notificationIds: ['n1'], pageSize: 5 },
    ]) {
      const r = await t.a.post(PATHS.notificationsGet, data);
      const message = expectError(r, 400, 'INVALID_ARGUMENT', JSON.stringify(data));
      assert.match(message, /documentId/, r.body);
      assert.match(message, /userId/, r.body);
    }
  });

  test('the limits themselves are accepted: pageSize 1 and 1000, 1000 notificationIds, null optional members', async () => {
    for (const data of [
      { ...base, pageSize: 1 },
      { ...base, pageSize: 1000 },
      { ...base, pageSize: null, pageToken: null, locationId: null, userId: null, notificationIds: null },
      { ...base, notificationIds: Array.from({ length: 1000 }, (_, i) => `n${i}`) },
      { organizationId: org, userId: 'u'.repeat(256) },
    ]) {
      const r = await t.a.post(PATHS.notificationsGet, data);
      assert.equal(r.status, 200, `${JSON.stringify(data).slice(0, 200)}: ${r.body}`);
      assert.deepEqual(r.json.result.data, []);
    }
  });
});

describe('page tokens', () => {
  const org = 'org-tokens';
  let token = '';

  before(async () => {
    for (let i = 0; i < 4; i++) {
      now = T0 + 10_000 + i;
      await t.a.ok(
        PATHS.notificationsAdd,
        note(org, { notificationId: `t${i}`, locationId: 'L1', notifyUsers: [user('r1'), user('r2')] }),
      );
    }
    now = T0;
    const first = await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1', pageSize: 1 });
    assert.deepEqual(
      first.data.map((n: any) => n.id),
      ['t3'],
    );
    token = first.pageToken;
    assert.equal(typeof token, 'string', JSON.stringify(first));
  });

  test('the token works with the filters it came from', async () => {
    const next = await t.a.ok(PATHS.notificationsGet, {
      organizationId: org,
      documentId: 'doc-1',
      pageSize: 1,
      pageToken: token,
    });
    assert.deepEqual(
      next.data.map((n: any) => n.id),
      ['t2'],
    );
  });

  const flip = (s: string) => {
    const i = Math.floor(s.length / 2);
    return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  };
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

  const malformed: [string, () => string][] = [
    ['garbage', () => 'garbage'],
    ['empty', () => ''],
    ['punctuation', () => '!!!***'],
    ['base64 of a non-JSON string', () => Buffer.from('hello world').toString('base64url')],
    ['base64 of an object', () => b64({ timestamp: 1, id: 'x' })],
    ['base64 of an empty array', () => b64([])],
    ['base64 of a short array', () => b64([1, 2])],
    ['base64 of a wrong version', () => b64([99, T0, 't3', 'abc'])],
    ['base64 of a non-integer timestamp', () => b64([1, 'now', 't3', 'abc'])],
    ['a truncated token', () => token.slice(0, Math.floor(token.length / 2))],
    ['a token with one character changed', () => flip(token)],
    ['a token with junk appended', () => `${token}@@@`],
    ['a 5000-character token', () => 'A'.repeat(5000)],
  ];
  for (const [name, make] of malformed) {
    test(`a malformed pageToken (${name}) is INVALID_ARGUMENT`, async () => {
      const pageToken = make();
      const r = await t.a.post(PATHS.notificationsGet, { organizationId: org, documentId: 'doc-1', pageSize: 1, pageToken });
      const message = expectError(r, 400, 'INVALID_ARGUMENT', name);
      assert.match(message, /pageToken/, r.body);
    });
  }

  const otherFilters: [string, Record<string, unknown>][] = [
    ['another documentId', { organizationId: org, documentId: 'doc-2' }],
    ['another organizationId', { organizationId: 'org-tokens-2', documentId: 'doc-1' }],
    ['a locationId added', { organizationId: org, documentId: 'doc-1', locationId: 'L1' }],
    ['a userId added', { organizationId: org, documentId: 'doc-1', userId: 'r1' }],
    ['userId instead of documentId', { organizationId: org, userId: 'r1' }],
    ['a notificationIds filter added', { organizationId: org, documentId: 'doc-1', notificationIds: ['t0', 't1', 't2'] }],
  ];
  for (const [name, data] of otherFilters) {
    test(`a token used with other filters (${name}) is INVALID_ARGUMENT`, async () => {
      const r = await t.a.post(PATHS.notificationsGet, { ...data, pageSize: 1, pageToken: token });
      const message = expectError(r, 400, 'INVALID_ARGUMENT', name);
      assert.match(message, /pageToken/, r.body);
    });
  }

  test('a token from an id-filtered query does not fit another id list', async () => {
    const first = await t.a.ok(PATHS.notificationsGet, {
      organizationId: org,
      documentId: 'doc-1',
      notificationIds: ['t0', 't1', 't2'],
      pageSize: 1,
    });
    assert.deepEqual(
      first.data.map((n: any) => n.id),
      ['t2'],
    );
    const other = await t.a.post(PATHS.notificationsGet, {
      organizationId: org,
      documentId: 'doc-1',
      notificationIds: ['t0', 't1'],
      pageSize: 1,
      pageToken: first.pageToken,
    });
    expectError(other, 400, 'INVALID_ARGUMENT');
    const none = await t.a.post(PATHS.notificationsGet, {
      organizationId: org,
      documentId: 'doc-1',
      pageSize: 1,
      pageToken: first.pageToken,
    });
    expectError(none, 400, 'INVALID_ARGUMENT');
    const same = await t.a.ok(PATHS.notificationsGet, {
      organizationId: org,
      documentId: 'doc-1',
      notificationIds: ['t0', 't1', 't2'],
      pageSize: 5,
      pageToken: first.pageToken,
    });
    assert.deepEqual(
      same.data.map((n: any) => n.id),
      ['t1', 't0'],
    );
  });
});
