// Retention beside another tenant's writes (docs/operations.md, "Retention"): the real server's retention job
// applies a tenant's policy to a backlog of old notifications (with their inbox rows) and resolved threads (with their
// comments), in batches, while another tenant writes steadily over HTTP. Asserted: everything due goes, the
// other tenant's slowest write stays under a second, and its writes go on during the run. Printed: that
// slowest write and retention's rate, for the closing note of the work.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cli, createKey, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { type FreshDatabase, freshDatabase, STORE_KINDS, columnNames, rowSeries } from '../helpers/test-database.js';

const NOTIFICATIONS = 6_000;
/** Each notification's recipients: an inbox row each, and the counters that follow them. */
const RECIPIENTS = 4;
const THREADS = 1_500;
const DAY_MS = 86_400_000;
const OLD = Date.now() - 400 * DAY_MS;

type Creds = { apiKey: string; authToken: string };

for (const kind of STORE_KINDS) {
  describe(`retention beside another tenant's writes (${kind})`, () => {
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
    const count = async (sql: string) => Number((await db.query(sql))[0]!.n);

    before(async () => {
      db = freshDatabase(kind);
      a = createKey(db.env, 'retention-a');
      b = createKey(db.env, 'retention-b');
      // The job off while the backlog is made and counted; the test starts the server again with it on.
      server = await startServer({ env: { ...db.env, MARGINALIA_RATE_LIMIT: '0', MARGINALIA_RETENTION_INTERVAL_SECONDS: '0' } });
      // One notification through the API, read by everyone, copied (with its inbox rows) under new ids, 400 days old.
      await ok(a, '/v1/notifications/add', {
        organizationId: 'big',
        documentId: 'doc',
        notificationId: 'seed',
        displayHeadlineMessageTemplate: 'Old news',
        actionUser: { userId: 'actor' },
        notifyUsers: Array.from({ length: RECIPIENTS }, (_, i) => ({ userId: `reader-${i}` })),
      });
      for (let i = 0; i < RECIPIENTS; i++)
        await ok(a, '/v1/notifications/read', { organizationId: 'big', userId: `reader-${i}`, notificationIds: ['seed'] });
      tenantA = (await db.query(`SELECT tenant_id FROM notifications WHERE notification_id = 'seed'`))[0]!.tenant_id as string;
      for (const table of ['notifications', 'inbox']) {
        const columns = await columnsOf(table);
        const values = columns.map((c) =>
          c === 'notification_id' ? `'n-' || x.i` : c === 'timestamp' ? `${OLD} + x.i` : `t.${c}`,
        );
        await db.exec(`INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values.join(', ')}
          FROM ${table} t, (${series(NOTIFICATIONS)}) x WHERE t.tenant_id = '${tenantA}' AND t.notification_id = 'seed'`);
      }
      // Resolved threads of one comment each, last changed 400 days ago.
      const at = `'${tenantA}', 'big', 'doc'`;
      await db.exec(`INSERT INTO annotations (tenant_id, organization_id, document_id, annotation_id, status, created_at, last_updated)
        SELECT ${at}, 't' || i, '{"id":"RESOLVED","name":"Resolved","type":"terminal"}', ${OLD} + i, ${OLD} + i
        FROM (${series(THREADS)}) x`);
      await db.exec(`INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html,
          comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated)
        SELECT ${at}, 't' || i, 1, 1, '<p>x</p>', 'x', 'actor', NULL, NULL, 'added', 'comment', ${OLD} + i, ${OLD} + i
        FROM (${series(THREADS)}) x`);
      // Rows written around the API: PostgreSQL's planner learns of them now, as autovacuum would have by the time
      // a real backlog is this old.
      if (kind === 'postgres') await db.exec('ANALYZE');
      await ok(a, '/v1/retention/set', { notificationsDays: 30, notificationsScope: 'read', resolvedThreadsDays: 30 });
    });
    after(async () => {
      if (server) await stopServer(server);
      await db?.drop();
    });

    test('the job deletes the backlog in batches while the other tenant writes; its slowest write stays under a second', async () => {
      const dry = (await ok(a, '/v1/retention/run', { dryRun: true })).result.data.deleted;
      assert.deepEqual(dry, { notifications: NOTIFICATIONS, resolvedThreads: THREADS, events: 0, activities: 0 });
      const inboxRows = await count(`SELECT count(*) AS n FROM inbox WHERE tenant_id = '${tenantA}'`);
      const left = async () =>
        (await count(`SELECT count(*) AS n FROM notifications WHERE tenant_id = '${tenantA}'`)) -
        1 +
        (await count(`SELECT count(*) AS n FROM annotations WHERE tenant_id = '${tenantA}'`));
      await stopServer(server);
      // Its first round runs at start (timed from the start: the job may begin before the server listens).
      const started = performance.now();
      server = await startServer({
        env: { ...db.env, MARGINALIA_RATE_LIMIT: '0', MARGINALIA_RETENTION_INTERVAL_SECONDS: '3600' },
      });

      const writes: number[] = [];
      let running = true;
      let during = 0;
      let i = 0;
      const writer = (async () => {
        while (running) {
          const at = performance.now();
          await ok(b, '/v1/notifications/add', {
            organizationId: 'b-org',
            documentId: 'b-doc',
            notificationId: `b-${i++}`,
            displayHeadlineMessageTemplate: 'B writes',
            actionUser: { userId: 'b-actor' },
            notifyUsers: [{ userId: 'b-reader' }],
          });
          writes.push(performance.now() - at);
          if (running) during++;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      try {
        while ((await left()) > 0) {
          assert.ok(performance.now() - started < 60_000, `retention still had ${await left()} rows to delete after a minute`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        running = false;
        await writer;
      }
      const seconds = (performance.now() - started) / 1000;
      const slowest = Math.max(...writes);
      const items = NOTIFICATIONS + THREADS;
      const rows = items + inboxRows + THREADS; // notifications, threads, their inbox rows and comments
      console.log(
        `# retention (${kind}): ${items} notifications and threads (${rows} rows with inbox rows and comments) in ` +
          `${seconds.toFixed(2)} s: ${Math.round(items / seconds)} items/s, ${Math.round(rows / seconds)} rows/s; ` +
          `the other tenant's ${writes.length} writes meanwhile, slowest ${slowest.toFixed(1)} ms`,
      );
      assert.ok(during >= 3, `the other tenant's writes went on during the run (${during} answered before it ended)`);
      // The job's deletions emitted their events, one per notification and thread.
      const deletions = await count(
        `SELECT count(*) AS n FROM events WHERE tenant_id = '${tenantA}' AND type IN ('notification.delete', 'comment_annotation.delete')`,
      );
      const drafted =
        kind === 'postgres' ? await count(`SELECT count(*) AS n FROM event_drafts WHERE tenant_id = '${tenantA}'`) : 0;
      assert.equal(deletions + drafted, NOTIFICATIONS + THREADS);
      assert.ok(slowest < 1000, `the other tenant's slowest write took ${slowest.toFixed(1)} ms`);

      // Everything due went, with the counters the triggers keep; the other tenant's rows are all there.
      assert.equal(await count(`SELECT count(*) AS n FROM notifications WHERE tenant_id = '${tenantA}'`), 1);
      assert.equal(await count(`SELECT count(*) AS n FROM inbox WHERE tenant_id = '${tenantA}'`), RECIPIENTS);
      assert.equal(await count(`SELECT count(*) AS n FROM annotations WHERE tenant_id = '${tenantA}'`), 0);
      assert.equal(await count(`SELECT count(*) AS n FROM comments WHERE tenant_id = '${tenantA}'`), 0);
      const counted = (await ok(a, '/v1/notifications/count/get', { organizationId: 'big', userId: 'reader-0' })).result.data;
      assert.deepEqual(counted, { total: 1, unread: 0 });
      const bCount = (await ok(b, '/v1/notifications/count/get', { organizationId: 'b-org', userId: 'b-reader' })).result.data;
      assert.deepEqual(bCount, { total: writes.length, unread: writes.length });
    });

    test('the CLI: retention alone prints its help; get, set and run --dry-run speak JSON; bad windows exit 2', () => {
      const help = cli(['retention'], db.env);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /^Usage: marginalia retention <get\|set\|run>/);
      const set = cli(['retention', 'set', '--org', 'big', '--notifications-days', '5', '--tenant', a.apiKey], db.env);
      assert.equal(set.code, 0, set.stderr);
      assert.equal(JSON.parse(set.stdout).policy.notificationsDays, 5);
      const got = cli(['retention', 'get', '--org', 'big', '--tenant', a.apiKey], db.env);
      assert.deepEqual(JSON.parse(got.stdout).inForce, JSON.parse(set.stdout).inForce);
      const dry = cli(['retention', 'run', '--dry-run', '--tenant', a.apiKey], db.env);
      assert.equal(dry.code, 0, dry.stderr);
      assert.deepEqual(JSON.parse(dry.stdout), {
        dryRun: true,
        deleted: { notifications: 0, resolvedThreads: 0, events: 0, activities: 0 },
      });
      // Refused by the option's check, and by the service (a tenant's window with --org).
      for (const bad of [
        ['--notifications-days', '36501'],
        ['--org', 'big', '--events-days', '3'],
      ]) {
        const r = cli(['retention', 'set', ...bad, '--tenant', a.apiKey], db.env);
        assert.equal(r.code, 2, `${bad.join(' ')}: ${r.stderr}`);
        assert.ok(r.stderr.length > 0);
      }
    });
  });
}
