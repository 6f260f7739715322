// Document migration (docs/api.md, "Document migration"), on the configured database: /v2's
// organizations/documents/migrate starts a job that a worker (src/jobs/) runs in batches, and
// migrate/status reads it. Happy paths (every table keyed by the document moves, stored answers name the
// new id), the document while it moves (writes refused on both ids, reads where each row is), the job's
// lease (one worker at a time, taken up again after a crash or a stop), a migration of a few thousand
// comments beside another tenant's writes, errors, and tenant isolation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MigrationWorker } from '../../src/jobs/document-migrations.js';
import { FOLLOW_THEIR_ROWS, MOVERS, NOT_MOVED } from '../../src/store/document-migrations/movers.js';
import { type Caller, expectError, makeTestApp, PATHS, type TestApp, user } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;

const MIGRATE = '/v2/organizations/documents/migrate';
const STATUS = '/v2/organizations/documents/migrate/status';

const say = (commentText: string, userId = 'u1') => ({ commentText, from: { userId } });

/** A worker over the test's store, small batches so that a document takes many. */
const worker = (batchSize = 3) => new MigrationWorker({ store: t.store, batchSize, pollMs: 10, leaseMs: 5000 });

async function migrate(org: string, documentId: string, newDocumentId: string, c: Caller = t.a): Promise<string> {
  const r = await c.ok(MIGRATE, { organizationId: org, documentId, newDocumentId });
  assert.equal(r.message, 'Document migration started successfully.');
  assert.equal(typeof r.data.migrationId, 'string');
  return r.data.migrationId;
}

const status = async (org: string, migrationId: string) => (await t.a.ok(STATUS, { organizationId: org, migrationId })).data;

/** Polls the status until the job has ended (a minute at most: the machine may be busy). */
async function ended(org: string, migrationId: string): Promise<any> {
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    const s = await status(org, migrationId);
    if (s.status === 'completed' || s.status === 'failed') return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`migration ${migrationId} did not end: ${JSON.stringify(await status(org, migrationId))}`);
}

/** Runs the job with a worker of its own, to its end. */
async function runToEnd(org: string, migrationId: string, batchSize = 3): Promise<any> {
  const w = worker(batchSize).start();
  try {
    return await ended(org, migrationId);
  } finally {
    await w.stop();
  }
}

/** Rows of each table keyed by document, for one document of the organization (memberships by scope). */
async function rowsByTable(org: string, documentId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [table, columns] of await t.db.textColumns()) {
    const column =
      table === 'memberships'
        ? 'scope_id'
        : table === 'access_roles'
          ? 'resource_id'
          : columns.includes('document_id')
            ? 'document_id'
            : null;
    if (column === null) continue;
    const kind = table === 'access_roles' ? ` AND resource_kind = 'document'` : '';
    const [row] = await t.db.query(
      `SELECT count(*) AS n FROM ${table} WHERE organization_id = '${org}' AND ${column} = '${documentId}'${kind}`,
    );
    out[table] = Number(row!.n);
  }
  return out;
}

/** A document holding one of everything a document can hold. */
async function fullDocument(org: string, doc: string): Promise<void> {
  await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: doc, documentName: 'The plan' }] });
  await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: doc, users: [user('u1'), user('u2')] });
  await t.a.ok(PATHS.permissionsAdd, {
    user: { userId: 'u1' },
    permissions: { resources: [{ type: 'document', id: doc, organizationId: org, accessRole: 'viewer' }] },
  });
  for (const annotationId of ['t1', 't2'])
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{ annotationId, commentData: [say(`${annotationId} first`), say(`${annotationId} second`, 'u2')] }],
    });
  await t.a.ok(PATHS.annotationsRead, { organizationId: org, documentId: doc, userId: 'u1', annotationIds: ['t1'] });
  for (const notificationId of ['n1', 'n2', 'n3', 'n4'])
    await t.a.ok(PATHS.notificationsAdd, {
      organizationId: org,
      notificationId,
      documentId: doc,
      actionUser: { userId: 'actor' },
      displayHeadlineMessageTemplate: 'hi',
      notifyUsers: [{ userId: 'u1' }, { userId: 'u2' }],
    });
  await t.a.ok(PATHS.notificationsAdd, {
    organizationId: org,
    notificationId: 'wide',
    documentId: doc,
    actionUser: { userId: 'actor' },
    displayHeadlineMessageTemplate: 'to all',
    notifyAll: true,
  });
  await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'u1', notificationIds: ['n1', 'wide'] });
  // An archive (migration 41): u1's of the organization-wide one they read, u2's of it unread and of a listed one.
  await t.a.ok(PATHS.notificationsArchive, { organizationId: org, userId: 'u1', notificationIds: ['wide'] });
  await t.a.ok(PATHS.notificationsArchive, { organizationId: org, userId: 'u2', notificationIds: ['wide', 'n2'] });
  await t.a.ok(PATHS.notificationsConfigSet, {
    organizationId: org,
    documentIds: [doc],
    userIds: ['u1'],
    config: { inbox: 'ALL' },
  });
  await t.a.ok(PATHS.liveStateBroadcast, { organizationId: org, documentId: doc, liveStateDataId: 's1', data: { a: 1 } });
  await t.a.ok(PATHS.presenceAdd, { organizationId: org, documentId: doc, users: [{ userId: 'u1', name: 'U1' }] });
  // A mail waiting (migration 43), as the outbox drafts one with a notification when email is on (it is off here).
  await t.db.exec(`INSERT INTO email_outbox (tenant_id, organization_id, user_id, notification_id, document_id, concerns,
      mention, created_at, next_at)
    SELECT tenant_id, organization_id, 'u1', 'n1', document_id, 1, 0, 1000, 1000 FROM documents
    WHERE organization_id = '${org}' AND document_id = '${doc}'`);
}

describe('document migration: happy paths', () => {
  test('every table keyed by a document is moved, or named as kept: the one list of movers is where a new one goes', async () => {
    const keyed = [...(await t.db.textColumns())]
      .filter(([table, columns]) => columns.includes('document_id') || table === 'memberships' || table === 'access_roles')
      .map(([table]) => table)
      .sort();
    const named = [...MOVERS.flatMap((m) => m.tables), ...NOT_MOVED, ...FOLLOW_THEIR_ROWS];
    assert.deepEqual(
      keyed.filter((table) => !named.includes(table)),
      [],
      'a table keyed by document id that no mover moves: add a mover (store/document-migrations/movers.ts) or name it kept',
    );
  });

  test("the document's rows move to the new id, its stored answers name it, the old id is gone", async () => {
    const org = uniq('org');
    await fullDocument(org, 'old');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'other',
      commentAnnotations: [{ annotationId: 'o', commentData: [say('o')] }],
    });
    const before = await rowsByTable(org, 'old');
    const threadsBefore = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'old' })).data;
    // For each user and `archived` filter (the archive's counters follow the rows too).
    const countsOf = async (documentId: string) => {
      const out: unknown[] = [];
      for (const userId of ['u1', 'u2'])
        for (const archived of [false, true, null])
          out.push((await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId, documentId, archived })).data);
      return out;
    };
    const counted = await countsOf('old');

    const id = await migrate(org, 'old', 'new');
    const pending = await status(org, id);
    assert.deepEqual(
      { ...pending, createdAt: 0, lastUpdated: 0 },
      { migrationId: id, status: 'pending', documentId: 'old', newDocumentId: 'new', movedRows: 0, createdAt: 0, lastUpdated: 0 },
    );
    const done = await runToEnd(org, id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.error, undefined);

    const after = await rowsByTable(org, 'new');
    const left = await rowsByTable(org, 'old');
    for (const table of MOVERS.flatMap((m) => m.tables)) {
      assert.ok(before[table]! > 0, `the test document has ${table} rows`);
      assert.equal(after[table], before[table], `${table}: every row under the new id`);
      assert.equal(left[table], 0, `${table}: none left under the old id`);
    }
    assert.equal(
      done.movedRows,
      MOVERS.flatMap((m) => m.tables).reduce((n, table) => n + before[table]!, 0),
      'movedRows counts every row moved',
    );
    assert.deepEqual([left.documents, after.documents], [0, 1], 'the old row went, the new one is there');

    const threads = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'new' })).data;
    assert.deepEqual(
      threads,
      threadsBefore.map((x: any) => ({ ...x, metadata: { ...x.metadata, documentId: 'new' } })),
      'the threads read as before, naming the new id',
    );
    assert.deepEqual((await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'old' })).data, []);
    const comments = (await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'new', annotationId: 't1' })).data;
    assert.deepEqual(
      comments.map((c: any) => c.commentText),
      ['t1 first', 't1 second'],
    );
    const inbox = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'u1', archived: null })).data;
    assert.deepEqual(new Set(inbox.map((n: any) => n.metadata.documentId)), new Set(['new']), JSON.stringify(inbox));
    assert.deepEqual(await countsOf('new'), counted, "the counts follow the rows (the counters' triggers)");
    const [cfg] = (await t.a.ok(PATHS.notificationsConfigGet, { organizationId: org, documentIds: ['new'], userId: 'u1' })).data;
    assert.equal(cfg.config.inbox, 'ALL', 'the notification setting moved');
    const states = (await t.a.ok(PATHS.liveStateGet, { organizationId: org, documentId: 'new' })).data;
    assert.deepEqual(
      states.map((s: any) => [s.liveStateDataId, s.data]),
      [['s1', { a: 1 }]],
    );
    const docs = (await t.a.ok(PATHS.documentsGet, { organizationId: org, documentIds: ['old', 'new'] })).data;
    assert.deepEqual(
      docs.map((d: any) => [d.documentId ?? d.id, d.documentName, d.disabled]),
      [['new', 'The plan', false]],
      'the new id has the name and is enabled again; the old id is gone',
    );

    // The new id takes writes; the old one is free to be used again, as a new document.
    await t.a.ok(PATHS.commentsAdd, { organizationId: org, documentId: 'new', annotationId: 't1', commentData: [say('after')] });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'old',
      commentAnnotations: [{ annotationId: 'fresh', commentData: [say('f')] }],
    });
    assert.deepEqual(
      (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'old' })).data.map((x: any) => x.annotationId),
      ['fresh'],
    );
    const other = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'other' })).data;
    assert.deepEqual(
      other.map((x: any) => x.annotationId),
      ['o'],
      'other documents untouched',
    );
  });

  test('a disabled document moves, and the new id stays disabled', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'old',
      commentAnnotations: [{ annotationId: 'a', commentData: [say('a')] }],
    });
    await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['old'], disabled: true });
    const done = await runToEnd(org, await migrate(org, 'old', 'new'));
    assert.equal(done.status, 'completed');
    const [doc] = (await t.a.ok(PATHS.documentsGet, { organizationId: org, documentIds: ['new'] })).data;
    assert.equal(doc.disabled, true);
  });
});

describe('document migration: the document while it moves', () => {
  test('writes to either id are refused until it ends; reads answer from where the rows are', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'old',
      commentAnnotations: [{ annotationId: 'a', commentData: [say('one')] }],
    });
    const id = await migrate(org, 'old', 'new');
    for (const documentId of ['old', 'new']) {
      const r = await t.a.post(PATHS.annotationsAdd, {
        organizationId: org,
        documentId,
        commentAnnotations: [{ annotationId: 'x', commentData: [say('x')] }],
      });
      assert.match(expectError(r, 403, 'PERMISSION_DENIED', documentId), new RegExp(`Document ${documentId} is disabled`));
      const c = await t.a.post(PATHS.commentsAdd, {
        organizationId: org,
        documentId,
        annotationId: 'a',
        commentData: [say('no')],
      });
      assert.ok(c.status === 403 || c.status === 404, c.body);
    }
    const reading = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'old' })).data;
    assert.deepEqual(
      reading.map((x: any) => x.annotationId),
      ['a'],
      'a job not run yet: the old id still reads it all',
    );
    assert.equal((await runToEnd(org, id)).status, 'completed');
    const moved = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'new' })).data;
    assert.deepEqual(
      moved.map((x: any) => x.comments.map((c: any) => c.commentText)),
      [['one']],
      'nothing refused got in',
    );
  });

  test('a worker that stops hands the job back between two batches; another takes it up where it was', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'old',
      commentAnnotations: Array.from({ length: 30 }, (_, i) => ({ annotationId: `a${i}`, commentData: [say(`c${i}`)] })),
    });
    const id = await migrate(org, 'old', 'new');
    const first = worker(1).start();
    for (let s = await status(org, id); s.movedRows < 5; s = await status(org, id)) await new Promise((r) => setTimeout(r, 2));
    await first.stop();
    const stopped = await status(org, id);
    assert.equal(stopped.status, 'in_progress', 'handed back, not finished');
    assert.ok(stopped.movedRows < 60, JSON.stringify(stopped));
    const done = await runToEnd(org, id);
    assert.equal(done.status, 'completed');
    assert.equal(done.movedRows, 60, 'each row moved once (30 threads, 30 comments)');
    assert.equal((await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'new' })).data.length, 30);
  });

  test("a job whose worker died is taken up once its lease ends; the dead worker's batches are refused", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'old',
      commentAnnotations: [{ annotationId: 'a', commentData: [say('one')] }],
    });
    const id = await migrate(org, 'old', 'new');
    const claimed = await t.store.claimDocumentMigration('dead', Date.now(), 60_000);
    assert.equal(claimed?.migrationId, id);
    assert.equal(await t.store.claimDocumentMigration('other', Date.now(), 60_000), null, 'held: no one else claims it');
    assert.equal((await status(org, id)).status, 'in_progress');
    // Its lease ends (a minute on): the next worker's claim takes it.
    const taken = await t.store.claimDocumentMigration('alive', Date.now() + 61_000, 60_000);
    assert.equal(taken?.migrationId, id);
    const run = (owner: string) =>
      t.store.runDocumentMigration(claimed!, { owner, leaseMs: 60_000, mostRows: 10, now: Date.now, stopping: () => false });
    assert.equal(await run('dead'), 'lost', 'the dead worker, come back, moves nothing');
    assert.equal((await status(org, id)).movedRows, 0);
    assert.equal(await run('alive'), 'completed');
    assert.equal((await status(org, id)).status, 'completed');
  });

  test('a few thousand comments move while another tenant writes; every write of both lands', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'big',
      commentAnnotations: [{ annotationId: 'long', commentData: [say('first')] }],
    });
    for (let k = 0; k < 3; k++)
      await t.a.ok(PATHS.commentsAdd, {
        organizationId: org,
        documentId: 'big',
        annotationId: 'long',
        commentData: Array.from({ length: 1000 }, (_, i) => say(`c${k * 1000 + i}`)),
      });
    const bThread = {
      organizationId: 'b-org',
      documentId: 'b-doc',
      commentAnnotations: [{ annotationId: 'b', commentData: [say('b')] }],
    };
    await t.b.ok(PATHS.annotationsAdd, bThread);
    const id = await migrate(org, 'big', 'moved');
    const w = worker(200).start();
    let writes = 0;
    let finished = false;
    let done: any;
    const writing = (async () => {
      while (!finished || writes < 20) {
        await t.b.ok(PATHS.commentsAdd, {
          organizationId: 'b-org',
          documentId: 'b-doc',
          annotationId: 'b',
          commentData: [say(`b${writes}`)],
        });
        writes++;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    try {
      done = await ended(org, id);
    } finally {
      finished = true;
      await writing;
      await w.stop();
    }
    assert.equal(done.status, 'completed');
    assert.equal(done.movedRows, 3002, '3001 comments and their thread');
    const comments = (await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'moved', annotationId: 'long' })).data;
    assert.equal(comments.length, 3001);
    assert.deepEqual(
      comments.slice(0, 2).map((c: any) => c.commentText),
      ['first', 'c0'],
    );
    const theirs = (await t.b.ok(PATHS.commentsGet, { organizationId: 'b-org', documentId: 'b-doc', annotationId: 'b' })).data;
    assert.equal(theirs.length, writes + 1, "the other tenant's writes all landed");
  });
});

describe('document migration: errors', () => {
  test('the same id, a document that does not exist, a new id that exists, a document under way: nothing written', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'a' }, { documentId: 'b' }] });
    const data = (documentId: string, newDocumentId: string) => ({ organizationId: org, documentId, newDocumentId });
    assert.match(expectError(await t.a.post(MIGRATE, data('a', 'a')), 400, 'INVALID_ARGUMENT'), /must differ/);
    assert.equal(expectError(await t.a.post(MIGRATE, data('ghost', 'c')), 404, 'NOT_FOUND'), 'Document ghost does not exist.');
    assert.equal(expectError(await t.a.post(MIGRATE, data('a', 'b')), 409, 'ALREADY_EXISTS'), 'Document b already exists.');
    const r = await t.a.post(MIGRATE, { organizationId: org, documentId: 'a' });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT'), /newDocumentId/);
    const docs = (await t.a.ok(PATHS.documentsGet, { organizationId: org })).data;
    assert.deepEqual(
      docs.map((d: any) => [d.id, d.disabled]),
      [
        ['a', false],
        ['b', false],
      ],
      'refusals wrote nothing',
    );

    const id = await migrate(org, 'a', 'c');
    assert.match(expectError(await t.a.post(MIGRATE, data('a', 'd')), 409, 'ALREADY_EXISTS'), /being migrated already/);
    assert.match(expectError(await t.a.post(MIGRATE, data('c', 'd')), 409, 'ALREADY_EXISTS'), /being migrated already/);
    assert.match(expectError(await t.a.post(MIGRATE, data('b', 'c')), 409, 'ALREADY_EXISTS'), /c already exists/);
    assert.equal((await runToEnd(org, id)).status, 'completed');
    assert.equal(expectError(await t.a.post(MIGRATE, data('a', 'e')), 404, 'NOT_FOUND'), 'Document a does not exist.');
  });

  test('past MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT open jobs a start is 429, writing nothing; once they end, it goes', async () => {
    const fresh = await makeTestApp({ config: { maxOpenMigrationsPerTenant: 2 } });
    try {
      const org = 'org';
      const docs = ['a', 'b', 'c'].map((documentId) => ({ documentId }));
      await fresh.a.ok(PATHS.documentsAdd, { organizationId: org, documents: docs });
      await fresh.b.ok(PATHS.documentsAdd, { organizationId: org, documents: docs });
      const start = (c: Caller, documentId: string) =>
        c.post(MIGRATE, { organizationId: org, documentId, newDocumentId: `${documentId}2` });
      for (const documentId of ['a', 'b']) assert.equal((await start(fresh.a, documentId)).status, 200);
      const refused = await start(fresh.a, 'c');
      assert.match(
        expectError(refused, 429, 'RESOURCE_EXHAUSTED'),
        /has 2 document migrations pending or in progress \(MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT\)/,
      );
      const listed = (await fresh.a.ok(PATHS.documentsGet, { organizationId: org, documentIds: ['c', 'c2'] })).data;
      assert.deepEqual(
        listed.map((d: any) => [d.id, d.disabled]),
        [['c', false]],
        'the refused start wrote nothing',
      );
      assert.equal((await start(fresh.b, 'c')).status, 200, "another tenant's jobs are its own");
      // Jobs that end make room.
      const run = { owner: 'w', leaseMs: 60_000, mostRows: 1000, now: () => Date.now(), stopping: () => false };
      for (let job = await fresh.store.claimDocumentMigration('w', Date.now(), 60_000); job; ) {
        assert.equal(await fresh.store.runDocumentMigration(job, run), 'completed');
        job = await fresh.store.claimDocumentMigration('w', Date.now(), 60_000);
      }
      assert.equal((await start(fresh.a, 'c')).status, 200, 'taken once the open ones have ended');
    } finally {
      await fresh.close();
    }
  });

  test('a disabled organization refuses it; an unknown migration id is NOT_FOUND', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'a' }] });
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    const r = await t.a.post(MIGRATE, { organizationId: org, documentId: 'a', newDocumentId: 'b' });
    expectError(r, 403, 'PERMISSION_DENIED');
    const s = await t.a.post(STATUS, { organizationId: org, migrationId: 'nope' });
    assert.equal(expectError(s, 404, 'NOT_FOUND'), 'Migration nope does not exist.');
  });
});

describe('document migration: security', () => {
  test("another tenant can neither migrate a tenant's document nor read its migration's status", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'mine' }] });
    const theirs = await t.b.post(MIGRATE, { organizationId: org, documentId: 'mine', newDocumentId: 'stolen' });
    expectError(theirs, 404, 'NOT_FOUND');
    const id = await migrate(org, 'mine', 'renamed');
    expectError(await t.b.post(STATUS, { organizationId: org, migrationId: id }), 404, 'NOT_FOUND');
    expectError(await t.a.post(STATUS, { organizationId: `${org}-other`, migrationId: id }), 404, 'NOT_FOUND');
    assert.equal((await runToEnd(org, id)).status, 'completed');
    const bDocs = (await t.b.ok(PATHS.documentsGet, { organizationId: org })).data;
    assert.deepEqual(bDocs, [], "nothing of the other tenant's appears");
  });

  test('without credentials: UNAUTHENTICATED', async () => {
    for (const path of [MIGRATE, STATUS]) {
      const r = await t.request(path, {
        body: { data: { organizationId: 'o', documentId: 'a', newDocumentId: 'b', migrationId: 'm' } },
      });
      expectError(r, 401, 'UNAUTHENTICATED', path);
    }
  });
});
