// notifications/add and notifications/get across tenants and credentials (docs/api.md, "Credentials" and
// "Notifications"): the same organization, document, notification and user ids under tenant b see and change
// nothing of tenant a.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant } from '../../src/services/credentials.js';
import { expectError, HEX32, makeTestApp, PATHS, user, type Caller, type TestApp, T0 } from '../helpers/app.js';

let t: TestApp;
let now = T0;

before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => {
  await t.close();
});

const ORG = 'shared-org';
const DOC = 'shared-doc';

function note(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    organizationId: ORG,
    documentId: DOC,
    locationId: 'shared-loc',
    actionUser: user('shared-actor'),
    displayHeadlineMessageTemplate: 'tenant a headline',
    displayHeadlineMessageTemplateData: { recipientUser: { userId: 'shared-user' } },
    notifyUsers: [user('shared-user')],
    ...over,
  };
}

async function get(caller: Caller, data: Record<string, unknown>): Promise<any[]> {
  const result = await caller.ok(PATHS.notificationsGet, data);
  return result.data as any[];
}

const filtersOfA = [
  { organizationId: ORG, documentId: DOC },
  { organizationId: ORG, userId: 'shared-user' },
  { organizationId: ORG, documentId: DOC, locationId: 'shared-loc' },
  { organizationId: ORG, documentId: DOC, userId: 'shared-user' },
  { organizationId: ORG, locationId: 'shared-loc', userId: 'shared-user' },
  { organizationId: ORG, documentId: DOC, locationId: 'shared-loc', userId: 'shared-user' },
  { organizationId: ORG, documentId: DOC, notificationIds: ['same-id'] },
  { organizationId: ORG, userId: 'shared-user', notificationIds: ['same-id'] },
];

describe('tenant isolation', () => {
  let aView: any[] = [];

  before(async () => {
    now = T0 + 1;
    await t.a.ok(PATHS.usersAdd, {
      organizationId: ORG,
      users: [{ userId: 'shared-actor', name: 'A Actor', email: 'a-actor@example.com' }],
    });
    await t.a.ok(PATHS.notificationsAdd, note({ notificationId: 'same-id', displayBodyMessage: 'secret of a' }));
    aView = await get(t.a, { organizationId: ORG, documentId: DOC });
    assert.equal(aView.length, 1, JSON.stringify(aView));
  });

  test('tenant b sees nothing of tenant a under the same organization, document, location, user and notification ids', async () => {
    for (const filter of filtersOfA) {
      const list = await get(t.b, filter);
      assert.deepEqual(list, [], `tenant b with ${JSON.stringify(filter)}: ${JSON.stringify(list)}`);
    }
  });

  test('tenant b may use the same notificationId independently; each tenant sees only its own', async () => {
    now = T0 + 2;
    const r = await t.b.ok(
      PATHS.notificationsAdd,
      note({
        notificationId: 'same-id',
        displayHeadlineMessageTemplate: 'tenant b headline',
        displayBodyMessage: 'of b',
        actionUser: { userId: 'shared-actor', name: 'B Sent', email: 'b-sent@example.com' },
        notifyUsers: [user('shared-user'), user('b-only')],
      }),
    );
    assert.equal(r.data.id, 'same-id', JSON.stringify(r));

    // Tenant a's view is exactly as before.
    assert.deepEqual(await get(t.a, { organizationId: ORG, documentId: DOC }), aView);
    for (const filter of filtersOfA) {
      const list = await get(t.a, filter);
      assert.deepEqual(
        list.map((n) => [n.id, n.displayBodyMessage]),
        [['same-id', 'secret of a']],
        `a with ${JSON.stringify(filter)}`,
      );
    }
    assert.deepEqual(await get(t.a, { organizationId: ORG, userId: 'b-only' }), []);

    const bView = await get(t.b, { organizationId: ORG, documentId: DOC });
    assert.equal(bView.length, 1, JSON.stringify(bView));
    assert.equal(bView[0].displayHeadlineMessageTemplate, 'tenant b headline');
    assert.equal(bView[0].displayBodyMessage, 'of b');
    assert.deepEqual(bView[0].notifyUsersByUserId, { 'shared-user': true, 'b-only': true });
    // Tenant a's profile of shared-actor is not tenant b's: b sees what it sent.
    assert.deepEqual(
      bView[0].actionUser,
      { email: 'b-sent@example.com', name: 'B Sent', userId: 'shared-actor' },
      JSON.stringify(bView[0]),
    );
    assert.equal(bView[0].timestamp, T0 + 2);
  });

  test('a second add of the id by tenant b is ALREADY_EXISTS for b only, and a is untouched', async () => {
    const again = await t.b.post(PATHS.notificationsAdd, note({ notificationId: 'same-id', displayBodyMessage: 'b again' }));
    expectError(again, 409, 'ALREADY_EXISTS');
    // Tenant a can still add other ids, and its own taken id is still taken for it.
    const aAgain = await t.a.post(PATHS.notificationsAdd, note({ notificationId: 'same-id', displayBodyMessage: 'a again' }));
    expectError(aAgain, 409, 'ALREADY_EXISTS');
    assert.deepEqual(await get(t.a, { organizationId: ORG, documentId: DOC }), aView);
  });

  test("metadata.apiKey is always the caller's own key", async () => {
    const aList = await get(t.a, { organizationId: ORG, userId: 'shared-user' });
    const bList = await get(t.b, { organizationId: ORG, userId: 'shared-user' });
    assert.ok(aList.length > 0 && bList.length > 0);
    for (const n of aList) assert.equal(n.metadata.apiKey, t.a.creds.apiKey, JSON.stringify(n.metadata));
    for (const n of bList) assert.equal(n.metadata.apiKey, t.b.creds.apiKey, JSON.stringify(n.metadata));
    assert.notEqual(t.a.creds.apiKey, t.b.creds.apiKey);
    // The auth token is never echoed.
    for (const n of [...aList, ...bList]) {
      const text = JSON.stringify(n);
      assert.ok(!text.includes(t.a.creds.authToken) && !text.includes(t.b.creds.authToken), text);
    }
  });

  test("profiles written by tenant b (users/add, users/update) never show in tenant a's notifications", async () => {
    await t.b.ok(PATHS.usersAdd, {
      organizationId: ORG,
      users: [
        { userId: 'shared-actor', name: 'B Profile', email: 'b-profile@example.com' },
        { userId: 'shared-user', name: 'B User', email: 'b-user@example.com' },
      ],
    });
    await t.b.ok(PATHS.usersUpdate, { organizationId: ORG, users: [{ userId: 'shared-actor', name: 'B Renamed' }] });
    const [n] = await get(t.a, { organizationId: ORG, documentId: DOC });
    assert.deepEqual(n?.actionUser, { email: 'a-actor@example.com', name: 'A Actor', userId: 'shared-actor' }, JSON.stringify(n));
    assert.deepEqual(
      n?.displayHeadlineMessageTemplateData.recipientUser,
      { userId: 'shared-user', name: '', email: '' },
      JSON.stringify(n),
    );
    // And tenant b's users/update of a's user did not create or touch a's profile.
    const [bn] = await get(t.b, { organizationId: ORG, documentId: DOC });
    assert.equal(bn?.actionUser.name, 'B Renamed', JSON.stringify(bn));
  });

  test("notifyUsers keys are each tenant's own internal ids (equal to that tenant's users/add id)", async () => {
    const aIds = await t.a.ok(PATHS.usersUpdate, { organizationId: ORG, users: [{ userId: 'shared-user' }] });
    const bIds = await t.b.ok(PATHS.usersAdd, { organizationId: ORG, users: [{ userId: 'shared-user' }] });
    const [an] = await get(t.a, { organizationId: ORG, documentId: DOC });
    const [bn] = await get(t.b, { organizationId: ORG, documentId: DOC });
    const aKey = aIds.data['shared-user'].id as string;
    const bKey = bIds.data['shared-user'].id as string;
    assert.match(aKey, HEX32);
    assert.match(bKey, HEX32);
    assert.deepEqual(Object.keys(an.notifyUsers), [aKey], JSON.stringify(an.notifyUsers));
    assert.ok(Object.keys(bn.notifyUsers).includes(bKey), JSON.stringify(bn.notifyUsers));
  });

  test("a page token of tenant a, used by tenant b, yields only tenant b's own data", async () => {
    const org = 'paged-org';
    for (let i = 0; i < 3; i++) {
      now = T0 + 100 + i;
      await t.a.ok(PATHS.notificationsAdd, note({ organizationId: org, notificationId: `pa${i}`, displayBodyMessage: 'a' }));
    }
    for (let i = 0; i < 3; i++) {
      now = T0 + 50 + i; // older than all of a's, so a's cursor does not hide them
      await t.b.ok(PATHS.notificationsAdd, note({ organizationId: org, notificationId: `pb${i}`, displayBodyMessage: 'b' }));
    }
    now = T0;
    const filter = { organizationId: org, documentId: DOC };
    const aFirst = await t.a.ok(PATHS.notificationsGet, { ...filter, pageSize: 1 });
    assert.deepEqual(
      aFirst.data.map((n: any) => n.id),
      ['pa2'],
    );
    const r = await t.b.post(PATHS.notificationsGet, { ...filter, pageSize: 10, pageToken: aFirst.pageToken });
    if (r.status === 200) {
      const ids = r.json.result.data.map((n: any) => n.id);
      assert.deepEqual(ids, ['pb2', 'pb1', 'pb0'], r.body);
      for (const n of r.json.result.data) assert.equal(n.metadata.apiKey, t.b.creds.apiKey);
    } else {
      expectError(r, 400, 'INVALID_ARGUMENT', 'a foreign token may be refused');
    }
    // Tenant a's walk still returns its own, complete.
    const aRest = await t.a.ok(PATHS.notificationsGet, { ...filter, pageSize: 10, pageToken: aFirst.pageToken });
    assert.deepEqual(
      aRest.data.map((n: any) => n.id),
      ['pa1', 'pa0'],
    );
  });

  test('ids that look like SQL or patterns are plain strings', async () => {
    const evil = ["x' OR '1'='1", '%', '_', "'; DROP TABLE notifications; --", '*', '\\', '"'];
    for (const [i, s] of evil.entries()) {
      await t.b.ok(PATHS.notificationsAdd, {
        organizationId: s,
        documentId: s,
        locationId: s,
        notificationId: `evil${i}`,
        actionUser: { userId: s },
        displayHeadlineMessageTemplate: s,
        notifyUsers: [{ userId: s }],
      });
    }
    for (const s of evil) {
      for (const filter of [{ documentId: s }, { userId: s }, { documentId: s, locationId: s, userId: s }]) {
        const list = await get(t.b, { organizationId: s, ...filter });
        assert.equal(list.length, 1, `${JSON.stringify(s)} ${JSON.stringify(filter)}: ${JSON.stringify(list.map((n) => n.id))}`);
        assert.equal(list[0].displayHeadlineMessageTemplate, s);
      }
      // Wildcards match nothing of tenant a.
      assert.deepEqual(await get(t.b, { organizationId: s, documentId: DOC }), []);
    }
    assert.deepEqual(await get(t.a, { organizationId: ORG, documentId: DOC }), aView);
  });
});

describe('credentials on the notification operations', () => {
  const org = 'creds-org';
  const data = () => ({
    organizationId: org,
    documentId: 'd',
    notificationId: 'c1',
    actionUser: user('x'),
    displayHeadlineMessageTemplate: 'h',
    notifyUsers: [user('r')],
  });

  test('missing or wrong credentials are 401 and write nothing', async () => {
    const attempts: [string, Record<string, string | undefined>, RegExp][] = [
      ['no headers', {}, /x-service-api-key/],
      ['api key only', { 'x-service-api-key': t.a.creds.apiKey }, /x-service-auth-token/],
      ['token only', { 'x-service-auth-token': t.a.creds.authToken }, /x-service-api-key/],
      [
        'wrong token',
        { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': 'mt_wrong' },
        /^Invalid API key or auth token\.$/,
      ],
      [
        "b's token on a's key",
        { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': t.b.creds.authToken },
        /^Invalid API key or auth token\.$/,
      ],
      [
        'unknown key',
        { 'x-service-api-key': 'mk_unknown', 'x-service-auth-token': t.a.creds.authToken },
        /^Invalid API key or auth token\.$/,
      ],
      ['empty values', { 'x-service-api-key': '', 'x-service-auth-token': '' }, /x-service-api-key/],
    ];
    for (const [name, headers, message] of attempts) {
      for (const path of [PATHS.notificationsAdd, PATHS.notificationsGet]) {
        const r = await t.request(path, { body: { data: data() }, headers });
        const m = expectError(r, 401, 'UNAUTHENTICATED', `${name} ${path}`);
        assert.match(m, message, `${name}: ${r.body}`);
      }
    }
    assert.deepEqual(await get(t.a, { organizationId: org, documentId: 'd' }), []);
    assert.deepEqual(await get(t.b, { organizationId: org, documentId: 'd' }), []);
  });

  test('a disabled tenant is PERMISSION_DENIED (403) and writes nothing; re-enabled it reads its own data', async () => {
    const c = await createTenant(t.store, () => now, 'tenant-c');
    const headers = { 'x-service-api-key': c.apiKey, 'x-service-auth-token': c.authToken };
    const first = await t.request(PATHS.notificationsAdd, { body: { data: { ...data(), notificationId: 'c-before' } }, headers });
    assert.equal(first.status, 200, first.body);

    assert.equal(await t.store.setTenantDisabled(c.apiKey, true), true);
    const add = await t.request(PATHS.notificationsAdd, {
      body: { data: { ...data(), notificationId: 'c-while-disabled' } },
      headers,
    });
    expectError(add, 403, 'PERMISSION_DENIED');
    const read = await t.request(PATHS.notificationsGet, { body: { data: { organizationId: org, documentId: 'd' } }, headers });
    expectError(read, 403, 'PERMISSION_DENIED');
    assert.ok(!read.body.includes('c-before'), read.body);

    assert.equal(await t.store.setTenantDisabled(c.apiKey, false), true);
    const after = await t.request(PATHS.notificationsGet, { body: { data: { organizationId: org, documentId: 'd' } }, headers });
    assert.equal(after.status, 200, after.body);
    assert.deepEqual(
      after.json.result.data.map((n: any) => n.id),
      ['c-before'],
      after.body,
    );
    assert.equal(after.json.result.data[0].metadata.apiKey, c.apiKey);
    // Neither a nor b sees tenant c's notification.
    assert.deepEqual(await get(t.a, { organizationId: org, documentId: 'd' }), []);
    assert.deepEqual(await get(t.b, { organizationId: org, documentId: 'd' }), []);
  });
});
