// The search index as a property (docs/api.md, "Search"): random sequences of comment writes, edits and deletes,
// thread deletes, notification adds, edits and deletes, and a user's erasure, through the HTTP app. After every
// step, for a few queries, search/get's hits are exactly what a brute-force scan of a model of the data finds
// (every query word starts a word of the text, case and accents aside: domain/search.ts matchesAll). Runs on
// SQLite and, in the PostgreSQL pass, on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { matchesAll, queryWords } from '../../src/domain/search.js';
import { eventually } from '../helpers/eventually.js';
import { makeTestApp, PATHS, type TestApp } from '../helpers/app.js';

const RUNS = Number(process.env.SEARCH_PROPERTY_RUNS || 5);
const SEED = Number(process.env.SEARCH_PROPERTY_SEED || 41);

const WORDS = ['alpha', 'Beta', 'gamma', 'café', 'CAFE', 'naïve', 'x-ray', 'beta2', '<b>delta</b>', '日本語'];
const QUERIES = ['alp', 'beta', 'cafe', 'naive', 'ray', 'delta', 'b', 'beta gamma', '日本', 'Café x'];
const AUTHORS = ['u1', 'u2'];
const DOCS = ['d1', 'd2'];
const THREADS = ['t1', 't2'];
const NOTES = ['n1', 'n2', 'n3'];

type Op =
  | { kind: 'comment'; doc: string; thread: string; by: string; text: string }
  | { kind: 'edit'; doc: string; thread: string; n: number; text: string }
  | { kind: 'uncomment'; doc: string; thread: string; n: number }
  | { kind: 'unthread'; doc: string; thread: string }
  | { kind: 'note'; id: string; text: string }
  | { kind: 'renote'; id: string; text: string }
  | { kind: 'unnote'; id: string }
  | { kind: 'erase'; user: string };

const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const doc = fc.constantFrom(...DOCS);
const thread = fc.constantFrom(...THREADS);
const n = fc.integer({ min: 1, max: 3 });
const note = fc.constantFrom(...NOTES);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ doc, thread, by: fc.constantFrom(...AUTHORS), text }).map((o) => ({ kind: 'comment' as const, ...o })),
  },
  { weight: 3, arbitrary: fc.record({ doc, thread, n, text }).map((o) => ({ kind: 'edit' as const, ...o })) },
  { weight: 2, arbitrary: fc.record({ doc, thread, n }).map((o) => ({ kind: 'uncomment' as const, ...o })) },
  { weight: 1, arbitrary: fc.record({ doc, thread }).map((o) => ({ kind: 'unthread' as const, ...o })) },
  { weight: 3, arbitrary: fc.record({ id: note, text }).map((o) => ({ kind: 'note' as const, ...o })) },
  { weight: 1, arbitrary: fc.record({ id: note, text }).map((o) => ({ kind: 'renote' as const, ...o })) },
  { weight: 1, arbitrary: fc.record({ id: note }).map((o) => ({ kind: 'unnote' as const, ...o })) },
  { weight: 1, arbitrary: fc.record({ user: fc.constantFrom(...AUTHORS) }).map((o) => ({ kind: 'erase' as const, ...o })) },
);

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let runs = 0;

describe('the search index agrees with the data', () => {
  test('after every step of a random sequence of writes, edits, deletes and erasures', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const org = `search-prop-${++runs}`;
        /** The model: each comment's key -> [author, text]; each notification's id -> text. */
        const comments = new Map<string, [string, string]>();
        const notes = new Map<string, string>();
        const nextId = new Map<string, number>();
        for (const op of ops) {
          switch (op.kind) {
            case 'comment': {
              const r = await t.a.post(PATHS.annotationsAdd, {
                organizationId: org,
                documentId: op.doc,
                commentAnnotations: [
                  { annotationId: op.thread, commentData: [{ commentText: op.text, from: { userId: op.by } }] },
                ],
              });
              assert.equal(r.status, 200, r.body);
              const entry = r.json.result.data[op.thread];
              const threadKey = `${op.doc}/${op.thread}`;
              if (entry.success) {
                nextId.set(threadKey, 2);
                comments.set(`${threadKey}/1`, [op.by, op.text]);
              } else {
                const id = nextId.get(threadKey) ?? 1;
                await t.a.ok(PATHS.commentsAdd, {
                  organizationId: org,
                  documentId: op.doc,
                  annotationId: op.thread,
                  commentData: [{ commentId: id, commentText: op.text, from: { userId: op.by } }],
                });
                nextId.set(threadKey, id + 1);
                comments.set(`${threadKey}/${id}`, [op.by, op.text]);
              }
              break;
            }
            case 'edit': {
              const key = `${op.doc}/${op.thread}/${op.n}`;
              const r = await t.a.post(PATHS.commentsUpdate, {
                organizationId: org,
                documentId: op.doc,
                annotationId: op.thread,
                commentIds: [op.n],
                updatedData: { commentText: op.text },
              });
              const had = comments.get(key);
              if (had) comments.set(key, [had[0], op.text]);
              assert.ok(r.status < 500, r.body);
              break;
            }
            case 'uncomment': {
              const r = await t.a.post(PATHS.commentsDelete, {
                organizationId: org,
                documentId: op.doc,
                annotationId: op.thread,
                commentIds: [op.n],
              });
              assert.ok(r.status < 500, r.body);
              if (r.status === 200) comments.delete(`${op.doc}/${op.thread}/${op.n}`);
              break;
            }
            case 'unthread': {
              const r = await t.a.post(PATHS.annotationsDelete, {
                organizationId: org,
                documentId: op.doc,
                annotationIds: [op.thread],
              });
              assert.ok(r.status < 500, r.body);
              for (const k of [...comments.keys()]) if (k.startsWith(`${op.doc}/${op.thread}/`)) comments.delete(k);
              break;
            }
            case 'note': {
              const r = await t.a.post(PATHS.notificationsAdd, {
                organizationId: org,
                notificationId: op.id,
                actionUser: { userId: 'actor' },
                displayHeadlineMessageTemplate: 'x',
                displayBodyMessage: op.text,
                notifyUsers: [{ userId: 'reader' }],
              });
              assert.ok(r.status === 200 || r.status === 409, r.body);
              if (r.status === 200) notes.set(op.id, op.text);
              break;
            }
            case 'renote': {
              const r = await t.a.post(PATHS.notificationsUpdate, {
                organizationId: org,
                notifications: [{ id: op.id, displayBodyMessage: op.text }],
              });
              assert.ok(r.status < 500, r.body);
              if (r.status === 200 && notes.has(op.id)) notes.set(op.id, op.text);
              break;
            }
            case 'unnote': {
              await t.a.ok(PATHS.notificationsDelete, { organizationId: org, notificationIds: [op.id] });
              notes.delete(op.id);
              break;
            }
            case 'erase': {
              assert.equal((await t.a.post(PATHS.userDataDelete, { organizationIds: [org], userIds: [op.user] })).status, 202);
              for (const [k, [by]] of [...comments]) if (by === op.user) comments.delete(k);
              break;
            }
          }
          for (const query of QUERIES) {
            const words = queryWords(query);
            const expected = [
              ...[...comments].filter(([, [, text]]) => matchesAll(text, words)).map(([k]) => k),
              ...[...notes].filter(([, text]) => matchesAll(text, words)).map(([id]) => `n:${id}`),
            ].sort();
            const found = async () => {
              const got = await t.a.ok(PATHS.searchGet, { organizationId: org, query, pageSize: 100 });
              return (got.data as any[])
                .map((h) => (h.kind === 'comment' ? `${h.documentId}/${h.annotationId}/${h.commentId}` : `n:${h.notificationId}`))
                .sort();
            };
            // users/data/delete answers 202 and may finish just after: wait for it, then the index must agree.
            if (op.kind === 'erase')
              await eventually(`erasure of ${op.user}`, async () => (await found()).join() === expected.join());
            assert.deepEqual(await found(), expected, `${query} after ${JSON.stringify(op)}`);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
