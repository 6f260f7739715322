// The event outbox in the store (docs/events.md, "Events"), on the configured database: a write's events are
// recorded with it, with ids that increase by one per tenant (concurrent writers included) and are separate per
// tenant; a write that changes nothing records nothing; reads page by id; pruning deletes what is older
// than a time, a batch at a time
// "End-user tokens and what a token's stream carries".
import { describe } from 'node:test';
import pg from 'pg';
import { pruneEvents, startPruner } from '../../src/events/pruner.js';
import { DRAFT_GRACE_MS, startDraftSweep } from '../../src/events/sweep.js';
import type { Store } from '../../src/store/store.js';
import { type FreshDatabase, TEST_STORE } from '../helpers/test-database.js';
import { eq, notification, ORG, show, storeTest, T0, TA, TB } from '../helpers/store-fixtures.js';

/** The tenant's event ids, once the events of every write answered are numbered (PostgreSQL numbers them just after). */
const ids = async (store: Store, tenant: string, after = 0, limit = 1000) => {
  await store.eventsNumbered(tenant);
  return (await store.eventsAfter(tenant, after, limit)).map((e) => e.id);
};

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
      await store.eventsNumbered(TA);
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
    await store.eventsNumbered(TA);
    const pruner = startPruner(store, { retentionHours: 1, now: () => T0 + 2 * 3_600_000 });
    await pruner.stop();
    eq(await ids(store, TA), [2], 'the event older than an hour went');
  });

  storeTest('pruning deletes the events recorded before a time, a batch at a time, and no other', async (store) => {
    for (let i = 0; i < 7; i++) await store.addNotification(TA, ORG, notification(`old${i}`, { timestamp: T0 + i }));
    await store.addNotification(TB, ORG, notification('old-b', { timestamp: T0 }));
    await store.addNotification(TA, ORG, notification('new', { timestamp: T0 + 1000 }));
    await Promise.all([store.eventsNumbered(TA), store.eventsNumbered(TB)]);
    eq(await store.pruneEvents(T0 + 5, 2), 2, 'a batch is at most its limit');
    eq(await pruneEvents(store, T0 + 5, 2), 4, 'the rest, batch after batch');
    eq(await ids(store, TA), [6, 7, 8], 'A keeps what is not older');
    eq(await ids(store, TB), [], 'B had one old event');
    eq(await store.lastEventId(TA), 8, 'ids go on after pruning');
    await store.addNotification(TA, ORG, notification('next', { timestamp: T0 + 2000 }));
    eq(await ids(store, TA), [6, 7, 8, 9], 'the next id');
  });

  storeTest("pruning takes every tenant with old events in one pass, looking at each tenant's oldest first", async (store) => {
    // Five tenants with one old event each: a batch of 10 takes them all, not one tenant a batch.
    const tenants = ['t1', 't2', 't3', 't4', 't5'];
    for (const t of tenants) await store.addNotification(t, ORG, notification('old', { timestamp: T0 }));
    // Events recorded with an earlier time than one before them (the clock of another instance):
    // A's oldest is old, so its old ones go; B's oldest is not, so B waits until it is.
    const write = (tenant: string, id: string, at: number) =>
      store.addNotification(tenant, ORG, notification(id, { timestamp: at }));
    await write(TA, 'a-old', T0);
    await write(TA, 'a-new', T0 + 1000);
    await write(TA, 'a-late', T0);
    await write(TB, 'b-new', T0 + 1000);
    await write(TB, 'b-late', T0);
    await Promise.all([...tenants, TA, TB].map((t) => store.eventsNumbered(t)));
    eq(await store.pruneEvents(T0 + 5, 10), 7, "one pass: the five tenants' and A's two");
    for (const t of tenants) eq(await ids(store, t), [], `${t} pruned`);
    eq(await ids(store, TA), [2], 'A keeps its new event');
    eq(await ids(store, TB), [1, 2], "B's oldest is new: B is looked at again once it is old");
    eq(await store.pruneEvents(T0 + 5, 10), 0, 'nothing more');
    eq(await store.pruneEvents(T0 + 1001, 1), 1, 'a batch is at most its limit, across tenants');
  });

  // PostgreSQL numbers a write's events after its commit (migrations 18, 21). What a write leaves
  // between the two (or when its process stops): its drafts, made here as a write makes them.
  if (TEST_STORE === 'postgres') {
    const draftsOf = (at: number, users: string[]) => `
      INSERT INTO event_drafts (tenant_id, write_id, position, type, organization_id, document_id, created_at, audience, body_rest)
      SELECT '${TA}', w.id, p, 'notification.add', '${ORG}', NULL, ${at}, '{"users":${JSON.stringify(users)},"wide":false}',
        ',"type":"notification.add","timestamp":${at},"organizationId":"${ORG}","data":{"write":' || w.id || ',"n":' || p || '}}'
      FROM (SELECT nextval('event_draft_writes') AS id) w, generate_series(1, 2) p`;
    const bodies = async (store: Store) => {
      await store.eventsNumbered(TA);
      return (await store.eventsAfter(TA, 0, 100)).map((e) => JSON.parse(e.body));
    };
    const draftsLeft = async (db: FreshDatabase) =>
      (await db.query('SELECT count(*)::int AS n FROM event_drafts'))[0]!.n as number;
    const draftsFrom = async (db: FreshDatabase) =>
      BigInt((await db.query(`SELECT drafts_from::text AS x FROM event_counters WHERE tenant_id = '${TA}'`))[0]!.x as string);

    storeTest(
      'PostgreSQL: a numbering takes every committed draft of the tenant, in the order of their transactions',
      async (store, db) => {
        // Two writes of another instance (or a process that stopped) committed, not numbered yet: a
        // write made after them, here, is numbered after them, each write whole.
        await db.exec(draftsOf(T0, ['u1']));
        await db.exec(draftsOf(T0, ['u1']));
        await store.addNotification(TA, ORG, notification('after'));
        const events = await bodies(store);
        eq(
          events.map((e) => e.id),
          [1, 2, 3, 4, 5],
          'every draft numbered',
        );
        const [w1, w2] = [events[0].data.write, events[2].data.write];
        eq(
          events.map((e) => [e.data.write ?? e.data.id, e.data.n ?? 0]),
          [
            [w1, 1],
            [w1, 2],
            [w2, 1],
            [w2, 2],
            ['after', 0],
          ],
          'each write whole, in the order the writes committed',
        );
        eq(Object.keys(events[0]), ['id', 'type', 'timestamp', 'organizationId', 'data'], 'a numbered draft is an event');
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
      'PostgreSQL: an open transaction holds back where numberings start, never a numbering; its drafts are taken after its commit',
      async (store, db) => {
        const other = await rawClient(db);
        try {
          await other.query('BEGIN');
          await other.query(draftsOf(T0, ['u1']));
          const open = BigInt((await other.query('SELECT pg_current_xact_id()::text AS x')).rows[0].x);
          await store.addNotification(TA, ORG, notification('first-to-commit'));
          eq(await ids(store, TA), [1], 'the committed write is numbered; the open one is not seen');
          eq((await draftsFrom(db)) <= open, true, 'numberings still start at or before the open transaction');
          await other.query('COMMIT');
          await store.addNotification(TA, ORG, notification('next'));
          eq(
            (await bodies(store)).map((e) => [e.id, e.data.id ?? 'draft']),
            [
              [1, 'first-to-commit'],
              [2, 'draft'],
              [3, 'draft'],
              [4, 'next'],
            ],
            'the draft committed late is numbered by the next numbering, before the write made after its commit',
          );
          eq(await draftsLeft(db), 0, 'no draft left');
        } finally {
          await other.end();
        }
      },
    );

    storeTest(
      'PostgreSQL: a write answers once committed, without waiting for the counter; it is numbered once the counter is free',
      async (store, db) => {
        await store.addNotification(TA, ORG, notification('first'));
        eq(await ids(store, TA), [1], 'numbered');
        const holder = await rawClient(db);
        try {
          await holder.query('BEGIN');
          await holder.query(`SELECT last_id FROM event_counters WHERE tenant_id = '${TA}' FOR UPDATE`);
          await store.addNotification(TA, ORG, notification('second'));
          eq(await draftsLeft(db), 1, 'it answered with its draft committed, while another held the counter');
          eq((await store.eventsAfter(TA, 0, 10)).length, 1, 'not numbered yet');
          await holder.query('COMMIT');
          eq(await ids(store, TA), [1, 2], 'numbered once the holder let go');
          eq(await draftsLeft(db), 0, 'no draft left');
        } finally {
          await holder.end();
        }
      },
    );

    storeTest('PostgreSQL: writes that commit while a numbering runs or waits share the next', async (store) => {
      let numberings = 0;
      store.observeCalls?.((method) => {
        if (method === 'sequenceEvents') numberings++;
      });
      await Promise.all(Array.from({ length: 40 }, (_, i) => store.addNotification(TA, ORG, notification(`c${i}`))));
      eq(
        await ids(store, TA),
        Array.from({ length: 40 }, (_, i) => i + 1),
        'ids 1..40',
      );
      // One numbering at a time, the next at least MARGINALIA_EVENT_NUMBERING_MS (20) after: 40 writes on
      // 10 connections commit over a few numberings, not 40.
      eq(numberings > 0 && numberings < 30, true, `numberings: ${numberings}`);
    });

    storeTest(
      'PostgreSQL: waiting for numberings (the sweep, eventsNumbered) is not held up by a tenant that keeps writing',
      async (store, db) => {
        let writing = true;
        const writes = (async () => {
          for (let i = 0; writing; i++) await store.addNotification(TA, ORG, notification(`busy${i}`));
        })();
        const within = <T>(p: Promise<T>) =>
          Promise.race([
            p.then((v) => `answered ${v}`),
            new Promise<string>((r) => setTimeout(() => r('still waiting after 3 s'), 3000)),
          ]);
        try {
          await new Promise((r) => setTimeout(r, 50));
          // The tenant's numberings never go idle while it writes: each waiter is answered by the next one.
          eq(await within(store.eventsNumbered(TA)), 'answered undefined', 'eventsNumbered answers while the writes go on');
          await db.exec(draftsOf(T0, ['u1']));
          // The busy tenant's own numberings may take the left draft before the sweep looks (then it finds none).
          eq(
            /^answered [01]$/.test(await within(store.numberLeftDrafts(T0 + 1))),
            true,
            'the sweep answers while the writes go on',
          );
        } finally {
          writing = false;
          await writes;
        }
        await store.eventsNumbered(TA);
        eq(await draftsLeft(db), 0, 'no draft left');
      },
    );

    storeTest(
      'PostgreSQL: a numbering that fails is known to who waits for it; the next takes the drafts it left',
      async (store, db) => {
        await db.exec('ALTER FUNCTION sequence_events(text) RENAME TO sequence_events_away');
        try {
          await store.addNotification(TA, ORG, notification('while-away'));
          let failed = '';
          await store.eventsNumbered(TA).catch((err: Error) => (failed = err.message));
          eq(failed !== '', true, 'eventsNumbered rejects');
          await store.numberLeftDrafts(T0 + 10 * DRAFT_GRACE_MS).then(
            () => eq(true, false, 'the sweep must fail too'),
            () => {},
          );
          eq(await draftsLeft(db), 1, 'the draft waits');
        } finally {
          await db.exec('ALTER FUNCTION sequence_events_away(text) RENAME TO sequence_events');
        }
        await store.addNotification(TA, ORG, notification('back'));
        eq(
          (await bodies(store)).map((e) => [e.id, e.data.id]),
          [
            [1, 'while-away'],
            [2, 'back'],
          ],
          'the next numbering takes the draft left, first',
        );
      },
    );

    storeTest('PostgreSQL: drafts in transaction order, not the order their writes drew write_id', async (store, db) => {
      const early = await rawClient(db);
      try {
        await early.query('BEGIN');
        await early.query('SELECT pg_current_xact_id()'); // its transaction id, before the other's
        await db.exec(draftsOf(T0, ['u1'])); // draws write_id first, commits first
        await early.query(draftsOf(T0, ['u1']));
        await early.query('COMMIT');
      } finally {
        await early.end();
      }
      await store.addNotification(TA, ORG, notification('last'));
      const events = await bodies(store);
      const [first, second] = [events[0].data.write, events[2].data.write];
      eq(first > second, true, `the write of the older transaction first, though it drew the later write_id: ${show(events)}`);
      eq(events[4].data.id, 'last', 'then the write made after both');
    });

    storeTest('PostgreSQL: a drafts_from from another server (a restored dump) starts numberings over', async (store, db) => {
      await store.addNotification(TA, ORG, notification('first'));
      await store.eventsNumbered(TA);
      await db.exec(`UPDATE event_counters SET drafts_from = '999999999999' WHERE tenant_id = '${TA}'`);
      await store.addNotification(TA, ORG, notification('after-restore'));
      eq(
        (await bodies(store)).map((e) => e.data.id),
        ['first', 'after-restore'],
        'numbered',
      );
      eq((await draftsFrom(db)) < 999999999999n, true, 'drafts_from is this server’s again');
    });

    storeTest('PostgreSQL: closing the store waits for the numberings under way', async (_store, db) => {
      const closing = await db.open();
      await Promise.all(['c1', 'c2', 'c3'].map((id) => closing.addNotification(TA, ORG, notification(id))));
      await closing.close();
      eq(await draftsLeft(db), 0, 'no draft left behind');
      eq((await db.query(`SELECT count(*)::int AS n FROM events WHERE tenant_id = '${TA}'`))[0]!.n, 3, 'each write numbered');
    });

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
