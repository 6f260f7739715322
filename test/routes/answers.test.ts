// The answers, byte for byte. A fixed dataset is written through the API with a fixed clock and a
// fixed tenant, then read every way the contract allows; every answer's exact text is compared with
// test/fixtures/answers.json. It runs on both databases against the same file, so SQLite and
// PostgreSQL answer alike to the byte, and any change to how answers are built (rendering from rows,
// text stored at write time) must keep them. After a deliberate change to the contract:
// UPDATE_ANSWERS=1 node --import tsx --test test/routes/answers.test.ts
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { type AppOptions, buildApp as buildUnchecked } from '../../src/app.js';
import type { App } from '../../src/http/types.js';
import { DEFAULT_LIMITS } from '../../src/schemas/common.js';
import { tokenRecord } from '../../src/services/credentials.js';
import type { Store } from '../../src/store/store.js';
import { PATHS, steppingClock, T0 } from '../helpers/app.js';
import { checkingAnswers } from '../helpers/answer-check.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';
import { asOfMigration5 } from '../helpers/previous-release.js';

/** The app, with every answer checked against its operation's schema (as makeTestApp does). */
const buildApp = async (options: AppOptions) => checkingAnswers(await buildUnchecked(options));

const FIXTURE = new URL('../fixtures/answers.json', import.meta.url);
const KEY = 'mk_golden_answers';
const TOKEN = 'mt_golden_answers_token_0123456789';

interface Exchange {
  path: string;
  data: unknown;
  status: number;
  body: string;
}

let db: FreshDatabase;
let store: Store;
let app: App;
const exchanges: Exchange[] = [];

async function call(path: string, data: unknown): Promise<Exchange> {
  const res = await app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', 'x-service-api-key': KEY, 'x-service-auth-token': TOKEN },
    payload: JSON.stringify({ data }),
  });
  const exchange = { path, data, status: res.statusCode, body: res.body };
  exchanges.push(exchange);
  return exchange;
}

const O = 'org-golden';
const D = 'doc-1';
const user = (userId: string, name?: string, email?: string) => ({
  userId,
  ...(name ? { name } : {}),
  ...(email ? { email } : {}),
});

/** Every kind of write the contract has, with the edge cases answers must carry. */
async function writeDataset(): Promise<void> {
  await call(PATHS.usersAdd, {
    organizationId: O,
    documentId: D,
    users: [user('ann', 'Ann', 'ann@example.com'), user('bob', 'Bob'), { userId: 'cy', photoUrl: 'https://example.com/cy.png' }],
  });
  await call(PATHS.usersAdd, { organizationId: O, folderId: 'folder-1', users: [user('dee', 'Dee', 'dee@example.com')] });
  await call(PATHS.annotationsAdd, {
    organizationId: O,
    documentId: D,
    commentAnnotations: [
      {
        annotationId: 'thread-1',
        location: { page: 3, rect: [1, 2, 3, 4] },
        locationId: 'loc-a',
        context: { quote: 'the second paragraph' },
        commentData: [
          { commentText: 'First & <plain> text', from: { userId: 'ann' } },
          {
            commentId: 10,
            commentHtml: '<p>Hi <b>there</b><script>x()</script> <a href="javascript:y()">link</a></p>',
            from: user('ghost', 'Ghost', 'g@example.com'),
          },
        ],
      },
      {
        annotationId: 'thread-2',
        status: { id: 'RESOLVED', name: 'Resolved', type: 'done' },
        commentData: [
          { commentHtml: '<ul><li>one</li><li>two &amp; three</li></ul>', commentText: 'kept as sent', from: { userId: 'bob' } },
        ],
      },
    ],
  });
  await call(PATHS.annotationsAdd, {
    organizationId: O,
    documentId: D,
    commentAnnotations: [{ annotationId: 'thread-1', commentData: [{ commentText: 'taken', from: { userId: 'ann' } }] }],
  });
  await call(PATHS.commentsAdd, {
    organizationId: O,
    documentId: D,
    annotationId: 'thread-1',
    commentData: [
      { commentText: 'generated id', from: { userId: 'cy', name: 'Cy as sent' } },
      { commentId: 5, commentText: 'chosen id, 😀 and "quotes"', from: { userId: 'dee' } },
    ],
  });
  const notification = (id: string, extra: Record<string, unknown>) => ({
    organizationId: O,
    notificationId: id,
    actionUser: { userId: 'ann' },
    displayHeadlineMessageTemplate: '{actor} mentioned {target} in {doc}',
    notifyUsers: [{ userId: 'bob' }, { userId: 'cy' }],
    ...extra,
  });
  await call(PATHS.notificationsAdd, notification('n-1', { documentId: D }));
  await call(
    PATHS.notificationsAdd,
    notification('n-2', {
      documentId: D,
      locationId: 'loc-a',
      displayHeadlineMessageTemplateData: {
        actor: { userId: 'ann' },
        target: { userId: 'ghost', name: 'Ghost' },
        doc: 'Plan',
        n: 3,
      },
      displayBodyMessage: 'Body with\nnewline',
      notificationSourceData: { kind: 'mention', nested: { ok: true } },
      notifyUsers: [{ userId: 'bob' }, { userId: 'bob' }, { userId: 'dee', name: 'Dee as sent' }],
    }),
  );
  await call(
    PATHS.notificationsAdd,
    notification('n-3', { actionUser: { userId: 'nobody', name: 'No Profile', email: 'np@example.com' } }),
  );
  await call(PATHS.notificationsAdd, notification('n-3', {}));
  await call(PATHS.notificationsAdd, notification('n-4', { documentId: 'doc-2', notifyUsers: [{ userId: 'cy' }] }));
  await call(PATHS.usersUpdate, { organizationId: O, users: [user('ann', 'Ann Renamed'), user('zed', 'Zed')] });
  await call(PATHS.usersUpdate, {
    organizationId: O,
    documentId: D,
    users: [{ userId: 'bob', email: 'bob@example.com' }, user('dee', 'Not in doc')],
  });
}

/** Every way of reading it back. */
async function readDataset(): Promise<void> {
  const thread = { organizationId: O, documentId: D, annotationId: 'thread-1' };
  await call(PATHS.commentsGet, thread);
  await call(PATHS.commentsGet, { ...thread, commentIds: [10, 99, 1, 5] });
  await call(PATHS.commentsGet, { ...thread, userIds: ['ann', 'dee'] });
  await call(PATHS.commentsGet, { ...thread, annotationId: 'thread-2' });
  await call(PATHS.commentsGet, { ...thread, annotationId: 'no-such-thread', commentIds: [1] });
  for (const userId of ['bob', 'cy', 'dee', 'nobody']) await call(PATHS.notificationsGet, { organizationId: O, userId });
  await call(PATHS.notificationsGet, { organizationId: O, documentId: D });
  await call(PATHS.notificationsGet, { organizationId: O, documentId: D, locationId: 'loc-a' });
  await call(PATHS.notificationsGet, { organizationId: O, userId: 'cy', notificationIds: ['n-4', 'n-1', 'missing'] });
  // A paged inbox, following the tokens.
  let page = await call(PATHS.notificationsGet, { organizationId: O, userId: 'cy', pageSize: 1 });
  for (let i = 0; i < 5; i++) {
    const token = JSON.parse(page.body).result?.pageToken;
    if (!token) break;
    page = await call(PATHS.notificationsGet, { organizationId: O, userId: 'cy', pageSize: 1, pageToken: token });
  }
}

before(async () => {
  db = freshDatabase();
  store = await db.open();
  const clock = steppingClock(T0);
  await store.createTenant({ id: 'tenant-golden', apiKey: KEY, name: 'golden', createdAt: T0 }, tokenRecord(TOKEN, T0));
  app = await buildApp({
    config: { bodyLimit: 1_048_576, rateLimit: 0, maxJsonDepth: 32, limits: DEFAULT_LIMITS },
    store,
    clock,
  });
  await app.ready();
});

after(async () => {
  await app?.close();
  await store?.close();
  await db?.drop();
});

test('every answer is byte for byte what test/fixtures/answers.json holds', async () => {
  await writeDataset();
  await readDataset();
  if (process.env.UPDATE_ANSWERS === '1') {
    writeFileSync(FIXTURE, `${JSON.stringify(exchanges, null, 2)}\n`);
    return;
  }
  const expected = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Exchange[];
  assert.equal(exchanges.length, expected.length, 'the same exchanges');
  for (const [i, e] of expected.entries()) {
    const got = exchanges[i]!;
    assert.deepEqual([got.path, got.data], [e.path, e.data], `exchange ${i}: the same request`);
    assert.equal(got.status, e.status, `exchange ${i} (${e.path}) status`);
    assert.equal(got.body, e.body, `exchange ${i} (${e.path} ${JSON.stringify(e.data)}) body`);
  }
});

test('notifications written before answers were stored get theirs from migrations 5 to 7: the same bytes', async () => {
  // Runs after the test above, on its dataset: read everything, then take the database back to
  // before migration 5 (no answer column; recipients without the internal ids an older release did
  // not keep), migrate again, and read again.
  exchanges.length = 0;
  await readDataset();
  const before = exchanges.splice(0);
  await asOfMigration5(db);
  await db.exec('DELETE FROM schema_migrations WHERE version = 5');
  await db.exec('ALTER TABLE notifications DROP COLUMN answer');
  await db.exec(
    db.kind === 'sqlite'
      ? `UPDATE notifications SET recipients = (SELECT json_group_array(json_array(json_extract(value, '$[0]'),
           json(CASE json_extract(value, '$[1]') WHEN 1 THEN 'true' ELSE 'false' END))) FROM json_each(recipients))`
      : `UPDATE notifications SET recipients = (SELECT json_agg(json_build_array(e->0, e->1) ORDER BY i)::text
           FROM json_array_elements(recipients::json) WITH ORDINALITY AS x(e, i))`,
  );
  await store.migrate();
  await readDataset();
  assert.ok(
    before.some((e) => e.path === PATHS.notificationsGet && e.body.includes('"notifyUsers":{"')),
    'notifications were read',
  );
  assert.deepEqual(
    exchanges.map((e) => e.body),
    before.map((e) => e.body),
  );
});
