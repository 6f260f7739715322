// A server started while its database cannot be reached (docs/operations.md, "Start"): PostgreSQL not
// up yet, or restarting. It keeps trying every second for MARGINALIA_DATABASE_WAIT_SECONDS, answering
// /healthz meanwhile, and serves once the database answers; with the wait at 0 it exits at once with
// code 1. The database is taken away for real, through a TCP proxy inside the test that resets every
// connection until it is restored.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { freePort, logEntries, post, startServer, stopServer } from '../helpers/server-process.js';
import { CuttableProxy } from '../helpers/tcp-proxy.js';
import { freshDatabase, NEEDS_POSTGRES, PG_URL } from '../helpers/test-database.js';

const creds = { apiKey: 'start-wait-key', authToken: 'start-wait-token-0123456789' };

describe('a start while PostgreSQL cannot be reached', { skip: NEEDS_POSTGRES }, () => {
  const proxies: CuttableProxy[] = [];
  const drops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const p of proxies) await p.close();
    for (const drop of drops) await drop();
  });

  /** A fresh database reached through a proxy that is cut (resetting every connection) from the start. */
  async function unreachable(extra: Record<string, string>) {
    const pgUrl = new URL(PG_URL!);
    const proxy = new CuttableProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    proxies.push(proxy);
    pgUrl.host = `127.0.0.1:${await proxy.listen()}`;
    proxy.cut('reset');
    const db = freshDatabase('postgres', {
      DATABASE_URL: pgUrl.toString(),
      MARGINALIA_PG_CONNECT_TIMEOUT_MS: '500',
      MARGINALIA_API_KEY: creds.apiKey,
      MARGINALIA_AUTH_TOKEN: creds.authToken,
      ...extra,
    });
    drops.push(() => db.drop());
    return { proxy, env: db.env };
  }

  test('waits for the database, answering /healthz meanwhile, and serves once it answers', async () => {
    const { proxy, env } = await unreachable({});
    const port = await freePort();
    const starting = startServer({ env: { ...env, PORT: String(port), MARGINALIA_DATABASE_WAIT_SECONDS: '60' } });
    // A start that fails is reported by the await below, not as an unhandled rejection meanwhile.
    starting.catch(() => {});
    const status = (path: string) =>
      fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
    // Two attempts have failed (each opens one connection, which the proxy resets): the server is
    // waiting, however long its modules took to load on this machine.
    const deadline = Date.now() + 30_000;
    while (proxy.resets < 2) {
      assert.ok(Date.now() < deadline, `only ${proxy.resets} attempts in 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(await status('/healthz'), 200, '/healthz answers while the database cannot be reached');
    assert.equal(await status('/readyz'), 503, 'not ready before the database answers');
    proxy.restore();
    const server = await starting;
    try {
      const waits = logEntries(server).filter((e) => /cannot be reached; trying again/.test(e.msg));
      assert.ok(waits.length >= 2, `it said it waits, each attempt: ${waits.length}`);
      assert.equal(waits[0]!.level, 40, 'a warning');
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
      const r = await post(server.url, '/v1/users/add', creds, { organizationId: 'o', users: [{ userId: 'u' }] });
      assert.equal(r.status, 200, r.text);
    } finally {
      await stopServer(server);
    }
  });

  test('with MARGINALIA_DATABASE_WAIT_SECONDS=0 it exits with code 1 at the first failure', async () => {
    const { env } = await unreachable({ MARGINALIA_DATABASE_WAIT_SECONDS: '0' });
    const started = performance.now();
    await assert.rejects(startServer({ env }), /server exited with 1 before listening[\s\S]*database is unavailable/);
    assert.ok(performance.now() - started < 10_000, 'no wait');
  });
});
