// What callers see when things go wrong below the API: a locked database, an unreachable one, a bug;
// and that the one documented 500 that is no fault (a partial success with details) is neither logged
// nor counted as one.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import pino from 'pino';
import { type AppOptions, buildApp as buildUnchecked } from '../../src/app.js';
import { DEFAULT_LIMITS } from '../../src/schemas/common.js';
import { createTenant } from '../../src/services/credentials.js';
import { StoreUnavailableError, type Store } from '../../src/store/store.js';
import { checkingAnswers } from '../helpers/answer-check.js';
import { sample } from '../helpers/metrics.js';
import { sqliteStore } from '../helpers/test-database.js';

/** The app, with every answer checked against its operation's schema (as makeTestApp does). */
const buildApp = async (options: AppOptions) => checkingAnswers(await buildUnchecked(options));

const config = { bodyLimit: 1_048_576, rateLimit: 0, maxJsonDepth: 32, limits: DEFAULT_LIMITS };

async function setup(busyTimeoutMs = 5000) {
  const path = join(mkdtempSync(join(tmpdir(), 'marginalia-fail-')), 'f.db');
  const store = sqliteStore(path, { busyTimeoutMs });
  await store.migrate();
  const creds = await createTenant(store, Date.now, 't');
  const headers = {
    'content-type': 'application/json',
    'x-service-api-key': creds.apiKey,
    'x-service-auth-token': creds.authToken,
  };
  return { path, store, headers };
}

/** The same store, but the named methods fail with the given error. */
function failing(store: Store, methods: (keyof Store)[], error: () => Error): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (methods.includes(prop as keyof Store))
        return async () => {
          throw error();
        };
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const usersAdd = { organizationId: 'o', users: [{ userId: 'u', name: 'N' }] };

/** An app that logs (info and above) into `lines`. */
async function loggingApp(store: Store) {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, app: await buildApp({ config, store, logger: pino({ level: 'info' }, stream) }) };
}
const requestsCounted = async (app: Awaited<ReturnType<typeof buildApp>>, labels: Record<string, string>) =>
  sample((await app.inject({ method: 'GET', url: '/metrics' })).body, 'marginalia_http_requests_total', labels);

describe('failures below the API', () => {
  test('a write that waits past the busy timeout for another writer is 503 UNAVAILABLE, and writes nothing', async () => {
    const { path, store, headers } = await setup(50);
    const app = await buildApp({ config, store });
    const other = new Database(path);
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE'); // another process holds the write lock
    try {
      const r = await app.inject({ method: 'POST', url: '/v1/users/add', headers, payload: { data: usersAdd } });
      assert.equal(r.statusCode, 503, r.body);
      assert.equal(r.json().error.status, 'UNAVAILABLE');
      assert.equal(r.headers['retry-after'], '1');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const profiles = await store.findProfiles((await store.findCredentials(headers['x-service-api-key']))!.tenant.id, 'o', ['u']);
    assert.equal(profiles.size, 0, 'the refused write left nothing');
    const again = await app.inject({ method: 'POST', url: '/v1/users/add', headers, payload: { data: usersAdd } });
    assert.equal(again.statusCode, 200, `the lock gone, writes work again: ${again.body}`);
    await app.close();
    await store.close();
  });

  test('an unreachable database is 503 UNAVAILABLE for operations and /readyz', async () => {
    const { store, headers } = await setup();
    const down = () => new StoreUnavailableError('connection refused');
    const app = await buildApp({ config, store: failing(store, ['getNotifications', 'ping'], down) });
    const r = await app.inject({
      method: 'POST',
      url: '/v1/notifications/get',
      headers,
      payload: { data: { organizationId: 'o', userId: 'u' } },
    });
    assert.equal(r.statusCode, 503, r.body);
    assert.equal(r.json().error.status, 'UNAVAILABLE');
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503, ready.body);
    assert.equal(ready.json().error.status, 'UNAVAILABLE');
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'the process itself is alive');
    await app.close();
    await store.close();
  });

  test('a bug is 500 INTERNAL with the request id, and neither the stack nor SQL reaches the caller', async () => {
    const { store, headers } = await setup();
    const bug = () => new Error('SQLITE_ERROR: no such column: secret_column in SELECT * FROM users');
    const { app, lines } = await loggingApp(failing(store, ['upsertUsers'], bug));
    const r = await app.inject({
      method: 'POST',
      url: '/v1/users/add',
      headers: { ...headers, 'x-request-id': 'trace-42' },
      payload: { data: usersAdd },
    });
    assert.equal(r.statusCode, 500, r.body);
    assert.deepEqual(r.json(), { error: { message: 'Internal error. Request id: trace-42', status: 'INTERNAL' } });
    assert.equal(r.headers['x-request-id'], 'trace-42');
    assert.doesNotMatch(r.body, /SELECT|secret_column|at .*\.ts/);
    assert.ok(
      lines.some((l) => l.level === 50 && l.msg === 'unhandled error' && l.reqId === 'trace-42'),
      'logged as a fault, with the request id',
    );
    assert.equal(await requestsCounted(app, { operation: 'users/add', status: '500', outcome: 'fault' }), 1);
    await app.close();
    await store.close();
  });

  test('the documented partial answer (500 INTERNAL with details) is no fault: neither logged nor counted as one', async () => {
    const { store, headers } = await setup();
    const { app, lines } = await loggingApp(store);
    const add = () =>
      app.inject({ method: 'POST', url: '/v1/workspace/domains/add', headers, payload: { data: { domains: ['example.com'] } } });
    assert.equal((await add()).statusCode, 200);
    const again = await add();
    assert.equal(again.statusCode, 500, again.body);
    assert.deepEqual(again.json(), {
      error: {
        message: 'Domain(s) added successfully to allowed domains. Skipped existing domains.',
        status: 'INTERNAL',
        details: { domainsAdded: [], skippedDomains: ['example.com'] },
      },
    });
    assert.deepEqual(
      lines.filter((l) => l.level >= 40),
      [],
      "no warning, no error: the answer is the page's, not a fault",
    );
    const line = lines.find((l) => l.msg === 'request completed' && l.status === 500);
    assert.equal(line?.outcome, 'partial', JSON.stringify(lines));
    const counted = (outcome: string) => requestsCounted(app, { operation: 'workspace/domains/add', status: '500', outcome });
    assert.equal(await counted('partial'), 1);
    assert.equal(await counted('fault'), undefined, 'no fault counted');
    await app.close();
    await store.close();
  });
});
