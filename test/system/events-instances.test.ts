// Event streams across processes (docs/events.md, "The live stream: GET /v1/events"): an event written through one
// process reaches streams held by every other within a second: sibling workers (MARGINALIA_WORKERS) on one SQLite
// file through the cluster primary, instances on one SQLite file through Redis, instances and workers on PostgreSQL
// through LISTEN/NOTIFY. The poll (MARGINALIA_EVENT_POLL_MS) is set to a minute in each, so only the
// notices can make the second; with no notice at all (two instances on one SQLite file, no Redis) the
// poll alone brings it. Shutdown ends open streams with a close event, from which a client resumes.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { NEEDS_REDIS, REDIS_URL } from '../helpers/redis.js';
import { post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { freshDatabase, NEEDS_POSTGRES, type FreshDatabase } from '../helpers/test-database.js';

const creds = { apiKey: 'events-instances-key', authToken: 'events-instances-token-0123456789' };
const headers = { 'x-service-api-key': creds.apiKey, 'x-service-auth-token': creds.authToken };
const NO_POLL = { MARGINALIA_EVENT_POLL_MS: '60000' };

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function servers(db: FreshDatabase, count: number, env: Record<string, string>): Promise<ServerProcess[]> {
  const all = { ...db.env, MARGINALIA_API_KEY: creds.apiKey, MARGINALIA_AUTH_TOKEN: creds.authToken, LOG_LEVEL: 'info', ...env };
  const list: ServerProcess[] = [];
  // Stopped even when a later one fails to start.
  cleanups.push(async () => {
    await Promise.all(list.map((s) => stopServer(s)));
    // A database may serve two rounds of servers (the shutdown test): dropped once.
    await db.drop().catch(() => {});
  });
  const start = async () => {
    const s = await startServer({ env: all });
    list.push(s);
    return s;
  };
  // One first (it migrates and makes the tenant), then the others.
  const first = await start();
  const rest = await Promise.all(Array.from({ length: count - 1 }, start));
  return [first, ...rest];
}

async function streams(url: string, n: number, org: string): Promise<SseStream[]> {
  const list = await Promise.all(Array.from({ length: n }, () => openStream(`${url}/v1/events?organizationId=${org}`, headers)));
  for (const s of list) cleanups.push(async () => s.close());
  return list;
}

const notify = async (url: string, org: string, notificationId: string) => {
  const r = await post(url, '/v1/notifications/add', creds, {
    organizationId: org,
    notificationId,
    actionUser: { userId: 'a' },
    displayHeadlineMessageTemplate: 't',
    notifyUsers: [{ userId: 'b' }],
  });
  assert.equal(r.status, 200, r.text);
};

/** Writes through `writer` and requires every stream to get each event within `withinMs` of its 200. */
let written = 0;

async function reachesAll(writer: string, list: SseStream[], org: string, withinMs: number): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < 5; i++) {
    const id = `${org}-n${++written}`;
    await notify(writer, org, id);
    const wrote = performance.now();
    for (const s of list) {
      const m = await s.next(withinMs);
      assert.equal(JSON.parse(m.data).data.id, id);
      delays.push(performance.now() - wrote);
    }
  }
  return delays;
}

describe('event streams across processes', () => {
  test('SQLite, MARGINALIA_WORKERS=2: a write on one worker reaches streams on both within a second', async () => {
    const [server] = await servers(freshDatabase('sqlite'), 1, { ...NO_POLL, MARGINALIA_WORKERS: '2' });
    // Connections are handed to the workers in turn: eight streams land on both.
    const list = await streams(server!.url, 8, 'org-w');
    const delays = await reachesAll(server!.url, list, 'org-w', 1000);
    assert.ok(Math.max(...delays) < 1000, `slowest ${Math.max(...delays)} ms`);
  });

  test('SQLite, two instances with MARGINALIA_REDIS_URL: through Redis within a second', { skip: NEEDS_REDIS }, async () => {
    const [a, b] = await servers(freshDatabase('sqlite'), 2, { ...NO_POLL, MARGINALIA_REDIS_URL: REDIS_URL });
    const list = await streams(a!.url, 3, 'org-r');
    await reachesAll(b!.url, list, 'org-r', 1000);
  });

  test('SQLite, two instances and no Redis: the poll brings it (MARGINALIA_EVENT_POLL_MS)', async () => {
    const [a, b] = await servers(freshDatabase('sqlite'), 2, { MARGINALIA_EVENT_POLL_MS: '300' });
    const list = await streams(a!.url, 2, 'org-p');
    await reachesAll(b!.url, list, 'org-p', 1000);
  });

  test('PostgreSQL, two instances of two workers each: LISTEN/NOTIFY within a second', { skip: NEEDS_POSTGRES }, async () => {
    const [a, b] = await servers(freshDatabase('postgres'), 2, { ...NO_POLL, MARGINALIA_WORKERS: '2' });
    const list = [...(await streams(a!.url, 4, 'org-pg')), ...(await streams(b!.url, 4, 'org-pg'))];
    await reachesAll(a!.url, list, 'org-pg', 1000);
    await reachesAll(b!.url, list, 'org-pg', 1000);
  });

  test('shutdown ends open streams with a close event; the client resumes elsewhere from its last id', async () => {
    const db = freshDatabase('sqlite');
    const [a] = await servers(db, 1, {});
    const [s] = await streams(a!.url, 1, 'org-s');
    await notify(a!.url, 'org-s', 'before');
    const first = JSON.parse((await s!.next()).data);
    await notify(a!.url, 'org-s', 'missed');
    assert.equal(JSON.parse((await s!.next()).data).data.id, 'missed');
    await stopServer(a!);
    const close = await s!.next();
    assert.equal(close.event, 'close');
    assert.equal(JSON.parse(close.data).lastEventId, first.id + 1);
    assert.match(JSON.parse(close.data).reason, /shutting down/);
    const [b] = await servers(db, 1, {});
    const resumed = await openStream(`${b!.url}/v1/events?organizationId=org-s&lastEventId=${first.id}`, headers);
    cleanups.push(async () => resumed.close());
    assert.equal(JSON.parse((await resumed.next()).data).data.id, 'missed');
  });
});
