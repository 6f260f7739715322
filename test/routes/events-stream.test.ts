// GET /v1/events (docs/events.md, "The live stream: GET /v1/events"), over real HTTP on the configured database: a
// stream with the server credentials sees the tenant's events as they commit, filtered by organization, document
// and types; Last-Event-ID resumes from the outbox; an idle stream gets heartbeats; a client that stops reading is
// cut off with a reason it can resume from. An end-user token's stream carries only its user's
// notifications and the threads of documents the user may access. Errors: credentials first (401),
// then bad filters (400); other methods 405. Security: tenants never see each other's events.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { EventStream } from '../../src/events/stream.js';
import { createTenant, hashToken } from '../../src/services/credentials.js';
import { expectError, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { uniq } from '../helpers/threads.js';

let t: TestApp;
let base: string;
const open: SseStream[] = [];

before(async () => {
  t = await makeTestApp({ config: { eventHeartbeatMs: 150, eventStreamBufferKb: 16, eventPollMs: 100 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
after(async () => {
  for (const s of open) s.close();
  await t.close();
});

const credsOf = (c: TestApp['a']) => ({ 'x-service-api-key': c.creds.apiKey, 'x-service-auth-token': c.creds.authToken });

async function stream(query = '', headers: Record<string, string> = credsOf(t.a)): Promise<SseStream> {
  const s = await openStream(`${base}/v1/events${query}`, headers);
  open.push(s);
  return s;
}

const notify = (c: TestApp['a'], org: string, over: Record<string, unknown> = {}) =>
  c.ok(PATHS.notificationsAdd, {
    organizationId: org,
    actionUser: { userId: 'actor', name: 'Actor' },
    displayHeadlineMessageTemplate: 'Hello {user}',
    notifyUsers: [{ userId: 'reader' }],
    ...over,
  });

const parsed = (m: { data: string }) => JSON.parse(m.data);

/** Once the events of the caller's writes so far are numbered (PostgreSQL numbers them just after each answer). */
const numbered = async (c: TestApp['a']) => t.store.eventsNumbered((await t.store.findCredentials(c.creds.apiKey))!.tenant.id);

const tokenFor = async (c: TestApp['a'], userId: string, organizationId: string) =>
  (await c.ok(PATHS.authTokenGet, { userId, userProperties: { organizationId } })).data.token as string;

describe('GET /v1/events: happy paths', () => {
  test('a write shows on an open stream as {id, type, timestamp, organizationId, documentId, data}', async () => {
    const org = uniq('org');
    const s = await stream();
    assert.equal(s.status, 200, s.body);
    assert.match(String(s.headers['content-type']), /^text\/event-stream/);
    assert.equal(s.headers['cache-control'], 'no-cache, no-transform');
    const r = await notify(t.a, org, { documentId: 'doc-1', notificationId: 'n-1' });
    assert.equal(r.data.id, 'n-1');
    const m = await s.next();
    const e = parsed(m);
    assert.equal(m.id, String(e.id));
    assert.equal(m.event, undefined, 'no event field: EventSource.onmessage sees every event');
    assert.deepEqual(Object.keys(e), ['id', 'type', 'timestamp', 'organizationId', 'documentId', 'data']);
    assert.equal(e.type, 'notification.add');
    assert.equal(e.organizationId, org);
    assert.equal(e.documentId, 'doc-1');
    assert.equal(typeof e.timestamp, 'number');
    assert.equal(e.data.id, 'n-1');
    assert.deepEqual(e.data.notifyUsersByUserId, { reader: true });
    assert.deepEqual(e.data.actionUser, { email: '', name: 'Actor', userId: 'actor' });
    assert.ok(!m.data.includes(t.a.creds.apiKey), 'an event never carries the API key');
  });

  test('the stream opens with the id it stands at, so a reconnect before any event resumes from there', async () => {
    const org = uniq('org');
    await notify(t.a, org);
    await numbered(t.a); // else the write may come live on the stream, after its open
    const s = await stream(`?organizationId=${org}`);
    await s.comment(1); // placed: it has sent the id it stands at
    const live = await stream(`?organizationId=${org}`);
    await notify(t.a, org, { notificationId: 'after-open' });
    const event = parsed(await live.next());
    const opened = /^id: (\d+)$/m.exec(s.raw)?.[1];
    assert.equal(Number(opened), event.id - 1, `the open names the last id before it: ${s.raw.slice(0, 200)}`);
    const resumed = await stream(`?organizationId=${org}&lastEventId=${opened}`);
    assert.equal(parsed(await resumed.next()).data.id, 'after-open');
  });

  test('a Last-Event-ID past the last id resumes from now (a restored database must not hide events)', async () => {
    const org = uniq('org');
    const s = await stream(`?organizationId=${org}&lastEventId=999999999`);
    await notify(t.a, org, { notificationId: 'seen' });
    assert.equal(parsed(await s.next()).data.id, 'seen');
  });

  test('ids increase by one per event, in commit order', async () => {
    const org = uniq('org');
    const s = await stream(`?organizationId=${org}`);
    for (let i = 0; i < 5; i++) await notify(t.a, org);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(parsed(await s.next()).id);
    for (let i = 1; i < ids.length; i++) assert.equal(ids[i], ids[i - 1]! + 1, `ids ${ids}`);
  });

  test('filters: organizationId, documentId, and types (exact, or a family with .*)', async () => {
    const [org, other] = [uniq('org'), uniq('org')];
    const byOrg = await stream(`?organizationId=${org}`);
    const byDoc = await stream(`?organizationId=${org}&documentId=d2`);
    const byType = await stream(`?organizationId=${org}&types=notification.delete,user.*`);
    await notify(t.a, other, { documentId: 'd2' });
    await notify(t.a, org, { documentId: 'd1', notificationId: 'x1' });
    await notify(t.a, org, { documentId: 'd2', notificationId: 'x2' });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'u-1', name: 'U' }] });
    await notify(t.a, org, { documentId: 'd2', notificationId: 'end' });
    assert.equal(parsed(await byOrg.next()).data.id, 'x1');
    assert.equal(parsed(await byOrg.next()).data.id, 'x2');
    const first = parsed(await byType.next());
    assert.ok(first.type.startsWith('user.'), first.type);
    const ofD2 = await byDoc.until((m) => parsed(m).data.id === 'end');
    assert.deepEqual(
      ofD2.map((m) => parsed(m).data.id),
      ['x2', 'end'],
      'nothing of another document, nor of the organization as a whole',
    );
  });

  test('Last-Event-ID (header or lastEventId) resumes after that id, from the outbox, then goes on live', async () => {
    const org = uniq('org');
    const live = await stream(`?organizationId=${org}`);
    for (const id of ['r1', 'r2', 'r3']) await notify(t.a, org, { notificationId: id });
    const firstId = parsed(await live.next()).id;
    const byHeader = await stream(`?organizationId=${org}`, { ...credsOf(t.a), 'last-event-id': String(firstId) });
    assert.equal(parsed(await byHeader.next()).data.id, 'r2');
    assert.equal(parsed(await byHeader.next()).data.id, 'r3');
    const byQuery = await stream(`?organizationId=${org}&lastEventId=${firstId + 1}`);
    assert.equal(parsed(await byQuery.next()).data.id, 'r3');
    await notify(t.a, org, { notificationId: 'r4' });
    assert.equal(parsed(await byHeader.next()).data.id, 'r4');
    assert.equal(parsed(await byQuery.next()).data.id, 'r4');
  });

  test('a resume over more events than one read holds gets every one, in order, with no duplicates', async () => {
    const org = uniq('org');
    const live = await stream(`?organizationId=${org}`);
    await notify(t.a, org, { notificationId: 'start' });
    const start = parsed(await live.next()).id;
    for (let i = 0; i < 1200; i++) await notify(t.a, org, { notificationId: `m${i}` });
    const s = await stream(`?organizationId=${org}&lastEventId=${start}`);
    for (let i = 0; i < 1200; i++) assert.equal(parsed(await s.next()).data.id, `m${i}`);
    await notify(t.a, org, { notificationId: 'after' });
    assert.equal(parsed(await s.next()).data.id, 'after');
    assert.deepEqual(await s.within(100), []);
  });

  test('an idle stream gets a heartbeat comment every MARGINALIA_EVENT_HEARTBEAT_MS', async () => {
    const s = await stream(`?organizationId=${uniq('org')}`);
    await s.comment(3);
    assert.deepEqual(s.comments.slice(0, 3), ['open', 'heartbeat', 'heartbeat']);
  });

  test('a client that stops reading is cut off with a close event naming the last id sent; it resumes from it', async () => {
    const org = uniq('org');
    const url = new URL(`${base}/v1/events?organizationId=${org}`);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(url, { headers: credsOf(t.a) }, resolve).on('error', reject),
    );
    res.pause();
    const big = 'x'.repeat(60_000);
    for (let i = 0; i < 200; i++) await notify(t.a, org, { displayBodyMessage: big, notificationId: `big${i}` });
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.resume();
    await new Promise((resolve) => res.on('end', resolve));
    const last = text.trimEnd().split('\n\n').pop()!;
    assert.match(last, /^event: close\ndata: /, last.slice(0, 200));
    const close = JSON.parse(last.slice(last.indexOf('data: ') + 6));
    assert.match(close.reason, /more slowly/);
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    assert.ok(ids.length < 200, `cut off before the end (${ids.length} sent)`);
    assert.equal(close.lastEventId, ids[ids.length - 1]);
    const resumed = await stream(`?organizationId=${org}&lastEventId=${close.lastEventId}`);
    assert.equal(parsed(await resumed.next()).id, close.lastEventId + 1);
  });
});

describe('GET /v1/events: credentials withdrawn while a stream is open', () => {
  const closeOf = async (s: SseStream) => {
    const m = await s.next(5_000);
    assert.equal(m.event, 'close', m.data);
    return JSON.parse(m.data);
  };

  test('a revoked token of the server credentials ends the stream, without an id to resume from', async () => {
    const d = await createTenant(t.store, () => Date.now(), uniq('tenant-d'));
    const s = await stream('', { 'x-service-api-key': d.apiKey, 'x-service-auth-token': d.authToken });
    assert.equal(s.status, 200, s.body);
    const other = await stream();
    const { tenant } = (await t.store.findCredentials(d.apiKey))!;
    await t.store.revokeToken(tenant.id, hashToken(d.authToken), Date.now());
    const close = await closeOf(s);
    assert.match(close.reason, /no longer accepted/);
    assert.equal(close.lastEventId, undefined, 'not an invitation to resume');
    assert.equal(other.ended, false, "another tenant's stream goes on");
  });

  test("a disabled tenant's token stream ends; its token opens no new one (401)", async () => {
    const org = uniq('org');
    const e = await createTenant(t.store, () => Date.now(), uniq('tenant-e'));
    const eToken = (
      await t.request(PATHS.authTokenGet, {
        body: { data: { userId: 'u', userProperties: { organizationId: org } } },
        headers: credsOf({ creds: e } as TestApp['a']),
      })
    ).json.result.data.token as string;
    const s = await stream('', { authorization: `Bearer ${eToken}` });
    assert.equal(s.status, 200, s.body);
    await t.store.setTenantDisabled(e.apiKey, true);
    assert.match((await closeOf(s)).reason, /no longer accepted/);
    const refused = await stream('', { authorization: `Bearer ${eToken}` });
    assert.equal(refused.status, 401, refused.body);
  });

  test('a token is no server credential: a /v1 POST of an operation closed to end users is 403', async () => {
    const token = await tokenFor(t.a, 'u', uniq('org'));
    const r = await t.request(PATHS.notificationsAdd, {
      body: { data: { organizationId: 'o', notifyUsers: [{ userId: 'u' }] } },
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(r.status, 403, JSON.stringify(r.json));
    assert.equal(r.json.error.status, 'PERMISSION_DENIED');
  });
});

describe('an event stream before the hub places it', () => {
  // Subscribing waits on the database; a heartbeat or a shutdown in that time must not tell the
  // client it stands at id 0 (EventSource would keep it, and the next reconnect replay everything).
  test('sends no id before it is placed, and closes naming the id the client asked to resume from', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const s = new EventStream('tenant', res, { organizationId: null, documentId: null, types: null }, null, 41, {
        bufferBytes: 1024,
        heartbeatMs: 10,
        onEnd: () => {},
      });
      setTimeout(() => s.end('shutting down'), 80);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const s = await openStream(`http://127.0.0.1:${port}/`);
      const close = await s.next();
      assert.equal(close.event, 'close');
      assert.deepEqual(JSON.parse(close.data), { reason: 'shutting down', lastEventId: 41 });
      assert.doesNotMatch(s.raw, /^id:/m, 'no id, and no heartbeat, before the stream is placed');
      s.close();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('GET /v1/events: errors', () => {
  test('without credentials 401; wrong credentials 401', async () => {
    const none = await stream('', {});
    assert.equal(none.status, 401, none.body);
    assert.equal(JSON.parse(none.body).error.status, 'UNAUTHENTICATED');
    const wrong = await stream('', { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': 'mt_wrong' });
    assert.equal(wrong.status, 401, wrong.body);
  });

  test('credentials come first: without them a bad query is still 401', async () => {
    const s = await stream('?types=nope&lastEventId=x', {});
    assert.equal(s.status, 401, s.body);
  });

  test('an unknown query parameter is 400 in the error envelope (docs/events.md); the known ones all open a stream', async () => {
    for (const q of ['?foo=1', '?_=1700000000', '?organizationId=org-x&color=red', '?organizationid=org-x']) {
      const s = await stream(q);
      assert.equal(s.status, 400, `${q}: ${s.body}`);
      assert.match(String(s.headers['content-type']), /^application\/json/, q);
      const body = JSON.parse(s.body);
      assert.deepEqual(Object.keys(body), ['error'], q);
      assert.deepEqual(Object.keys(body.error).sort(), ['message', 'status'], q);
      assert.equal(body.error.status, 'INVALID_ARGUMENT', q);
      const name = q.slice(q.lastIndexOf(q.includes('&') ? '&' : '?') + 1).split('=')[0]!;
      assert.ok(body.error.message.includes(`"${name}"`), `${q}: the message names the parameter: ${body.error.message}`);
    }
    const foo = JSON.parse((await stream('?foo=1')).body).error.message;
    assert.equal(foo, 'Unknown query parameter "foo"; known: organizationId, documentId, types, token, lastEventId.');
    // Credentials still come first.
    assert.equal((await stream('?foo=1', {})).status, 401);
    const org = uniq('org');
    const all = await stream(`?organizationId=${org}&documentId=doc-1&types=notification.*,user.add&lastEventId=0`);
    assert.equal(all.status, 200, all.body);
    const token = await tokenFor(t.a, 'reader', org);
    const asUser = await stream(
      `?token=${token}&organizationId=${org}&documentId=doc-1&types=notification.add&lastEventId=0`,
      {},
    );
    assert.equal(asUser.status, 200, asUser.body);
    await notify(t.a, org, { documentId: 'doc-1', notificationId: 'filtered-in' });
    assert.equal(parsed(await all.next()).data.id, 'filtered-in');
    assert.equal(parsed(await asUser.next()).data.id, 'filtered-in');
  });

  test('a bad types list or Last-Event-ID is INVALID_ARGUMENT', async () => {
    for (const q of ['?types=Comment.Add', '?types=comment', '?types=widget.add', '?lastEventId=abc', '?lastEventId=-1']) {
      const s = await stream(q);
      assert.equal(s.status, 400, `${q}: ${s.body}`);
      assert.equal(JSON.parse(s.body).error.status, 'INVALID_ARGUMENT', q);
    }
    const s = await stream('', { ...credsOf(t.a), 'last-event-id': 'x1' });
    assert.equal(s.status, 400, s.body);
  });

  test('POST is 405 with Allow: GET', async () => {
    const r = await t.request('/v1/events', { body: { data: {} } });
    expectError(r, 405, 'INVALID_ARGUMENT');
    assert.equal(r.headers.allow, 'GET');
  });
});

describe('GET /v1/events: security', () => {
  test("a tenant's stream never carries another tenant's events", async () => {
    const org = uniq('org');
    const b = await stream(`?organizationId=${org}`, credsOf(t.b));
    const a = await stream(`?organizationId=${org}`);
    await notify(t.a, org, { notificationId: 'of-a' });
    assert.equal(parsed(await a.next()).data.id, 'of-a', "A's event has been sent to A's streams");
    await notify(t.b, org, { notificationId: 'mine' });
    assert.equal(parsed(await b.next()).data.id, 'mine', "B's stream: its own event first, not A's");
  });

  test("an end-user token's stream: its own notifications (listed, or organization-wide as a member) and nothing else", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'member' }] });
    const member = await stream('', { authorization: `Bearer ${await tokenFor(t.a, 'member', org)}` });
    const stranger = await stream(`?token=${await tokenFor(t.a, 'stranger', org)}`, {});
    const otherOrg = uniq('org');
    const elsewhere = await stream('', { authorization: `Bearer ${await tokenFor(t.a, 'member', otherOrg)}` });
    await notify(t.a, org, { notifyUsers: [{ userId: 'someone' }], notificationId: 'not-theirs' });
    await notify(t.a, org, { notifyUsers: [{ userId: 'member' }], notificationId: 'listed' });
    await notify(t.a, org, { notifyUsers: [{ userId: 'stranger' }], notificationId: 'to-stranger' });
    await notify(t.a, org, { notifyUsers: undefined, notifyAll: true, notificationId: 'wide' });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'other-user' }] });
    // The marker: one notification to all three, written last.
    const end = { notifyUsers: [{ userId: 'member' }, { userId: 'stranger' }], notificationId: 'end' };
    await notify(t.a, org, end);
    await notify(t.a, otherOrg, end);
    const ids = async (s: SseStream) => (await s.until((m) => parsed(m).data.id === 'end')).map((m) => parsed(m).data.id);
    assert.deepEqual(await ids(member), ['listed', 'wide', 'end'], 'the member: listed and organization-wide');
    assert.deepEqual(
      await ids(stranger),
      ['to-stranger', 'end'],
      'no profile: no organization-wide notification, no user events',
    );
    assert.deepEqual(await ids(elsewhere), ['end'], 'another organization sees nothing of this one');
    // Settings name every user they were set for: the server's business, not a user's stream's.
    const config = { organizationId: org, documentIds: ['d'], userIds: ['member', 'other-user'], config: { inbox: 'ALL' } };
    await t.a.ok(PATHS.notificationsConfigSet, config);
    await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'member', notificationIds: ['listed'] });
    const read = parsed(await member.next());
    assert.deepEqual([read.type, read.data.userId], ['notification.read', 'member'], 'its own read marks, not the settings');
  });

  test("an end-user token's stream: threads of public, organizationPrivate and restricted documents by access", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'member' }] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'restricted', users: [{ userId: 'listed' }] });
    await t.a.ok(PATHS.documentsAdd, {
      organizationId: org,
      documents: [{ documentId: 'public' }, { documentId: 'restricted' }],
    });
    await t.a.ok(PATHS.documentsAccess, { organizationId: org, documentIds: ['public'], accessType: 'public' });
    await t.a.ok(PATHS.documentsAccess, { organizationId: org, documentIds: ['restricted'], accessType: 'restricted' });
    const as = async (user: string) => stream(`?token=${await tokenFor(t.a, user, org)}&types=comment_annotation.add`, {});
    const [member, listed, stranger] = [await as('member'), await as('listed'), await as('stranger')];
    const thread = async (documentId: string) => {
      const annotationId = uniq(documentId);
      await t.a.ok(PATHS.annotationsAdd, {
        organizationId: org,
        documentId,
        commentAnnotations: [{ annotationId, commentData: [{ commentText: 'hi', from: { userId: 'w' } }] }],
      });
      return annotationId;
    };
    for (const d of ['public', 'private', 'restricted']) await thread(d);
    // The marker, written last and seen by all: one more thread on the public document.
    let marker = await thread('public');
    const seen = async (s: SseStream) =>
      (await s.until((m) => parsed(m).data.annotationId === marker)).slice(0, -1).map((m) => parsed(m).documentId);
    assert.deepEqual(await seen(member), ['public', 'private'], 'a member: public and organizationPrivate');
    assert.deepEqual(await seen(listed), ['public', 'private', 'restricted'], 'a member of the restricted document: all three');
    assert.deepEqual(await seen(stranger), ['public'], 'no profile: public only');
    // Access changes apply from the next event: the stranger joins the organization.
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'stranger' }] });
    await thread('private');
    marker = await thread('public');
    assert.deepEqual(await seen(stranger), ['private']);
  });

  test("a user's read marks of threads reach that user's stream only", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'reader' }, { userId: 'other' }] });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'd',
      commentAnnotations: [{ annotationId: 'a', commentData: [{ commentText: 'hi', from: { userId: 'w' } }] }],
    });
    const as = async (user: string) => stream(`?token=${await tokenFor(t.a, user, org)}&types=comment_annotation.read`, {});
    const [reader, other] = [await as('reader'), await as('other')];
    await t.a.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'd', userId: 'reader' });
    assert.equal(parsed(await reader.next()).data.userId, 'reader');
    assert.deepEqual(await other.within(200), [], "another user's read marks are not theirs to see");
  });

  test("a tampered, unsigned or malformed token is 401; another tenant's token streams only its own tenant", async () => {
    const org = uniq('org');
    const token = await tokenFor(t.a, 'u', org);
    const [head, body, sig] = token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${sig}`;
    for (const bad of [tampered, `${head}.${body}.`, 'not-a-token']) {
      const s = await stream('', { authorization: `Bearer ${bad}` });
      assert.equal(s.status, 401, s.body);
      assert.equal(JSON.parse(s.body).error.status, 'UNAUTHENTICATED');
    }
    // A revoked or disabled tenant's tokens verify no more.
    const c = await createTenant(t.store, () => Date.now(), 'tenant-c');
    const cCaller = { creds: c } as TestApp['a'];
    const cToken = (
      await t.request(PATHS.authTokenGet, {
        body: { data: { userId: 'u', userProperties: { organizationId: org } } },
        headers: credsOf(cCaller),
      })
    ).json.result.data.token as string;
    assert.equal((await stream('', { authorization: `Bearer ${cToken}` })).status, 200, 'before the revocation');
    await t.store.revokeTenant(c.apiKey, Date.now());
    const refused = await stream('', { authorization: `Bearer ${cToken}` });
    assert.equal(refused.status, 401, refused.body);
    // B's token names B: it streams B's events only, never A's.
    const bToken = await tokenFor(t.b, 'u', org);
    const s = await stream('', { authorization: `Bearer ${bToken}` });
    await notify(t.a, org, { notifyUsers: [{ userId: 'u' }] });
    assert.deepEqual(await s.within(300), []);
  });
});
