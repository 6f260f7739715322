// Pages of threads held in memory (services/thread-pages.ts, migration 11): a page read again is
// answered from memory, byte for byte, only while its document and its authors' profiles are as they
// were; every write of the document, made through another instance on the same database, shows on
// the very next read. Two apps share one database here, as two processes or hosts would.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { anotherInstance, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';
import { RESOLVED, say, uniq } from '../helpers/threads.js';

let t: TestApp;
/** The reading instance: its own app and store on t's database, counting the page reads it makes. */
let reader: { read(data: unknown, key?: 'a' | 'b'): Promise<string>; pageReads: number; close(): Promise<void> };

async function readingInstance(megabytes?: number): Promise<typeof reader> {
  let pageReads = 0;
  const counting = (store: Store) =>
    new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        if (name !== 'getAnnotations') return value.bind(target);
        return (...args: unknown[]) => {
          pageReads++;
          return value.apply(target, args);
        };
      },
    });
  const { app, store } = await anotherInstance(t.db, megabytes !== undefined ? { threadPageCacheMb: megabytes } : {}, counting);
  const self = {
    pageReads: 0,
    async read(data: unknown, key: 'a' | 'b' = 'a') {
      const creds = t[key].creds;
      const r = await app.inject({
        method: 'POST',
        url: PATHS.annotationsGet,
        headers: { 'x-service-api-key': creds.apiKey, 'x-service-auth-token': creds.authToken },
        payload: { data },
      });
      assert.equal(r.statusCode, 200, r.body);
      self.pageReads = pageReads;
      return r.body;
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
  return self;
}

before(async () => {
  t = await makeTestApp();
  reader = await readingInstance();
});
after(async () => {
  await reader.close();
  await t.close();
});

/** A document with two threads, by p (who has a profile) and q, written through t (the writing instance). */
async function document() {
  const where = { organizationId: uniq('org'), documentId: 'doc' };
  await t.a.ok(PATHS.usersAdd, { organizationId: where.organizationId, users: [{ userId: 'p', name: 'P' }] });
  await t.a.ok(PATHS.annotationsAdd, {
    ...where,
    commentAnnotations: [
      { annotationId: 'one', commentData: [say('first', 'p')] },
      { annotationId: 'two', commentData: [say('second', 'q')] },
    ],
  });
  return where;
}

/** Reads the page twice through the reader: the second from memory. Answers the body. */
async function held(where: object): Promise<string> {
  const first = await reader.read(where);
  const reads = reader.pageReads;
  assert.equal(await reader.read(where), first, 'the same bytes again');
  assert.equal(reader.pageReads, reads, 'from memory: no page read');
  return first;
}

const data = (body: string) => JSON.parse(body).result.data as any[];

describe('pages of threads held in memory', () => {
  test('a page read again while nothing changed is the same bytes, without a page read', async () => {
    const where = await document();
    const body = await held(where);
    assert.deepEqual(
      data(body).map((x) => x.annotationId),
      ['two', 'one'],
    );
    // Each filter set, page size, page and id list is its own page.
    const paged = await reader.read({ ...where, pageSize: 1 });
    assert.deepEqual(
      data(paged).map((x) => x.annotationId),
      ['two'],
    );
    const token = JSON.parse(paged).result.pageToken as string;
    assert.deepEqual(
      data(await reader.read({ ...where, pageSize: 1, pageToken: token })).map((x) => x.annotationId),
      ['one'],
    );
    assert.deepEqual(
      data(await reader.read({ ...where, annotationIds: ['one', 'none'] })).map((x) => x?.annotationId ?? null),
      ['one', null],
    );
    assert.deepEqual(
      data(await reader.read({ ...where, annotationIds: ['none', 'one'] })).map((x) => x?.annotationId ?? null),
      [null, 'one'],
    );
    assert.deepEqual(
      data(await reader.read({ ...where, userIds: ['q'] })).map((x) => x.annotationId),
      ['two'],
    );
    assert.equal(await reader.read(where), body, 'the whole page, still held');
  });

  const writes: [string, (where: { organizationId: string; documentId: string }) => Promise<unknown>, (page: any[]) => void][] = [
    [
      'a thread added',
      (w) => t.a.ok(PATHS.annotationsAdd, { ...w, commentAnnotations: [{ annotationId: 'three', commentData: [say('x')] }] }),
      (page) => assert.equal(page.length, 3),
    ],
    [
      'a comment added',
      (w) => t.a.ok(PATHS.commentsAdd, { ...w, annotationId: 'one', commentData: [say('reply', 'q')] }),
      (page) => assert.equal(page[1].comments.length, 2),
    ],
    [
      'a thread resolved',
      (w) => t.a.ok(PATHS.annotationsUpdate, { ...w, annotationIds: ['one'], updatedData: { status: RESOLVED } }),
      (page) => assert.deepEqual(page[1].status, RESOLVED),
    ],
    [
      'a thread deleted',
      (w) => t.a.ok(PATHS.annotationsDelete, { ...w, annotationIds: ['two'] }),
      (page) =>
        assert.deepEqual(
          page.map((x) => x.annotationId),
          ['one'],
        ),
    ],
    [
      'a comment edited',
      (w) => t.a.ok(PATHS.commentsUpdate, { ...w, annotationId: 'one', commentIds: [1], updatedData: { commentText: 'edited' } }),
      (page) => assert.equal(page[1].comments[0].commentText, 'edited'),
    ],
    [
      'a comment deleted',
      (w) => t.a.ok(PATHS.commentsDelete, { ...w, annotationId: 'two', commentIds: [1] }),
      (page) => assert.equal(page[0].comments.length, 0),
    ],
    [
      "an author's profile updated",
      (w) => t.a.ok(PATHS.usersUpdate, { organizationId: w.organizationId, users: [{ userId: 'p', name: 'Pat' }] }),
      (page) => assert.equal(page[1].from.name, 'Pat'),
    ],
    [
      "an author's profile added",
      (w) => t.a.ok(PATHS.usersAdd, { organizationId: w.organizationId, users: [{ userId: 'q', name: 'Quinn' }] }),
      (page) => assert.equal(page[0].from.name, 'Quinn'),
    ],
  ];
  for (const [what, write, shows] of writes) {
    test(`${what} through another instance shows on the next read`, async () => {
      const where = await document();
      await held(where);
      await write(where);
      const reads = reader.pageReads;
      shows(data(await reader.read(where)));
      assert.equal(reader.pageReads, reads + 1, 'read again');
      await held(where);
    });
  }

  test('writes to other documents, and read marks, keep the page', async () => {
    const where = await document();
    const body = await held(where);
    await t.a.ok(PATHS.annotationsAdd, {
      ...where,
      documentId: 'other',
      commentAnnotations: [{ annotationId: 'x', commentData: [say('x')] }],
    });
    await t.b.ok(PATHS.annotationsAdd, { ...where, commentAnnotations: [{ annotationId: 'x', commentData: [say('x')] }] });
    await t.a.ok(PATHS.annotationsRead, { ...where, userId: 'p' });
    const reads = reader.pageReads;
    assert.equal(await reader.read(where), body);
    assert.equal(reader.pageReads, reads, 'still from memory');
  });

  test('another tenant naming the same ids reads its own page, never the one held', async () => {
    const where = await document();
    // Tenant b writes the same organization and document: its version may not tell the pages apart.
    await t.b.ok(PATHS.annotationsAdd, { ...where, commentAnnotations: [{ annotationId: 'b-only', commentData: [say('b')] }] });
    const ofA = data(await held(where));
    const ofB = data(await reader.read(where, 'b'));
    assert.deepEqual(
      ofB.map((x) => [x.annotationId, x.metadata.apiKey]),
      [['b-only', t.b.creds.apiKey]],
    );
    assert.deepEqual(
      ofA.map((x) => x.metadata.apiKey),
      [t.a.creds.apiKey, t.a.creds.apiKey],
    );
  });

  test('a change made outside this release (an earlier release during an upgrade, or by hand) shows too', async () => {
    const where = await document();
    await held(where);
    // As an instance of the release before migration 11 would write: no part of it knows of versions.
    // (A change the answer's schema allows: every answer of a route test is checked against it.)
    await t.db.exec(`UPDATE annotations SET answer_head = replace(answer_head, '"name":"Open"', '"name":"Edited"')
      WHERE organization_id = '${where.organizationId}' AND annotation_id = 'one'`);
    assert.equal(data(await reader.read(where))[1].status.name, 'Edited');
  });

  test('filters and page sizes are pages of their own; no pageSize is the page of 1000', async () => {
    const where = await document();
    const all = await held(where);
    assert.deepEqual(data(await reader.read({ ...where, statusIds: ['NONE'] })), []);
    assert.deepEqual(data(await reader.read({ ...where, locationIds: ['nowhere'] })), []);
    const reads = reader.pageReads;
    assert.equal(await reader.read({ ...where, pageSize: 1000 }), all, 'the same page as without pageSize');
    assert.equal(reader.pageReads, reads, 'and held as one');
  });

  test('MARGINALIA_THREAD_PAGE_CACHE_MB=0 reads every page', async () => {
    const none = await readingInstance(0);
    try {
      const where = await document();
      const first = await none.read(where);
      assert.equal(await none.read(where), first);
      assert.equal(none.pageReads, 2);
    } finally {
      await none.close();
    }
  });
});
