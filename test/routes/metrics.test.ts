// GET /metrics (docs/operations.md: Prometheus text, no credentials): requests by operation, status and outcome, their
// latency, store call times by database and method, the PostgreSQL pool, process metrics; and the one
// JSON log line per request with its id, operation, tenant prefix, status and duration.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeTestApp, notificationData, PATHS, type TestApp } from '../helpers/app.js';
import { createKey, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { sample } from '../helpers/metrics.js';
import { freshDatabase, TEST_STORE, type FreshDatabase } from '../helpers/test-database.js';

describe('/metrics', () => {
  let t: TestApp;
  let text: string;
  let contentType: string;

  before(async () => {
    t = await makeTestApp();
    await t.a.ok(PATHS.notificationsAdd, notificationData('m-org', { notificationId: 'm1' }));
    await t.a.ok(PATHS.notificationsGet, { organizationId: 'm-org', documentId: 'doc-1' });
    await t.a.ok(PATHS.notificationsGet, { organizationId: 'm-org', userId: 'r1' });
    await t.a.post(PATHS.notificationsGet, { organizationId: 7 });
    await t.request(PATHS.notificationsGet, { body: { data: {} } });
    await t.request('/v1/nothing', { body: {} });
    const r = await t.request('/metrics', { method: 'GET' });
    assert.equal(r.status, 200, 'no credentials needed');
    text = r.body;
    contentType = String(r.headers['content-type']);
  });
  after(async () => {
    await t.close();
  });

  test('is the Prometheus text format', () => {
    assert.match(contentType, /^text\/plain; version=0\.0\.4/);
    assert.match(text, /^# HELP marginalia_http_requests_total /m);
    assert.match(text, /^# TYPE marginalia_http_request_duration_seconds histogram$/m);
  });

  test('counts requests by operation and status', () => {
    assert.equal(sample(text, 'marginalia_http_requests_total', { operation: 'notifications/add', status: '200' }), 1);
    assert.equal(sample(text, 'marginalia_http_requests_total', { operation: 'notifications/get', status: '200' }), 2);
    assert.equal(sample(text, 'marginalia_http_requests_total', { operation: 'notifications/get', status: '400' }), 1);
    assert.equal(sample(text, 'marginalia_http_requests_total', { operation: 'notifications/get', status: '401' }), 1);
    assert.equal(sample(text, 'marginalia_http_requests_total', { operation: 'unknown', status: '404' }), 1);
  });

  test("says what each answer was beside its status: ok, refused (the caller's), and faults apart", () => {
    const count = (operation: string, status: string, outcome: string) =>
      sample(text, 'marginalia_http_requests_total', { operation, status, outcome });
    assert.equal(count('notifications/get', '200', 'ok'), 2);
    assert.equal(count('notifications/get', '400', 'refused'), 1);
    assert.equal(count('notifications/get', '401', 'refused'), 1);
    assert.equal(count('unknown', '404', 'refused'), 1);
  });

  test('times requests by operation', () => {
    assert.equal(sample(text, 'marginalia_http_request_duration_seconds_count', { operation: 'notifications/get' }), 4);
    assert.ok(sample(text, 'marginalia_http_request_duration_seconds_sum', { operation: 'notifications/get' })! > 0);
  });

  test('times store calls by database and method', () => {
    const database = TEST_STORE;
    assert.equal(
      sample(text, 'marginalia_store_call_duration_seconds_count', { database, method: 'addNotification', outcome: 'ok' }),
      1,
    );
    assert.equal(
      sample(text, 'marginalia_store_call_duration_seconds_count', { database, method: 'getNotifications', outcome: 'ok' }),
      2,
    );
  });

  test('times each write transaction by database and method, and no read', () => {
    const database = TEST_STORE;
    assert.equal(sample(text, 'marginalia_write_transaction_seconds_count', { database, method: 'addNotification' }), 1);
    assert.ok(sample(text, 'marginalia_write_transaction_seconds_sum', { database, method: 'addNotification' })! > 0);
    assert.equal(sample(text, 'marginalia_write_transaction_seconds_count', { database, method: 'getNotifications' }), undefined);
  });

  test('reports the PostgreSQL pool (absent on SQLite) and the process', () => {
    const total = sample(text, 'marginalia_db_pool_connections', { state: 'total' });
    if (TEST_STORE === 'postgres') assert.ok(total !== undefined && total >= 1, 'pool total');
    else assert.equal(total, undefined);
    assert.ok(sample(text, 'marginalia_process_resident_memory_bytes', {})! > 0);
  });
});

describe('the request log of the real process', () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  let creds: { apiKey: string; authToken: string };

  before(async () => {
    db = freshDatabase();
    creds = createKey(db.env, 'log-test');
    server = await startServer({ env: { ...db.env, LOG_LEVEL: 'info' } });
  });
  after(async () => {
    if (server) await stopServer(server);
    await db.drop();
  });

  test('one JSON line per request: request id, operation, tenant key prefix, status, duration', async () => {
    const res = await fetch(`${server.url}${PATHS.notificationsGet}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-api-key': creds.apiKey,
        'x-service-auth-token': creds.authToken,
        'x-request-id': 'log-test-1',
      },
      body: JSON.stringify({ data: { organizationId: 'o', documentId: 'd' } }),
    });
    assert.equal(res.status, 200);
    await post(server.url, PATHS.notificationsGet, { ...creds, authToken: 'wrong-token-wrong-token' }, {});
    // The lines are written as the answers go out; wait until both are in.
    const completed = () =>
      server
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"msg":"request completed"'))
        .map((l) => JSON.parse(l));
    for (const deadline = Date.now() + 5000; completed().length < 2 && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 20));
    const lines = completed();
    const line = lines.find((l) => l.reqId === 'log-test-1');
    assert.ok(line, server.stdout());
    assert.equal(line.operation, 'notifications/get');
    assert.equal(line.status, 200);
    assert.equal(typeof line.durationMs, 'number');
    assert.equal(line.tenant, `${creds.apiKey.slice(0, 10)}…`);
    const refused = lines.find((l) => l.status === 401);
    assert.ok(refused && refused.tenant === undefined, 'a refused request names no tenant');
    assert.ok(
      !server.stdout().includes(creds.apiKey) && !server.stdout().includes(creds.authToken),
      'neither credential is logged',
    );
  });
});
