// PostgreSQL faults against the real server process: backends terminated under write load (what a
// failover, pg_terminate_backend or an idle-session timeout does), and a database that refuses writes
// (read-only, as after a failover to a standby; disk full answers the same way).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { byStatus, readAllIds, writeLoad } from './load.js';
import { post, startServer, stopServer, type ServerProcess } from './server-process.js';
import { freshDatabase, NEEDS_POSTGRES, PG_URL, withPg, type FreshDatabase } from './test-database.js';

const creds = { apiKey: 'faults-pg-key', authToken: 'faults-pg-token-0123456789' };
const TERMINATIONS = 10;
const RECOVERY_BOUND_MS = 1000;

/** Terminates every backend of the server (found by its application_name); returns how many. */
async function terminateBackends(applicationName: string): Promise<number> {
  return withPg(async (c) => (await c.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [applicationName],
  )).rowCount ?? 0);
}

describe('PostgreSQL terminates the server\'s connections', { skip: NEEDS_POSTGRES }, () => {
  const applicationName = `marginalia-faults-${process.pid}`;
  let db: FreshDatabase;
  let server: ServerProcess;

  before(async () => {
    const url = new URL(PG_URL!);
    url.searchParams.set('application_name', applicationName);
    db = freshDatabase('postgres', {
      DATABASE_URL: url.toString(), MARGINALIA_API_KEY: creds.apiKey, MARGINALIA_AUTH_TOKEN: creds.authToken, MARGINALIA_RATE_LIMIT: '0',
    });
    server = await startServer({ env: db.env });
  });
  after(async () => {
    if (server) await stopServer(server);
    await db?.drop();
  });

  test(`every backend terminated ${TERMINATIONS} times under write load: the process survives, answers 200 or 503, loses nothing`, async (t) => {
    const load = writeLoad(server.url, creds, 12, 30_000);
    const recoveries: number[] = [];
    const killed: number[] = [];
    try {
      await new Promise((r) => setTimeout(r, 300));
      for (let i = 0; i < TERMINATIONS; i++) {
        const at = performance.now();
        killed.push(await terminateBackends(applicationName));
        // Recovery: the first write sent after the termination that got its 200.
        let recovered: number | undefined;
        while (recovered === undefined && performance.now() - at < 5000) {
          await new Promise((r) => setTimeout(r, 20));
          const ok = load.answers.find((a) => a.sentAt >= at && a.status === 200);
          if (ok) recovered = ok.answeredAt - at;
          assert.equal(server.proc.exitCode, null, `the server exited after termination ${i + 1}:\n${server.stderr()}`);
        }
        assert.ok(recovered !== undefined, `no write succeeded within 5 s of termination ${i + 1}`);
        recoveries.push(Math.round(recovered));
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await load.stop();
    }
    const statuses = byStatus(load.answers);
    t.diagnostic(`backends terminated per round: ${killed.join(',')}; answers by status: ${JSON.stringify(statuses)}; ` +
      `recovery ms: ${recoveries.join(',')} (max ${Math.max(...recoveries)})`);
    assert.ok(killed.every((n) => n > 0), `every round terminated at least one backend: ${killed.join(',')}`);
    assert.equal(server.proc.exitCode, null, `the server exited:\n${server.stderr()}`);
    assert.deepEqual(Object.keys(statuses).filter((s) => s !== '200' && s !== '503'), [], `only 200 and 503: ${JSON.stringify(statuses)}`);
    assert.ok(Math.max(...recoveries) <= RECOVERY_BOUND_MS, `recovered within ${RECOVERY_BOUND_MS} ms each time: ${recoveries.join(',')}`);

    const stored = await readAllIds(server.url, creds);
    const lost = load.acknowledged().filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `acknowledged writes lost: ${lost.length} of ${load.acknowledged().length}`);
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200, 'ready again');
  });
});
