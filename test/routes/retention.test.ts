// Retention policies (docs/api.md, "Retention"): retention/get, set and run, on the configured database.
// Policies per tenant and per organization, their bounds and refusals, and isolation between tenants; a dry
// run counts what a run then deletes; a run deletes what its policies reach and nothing else (every table
// read before and after), emits the deletions' events, and leaves counts that agree with pages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DAY_MS } from '../../src/domain/retention.js';
import { retainAll, retainTenant } from '../../src/jobs/retention.js';
import { type Caller, expectError, makeTestApp, notificationData, PATHS, T0, type TestApp, user, v2 } from '../helpers/app.js';

/** The test's clock: set `now` to write rows of another age. */
let now = T0;
let t: TestApp;
before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => t.close());

const KEEP = {
  notificationsDays: null,
  notificationsScope: 'read',
  resolvedThreadsDays: null,
  eventsDays: null,
  activitiesDays: null,
};
const RESOLVED = { id: 'RESOLVED', name: 'Resolved', type: 'terminal' };
const OPEN = { id: 'OPEN', name: 'Open', type: 'default' };

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;

describe('retention: policies', () => {
  test("get: nothing set keeps all; set replaces the level; an organization has the tenant's until it sets its own", async () => {
    const c = await t.tenant(uniq('policies'));
    assert.deepEqual((await c.ok(PATHS.retentionGet, {})).data, { organizationId: null, policy: null, inForce: KEEP });
    const tenantPolicy = { ...KEEP, notificationsDays: 30, notificationsScope: 'all', eventsDays: 7 };
    const set = await c.ok(PATHS.retentionSet, { notificationsDays: 30, notificationsScope: 'all', eventsDays: 7 });
    assert.equal(set.message, 'Retention policy set successfully.');
    assert.deepEqual(set.data, { organizationId: null, policy: tenantPolicy, inForce: tenantPolicy });
    // An organization without a policy of its own has the tenant's.
    assert.deepEqual((await c.ok(PATHS.retentionGet, { organizationId: 'o1' })).data, {
      organizationId: 'o1',
      policy: null,
      inForce: tenantPolicy,
    });
    // Its own replaces the tenant's as a whole there (what it leaves out is kept for good).
    const own = { ...KEEP, resolvedThreadsDays: 10 };
    assert.deepEqual((await c.ok(v2(PATHS.retentionSet), { organizationId: 'o1', resolvedThreadsDays: 10 })).data, {
      organizationId: 'o1',
      policy: own,
      inForce: own,
    });
    assert.deepEqual((await c.ok(v2(PATHS.retentionGet), { organizationId: 'o1' })).data.inForce, own);
    assert.deepEqual((await c.ok(PATHS.retentionGet, { organizationId: 'o2' })).data.inForce, tenantPolicy);
    // set replaces what was stored at the level: the tenant's windows not sent again are gone.
    const replaced = await c.ok(PATHS.retentionSet, { resolvedThreadsDays: 365 });
    assert.deepEqual(replaced.data.policy, { ...KEEP, resolvedThreadsDays: 365 });
    // inherit removes the organization's policy.
    const inherited = await c.ok(PATHS.retentionSet, { organizationId: 'o1', inherit: true });
    assert.deepEqual(inherited.data, { organizationId: 'o1', policy: null, inForce: { ...KEEP, resolvedThreadsDays: 365 } });
  });

  test('refusals: 400 INVALID_ARGUMENT with what was wrong, and nothing stored', async () => {
    const c = await t.tenant(uniq('refusals'));
    const refused = async (data: Record<string, unknown>, says: RegExp) => {
      const message = expectError(await c.post(PATHS.retentionSet, data), 400, 'INVALID_ARGUMENT', JSON.stringify(data));
      assert.match(message, says, JSON.stringify(data));
    };
    await refused({ notificationsDays: 0 }, /notificationsDays/);
    await refused({ notificationsDays: 36_501 }, /notificationsDays/);
    await refused({ resolvedThreadsDays: 1.5 }, /resolvedThreadsDays/);
    await refused({ eventsDays: '7' }, /eventsDays/);
    await refused({ notificationsScope: 'unread' }, /notificationsScope/);
    await refused({ organizationId: '' }, /organizationId/);
    await refused({ organizationId: 'o1', eventsDays: 7 }, /eventsDays.*tenant/);
    await refused({ organizationId: 'o1', activitiesDays: 7 }, /activitiesDays.*tenant/);
    await refused({ inherit: true }, /inherit needs organizationId/);
    await refused({ organizationId: 'o1', inherit: true, notificationsDays: 3 }, /without notificationsDays/);
    expectError(await c.post(PATHS.retentionRun, { dryRun: 'yes' }), 400, 'INVALID_ARGUMENT');
    expectError(await c.post(PATHS.retentionGet, { organizationId: 5 }), 400, 'INVALID_ARGUMENT');
    // The bounds themselves are taken.
    await c.ok(PATHS.retentionSet, { notificationsDays: 1, resolvedThreadsDays: 36_500 });
    assert.deepEqual((await c.ok(PATHS.retentionGet, { organizationId: 'o1' })).data.inForce, {
      ...KEEP,
      notificationsDays: 1,
      resolvedThreadsDays: 36_500,
    });
  });

  test('server credentials only; a tenant sees and runs its own policies alone', async () => {
    const r = await t.request(PATHS.retentionGet, { body: { data: {} } });
    assert.equal(r.status, 401);
    const c = await t.tenant(uniq('mine'));
    const d = await t.tenant(uniq('theirs'));
    await c.ok(PATHS.retentionSet, { notificationsDays: 5 });
    assert.deepEqual((await d.ok(PATHS.retentionGet, {})).data.policy, null);
    await d.ok(PATHS.retentionSet, { notificationsDays: 9 });
    assert.equal((await c.ok(PATHS.retentionGet, {})).data.policy.notificationsDays, 5);
  });
});

/** Every row of every table, as JSON text per table. */
async function everyRow(): Promise<Map<string, string[]>> {
  const rows = new Map<string, string[]>();
  for (const table of (await t.db.textColumns()).keys()) {
    if (table.startsWith('sqlite_')) continue;
    rows.set(
      table,
      (await t.db.query(`SELECT * FROM ${table}`)).map((r) =>
        JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
      ),
    );
  }
  return rows;
}

/** Rows of `a` not in `b`, per table (as parsed rows). */
function missing(a: Map<string, string[]>, b: Map<string, string[]>): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  for (const [table, rows] of a) {
    const there = new Set(b.get(table) ?? []);
    const gone = rows.filter((r) => !there.has(r)).map((r) => JSON.parse(r) as Record<string, unknown>);
    if (gone.length > 0) out.set(table, gone);
  }
  return out;
}

/** Tables whose rows are counters or versions moved by triggers and writes: their rows change in place. */
const MOVED = new Set(['inbox_counts', 'wide_counts', 'document_versions', 'event_counters', 'profile_versions', 'tenants']);
/** The search index's tables (migration 44), which the triggers of comments and notifications keep with their rows. */
const SEARCH_INDEX = /^(comment|notification)_search/;
/** Tables a run adds rows to: the events of its deletions and their activities (and, on PostgreSQL, drafts). */
const ADDED = new Set(['events', 'event_drafts', 'activities', ...MOVED]);

async function withData(c: Caller, org: string) {
  await c.ok(PATHS.usersAdd, { organizationId: org, users: [user('r1'), user('r2')] });
  const add = (over: Record<string, unknown>) => c.ok(PATHS.notificationsAdd, notificationData(org, over));
  await add({ notificationId: 'n-read', notifyUsers: [user('r1'), user('r2')] });
  await c.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1', notificationIds: ['n-read'] });
  await c.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r2', notificationIds: ['n-read'] });
  await add({ notificationId: 'n-half', notifyUsers: [user('r1'), user('r2')] });
  await c.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1', notificationIds: ['n-half'] });
  await add({ notificationId: 'n-wide', notifyUsers: [], notifyAll: true });
  await c.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1', notificationIds: ['n-wide'] });
  const thread = (annotationId: string, status: object, documentId = 'doc-1') =>
    c.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId,
      commentAnnotations: [{ annotationId, status, commentData: [{ commentHtml: `<p>${annotationId}</p>`, from: user('r1') }] }],
    });
  await thread('t-resolved', RESOLVED);
  await thread('t-resolved-2', RESOLVED, 'doc-2');
  await thread('t-open', OPEN);
  await c.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'doc-1', userId: 'r2', annotationIds: ['t-resolved'] });
}

describe('retention: runs', () => {
  test('a dry run counts what the run then deletes: exactly what the policies reach, with its events, and nothing else', async () => {
    const c = await t.tenant(uniq('run'));
    const other = await t.tenant(uniq('bystander'));
    await c.ok(PATHS.activityConfigUpdate, { activityServiceConfig: { isEnabled: true } });
    const [o1, o2, o3] = ['o1', 'o2', 'o3'];
    // Old rows: 200 days ago.
    now = T0 - 200 * DAY_MS;
    for (const org of [o1, o2, o3]) await withData(c, org);
    await withData(other, o1);
    // New rows: a day ago, the same kinds, none due.
    now = T0 - DAY_MS;
    await c.ok(PATHS.notificationsAdd, notificationData(o1, { notificationId: 'n-new', notifyUsers: [user('r1')] }));
    await c.ok(PATHS.notificationsRead, { organizationId: o1, userId: 'r1', notificationIds: ['n-new'] });
    await c.ok(PATHS.annotationsAdd, {
      organizationId: o1,
      documentId: 'doc-1',
      commentAnnotations: [
        { annotationId: 't-new', status: RESOLVED, commentData: [{ commentHtml: '<p>new</p>', from: user('r1') }] },
      ],
    });
    now = T0;
    // The tenant: read notifications after 30 days, resolved threads after 90, its logs after 100.
    await c.ok(PATHS.retentionSet, { notificationsDays: 30, resolvedThreadsDays: 90, eventsDays: 100, activitiesDays: 100 });
    // o2: every notification after 30 days, threads kept. o3: nothing.
    await c.ok(PATHS.retentionSet, { organizationId: o2, notificationsDays: 30, notificationsScope: 'all' });
    await c.ok(PATHS.retentionSet, { organizationId: o3 });
    await other.ok(PATHS.retentionSet, {});
    // A page of o1's threads held in memory before the run (services/thread-pages.ts).
    const page = await c.ok(PATHS.annotationsGet, { organizationId: o1, documentId: 'doc-1' });
    assert.ok(page.data.some((a: { annotationId: string }) => a.annotationId === 't-resolved'));

    const cTenant = (await t.db.query(`SELECT id FROM tenants WHERE api_key = '${c.creds.apiKey}'`))[0]!.id as string;
    const oldEvents = Number(
      (
        await t.db.query(`SELECT count(*) AS n FROM events WHERE tenant_id = '${cTenant}' AND created_at < ${T0 - 100 * DAY_MS}`)
      )[0]!.n,
    );
    const oldActivities = Number(
      (
        await t.db.query(
          `SELECT count(*) AS n FROM activities WHERE tenant_id = '${cTenant}' AND created_at < ${T0 - 100 * DAY_MS}`,
        )
      )[0]!.n,
    );
    assert.ok(oldEvents > 10 && oldActivities > 10, `${oldEvents} events, ${oldActivities} activities`);

    const dry = await c.ok(PATHS.retentionRun, { dryRun: true });
    assert.equal(dry.message, 'Retention dry run counted successfully.');
    const expected = { notifications: 1 + 3, resolvedThreads: 2, events: oldEvents, activities: oldActivities };
    assert.deepEqual(dry.data, { dryRun: true, deleted: expected });
    const beforeRun = await everyRow();
    // A dry run deletes nothing.
    assert.deepEqual(missing(beforeRun, await everyRow()), new Map());

    const ran = await c.ok(v2(PATHS.retentionRun), {});
    assert.equal(ran.message, 'Retention applied successfully.');
    assert.deepEqual(ran.data, { dryRun: false, deleted: expected });
    const afterRun = await everyRow();

    // What went: o1's read notification, every one of o2's, o1's two resolved threads with their comments and
    // read marks, the tenant's old events and activities; nothing of o3's, of the new rows or of the other tenant.
    const gone = missing(beforeRun, afterRun);
    const goneNotifications = new Set<string>();
    const goneThreads = new Set<string>();
    for (const [table, rows] of gone) {
      if (MOVED.has(table) || SEARCH_INDEX.test(table)) continue;
      for (const r of rows) {
        assert.equal(r.tenant_id, cTenant, `${table}: only the tenant's rows go: ${JSON.stringify(r)}`);
        if (table === 'events' || table === 'activities') {
          assert.ok(Number(r.created_at) < T0 - 100 * DAY_MS, `${table}: only old rows: ${JSON.stringify(r)}`);
        } else if (['notifications', 'inbox', 'notification_reads'].includes(table)) {
          goneNotifications.add(`${table} ${r.organization_id} ${r.notification_id}`);
        } else if (['annotations', 'comments', 'annotation_reads'].includes(table)) {
          goneThreads.add(`${table} ${r.organization_id} ${r.document_id} ${r.annotation_id}`);
        } else assert.fail(`${table} lost a row: ${JSON.stringify(r)}`);
      }
    }
    assert.deepEqual([...goneNotifications].sort(), [
      'inbox o1 n-read',
      'inbox o2 n-half',
      'inbox o2 n-read',
      'notification_reads o2 n-wide',
      'notifications o1 n-read',
      'notifications o2 n-half',
      'notifications o2 n-read',
      'notifications o2 n-wide',
    ]);
    assert.deepEqual([...goneThreads].sort(), [
      'annotation_reads o1 doc-1 t-resolved',
      'annotations o1 doc-1 t-resolved',
      'annotations o1 doc-2 t-resolved-2',
      'comments o1 doc-1 t-resolved',
      'comments o1 doc-2 t-resolved-2',
    ]);
    // Nothing was added but the deletions' events and activities, and the counters they moved.
    // (The index's shadow tables record a deletion as new segments.)
    for (const [table, rows] of missing(afterRun, beforeRun))
      assert.ok(ADDED.has(table) || SEARCH_INDEX.test(table), `${table} gained rows: ${JSON.stringify(rows).slice(0, 300)}`);

    // The deletions' events: as notifications/delete's and commentannotations/delete's (numbered: PostgreSQL
    // numbers drafts after the commit).
    await t.store.eventsNumbered(cTenant);
    const events = await t.db.query(
      `SELECT type, organization_id, document_id, body FROM events WHERE tenant_id = '${cTenant}'
         AND type IN ('notification.delete', 'comment_annotation.delete') ORDER BY id`,
    );
    const said = events.map((e) => `${e.type} ${e.organization_id} ${e.document_id ?? '-'} ${e.body as string}`).sort();
    assert.equal(said.length, 6, said.join('\n'));
    assert.ok(
      said.some((s) => s.startsWith('comment_annotation.delete o1 doc-1') && s.includes('t-resolved')),
      said.join('\n'),
    );
    assert.ok(
      said.some((s) => s.startsWith('comment_annotation.delete o1 doc-2') && s.includes('t-resolved-2')),
      said.join('\n'),
    );
    for (const [org, id] of [
      [o1, 'n-read'],
      [o2, 'n-read'],
      [o2, 'n-half'],
      [o2, 'n-wide'],
    ])
      assert.ok(
        said.some((s) => s.startsWith(`notification.delete ${org}`) && s.includes(id!)),
        `${org} ${id}: ${said.join('\n')}`,
      );

    // Counts agree with pages, for every recipient of every organization.
    for (const org of [o1, o2, o3]) {
      for (const userId of ['r1', 'r2']) {
        const count = (await c.ok(PATHS.notificationsCount, { organizationId: org, userId })).data;
        const all = (await c.ok(PATHS.notificationsGet, { organizationId: org, userId })).data as unknown[];
        const unread = (await c.ok(PATHS.notificationsGet, { organizationId: org, userId, unread: true })).data as unknown[];
        assert.deepEqual(count, { total: all.length, unread: unread.length }, `${org} ${userId}`);
      }
    }
    assert.deepEqual(
      ((await c.ok(PATHS.notificationsGet, { organizationId: o1, userId: 'r1' })).data as { id: string }[])
        .map((n) => n.id)
        .sort(),
      ['n-half', 'n-new', 'n-wide'],
    );
    // The page held in memory was let go: the thread is not shown any more; the thread counts agree.
    const after = (await c.ok(PATHS.annotationsGet, { organizationId: o1, documentId: 'doc-1' })).data as {
      annotationId: string;
    }[];
    assert.deepEqual(after.map((a) => a.annotationId).sort(), ['t-new', 't-open']);
    const counted = await c.ok(PATHS.annotationsCount, { organizationId: o1, documentIds: ['doc-1', 'doc-2'], userId: 'r2' });
    assert.equal(JSON.stringify(counted.data).includes('"total":2'), true, JSON.stringify(counted.data));

    // Again: nothing is due any more.
    const again = await c.ok(PATHS.retentionRun, { dryRun: true });
    assert.deepEqual(again.data.deleted, { notifications: 0, resolvedThreads: 0, events: 0, activities: 0 });
    // One organization alone: its notifications and threads, never the tenant's logs.
    now = T0 + 400 * DAY_MS;
    const one = await c.ok(PATHS.retentionRun, { organizationId: o1, dryRun: true });
    assert.deepEqual(one.data.deleted, { notifications: 1, resolvedThreads: 1, events: 0, activities: 0 });
    now = T0;
  });

  test("the job applies every tenant's policies; two instances at once delete each row once and emit one event each", async () => {
    const c = await t.tenant(uniq('job'));
    const org = uniq('org');
    now = T0 - 100 * DAY_MS;
    await c.ok(PATHS.usersAdd, { organizationId: org, users: [user('r1')] });
    const ids = Array.from({ length: 40 }, (_, i) => `old-${String(i).padStart(2, '0')}`);
    for (const notificationId of ids)
      await c.ok(PATHS.notificationsAdd, notificationData(org, { notificationId, notifyUsers: [user('r1')] }));
    now = T0;
    await c.ok(PATHS.retentionSet, { notificationsDays: 30, notificationsScope: 'all' });
    const tenant = (await t.db.query(`SELECT id FROM tenants WHERE api_key = '${c.creds.apiKey}'`))[0]!.id as string;
    // Another instance, its own store (connection), racing this one over the same rows in batches of 3.
    const other = await t.db.open();
    try {
      const run = (store: typeof t.store) => retainTenant(store, tenant, org, { dryRun: false, batchSize: 3, now: () => T0 });
      const [mine, theirs] = await Promise.all([run(t.store), run(other)]);
      assert.equal(mine.notifications + theirs.notifications, ids.length, `${mine.notifications} + ${theirs.notifications}`);
      await t.store.eventsNumbered(tenant);
      await other.eventsNumbered(tenant);
    } finally {
      await other.close();
    }
    const deletions = await t.db.query(
      `SELECT body FROM events WHERE tenant_id = '${tenant}' AND type = 'notification.delete' ORDER BY id`,
    );
    assert.deepEqual(deletions.map((e) => /old-\d\d/.exec(e.body as string)![0]).sort(), ids);
    assert.deepEqual((await c.ok(PATHS.notificationsCount, { organizationId: org, userId: 'r1' })).data, { total: 0, unread: 0 });

    // The job's round: every tenant with a policy (this one's new rows are not due).
    now = T0 - 100 * DAY_MS;
    await c.ok(PATHS.notificationsAdd, notificationData(org, { notificationId: 'later', notifyUsers: [user('r1')] }));
    // And a resolved thread of a document without an organization: the tenant's policy applies there too.
    await c.ok(PATHS.retentionSet, { notificationsDays: 30, notificationsScope: 'all', resolvedThreadsDays: 30 });
    await c.ok(PATHS.annotationsAdd, {
      documentId: 'loose',
      commentAnnotations: [
        { annotationId: 'no-org', status: RESOLVED, commentData: [{ commentHtml: '<p>x</p>', from: user('r1') }] },
      ],
    });
    now = T0;
    assert.equal((await retainAll(t.store, 1000, () => T0)) >= 2, true);
    assert.deepEqual((await c.ok(PATHS.notificationsCount, { organizationId: org, userId: 'r1' })).data, { total: 0, unread: 0 });
    assert.deepEqual(await t.db.query(`SELECT annotation_id FROM annotations WHERE tenant_id = '${tenant}'`), []);
  });
});
