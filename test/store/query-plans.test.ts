// Every statement of both stores is served by an index: no full scan of a table, and the read paths
// walk their index in the order they return (no sort). This is what keeps reads on a million rows as
// fast as on ten thousand. PostgreSQL runs with sequential scans disabled, so a missing index shows
// as a Seq Scan however small the test tables are.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { compile } from '../../src/store/dialect/postgres.js';
import { ACTIVITIES_SQL, activityRead } from '../../src/store/activities/sql.js';
import { COMMENTS_SQL } from '../../src/store/comments/sql.js';
import { UNRENDERED_THREADS } from '../../src/store/comments/backfill.js';
import { SEARCH_SHAPES, threadSearch } from '../../src/store/comments/search-sql.js';
import { addSqlFunctions } from '../../src/store/dialect/sqlite-functions.js';
import { THREAD_FILTER_SETS, THREADS_SQL, threadPageRead } from '../../src/store/comments/threads-sql.js';
import { CREDENTIALS_SQL } from '../../src/store/credentials/sql.js';
import { DOMAINS_SQL } from '../../src/store/domains/sql.js';
import { LIVE_STATES_SQL } from '../../src/store/livestate/sql.js';
import { NOTIFICATION_FILTER_SETS, NOTIFICATIONS_SQL, notificationRead } from '../../src/store/notifications/sql.js';
import type { Statement } from '../../src/store/sql.js';
import { MEMBERS_SQL } from '../../src/store/users/members-sql.js';
import { USERS_SQL } from '../../src/store/users/sql.js';
import { WORKSPACE_SQL } from '../../src/store/workspace/sql.js';
import { WORKFLOWS_SQL } from '../../src/store/workflows/sql.js';
import { WEBHOOKS_SQL } from '../../src/store/webhooks/sql.js';
import { MIGRATIONS_SQL } from '../../src/store/document-migrations/sql.js';
import { RETENTION_SQL } from '../../src/store/retention/sql.js';
import { PERSONAL_DATA_SQL } from '../../src/store/personal-data/sql.js';
import { freshDatabase, TEST_STORE, withPg } from '../helpers/test-database.js';

/** activities/get's reads: by organization, document, entity, user, ids, each way and after a cursor. */
const NONE = { document: false, target: false, featureTypes: false, actionTypes: false, user: false, ids: false };
const ACTIVITY_FILTER_SETS = [
  NONE,
  { ...NONE, document: true },
  { ...NONE, document: true, featureTypes: true },
  { ...NONE, target: true },
  { ...NONE, document: true, target: true },
  { ...NONE, user: true },
  { ...NONE, ids: true },
  { ...NONE, actionTypes: true },
].flatMap((f) => [false, true].flatMap((ascending) => [false, true].map((after) => ({ ...f, ascending, after }))));

/** Every statement of the store, with the notification and thread page reads of every filter set. */
const ALL_STATEMENTS: readonly Statement[] = [
  ...Object.values(CREDENTIALS_SQL),
  ...Object.values(DOMAINS_SQL),
  ...Object.values(USERS_SQL),
  ...Object.values(MEMBERS_SQL),
  ...Object.values(COMMENTS_SQL),
  ...Object.values(THREADS_SQL),
  UNRENDERED_THREADS,
  ...Object.values(NOTIFICATIONS_SQL),
  ...Object.values(LIVE_STATES_SQL),
  ...Object.values(WORKSPACE_SQL),
  ...Object.values(WORKFLOWS_SQL),
  // The bounded walks of docs/decisions.md, "Bounded work": recover's batches, the count of a tenant's open migrations.
  WEBHOOKS_SQL.recoverNext,
  WEBHOOKS_SQL.recoverRange,
  MIGRATIONS_SQL.lockTenant,
  MIGRATIONS_SQL.openOfTenant,
  // The admin console's listing of a tenant's erasure jobs, newest first along the key.
  PERSONAL_DATA_SQL.latestJobs,
  PERSONAL_DATA_SQL.jobsBefore,
  ...NOTIFICATION_FILTER_SETS.map((f) => notificationRead(f, 11)),
  ...THREAD_FILTER_SETS.map((f) => threadPageRead({ f, limit: 21 })),
  ...SEARCH_SHAPES.map((shape) => threadSearch(shape)),
  ...Object.values(ACTIVITIES_SQL),
  ...ACTIVITY_FILTER_SETS.map((f) => activityRead(f)),
  // Retention's batches and dry runs (docs/decisions.md, "Retention (issue 40)"), each scope's.
  ...Object.values(RETENTION_SQL).flatMap((s) => ('sqlite' in s ? [s] : Object.values(s))),
];

/** Operator statements that read whole tables by design (`keys list`, first start), and the first-start lock. */
const WHOLE_TABLE = new Set([
  'countTenants',
  'allTenants',
  'allTokens',
  'firstTenantLock',
  'activityRetentions',
  // The retention job's round: the tenants with a policy.
  'retentionTenants',
]);
/** Statements planned though they are not SELECT, UPDATE or DELETE: a WITH, an INSERT that reads. */
const planned = (name: string, text: string) =>
  /^\s*(SELECT|UPDATE|DELETE|WITH)/i.test(text) || ['markAnnotationsRead', 'markWideRead', 'readWide'].includes(name);
/** Statements that only write rows by key, or read the one-row version table. */
const READ_PATHS = new Set([
  'notificationsByUser',
  'notificationsByDocument',
  'notificationsByUserAscending',
  'notificationsByDocumentAscending',
  'comments',
  'annotations',
  'liveStates',
  'documentMembersPage',
  'threadSearchDocument',
  'threadSearchDocumentAscending',
  'threadSearchOrganization',
  'threadSearchOrganizationAscending',
  'workflowDefinitionsPage',
  'workflowExecutionsPage',
  'workflowEvents',
  'nextWebhookDeliveriesToRecover',
  // Retention's batches take the oldest due rows in the order of their index (no sort of the backlog).
  'dueNotifications_read',
  'dueNotifications_all',
  'dueThreads',
  // The admin console's pages of erasure jobs: newest first along the key.
  'latestErasureJobs',
  'erasureJobsBefore',
]);

describe('query plans', () => {
  // Each run checks the plans of its own database.
  const onSqlite = TEST_STORE === 'sqlite' ? test : () => {};
  const onPostgres = TEST_STORE === 'postgres' ? test : () => {};

  onSqlite('SQLite: no statement scans a table, and the read paths never sort', async () => {
    const db = freshDatabase('sqlite');
    const store = await db.open();
    await store.close();
    const sqlite = new Database(db.env.DATABASE_URL!.slice('sqlite:'.length), { readonly: true });
    // The triggers of the statements' tables call search_terms (migration 48).
    addSqlFunctions(sqlite);
    try {
      const problems: string[] = [];
      for (const { name, text: sql } of ALL_STATEMENTS.map((s) => s.sqlite)) {
        if (WHOLE_TABLE.has(name) || !planned(name, sql)) continue;
        const named = [...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!);
        const params =
          named.length > 0
            ? Object.fromEntries(named.map((p) => [p, '1']))
            : Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => '1');
        const plan = (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail);
        for (const step of plan) {
          // json_each (a virtual table, under any alias) walks a list parameter; CONSTANT ROW and q are
          // credentialsByKey's one-row parameter table.
          // A page by user reads the merge of its two walks in order (page, a co-routine), no table; so does
          // the count of a document's live states up to the bound (held).
          if (/^SCAN (?!\w+ VIRTUAL TABLE|CONSTANT ROW$|q$|page$|held$)/.test(step)) problems.push(`${name}: ${step}`);
          if ((READ_PATHS.has(name) || /^(notifications|annotations)[ +]/.test(name)) && /TEMP B-TREE/.test(step))
            problems.push(`${name}: ${step}`);
          // A page of notifications is one range scan of rows that carry the answer (migration 6): the
          // inbox's own key, or the covering document index, never an index then a descent per row.
          // The unread walk is the exception: its index holds unread rows only, and copying each answer
          // into it too would double every notifications/add; it descends once per row of the page.
          if (
            name.startsWith('notifications ') &&
            /^SEARCH n /.test(step) &&
            !/USING (PRIMARY KEY|COVERING INDEX)|USING INDEX inbox_unread/.test(step)
          )
            problems.push(`${name}: ${step}`);
          // By user, the unread walk takes the index of unread rows, the organization-wide one the
          // partial index of organization-wide notifications (migration 12); read marks are found
          // through the index of read inbox rows and notification_reads' key; a count reads counters.
          if (/^notifications inbox.*\+unread /.test(name) && /^SEARCH n USING PRIMARY KEY/.test(step))
            problems.push(`${name}: ${step}`);
          if (
            /^notifications inbox/.test(name) &&
            /^SEARCH n USING/.test(step) &&
            /organization_id=\? AND \(timestamp/.test(step)
          ) {
            if (!/notifications_wide/.test(step)) problems.push(`${name}: ${step}`);
          }
          if (/^notifications /.test(name) && /^SEARCH i USING/.test(step) && !/inbox_readers|inbox_by_notification/.test(step))
            problems.push(`${name}: ${step}`);
          if (['countNotifications', 'readListed', 'readWide'].includes(name) && /^SEARCH (c|inbox|n) /.test(step)) {
            if (!/PRIMARY KEY \(.*document_id=\?\)|inbox_unread|notifications_wide/.test(step)) problems.push(`${name}: ${step}`);
          }
          // A page of threads walks annotations_by_time in its order (READ_PATHS: no sort) and reads
          // each thread's stored answer, no comment (migration 9).
          // Threads asked by id are found by their key, whatever the size of the document.
          const byTime = /^annotations[ +]/.test(name) && !name.includes('+annotationIds');
          if (byTime && /^SEARCH a /.test(step) && !/USING INDEX annotations_by_time/.test(step))
            problems.push(`${name}: ${step}`);
          if (name.includes('+annotationIds') && /^SEARCH a /.test(step) && !/annotation_id=\?/.test(step))
            problems.push(`${name}: ${step}`);
          // Counts probe the listed documents in the index that holds what they compare (migration 10),
          // never the organization's threads, and never a thread's row.
          if (
            name === 'countAnnotations' &&
            /^SEARCH a /.test(step) &&
            !/COVERING INDEX annotations_counted .*document_id=\?/.test(step)
          )
            problems.push(`${name}: ${step}`);
        }
      }
      assert.deepEqual(problems, []);
    } finally {
      sqlite.close();
      await db.drop();
    }
  });

  onPostgres('PostgreSQL: no statement needs a sequential scan, and the read paths never sort', async () => {
    const db = freshDatabase('postgres');
    const store = await db.open();
    await store.close();
    try {
      const problems = await withPg(async (c) => {
        await c.query(`SET search_path = ${db.env.MARGINALIA_PG_SCHEMA}`);
        await c.query('SET enable_seqscan = off');
        const found: string[] = [];
        const statements = new Map(ALL_STATEMENTS.map((s) => [s.postgres.name, compile(s.postgres).text]));
        for (const [name, sql] of statements) {
          if (WHOLE_TABLE.has(name) || !planned(name, sql)) continue;
          const count = Math.max(0, ...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
          const values = Array.from({ length: count }, (_, i) => (new RegExp(`\\$${i + 1}::\\w+\\[\\]`).test(sql) ? ['1'] : '1'));
          const [
            {
              'QUERY PLAN': [plan],
            },
          ] = (await c.query(`EXPLAIN (FORMAT JSON) ${sql}`, values)).rows;
          for (const node of walk(plan.Plan)) {
            if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] !== 'credentials_version') {
              found.push(`${name}: Seq Scan on ${node['Relation Name']}`);
            }
            if (READ_PATHS.has(name) && node['Node Type'] === 'Sort') found.push(`${name}: Sort`);
            // Counts read the index that holds what they compare (migration 10), never a thread's row.
            if (
              name === 'countAnnotations' &&
              node['Relation Name'] === 'annotations' &&
              !(node['Node Type'] === 'Index Only Scan' && node['Index Name'] === 'annotations_counted')
            )
              found.push(`${name}: ${node['Node Type']} on annotations using ${node['Index Name']}`);
          }
        }
        return found;
      });
      assert.deepEqual(problems, []);
    } finally {
      await db.drop();
    }
  });
});

function* walk(node: any): Generator<any> {
  yield node;
  for (const child of node.Plans ?? []) yield* walk(child);
}
