// search/get (docs/api.md, "search/get") on the configured database: ranked hits of comments and notifications with
// marked, escaped snippets; the filters; accents, CJK and markup; query syntax taken as plain words; pages; the
// index following edits and deletes; refusals; another tenant and end users see only what they may.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type Caller,
  expectError,
  makeTestApp,
  notificationData,
  PATHS,
  type Reply,
  type TestApp,
  user,
  v2,
} from '../helpers/app.js';
import { MigrationWorker } from '../../src/jobs/document-migrations.js';
import { eventually } from '../helpers/eventually.js';

let now = Date.UTC(2025, 2, 1, 12);
let t: TestApp;
before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => t.close());

const P = PATHS;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;
const search = async (c: Caller, data: Record<string, unknown>, path = P.searchGet) => (await c.ok(path, data)) as any;
const keys = (hits: any[]) =>
  hits.map((h) => (h.kind === 'comment' ? `${h.documentId}/${h.annotationId}/${h.commentId}` : `n:${h.notificationId}`));

/** An organization with three threads in two documents (one in folder f, under folder top) and a notification. */
async function world(c: Caller = t.a) {
  const org = uniq('org');
  await c.ok(P.usersAdd, { organizationId: org, users: [user('ana'), user('bo')] });
  const thread = async (documentId: string, annotationId: string, comments: [string, string, boolean?][]) => {
    now += 1000;
    await c.ok(P.annotationsAdd, {
      organizationId: org,
      documentId,
      commentAnnotations: [
        {
          annotationId,
          commentData: comments.map(([text, by, html]) =>
            html ? { commentHtml: text, from: user(by) } : { commentText: text, from: user(by) },
          ),
        },
      ],
    });
  };
  await thread('d1', 'a1', [
    ['The launch date is Friday', 'ana'],
    ['Launch <b>moved</b> & "cafe" too', 'bo'],
  ]);
  await thread('d1', 'a2', [['<p>Un café crème, <b>bold</b> and <i>launch</i></p>', 'bo', true]]);
  await thread('d2', 'a3', [['日本語のテキスト about launching', 'ana']]);
  await c.ok(P.foldersAdd, { organizationId: org, folders: [{ folderId: 'top' }, { folderId: 'f', parentFolderId: 'top' }] });
  await c.ok(P.documentsMove, { organizationId: org, documentIds: ['d2'], folderId: 'f' });
  now += 1000;
  await c.ok(
    P.notificationsAdd,
    notificationData(org, { documentId: 'd1', displayBodyMessage: 'Launch review today', notifyUsers: [user('ana')] }),
  );
  return org;
}

describe('search/get', () => {
  test('ranked hits of comments and notifications, with marked and escaped snippets, on /v1 and /v2', async () => {
    const org = await world();
    const got = await search(t.a, { organizationId: org, query: 'launch' });
    assert.equal(got.message, 'Search results fetched successfully.');
    assert.deepEqual(
      keys(got.data).sort(),
      [
        'd1/a1/1',
        'd1/a1/2',
        'd1/a2/1',
        'd2/a3/1',
        `n:${got.data.find((h: any) => h.kind === 'notification').notificationId}`,
      ].sort(),
    );
    const moved = got.data.find((h: any) => h.annotationId === 'a1' && h.commentId === 2);
    assert.deepEqual(
      { ...moved },
      {
        kind: 'comment',
        documentId: 'd1',
        annotationId: 'a1',
        commentId: 2,
        userId: 'bo',
        time: moved.time,
        snippet: '<mark>Launch</mark> &lt;b&gt;moved&lt;/b&gt; &amp; &quot;cafe&quot; too',
      },
    );
    const note = got.data.find((h: any) => h.kind === 'notification');
    assert.equal(
      note.snippet,
      'mentioned\n<mark>Launch</mark> review today',
      'the headline (its placeholders with no data left out), then the body',
    );
    assert.equal(note.userId, 'actor');
    assert.equal(note.documentId, 'd1');
    // Scores order the page: every hit of a better-matching query is there on /v2 too.
    const v2got = await search(t.a, { organizationId: org, query: 'launch' }, v2(P.searchGet));
    assert.deepEqual(keys(v2got.data), keys(got.data));
  });

  test('html is indexed as its text, accents and case aside; CJK runs match from their start', async () => {
    const org = await world();
    // The tags of commentHtml are not words; its text is.
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: 'bold' })).data), ['d1/a2/1']);
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: 'p' })).data), []);
    const cafe = (await search(t.a, { organizationId: org, query: 'CAFE' })).data;
    assert.deepEqual(keys(cafe).sort(), ['d1/a1/2', 'd1/a2/1']);
    assert.equal(cafe.find((h: any) => h.annotationId === 'a2').snippet, 'Un <mark>café</mark> crème, bold and launch');
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: 'crême' })).data), ['d1/a2/1']);
    // Neither database segments CJK: a run is one word, found by its beginning.
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: '日本' })).data), ['d2/a3/1']);
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: 'テキスト' })).data), []);
    // Every word must be there.
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: 'launch friday' })).data), ['d1/a1/1']);
  });

  test('operators of FTS5 and tsquery are plain words or separators, never errors', async () => {
    const org = await world();
    for (const query of [
      '"launch',
      'launch*',
      'NEAR(launch date)',
      'launch:*',
      "launch' | !x",
      '(launch) AND -date',
      'launch & date <-> x',
      '^launch',
      'col:launch',
    ]) {
      const got = await t.a.post(P.searchGet, { organizationId: org, query });
      assert.equal(got.status, 200, `${query}: ${got.body}`);
    }
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: '"launch" AND "date"' })).data), []);
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: '(launch) date*' })).data), ['d1/a1/1']);
  });

  test('filters: kinds, documents, folder subtree, authors, time range', async () => {
    const org = await world();
    const q = (f: Record<string, unknown>) =>
      search(t.a, { organizationId: org, query: 'launch', ...f }).then((r) => keys(r.data).sort());
    assert.deepEqual(
      await q({ kinds: ['notification'] }),
      (await q({})).filter((k) => k.startsWith('n:')),
    );
    assert.deepEqual(await q({ kinds: ['comment'], documentIds: ['d2'] }), ['d2/a3/1']);
    assert.deepEqual(await q({ kinds: ['comment'], folderIds: ['top'] }), ['d2/a3/1']);
    assert.deepEqual(await q({ kinds: ['comment'], userIds: ['bo'] }), ['d1/a1/2', 'd1/a2/1']);
    const all = (await search(t.a, { organizationId: org, query: 'launch', kinds: ['comment'] })).data;
    const a3 = all.find((h: any) => h.annotationId === 'a3').time;
    assert.deepEqual(await q({ kinds: ['comment'], createdAfter: a3 }), ['d2/a3/1']);
    assert.deepEqual(await q({ kinds: ['comment'], createdBefore: a3 - 1 }), ['d1/a1/1', 'd1/a1/2', 'd1/a2/1']);
  });

  test('pages: tokens walk every hit once; a token is for its own query', async () => {
    const org = await world();
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const got = await search(t.a, { organizationId: org, query: 'launch', pageSize: 2, ...(pageToken ? { pageToken } : {}) });
      assert.ok(got.data.length <= 2);
      seen.push(...keys(got.data));
      pageToken = got.nextPageToken;
    } while (pageToken);
    assert.equal(seen.length, 5);
    assert.equal(new Set(seen).size, 5);
    const first = await search(t.a, { organizationId: org, query: 'launch', pageSize: 2 });
    expectError(
      await t.a.post(P.searchGet, { organizationId: org, query: 'date', pageToken: first.nextPageToken }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await t.a.post(P.searchGet, { organizationId: org, query: 'launch', pageToken: 'junk!' }),
      400,
      'INVALID_ARGUMENT',
    );
  });

  test('the index follows edits, deletes and erasure in the same transaction', async () => {
    const org = await world();
    await t.a.ok(P.commentsUpdate, {
      organizationId: org,
      documentId: 'd1',
      annotationId: 'a1',
      commentIds: [1],
      updatedData: { commentText: 'rescheduled to Monday' },
    });
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: 'monday' })).data), ['d1/a1/1']);
    assert.ok(!keys((await search(t.a, { organizationId: org, query: 'friday' })).data).length);
    await t.a.ok(P.annotationsDelete, { organizationId: org, documentId: 'd2', annotationIds: ['a3'] });
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: '日本' })).data), []);
    assert.equal((await t.a.post(P.userDataDelete, { organizationIds: [org], userIds: ['bo'] })).status, 202);
    const bold = async () => keys((await search(t.a, { organizationId: org, query: 'bold' })).data);
    await eventually('the erasure', async () => (await bold()).length === 0);
  });

  test("a notification's headline is found as a reader sees it, and follows notifications/update", async () => {
    const org = uniq('org');
    now += 1000;
    await t.a.ok(
      P.notificationsAdd,
      notificationData(org, {
        notificationId: 'n-budget',
        displayHeadlineMessageTemplate: '{actionUser} assigned {task} to {nobody} you',
        displayHeadlineMessageTemplateData: { actionUser: { userId: 'zoe', name: 'Zoë Ander' }, task: 'Budget <review>' },
        displayBodyMessage: 'Due on Friday',
      }),
    );
    const snippets = async (query: string) =>
      (await search(t.a, { organizationId: org, query })).data.map((h: any) => `${h.notificationId}: ${h.snippet}`);
    const headline = 'Zoë Ander assigned Budget &lt;review&gt; to you';
    assert.deepEqual(await snippets('zoe'), [
      `n-budget: <mark>Zoë</mark> Ander assigned Budget &lt;review&gt; to you\nDue on Friday`,
    ]);
    assert.deepEqual(await snippets('review friday'), [
      `n-budget: Zoë Ander assigned Budget &lt;<mark>review</mark>&gt; to you\nDue on <mark>Friday</mark>`,
    ]);
    assert.deepEqual(await snippets('nobody'), [], 'a placeholder without data is no word of the text');
    assert.deepEqual(await snippets('actionuser'), [], 'nor a filled one');
    await t.a.ok(P.notificationsUpdate, {
      organizationId: org,
      notifications: [{ id: 'n-budget', displayHeadlineMessageTemplate: '{actionUser} closed {task}' }],
    });
    assert.deepEqual(await snippets('closed'), ['n-budget: Zoë Ander <mark>closed</mark> Budget &lt;review&gt;\nDue on Friday']);
    assert.deepEqual(await snippets('assigned'), [], `the old headline (${headline}) is found no more`);
  });

  test('a deleted organization is found no more, and an organization made again under its id is found anew', async () => {
    const org = await world();
    await t.a.ok(P.organizationsDelete, { organizationIds: [org] });
    assert.deepEqual((await search(t.a, { organizationId: org, query: 'launch' })).data, []);
    await t.a.ok(P.annotationsAdd, {
      organizationId: org,
      documentId: 'd9',
      commentAnnotations: [{ annotationId: 'again', commentData: [{ commentText: 'Launch again', from: user('ana') }] }],
    });
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: 'launch' })).data), ['d9/again/1']);
  });

  test('the index follows a document migration and retention', async () => {
    const org = await world();
    const started = await t.a.ok('/v2/organizations/documents/migrate', {
      organizationId: org,
      documentId: 'd1',
      newDocumentId: 'd9',
    });
    const worker = new MigrationWorker({ store: t.store, batchSize: 2, pollMs: 10, leaseMs: 5000 }).start();
    try {
      const migrationId = started.data.migrationId;
      const done = async () =>
        (await t.a.ok('/v2/organizations/documents/migrate/status', { organizationId: org, migrationId })).data.status ===
        'completed';
      await eventually('the migration', done, { ms: 60_000 });
    } finally {
      await worker.stop();
    }
    const comments = (await search(t.a, { organizationId: org, query: 'launch', kinds: ['comment'] })).data;
    assert.deepEqual(keys(comments).sort(), ['d2/a3/1', 'd9/a1/1', 'd9/a1/2', 'd9/a2/1']);
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: 'launch', documentIds: ['d1'] })).data), []);
    await t.a.ok(P.retentionSet, { organizationId: org, notificationsDays: 1, notificationsScope: 'all' });
    now += 2 * 86_400_000;
    await t.a.ok(P.retentionRun, { organizationId: org });
    assert.deepEqual((await search(t.a, { organizationId: org, query: 'launch', kinds: ['notification'] })).data, []);
  });

  test('the longest word a query may have is taken, in any script, and found', async () => {
    const org = await world();
    // 128 Hangul syllables: 384 letters decomposed, 1,152 bytes; the longest word PostgreSQL's index takes is 2,047.
    const long = '한'.repeat(128);
    assert.deepEqual((await search(t.a, { organizationId: org, query: long })).data, []);
    await t.a.ok(P.annotationsAdd, {
      organizationId: org,
      documentId: 'd1',
      commentAnnotations: [{ annotationId: 'long', commentData: [{ commentText: `${long} and more`, from: user('ana') }] }],
    });
    assert.deepEqual(keys((await search(t.a, { organizationId: org, query: long })).data), ['d1/long/1']);
  });

  test('refusals: 400 INVALID_ARGUMENT and nothing else', async () => {
    const org = await world();
    const refused = (data: Record<string, unknown>, says: RegExp) =>
      t.a
        .post(P.searchGet, data)
        .then((r: Reply) => assert.match(expectError(r, 400, 'INVALID_ARGUMENT', JSON.stringify(data)), says));
    await refused({ organizationId: org, query: '' }, /query/);
    await refused({ organizationId: org, query: '*** " () :' }, /no words/);
    await refused({ organizationId: org, query: 'x'.repeat(257) }, /MARGINALIA_SEARCH_MAX_QUERY_LENGTH/);
    await refused({ organizationId: org, query: Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ') }, /16 words/);
    await refused({ organizationId: org, query: `launch ${'한'.repeat(129)}` }, /longer than 128 characters/);
    await refused({ organizationId: org, query: 'a', pageSize: 101 }, /MARGINALIA_SEARCH_MAX_PAGE_SIZE/);
    await refused({ organizationId: org, query: 'a', kinds: ['thread'] }, /kinds/);
    await refused({ organizationId: org, query: 'a', createdAfter: 5, createdBefore: 4 }, /createdAfter/);
    await refused({ query: 'a' }, /organizationId/);
  });
});

describe('search/get: who sees what', () => {
  test("another tenant's search finds nothing of this one's", async () => {
    const org = await world(t.a);
    assert.deepEqual((await search(t.b, { organizationId: org, query: 'launch' })).data, []);
  });

  test('an end user: comments in the documents they name and may read, notifications of their own inbox', async () => {
    const org = await world();
    await t.a.ok(P.documentsAdd, { organizationId: org, documents: [{ documentId: 'locked' }] });
    await t.a.ok(P.annotationsAdd, {
      organizationId: org,
      documentId: 'locked',
      commentAnnotations: [{ annotationId: 's', commentData: [{ commentText: 'secret launch', from: user('ana') }] }],
    });
    await t.a.ok(P.documentsAccess, { organizationId: org, documentIds: ['locked'], accessType: 'restricted' });
    await t.a.ok(
      P.notificationsAdd,
      notificationData(org, { displayBodyMessage: 'launch for bo only', notifyUsers: [user('bo')] }),
    );
    const token = async (userId: string) =>
      (await t.a.ok(P.authTokenGet, { userId, userProperties: { organizationId: org, name: userId, email: `${userId}@x.test` } }))
        .data.token as string;
    const as = (tk: string, data: Record<string, unknown>) =>
      t.request(P.searchGet, { body: { data: { organizationId: org, ...data } }, headers: { authorization: `Bearer ${tk}` } });
    const ana = await token('ana');
    const mine = await as(ana, { query: 'launch', documentIds: ['d1', 'd2'] });
    assert.equal(mine.status, 200, mine.body);
    const hits = mine.json.result.data;
    assert.deepEqual(hits.filter((h: any) => h.kind === 'comment').length, 4);
    // ana's inbox: the review, not bo's.
    assert.deepEqual(
      hits.filter((h: any) => h.kind === 'notification').map((h: any) => h.snippet),
      ['mentioned\n<mark>Launch</mark> review today'],
    );
    const bo = await token('bo');
    const bos = await as(bo, { query: 'launch', kinds: ['notification'] });
    assert.deepEqual(
      bos.json.result.data.map((h: any) => h.snippet),
      ['mentioned\n<mark>launch</mark> for bo only'],
    );
    // Refused: no documents named, a restricted one, another inbox.
    expectError(await as(ana, { query: 'launch' }), 403, 'PERMISSION_DENIED');
    expectError(await as(ana, { query: 'launch', documentIds: ['locked'] }), 403, 'PERMISSION_DENIED');
    expectError(await as(ana, { query: 'launch', kinds: ['notification'], recipientUserId: 'bo' }), 403, 'PERMISSION_DENIED');
  });
});
