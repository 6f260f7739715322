// Connection-level faults against the real server process (the database does not matter here):
// SIGTERM with idle and half-sent connections open, connections that stall or sit idle, and a
// malformed request pipelined behind a write.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseResponses, rawConnection, rawPost } from '../helpers/raw-http.js';
import { post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';

const creds = { apiKey: 'faults-http-key', authToken: 'faults-http-token-0123456789' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const notification = (id: string) => ({
  organizationId: 'o',
  notificationId: id,
  actionUser: { userId: 'a' },
  displayHeadlineMessageTemplate: 't',
  notifyUsers: [{ userId: 'u' }],
});
const storedIds = async (url: string) =>
  (await post(url, '/v1/notifications/get', creds, { organizationId: 'o', userId: 'u' })).json.result.data.map((n: any) => n.id);

async function serverWith(db: FreshDatabase, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServer({ env: { ...db.env, MARGINALIA_API_KEY: creds.apiKey, MARGINALIA_AUTH_TOKEN: creds.authToken, ...env } });
}

describe('SIGTERM with connections open', () => {
  let db: FreshDatabase;
  before(() => {
    db = freshDatabase('sqlite');
  });
  after(async () => db?.drop());

  test('idle, unused and half-sent connections close at once; the request in flight finishes; exit 0', async (t) => {
    const server = await serverWith(db, { MARGINALIA_SHUTDOWN_TIMEOUT_MS: '5000' });
    try {
      const unused = rawConnection(server.url);
      const halfHeaders = rawConnection(server.url);
      halfHeaders.write('POST /v1/notifications/add HTTP/1.1\r\nHost: x\r\n');
      const keptAlive = rawConnection(server.url);
      keptAlive.write(rawPost('/v1/notifications/add', creds, notification('kept-alive')));
      const inFlight = rawConnection(server.url);
      const request = rawPost('/v1/notifications/add', creds, notification('in-flight'));
      inFlight.write(request.slice(0, -5)); // headers and most of the body: the request has begun
      await sleep(300);
      assert.equal(parseResponses(keptAlive.received())[0]?.status, 200, keptAlive.received());

      const signalled = performance.now();
      server.proc.kill('SIGTERM');
      const idleClosed = await Promise.all([unused.closed, halfHeaders.closed, keptAlive.closed]);
      const closeMs = idleClosed.map((at) => Math.round(at - signalled));
      assert.equal(server.proc.exitCode, null, 'still running: a request is in flight');
      inFlight.write(request.slice(-5));
      await inFlight.closed;
      const code = await server.exited;
      const exitMs = Math.round(performance.now() - signalled);
      t.diagnostic(`idle connections closed after ${closeMs.join(', ')} ms; exit ${code} after ${exitMs} ms`);

      const [answer, ...more] = parseResponses(inFlight.received());
      assert.equal(answer?.status, 200, inFlight.received());
      assert.equal(answer.headers.connection, 'close', 'the last answer says the connection closes');
      assert.equal(more.length, 0);
      assert.equal(code, 0, server.stderr());
      assert.equal(unused.received(), '', 'nothing is written to a connection that sent nothing');
    } finally {
      await stopServer(server);
    }
    const again = await serverWith(db);
    try {
      assert.deepEqual((await storedIds(again.url)).sort(), ['in-flight', 'kept-alive'], 'the in-flight write was committed');
    } finally {
      await stopServer(again);
    }
  });
});

describe('connection timeouts', () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  before(async () => {
    db = freshDatabase('sqlite');
    server = await serverWith(db, {
      MARGINALIA_HTTP_HEADERS_TIMEOUT_MS: '600',
      MARGINALIA_HTTP_REQUEST_TIMEOUT_MS: '1200',
      MARGINALIA_HTTP_KEEP_ALIVE_TIMEOUT_MS: '600',
      MARGINALIA_HTTP_IDLE_TIMEOUT_MS: '5000',
    });
  });
  after(async () => {
    if (server) await stopServer(server);
    await db?.drop();
  });

  // Node checks its request timers periodically; allow for that and for a loaded machine.
  const SLACK_MS = 2500;
  const within = async (conn: { closed: Promise<number> }, ms: number) =>
    Promise.race([conn.closed.then(() => true), sleep(ms).then(() => false)]);

  test('a connection that never sends a request is closed after the headers timeout', async () => {
    const conn = rawConnection(server.url);
    assert.ok(await within(conn, 600 + SLACK_MS), 'still open');
  });

  test('a request whose headers stop arriving gets 408 in the envelope, then the connection closes', async () => {
    const conn = rawConnection(server.url);
    conn.write('POST /v1/notifications/add HTTP/1.1\r\nHost: x\r\n');
    assert.ok(await within(conn, 600 + SLACK_MS), 'still open');
    const [answer] = parseResponses(conn.received());
    assert.equal(answer?.status, 408, conn.received());
    assert.equal(answer.body.error.status, 'INVALID_ARGUMENT');
    assert.match(answer.body.error.message, /did not arrive in time/);
  });

  test('a request whose body stops arriving gets 408 in the envelope, then the connection closes; nothing is written', async () => {
    const conn = rawConnection(server.url);
    conn.write(rawPost('/v1/notifications/add', creds, notification('stalled')).slice(0, -5));
    assert.ok(await within(conn, 1200 + SLACK_MS), 'still open');
    const [answer] = parseResponses(conn.received());
    assert.equal(answer?.status, 408, conn.received());
    assert.equal(answer.body.error.status, 'INVALID_ARGUMENT');
    assert.ok(!(await storedIds(server.url)).includes('stalled'));
  });

  test('a kept-alive connection with no further request is closed after the keep-alive timeout', async () => {
    const conn = rawConnection(server.url);
    conn.write(rawPost('/v1/notifications/add', creds, notification('keep-alive')));
    assert.ok(await within(conn, 600 + SLACK_MS), 'still open');
    assert.equal(parseResponses(conn.received())[0]?.status, 200, conn.received());
  });

  test('the server keeps serving after all of that', async () => {
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
  });
});

describe('a malformed request pipelined behind a write', () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  before(async () => {
    db = freshDatabase('sqlite');
    server = await serverWith(db);
  });
  after(async () => {
    if (server) await stopServer(server);
    await db?.drop();
  });

  test('every request that was parsed gets its answer, in order, before the 400 and the close', async () => {
    const garbage = ['GARBAGE / HTTP/1.1\r\n\r\n', 'POST /v1/x HTTP/1.1\r\nContent-Length: nope\r\n\r\n', '\x00\x01\x02\r\n\r\n'];
    for (const [round, junk] of garbage.entries()) {
      const conn = rawConnection(server.url);
      const ids = [`p${round}-1`, `p${round}-2`];
      conn.write(ids.map((id) => rawPost('/v1/notifications/add', creds, notification(id))).join('') + junk);
      await conn.closed;
      const answers = parseResponses(conn.received());
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 400],
        conn.received(),
      );
      assert.equal(answers[2]!.body.error.status, 'INVALID_ARGUMENT');
      const stored = await storedIds(server.url);
      assert.ok(
        ids.every((id) => stored.includes(id)),
        `${ids} in ${stored}`,
      );
    }
  });

  test('a request whose body breaks the HTTP framing gets its 400 at once, not after the request timeout', async () => {
    const conn = rawConnection(server.url);
    const started = performance.now();
    conn.write(
      'POST /v1/notifications/add HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n' +
        `x-service-api-key: ${creds.apiKey}\r\nx-service-auth-token: ${creds.authToken}\r\n\r\nzz\r\n{"data":{}}\r\n`,
    );
    const closedAt = await conn.closed;
    const answers = parseResponses(conn.received());
    assert.deepEqual(
      answers.map((a) => a.status),
      [400],
      conn.received(),
    );
    assert.ok(closedAt - started < 5000, `answered after ${Math.round(closedAt - started)} ms`);
  });
});
