// Activities in the store (docs/decisions.md, "Activities"), on the configured database: a write's events
// become activities in the write's own transaction (an activity that cannot be written fails the write, and a
// write that fails leaves no activity), only while the tenant keeps them, and retention deletes each tenant's
// activities past its own days, a batch at a time.
import { describe } from 'node:test';
import { pruneActivities } from '../../src/events/activity-pruner.js';
import type { ActivitySettings } from '../../src/domain/activities.js';
import type { Store } from '../../src/store/store.js';
import { type FreshDatabase, TEST_STORE } from '../helpers/test-database.js';
import { eq, notification, ORG, storeTest, T0, TA, TB } from '../helpers/store-fixtures.js';

const DAY = 86_400_000;

const settings = (over: Partial<ActivitySettings>): ActivitySettings => ({
  isEnabled: true,
  immutable: false,
  enabledTime: T0,
  retentionDays: null,
  triggers: null,
  ...over,
});
const configure = (store: Store, tenant: string, over: Partial<ActivitySettings> = {}) =>
  store.updateActivitySettings(tenant, () => settings(over), T0);

const activityTypes = async (db: FreshDatabase, tenant: string) =>
  (await db.query(`SELECT action_type FROM activities WHERE tenant_id = '${tenant}' ORDER BY created_at, activity_id`)).map(
    (r) => r.action_type,
  );
const count = async (db: FreshDatabase, sql: string) => Number((await db.query(sql))[0]!.n);

/** A trigger that refuses every insert into `table`. */
const refuseInserts = (db: FreshDatabase, table: string) =>
  db.exec(
    TEST_STORE === 'postgres'
      ? `CREATE FUNCTION refuse_insert() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql;
         CREATE TRIGGER refuse_insert BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_insert();`
      : `CREATE TRIGGER refuse_insert BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'refused'); END;`,
  );

/** Whether `write` fails (on SQLite a store call throws at once; on PostgreSQL its promise rejects). */
const rejects = async (write: () => unknown, what: string) => {
  let failed = false;
  try {
    await write();
  } catch {
    failed = true;
  }
  eq(failed, true, what);
};

describe(`${TEST_STORE} store: activities`, () => {
  storeTest(
    "a write's events are its activities, in its transaction; kept only while the tenant keeps them",
    async (store, db) => {
      await store.addNotification(TA, ORG, notification('n0'));
      eq(await activityTypes(db, TA), [], 'never enabled: none kept');
      await configure(store, TA);
      await store.addNotification(TA, ORG, notification('n1'));
      eq(await activityTypes(db, TA), ['notification.add'], 'enabled: one per event');
      eq(await activityTypes(db, TB), [], "another tenant's settings are its own");
      await configure(store, TA, { triggers: { custom: { 'notification.add': false } } });
      await store.addNotification(TA, ORG, notification('n2'));
      eq(await activityTypes(db, TA), ['notification.add'], 'a trigger set false: not kept');
      await configure(store, TA, { isEnabled: false });
      await store.addNotification(TA, ORG, notification('n3'));
      eq(await activityTypes(db, TA), ['notification.add'], 'disabled: not kept');
    },
  );

  storeTest('an activity that cannot be written fails its write: no notification, no event', async (store, db) => {
    await configure(store, TA);
    await refuseInserts(db, 'activities');
    await rejects(() => store.addNotification(TA, ORG, notification('n1')), 'the write fails');
    const events = TEST_STORE === 'postgres' ? 'event_drafts' : 'events';
    eq(await count(db, `SELECT count(*) AS n FROM notifications WHERE tenant_id = '${TA}'`), 0, 'no notification');
    eq(await count(db, `SELECT count(*) AS n FROM ${events} WHERE tenant_id = '${TA}'`), 0, 'no event');
  });

  storeTest('a write that fails leaves no activity', async (store, db) => {
    await configure(store, TA);
    await refuseInserts(db, TEST_STORE === 'postgres' ? 'event_drafts' : 'events');
    await rejects(() => store.addNotification(TA, ORG, notification('n1')), 'the write fails');
    eq(await activityTypes(db, TA), [], 'no activity');
    eq(await count(db, `SELECT count(*) AS n FROM notifications WHERE tenant_id = '${TA}'`), 0, 'no notification');
  });

  storeTest("retention: each tenant's activities past its days go, a batch at a time, the rest stay", async (store, db) => {
    const now = T0 + 400 * DAY;
    for (const [id, apiKey] of [
      [TA, 'key-a'],
      [TB, 'key-b'],
    ] as const)
      await store.createTenant({ id, apiKey, name: id, createdAt: T0 }, { hash: `hash-${id}`, prefix: 'prefix', createdAt: T0 });
    await configure(store, TA, { retentionDays: 30 });
    await configure(store, TB);
    const add = (tenant: string, id: string, daysAgo: number) =>
      store.addActivities(
        tenant,
        [
          {
            organizationId: ORG,
            activityId: id,
            documentId: 'doc-1',
            featureType: 'custom',
            actionType: 'x',
            actorId: 'u1',
            targetEntityId: 'e',
            body: '{"actionUser":{"userId":"u1"}}',
          },
        ],
        now - daysAgo * DAY,
      );
    for (const [id, days] of [
      ['a-old1', 31],
      ['a-old2', 40],
      ['a-old3', 200],
      ['a-new', 29],
    ] as const)
      await add(TA, id, days);
    for (const [id, days] of [
      ['b-mid', 60],
      ['b-old', 91],
    ] as const)
      await add(TB, id, days);
    const left = async () =>
      (await db.query('SELECT activity_id FROM activities ORDER BY activity_id')).map((r) => r.activity_id as string);
    eq(await pruneActivities(store, now, 90, 2), 4, 'three of A (30 days), one of B (the default 90)');
    eq(await left(), ['a-new', 'b-mid'], 'what is left');
    eq(await pruneActivities(store, now, 90, 2), 0, 'nothing more');
  });
});
