// A PostgreSQL outage, for real: the server reaches PostgreSQL through a TCP proxy inside this test,
// which cuts the connection (reset, or silent like a dead network) and restores it. While it is cut,
// operations answer 503 UNAVAILABLE within a bounded time and /readyz is 503; once it is back, the
// service recovers by itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { CuttableProxy } from '../helpers/tcp-proxy.js';
import { freshDatabase, NEEDS_POSTGRES, PG_URL, type FreshDatabase } from '../helpers/test-database.js';

const creds = { apiKey: 'outage-key', authToken: 'outage-token-0123456789' };
const CONNECT_TIMEOUT_MS = 500;
const STATEMENT_TIMEOUT_MS = 1000;
// The longest a request may take while the database is gone: a statement on a connection that went
// silent waits for the client-side query timeout (statement + connect timeout), plus scheduling slack.
const BOUND_MS = STATEMENT_TIMEOUT_MS + CONNECT_TIMEOUT_MS + 1500;

describe('PostgreSQL outage', { skip: NEEDS_POSTGRES }, () => {
  let db: FreshDatabase;
  let proxy: CuttableProxy;
  let server: ServerProcess;

  before(async () => {
    const pgUrl = new URL(PG_URL!);
    proxy = new CuttableProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    const port = await proxy.listen();
    pgUrl.host = `127.0.0.1:${port}`;
    db = freshDatabase('postgres', {
      DATABASE_URL: pgUrl.toString(),
      MARGINALIA_PG_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      MARGINALIA_PG_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      MARGINALIA_API_KEY: creds.apiKey,
      MARGINALIA_AUTH_TOKEN: creds.authToken,
    });
    server = await startServer({ env: db.env });
  });
  after(async () => {
    if (server) await stopServer(server);
    await proxy?.close();
    await db?.drop();
  });

  const timed = async <T>(fn: () => Promise<T>) => {
    const start = performance.now();
    const value = await fn();
    return { value, ms: Math.round(performance.now() - start) };
  };
  const read = () => post(server.url, '/v1/notifications/get', creds, { organizationId: 'o', userId: 'u' });
  const write = (id: string) =>
    post(server.url, '/v1/notifications/add', creds, {
      organizationId: 'o',
      notificationId: id,
      actionUser: { userId: 'a' },
      displayHeadlineMessageTemplate: 't',
      notifyUsers: [{ userId: 'u' }],
    });
  const ready = async () => (await fetch(`${server.url}/readyz`)).status;

  for (const mode of ['reset', 'silent'] as const) {
    test(`cut (${mode}): 503 within ${BOUND_MS} ms, /readyz 503, then recovery by itself`, async (t) => {
      assert.equal((await write(`before-${mode}`)).status, 200, 'healthy before the cut');
      proxy.cut(mode);

      const timings: Record<string, number> = {};
      for (const [name, call] of [
        ['read', read],
        ['write', () => write(`during-${mode}`)],
        ['read again', read],
      ] as const) {
        const { value: r, ms } = await timed(call);
        timings[name] = ms;
        assert.equal(r.status, 503, `${name} during the outage: ${r.text}`);
        assert.equal(r.json.error.status, 'UNAVAILABLE');
        assert.ok(ms <= BOUND_MS, `${name} took ${ms} ms, more than ${BOUND_MS}`);
      }
      const readyz = await timed(ready);
      timings.readyz = readyz.ms;
      assert.equal(readyz.value, 503);
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'the process stays alive');

      proxy.restore();
      const recovery = await timed(async () => {
        for (let i = 0; i < 100; i++) {
          if ((await read()).status === 200 && (await ready()) === 200) return true;
          await new Promise((r) => setTimeout(r, 100));
        }
        return false;
      });
      assert.ok(recovery.value, 'the service recovered within 10 s of the database coming back');
      timings.recovery = recovery.ms;
      t.diagnostic(`outage (${mode}) timings in ms: ${JSON.stringify(timings)}`);

      const after = await write(`after-${mode}`);
      assert.equal(after.status, 200, after.text);
      const ids = (await read()).json.result.data.map((n: any) => n.id);
      assert.ok(ids.includes(`before-${mode}`) && ids.includes(`after-${mode}`), JSON.stringify(ids));
      assert.ok(!ids.includes(`during-${mode}`), 'the write refused during the outage was not applied');
    });
  }
});
