// Who is on a document (docs/api.md, "Presence"): /v2's presence/add, update and delete, and presence/get
// (an extension), on the configured database. Happy: the pages' examples, members kept and replaced,
// the expiry each write moves, reads that pass over expired presence, pruning in batches. Errors: each
// member's type, statuses, a user not present for update, the document's bound; nothing written or
// announced. Security: credentials first, tenants apart, disabled organizations and documents refuse.
// Events: presence.add, update and delete in the outbox and on the streams of users who may access the
// document. Deletes: a document's, an organization's, and an erasure of a user's data.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pruneExpiredPresence } from '../../src/events/pruner.js';
import { expectError, makeTestApp, PATHS, T0, type TestApp } from '../helpers/app.js';
import { badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { uniq } from '../helpers/threads.js';

const TTL_SECONDS = 60;
let t: TestApp;
let now = T0;
let base: string;
const streams: SseStream[] = [];

before(async () => {
  t = await makeTestApp({
    clock: () => now,
    config: { eventPollMs: 100, presenceTtlSeconds: TTL_SECONDS, maxPresencePerDocument: 3 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
after(async () => {
  for (const s of streams) s.close();
  await t.close();
});

type Caller = TestApp['a'];
const DOC = 'doc-456';

const add = (c: Caller, org: string, users: object[], documentId = DOC) =>
  c.ok(PATHS.presenceAdd, { organizationId: org, documentId, users });
const update = (c: Caller, org: string, users: object[], documentId = DOC) =>
  c.ok(PATHS.presenceUpdate, { organizationId: org, documentId, users });
const remove = (c: Caller, org: string, userIds: string[], documentId = DOC) =>
  c.ok(PATHS.presenceDelete, { organizationId: org, documentId, userIds });
/** presence/get's users. */
async function present(c: Caller, org: string, documentId = DOC) {
  const r = await c.ok(PATHS.presenceGet, { organizationId: org, documentId });
  assert.equal(r.message, 'Presence retrieved successfully.');
  return r.data as {
    userId: string;
    name: string | null;
    email: string | null;
    status: string;
    lastUpdated: number;
    expiresAt: number;
  }[];
}
const ids = async (c: Caller, org: string, documentId = DOC) => (await present(c, org, documentId)).map((p) => p.userId);

const tenantOf = async (c: Caller) => (await t.store.findCredentials(c.creds.apiKey))!.tenant.id;
async function eventsAfter(c: Caller, from: number) {
  const tenant = await tenantOf(c);
  await t.store.eventsNumbered(tenant);
  return (await t.store.eventsAfter(tenant, from, 1000)).map((e) => JSON.parse(e.body));
}
async function lastEventId(c: Caller) {
  const tenant = await tenantOf(c);
  await t.store.eventsNumbered(tenant);
  return t.store.lastEventId(tenant);
}

describe('presence: happy paths', () => {
  test("the pages' examples answer exactly as documented; get shows who is there until when", async () => {
    const org = uniq('org');
    const single = await t.a.post(PATHS.presenceAdd, {
      organizationId: org,
      documentId: DOC,
      users: [{ userId: 'user-1', name: 'User Name', email: 'user@example.com', status: 'online' }],
    });
    assert.deepEqual(single.json, {
      result: { status: 'success', message: 'Presence added successfully.', data: { success: true } },
    });
    await add(t.a, org, [
      { userId: 'user-1', name: 'User Name', email: 'user@example.com' },
      { userId: 'user-2', name: 'Another User', email: 'another@example.com', status: 'away' },
    ]);
    assert.deepEqual(await present(t.a, org), [
      {
        userId: 'user-1',
        name: 'User Name',
        email: 'user@example.com',
        status: 'online',
        lastUpdated: now,
        expiresAt: now + 60_000,
      },
      {
        userId: 'user-2',
        name: 'Another User',
        email: 'another@example.com',
        status: 'away',
        lastUpdated: now,
        expiresAt: now + 60_000,
      },
    ]);
    const updated = await t.a.post(PATHS.presenceUpdate, {
      organizationId: org,
      documentId: DOC,
      users: [{ userId: 'user-1', status: 'away' }],
    });
    assert.deepEqual(updated.json, {
      result: { status: 'success', message: 'Presence updated successfully.', data: { success: true } },
    });
    const deleted = await t.a.post(PATHS.presenceDelete, {
      organizationId: org,
      documentId: DOC,
      userIds: ['user-1', 'user-2', 'user-3'],
    });
    assert.deepEqual(deleted.json, {
      result: { status: 'success', message: 'Presence deleted successfully.', data: { success: true } },
    });
    assert.deepEqual(await present(t.a, org), []);
  });

  test('add keeps the members a presence not yet expired had; update replaces only those sent; a user listed twice: merged', async () => {
    const org = uniq('org');
    await add(t.a, org, [{ userId: 'u', name: 'U', email: 'u@example.com', status: 'away' }]);
    now += 1000;
    await add(t.a, org, [{ userId: 'u' }]);
    assert.deepEqual(
      (await present(t.a, org)).map((p) => [p.name, p.email, p.status, p.lastUpdated]),
      [['U', 'u@example.com', 'away', now]],
    );
    await update(t.a, org, [
      { userId: 'u', name: 'Renamed' },
      { userId: 'u', status: 'offline' },
    ]);
    assert.deepEqual(
      (await present(t.a, org)).map((p) => [p.name, p.email, p.status]),
      [['Renamed', 'u@example.com', 'offline']],
    );
    await add(t.a, org, [{ userId: 'v', name: null, email: null, status: null }]);
    assert.deepEqual((await present(t.a, org))[1], {
      userId: 'v',
      name: null,
      email: null,
      status: 'online',
      lastUpdated: now,
      expiresAt: now + 60_000,
    });
  });

  test('presence expires MARGINALIA_PRESENCE_TTL_SECONDS after its last write; every add or update moves it', async () => {
    const org = uniq('org');
    await add(t.a, org, [
      { userId: 'stays', name: 'S' },
      { userId: 'goes', name: 'G' },
    ]);
    now += 40_000;
    await update(t.a, org, [{ userId: 'stays' }]);
    now += 20_000;
    assert.deepEqual(await ids(t.a, org), ['stays'], "goes' presence ended at its expiry");
    const r = await t.a.post(PATHS.presenceUpdate, { organizationId: org, documentId: DOC, users: [{ userId: 'goes' }] });
    assert.match(
      expectError(r, 404, 'NOT_FOUND'),
      /^No presence of goes on document doc-456 \(never added, deleted, or expired\)/,
    );
    await add(t.a, org, [{ userId: 'goes' }]);
    assert.deepEqual(
      (await present(t.a, org)).map((p) => [p.userId, p.name, p.status]),
      [
        ['goes', null, 'online'],
        ['stays', 'S', 'online'],
      ],
      'an expired presence keeps nothing: added again, it starts anew',
    );
  });

  test('retention prunes expired presence in batches, across tenants, and leaves the present', async () => {
    const [org, other] = [uniq('org'), uniq('org')];
    await add(t.a, org, [{ userId: 'a1' }, { userId: 'a2' }, { userId: 'a3' }]);
    await add(t.b, other, [{ userId: 'b1' }, { userId: 'b2' }]);
    await add(t.a, org, [{ userId: 'fresh' }], 'doc-2');
    const count = async () =>
      Number((await t.db.query(`SELECT count(*) AS n FROM presence WHERE organization_id IN ('${org}', '${other}')`))[0]!.n);
    assert.equal(await count(), 6);
    now += 60_000;
    await add(t.a, org, [{ userId: 'fresh' }], 'doc-2');
    assert.ok((await pruneExpiredPresence(t.store, now, 2)) >= 5, 'batches of 2 until none is left');
    assert.equal(await count(), 1);
    assert.deepEqual(await ids(t.a, org, 'doc-2'), ['fresh']);
    assert.equal(await pruneExpiredPresence(t.store, now, 2), 0);
  });
});

describe('presence: errors', () => {
  test('each member missing or of the wrong type is INVALID_ARGUMENT naming it; nothing written or announced', async () => {
    const org = uniq('org');
    const from = await lastEventId(t.a);
    const good = { organizationId: org, documentId: DOC, users: [{ userId: 'u' }] };
    const cases: [string, object, RegExp][] = [
      [PATHS.presenceAdd, { ...good, organizationId: undefined }, /organizationId/],
      [PATHS.presenceAdd, { ...good, documentId: 7 }, /documentId/],
      [PATHS.presenceAdd, { ...good, users: [] }, /users/],
      [PATHS.presenceAdd, { ...good, users: [{ name: 'no id' }] }, /userId/],
      [PATHS.presenceAdd, { ...good, users: [{ userId: 'u', status: 'busy' }] }, /status/],
      [PATHS.presenceAdd, { ...good, users: [{ userId: 'u', email: 5 }] }, /email/],
      [PATHS.presenceUpdate, { ...good, users: 'u' }, /users/],
      [PATHS.presenceDelete, { organizationId: org, documentId: DOC, userIds: [] }, /userIds/],
      [PATHS.presenceDelete, { organizationId: org, documentId: DOC, users: [{ userId: 'u' }] }, /userIds/],
      [PATHS.presenceGet, { organizationId: org }, /documentId/],
    ];
    for (const [path, data, member] of cases) {
      const message = expectError(await t.a.post(path, data), 400, 'INVALID_ARGUMENT', `${path} ${JSON.stringify(data)}`);
      assert.match(message, member, message);
    }
    assert.deepEqual(await present(t.a, org), []);
    assert.deepEqual(await eventsAfter(t.a, from), []);
  });

  test('update naming a user not present is NOT_FOUND naming them, and writes nothing of the others', async () => {
    const org = uniq('org');
    await add(t.a, org, [{ userId: 'here', status: 'online' }]);
    const from = await lastEventId(t.a);
    const r = await t.a.post(PATHS.presenceUpdate, {
      organizationId: org,
      documentId: DOC,
      users: [
        { userId: 'here', status: 'away' },
        { userId: 'never', status: 'away' },
      ],
    });
    assert.match(expectError(r, 404, 'NOT_FOUND'), /No presence of never on document/);
    assert.deepEqual(
      (await present(t.a, org)).map((p) => p.status),
      ['online'],
    );
    assert.deepEqual(await eventsAfter(t.a, from), []);
  });

  test('a document holds at most MARGINALIA_MAX_PRESENCE_PER_DOCUMENT users at once; refreshing those there is not refused', async () => {
    const org = uniq('org');
    await add(t.a, org, [{ userId: 'u1' }, { userId: 'u2' }, { userId: 'u3' }]);
    const r = await t.a.post(PATHS.presenceAdd, {
      organizationId: org,
      documentId: DOC,
      users: [{ userId: 'u1' }, { userId: 'u4' }],
    });
    assert.match(expectError(r, 429, 'RESOURCE_EXHAUSTED'), /more than 3 users present.*MARGINALIA_MAX_PRESENCE_PER_DOCUMENT/);
    assert.deepEqual(await ids(t.a, org), ['u1', 'u2', 'u3']);
    await add(t.a, org, [{ userId: 'u3', status: 'away' }]);
    await remove(t.a, org, ['u2']);
    await add(t.a, org, [{ userId: 'u4' }]);
    now += 60_000;
    await add(t.a, org, [{ userId: 'n1' }, { userId: 'n2' }, { userId: 'n3' }]);
    assert.deepEqual(await ids(t.a, org), ['n1', 'n2', 'n3'], 'expired presence does not count');
  });
});

describe('presence: security', () => {
  for (const path of [PATHS.presenceAdd, PATHS.presenceUpdate, PATHS.presenceDelete, PATHS.presenceGet]) {
    test(`${path}: missing or bad credentials are 401 before the body is looked at; not served on v1`, async () => {
      await expectMissingCredentials(t, path, { data: 'not even an object' });
      for (const [label, headers] of badCredentialCases(t))
        await expectBadCredentials(t, path, label, headers, { data: { organizationId: 'o', documentId: 'd', users: [] } });
      assert.equal((await t.a.post(path.replace(/^\/v2\//, '/v1/'), {})).status, 404);
    });
  }

  test("tenant b naming tenant a's organization, document and users reads and changes nothing of a's", async () => {
    const org = uniq('org');
    await add(t.a, org, [{ userId: 'u', name: 'A' }]);
    assert.deepEqual(await present(t.b, org), []);
    const r = await t.b.post(PATHS.presenceUpdate, { organizationId: org, documentId: DOC, users: [{ userId: 'u', name: 'B' }] });
    expectError(r, 404, 'NOT_FOUND');
    await remove(t.b, org, ['u']);
    await add(t.b, org, [{ userId: 'u', name: 'B' }]);
    assert.deepEqual(
      (await present(t.a, org)).map((p) => p.name),
      ['A'],
    );
    assert.deepEqual(
      (await present(t.b, org)).map((p) => p.name),
      ['B'],
    );
  });

  test('a disabled organization or document refuses presence writes (nothing written or announced); get reads on', async () => {
    const org = uniq('org');
    await add(t.a, org, [{ userId: 'u' }]);
    await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: [DOC], disabled: true });
    const from = await lastEventId(t.a);
    const writes: [string, object][] = [
      [PATHS.presenceAdd, { users: [{ userId: 'v' }] }],
      [PATHS.presenceUpdate, { users: [{ userId: 'u', status: 'away' }] }],
      [PATHS.presenceDelete, { userIds: ['u'] }],
    ];
    for (const [path, data] of writes) {
      const r = await t.a.post(path, { organizationId: org, documentId: DOC, ...data });
      assert.equal(expectError(r, 403, 'PERMISSION_DENIED', path), `Document ${DOC} is disabled.`);
    }
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    const r = await t.a.post(PATHS.presenceAdd, { organizationId: org, documentId: 'new', users: [{ userId: 'v' }] });
    assert.equal(expectError(r, 403, 'PERMISSION_DENIED'), `Organization ${org} is disabled.`);
    assert.deepEqual(await ids(t.a, org), ['u']);
    assert.deepEqual(
      (await eventsAfter(t.a, from)).filter((e) => e.type.startsWith('presence.')),
      [],
    );
  });
});

describe('presence: events', () => {
  test('presence.add, update and delete carry the users as written, under the document', async () => {
    const org = uniq('org');
    const from = await lastEventId(t.a);
    await add(t.a, org, [{ userId: 'u', name: 'U', email: 'u@example.com' }]);
    now += 5;
    await update(t.a, org, [{ userId: 'u', status: 'away' }]);
    await remove(t.a, org, ['u', 'not-there']);
    await remove(t.a, org, ['u']);
    const events = (await eventsAfter(t.a, from)).map(({ type, organizationId, documentId, data, timestamp }) => ({
      type,
      organizationId,
      documentId,
      data,
      timestamp,
    }));
    const user = { userId: 'u', name: 'U', email: 'u@example.com' };
    assert.deepEqual(events, [
      {
        type: 'presence.add',
        organizationId: org,
        documentId: DOC,
        data: { users: [{ ...user, status: 'online', lastUpdated: now - 5, expiresAt: now - 5 + 60_000 }] },
        timestamp: now - 5,
      },
      {
        type: 'presence.update',
        organizationId: org,
        documentId: DOC,
        data: { users: [{ ...user, status: 'away', lastUpdated: now, expiresAt: now + 60_000 }] },
        timestamp: now,
      },
      { type: 'presence.delete', organizationId: org, documentId: DOC, data: { userIds: ['u'] }, timestamp: now },
    ]);
  });

  test("an end-user token's stream carries presence by document access; the family filter presence.* names them", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'member' }] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'restricted', users: [{ userId: 'listed' }] });
    await t.a.ok(PATHS.documentsAccess, { organizationId: org, documentIds: ['restricted'], accessType: 'restricted' });
    const as = async (userId: string) => {
      const token = (await t.a.ok(PATHS.authTokenGet, { userId, userProperties: { organizationId: org } })).data.token;
      const s = await openStream(`${base}/v1/events?token=${token}&types=presence.*`);
      streams.push(s);
      assert.equal(s.status, 200, s.body);
      return s;
    };
    const [member, listed] = [await as('member'), await as('listed')];
    const server = await openStream(`${base}/v1/events?organizationId=${org}&types=presence.delete`, {
      'x-service-api-key': t.a.creds.apiKey,
      'x-service-auth-token': t.a.creds.authToken,
    });
    streams.push(server);
    await add(t.a, org, [{ userId: 'listed' }], 'restricted');
    await update(t.a, org, [{ userId: 'listed', status: 'away' }], 'restricted');
    await add(t.a, org, [{ userId: 'member' }], 'open');
    await remove(t.a, org, ['member'], 'open');
    const seen = async (s: SseStream) =>
      (await s.until((m) => JSON.parse(m.data).type === 'presence.delete')).map((m) => {
        const e = JSON.parse(m.data);
        return `${e.type} ${e.documentId}`;
      });
    assert.deepEqual(
      await seen(listed),
      ['presence.add restricted', 'presence.update restricted', 'presence.add open', 'presence.delete open'],
      'a member of the restricted document sees both documents',
    );
    assert.deepEqual(
      await seen(member),
      ['presence.add open', 'presence.delete open'],
      'an organization member: not the restricted one',
    );
    assert.deepEqual(await seen(server), ['presence.delete open'], 'the server credentials: every one the filter names');
    const other = await openStream(`${base}/v1/events?types=presence.*`, {
      'x-service-api-key': t.b.creds.apiKey,
      'x-service-auth-token': t.b.creds.authToken,
    });
    streams.push(other);
    await add(t.a, org, [{ userId: 'member' }], 'open');
    await add(t.b, uniq('org'), [{ userId: 'b-user' }], 'b-doc');
    assert.equal(
      JSON.parse((await other.next()).data).data.users[0].userId,
      'b-user',
      "tenant b's stream never carries a's presence",
    );
  });
});

describe('presence: deletes', () => {
  test("documents/delete and organizations/delete remove its presence; another document's stays", async () => {
    const [org, other] = [uniq('org'), uniq('org')];
    await add(t.a, org, [{ userId: 'u' }], 'doc');
    await add(t.a, org, [{ userId: 'u' }], 'kept');
    await add(t.a, other, [{ userId: 'u' }], 'doc');
    await t.a.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['doc'] });
    assert.deepEqual(await ids(t.a, org, 'doc'), []);
    assert.deepEqual(await ids(t.a, org, 'kept'), ['u']);
    await t.a.ok(PATHS.organizationsDelete, { organizationIds: [org] });
    assert.deepEqual(await t.db.query(`SELECT user_id FROM presence WHERE organization_id = '${org}'`), []);
    assert.deepEqual(await ids(t.a, other, 'doc'), ['u']);
  });

  test("users/data/delete erases the users' presence wherever it is, and no one else's", async () => {
    const [o1, o2] = [uniq('org'), uniq('org')];
    await add(t.a, o1, [{ userId: 'erased', name: 'E', email: 'e@example.com' }, { userId: 'kept' }]);
    await add(t.a, o2, [{ userId: 'erased' }], 'elsewhere');
    await add(t.b, o1, [{ userId: 'erased' }]);
    await t.a.ok(PATHS.userDataDelete, { userIds: ['erased'] });
    assert.deepEqual(await ids(t.a, o1), ['kept']);
    assert.deepEqual(await ids(t.a, o2, 'elsewhere'), []);
    assert.deepEqual(await ids(t.b, o1), ['erased'], "another tenant's user of the same id is not erased");
    assert.deepEqual(await t.db.query(`SELECT user_id FROM presence WHERE email = 'e@example.com'`), []);
  });
});
