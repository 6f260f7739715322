// The event outbox in the store (SPEC 13), on the configured database: a write's events are recorded
// with it, with ids that increase by one per tenant (concurrent writers included) and are separate per
// tenant; a write that changes nothing records nothing; reads page by id; pruning deletes what is older
// than a time, a batch at a time; and streamAccess answers SPEC 13's access rules.
import { describe } from 'node:test';
import pg from 'pg';
import { pruneEvents, startPruner } from '../../src/events/pruner.js';
import { DRAFT_GRACE_MS, startDraftSweep } from '../../src/events/sweep.js';
import type { Store } from '../../src/store/store.js';
import { type FreshDatabase, TEST_STORE } from '../helpers/test-database.js';
import { eq, notification, ORG, show, storeTest, T0, TA, TB } from '../helpers/store-fixtures.js';

const ids = async (store: Store, tenant: string, after = 0, limit = 1000) =>
  (await store.eventsAfter(tenant, after, limit)).map((e) => e.id);

describe(`${TEST_STORE} store: the event outbox`, () => {
  storeTest('each tenant has its own ids, from 1, one per event; lastEventId follows', async (store) => {
    for (const id of ['a1', 'a2', 'a3']) await store.addNotification(TA, ORG, notification(id));
    for (const id of ['b1', 'b2']) await store.addNotification(TB, ORG, notification(id));
    eq(await ids(store, TA), [1, 2, 3], 'tenant A');
    eq(await ids(store, TB), [1, 2], 'tenant B');
    eq(await store.lastEventId(TA), 3, 'last id of A');
    eq(await store.lastEventId('nobody'), 0, 'a tenant with no events');
    eq(await ids(store, TA, 1, 1), [2], 'after 1, one at most');
  });

  storeTest(
    'an event is {id, type, timestamp, organizationId, documentId, data}, with the audience kept beside it',
    async (store) => {
      await store.addNotification(TA, ORG, notification('n1', { recipients: ['u1', 'u2'] }));
      const [e] = await store.eventsAfter(TA, 0, 10);
      const body = JSON.parse(e!.body);
      eq(Object.keys(body), ['id', 'type', 'timestamp', 'organizationId', 'documentId', 'data'], 'members in order');
      eq(
        [body.id, body.type, body.timestamp, body.organizationId, body.documentId],
        [1, 'notification.add', T0, ORG, 'doc-1'],
        'head',
      );
      eq(body.data.id, 'n1', 'data is the notification');
      eq(body.data.metadata, { organizationId: ORG, documentId: 'doc-1' }, 'metadata without an API key');
      eq([e!.type, e!.organizationId, e!.documentId], ['notification.add', ORG, 'doc-1'], 'columns');
      eq(e!.audience, { users: ['u1', 'u2'], wide: false }, 'audience');
    },
  );

  storeTest('a write that changes nothing records nothing', async (store) => {
    eq(await store.addNotification(TA, ORG, notification('same')), true, 'first');
    eq(await store.addNotification(TA, ORG, notification('same')), false, 'again: it exists');
    eq(await ids(store, TA), [1], 'one event');
  });

  storeTest('concurrent writers of one tenant get every id once, with no gap', async (store) => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.addNotification(TA, ORG, notification(`c${i}`))));
    eq(
      await ids(store, TA),
      Array.from({ length: 40 }, (_, i) => i + 1),
      'ids 1..40',
    );
    const named = (await store.eventsAfter(TA, 0, 100)).map((e) => JSON.parse(e.body).data.id).sort();
    eq(named, Array.from({ length: 40 }, (_, i) => `c${i}`).sort(), 'one event per write');
  });

  storeTest('the background pruner deletes what is older than the retention, and stops', async (store) => {
    await store.addNotification(TA, ORG, notification('aged', { timestamp: T0 }));
    await store.addNotification(TA, ORG, notification('fresh', { timestamp: T0 + 2 * 3_600_000 }));
    const pruner = startPruner(store, { retentionHours: 1, now: () => T0 + 2 * 3_600_000 });
    await pruner.stop();
    eq(await ids(store, TA), [2], 'the event older than an hour went');
  });

  storeTest('pruning deletes the events recorded before a time, a batch at a time, and no other', async (store) => {
    for (let i = 0; i < 7; i++) await store.addNotification(TA, ORG, notification(`old${i}`, { timestamp: T0 + i }));
    await store.addNotification(TB, ORG, notification('old-b', { timestamp: T0 }));
    await store.addNotification(TA, ORG, notification('new', { timestamp: T0 + 1000 }));
    eq(await store.pruneEvents(T0 + 5, 2), 2, 'a batch is at most its limit');
    eq(await pruneEvents(store, T0 + 5, 2), 4, 'the rest, batch after batch');
    eq(await ids(store, TA), [6, 7, 8], 'A keeps what is not older');
    eq(await ids(store, TB), [], 'B had one old event');
    eq(await store.lastEventId(TA), 8, 'ids go on after pruning');
    await store.addNotification(TA, ORG, notification('next', { timestamp: T0 + 2000 }));
    eq(await ids(store, TA), [6, 7, 8, 9], 'the next id');
  });

  storeTest(
    'streamAccess: public to all of the organization, organizationPrivate to its users, restricted to its members',
    async (store) => {
      const now = T0;
      await store.upsertUsers(TA, ORG, null, [{ userId: 'member' }], now);
      await store.upsertUsers(TA, ORG, { kind: 'document', id: 'restricted' }, [{ userId: 'listed' }], now);
      await store.addFolders(TA, ORG, [{ folderId: 'f', name: 'F', parentId: null }], now);
      await store.upsertUsers(TA, ORG, { kind: 'folder', id: 'f' }, [{ userId: 'in-folder' }], now);
      await store.addDocuments(
        TA,
        ORG,
        null,
        [
          { documentId: 'public', name: null },
          { documentId: 'restricted', name: null },
        ],
        now,
      );
      await store.addDocuments(TA, ORG, 'f', [{ documentId: 'filed', name: null }], now);
      await store.setDocumentAccess(TA, ORG, ['public'], 'public', now);
      await store.setDocumentAccess(TA, ORG, ['restricted', 'filed'], 'restricted', now);
      const cases: [string, string, boolean, boolean][] = [
        // user, document, member, may see the document
        ['member', 'public', true, true],
        ['member', 'unknown-doc', true, true],
        ['member', 'restricted', true, false],
        ['listed', 'restricted', true, true],
        ['in-folder', 'filed', true, true],
        ['in-folder', 'restricted', true, false],
        ['stranger', 'public', false, true],
        ['stranger', 'unknown-doc', false, false],
        ['stranger', 'filed', false, false],
      ];
      for (const [user, doc, member, document] of cases) {
        const got = await store.streamAccess(TA, ORG, doc, user);
        eq(got, { member, document }, `${user} on ${doc}: ${show(got)}`);
      }
      eq(await store.streamAccess(TB, ORG, 'public', 'member'), { member: false, document: false }, 'another tenant');
    },
  );

  // PostgreSQL numbers a write's events after its commit (migration 18). What a write leaves when its
  // process stops between the two: its drafts, made here as a write makes them.
  if (TEST_STORE === 'postgres') {
    const draftsOf = (at: number, users: string[]) => `
      INSERT INTO event_drafts (tenant_id, write_id, position, type, organization_id, document_id, created_at, audience, body_rest)
      SELECT '${TA}', w.id, p, 'notification.add', '${ORG}', NULL, ${at}, '{"users":${JSON.stringify(users)},"wide":false}',
        ',"type":"notification.add","timestamp":${at},"organizationId":"${ORG}","data":{"write":' || w.id || ',"n":' || p || '}}'
      FROM (SELECT nextval('event_draft_writes') AS id) w, generate_series(1, 2) p`;
    const bodies = async (store: Store) => (await store.eventsAfter(TA, 0, 100)).map((e) => JSON.parse(e.body));
    const draftsLeft = async (db: FreshDatabase) =>
      (await db.query('SELECT count(*)::int AS n FROM event_drafts'))[0]!.n as number;

    storeTest(
      'PostgreSQL: a write numbers its own drafts; those a stopped writer left wait for the sweep, in write order',
      async (store, db) => {
        await db.exec(draftsOf(T0, ['u1']));
        await db.exec(draftsOf(T0, ['u1']));
        await store.addNotification(TA, ORG, notification('after'));
        eq(
          (await bodies(store)).map((e) => [e.id, e.data.id]),
          [[1, 'after']],
          'the write is numbered; the left drafts are not its',
        );
        eq(await draftsLeft(db), 4, 'the left drafts wait');
        eq(await store.numberLeftDrafts(T0 + 1), 1, 'the sweep finds one tenant');
        const events = await bodies(store);
        eq(
          events.map((e) => e.id),
          [1, 2, 3, 4, 5],
          'numbered after the write',
        );
        const [w1, w2] = [events[1].data.write, events[3].data.write];
        eq(w1 < w2, true, 'in the order the writes drafted');
        eq(
          events.slice(1).map((e) => [e.data.write, e.data.n]),
          [
            [w1, 1],
            [w1, 2],
            [w2, 1],
            [w2, 2],
          ],
          'each write whole, in the order the writes drafted',
        );
        eq(Object.keys(events[1]), ['id', 'type', 'timestamp', 'organizationId', 'data'], 'a numbered draft is an event');
        eq(await draftsLeft(db), 0, 'no draft left');
      },
    );

    storeTest('PostgreSQL: the sweep numbers drafts older than the grace, and the listener hears of them', async (store, db) => {
      const heard: [string | null, number][] = [];
      store.onEvents?.((tenantId, last) => heard.push([tenantId, last]));
      await db.exec(draftsOf(Date.now(), ['u1']));
      eq(await store.numberLeftDrafts(Date.now() - DRAFT_GRACE_MS), 0, 'a draft within the grace is its writer’s');
      eq(await store.lastEventId(TA), 0, 'not numbered yet');
      const sweep = startDraftSweep(store, { everyMs: 20, now: () => Date.now() + DRAFT_GRACE_MS + 1 });
      try {
        for (let i = 0; i < 250 && (await store.lastEventId(TA)) < 2; i++) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await sweep.stop();
      }
      eq(await ids(store, TA), [1, 2], 'numbered');
      for (let i = 0; i < 100 && !heard.some(([t, l]) => t === TA && l === 2); i++) await new Promise((r) => setTimeout(r, 20));
      eq(
        heard.some(([t, l]) => t === TA && l === 2),
        true,
        `the listener heard of the new last id: ${show(heard)}`,
      );
    });

    storeTest(
      'PostgreSQL: a tenant’s write goes by another’s open transaction, which is numbered after its commit',
      async (store, db) => {
        const other = await rawClient(db);
        try {
          await other.query('BEGIN');
          await other.query(draftsOf(T0, ['u1']));
          await store.addNotification(TA, ORG, notification('first-to-commit'));
          eq(await ids(store, TA), [1], 'the committed write is numbered; the open one is not seen');
          await other.query('COMMIT');
          await store.numberLeftDrafts(T0 + 1);
          await store.addNotification(TA, ORG, notification('next'));
          eq(
            (await bodies(store)).map((e) => [e.id, e.data.id ?? 'draft']),
            [
              [1, 'first-to-commit'],
              [2, 'draft'],
              [3, 'draft'],
              [4, 'next'],
            ],
            'ids in the order of the numberings',
          );
        } finally {
          await other.end();
        }
      },
    );

    storeTest(
      'PostgreSQL: a write commits without waiting for the counter; it is numbered once the counter is free',
      async (store, db) => {
        await store.addNotification(TA, ORG, notification('first'));
        const holder = await rawClient(db);
        try {
          await holder.query('BEGIN');
          await holder.query(`SELECT last_id FROM event_counters WHERE tenant_id = '${TA}' FOR UPDATE`);
          let answered = false;
          const writing = Promise.resolve(store.addNotification(TA, ORG, notification('second'))).then(() => (answered = true));
          let drafts = 0;
          for (let i = 0; i < 100 && drafts === 0; i++) {
            await new Promise((r) => setTimeout(r, 20));
            drafts = await draftsLeft(db);
          }
          eq(drafts, 1, 'the write committed its draft while another held the counter');
          eq(answered, false, 'it answers only once its events are numbered');
          await holder.query('COMMIT');
          await writing;
          eq(await ids(store, TA), [1, 2], 'numbered after the holder let go');
          eq(await draftsLeft(db), 0, 'no draft left');
        } finally {
          await holder.end();
        }
      },
    );

    storeTest('PostgreSQL: an erasure numbers the drafts before it reads the history, and erases them', async (store, db) => {
      await db.exec(draftsOf(T0, ['erased']));
      await store.addNotification(TA, ORG, notification('kept', { recipients: ['u2'] }));
      await db.exec(draftsOf(T0, ['erased']));
      await store.eraseUserData(TA, null, ['erased'], 100, { jobId: 'job-1', now: () => T0 });
      eq(
        (await bodies(store)).map((e) => e.data.id),
        ['kept'],
        'no event names the erased user',
      );
      eq((await db.query('SELECT count(*)::int AS n FROM event_drafts'))[0]!.n, 0, 'no draft left');
    });
  }
});

/** A connection of its own to the test schema (a transaction the store does not see). */
async function rawClient(db: FreshDatabase): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
  await client.connect();
  await client.query(`SET search_path = "${db.env.MARGINALIA_PG_SCHEMA}"`);
  return client;
}
