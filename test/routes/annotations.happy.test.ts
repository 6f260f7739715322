// Comment threads read, changed, deleted, counted and marked read: the successful paths of
// docs/api.md "Comment threads", "Per-item answers", "Members shown only when set" and "What does not exist". The
// clock is set by each test, so every "now" the server writes can be asserted exactly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ISO_MS, makeTestApp, PATHS, T0, type Caller, type TestApp } from '../helpers/app.js';
import { elements, js, notFound, RESOLVED, say, uniq } from '../helpers/threads.js';

let t: TestApp;
let now = T0;
/** Moves the server clock on (by a second unless told) and answers the new time. */
const tick = (ms = 1000) => (now += ms);

const OPEN = { id: 'OPEN', name: 'Open', type: 'default' };
/** An imported time (docs/api.md, "What an import keeps"), well before the test clock. */
const PAST = 1_600_000_000_000;
const BASE_KEYS = ['annotationId', 'comments', 'createdAt', 'from', 'lastUpdated', 'metadata', 'status', 'type'];
const OPTIONAL_KEYS = ['assignedTo', 'context', 'location', 'locationId', 'priority', 'targetElement'];
const COMMENT_KEYS = ['commentHtml', 'commentId', 'commentText', 'createdAt', 'from', 'lastUpdated', 'status', 'type'];

const sorted = <T>(xs: T[]) => [...xs].sort();
const iso = (ms: number) => new Date(ms).toISOString();
const profile = (userId: string) => ({ userId, name: `Name ${userId}`, email: `${userId}@example.com` });
const shown = (userId: string) => ({ email: `${userId}@example.com`, name: `Name ${userId}`, userId });
const annIds = (list: any[]) => list.map((x) => (x === null ? null : x.annotationId));
const commentIdsOf = (list: any[]) => list.map((x) => x.commentId);
/** The userId, name and email of a user object (its other members are open). */
const who = (u: any) => (u ? { userId: u.userId, name: u.name, email: u.email } : u);

async function addThreads(organizationId: string, documentId: string, commentAnnotations: any[], caller: Caller = t.a) {
  const r = await caller.ok(PATHS.annotationsAdd, { organizationId, documentId, commentAnnotations });
  for (const x of commentAnnotations) assert.equal(r.data[x.annotationId]?.success, true, `add ${x.annotationId}: ${js(r)}`);
  return r.data as Record<string, { commentIds: number[] }>;
}

async function getResult(organizationId: string, documentId: string, extra: Record<string, unknown> = {}, caller: Caller = t.a) {
  const r = await caller.ok(PATHS.annotationsGet, { organizationId, documentId, ...extra });
  assert.equal(r.message, 'Annotations fetched successfully.', js(r));
  assert.ok(Array.isArray(r.data), js(r));
  return r;
}

async function threads(organizationId: string, documentId: string, extra: Record<string, unknown> = {}, caller: Caller = t.a) {
  return (await getResult(organizationId, documentId, extra, caller)).data as any[];
}

async function thread(organizationId: string, documentId: string, annotationId: string, caller: Caller = t.a) {
  const list = await threads(organizationId, documentId, { annotationIds: [annotationId] }, caller);
  assert.equal(list.length, 1, js(list));
  return list[0];
}

async function comments(organizationId: string, documentId: string, annotationId: string, extra: Record<string, unknown> = {}) {
  return (await t.a.ok(PATHS.commentsGet, { organizationId, documentId, annotationId, ...extra })).data as any[];
}

async function expectThreadIds(
  org: string,
  doc: string,
  filters: Record<string, unknown>,
  want: (string | null)[],
  what: string,
) {
  const list = await threads(org, doc, filters);
  assert.deepEqual(annIds(list), want, `${what}: ${js(list)}`);
  return list;
}

async function count(organizationId: string, documentIds: string[], userId: string, extra: Record<string, unknown> = {}) {
  const r = await t.a.ok(PATHS.annotationsCount, { organizationId, documentIds, userId, ...extra });
  assert.equal(r.message, 'Comment count retrieved successfully.', js(r));
  return r.data;
}

async function markRead(organizationId: string, documentId: string, userId: string, extra: Record<string, unknown> = {}) {
  const r = await t.a.ok(PATHS.annotationsRead, { organizationId, documentId, userId, ...extra });
  assert.equal(r.message, 'Annotation(s) marked read.', js(r));
  return r.data;
}

describe('comment threads: happy paths', () => {
  before(async () => {
    t = await makeTestApp({ clock: () => now });
  });
  after(async () => {
    await t.close();
  });

  // ---- 10.1 What a thread reads as ----

  test('a thread has every required member; the optional ones are absent when never set', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [profile('p'), profile('q')] });
    const created = tick();
    const ids = await addThreads(org, 'doc', [{ annotationId: 'th', commentData: [say('first', 'p'), say('second', 'q')] }]);
    assert.deepEqual(ids.th!.commentIds, [1, 2]);
    tick();
    const r = await getResult(org, 'doc', { annotationIds: ['th'] });
    assert.equal(r.pageToken, undefined, `never paged with annotationIds: ${js(r)}`);
    assert.equal(r.data.length, 1, js(r));
    const th = r.data[0];
    assert.deepEqual(sorted(Object.keys(th)), BASE_KEYS, `members of a thread with nothing optional set: ${js(th)}`);
    assert.equal(th.annotationId, 'th');
    assert.equal(th.type, 'comment');
    assert.deepEqual(th.from, shown('p'), 'from is the first comment author, resolved like a comment from');
    assert.deepEqual(th.status, OPEN, 'the default status');
    assert.equal(th.createdAt, created, 'createdAt is the server time of the add');
    assert.equal(th.lastUpdated, created, 'lastUpdated is the creation time until something changes');
    assert.deepEqual(th.metadata, { apiKey: t.a.creds.apiKey, organizationId: org, documentId: 'doc' });
    assert.deepEqual(th.comments, await comments(org, 'doc', 'th'), 'comments read as comments/get shows them');
    assert.deepEqual(commentIdsOf(th.comments), [1, 2]);
    for (const c of th.comments) {
      assert.deepEqual(sorted(Object.keys(c)), COMMENT_KEYS, `no taggedUserContacts when never set: ${js(c)}`);
      assert.equal(c.createdAt, created, js(c));
      assert.equal(c.lastUpdated, iso(created), js(c));
      assert.equal(c.status, 'added');
      assert.equal(c.type, 'text');
    }
    assert.deepEqual(th.comments[1].from, shown('q'));
  });

  test('members set on add come back as sent; all of them at once', async () => {
    const org = uniq('org');
    const location = { page: 3, rect: [1, 2, 3, 4], nested: { a: null, b: 'x' } };
    const context = { section: 'intro', n: 1.5, flags: [true, false] };
    const priority = { id: 'P1', name: 'High', color: '#ff0000' };
    const targetElement = { elementId: 'el-7', selector: '#x > p:nth-child(2)', xpath: '/html/body/p[2]' };
    const status = { id: 'IN_REVIEW', name: 'In review', type: 'custom', color: 'blue' };
    const tags = [{ userId: 'm', text: '@m', contact: { userId: 'm', name: 'Sent M', email: 'sent-m@example.com' } }];
    await addThreads(org, 'doc', [
      {
        annotationId: 'full',
        location,
        locationId: 'loc-1',
        context,
        priority,
        targetElement,
        status,
        assignedTo: { userId: 'q', name: 'Sent Q', email: 'sent-q@example.com' },
        commentData: [say('hello @m', 'p', { taggedUserContacts: tags })],
      },
    ]);
    const th = await thread(org, 'doc', 'full');
    assert.deepEqual(sorted(Object.keys(th)), sorted([...BASE_KEYS, ...OPTIONAL_KEYS]), js(th));
    assert.deepEqual(th.location, location);
    assert.equal(th.locationId, 'loc-1');
    assert.deepEqual(th.context, context);
    assert.deepEqual(th.priority, priority);
    assert.deepEqual(th.targetElement, targetElement);
    assert.deepEqual(th.status, status, 'a custom status is kept as sent');
    assert.deepEqual(who(th.assignedTo), { userId: 'q', name: 'Sent Q', email: 'sent-q@example.com' }, 'no profile: as sent');
    const [c] = th.comments;
    assert.deepEqual(sorted(Object.keys(c)), sorted([...COMMENT_KEYS, 'taggedUserContacts']), js(c));
    assert.equal(c.taggedUserContacts.length, 1, js(c));
    assert.equal(c.taggedUserContacts[0].userId, 'm');
    assert.equal(c.taggedUserContacts[0].text, '@m');
    assert.deepEqual(who(c.taggedUserContacts[0].contact), { userId: 'm', name: 'Sent M', email: 'sent-m@example.com' });
  });

  test('from, assignedTo and taggedUserContacts[].contact resolve at read time (users/add, users/update)', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      {
        annotationId: 'r',
        assignedTo: { userId: 'q', name: 'Sent Q', email: 'sent-q@example.com' },
        commentData: [
          {
            commentText: 'x',
            from: { userId: 'p', name: 'Sent P', email: 'sent-p@example.com' },
            taggedUserContacts: [
              { userId: 'm', text: '@m', contact: { userId: 'm', name: 'Sent M', email: 'sent-m@example.com' } },
              { userId: 'n', contact: { userId: 'n' } },
            ],
          },
        ],
      },
    ]);
    let th = await thread(org, 'doc', 'r');
    assert.deepEqual(th.from, { email: 'sent-p@example.com', name: 'Sent P', userId: 'p' });
    assert.deepEqual(who(th.comments[0].taggedUserContacts[1].contact), { userId: 'n', name: '', email: '' }, 'nothing: ""');

    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [profile('p'), profile('q'), profile('m'), profile('n')] });
    // A profile of the same ids in another organization or tenant does not apply.
    await t.a.ok(PATHS.usersAdd, { organizationId: uniq('org'), users: [{ userId: 'p', name: 'Elsewhere' }] });
    await t.b.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'q', name: 'Tenant B' }] });
    th = await thread(org, 'doc', 'r');
    assert.deepEqual(th.from, shown('p'));
    assert.deepEqual(th.comments[0].from, shown('p'));
    assert.deepEqual(who(th.assignedTo), who(shown('q')));
    assert.deepEqual(who(th.comments[0].taggedUserContacts[0].contact), who(shown('m')));
    assert.deepEqual(who(th.comments[0].taggedUserContacts[1].contact), who(shown('n')));

    await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: [
        { userId: 'p', name: 'P Renamed' },
        { userId: 'q', email: 'q-new@example.com' },
        { userId: 'm', name: 'M Renamed', email: 'm-new@example.com' },
      ],
    });
    th = await thread(org, 'doc', 'r');
    assert.deepEqual(th.from, { email: 'p@example.com', name: 'P Renamed', userId: 'p' });
    assert.deepEqual(th.comments[0].from, th.from, 'the thread from and the comment from agree');
    assert.deepEqual(who(th.assignedTo), { userId: 'q', name: 'Name q', email: 'q-new@example.com' });
    assert.deepEqual(who(th.comments[0].taggedUserContacts[0].contact), {
      userId: 'm',
      name: 'M Renamed',
      email: 'm-new@example.com',
    });
    // The list mode resolves the same way.
    const [listed] = await threads(org, 'doc');
    assert.deepEqual(listed, th);
  });

  test('from is the author of the first comment in creation order, not of the smallest commentId', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      {
        annotationId: 'o',
        commentData: [say('later id first', 'first', { commentId: 9 }), say('small id', 'second', { commentId: 1 })],
      },
    ]);
    const th = await thread(org, 'doc', 'o');
    assert.equal(th.from.userId, 'first', js(th));
    assert.deepEqual(commentIdsOf(th.comments), [9, 1], 'creation order');
  });

  // ---- 10.3 commentannotations/get ----

  test('list mode: newest createdAt first, then annotationId descending; no pageToken when all fit', async () => {
    const org = uniq('org');
    const at = (annotationId: string, createdAt: number) => ({ annotationId, createdAt, commentData: [say(annotationId, 'p')] });
    await addThreads(org, 'doc', [
      at('a', PAST + 1000),
      at('c', PAST),
      at('b', PAST + 1000),
      at('d', PAST + 2000),
      at('e', PAST),
    ]);
    const r = await getResult(org, 'doc');
    assert.deepEqual(annIds(r.data), ['d', 'b', 'a', 'e', 'c'], js(r));
    assert.equal(r.pageToken, undefined, js(r));
    assert.equal(Object.hasOwn(r, 'pageToken'), false, `no pageToken member on the last page: ${js(r)}`);
    // Threads added later with server time are newer than all imported ones.
    tick();
    await addThreads(org, 'doc', [{ annotationId: 'A', commentData: [say('x', 'p')] }]);
    await expectThreadIds(org, 'doc', {}, ['A', 'd', 'b', 'a', 'e', 'c'], 'a new thread comes first');
    assert.deepEqual(await threads(org, 'no-such-doc'), [], 'a document without threads');
    assert.deepEqual(await threads(uniq('org'), 'doc'), [], 'an organization that does not exist');
  });

  test('ties on createdAt order by annotationId descending, comparing code units (case-sensitive)', async () => {
    const org = uniq('org');
    const names = ['a', 'B', 'Z', 'b', 'aa', 'A', '0', '_', '~'];
    await addThreads(
      org,
      'doc',
      names.map((annotationId) => ({ annotationId, createdAt: PAST, commentData: [say('x', 'p')] })),
    );
    const want = [...names].sort().reverse();
    assert.deepEqual(want, ['~', 'b', 'aa', 'a', '_', 'Z', 'B', 'A', '0']);
    await expectThreadIds(org, 'doc', {}, want, 'annotationId descending by code unit');
  });

  test('annotationId order beyond ASCII follows UTF-8 code units, as notifications do (docs/decisions.md)', async () => {
    const org = uniq('org');
    // UTF-8 code units (code point order): U+1F600 (F0 9F 98 80) > U+FF01 (EF BC 81) > é (C3 A9) > z.
    // UTF-16 code units would put U+FF01 first; the two orders differ only there.
    const names = ['\uff01', '😀', 'é', 'z'];
    await addThreads(
      org,
      'doc',
      names.map((annotationId) => ({ annotationId, createdAt: PAST, commentData: [say('x', 'p')] })),
    );
    await expectThreadIds(org, 'doc', {}, ['😀', '\uff01', 'é', 'z'], 'code unit order, descending');
    const seen: string[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < 10; i++) {
      const r = await getResult(org, 'doc', { pageSize: 1, ...(pageToken ? { pageToken } : {}) });
      seen.push(...annIds(r.data));
      pageToken = r.pageToken;
      if (!pageToken) break;
    }
    assert.deepEqual(seen, ['😀', '\uff01', 'é', 'z'], 'pages follow the same order');
  });

  describe('paging', () => {
    const org = `org-paging-${process.pid}`;
    let all: string[] = [];
    before(async () => {
      // Ties on createdAt across page boundaries, imported and server times mixed.
      const spec: [string, number][] = [
        ['t01', PAST],
        ['t02', PAST],
        ['t03', PAST + 5],
        ['t04', PAST + 5],
        ['t05', PAST + 5],
        ['t06', PAST + 9],
        ['T07', PAST + 5],
        ['t08', PAST - 1],
        ['t09', PAST + 9],
        ['t10', PAST],
      ];
      await addThreads(
        org,
        'doc',
        spec.map(([annotationId, createdAt], i) => ({
          annotationId,
          createdAt,
          locationId: i % 2 ? 'odd' : 'even',
          status: i % 3 ? OPEN : RESOLVED,
          commentData: [say(annotationId, i % 2 ? 'p' : 'q')],
        })),
      );
      all = annIds(await threads(org, 'doc'));
      assert.deepEqual(all, ['t09', 't06', 't05', 't04', 't03', 'T07', 't10', 't02', 't01', 't08']);
    });

    async function walk(filters: Record<string, unknown>, pageSize: number) {
      const seen: string[] = [];
      const pages: number[] = [];
      let pageToken: string | undefined;
      for (let guard = 0; guard < 50; guard++) {
        const r = await getResult(org, 'doc', { ...filters, pageSize, ...(pageToken ? { pageToken } : {}) });
        assert.ok(r.data.length <= pageSize, js(r));
        seen.push(...annIds(r.data));
        pages.push(r.data.length);
        if (r.pageToken === undefined) return { seen, pages };
        assert.equal(typeof r.pageToken, 'string', js(r));
        assert.ok(r.pageToken.length > 0, js(r));
        assert.equal(r.data.length, pageSize, `a page with a token after it is full: ${js(r)}`);
        pageToken = r.pageToken;
      }
      assert.fail('paging did not end');
    }

    for (const size of [1, 2, 3, 4, 5, 9, 10, 11, 1000]) {
      test(`pageSize ${size}: every thread exactly once, in order, no empty trailing page`, async () => {
        const { seen, pages } = await walk({}, size);
        assert.deepEqual(seen, all, `pages ${js(pages)}`);
        assert.equal(new Set(seen).size, seen.length, 'no thread twice');
        assert.equal(pages.length, Math.max(1, Math.ceil(all.length / size)), `pages ${js(pages)}`);
      });
    }

    test('paging with filters walks exactly the filtered list', async () => {
      for (const filters of [
        { locationIds: ['odd'] },
        { statusIds: ['OPEN'] },
        { userIds: ['q'] },
        { locationIds: ['odd', 'even'], statusIds: ['RESOLVED', 'OPEN'], userIds: ['p'] },
      ]) {
        const expected = annIds(await threads(org, 'doc', filters));
        assert.ok(expected.length > 1 && expected.length < all.length, js({ filters, expected }));
        for (const size of [1, 2, 3]) {
          assert.deepEqual((await walk(filters, size)).seen, expected, `${js(filters)} by ${size}`);
        }
      }
    });

    test('pageSize may change between pages; pageToken sits in result beside data', async () => {
      const first = await t.a.post(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageSize: 3 });
      assert.equal(first.status, 200, first.body);
      assert.deepEqual(sorted(Object.keys(first.json.result)), ['data', 'message', 'pageToken', 'status'], first.body);
      assert.equal(first.json.pageToken, undefined, 'never outside result');
      const second = await getResult(org, 'doc', { pageSize: 5, pageToken: first.json.result.pageToken });
      const third = await getResult(org, 'doc', { pageSize: 1000, pageToken: second.pageToken });
      assert.equal(third.pageToken, undefined);
      assert.deepEqual([...annIds(first.json.result.data), ...annIds(second.data), ...annIds(third.data)], all);
      // The same token can be used again (a token is a position, not a session).
      const again = await getResult(org, 'doc', { pageSize: 5, pageToken: first.json.result.pageToken });
      assert.deepEqual(annIds(again.data), annIds(second.data));
    });

    test('empty filter arrays and nulls are no filter for the token too (the same query)', async () => {
      const first = await getResult(org, 'doc', { pageSize: 4 });
      const next = await getResult(org, 'doc', {
        pageSize: 4,
        pageToken: first.pageToken,
        locationIds: [],
        userIds: [],
        statusIds: [],
        annotationIds: [],
      });
      assert.deepEqual(annIds(next.data), all.slice(4, 8), js(next));
      const firstEmpty = await getResult(org, 'doc', { pageSize: 4, locationIds: [], statusIds: null });
      const nextPlain = await getResult(org, 'doc', { pageSize: 4, pageToken: firstEmpty.pageToken });
      assert.deepEqual(annIds(nextPlain.data), all.slice(4, 8), js(nextPlain));
    });

    test('the default pageSize is 1000: ten threads in one page', async () => {
      const r = await getResult(org, 'doc');
      assert.equal(r.data.length, all.length);
      assert.equal(r.pageToken, undefined);
    });
  });

  test('the default pageSize is 1000: 1001 threads give a full page, a token, then the last one', async () => {
    const org = uniq('org');
    await addThreads(
      org,
      'doc',
      Array.from({ length: 1000 }, (_, i) => ({ annotationId: `k${String(i).padStart(4, '0')}`, commentData: [say('x', 'p')] })),
    );
    await addThreads(org, 'doc', [{ annotationId: 'k-old', createdAt: PAST, commentData: [say('x', 'p')] }]);
    const first = await getResult(org, 'doc');
    assert.equal(first.data.length, 1000);
    assert.equal(first.data[0].annotationId, 'k0999');
    assert.equal(typeof first.pageToken, 'string', 'more remain');
    const last = await getResult(org, 'doc', { pageToken: first.pageToken });
    assert.deepEqual(annIds(last.data), ['k-old']);
    assert.equal(last.pageToken, undefined);
    const max = await getResult(org, 'doc', { pageSize: 1000, statusIds: ['OPEN'] });
    assert.equal(max.data.length, 1000);
  });

  test('a token is a position: threads deleted or added between pages are neither repeated nor skip others', async () => {
    const org = uniq('org');
    await addThreads(
      org,
      'doc',
      [0, 1, 2, 3, 4, 5].map((i) => ({ annotationId: `s${i}`, createdAt: PAST + i, commentData: [say('x', 'p')] })),
    );
    const page1 = await getResult(org, 'doc', { pageSize: 2 });
    assert.deepEqual(annIds(page1.data), ['s5', 's4']);
    // The last one shown and the next one go; a newer thread arrives.
    await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['s4', 's3'] });
    await addThreads(org, 'doc', [{ annotationId: 's9', createdAt: PAST + 100, commentData: [say('x', 'p')] }]);
    const page2 = await getResult(org, 'doc', { pageSize: 2, pageToken: page1.pageToken });
    assert.deepEqual(annIds(page2.data), ['s2', 's1'], 'the walk goes on after the position of s4');
    const page3 = await getResult(org, 'doc', { pageSize: 2, pageToken: page2.pageToken });
    assert.deepEqual(annIds(page3.data), ['s0']);
    assert.equal(page3.pageToken, undefined);
  });

  test('annotationIds: one entry per id in the requested order, null for missing, other document, filtered', async () => {
    const org = uniq('org');
    await addThreads(org, 'd1', [
      { annotationId: 't1', locationId: 'l1', commentData: [say('1', 'p')] },
      { annotationId: 't2', locationId: 'l2', status: RESOLVED, commentData: [say('2', 'q')] },
    ]);
    await addThreads(org, 'd2', [{ annotationId: 't3', commentData: [say('3', 'p')] }]);
    await addThreads(uniq('org'), 'd1', [{ annotationId: 't4', commentData: [say('4', 'p')] }]);
    const r = await getResult(org, 'd1', { annotationIds: ['t2', 'ghost', 't1', 't3', 't4', 't2'] });
    assert.deepEqual(annIds(r.data), ['t2', null, 't1', null, null, 't2'], `repeats answer twice: ${js(r)}`);
    assert.deepEqual(r.data[0], r.data[5]);
    assert.equal(r.pageToken, undefined);
    await expectThreadIds(org, 'd1', { annotationIds: ['t1', 't2'], locationIds: ['l2'] }, [null, 't2'], 'failing locationIds');
    await expectThreadIds(org, 'd1', { annotationIds: ['t1', 't2'], userIds: ['p'] }, ['t1', null], 'failing userIds');
    await expectThreadIds(org, 'd1', { annotationIds: ['t2', 't1'], statusIds: ['OPEN'] }, [null, 't1'], 'failing statusIds');
    await expectThreadIds(org, 'd1', { annotationIds: ['ghost'] }, [null], 'only missing');
    await expectThreadIds(uniq('org'), 'd1', { annotationIds: ['t1', 't2'] }, [null, null], 'unknown organization');
  });

  test('annotationIds ignore pageSize; an empty annotationIds is no filter', async () => {
    const org = uniq('org');
    await addThreads(
      org,
      'doc',
      ['a', 'b', 'c'].map((annotationId) => ({ annotationId, createdAt: PAST, commentData: [say('x', 'p')] })),
    );
    const r = await getResult(org, 'doc', { annotationIds: ['a', 'b', 'c'], pageSize: 1 });
    assert.deepEqual(annIds(r.data), ['a', 'b', 'c'], js(r));
    assert.equal(r.pageToken, undefined, js(r));
    const empty = await getResult(org, 'doc', { annotationIds: [], pageSize: 2 });
    assert.deepEqual(annIds(empty.data), ['c', 'b'], `[] lists (and pages) like no filter: ${js(empty)}`);
    assert.equal(typeof empty.pageToken, 'string', js(empty));
    const rest = await getResult(org, 'doc', { annotationIds: [], pageSize: 2, pageToken: empty.pageToken });
    assert.deepEqual(annIds(rest.data), ['a']);
  });

  test('filters: locationIds, userIds (first author), statusIds, each alone and combined with AND', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      { annotationId: 't1', createdAt: PAST + 4, locationId: 'l1', commentData: [say('1', 'p')] },
      {
        annotationId: 't2',
        createdAt: PAST + 3,
        locationId: 'l1',
        status: RESOLVED,
        commentData: [say('2', 'q'), say('2b', 'p')],
      },
      { annotationId: 't3', createdAt: PAST + 2, locationId: 'l2', status: RESOLVED, commentData: [say('3', 'p')] },
      { annotationId: 't4', createdAt: PAST + 1, commentData: [say('4', 'p'), say('4b', 'q')] },
    ]);
    await addThreads(org, 'other', [{ annotationId: 't5', locationId: 'l1', commentData: [say('5', 'p')] }]);
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['t1', 't2', 't3', 't4']],
      [{ locationIds: ['l1'] }, ['t1', 't2']],
      [{ locationIds: ['l2', 'l1'] }, ['t1', 't2', 't3']],
      [{ locationIds: ['nowhere'] }, []],
      [{ userIds: ['p'] }, ['t1', 't3', 't4']],
      [{ userIds: ['q'] }, ['t2']],
      [{ userIds: ['q', 'p'] }, ['t1', 't2', 't3', 't4']],
      [{ statusIds: ['RESOLVED'] }, ['t2', 't3']],
      [{ statusIds: ['OPEN'] }, ['t1', 't4']],
      [{ statusIds: ['Resolved'] }, []],
      [{ locationIds: ['l1'], userIds: ['p'] }, ['t1']],
      [{ locationIds: ['l1', 'l2'], statusIds: ['RESOLVED'] }, ['t2', 't3']],
      [{ locationIds: ['l1'], userIds: ['q'], statusIds: ['RESOLVED'] }, ['t2']],
      [{ locationIds: ['l1'], userIds: ['q'], statusIds: ['OPEN'] }, []],
      [{ userIds: ['q'], statusIds: ['OPEN'] }, []],
      [{ locationIds: [], userIds: [], statusIds: [], annotationIds: [] }, ['t1', 't2', 't3', 't4']],
      [{ locationIds: ['l1', 'l1'], userIds: ['p', 'p'] }, ['t1']],
      [
        { locationIds: null, userIds: null, statusIds: null, annotationIds: null, pageSize: null, pageToken: null },
        ['t1', 't2', 't3', 't4'],
      ],
    ];
    for (const [filters, want] of cases) await expectThreadIds(org, 'doc', filters, want, js(filters));
    // userIds matches the first author only: q wrote the second comment of t4.
    await expectThreadIds(org, 'doc', { annotationIds: ['t4', 't2'], userIds: ['q'] }, [null, 't2'], 'first author only');
  });

  // ---- 10.4 commentannotations/update ----

  test('update: each member changes; lastUpdated moves to now; createdAt and other threads stay', async () => {
    const org = uniq('org');
    const old = { createdAt: PAST, lastUpdated: PAST + 1 };
    await addThreads(org, 'doc', [
      { annotationId: 't1', ...old, commentData: [say('1', 'p', { createdAt: PAST, lastUpdated: PAST })] },
      { annotationId: 't2', ...old, commentData: [say('2', 'p', { createdAt: PAST, lastUpdated: PAST })] },
    ]);
    const t2Before = await thread(org, 'doc', 't2');
    const changes: Record<string, unknown>[] = [
      { status: RESOLVED },
      { location: { page: 9 } },
      { locationId: 'moved' },
      { context: { k: 'v' } },
      { assignedTo: { userId: 'as', name: 'Assignee', email: 'as@example.com' } },
      { priority: { id: 'P2', name: 'Medium' } },
      { targetElement: { elementId: 'el-1' } },
    ];
    const expected: Record<string, unknown> = {};
    for (const updatedData of changes) {
      const when = tick();
      const r = await t.a.ok(PATHS.annotationsUpdate, {
        organizationId: org,
        documentId: 'doc',
        annotationIds: ['t1'],
        updatedData,
      });
      assert.equal(r.message, 'Annotations updated successfully.', js(r));
      assert.deepEqual(r.data, { t1: { success: true, id: 't1', message: 'Annotations updated successfully' } }, js(r));
      Object.assign(expected, updatedData);
      const th = await thread(org, 'doc', 't1');
      for (const [k, v] of Object.entries(expected)) {
        if (k === 'assignedTo') assert.deepEqual(who(th[k]), v, `${k} after ${js(updatedData)}: ${js(th)}`);
        else assert.deepEqual(th[k], v, `${k} after ${js(updatedData)}: ${js(th)}`);
      }
      assert.equal(th.createdAt, PAST, 'createdAt unchanged');
      assert.equal(th.lastUpdated, when, `lastUpdated moves to now after ${js(updatedData)}`);
      assert.deepEqual(
        th.comments.map((c: any) => [c.status, c.lastUpdated]),
        [['added', iso(PAST)]],
        'comments are not touched',
      );
    }
    assert.deepEqual(await thread(org, 'doc', 't2'), t2Before, 't2 was not listed');
  });

  test('update: several members at once; null clears an optional member (absent afterwards, 14.1)', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      {
        annotationId: 'full',
        location: { l: 1 },
        locationId: 'loc',
        context: { c: 1 },
        assignedTo: { userId: 'as' },
        priority: { id: 'P1' },
        targetElement: { e: 1 },
        status: RESOLVED,
        commentData: [say('x', 'p')],
      },
    ]);
    const when = tick();
    const r = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['full'],
      updatedData: { location: null, locationId: null, context: null, assignedTo: null, priority: null, targetElement: null },
    });
    assert.deepEqual(r.data.full, { success: true, id: 'full', message: 'Annotations updated successfully' });
    const th = await thread(org, 'doc', 'full');
    assert.deepEqual(sorted(Object.keys(th)), BASE_KEYS, `every optional member cleared: ${js(th)}`);
    assert.deepEqual(th.status, RESOLVED, 'status untouched when not named');
    assert.equal(th.lastUpdated, when);
    // Cleared members no longer match their filters; set again they do.
    await expectThreadIds(org, 'doc', { locationIds: ['loc'] }, [], 'locationId cleared');
    await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['full'],
      updatedData: { locationId: 'again', status: OPEN, priority: { id: 'P3' } },
    });
    const back = await thread(org, 'doc', 'full');
    assert.deepEqual(
      [back.locationId, back.status, back.priority, 'context' in back],
      ['again', OPEN, { id: 'P3' }, false],
      js(back),
    );
    await expectThreadIds(org, 'doc', { locationIds: ['again'], statusIds: ['OPEN'] }, ['full'], 'new values filter');
  });

  test('update: an unmatched requested id, or one failing another filter, gets "Annotation not found."', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      { annotationId: 't1', locationId: 'l1', commentData: [say('1', 'p')] },
      { annotationId: 't2', locationId: 'l2', commentData: [say('2', 'q')] },
      { annotationId: 't3', locationId: 'l1', commentData: [say('3', 'q')] },
    ]);
    await addThreads(org, 'other', [{ annotationId: 't4', commentData: [say('4', 'p')] }]);
    const updated = (id: string) => ({ success: true, id, message: 'Annotations updated successfully' });
    const r = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['t1', 'ghost', 't2', 't3', 't4'],
      locationIds: ['l1'],
      userIds: ['p', 'q'],
      updatedData: { priority: { id: 'P1' } },
    });
    assert.equal(r.message, 'Annotations updated successfully.');
    assert.deepEqual(
      r.data,
      { t1: updated('t1'), ghost: notFound('ghost'), t2: notFound('t2'), t3: updated('t3'), t4: notFound('t4') },
      js(r),
    );
    const [t1, t2, t3] = await threads(org, 'doc', { annotationIds: ['t1', 't2', 't3'] });
    assert.deepEqual([t1.priority, 'priority' in t2, t3.priority], [{ id: 'P1' }, false, { id: 'P1' }], js([t1, t2, t3]));
    assert.equal('priority' in (await thread(org, 'other', 't4')), false, 'another document is not touched');
    // userIds filter fails for an existing id: not found.
    const byUser = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['t1', 't2'],
      userIds: ['q'],
      updatedData: { context: { by: 'q' } },
    });
    assert.deepEqual(byUser.data, { t1: notFound('t1'), t2: updated('t2') }, js(byUser));
    // Only ghosts: still a success response, nothing changes.
    const ghosts = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['g1', 'g2'],
      updatedData: { status: RESOLVED },
    });
    assert.deepEqual(ghosts.data, { g1: notFound('g1'), g2: notFound('g2') });
    await expectThreadIds(org, 'doc', { statusIds: ['RESOLVED'] }, [], 'nothing resolved');
  });

  test('update: filters pick threads; no filters (or empty ones) change every thread of the document', async () => {
    const org = uniq('org');
    await addThreads(org, 'd', [
      { annotationId: 't1', locationId: 'l1', commentData: [say('1', 'p')] },
      { annotationId: 't2', locationId: 'l2', commentData: [say('2', 'q'), say('2b', 'p')] },
      { annotationId: 't3', locationId: 'l2', commentData: [say('3', 'p'), say('3b', 'q')] },
    ]);
    await addThreads(org, 'other', [{ annotationId: 't1', locationId: 'l1', commentData: [say('x', 'p')] }]);
    await addThreads(uniq('org'), 'd', [{ annotationId: 't1', locationId: 'l1', commentData: [say('x', 'p')] }]);
    const byLoc = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'd',
      locationIds: ['l1'],
      updatedData: { priority: { id: 'P1' } },
    });
    assert.deepEqual(byLoc.data, { t1: { success: true, id: 't1', message: 'Annotations updated successfully' } }, js(byLoc));
    const byUser = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'd',
      userIds: ['q'],
      updatedData: { context: { by: 'q' } },
    });
    assert.deepEqual(Object.keys(byUser.data), ['t2'], `userIds is the first author: ${js(byUser)}`);
    const both = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'd',
      locationIds: ['l2'],
      userIds: ['p'],
      updatedData: { targetElement: { e: 3 } },
    });
    assert.deepEqual(Object.keys(both.data), ['t3'], js(both));
    const none = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'd',
      locationIds: ['nowhere'],
      updatedData: { status: RESOLVED },
    });
    assert.deepEqual(none.data, {}, `nothing matched, nothing reported: ${js(none)}`);
    const when = tick();
    const all = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'd',
      annotationIds: [],
      locationIds: [],
      userIds: [],
      updatedData: { status: RESOLVED },
    });
    assert.deepEqual(sorted(Object.keys(all.data)), ['t1', 't2', 't3'], js(all));
    for (const id of ['t1', 't2', 't3']) {
      assert.deepEqual(all.data[id], { success: true, id, message: 'Annotations updated successfully' });
    }
    for (const th of await threads(org, 'd')) {
      assert.deepEqual(th.status, RESOLVED);
      assert.equal(th.lastUpdated, when);
    }
    const noFilter = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'd',
      updatedData: { locationId: 'z' },
    });
    assert.deepEqual(sorted(Object.keys(noFilter.data)), ['t1', 't2', 't3'], js(noFilter));
    assert.deepEqual((await thread(org, 'other', 't1')).status, OPEN, 'another document is not touched');
    assert.equal((await thread(org, 'other', 't1')).locationId, 'l1');
  });

  // ---- 10.5 commentannotations/delete ----

  test('delete: threads go with their comments; comments/add afterwards is NOT_FOUND; the id is free again', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      { annotationId: 't1', commentData: [say('1', 'p'), say('1b', 'q')] },
      { annotationId: 't2', commentData: [say('2', 'p')] },
    ]);
    await addThreads(org, 'other', [{ annotationId: 't1', commentData: [say('o', 'p')] }]);
    const r = await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['t1', 'ghost'] });
    assert.equal(r.message, 'Annotations deleted successfully.', js(r));
    assert.deepEqual(
      r.data,
      {
        t1: { success: true, id: 't1', message: 'Deleted Successfully' },
        ghost: { success: false, id: 'ghost', message: 'Annotation not found.' },
      },
      js(r),
    );
    await expectThreadIds(org, 'doc', { annotationIds: ['t1', 't2'] }, [null, 't2'], 'after delete');
    await expectThreadIds(org, 'doc', {}, ['t2'], 'list after delete');
    assert.deepEqual(await comments(org, 'doc', 't1'), [], 'its comments are gone');
    const late = await t.a.post(PATHS.commentsAdd, {
      organizationId: org,
      documentId: 'doc',
      annotationId: 't1',
      commentData: [say('late', 'p')],
    });
    assert.equal(late.status, 404, late.body);
    assert.equal(late.json?.error?.status, 'NOT_FOUND', late.body);
    assert.equal((await thread(org, 'other', 't1')).comments.length, 1, 'the same id in another document stays');
    // Deleting again: not found.
    const again = await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['t1'] });
    assert.deepEqual(again.data, { t1: { success: false, id: 't1', message: 'Annotation not found.' } });
    // The id can be used again and starts a fresh thread.
    const re = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [{ annotationId: 't1', commentData: [say('new', 'r')] }],
    });
    assert.equal(re.data.t1.success, true, js(re));
    assert.deepEqual(re.data.t1.commentIds, [1], js(re));
    assert.deepEqual(
      (await comments(org, 'doc', 't1')).map((c) => c.commentText),
      ['new'],
    );
  });

  test('delete: filters pick threads; a listed id failing a filter is not found; no filters: the whole document', async () => {
    const org = uniq('org');
    await addThreads(org, 'd', [
      { annotationId: 't1', locationId: 'l1', commentData: [say('1', 'p')] },
      { annotationId: 't2', locationId: 'l2', commentData: [say('2', 'p')] },
      { annotationId: 't3', locationId: 'l2', commentData: [say('3', 'q')] },
      { annotationId: 't4', locationId: 'l1', commentData: [say('4', 'q')] },
    ]);
    await addThreads(org, 'other', [{ annotationId: 't1', commentData: [say('o', 'p')] }]);
    const otherOrg = uniq('org');
    await addThreads(otherOrg, 'd', [{ annotationId: 't1', commentData: [say('o', 'p')] }]);
    const some = await t.a.ok(PATHS.annotationsDelete, {
      organizationId: org,
      documentId: 'd',
      locationIds: ['l2'],
      userIds: ['q'],
    });
    assert.deepEqual(some.data, { t3: { success: true, id: 't3', message: 'Deleted Successfully' } }, js(some));
    const listed = await t.a.ok(PATHS.annotationsDelete, {
      organizationId: org,
      documentId: 'd',
      annotationIds: ['t1', 't2'],
      locationIds: ['l2'],
    });
    assert.deepEqual(
      listed.data,
      {
        t1: { success: false, id: 't1', message: 'Annotation not found.' },
        t2: { success: true, id: 't2', message: 'Deleted Successfully' },
      },
      js(listed),
    );
    const byUser = await t.a.ok(PATHS.annotationsDelete, {
      organizationId: org,
      documentId: 'd',
      annotationIds: ['t1'],
      userIds: ['q'],
    });
    assert.deepEqual(byUser.data, { t1: { success: false, id: 't1', message: 'Annotation not found.' } }, js(byUser));
    await expectThreadIds(org, 'd', {}, ['t4', 't1'], 'left');
    const none = await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'd', locationIds: ['nowhere'] });
    assert.deepEqual(none.data, {});
    const rest = await t.a.ok(PATHS.annotationsDelete, {
      organizationId: org,
      documentId: 'd',
      annotationIds: [],
      locationIds: [],
      userIds: [],
    });
    assert.deepEqual(
      rest.data,
      {
        t1: { success: true, id: 't1', message: 'Deleted Successfully' },
        t4: { success: true, id: 't4', message: 'Deleted Successfully' },
      },
      js(rest),
    );
    assert.deepEqual(await threads(org, 'd'), []);
    assert.deepEqual(await comments(org, 'd', 't4'), []);
    await expectThreadIds(org, 'other', {}, ['t1'], 'another document is not touched');
    await expectThreadIds(otherOrg, 'd', {}, ['t1'], 'another organization is not touched');
    const empty = await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'd' });
    assert.deepEqual(empty.data, {}, 'an empty document: nothing to report');
  });

  test('delete also removes read state and counts: a deleted thread is not counted', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      { annotationId: 't1', commentData: [say('1', 'p')] },
      { annotationId: 't2', commentData: [say('2', 'p')] },
    ]);
    assert.deepEqual(await count(org, ['doc'], 'u'), { doc: { total: 2, unread: 2 } });
    await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['t1'] });
    assert.deepEqual(await count(org, ['doc'], 'u'), { doc: { total: 1, unread: 1 } });
  });

  // ---- 10.6 count/get and 10.7 read ----

  test('count: total and unread per document; zeros for unknown documents; statusIds filters both', async () => {
    const org = uniq('org');
    await addThreads(org, 'd1', [
      { annotationId: 't1', commentData: [say('by p', 'p')] },
      { annotationId: 't2', commentData: [say('by u', 'u')] },
      { annotationId: 't3', commentData: [say('by u', 'u'), say('then p', 'p')] },
      { annotationId: 't4', status: RESOLVED, commentData: [say('by p', 'p')] },
      { annotationId: 't5', status: RESOLVED, commentData: [say('by u', 'u')] },
    ]);
    await addThreads(org, 'd2', [{ annotationId: 't6', commentData: [say('by u', 'u')] }]);
    assert.deepEqual(
      await count(org, ['d1', 'd2', 'unknown'], 'u'),
      { d1: { total: 5, unread: 3 }, d2: { total: 1, unread: 0 }, unknown: { total: 0, unread: 0 } },
      'never read: a thread with a comment by someone else is unread',
    );
    assert.deepEqual(await count(org, ['d1'], 'u', { statusIds: ['OPEN'] }), { d1: { total: 3, unread: 2 } });
    assert.deepEqual(await count(org, ['d1'], 'u', { statusIds: ['RESOLVED'] }), { d1: { total: 2, unread: 1 } });
    assert.deepEqual(await count(org, ['d1'], 'u', { statusIds: ['RESOLVED', 'OPEN'] }), { d1: { total: 5, unread: 3 } });
    assert.deepEqual(await count(org, ['d1', 'd2'], 'u', { statusIds: ['NONE'] }), {
      d1: { total: 0, unread: 0 },
      d2: { total: 0, unread: 0 },
    });
    assert.deepEqual(await count(org, ['d1'], 'u', { statusIds: [] }), { d1: { total: 5, unread: 3 } }, 'empty statusIds');
    assert.deepEqual(await count(org, ['d1'], 'p'), { d1: { total: 5, unread: 3 } }, 'for p: t2, t3 (u wrote first), t5');
    assert.deepEqual(await count(org, ['d1'], 'stranger'), { d1: { total: 5, unread: 5 } });
    assert.deepEqual(await count(uniq('org'), ['d1'], 'u'), { d1: { total: 0, unread: 0 } }, 'unknown organization');
    // After a status change the counts follow.
    await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'd1',
      annotationIds: ['t1'],
      updatedData: { status: RESOLVED },
    });
    assert.deepEqual(await count(org, ['d1'], 'u', { statusIds: ['RESOLVED'] }), { d1: { total: 3, unread: 2 } });
  });

  test('count: one entry per document in the order asked, any id written as JSON writes it', async () => {
    const org = uniq('org');
    const odd = ['quote " and \\ back', 'line\nbreak\u0001\u001f', 'ünï €', '😀 astral', '\u2028sep', '__proto__', '10', '2'];
    for (const documentId of odd) await addThreads(org, documentId, [{ annotationId: 't', commentData: [say('x', 'p')] }]);
    const asked = ['later', ...odd, 'later', '2', 'zero'];
    const r = await t.a.post(PATHS.annotationsCount, { organizationId: org, documentIds: asked, userId: 'u' });
    assert.equal(r.status, 200);
    const entries = ['later', ...odd, 'zero'].map((id) => {
      const n = id === 'later' || id === 'zero' ? 0 : 1;
      return `${JSON.stringify(id)}:${JSON.stringify({ total: n, unread: n })}`;
    });
    // The data member's text, byte for byte: the first time each id is asked, integer-like ids included.
    assert.ok(r.body.includes(`"data":{${entries.join(',')}}`), r.body);
  });

  test('a thread with no comments counts in total, never as unread', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [{ annotationId: 'e', commentData: [say('x', 'p')] }]);
    await t.a.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 'e' });
    assert.deepEqual(await count(org, ['doc'], 'u'), { doc: { total: 1, unread: 0 } });
  });

  test('unread compares comment createdAt by others with the read mark (now, or the newest comment)', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'th' };
    tick();
    await addThreads(org, 'doc', [{ annotationId: 'th', commentData: [say('by p', 'p')] }]);
    const unread = async (userId: string) => (await count(org, ['doc'], userId)).doc.unread;
    assert.equal(await unread('u'), 1, 'never read, a comment by someone else');
    assert.equal(await unread('p'), 0, 'own comments never make a thread unread');

    tick();
    assert.deepEqual(await markRead(org, 'doc', 'u'), { read: 1 });
    assert.equal(await unread('u'), 0, 'read');
    // A comment in the same millisecond as the mark is not later than it.
    await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [say('same ms', 'q')] });
    assert.equal(await unread('u'), 0, 'createdAt equal to the mark: still read');
    tick();
    await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [say('own', 'u')] });
    assert.equal(await unread('u'), 0, "the user's own new comment");
    // An imported comment whose createdAt is before the mark does not make it unread.
    tick();
    await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [say('imported', 'q', { createdAt: PAST })] });
    assert.equal(await unread('u'), 0, 'imported createdAt before the mark');
    // Editing an older comment by someone else does not either: createdAt is unchanged.
    tick();
    await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds: [1], updatedData: { commentText: 'edited' } });
    assert.equal(await unread('u'), 0, 'an edit is not a new comment');
    // A new comment by someone else after the mark: unread.
    tick();
    const [newId] = (await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [say('news', 'q')] })).data;
    assert.equal(await unread('u'), 1, 'a later comment by someone else');
    assert.equal(await unread('v'), 1, 'read state is per user');
    // Deleting that comment makes the thread read again.
    await t.a.ok(PATHS.commentsDelete, { ...where, commentIds: [newId] });
    assert.equal(await unread('u'), 0, 'the comment that made it unread is gone');
    // An imported comment dated after the mark is later than it.
    await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [say('future', 'q', { createdAt: now + 86_400_000 })] });
    assert.equal(await unread('u'), 1, 'createdAt after the mark');
    tick();
    await markRead(org, 'doc', 'u');
    assert.equal(await unread('u'), 0, 'marking read covers every comment the thread has, even one dated ahead');
  });

  test('read: per user; annotationIds picks threads; only existing threads of the document count', async () => {
    const org = uniq('org');
    await addThreads(
      org,
      'doc',
      ['t1', 't2', 't3'].map((id) => ({ annotationId: id, commentData: [say(id, 'p')] })),
    );
    await addThreads(org, 'other', [{ annotationId: 't4', commentData: [say('t4', 'p')] }]);
    await addThreads(org, 'other', [{ annotationId: 't1', commentData: [say('t1 elsewhere', 'p')] }]);
    assert.deepEqual(await count(org, ['doc', 'other'], 'u'), { doc: { total: 3, unread: 3 }, other: { total: 2, unread: 2 } });
    tick();
    assert.deepEqual(
      await markRead(org, 'doc', 'u', { annotationIds: ['t1', 'ghost', 't4'] }),
      { read: 1 },
      'only t1 exists here',
    );
    assert.deepEqual(await count(org, ['doc', 'other'], 'u'), { doc: { total: 3, unread: 2 }, other: { total: 2, unread: 2 } });
    assert.deepEqual(await markRead(org, 'doc', 'u', { annotationIds: ['ghost'] }), { read: 0 });
    assert.deepEqual(await markRead(uniq('org'), 'doc', 'u'), { read: 0 }, 'unknown organization');
    assert.deepEqual(await markRead(org, 'empty-doc', 'u'), { read: 0 }, 'unknown document');
    const all = await markRead(org, 'doc', 'u', { annotationIds: [] });
    assert.ok(Number.isInteger(all.read) && all.read >= 2 && all.read <= 3, `[] is every thread of the document: ${js(all)}`);
    assert.deepEqual(await count(org, ['doc', 'other'], 'u'), { doc: { total: 3, unread: 0 }, other: { total: 2, unread: 2 } });
    assert.deepEqual(await count(org, ['doc'], 'v'), { doc: { total: 3, unread: 3 } }, 'another user: nothing read');
    assert.deepEqual(await markRead(org, 'other', 'v'), { read: 2 });
    assert.deepEqual(await count(org, ['doc', 'other'], 'v'), { doc: { total: 3, unread: 3 }, other: { total: 2, unread: 0 } });
  });

  test('read leaves lastUpdated alone; update, comments/add, /update and /delete move it', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'lu' };
    await addThreads(org, 'doc', [
      { annotationId: 'lu', createdAt: PAST, lastUpdated: PAST, commentData: [say('1', 'p', { createdAt: PAST })] },
    ]);
    await addThreads(org, 'doc', [
      { annotationId: 'bystander', createdAt: PAST, lastUpdated: PAST, commentData: [say('b', 'p')] },
    ]);
    const last = async () => (await thread(org, 'doc', 'lu')).lastUpdated;
    assert.equal(await last(), PAST);
    tick();
    await markRead(org, 'doc', 'u', { annotationIds: ['lu'] });
    await markRead(org, 'doc', 'v');
    assert.equal(await last(), PAST, 'read does not change lastUpdated');
    let when = tick();
    await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [say('2', 'q')] });
    assert.equal(await last(), when, 'comments/add');
    when = tick();
    await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds: [1], updatedData: { commentText: 'one' } });
    assert.equal(await last(), when, 'comments/update');
    when = tick();
    await t.a.ok(PATHS.commentsDelete, { ...where, commentIds: [2] });
    assert.equal(await last(), when, 'comments/delete');
    when = tick();
    await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['lu'],
      updatedData: { context: {} },
    });
    assert.equal(await last(), when, 'commentannotations/update');
    const th = await thread(org, 'doc', 'lu');
    assert.equal(th.createdAt, PAST, 'createdAt never moves');
    assert.equal((await thread(org, 'doc', 'bystander')).lastUpdated, PAST, 'another thread is not touched');
    // Changes that matched nothing change nothing.
    tick();
    await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds: [999], updatedData: { commentText: 'x' } });
    await t.a.ok(PATHS.commentsDelete, { ...where, commentIds: [999] });
    assert.equal(await last(), when, 'a comments/update or delete that matched no comment');
  });

  // ---- 10.8 comments/update ----

  test('comments/update commentText: html derived, status updated, lastUpdated now, createdAt kept, per-item', async () => {
    const org = uniq('org');
    const old = { createdAt: PAST, lastUpdated: PAST };
    const where = { organizationId: org, documentId: 'doc', annotationId: 'cu' };
    await addThreads(org, 'doc', [
      { annotationId: 'cu', ...old, commentData: [say('one', 'p', old), say('two', 'q', old), say('three', 'p', old)] },
    ]);
    const when = tick();
    const r = await t.a.ok(PATHS.commentsUpdate, {
      ...where,
      commentIds: [1, 77, 3],
      updatedData: { commentText: 'a < b & "c"' },
    });
    assert.equal(r.message, 'Comment updated successfully.', js(r));
    assert.deepEqual(
      r.data,
      {
        '1': { success: true, id: 1, message: 'Updated successfully' },
        '77': { success: false, id: 77, message: 'Not found' },
        '3': { success: true, id: 3, message: 'Updated successfully' },
      },
      js(r),
    );
    const [x, y, z] = await comments(org, 'doc', 'cu');
    for (const c of [x, z]) {
      assert.equal(c.commentText, 'a < b & "c"', js(c));
      assert.equal(c.commentHtml, '<p>a &lt; b &amp; &quot;c&quot;</p>', `html from text: ${js(c)}`);
      assert.equal(c.status, 'updated');
      assert.equal(c.lastUpdated, iso(when), 'comment lastUpdated is now, as ISO 8601');
      assert.match(c.lastUpdated, ISO_MS);
      assert.equal(c.createdAt, PAST, 'createdAt kept');
      assert.equal(c.type, 'text');
    }
    assert.equal(x.from.userId, 'p', 'from untouched');
    assert.deepEqual([y.commentText, y.status, y.lastUpdated, y.createdAt], ['two', 'added', iso(PAST), PAST], 'not listed');
    const th = await thread(org, 'doc', 'cu');
    assert.equal(th.lastUpdated, when, 'the thread follows its comments');
    assert.equal(th.createdAt, PAST);
    assert.deepEqual(th.comments, [x, y, z]);
  });

  test('comments/update commentHtml: sanitized, text derived; both given: both kept', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'h' };
    await addThreads(org, 'doc', [{ annotationId: 'h', commentData: [say('one', 'p'), say('two', 'p')] }]);
    await t.a.ok(PATHS.commentsUpdate, {
      ...where,
      commentIds: [1],
      updatedData: { commentHtml: '<p onclick="x()">Tom &amp; <b>Jerry</b><script>evil()</script></p>' },
    });
    let [x] = await comments(org, 'doc', 'h');
    assert.equal(x!.commentHtml, '<p>Tom &amp; <b>Jerry</b></p>');
    assert.equal(x!.commentText, 'Tom & Jerry', 'text derived from the new html');
    await t.a.ok(PATHS.commentsUpdate, {
      ...where,
      commentIds: [1, 2],
      updatedData: { commentHtml: '<p style="color:red">Both <em>given</em></p>', commentText: 'the plain version' },
    });
    const both = await comments(org, 'doc', 'h');
    for (const c of both) {
      assert.equal(c.commentHtml, '<p>Both <em>given</em></p>', js(c));
      assert.equal(c.commentText, 'the plain version', js(c));
      assert.equal(c.status, 'updated');
    }
    // Text only again: the html follows the text, not the old html.
    await t.a.ok(PATHS.commentsUpdate, {
      ...where,
      commentIds: [1],
      updatedData: { commentText: 'plain again', commentHtml: null },
    });
    [x] = await comments(org, 'doc', 'h');
    assert.equal(x!.commentHtml, '<p>plain again</p>');
    assert.equal(x!.commentText, 'plain again');
  });

  test('comments/update from: resolved; a new first author moves the thread from and the userIds filter', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'f' };
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [profile('p'), profile('r')] });
    await addThreads(org, 'doc', [{ annotationId: 'f', commentData: [say('1', 'p'), say('2', 'p')] }]);
    const when = tick();
    const r = await t.a.ok(PATHS.commentsUpdate, {
      ...where,
      commentIds: [1],
      updatedData: { from: { userId: 'r', name: 'Sent R', email: 'sent-r@example.com' } },
    });
    assert.deepEqual(r.data, { '1': { success: true, id: 1, message: 'Updated successfully' } });
    const th = await thread(org, 'doc', 'f');
    assert.deepEqual(th.comments[0].from, shown('r'), 'the profile wins over the name sent');
    assert.equal(th.comments[0].commentText, '1', 'text untouched');
    assert.equal(th.comments[0].status, 'updated');
    assert.equal(th.comments[0].lastUpdated, iso(when));
    assert.deepEqual(th.comments[1].from, shown('p'));
    assert.deepEqual(th.from, shown('r'), 'the thread from is the first comment author');
    await expectThreadIds(org, 'doc', { userIds: ['r'] }, ['f'], 'userIds follows the new first author');
    await expectThreadIds(org, 'doc', { userIds: ['p'] }, [], 'p is no longer the first author');
    // Without a profile the name and email sent are kept; with neither, "".
    await t.a.ok(PATHS.commentsUpdate, {
      ...where,
      commentIds: [2],
      updatedData: { from: { userId: 'np', name: 'No Profile' } },
    });
    assert.deepEqual((await comments(org, 'doc', 'f'))[1].from, { email: '', name: 'No Profile', userId: 'np' });
    // Writing never creates a profile.
    const upd = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'np' }] });
    assert.equal(upd.data.np.success, false, js(upd));
  });

  test('comments/update taggedUserContacts: set, replaced, and cleared with null', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'tg' };
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [profile('m')] });
    await addThreads(org, 'doc', [{ annotationId: 'tg', commentData: [say('hi', 'p'), say('there', 'p')] }]);
    await t.a.ok(PATHS.commentsUpdate, {
      ...where,
      commentIds: [1, 2],
      updatedData: {
        taggedUserContacts: [
          { userId: 'm', text: '@m', contact: { userId: 'm' } },
          { userId: 'n', text: '@n' },
        ],
      },
    });
    for (const c of await comments(org, 'doc', 'tg')) {
      assert.deepEqual(
        c.taggedUserContacts.map((x: any) => [x.userId, x.text]),
        [
          ['m', '@m'],
          ['n', '@n'],
        ],
        js(c),
      );
      assert.deepEqual(who(c.taggedUserContacts[0].contact), who(shown('m')), 'contact resolved from the profile');
      assert.equal(c.status, 'updated');
      assert.equal(c.commentText, c.commentId === 1 ? 'hi' : 'there', 'text untouched');
    }
    await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds: [2], updatedData: { taggedUserContacts: [{ userId: 'o' }] } });
    await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds: [1], updatedData: { taggedUserContacts: null } });
    const [x, y] = await comments(org, 'doc', 'tg');
    assert.equal('taggedUserContacts' in x!, false, `cleared with null: ${js(x)}`);
    assert.deepEqual(sorted(Object.keys(x!)), COMMENT_KEYS);
    assert.deepEqual(
      y!.taggedUserContacts.map((c: any) => c.userId),
      ['o'],
      'replaced, not merged',
    );
  });

  test('comments/update: every listed comment of 1000 changes in one request', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'many' };
    await addThreads(org, 'doc', [
      { annotationId: 'many', commentData: Array.from({ length: 1000 }, (_, i) => say(`c${i}`, 'p')) },
    ]);
    const commentIds = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    const r = await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds, updatedData: { commentText: 'same' } });
    assert.equal(Object.keys(r.data).length, 1000);
    assert.ok(Object.values(r.data).every((e: any) => e.success === true));
    assert.ok((await comments(org, 'doc', 'many')).every((c) => c.commentText === 'same' && c.status === 'updated'));
  });

  // ---- 10.9 comments/delete ----

  test('comments/delete: listed comments go, a missing id is reported, the thread stays, from follows', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'cd' };
    await addThreads(org, 'doc', [{ annotationId: 'cd', commentData: [say('1', 'p'), say('2', 'q'), say('3', 'r')] }]);
    const when = tick();
    const r = await t.a.ok(PATHS.commentsDelete, { ...where, commentIds: [2, 1000] });
    assert.equal(r.message, 'Comments(s) deleted successfully.', js(r));
    assert.deepEqual(
      r.data,
      {
        '2': { success: true, id: 2, message: 'Deleted successfully' },
        '1000': { success: false, id: 1000, message: 'Not found' },
      },
      js(r),
    );
    assert.deepEqual(commentIdsOf(await comments(org, 'doc', 'cd')), [1, 3]);
    let th = await thread(org, 'doc', 'cd');
    assert.deepEqual(commentIdsOf(th.comments), [1, 3]);
    assert.equal(th.lastUpdated, when);
    assert.equal(th.from.userId, 'p');
    await t.a.ok(PATHS.commentsDelete, { ...where, commentIds: [1] });
    th = await thread(org, 'doc', 'cd');
    assert.equal(th.from.userId, 'r', 'from is now the author of the first remaining comment');
    await expectThreadIds(org, 'doc', { userIds: ['r'] }, ['cd'], 'userIds follows');
    // Deleting again: not found.
    const again = await t.a.ok(PATHS.commentsDelete, { ...where, commentIds: [1] });
    assert.deepEqual(again.data, { '1': { success: false, id: 1, message: 'Not found' } });
  });

  test('no commentIds (or []) deletes every comment; the empty thread stays with from null', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      { annotationId: 'e1', locationId: 'L', commentData: [say('1', 'p'), say('2', 'q', { commentId: 7 }), say('3', 'p')] },
      { annotationId: 'e2', commentData: [say('1', 'p'), say('2', 'p')] },
    ]);
    const r = await t.a.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 'e1' });
    assert.deepEqual(
      r.data,
      {
        '1': { success: true, id: 1, message: 'Deleted successfully' },
        '7': { success: true, id: 7, message: 'Deleted successfully' },
        '8': { success: true, id: 8, message: 'Deleted successfully' },
      },
      `one entry per deleted comment: ${js(r)}`,
    );
    const r2 = await t.a.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 'e2', commentIds: [] });
    assert.deepEqual(sorted(Object.keys(r2.data)), ['1', '2'], js(r2));
    for (const id of ['e1', 'e2']) {
      assert.deepEqual(await comments(org, 'doc', id), []);
      const th = await thread(org, 'doc', id);
      assert.equal(th.from, null, `no comments: from null: ${js(th)}`);
      assert.deepEqual(th.comments, []);
      assert.ok('from' in th, 'from is present, as null');
    }
    await expectThreadIds(org, 'doc', {}, ['e2', 'e1'], 'empty threads stay');
    await expectThreadIds(org, 'doc', { userIds: ['p', 'q'] }, [], 'an empty thread matches no userIds filter');
    await expectThreadIds(org, 'doc', { locationIds: ['L'] }, ['e1'], 'other filters still match');
    const none = await t.a.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 'e1' });
    assert.deepEqual(none.data, {}, 'nothing left to delete');
    // An emptied thread takes comments again.
    const add = await t.a.ok(PATHS.commentsAdd, {
      organizationId: org,
      documentId: 'doc',
      annotationId: 'e1',
      commentData: [say('back', 'z')],
    });
    assert.equal(add.data.length, 1);
    assert.equal((await thread(org, 'doc', 'e1')).from.userId, 'z');
  });

  test('an emptied thread matches no userIds filter of update and delete either', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      { annotationId: 'empty', commentData: [say('x', 'p')] },
      { annotationId: 'full', commentData: [say('y', 'p')] },
    ]);
    await t.a.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 'empty' });
    const upd = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      userIds: ['p'],
      updatedData: { status: RESOLVED },
    });
    assert.deepEqual(Object.keys(upd.data), ['full'], js(upd));
    const listed = await t.a.ok(PATHS.annotationsDelete, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['empty'],
      userIds: ['p'],
    });
    assert.deepEqual(listed.data, { empty: { success: false, id: 'empty', message: 'Annotation not found.' } }, js(listed));
    const del = await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', userIds: ['p'] });
    assert.deepEqual(Object.keys(del.data), ['full'], js(del));
    await expectThreadIds(org, 'doc', {}, ['empty'], 'the empty thread stays');
  });

  test('comments/update and comments/delete touch only the named annotation of the named document', async () => {
    const org = uniq('org');
    const five = ['1', '2', '3', '4', '5'].map((x) => say(x, 'p'));
    await addThreads(org, 'doc', [
      { annotationId: 'small', commentData: [say('1', 'p'), say('2', 'p')] },
      { annotationId: 'big', commentData: five },
    ]);
    await addThreads(org, 'doc2', [{ annotationId: 'small', commentData: five }]);
    const where = { organizationId: org, documentId: 'doc', annotationId: 'small' };
    const upd = await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds: [2, 5], updatedData: { commentText: 'edited' } });
    assert.deepEqual(upd.data, {
      '2': { success: true, id: 2, message: 'Updated successfully' },
      '5': { success: false, id: 5, message: 'Not found' },
    });
    const del = await t.a.ok(PATHS.commentsDelete, { ...where, commentIds: [4, 1] });
    assert.deepEqual(del.data, {
      '4': { success: false, id: 4, message: 'Not found' },
      '1': { success: true, id: 1, message: 'Deleted successfully' },
    });
    assert.deepEqual(
      (await comments(org, 'doc', 'small')).map((c) => [c.commentId, c.commentText]),
      [[2, 'edited']],
    );
    for (const [doc, ann] of [
      ['doc', 'big'],
      ['doc2', 'small'],
    ] as const) {
      const list = await comments(org, doc, ann);
      assert.deepEqual(
        list.map((c) => [c.commentId, c.commentText, c.status]),
        five.map((c, i) => [i + 1, c.commentText, 'added']),
        `${doc}/${ann} untouched`,
      );
    }
  });

  test('a deleted thread takes its read marks along: a new thread with the same id is unread', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [{ annotationId: 'again', commentData: [say('x', 'p', { createdAt: PAST })] }]);
    tick();
    assert.deepEqual(await markRead(org, 'doc', 'u'), { read: 1 });
    assert.deepEqual(await count(org, ['doc'], 'u'), { doc: { total: 1, unread: 0 } });
    await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['again'] });
    await addThreads(org, 'doc', [{ annotationId: 'again', commentData: [say('y', 'p', { createdAt: PAST })] }]);
    assert.deepEqual(await count(org, ['doc'], 'u'), { doc: { total: 1, unread: 1 } }, 'never read: the old mark is gone');
  });

  test('null for optional members on add means absent', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [
      {
        annotationId: 'nulls',
        location: null,
        locationId: null,
        context: null,
        assignedTo: null,
        priority: null,
        targetElement: null,
        createdAt: null,
        lastUpdated: null,
        commentData: [say('x', 'p', { taggedUserContacts: null, createdAt: null, lastUpdated: null })],
      },
    ]);
    const th = await thread(org, 'doc', 'nulls');
    assert.deepEqual(sorted(Object.keys(th)), BASE_KEYS, js(th));
    assert.deepEqual(sorted(Object.keys(th.comments[0])), COMMENT_KEYS, js(th));
    assert.equal(th.createdAt, now, 'null createdAt: server time');
    assert.equal(th.comments[0].lastUpdated, iso(now));
  });

  // ---- 10.2 import fidelity ----

  test('given createdAt and lastUpdated are kept exactly on threads and comments; absent ones are server time', async () => {
    const org = uniq('org');
    const when = tick();
    await addThreads(org, 'doc', [
      {
        annotationId: 'both',
        createdAt: PAST,
        lastUpdated: PAST + 500,
        commentData: [
          say('a', 'p', { createdAt: PAST + 1, lastUpdated: PAST + 2 }),
          say('b', 'p', { createdAt: PAST + 3 }),
          say('c', 'p', { lastUpdated: PAST + 4 }),
          say('d', 'p'),
        ],
      },
      { annotationId: 'created-only', createdAt: PAST, commentData: [say('x', 'p')] },
      { annotationId: 'updated-only', lastUpdated: PAST, commentData: [say('x', 'p')] },
      { annotationId: 'none', commentData: [say('x', 'p')] },
    ]);
    const [both, createdOnly, updatedOnly, none] = await threads(org, 'doc', {
      annotationIds: ['both', 'created-only', 'updated-only', 'none'],
    });
    assert.deepEqual([both.createdAt, both.lastUpdated], [PAST, PAST + 500], js(both));
    assert.deepEqual(
      both.comments.map((c: any) => [c.createdAt, c.lastUpdated]),
      [
        [PAST + 1, iso(PAST + 2)],
        [PAST + 3, iso(when)],
        [when, iso(PAST + 4)],
        [when, iso(when)],
      ],
      js(both.comments),
    );
    assert.deepEqual([createdOnly.createdAt, createdOnly.lastUpdated], [PAST, when], js(createdOnly));
    assert.deepEqual([updatedOnly.createdAt, updatedOnly.lastUpdated], [when, PAST], js(updatedOnly));
    assert.deepEqual([none.createdAt, none.lastUpdated], [when, when], js(none));
    // Not given, a thread's lastUpdated is its latest change: here a comment's given lastUpdated.
    const later = when + 86_400_000;
    await addThreads(org, 'doc', [{ annotationId: 'later', commentData: [say('x', 'p', { lastUpdated: later })] }]);
    assert.equal((await thread(org, 'doc', 'later')).lastUpdated, later);
    assert.deepEqual(
      (await comments(org, 'doc', 'both')).map((c) => c.status),
      ['added', 'added', 'added', 'added'],
      'imported comments are still "added"',
    );
  });

  test('the limits 0 and 8640000000000000 are kept', async () => {
    const org = uniq('org');
    const MAX = 8_640_000_000_000_000;
    await addThreads(org, 'doc', [
      { annotationId: 'zero', createdAt: 0, lastUpdated: 0, commentData: [say('z', 'p', { createdAt: 0, lastUpdated: 0 })] },
    ]);
    const zero = await thread(org, 'doc', 'zero');
    assert.deepEqual([zero.createdAt, zero.lastUpdated], [0, 0], js(zero));
    assert.deepEqual([zero.comments[0].createdAt, zero.comments[0].lastUpdated], [0, '1970-01-01T00:00:00.000Z'], js(zero));
    await addThreads(org, 'doc', [
      {
        annotationId: 'max',
        createdAt: MAX,
        lastUpdated: MAX,
        commentData: [say('m', 'p', { createdAt: MAX, lastUpdated: MAX })],
      },
    ]);
    const max = await thread(org, 'doc', 'max');
    assert.deepEqual([max.createdAt, max.lastUpdated], [MAX, MAX], js(max));
    assert.deepEqual([max.comments[0].createdAt, max.comments[0].lastUpdated], [MAX, iso(MAX)], js(max));
    await expectThreadIds(org, 'doc', {}, ['max', 'zero'], 'ordered by the kept createdAt');
  });

  test('comments/add keeps createdAt, lastUpdated and taggedUserContacts too', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'ca' };
    await addThreads(org, 'doc', [{ annotationId: 'ca', commentData: [say('first', 'p')] }]);
    const when = tick();
    const r = await t.a.ok(PATHS.commentsAdd, {
      ...where,
      commentData: [
        say('old', 'q', { createdAt: PAST, lastUpdated: PAST + 9, taggedUserContacts: [{ userId: 'm', text: '@m' }] }),
        say('new', 'q'),
      ],
    });
    assert.deepEqual(r.data, [2, 3]);
    const [, old, fresh] = await comments(org, 'doc', 'ca');
    assert.deepEqual([old.createdAt, old.lastUpdated], [PAST, iso(PAST + 9)], js(old));
    assert.deepEqual(
      old.taggedUserContacts.map((x: any) => [x.userId, x.text]),
      [['m', '@m']],
    );
    assert.deepEqual([fresh.createdAt, fresh.lastUpdated, 'taggedUserContacts' in fresh], [when, iso(when), false], js(fresh));
  });

  test('taggedUserContacts of 100; assignedTo, priority, targetElement kept through comments and updates', async () => {
    const org = uniq('org');
    const tags = Array.from({ length: 100 }, (_, i) => ({ userId: `tag${i}`, text: `@tag${i}` }));
    await addThreads(org, 'doc', [
      {
        annotationId: 'tags',
        priority: { id: 'P0' },
        targetElement: { id: 't' },
        assignedTo: { userId: 'as' },
        commentData: [say('many', 'p', { taggedUserContacts: tags })],
      },
    ]);
    await t.a.ok(PATHS.commentsAdd, {
      organizationId: org,
      documentId: 'doc',
      annotationId: 'tags',
      commentData: [say('reply', 'q')],
    });
    await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['tags'],
      updatedData: { status: RESOLVED },
    });
    const th = await thread(org, 'doc', 'tags');
    assert.deepEqual(
      th.comments[0].taggedUserContacts.map((x: any) => x.userId),
      tags.map((x) => x.userId),
      'kept in order',
    );
    assert.deepEqual([th.priority, th.targetElement, th.assignedTo?.userId], [{ id: 'P0' }, { id: 't' }, 'as'], js(th));
  });

  // ---- 10.2 sanitizer additions ----

  test('sanitizer keeps div, img (absolute http/https src, alt, width, height) and span class/data-*', async () => {
    const org = uniq('org');
    const html =
      '<div>block <img src="https://img.example/a.png" alt="A pic" width="10" height="20"></div>' +
      '<div><img src="http://img.example/b.png"></div>' +
      '<p>Hi <span class="mention" data-user-id="u1" data-mention-type="user">@u1</span></p>';
    await addThreads(org, 'doc', [{ annotationId: 's', commentData: [{ commentHtml: html, from: { userId: 'p' } }] }]);
    const [c] = await comments(org, 'doc', 's');
    const els = elements(c.commentHtml);
    assert.deepEqual(
      els.map((e) => e.name),
      ['div', 'img', 'div', 'img', 'p', 'span'],
      c.commentHtml,
    );
    assert.deepEqual(
      els[1]!.attribs,
      { src: 'https://img.example/a.png', alt: 'A pic', width: '10', height: '20' },
      c.commentHtml,
    );
    assert.deepEqual(els[3]!.attribs, { src: 'http://img.example/b.png' }, c.commentHtml);
    assert.deepEqual(els[5]!.attribs, { class: 'mention', 'data-user-id': 'u1', 'data-mention-type': 'user' }, c.commentHtml);
    assert.equal(els[0]!.attribs && Object.keys(els[0]!.attribs).length, 0);
    assert.match(c.commentText, /block/);
    assert.match(c.commentText, /Hi\s*@u1/);
    // The same through comments/update.
    await t.a.ok(PATHS.commentsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationId: 's',
      commentIds: [1],
      updatedData: {
        commentHtml: '<span class="tag" data-id="9">#9</span><div><img src="https://x.example/y.gif" alt="y"></div>',
      },
    });
    const [u] = await comments(org, 'doc', 's');
    const uel = elements(u.commentHtml);
    assert.deepEqual(
      uel.map((e) => [e.name, e.attribs]),
      [
        ['span', { class: 'tag', 'data-id': '9' }],
        ['div', {}],
        ['img', { src: 'https://x.example/y.gif', alt: 'y' }],
      ],
      u.commentHtml,
    );
    assert.equal(u.commentText.trim(), '#9');
  });

  test('class and data-* are for span only; other elements lose them', async () => {
    const org = uniq('org');
    const html =
      '<div class="c" data-x="1" id="i" title="t">d</div><p class="c" data-x="1">p</p>' +
      '<a href="https://ok.example/" class="c" data-x="1" target="_blank">a</a>' +
      '<img src="https://ok.example/i.png" class="c" data-x="1" title="t">';
    await addThreads(org, 'doc', [{ annotationId: 's', commentData: [{ commentHtml: html, from: { userId: 'p' } }] }]);
    const [c] = await comments(org, 'doc', 's');
    assert.deepEqual(
      elements(c.commentHtml).map((e) => [e.name, e.attribs]),
      [
        ['div', {}],
        ['p', {}],
        ['a', { href: 'https://ok.example/' }],
        ['img', { src: 'https://ok.example/i.png' }],
      ],
      c.commentHtml,
    );
  });

  // ---- bounds that must be accepted ----

  test('bounds accepted: 1000 annotationIds, documentIds, commentIds and filter entries; ids of 256 code points', async () => {
    const org = uniq('org');
    const big = '😀'.repeat(256);
    await addThreads(org, big, [{ annotationId: big, locationId: big, commentData: [say('x', big)] }]);
    const many = (p: string) => Array.from({ length: 1000 }, (_, i) => (i === 999 ? big : `${p}${i}`));
    const got = await threads(org, big, {
      annotationIds: many('a'),
      locationIds: many('l'),
      userIds: many('u'),
      statusIds: Array.from({ length: 1000 }, (_, i) => (i ? `S${i}` : 'OPEN')),
    });
    assert.equal(got.length, 1000);
    assert.equal(got[999].annotationId, big);
    assert.ok(got.slice(0, 999).every((x) => x === null));
    const counted = await count(org, many('d'), big);
    assert.equal(Object.keys(counted).length, 1000);
    assert.deepEqual(counted[big], { total: 1, unread: 0 });
    assert.deepEqual(counted.d0, { total: 0, unread: 0 });
    assert.deepEqual(await markRead(org, big, 'reader', { annotationIds: many('a') }), { read: 1 });
    const upd = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: big,
      annotationIds: many('a'),
      updatedData: { locationId: big },
    });
    assert.equal(Object.keys(upd.data).length, 1000);
    assert.equal(upd.data[big].success, true);
    const cdel = await t.a.ok(PATHS.commentsDelete, {
      organizationId: org,
      documentId: big,
      annotationId: big,
      commentIds: Array.from({ length: 1000 }, (_, i) => i + 1),
    });
    assert.equal(Object.keys(cdel.data).length, 1000);
    assert.deepEqual(cdel.data['1'], { success: true, id: 1, message: 'Deleted successfully' });
    const del = await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: big, annotationIds: many('a') });
    assert.equal(Object.keys(del.data).length, 1000);
    assert.equal(del.data[big].success, true);
  });

  test('unknown members anywhere are ignored', async () => {
    const org = uniq('org');
    await addThreads(org, 'doc', [{ annotationId: 'u', commentData: [say('x', 'p')] }]);
    const where = { organizationId: org, documentId: 'doc', annotationId: 'u' };
    const extra = { foo: 1, includeDeleted: true, nested: { a: [1] } };
    await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', ...extra });
    await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      ...extra,
      updatedData: { status: RESOLVED, colour: 'red' },
    });
    await t.a.ok(PATHS.commentsUpdate, { ...where, ...extra, commentIds: [1], updatedData: { commentText: 'y', reactions: [] } });
    await t.a.ok(PATHS.annotationsCount, { organizationId: org, documentIds: ['doc'], userId: 'p', ...extra });
    await t.a.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'doc', userId: 'p', ...extra });
    const th = await thread(org, 'doc', 'u');
    assert.deepEqual(th.status, RESOLVED);
    assert.equal('colour' in th, false);
    assert.equal(th.comments[0].commentText, 'y');
    assert.equal('reactions' in th.comments[0], false);
    await t.a.ok(PATHS.commentsDelete, { ...where, ...extra });
    await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', ...extra });
    assert.deepEqual(await threads(org, 'doc'), []);
  });

  test("a thread's color and its status's: kept as sent, shown by reads, changed and cleared by update", async () => {
    const org = uniq('org');
    const status = { id: 'OPEN', name: 'Open', color: '#0000FF', type: 'default' };
    await addThreads(org, 'doc', [
      { annotationId: 'c1', color: '#00FF00', status, commentData: [say('x', 'p')] },
      { annotationId: 'c2', commentData: [say('y', 'p')] },
    ]);
    const [c1, c2] = await threads(org, 'doc', { annotationIds: ['c1', 'c2'] });
    assert.equal(c1.color, '#00FF00', js(c1));
    assert.deepEqual(c1.status, status, 'a status keeps its color and its key order');
    assert.equal('color' in c2, false, `never set: absent: ${js(c2)}`);
    tick();
    await t.a.ok(PATHS.commentsAdd, { organizationId: org, documentId: 'doc', annotationId: 'c1', commentData: [say('z', 'q')] });
    assert.equal((await thread(org, 'doc', 'c1')).color, '#00FF00', 'a comment appended keeps it');
    const upd = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['c2'],
      updatedData: { color: 'rgb(1, 2, 3)' },
    });
    assert.equal(upd.data.c2.success, true, js(upd));
    assert.equal((await thread(org, 'doc', 'c2')).color, 'rgb(1, 2, 3)');
    await t.a.ok(PATHS.annotationsUpdate, { organizationId: org, documentId: 'doc', updatedData: { color: null } });
    for (const th of await threads(org, 'doc')) assert.equal('color' in th, false, `null clears it: ${js(th)}`);
  });
});
