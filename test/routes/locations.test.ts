// The location operations, as the original service's pages show them (docs/api.md, under Documents):
// organizations/documents/locations/update moves a location's threads and notifications, or changes
// its object (merged or replaced); locations/data/delete deletes them. Happy paths (the pages'
// examples, credentials in data), errors (nothing written), security (tenants, a disabled
// organization, credentials), and the events they record.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, notificationData, PATHS, type TestApp, user } from '../helpers/app.js';
import { eventsSince, lastEventId, tenantIdOf } from '../helpers/events.js';
import { openStream } from '../helpers/sse.js';
import { js, say, uniq } from '../helpers/threads.js';

let t: TestApp;
let base: string;
before(async () => {
  t = await makeTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
after(async () => t.close());

const UNTITLED = { id: 'scene_1', locationName: 'Untitled scene' };
const WHITE = { id: 'scene_1', locationName: 'White scene' };

/** Threads of a document: a1 at scene_1 by its object, a2 at scene_1 by both, b1 at scene_2, n1 nowhere. */
async function seeded(org: string | null, doc: string, caller = t.a) {
  const r = await caller.ok(PATHS.annotationsAdd, {
    organizationId: org,
    documentId: doc,
    commentAnnotations: [
      { annotationId: 'a1', location: { ...UNTITLED, zoom: 2 }, commentData: [say('one', 'u1')] },
      { annotationId: 'a2', location: UNTITLED, locationId: 'scene_1', commentData: [say('two', 'u2')] },
      { annotationId: 'b1', location: { id: 'scene_2' }, locationId: 'scene_2', commentData: [say('three', 'u1')] },
      { annotationId: 'n1', commentData: [say('four', 'u2')] },
    ],
  });
  assert.equal(
    Object.values(r.data).every((x: any) => x.success),
    true,
    js(r),
  );
}

/** The document's threads by id: [location, locationId] of each. */
async function places(org: string | null, doc: string, caller = t.a) {
  const all = (await caller.ok(PATHS.annotationsGet, { organizationId: org, documentId: doc })).data as any[];
  return Object.fromEntries(all.map((x) => [x.annotationId, [x.location ?? null, x.locationId ?? null]]));
}

/** A request with the credentials in data, as the pages' examples send them. */
const inData = (path: string, data: Record<string, unknown>, caller = t.a) =>
  t.request(path, { body: { data: { apiKey: caller.creds.apiKey, authToken: caller.creds.authToken, ...data } } });

describe('locations/update: happy paths', () => {
  test("the page's example: no organization, credentials in data, merge: the location object is merged", async () => {
    const doc = uniq('doc');
    await seeded(null, doc);
    const r = await inData(PATHS.locationsUpdate, {
      documentId: doc,
      migrate: { oldLocation: UNTITLED, newLocation: WHITE },
      merge: true,
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, { result: { status: 'success', message: 'Location updated.', data: null } });
    assert.deepEqual(await places(null, doc), {
      a1: [{ ...WHITE, zoom: 2 }, null],
      a2: [WHITE, 'scene_1'],
      b1: [{ id: 'scene_2' }, 'scene_2'],
      n1: [null, null],
    });
  });

  test("without merge newLocation replaces the object; another id moves threads and the document's notifications", async () => {
    const org = uniq('org');
    const doc = uniq('doc');
    await seeded(org, doc);
    const note = (id: string, documentId: string) =>
      t.a.ok(
        PATHS.notificationsAdd,
        notificationData(org, { notificationId: id, documentId, locationId: 'scene_1', notifyUsers: [user('r')] }),
      );
    await note('here', doc);
    await note('elsewhere', 'other-doc');
    const moved = { id: 'scene_2', locationName: 'Second' };
    await t.a.ok(PATHS.locationsUpdate, {
      organizationId: org,
      documentId: doc,
      migrate: { oldLocation: UNTITLED, newLocation: moved },
    });
    assert.deepEqual(await places(org, doc), {
      a1: [moved, null],
      a2: [moved, 'scene_2'],
      b1: [{ id: 'scene_2' }, 'scene_2'],
      n1: [null, null],
    });
    const at = (locationId: string) =>
      t.a
        .ok(PATHS.notificationsGet, { organizationId: org, userId: 'r', locationId })
        .then((x: any) => x.data.map((n: any) => n.id));
    assert.deepEqual(await at('scene_2'), ['here'], 'the inbox finds it at the new location');
    assert.deepEqual(await at('scene_1'), ['elsewhere'], "another document's notification stays");
    const [shown] = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: doc })).data;
    assert.equal(shown.metadata.locationId, 'scene_2', js(shown));
    const byLocation = await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: doc, locationIds: ['scene_2'] });
    assert.deepEqual(
      byLocation.data.map((x: any) => x.annotationId).sort(),
      ['a2', 'b1'],
      'threads moved join those at the new location',
    );
  });

  test('it records each thread moved and each notification moved', async () => {
    const org = uniq('org');
    const doc = uniq('doc');
    await seeded(org, doc);
    await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: 'n', documentId: doc, locationId: 'scene_1' }));
    const tenant = await tenantIdOf(t, t.a);
    const from = await lastEventId(t, tenant);
    await t.a.ok(PATHS.locationsUpdate, {
      organizationId: org,
      documentId: doc,
      migrate: { oldLocation: UNTITLED, newLocation: { id: 'x' } },
    });
    const events = await eventsSince(t, tenant, from);
    assert.deepEqual(
      events.map((e) => [e.type, e.data.annotationId ?? e.data.id, e.data.location?.id ?? e.data.metadata?.locationId]),
      [
        ['comment_annotation.update', 'a1', 'x'],
        ['comment_annotation.update', 'a2', 'x'],
        ['notification.update', 'n', 'x'],
      ],
      js(events),
    );
  });
});

describe('location operations on the event stream', () => {
  test("a stream of the document carries the move's and the delete's events, in order", async () => {
    const org = uniq('org');
    const doc = uniq('doc');
    await seeded(org, doc);
    const headers = { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': t.a.creds.authToken };
    const s = await openStream(`${base}/v1/events?organizationId=${org}&documentId=${doc}`, headers);
    try {
      assert.equal(s.status, 200, s.body);
      await t.a.ok(PATHS.locationsUpdate, {
        organizationId: org,
        documentId: doc,
        migrate: { oldLocation: UNTITLED, newLocation: { id: 'x' } },
      });
      await t.a.ok(PATHS.locationDataDelete, { organizationId: org, documentId: doc, location: { id: 'x' } });
      const event = (m: { data: string }) => JSON.parse(m.data) as { type: string; data: { annotationId?: string } };
      const last = (m: { data: string }) => event(m).type === 'comment_annotation.delete' && event(m).data.annotationId === 'a2';
      const seen = (await s.until(last).catch((err) => assert.fail(`${err}; the stream had: ${s.raw}`))).map((m) => [
        event(m).type,
        event(m).data.annotationId,
      ]);
      assert.deepEqual(seen, [
        ['comment_annotation.update', 'a1'],
        ['comment_annotation.update', 'a2'],
        ['comment_annotation.delete', 'a1'],
        ['comment_annotation.delete', 'a2'],
      ]);
    } finally {
      s.close();
    }
  });
});

describe('locations/data/delete: happy paths', () => {
  test("the page's example: the location's threads with their comments and read marks, and its notifications, go", async () => {
    const doc = uniq('doc');
    await seeded(null, doc);
    await t.a.ok(PATHS.annotationsRead, { documentId: doc, userId: 'u1' });
    const r = await inData(PATHS.locationDataDelete, { documentId: doc, location: WHITE });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, { result: { status: 'success', message: 'Data deleted successfully.', data: null } });
    assert.deepEqual(Object.keys(await places(null, doc)).sort(), ['b1', 'n1']);
    const count = await t.a.ok(PATHS.annotationsCount, { documentIds: [doc], userId: 'u1' });
    assert.deepEqual(count.data[doc], { total: 2, unread: 0 });
    assert.deepEqual((await t.a.ok(PATHS.commentsGet, { documentId: doc, annotationId: 'a1' })).data, []);

    const org = uniq('org');
    await seeded(org, doc);
    for (const [id, documentId] of [
      ['here', doc],
      ['elsewhere', 'other-doc'],
    ] as const)
      await t.a.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: id, documentId, locationId: 'scene_1' }));
    const tenant = await tenantIdOf(t, t.a);
    const from = await lastEventId(t, tenant);
    await t.a.ok(PATHS.locationDataDelete, { organizationId: org, documentId: doc, location: { id: 'scene_1' } });
    const left = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'r1' })).data.map((n: any) => n.id);
    assert.deepEqual(left, ['elsewhere']);
    assert.deepEqual(Object.keys(await places(org, doc)).sort(), ['b1', 'n1']);
    const events = await eventsSince(t, tenant, from);
    assert.deepEqual(
      events.map((e) => [e.type, e.data.annotationId ?? e.data.notificationId]),
      [
        ['comment_annotation.delete', 'a1'],
        ['comment_annotation.delete', 'a2'],
        ['notification.delete', 'here'],
      ],
    );
  });
});

describe('location operations: errors', () => {
  test('bad members are INVALID_ARGUMENT naming the member, and nothing is written', async () => {
    const doc = uniq('doc');
    await seeded(null, doc);
    const before = await places(null, doc);
    const migrate = { oldLocation: UNTITLED, newLocation: WHITE };
    const cases: [string, Record<string, unknown>, string][] = [
      [PATHS.locationsUpdate, { migrate }, 'data.documentId'],
      [PATHS.locationsUpdate, { documentId: doc }, 'data.migrate'],
      [PATHS.locationsUpdate, { documentId: doc, migrate: { newLocation: WHITE } }, 'data.migrate.oldLocation'],
      [
        PATHS.locationsUpdate,
        { documentId: doc, migrate: { ...migrate, newLocation: { name: 'x' } } },
        'data.migrate.newLocation.id',
      ],
      [
        PATHS.locationsUpdate,
        { documentId: doc, migrate: { ...migrate, oldLocation: { id: 1 } } },
        'data.migrate.oldLocation.id',
      ],
      [PATHS.locationsUpdate, { documentId: doc, migrate: { ...migrate, oldLocation: 'scene_1' } }, 'data.migrate.oldLocation'],
      [PATHS.locationsUpdate, { documentId: doc, migrate, merge: 'yes' }, 'data.merge'],
      [PATHS.locationsUpdate, { organizationId: '', documentId: doc, migrate }, 'data.organizationId'],
      [PATHS.locationDataDelete, { documentId: doc }, 'data.location'],
      [PATHS.locationDataDelete, { documentId: doc, location: { id: '' } }, 'data.location.id'],
      [PATHS.locationDataDelete, { documentId: 5, location: WHITE }, 'data.documentId'],
    ];
    for (const [path, data, member] of cases) {
      const message = expectError(await t.a.post(path, data), 400, 'INVALID_ARGUMENT', `${path} ${js(data)}`);
      assert.ok(message.includes(member), `${message} names ${member}`);
    }
    assert.deepEqual(await places(null, doc), before);
  });
});

describe('location operations: security', () => {
  test('credentials in data: wrong ones are 400 "Auth token not found.", none are 401; headers win over data', async () => {
    const doc = uniq('doc');
    await seeded(null, doc);
    const before = await places(null, doc);
    const data = { documentId: doc, location: WHITE };
    for (const path of [PATHS.locationsUpdate, PATHS.locationDataDelete]) {
      const body =
        path === PATHS.locationsUpdate ? { documentId: doc, migrate: { oldLocation: UNTITLED, newLocation: WHITE } } : data;
      const wrong = await t.request(path, { body: { data: { ...body, apiKey: t.a.creds.apiKey, authToken: 'mt_wrong' } } });
      assert.equal(expectError(wrong, 400, 'INVALID_ARGUMENT', path), 'Auth token not found.');
      const unknown = await t.request(path, { body: { data: { ...body, apiKey: 'mk_nobody', authToken: t.a.creds.authToken } } });
      assert.equal(expectError(unknown, 400, 'INVALID_ARGUMENT', path), 'Auth token not found.');
      expectError(await t.request(path, { body: { data: body } }), 401, 'UNAUTHENTICATED', `${path} none`);
      // With the headers of tenant b, a's credentials in data are not read: b has no such document.
      await t.b.ok(path, { ...body, apiKey: t.a.creds.apiKey, authToken: t.a.creds.authToken });
    }
    assert.deepEqual(await places(null, doc), before, "nothing of a's changed");
  });

  test("another tenant's operations touch nothing of a's; a disabled organization refuses them and keeps its data", async () => {
    const org = uniq('org');
    const doc = uniq('doc');
    await seeded(org, doc);
    const before = await places(org, doc);
    const move = { organizationId: org, documentId: doc, migrate: { oldLocation: UNTITLED, newLocation: { id: 'x' } } };
    const drop = { organizationId: org, documentId: doc, location: UNTITLED };
    await t.b.ok(PATHS.locationsUpdate, move);
    await t.b.ok(PATHS.locationDataDelete, drop);
    assert.deepEqual(await places(org, doc), before);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    expectError(await t.a.post(PATHS.locationsUpdate, move), 403, 'PERMISSION_DENIED');
    expectError(await t.a.post(PATHS.locationDataDelete, drop), 403, 'PERMISSION_DENIED');
    assert.deepEqual(await places(org, doc), before);
  });
});

describe('location operations: what else they reach, and their bounds', () => {
  test("data delete also takes the notifications its threads' comments made; a move shows in each inbox copy", async () => {
    const org = uniq('org');
    const doc = uniq('doc');
    await seeded(org, doc);
    const reply = (annotationId: string) =>
      t.a.ok(PATHS.commentsAdd, {
        organizationId: org,
        documentId: doc,
        annotationId,
        triggerNotification: true,
        commentData: [say(`reply to ${annotationId}`, 'u2', { taggedUserContacts: [{ userId: 'r' }] })],
      });
    await reply('a1');
    await reply('b1');
    await t.a.ok(
      PATHS.notificationsAdd,
      notificationData(org, { notificationId: 'at', documentId: doc, locationId: 'scene_1', notifyUsers: [user('r')] }),
    );
    await t.a.ok(PATHS.locationsUpdate, {
      organizationId: org,
      documentId: doc,
      migrate: { oldLocation: UNTITLED, newLocation: { id: 'moved' } },
    });
    const inbox = async () => (await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'r' })).data as any[];
    const at = (await inbox()).find((n) => n.id === 'at');
    assert.equal(at.metadata.locationId, 'moved', `the recipient's copy shows the move: ${js(at)}`);
    assert.equal((await inbox()).length, 3, js(await inbox()));
    await t.a.ok(PATHS.locationDataDelete, { organizationId: org, documentId: doc, location: { id: 'moved' } });
    const left = await inbox();
    assert.deepEqual(
      left.map((n) => n.notificationSourceData?.annotationId),
      ['b1'],
      "only the notification of a thread elsewhere stays: the location's, and its comments', went",
    );
  });

  test('a merge that would make a location larger than a request body is refused, and nothing moves', async () => {
    const bounded = await makeTestApp({ bodyLimit: 4096 });
    try {
      const doc = uniq('doc');
      await bounded.a.ok(PATHS.annotationsAdd, {
        organizationId: 'o',
        documentId: doc,
        commentAnnotations: [{ annotationId: 't', location: { id: 'l', a: 'x'.repeat(2500) }, commentData: [say('x', 'u')] }],
      });
      const r = await bounded.a.post(PATHS.locationsUpdate, {
        organizationId: 'o',
        documentId: doc,
        migrate: { oldLocation: { id: 'l' }, newLocation: { id: 'l', b: 'y'.repeat(2500) } },
        merge: true,
      });
      assert.match(expectError(r, 400, 'INVALID_ARGUMENT'), /MARGINALIA_BODY_LIMIT/);
      const [thread] = (await bounded.a.ok(PATHS.annotationsGet, { organizationId: 'o', documentId: doc })).data;
      assert.deepEqual(Object.keys(thread.location), ['id', 'a'], 'unchanged');
    } finally {
      await bounded.close();
    }
  });
});
