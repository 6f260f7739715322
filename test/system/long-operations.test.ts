// No tenant waits for another (docs/decisions.md, "Long operations"): the long operations, an erasure of
// a user with tens of thousands of rows, documents/delete and organizations/delete of large ones, run
// at the real server process beside another tenant writing steadily over HTTP, and that tenant's writes
// go on while the long operation runs: they are answered between its batches, not after it. And an
// erasure of users found nowhere costs nothing however many organizations the tenant has: it visits
// none. What is asserted is that interleaving, not a time: a bound in milliseconds is a property of the
// machine and its load (a CI runner's slowest write under other work is not this code's), so the
// latencies (p50, p99, max) are only printed, for the closing note of the work.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { type FreshDatabase, freshDatabase, STORE_KINDS, columnNames, rowSeries } from '../helpers/test-database.js';

/**
 * Another tenant's writes answered while a long operation was still running, at least: a long operation
 * that held the writer to its end would let at most one through (the one it found waiting).
 */
const WRITES_DURING = 3;
const COMMENTS = 30_000;
const PER_THREAD = 100;
const NOTIFICATIONS = 15_000;
/** Each notification's recipients: every one an inbox row, with the counters that follow it. */
const RECIPIENTS = 10;
let seeds = 0;

type Creds = { apiKey: string; authToken: string };

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => quantile(s, q).toFixed(1);
  return `${s.length} writes, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${(s[s.length - 1] ?? 0).toFixed(1)} ms`;
};

for (const kind of STORE_KINDS) {
  describe(`long operations beside another tenant's writes (${kind})`, () => {
    let db: FreshDatabase;
    let server: ServerProcess;
    let a: Creds;
    let b: Creds;
    let tenantA: string;
    const series = (n: number) => rowSeries(kind, n);
    const columnsOf = (table: string) => columnNames(db, table);
    const ok = async (creds: Creds, path: string, data: unknown) => {
      const r = await post(server.url, path, creds, data);
      assert.ok(r.status < 300, `${path}: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json;
    };

    /** `threads` threads in the document, `perThread` comments in each by `author`, every other thread with one by `other` too. */
    async function seedThreads(organizationId: string, documentId: string, threads: number, perThread: number, author: string) {
      const at = `'${tenantA}', '${organizationId}', '${documentId}'`;
      await db.exec(`INSERT INTO annotations (tenant_id, organization_id, document_id, annotation_id, status, created_at, last_updated)
        SELECT ${at}, 't' || i, '{"id":"OPEN","name":"Open","type":"default"}', 1000 + i, 1000 + i FROM (${series(threads)}) x`);
      await db.exec(`INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html,
          comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated)
        SELECT ${at}, 't' || (i / ${perThread}), (i % ${perThread}) + 1, (i % ${perThread}) + 1, '<p>x</p>', 'x', '${author}',
          'Heavy Writer', 'heavy@example.com', 'added', 'comment', 1000 + i, 1000 + i FROM (${series(threads * perThread)}) x`);
      await db.exec(`INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html,
          comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated)
        SELECT ${at}, 't' || i, ${perThread + 1}, ${perThread + 1}, '<p>kept</p>', 'kept', 'other', NULL, NULL, 'added',
          'comment', 5000000, 5000000 FROM (${series(threads)}) x WHERE i % 2 = 0`);
    }

    /** One notification written through the API, then copied `n` times (with its inbox rows) under new ids. */
    async function seedNotifications(organizationId: string, n: number) {
      await ok(a, '/v1/notifications/add', {
        organizationId,
        documentId: 'doc',
        notificationId: `seed-${++seeds}`,
        displayHeadlineMessageTemplate: 'Heavy wrote',
        actionUser: { userId: 'heavy', name: 'Heavy Writer', email: 'heavy@example.com' },
        notifyUsers: Array.from({ length: RECIPIENTS }, (_, i) => ({ userId: i === 0 ? 'other' : `reader-${i}` })),
      });
      for (const table of ['notifications', 'inbox']) {
        const columns = await columnsOf(table);
        const values = columns.map((c) =>
          c === 'notification_id' ? `'n${seeds}-' || x.i` : c === 'timestamp' ? `t.timestamp + x.i + 1` : `t.${c}`,
        );
        await db.exec(`INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values.join(', ')}
          FROM ${table} t, (${series(n)}) x WHERE t.tenant_id = '${tenantA}' AND t.notification_id = 'seed-${seeds}'`);
      }
    }

    /**
     * Tenant b's writes, one every 10 ms, timed from the test process, while `operation` runs; `during`
     * counts those answered before the operation was.
     */
    async function beside(operation: () => Promise<unknown>): Promise<{ ms: number; writes: number[]; during: number }> {
      const writes: number[] = [];
      let running = true;
      let during = 0;
      let i = 0;
      const writer = (async () => {
        while (running) {
          const started = performance.now();
          await ok(b, '/v1/users/add', { organizationId: 'b-org', users: [{ userId: `b${i++ % 50}`, name: `B ${i}` }] });
          writes.push(performance.now() - started);
          if (running) during++;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      const started = performance.now();
      try {
        await operation();
      } finally {
        running = false;
        await writer;
      }
      return { ms: performance.now() - started, writes, during };
    }

    before(async () => {
      db = freshDatabase(kind);
      a = createKey(db.env, 'long-operations-a');
      b = createKey(db.env, 'long-operations-b');
      server = await startServer({ env: { ...db.env, MARGINALIA_RATE_LIMIT: '0' } });
      await ok(a, '/v1/users/add', {
        organizationId: 'big',
        users: [{ userId: 'heavy', name: 'Heavy Writer', email: 'heavy@example.com' }, { userId: 'other' }, { userId: 'third' }],
      });
      tenantA = (await db.query(`SELECT tenant_id FROM users WHERE user_id = 'heavy'`))[0]!.tenant_id as string;
      // The user's comments one to a thread, half the threads with another's comment too: the erasure
      // deletes 15,000 threads and renders 15,000 again.
      await seedThreads('big', 'doc', COMMENTS, 1, 'heavy');
      await seedThreads('big', 'doc2', COMMENTS / PER_THREAD, PER_THREAD, 'writer2');
      await seedNotifications('big', NOTIFICATIONS);
      // The rows seeded around the API have no documents row yet: the API's first write under each makes it.
      for (const documentId of ['doc', 'doc2'])
        await ok(a, '/v1/organizations/documents/add', { organizationId: 'big', documents: [{ documentId }] });
      const seeded = await db.query(
        `SELECT (SELECT count(*) FROM comments WHERE from_user_id = 'heavy') AS c,
                (SELECT count(*) FROM notifications WHERE action_user_id = 'heavy') AS n,
                (SELECT count(*) FROM inbox WHERE tenant_id = '${tenantA}') AS i`,
      );
      assert.deepEqual(
        [Number(seeded[0]!.c), Number(seeded[0]!.n), Number(seeded[0]!.i)],
        [COMMENTS, NOTIFICATIONS + 1, RECIPIENTS * (NOTIFICATIONS + 1)],
      );
    });
    after(async () => {
      if (server) await stopServer(server);
      await db?.drop();
    });

    const check = (what: string, run: { ms: number; writes: number[]; during: number }) => {
      const report =
        `${kind}: ${what} took ${(run.ms / 1000).toFixed(2)} s; tenant b meanwhile: ${summary(run.writes)}, ` +
        `${run.during} answered before it`;
      console.log(`# long operation: ${report}`);
      assert.ok(run.during >= WRITES_DURING, report);
    };

    test(`users/data/delete of a user with ${COMMENTS} comments and ${NOTIFICATIONS} notifications acted in`, async () => {
      const run = await beside(() => ok(a, '/v1/users/data/delete', { userIds: ['heavy'] }));
      check('the erasure', run);
      const left = await db.query(
        `SELECT (SELECT count(*) FROM comments WHERE from_user_id = 'heavy') AS c,
                (SELECT count(*) FROM notifications WHERE action_user_id = 'heavy') AS n`,
      );
      assert.deepEqual([Number(left[0]!.c), Number(left[0]!.n)], [0, 0]);
    });

    test(`documents/delete of a document with ${COMMENTS} comments`, async () => {
      const run = await beside(() =>
        ok(a, '/v1/organizations/documents/delete', { organizationId: 'big', documentIds: ['doc2'] }),
      );
      check('the document deletion', run);
      const left = await db.query(`SELECT count(*) AS n FROM comments WHERE document_id = 'doc2'`);
      assert.equal(Number(left[0]!.n), 0);
    });

    test('organizations/delete of the organization with what is left in it', async () => {
      await seedThreads('big', 'doc3', COMMENTS / PER_THREAD, PER_THREAD, 'writer3');
      await seedNotifications('big', NOTIFICATIONS);
      const run = await beside(() => ok(a, '/v1/organizations/delete', { organizationIds: ['big'] }));
      check('the organization deletion', run);
      const left = await db.query(`SELECT count(*) AS n FROM comments WHERE tenant_id = '${tenantA}'`);
      assert.equal(Number(left[0]!.n), 0);
    });

    test('users/data/delete of 1,000 users found nowhere, in a tenant of 2,000 organizations, visits none', async () => {
      const c = createKey(db.env, 'long-operations-c');
      await ok(c, '/v1/organizations/add', { organizations: [{ organizationId: 'seed-org' }] });
      const tenantC = (await db.query(`SELECT tenant_id FROM organizations WHERE organization_id = 'seed-org'`))[0]!.tenant_id;
      await db.exec(`INSERT INTO organizations (tenant_id, organization_id, name, created_at, updated_at)
        SELECT '${tenantC}', 'org-' || i, '', 1000, 1000 FROM (${series(2000)}) x`);
      const userIds = Array.from({ length: 1000 }, (_, i) => `nobody-${i}`);
      const started = performance.now();
      const answer = await ok(c, '/v1/users/data/delete', { userIds });
      const ms = performance.now() - started;
      console.log(
        `# long operation: ${kind}: users/data/delete of 1,000 unknown users in 2,001 organizations: ${ms.toFixed(1)} ms`,
      );
      // One batch of each walk of the tenant's history (events, webhook deliveries, live states, activities, the workflow
      // runs' three tables) and of the users' presence and roles (by user), and nothing per organization.
      const status = await ok(c, '/v1/users/data/delete/status', { jobId: answer.data.jobId });
      assert.equal(status.result.data.isDeleteCompleted, true);
      assert.equal(answer.data.tasksCount, 9);
    });
  });
}
