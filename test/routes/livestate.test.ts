// Documents' live state: livestate/broadcast and livestate/get (an extension), on the configured
// database. Happy: the original page's example with and without the `{"data": ...}` envelope, replace,
// the shallow merge, get by id and all in id order, nothing created by a read. Errors: each member
// missing or of the wrong type is INVALID_ARGUMENT naming it, and a document's bound on ids; nothing
// written, nothing announced. Security: credentials first, tenants apart, disabled organizations and
// documents refuse. Events: livestate.broadcast with the state after the change, in the outbox and on
// the streams of users who may access the document. Deletes: a document's and an organization's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, T0, type TestApp } from '../helpers/app.js';
import { badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { uniq } from '../helpers/threads.js';

let t: TestApp;
let now = T0;
let base: string;
const streams: SseStream[] = [];

before(async () => {
  t = await makeTestApp({ clock: () => now, config: { eventPollMs: 100 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
after(async () => {
  for (const s of streams) s.close();
  await t.close();
});

const SUCCESS = { result: { status: 'success', message: 'Event broadcasted successfully.', data: { success: true } } };

/** The original page's example request, exactly as printed: without the `{"data": ...}` envelope. */
const pageExample = (organizationId: string, documentId: string) => ({
  organizationId,
  documentId,
  liveStateDataId: 'sample_live_state_data_id',
  data: { status: 'active', message: 'Hello World', customField: 'custom value' },
  merge: true,
});

type Caller = TestApp['a'];
/** A body to livestate/broadcast as it is, not put in `{"data": ...}`. */
const sendAsIs = (body: unknown, c: Caller = t.a) =>
  c.post(PATHS.liveStateBroadcast, null, { raw: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const broadcast = (c: Caller, org: string, documentId: string, liveStateDataId: string, data: unknown, merge?: boolean) =>
  c.ok(PATHS.liveStateBroadcast, {
    organizationId: org,
    documentId,
    liveStateDataId,
    data,
    ...(merge !== undefined && { merge }),
  });
/** livestate/get's entries, its answer checked to be the JSON of its object (the states are spliced in as text). */
async function states(org: string, documentId: string, liveStateDataIds?: string[], c: Caller = t.a) {
  const r = await c.post(PATHS.liveStateGet, { organizationId: org, documentId, ...(liveStateDataIds && { liveStateDataIds }) });
  assert.equal(r.status, 200, r.body);
  assert.equal(r.json.result.message, 'Live state retrieved successfully.');
  assert.equal(r.body, JSON.stringify(r.json), 'the spliced answer is the JSON of its object, byte for byte');
  return r.json.result.data as { liveStateDataId: string; data: Record<string, unknown>; lastUpdated: number }[];
}
/** One state's data as JSON text: member order shows. */
const stateText = async (org: string, documentId: string, id: string) =>
  JSON.stringify((await states(org, documentId, [id]))[0]?.data);

const tenantOf = async (c: Caller) => (await t.store.findCredentials(c.creds.apiKey))!.tenant.id;
/** The tenant's events after `from`, once numbered (PostgreSQL numbers them just after the answer). */
async function eventsAfter(c: Caller, from: number) {
  const tenant = await tenantOf(c);
  await t.store.eventsNumbered(tenant);
  return (await t.store.eventsAfter(tenant, from, 1000)).map((e) => ({ ...JSON.parse(e.body), audience: e.audience }));
}
async function lastEventId(c: Caller) {
  const tenant = await tenantOf(c);
  await t.store.eventsNumbered(tenant);
  return t.store.lastEventId(tenant);
}

describe('livestate: happy paths', () => {
  test("the page's example, as printed (no envelope) and in the envelope, answers exactly as documented", async () => {
    const org = uniq('org');
    const unwrapped = await sendAsIs(pageExample(org, 'doc'));
    assert.equal(unwrapped.status, 200, unwrapped.body);
    assert.equal(unwrapped.body, JSON.stringify(SUCCESS));
    const got = await states(org, 'doc');
    assert.deepEqual(got, [
      {
        liveStateDataId: 'sample_live_state_data_id',
        data: { status: 'active', message: 'Hello World', customField: 'custom value' },
        lastUpdated: now,
      },
    ]);
    const wrapped = await t.a.post(PATHS.liveStateBroadcast, { ...pageExample(org, 'doc'), data: { status: 'idle' } });
    assert.equal(wrapped.status, 200, wrapped.body);
    assert.deepEqual(wrapped.json, SUCCESS);
    assert.equal(
      await stateText(org, 'doc', 'sample_live_state_data_id'),
      '{"status":"idle","message":"Hello World","customField":"custom value"}',
      'merge: true kept the members not sent',
    );
    const orgs = (await t.a.ok(PATHS.organizationsGet, { organizationIds: [org] })).data;
    const docs = (await t.a.ok(PATHS.documentsGet, { organizationId: org })).data;
    assert.deepEqual([orgs.length, docs.map((d: any) => d.id)], [1, ['doc']], 'the organization and document came into being');
  });

  test('the envelope wins when data names a liveStateDataId itself: the top level is then ignored', async () => {
    const org = uniq('org');
    const r = await sendAsIs({
      liveStateDataId: 'ignored',
      data: { organizationId: org, documentId: 'doc', liveStateDataId: 'real', data: { v: 1 } },
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(
      (await states(org, 'doc')).map((s) => [s.liveStateDataId, s.data]),
      [['real', { v: 1 }]],
    );
  });

  test('without merge the state is replaced; a state keeps its members in the order sent', async () => {
    const org = uniq('org');
    await broadcast(t.a, org, 'doc', 's', { z: 1, a: { deep: [1, 2] }, m: 'x' });
    assert.equal(await stateText(org, 'doc', 's'), '{"z":1,"a":{"deep":[1,2]},"m":"x"}');
    now += 10;
    await broadcast(t.a, org, 'doc', 's', { only: true }, false);
    const [s] = await states(org, 'doc');
    assert.deepEqual([s?.data, s?.lastUpdated], [{ only: true }, now]);
    await broadcast(t.a, org, 'doc', 's', {});
    assert.equal(await stateText(org, 'doc', 's'), '{}', 'an empty object is a state');
  });

  test('merge is shallow: members kept in place, those sent replace theirs whole, null is a value, new ones follow', async () => {
    const org = uniq('org');
    await broadcast(t.a, org, 'doc', 's', { status: 'active', nested: { x: 1, y: 2 }, keep: true });
    await broadcast(t.a, org, 'doc', 's', { extra: null, nested: { z: 3 }, status: 'idle' }, true);
    assert.equal(
      await stateText(org, 'doc', 's'),
      '{"status":"idle","nested":{"z":3},"keep":true,"extra":null}',
      'not RFC 7386: nested objects are replaced, null is kept',
    );
    await broadcast(t.a, org, 'doc', 'first', { a: 1 }, true);
    assert.equal(await stateText(org, 'doc', 'first'), '{"a":1}', 'a first broadcast with merge stores data');
  });

  test('get: by id (unknown ids left out) or all (no filter, an empty one), in id order, code unit by code unit', async () => {
    const org = uniq('org');
    const ids = ['b', 'B', 'a', '_', 'é', '10', '9', 'a b'];
    for (const id of ids) await broadcast(t.a, org, 'doc', id, { id });
    const sorted = [...ids].sort();
    assert.deepEqual(
      (await states(org, 'doc')).map((s) => s.liveStateDataId),
      sorted,
    );
    assert.deepEqual(
      (await states(org, 'doc', [])).map((s) => s.liveStateDataId),
      sorted,
      'an empty filter is no filter',
    );
    const picked = await states(org, 'doc', ['é', 'ghost', 'B', 'B']);
    assert.deepEqual(
      picked.map((s) => [s.liveStateDataId, s.data]),
      [
        ['B', { id: 'B' }],
        ['é', { id: 'é' }],
      ],
    );
    for (const s of picked) assert.deepEqual(Object.keys(s), ['liveStateDataId', 'data', 'lastUpdated']);
    assert.deepEqual(await states(org, 'other-doc'), [], 'another document of the organization holds none');
  });

  test('get of an unknown organization or document answers [] and creates nothing', async () => {
    const org = uniq('org');
    assert.deepEqual(await states(org, 'doc'), []);
    assert.deepEqual((await t.a.ok(PATHS.organizationsGet, { organizationIds: [org] })).data, []);
    assert.deepEqual((await t.a.ok(PATHS.documentsGet, { organizationId: org })).data, []);
  });
});

describe('livestate: errors', () => {
  const org = 'org-errors';
  const valid = { organizationId: org, documentId: 'doc', liveStateDataId: 's', data: { a: 1 } };
  const without = (key: keyof typeof valid) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key));
  const cases: [string, string, unknown, RegExp][] = [
    ['broadcast without organizationId', PATHS.liveStateBroadcast, without('organizationId'), /data\.organizationId/],
    ['broadcast without documentId', PATHS.liveStateBroadcast, without('documentId'), /data\.documentId/],
    ['broadcast without liveStateDataId', PATHS.liveStateBroadcast, without('liveStateDataId'), /data\.liveStateDataId/],
    ['broadcast without data', PATHS.liveStateBroadcast, without('data'), /data\.data/],
    ['broadcast with organizationId a number', PATHS.liveStateBroadcast, { ...valid, organizationId: 7 }, /data\.organizationId/],
    ['broadcast with documentId empty', PATHS.liveStateBroadcast, { ...valid, documentId: '' }, /data\.documentId/],
    [
      'broadcast with liveStateDataId a number',
      PATHS.liveStateBroadcast,
      { ...valid, liveStateDataId: 5 },
      /data\.liveStateDataId/,
    ],
    [
      'broadcast with liveStateDataId of 257 code points',
      PATHS.liveStateBroadcast,
      { ...valid, liveStateDataId: '😀'.repeat(257) },
      /data\.liveStateDataId/,
    ],
    ['broadcast with data a string', PATHS.liveStateBroadcast, { ...valid, data: 'x' }, /data\.data/],
    ['broadcast with data an array', PATHS.liveStateBroadcast, { ...valid, data: [{ a: 1 }] }, /data\.data/],
    ['broadcast with data null', PATHS.liveStateBroadcast, { ...valid, data: null }, /data\.data/],
    ['broadcast with merge a string', PATHS.liveStateBroadcast, { ...valid, merge: 'yes' }, /data\.merge/],
    ['get without documentId', PATHS.liveStateGet, { organizationId: org }, /data\.documentId/],
    ['get with liveStateDataIds a string', PATHS.liveStateGet, { ...valid, liveStateDataIds: 's' }, /data\.liveStateDataIds/],
    ['get with an empty id', PATHS.liveStateGet, { ...valid, liveStateDataIds: ['s', ''] }, /data\.liveStateDataIds\[1\]/],
    [
      'get with 1001 ids',
      PATHS.liveStateGet,
      { ...valid, liveStateDataIds: Array.from({ length: 1001 }, (_, i) => `s${i}`) },
      /data\.liveStateDataIds/,
    ],
  ];
  for (const [what, path, data, message] of cases) {
    test(`${what}: INVALID_ARGUMENT naming the member, nothing written or announced`, async () => {
      const from = await lastEventId(t.a);
      assert.match(expectError(await t.a.post(path, data), 400, 'INVALID_ARGUMENT', what), message);
      assert.deepEqual(await states(org, 'doc'), []);
      assert.deepEqual((await t.a.ok(PATHS.organizationsGet, { organizationIds: [org] })).data, []);
      assert.equal(await lastEventId(t.a), from);
    });
  }

  test('an unwrapped body is validated as data, so its errors name data members; one without a string id is no such body', async () => {
    const r = await sendAsIs({ ...pageExample(org, 'doc'), data: 'not an object' });
    assert.equal(expectError(r, 400, 'INVALID_ARGUMENT'), 'data.data must be an object.');
    const noData = await sendAsIs({ ...pageExample(org, 'doc'), data: undefined });
    assert.equal(expectError(noData, 400, 'INVALID_ARGUMENT'), 'data.data is required.');
    // Not a string liveStateDataId: the envelope's rule, and this body's data (the state) lacks every member.
    const numbered = await sendAsIs({ ...pageExample(org, 'doc'), liveStateDataId: 5 });
    assert.equal(expectError(numbered, 400, 'INVALID_ARGUMENT'), 'data.organizationId is required.');
    assert.deepEqual(await states(org, 'doc'), []);
  });

  test('a new id past MARGINALIA_MAX_LIVE_STATES_PER_DOCUMENT is RESOURCE_EXHAUSTED without Retry-After; nothing written', async () => {
    const small = await makeTestApp({ config: { maxLiveStatesPerDocument: 2 } });
    try {
      const o = uniq('org');
      await broadcast(small.a, o, 'doc', 'a', { v: 1 });
      await broadcast(small.a, o, 'doc', 'b', { v: 1 });
      const tenant = (await small.store.findCredentials(small.a.creds.apiKey))!.tenant.id;
      await small.store.eventsNumbered(tenant);
      const from = await small.store.lastEventId(tenant);
      const r = await small.a.post(PATHS.liveStateBroadcast, {
        organizationId: o,
        documentId: 'doc',
        liveStateDataId: 'c',
        data: {},
      });
      assert.match(expectError(r, 429, 'RESOURCE_EXHAUSTED'), /holds 2 liveStateDataIds/);
      assert.equal(r.headers['retry-after'], undefined, 'waiting does not lift the bound');
      await small.store.eventsNumbered(tenant);
      assert.equal(await small.store.lastEventId(tenant), from, 'nothing announced');
      const held = (await small.a.ok(PATHS.liveStateGet, { organizationId: o, documentId: 'doc' })).data;
      assert.deepEqual(
        held.map((s: any) => [s.liveStateDataId, s.data]),
        [
          ['a', { v: 1 }],
          ['b', { v: 1 }],
        ],
      );
      await broadcast(small.a, o, 'doc', 'b', { v: 2 }, true);
      await broadcast(small.a, o, 'other', 'c', { v: 1 });
      assert.equal(
        (await small.a.ok(PATHS.liveStateGet, { organizationId: o, documentId: 'doc' })).data[1].data.v,
        2,
        'an id held takes broadcasts',
      );
    } finally {
      await small.close();
    }
  });
});

describe('livestate: security', () => {
  for (const path of [PATHS.liveStateBroadcast, PATHS.liveStateGet]) {
    test(`${path}: missing or bad credentials are 401 before the body is looked at`, async () => {
      await expectMissingCredentials(t, path, { data: 'not even an object' });
      await expectMissingCredentials(t, path, { liveStateDataId: 's', data: 'the unwrapped form, broken' });
      for (const [label, headers] of badCredentialCases(t))
        await expectBadCredentials(t, path, label, headers, {
          data: { organizationId: 'o', documentId: 'd', liveStateDataId: 's' },
        });
    });
  }

  test("tenant b naming tenant a's organization, document and ids reads and changes nothing of a's", async () => {
    const org = uniq('org');
    await broadcast(t.a, org, 'doc', 's', { owner: 'a', secret: 1 });
    assert.deepEqual(await states(org, 'doc', undefined, t.b), []);
    assert.deepEqual(await states(org, 'doc', ['s'], t.b), []);
    await broadcast(t.b, org, 'doc', 's', { owner: 'b' }, true);
    await broadcast(t.b, org, 'doc', 's2', { owner: 'b' });
    assert.deepEqual(
      (await states(org, 'doc')).map((s) => [s.liveStateDataId, s.data]),
      [['s', { owner: 'a', secret: 1 }]],
      "a's state is as a left it: b's merge met nothing of a's",
    );
    assert.deepEqual(
      (await states(org, 'doc', undefined, t.b)).map((s) => [s.liveStateDataId, s.data]),
      [
        ['s', { owner: 'b' }],
        ['s2', { owner: 'b' }],
      ],
    );
  });

  test('a disabled organization or document refuses broadcasts (its message, nothing written or announced); get reads on', async () => {
    const org = uniq('org');
    await broadcast(t.a, org, 'doc', 's', { v: 1 });
    const from = await lastEventId(t.a);
    await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['doc'], disabled: true });
    const write = { organizationId: org, documentId: 'doc', liveStateDataId: 's', data: { v: 2 } };
    assert.equal(
      expectError(await t.a.post(PATHS.liveStateBroadcast, write), 403, 'PERMISSION_DENIED'),
      'Document doc is disabled.',
    );
    await broadcast(t.a, org, 'other', 's', { v: 1 });
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    for (const documentId of ['doc', 'other', 'new']) {
      const r = await t.a.post(PATHS.liveStateBroadcast, { ...write, documentId });
      assert.equal(expectError(r, 403, 'PERMISSION_DENIED'), `Organization ${org} is disabled.`);
    }
    assert.deepEqual(
      (await states(org, 'doc')).map((s) => s.data),
      [{ v: 1 }],
      'reads keep working',
    );
    assert.deepEqual((await t.a.ok(PATHS.documentsGet, { organizationId: org, documentIds: ['new'] })).data, []);
    const events = await eventsAfter(t.a, from);
    assert.deepEqual(
      events.filter((e) => e.type === 'livestate.broadcast').map((e) => e.documentId),
      ['other'],
      'only the broadcast that was written is announced',
    );
  });
});

describe('livestate: events', () => {
  test('livestate.broadcast carries the state after the change, under the document, in the same transaction', async () => {
    const org = uniq('org');
    await broadcast(t.a, org, 'doc', 's', { a: 1, nested: { x: 1 } });
    now += 5;
    const from = await lastEventId(t.a);
    await broadcast(t.a, org, 'doc', 's', { nested: { y: 2 }, b: 2 }, true);
    const events = await eventsAfter(t.a, from);
    assert.deepEqual(events, [
      {
        id: from + 1,
        type: 'livestate.broadcast',
        timestamp: now,
        organizationId: org,
        documentId: 'doc',
        data: { liveStateDataId: 's', data: { a: 1, nested: { y: 2 }, b: 2 }, merge: true, lastUpdated: now },
        audience: null,
      },
    ]);
    const body = (await t.store.eventsAfter(await tenantOf(t.a), from, 1))[0]!.body;
    assert.ok(body.includes('"data":{"liveStateDataId":"s","data":{"a":1,"nested":{"y":2},"b":2},"merge":true,'), body);
    await broadcast(t.a, org, 'doc', 's', { c: 3 });
    const replaced = await eventsAfter(t.a, from + 1);
    assert.deepEqual(
      replaced.map((e) => [e.data.data, e.data.merge]),
      [[{ c: 3 }, false]],
      'without merge: the state sent',
    );
  });

  test("an end-user token's stream carries it by document access; filters name the livestate family", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'member' }] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'restricted', users: [{ userId: 'listed' }] });
    await t.a.ok(PATHS.documentsAccess, { organizationId: org, documentIds: ['restricted'], accessType: 'restricted' });
    const as = async (userId: string) => {
      const token = (await t.a.ok(PATHS.authTokenGet, { userId, userProperties: { organizationId: org } })).data.token;
      const s = await openStream(`${base}/v1/events?token=${token}&types=livestate.*`);
      streams.push(s);
      assert.equal(s.status, 200, s.body);
      return s;
    };
    const [member, listed] = [await as('member'), await as('listed')];
    await broadcast(t.a, org, 'restricted', 'cursor', { x: 1 });
    await broadcast(t.a, org, 'open', 'marker', { last: true });
    const seen = async (s: SseStream) =>
      (await s.until((m) => JSON.parse(m.data).data.liveStateDataId === 'marker')).map((m) => JSON.parse(m.data).documentId);
    assert.deepEqual(await seen(listed), ['restricted', 'open'], 'a member of the restricted document sees both');
    assert.deepEqual(await seen(member), ['open'], 'a member of the organization only: not the restricted document');
    await t.a.ok(PATHS.webhooksAdd, { url: 'https://203.0.113.7/hook', events: ['livestate.*', 'livestate.broadcast'] });
  });
});

describe('livestate: deletes', () => {
  test("documents/delete removes the document's live states and no other's; the ids start anew", async () => {
    const org = uniq('org');
    await broadcast(t.a, org, 'doc', 's', { v: 1 });
    await broadcast(t.a, org, 'kept', 's', { v: 1 });
    await t.a.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['doc'] });
    assert.deepEqual(await states(org, 'doc'), []);
    assert.deepEqual(
      (await states(org, 'kept')).map((s) => s.data),
      [{ v: 1 }],
    );
    await broadcast(t.a, org, 'doc', 's', { v: 2 }, true);
    assert.deepEqual(
      (await states(org, 'doc')).map((s) => s.data),
      [{ v: 2 }],
      'a merge after the delete has nothing to merge with',
    );
  });

  test("organizations/delete removes its live states; another organization's stay", async () => {
    const [org, other] = [uniq('org'), uniq('org')];
    for (const o of [org, other]) await broadcast(t.a, o, 'doc', 's', { v: 1 });
    await t.a.ok(PATHS.organizationsDelete, { organizationIds: [org] });
    assert.deepEqual(await states(org, 'doc'), []);
    assert.deepEqual(await t.db.query(`SELECT live_state_data_id FROM live_states WHERE organization_id = '${org}'`), []);
    assert.deepEqual(
      (await states(other, 'doc')).map((s) => s.data),
      [{ v: 1 }],
    );
  });
});

describe('livestate: bounds on a state and on a page', () => {
  const MOST = 1024;
  let small: TestApp;
  before(async () => {
    small = await makeTestApp({ config: { maxLiveStateBytes: MOST } });
  });
  after(async () => small.close());

  test('a state past MARGINALIA_MAX_LIVE_STATE_BYTES, sent whole or grown by merges, is 429 and writes nothing', async () => {
    const where = { organizationId: 'o', documentId: 'd' };
    const send = (liveStateDataId: string, data: unknown, merge = false) =>
      small.a.post(PATHS.liveStateBroadcast, { ...where, liveStateDataId, data, merge });
    const whole = await send('big', { x: 'x'.repeat(MOST) });
    assert.match(expectError(whole, 429, 'RESOURCE_EXHAUSTED'), /MARGINALIA_MAX_LIVE_STATE_BYTES/);
    assert.equal(whole.headers['retry-after'], undefined, 'waiting would not help');
    for (let i = 0; i < 3; i++) assert.equal((await send('grown', { [`m${i}`]: 'y'.repeat(300) }, true)).status, 200);
    const before = await small.a.ok(PATHS.liveStateGet, where);
    expectError(await send('grown', { m9: 'y'.repeat(300) }, true), 429, 'RESOURCE_EXHAUSTED');
    assert.deepEqual(await small.a.ok(PATHS.liveStateGet, where), before, 'neither state changed');
    assert.deepEqual(
      before.data.map((s: { liveStateDataId: string }) => s.liveStateDataId),
      ['grown'],
    );
  });

  test('livestate/get is paged by pageSize, and a page stops once it holds eight of the largest states', async () => {
    const where = { organizationId: 'o', documentId: 'paged' };
    const ids = Array.from({ length: 20 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    for (const id of ids)
      await small.a.ok(PATHS.liveStateBroadcast, { ...where, liveStateDataId: id, data: { v: 'v'.repeat(MOST - 20) } });
    const pages = async (extra: Record<string, unknown>) => {
      const sizes: number[] = [];
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const r = await small.a.ok(PATHS.liveStateGet, { ...where, ...extra, pageToken });
        sizes.push(r.data.length);
        seen.push(...r.data.map((s: { liveStateDataId: string }) => s.liveStateDataId));
        pageToken = r.pageToken;
      } while (pageToken);
      assert.deepEqual(seen, ids, 'every state once, in id order');
      return sizes;
    };
    assert.deepEqual(await pages({ pageSize: 6 }), [6, 6, 6, 2]);
    assert.deepEqual(await pages({}), [8, 8, 4], 'the byte budget: 8 states of the largest size');
    const other = await small.a.post(PATHS.liveStateGet, {
      organizationId: 'o',
      documentId: 'd',
      pageToken: (await small.a.ok(PATHS.liveStateGet, { ...where, pageSize: 1 })).pageToken,
    });
    expectError(other, 400, 'INVALID_ARGUMENT', 'a token of another document');
  });
});
