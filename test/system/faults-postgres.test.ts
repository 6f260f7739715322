// PostgreSQL faults against the real server process: backends terminated under write load (what a
// failover, pg_terminate_backend or an idle-session timeout does), and a database that refuses writes:
// read-only, as after a failover to a standby, and out of disk.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../helpers/eventually.js';
import { byStatus, readAllIds, writeLoad } from '../helpers/load.js';
import { logEntries, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, NEEDS_POSTGRES, PG_URL, withPg, type FreshDatabase } from '../helpers/test-database.js';

const creds = { apiKey: 'faults-pg-key', authToken: 'faults-pg-token-0123456789' };
const TERMINATIONS = 10;
// Recovery must not wait out a timeout: below the 2 s connect timeout and the 5 s statement timeout
// (the defaults the server runs with here), with room for a loaded machine (1008 ms seen under CI load).
const RECOVERY_BOUND_MS = 1500;

/**
 * A real server on a fresh PostgreSQL schema for the describe block around the call: started
 * before its tests, stopped and dropped after. `url` changes the connection URL (a role, an
 * application_name); `setUp` runs first (to create that role).
 */
function serverForDescribe(
  options: { url?: (url: URL) => void; setUp?: () => Promise<void>; tearDown?: () => Promise<void> } = {},
) {
  const ctx = {} as { db: FreshDatabase; server: ServerProcess };
  before(async () => {
    await options.setUp?.();
    const url = new URL(PG_URL!);
    options.url?.(url);
    ctx.db = freshDatabase('postgres', {
      DATABASE_URL: url.toString(),
      MARGINALIA_API_KEY: creds.apiKey,
      MARGINALIA_AUTH_TOKEN: creds.authToken,
      MARGINALIA_RATE_LIMIT: '0',
    });
    ctx.server = await startServer({ env: ctx.db.env });
  });
  after(async () => {
    if (ctx.server) await stopServer(ctx.server);
    await ctx.db?.drop();
    await options.tearDown?.();
  });
  return ctx;
}

/** Terminates every backend of the server (found by its application_name); returns how many. */
async function terminateBackends(applicationName: string): Promise<number> {
  return withPg(
    async (c) =>
      (await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [applicationName]))
        .rowCount ?? 0,
  );
}

describe("PostgreSQL terminates the server's connections", { skip: NEEDS_POSTGRES }, () => {
  const applicationName = `marginalia-faults-${process.pid}`;
  const ctx = serverForDescribe({ url: (url) => url.searchParams.set('application_name', applicationName) });

  test(
    `every backend terminated ${TERMINATIONS} times under write load: the process survives, answers 200 or` +
      ` 503, loses nothing`,
    async (t) => {
      const { server } = ctx;
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
      t.diagnostic(
        `backends terminated per round: ${killed.join(',')}; answers by status: ${JSON.stringify(statuses)}; ` +
          `recovery ms: ${recoveries.join(',')} (max ${Math.max(...recoveries)})`,
      );
      assert.ok(
        killed.every((n) => n > 0),
        `every round terminated at least one backend: ${killed.join(',')}`,
      );
      assert.equal(server.proc.exitCode, null, `the server exited:\n${server.stderr()}`);
      assert.deepEqual(
        Object.keys(statuses).filter((s) => s !== '200' && s !== '503'),
        [],
        `only 200 and 503: ${JSON.stringify(statuses)}`,
      );
      assert.ok(
        Math.max(...recoveries) <= RECOVERY_BOUND_MS,
        `recovered within ${RECOVERY_BOUND_MS} ms each time: ${recoveries.join(',')}`,
      );

      const stored = await readAllIds(server.url, creds);
      const lost = load.acknowledged().filter((id) => !stored.has(id));
      assert.deepEqual(lost, [], `acknowledged writes lost: ${lost.length} of ${load.acknowledged().length}`);
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200, 'ready again');
    },
  );
});

describe('PostgreSQL refuses writes (read-only, as a standby after a failover)', { skip: NEEDS_POSTGRES }, () => {
  // A role of this test's own, so that making its sessions read-only touches no other test.
  const role = `marginalia_faults_ro_${process.pid}`;
  const ctx = serverForDescribe({
    setUp: async () => {
      await withPg((c) => c.query(`CREATE ROLE ${role} LOGIN SUPERUSER`));
    },
    url: (url) => {
      url.username = role;
      url.searchParams.set('application_name', role);
    },
    tearDown: async () => {
      await withPg((c) => c.query(`DROP ROLE IF EXISTS ${role}`));
    },
  });

  /** New sessions of the role are read-only (or not); the server's sessions are cut so that it reconnects. */
  const readOnly = async (on: boolean) => {
    await withPg((c) =>
      c.query(
        on
          ? `ALTER ROLE ${role} SET default_transaction_read_only = on`
          : `ALTER ROLE ${role} RESET default_transaction_read_only`,
      ),
    );
    await terminateBackends(role);
  };
  const write = (id: string) =>
    post(ctx.server.url, '/v1/notifications/add', creds, {
      organizationId: 'ro',
      notificationId: id,
      actionUser: { userId: 'a' },
      displayHeadlineMessageTemplate: 't',
      notifyUsers: [{ userId: 'u' }],
    });
  const readyz = async () => {
    const r = await fetch(`${ctx.server.url}/readyz`);
    return { status: r.status, body: (await r.json()) as any };
  };
  const readIds = async () =>
    (await post(ctx.server.url, '/v1/notifications/get', creds, { organizationId: 'ro', userId: 'u' })).json.result.data.map(
      (n: any) => n.id,
    );

  test('writes get 503 saying so, /readyz 503, reads go on; once writable again, all is well without a restart', async () => {
    const { server } = ctx;
    assert.equal((await write('before')).status, 200);
    await readOnly(true);
    // A write on a session the cut has not reached yet may still pass, and one on a session it is cutting
    // fails as a lost connection (503 "unavailable"): the next writes reach new, read-only sessions.
    let refused = await write('during');
    for (let i = 0; i < 10 && (refused.status === 200 || !/read-only/.test(refused.json?.error?.message ?? '')); i++)
      refused = await write(`during-${i}`);
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.json.error.status, 'UNAVAILABLE');
    assert.match(refused.json.error.message, /read-only/);
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After');
    const notReady = await readyz();
    assert.equal(notReady.status, 503);
    assert.match(notReady.body.error.message, /read-only/);
    assert.deepEqual(await readIds(), ['before'], 'reads go on');
    assert.match(await (await fetch(`${server.url}/metrics`)).text(), /marginalia_database_fault\{fault="read_only"\} 1/);

    await readOnly(false);
    let ready = await readyz();
    for (let i = 0; i < 10 && ready.status !== 200; i++) ready = await readyz(); // the first check may meet a cut session
    assert.equal(ready.status, 200, JSON.stringify(ready.body));
    assert.equal((await write('after')).status, 200);
    assert.deepEqual((await readIds()).sort(), ['after', 'before']);
    // The server's log lines can reach us after its answers (see the test of a full disk below).
    const faultLog = () => logEntries(server).filter((l) => l.fault === 'read_only');
    await eventually('the log lines of the fault', () => faultLog().length >= 2, { ms: 2_000 }).catch(() => {});
    const log = faultLog();
    assert.deepEqual(
      log.map((l) => l.level),
      [50, 30],
      'told once when it began (error) and once when it ended (info)',
    );
  });
});

// PostgreSQL's own disk-full error (SQLSTATE 53100), raised by PostgreSQL for the server's writes.
// A tablespace on a small tmpfs gives the genuine article, but a tablespace whose disk goes away
// makes the shared PostgreSQL panic at its next checkpoint and refuse to restart, so the test raises
// the same SQLSTATE from a trigger; "freeing space" drops the trigger.
describe('PostgreSQL runs out of disk (SQLSTATE 53100)', { skip: NEEDS_POSTGRES }, () => {
  const ctx = serverForDescribe();
  const diskFull = (on: boolean) =>
    ctx.db.exec(
      on
        ? `CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
       CREATE TRIGGER disk_full BEFORE INSERT OR UPDATE ON notifications FOR EACH ROW EXECUTE FUNCTION disk_full();
       CREATE TRIGGER disk_full BEFORE UPDATE ON readiness_probe FOR EACH ROW EXECUTE FUNCTION disk_full();`
        : 'DROP FUNCTION disk_full() CASCADE',
    );
  const write = (id: string) =>
    post(ctx.server.url, '/v1/notifications/add', creds, {
      organizationId: 'full',
      notificationId: id,
      actionUser: { userId: 'a' },
      displayHeadlineMessageTemplate: 't',
      notifyUsers: [{ userId: 'u' }],
    });

  test('writes get 503 saying storage is full, /readyz 503, reads go on; all is well once space is freed', async () => {
    const { server } = ctx;
    assert.equal((await write('before')).status, 200);
    await diskFull(true);
    const refused = await write('during');
    assert.equal(refused.status, 503, refused.text);
    assert.match(refused.json.error.message, /storage is full/, refused.text);
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After');
    assert.equal((await fetch(`${server.url}/readyz`)).status, 503);
    const read = await post(server.url, '/v1/notifications/get', creds, { organizationId: 'full', userId: 'u' });
    assert.deepEqual(
      read.json.result.data.map((n: any) => n.id),
      ['before'],
      'reads go on',
    );

    await diskFull(false);
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200, 'ready again once space is freed');
    assert.equal((await write('after')).status, 200);
    // The line saying the fault ended can reach the server's log after the write's answer reaches us.
    const faultLog = () => logEntries(server).filter((l) => l.fault === 'storage_full');
    await eventually('the log line saying the fault ended', () => faultLog().length >= 2, { ms: 2_000 }).catch(() => {});
    const log = faultLog();
    assert.deepEqual(
      log.map((l) => l.level),
      [50, 30],
      'told once when it began (error) and once when it ended (info)',
    );
  });
});

describe('comments added concurrently to one thread', { skip: NEEDS_POSTGRES }, () => {
  const ctx = serverForDescribe();

  test('createdAt never goes backwards in creation order', async () => {
    const { server } = ctx;
    const thread = { organizationId: 'o', documentId: 'd', annotationId: 'busy' };
    const first = await post(server.url, '/v1/commentannotations/add', creds, {
      organizationId: 'o',
      documentId: 'd',
      commentAnnotations: [{ annotationId: 'busy', commentData: [{ commentText: 'first', from: { userId: 'u' } }] }],
    });
    assert.equal(first.status, 200, first.text);
    await Promise.all(
      Array.from({ length: 25 }, async (_, w) => {
        for (let i = 0; i < 10; i++) {
          const r = await post(server.url, '/v1/commentannotations/comments/add', creds, {
            ...thread,
            commentData: [{ commentText: `${w}-${i}`, from: { userId: 'u' } }],
          });
          assert.equal(r.status, 200, r.text);
        }
      }),
    );
    const comments = (await post(server.url, '/v1/commentannotations/comments/get', creds, thread)).json.result.data;
    assert.equal(comments.length, 251);
    const backwards = comments.slice(1).filter((c: any, i: number) => c.createdAt < comments[i].createdAt);
    assert.deepEqual(
      backwards.map((c: any) => c.commentId),
      [],
      'comments whose createdAt precedes the one before them',
    );
    for (const c of comments) assert.equal(Date.parse(c.lastUpdated), c.createdAt);
  });
});
