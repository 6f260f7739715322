// A thread's answer as the store keeps it (rendered when it is written, with slots for its users and a
// gap for the reader's key) against the answer built from objects with JSON.stringify: the same text
// for any names, emails and ids (quotes, backslashes, control characters, astral characters), with
// profiles present or not, tags with and without contacts, and members set or absent. And what a
// thread keeps of its newest comments (latest.ts) against a walk of all its comments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { filled, storedComments, storedHead, threadPage } from '../../src/domain/answers/annotations.js';

import { showUser } from '../../src/domain/answers/users.js';
import { latestOf, newestNotBy } from '../../src/store/comments/latest.js';
import type { CommentFacts, ThreadHead } from '../../src/domain/threads.js';
import { PassingProfiles, type Profile, type UserRef } from '../../src/domain/users.js';

const SEED = 20261123;
const anyText = fc.string({ unit: 'binary', maxLength: 12 });
const userIds = fc.constantFrom('u1', 'u2', 'a"b', 'back\\slash', '\u0002\u0004ctl', '😀');
const ref: fc.Arbitrary<UserRef> = fc.record({
  userId: userIds,
  name: fc.option(anyText, { nil: null }),
  email: fc.option(anyText, { nil: null }),
});
const profile = (userId: string): fc.Arbitrary<Profile> =>
  fc.record({
    userId: fc.constant(userId),
    name: fc.option(anyText, { nil: null }),
    email: fc.option(anyText, { nil: null }),
    photoUrl: fc.constant(null),
  });
const profiles = fc
  .subarray(['u1', 'a"b', '\u0002\u0004ctl', '😀'])
  .chain((ids) => fc.tuple(...ids.map(profile)))
  .map((ps) => new Map(ps.map((p) => [p.userId, p])));
const tag = fc.record({ userId: userIds, text: fc.option(anyText, { nil: null }), contact: ref }, { requiredKeys: ['userId'] });
const comment: fc.Arbitrary<CommentFacts> = fc.record({
  commentId: fc.nat(1000),
  html: anyText,
  text: anyText,
  from: ref,
  createdAt: fc.nat(2e12),
  lastUpdated: fc.nat(2e12),
  status: fc.constantFrom('added', 'updated'),
  type: fc.constant('text'),
  taggedUserContacts: fc.option(
    fc.array(tag, { maxLength: 3 }).map((t) => JSON.stringify(t)),
    { nil: null },
  ),
});
const jsonOf = (v: fc.Arbitrary<unknown>) =>
  fc.option(
    v.map((x) => JSON.stringify(x)),
    { nil: null },
  );
const head: fc.Arbitrary<ThreadHead> = fc.record({
  annotationId: anyText,
  location: jsonOf(fc.record({ page: fc.nat() })),
  locationId: fc.option(anyText, { nil: null }),
  context: jsonOf(fc.record({ quote: anyText })),
  status: fc.constantFrom('{"id":"OPEN"}', '{"name":"x","id":"RESOLVED","type":"terminal"}'),
  color: fc.option(anyText, { nil: null }),
  createdAt: fc.nat(2e12),
  lastUpdated: fc.nat(2e12),
  assignedTo: fc.option(ref, { nil: null }),
  priority: jsonOf(fc.record({ level: fc.nat(5) })),
  targetElement: jsonOf(fc.record({ id: anyText })),
});

/** The answer built from objects, as the thread read wrote it before answers were stored. */
function reference(t: ThreadHead, comments: CommentFacts[], shown: Map<string, Profile>, apiKey: string) {
  const user = (r: UserRef) => showUser(r, shown.get(r.userId));
  const commentObject = (c: CommentFacts) => {
    const tags = c.taggedUserContacts === null ? null : (JSON.parse(c.taggedUserContacts) as Record<string, unknown>[]);
    return {
      commentId: c.commentId,
      commentHtml: c.html,
      commentText: c.text,
      from: user(c.from),
      lastUpdated: new Date(c.lastUpdated).toISOString(),
      createdAt: c.createdAt,
      status: c.status,
      type: c.type,
      ...(tags && {
        taggedUserContacts: tags.map(({ userId, text, contact }) => ({
          userId,
          ...(text != null && { text }),
          ...(contact != null && { contact: user(contact as UserRef) }),
        })),
      }),
    };
  };
  const parsed = (s: string | null) => (s === null ? undefined : JSON.parse(s));
  return JSON.stringify({
    annotationId: t.annotationId,
    type: 'comment',
    from: comments[0] ? user(comments[0].from) : null,
    comments: comments.map(commentObject),
    status: JSON.parse(t.status),
    createdAt: t.createdAt,
    lastUpdated: t.lastUpdated,
    metadata: { apiKey, organizationId: 'org "1"', documentId: 'doc\\1' },
    location: parsed(t.location),
    locationId: t.locationId ?? undefined,
    context: parsed(t.context),
    color: t.color ?? undefined,
    assignedTo: t.assignedTo ? user(t.assignedTo) : undefined,
    priority: parsed(t.priority),
    targetElement: parsed(t.targetElement),
  });
}

test('a stored thread answer renders as the answer built from objects, byte for byte', () => {
  fc.assert(
    fc.property(head, fc.array(comment, { maxLength: 4 }), fc.nat(4), profiles, anyText, (t, comments, cut, shown, apiKey) => {
      // Stored as comments/add keeps them: some comments first, the rest appended later (in SQL, after a comma).
      const at = Math.min(cut, comments.length);
      const parts = [storedComments(comments.slice(0, at)), storedComments(comments.slice(at))];
      const kept = parts.filter((p) => p !== '').join(',');
      const row = { annotationId: t.annotationId, createdAt: t.createdAt, profileVersion: 1, credentialsVersion: 1 };
      const page = threadPage([{ ...row, head: storedHead(t, 'org "1"', 'doc\\1'), comments: kept }]);
      const users = [...comments.flatMap((c) => [c.from.userId]), ...(t.assignedTo ? [t.assignedTo.userId] : [])];
      for (const u of users) assert.ok([...page.users].includes(u), `users names ${JSON.stringify(u)}`);
      const expected = reference(t, comments, shown, apiKey);
      assert.equal(page.render(apiKey, shown, null), `[${expected}]`);
      assert.equal(page.render(apiKey, shown, ['none', t.annotationId]), `[null,${expected}]`);
      // Profiles looked up and not kept render the same, through the path that keeps nothing per profile.
      assert.equal(page.render(apiKey, new PassingProfiles(shown), null), `[${expected}]`);
    }),
    { seed: SEED, numRuns: 400 },
  );
});

test("what a thread keeps of its newest comments answers 'the newest comment by anyone but u' as a walk does", () => {
  const authors = fc.constantFrom('u1', 'u2', 'u3');
  fc.assert(
    fc.property(fc.array(fc.record({ createdAt: fc.nat(20), from: fc.record({ userId: authors }) }), { maxLength: 8 }), (cs) => {
      const kept = latestOf(cs);
      for (const u of ['u1', 'u2', 'u3', 'u4']) {
        const times = cs.filter((c) => c.from.userId !== u).map((c) => c.createdAt);
        assert.equal(newestNotBy(kept, u), times.length ? Math.max(...times) : null, `for ${u} after ${JSON.stringify(cs)}`);
      }
      // Folding in two parts, as comments/add does, keeps the same.
      const half = Math.floor(cs.length / 2);
      assert.deepEqual(newestNotBy(latestOf(cs.slice(half), latestOf(cs.slice(0, half))), 'u1'), newestNotBy(kept, 'u1'));
    }),
    { seed: SEED, numRuns: 1000 },
  );
});

/** The expression the render filled slots with before `filled`: SLOT, the slot's content, END. */
const [SLOT, END] = ['\u0002', '\u0003'];
const BEFORE = new RegExp(`${SLOT}([^${END}]*)${END}`, 'g');

test('slots are filled as a regular expression would fill them, whatever the text, a slot never closed included', () => {
  const piece = fc.constantFrom('\u0002', '\u0003', '\u0004', 'a', '"u"', '😀', ',');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('');
      const fill = (slot: string) => `<${slot.length}>`;
      assert.equal(
        filled(text, fill),
        text.replace(BEFORE, (_, slot: string) => fill(slot)),
      );
    }),
    { numRuns: 2000 },
  );
});
