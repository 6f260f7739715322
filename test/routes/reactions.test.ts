// Reactions on comments (docs/api.md, "Reactions"; docs/decisions.md, "Reactions (issue 41)"): add and delete on /v1
// and /v2, idempotent adds, absent deletes, the /v2 reads' reactionAnnotations with counts, events; errors (icons,
// bounds, absent comments); security (another tenant, end users acting for another user or without access); the
// reactions in users/data/get and gone with erasure, the comment, the thread, the document and the organization; a
// document migration moves them. Runs on the configured database (SQLite, or PostgreSQL in its pass).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MigrationWorker } from '../../src/jobs/document-migrations.js';
import { expectError, makeTestApp, PATHS as P, type Reply, T0, type TestApp, user, v2 } from '../helpers/app.js';

let t: TestApp;
let now = T0;
let tenantA: string;
before(async () => {
  t = await makeTestApp({
    clock: () => (now += 1),
    config: { endUserRateLimit: 0, maxReactionsPerComment: 3, maxReactionIconsPerComment: 2, reactionIconMaxLength: 16 },
  });
  tenantA = (await t.store.findCredentials(t.a.creds.apiKey))!.tenant.id;
});
after(async () => t.close());

let seq = 0;
const uniq = (label: string) => `org-react-${label}-${++seq}`;
const ADD = P.reactionsAdd;
const DEL = P.reactionsDelete;

/** An organization with users ana and bo, a thread `th` in `doc` with comments 1 (by bo) and 2 (by ana). */
async function world(c = t.a) {
  const org = uniq('w');
  await c.ok(P.usersAdd, { organizationId: org, users: [user('ana', { name: 'Ana A' }), user('bo', { name: 'Bo B' })] });
  await c.ok(P.annotationsAdd, {
    organizationId: org,
    documentId: 'doc',
    commentAnnotations: [
      {
        annotationId: 'th',
        commentData: [
          { commentText: 'one', from: user('bo') },
          { commentText: 'two', from: user('ana') },
        ],
      },
    ],
  });
  return org;
}
const at = (org: string, extra: Record<string, unknown> = {}) => ({
  organizationId: org,
  documentId: 'doc',
  annotationId: 'th',
  commentId: 1,
  ...extra,
});

/** The comments of `th` as /v2's comments/get shows them. */
const commentsV2 = async (org: string, c = t.a) =>
  (await c.ok(v2(P.commentsGet), at(org, { commentId: undefined }))).data as any[];

/** The events of tenant a after `from`. */
async function eventsAfter(from: number) {
  await t.store.eventsNumbered(tenantA);
  return (await t.store.eventsAfter(tenantA, from, 1000)).map((e) => JSON.parse(e.body));
}
const lastEvent = async () => {
  await t.store.eventsNumbered(tenantA);
  return t.store.lastEventId(tenantA);
};

describe('reactions: add, delete, shown on /v2 comments', () => {
  test('add is idempotent per user and icon; counted per icon; delete; absent delete is Not found', async () => {
    const org = await world();
    const first = await t.a.ok(ADD, at(org, { icon: '👍', userId: 'ana' }));
    assert.equal(first.message, 'Reaction added successfully.');
    const id = first.data['👍'].reactionAnnotationId;
    assert.match(id, /^reaction-[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(first.data, {
      '👍': { success: true, id: '👍', message: 'Added successfully', reactionAnnotationId: id, count: 1 },
    });
    const again = await t.a.ok(v2(ADD), at(org, { icon: '👍', userId: 'ana' }));
    assert.deepEqual(again.data['👍'].count, 1, 'the same reaction again changes nothing');
    assert.equal((await t.a.ok(ADD, at(org, { icon: '👍', userId: 'bo' }))).data['👍'].count, 2);
    await t.a.ok(ADD, at(org, { icon: 'RAISED_HANDS', userId: 'bo' }));

    const [c1, c2] = await commentsV2(org);
    assert.deepEqual(c2.reactionAnnotationIds, []);
    assert.deepEqual(c2.reactionAnnotations, []);
    assert.equal(c1.reactionAnnotationIds.length, 2);
    const [thumbs, hands] = c1.reactionAnnotations;
    assert.deepEqual(
      [thumbs.annotationId, thumbs.type, thumbs.icon, thumbs.commentAnnotationId, thumbs.count],
      [id, 'reaction', '👍', 'th', 2],
    );
    assert.deepEqual(
      thumbs.fromUsers.map((u: any) => [u.from.userId, u.from.name, u.from.organizationId, typeof u.lastUpdated]),
      [
        ['ana', 'Ana A', org, 'number'],
        ['bo', 'Bo B', org, 'number'],
      ],
    );
    assert.deepEqual([hands.icon, hands.count], ['RAISED_HANDS', 1]);
    assert.deepEqual(c1.reactionAnnotationIds, [thumbs.annotationId, hands.annotationId]);
    // commentannotations/get on /v2 shows the same on the thread's comments; v1 reads keep v1's members.
    const thread = (await t.a.ok(v2(P.annotationsGet), { organizationId: org, documentId: 'doc' })).data[0];
    assert.deepEqual(thread.comments[0].reactionAnnotations, c1.reactionAnnotations);
    const v1 = (await t.a.ok(P.commentsGet, at(org, { commentId: undefined }))).data[0];
    assert.equal('reactionAnnotations' in v1, false);

    const gone = await t.a.ok(DEL, at(org, { icon: '👍', userId: 'ana' }));
    assert.deepEqual(gone.data['👍'], {
      success: true,
      id: '👍',
      message: 'Deleted successfully',
      reactionAnnotationId: id,
      count: 1,
    });
    const absent = await t.a.ok(v2(DEL), at(org, { icon: '👍', userId: 'ana' }));
    assert.equal(absent.message, 'Reaction deleted successfully.');
    assert.deepEqual(absent.data['👍'], { success: false, id: '👍', message: 'Not found', reactionAnnotationId: id, count: 1 });
    await t.a.ok(DEL, at(org, { icon: '👍', userId: 'bo' }));
    assert.deepEqual(
      (await commentsV2(org))[0].reactionAnnotations.map((r: any) => r.icon),
      ['RAISED_HANDS'],
    );
  });

  test('events comment.reaction_add and comment.reaction_delete, none for a repeat or an absent delete', async () => {
    const org = await world();
    const from = await lastEvent();
    await t.a.ok(ADD, at(org, { icon: '👍🏽', userId: 'ana' }));
    await t.a.ok(ADD, at(org, { icon: '👍🏽', userId: 'ana' }));
    await t.a.ok(DEL, at(org, { icon: '👍🏽', userId: 'ana' }));
    await t.a.ok(DEL, at(org, { icon: '👍🏽', userId: 'ana' }));
    const events = await eventsAfter(from);
    assert.deepEqual(
      events.map((e) => [
        e.type,
        e.organizationId,
        e.documentId,
        e.data.annotationId,
        e.data.commentId,
        e.data.icon,
        e.data.userId,
        e.data.count,
      ]),
      [
        ['comment.reaction_add', org, 'doc', 'th', 1, '👍🏽', 'ana', 1],
        ['comment.reaction_delete', org, 'doc', 'th', 1, '👍🏽', 'ana', 0],
      ],
    );
  });
});

describe('reactions: errors', () => {
  test('icons that are not one emoji or an icon name, too long, no user, absent comment or thread', async () => {
    const org = await world();
    for (const icon of ['ok', '👍👍', '<b>', 'raised_hands', ' 👍'])
      expectError(await t.a.post(ADD, at(org, { icon, userId: 'ana' })), 400, 'INVALID_ARGUMENT', icon);
    const long = expectError(await t.a.post(ADD, at(org, { icon: 'A'.repeat(17), userId: 'ana' })), 400, 'INVALID_ARGUMENT');
    assert.match(long, /MARGINALIA_REACTION_ICON_MAX_LENGTH/);
    expectError(await t.a.post(ADD, at(org, { icon: '👍' })), 400, 'INVALID_ARGUMENT', 'no userId');
    expectError(await t.a.post(ADD, at(org, { icon: '👍', userId: 'ana', commentId: 9 })), 404, 'NOT_FOUND');
    expectError(await t.a.post(DEL, at(org, { icon: '👍', userId: 'ana', annotationId: 'nope' })), 404, 'NOT_FOUND');
    assert.deepEqual((await commentsV2(org))[0].reactionAnnotations, [], 'nothing written');
  });

  test('bounds per comment: reactions and distinct icons (429, nothing written)', async () => {
    const org = await world();
    await t.a.ok(ADD, at(org, { icon: '👍', userId: 'ana' }));
    await t.a.ok(ADD, at(org, { icon: '🎉', userId: 'ana' }));
    const icons = expectError(await t.a.post(ADD, at(org, { icon: '🚀', userId: 'ana' })), 429, 'RESOURCE_EXHAUSTED');
    assert.match(icons, /MARGINALIA_MAX_REACTION_ICONS_PER_COMMENT/);
    await t.a.ok(ADD, at(org, { icon: '👍', userId: 'bo' }));
    const most = expectError(await t.a.post(ADD, at(org, { icon: '👍', userId: 'cy' })), 429, 'RESOURCE_EXHAUSTED');
    assert.match(most, /MARGINALIA_MAX_REACTIONS_PER_COMMENT/);
    assert.equal((await t.a.ok(ADD, at(org, { icon: '👍', userId: 'bo' }))).data['👍'].count, 2, 'a repeat at the bound is fine');
    assert.deepEqual(
      (await commentsV2(org))[0].reactionAnnotations.map((r: any) => [r.icon, r.count]),
      [
        ['👍', 2],
        ['🎉', 1],
      ],
    );
  });
});

describe('reactions: security', () => {
  test('another tenant neither sees nor changes them', async () => {
    const org = await world();
    await t.a.ok(ADD, at(org, { icon: '👍', userId: 'ana' }));
    expectError(await t.b.post(ADD, at(org, { icon: '👍', userId: 'ana' })), 404, 'NOT_FOUND');
    expectError(await t.b.post(DEL, at(org, { icon: '👍', userId: 'ana' })), 404, 'NOT_FOUND');
    await world(t.b); // b's own organization of another name: its comments show none of a's
    assert.equal((await commentsV2(org))[0].reactionAnnotations[0].count, 1);
  });

  test('end users react as themselves on what they may read; not for another user, not without access', async () => {
    const org = await world();
    await t.a.ok(P.documentsAdd, { organizationId: org, documents: [{ documentId: 'locked' }] });
    await t.a.ok(P.annotationsAdd, {
      organizationId: org,
      documentId: 'locked',
      commentAnnotations: [{ annotationId: 'th', commentData: [{ commentText: 'hidden', from: user('bo') }] }],
    });
    await t.a.ok(P.documentsAccess, { organizationId: org, documentIds: ['locked'], accessType: 'restricted' });
    const token = (
      await t.a.ok(P.authTokenGet, { userId: 'ana', userProperties: { organizationId: org, name: 'Ana A', email: 'ana@x.test' } })
    ).data.token as string;
    const as = (path: string, data: unknown): Promise<Reply> =>
      t.request(path, { body: { data }, headers: { authorization: `Bearer ${token}` } });
    const mine = await as(ADD, at(org, { icon: '👍' }));
    assert.equal(mine.status, 200, mine.body);
    assert.equal((await as(v2(ADD), at(org, { icon: '🎉', userId: 'ana' }))).status, 200);
    expectError(await as(ADD, at(org, { icon: '👍', userId: 'bo' })), 403, 'PERMISSION_DENIED', 'for another user');
    expectError(await as(DEL, at(org, { icon: '👍', userId: 'bo' })), 403, 'PERMISSION_DENIED', 'for another user');
    expectError(await as(ADD, at(org, { icon: '👍', documentId: 'locked' })), 403, 'PERMISSION_DENIED', 'no access');
    expectError(await as(ADD, at(uniq('other'), { icon: '👍' })), 403, 'PERMISSION_DENIED', 'another organization');
    const shown = (await commentsV2(org))[0].reactionAnnotations;
    assert.deepEqual(
      shown.map((r: any) => [r.icon, r.fromUsers.map((u: any) => u.from.userId)]),
      [
        ['👍', ['ana']],
        ['🎉', ['ana']],
      ],
    );
    assert.equal((await as(DEL, at(org, { icon: '👍' }))).status, 200);
  });
});

describe('reactions: personal data and what deletes them', () => {
  const count = async (org: string) =>
    Number((await t.db.query(`SELECT count(*) AS n FROM comment_reactions WHERE organization_id = '${org}'`))[0]!.n);

  test("users/data/get lists a user's reactions; users/data/delete erases them", async () => {
    const org = await world();
    await t.a.ok(ADD, at(org, { icon: '👍', userId: 'ana' }));
    await t.a.ok(ADD, at(org, { icon: '🎉', userId: 'bo' }));
    const got = (await t.a.ok(P.userDataGet, { organizationId: org, userId: 'ana' })).data;
    assert.deepEqual(
      got.reactions.map((r: any) => [r.documentId, r.annotationId, r.commentId, r.icon, r.userId]),
      [['doc', 'th', 1, '👍', 'ana']],
    );
    assert.equal(typeof got.reactions[0].reactionAnnotationId, 'string');
    const deleted = await t.a.post(P.userDataDelete, { organizationIds: [org], userIds: ['ana'] });
    assert.equal(deleted.status, 202, deleted.body);
    assert.deepEqual((await t.a.ok(P.userDataGet, { organizationId: org, userId: 'ana' })).data.reactions, []);
    assert.deepEqual(
      (await commentsV2(org))[0].reactionAnnotations.map((r: any) => r.icon),
      ['🎉'],
      "bo's stays",
    );
  });

  test('deleting the comment, the thread, the document or the organization deletes its reactions', async () => {
    const org = await world();
    const react = async (commentId: number) => t.a.ok(ADD, at(org, { icon: '👍', userId: 'ana', commentId }));
    await react(1);
    await react(2);
    await t.a.ok(P.commentsDelete, at(org, { commentId: undefined, commentIds: [1] }));
    assert.equal(await count(org), 1, 'the comment');
    await t.a.ok(P.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['th'] });
    assert.equal(await count(org), 0, 'the thread');
    const again = await world();
    await t.a.ok(ADD, at(again, { icon: '👍', userId: 'ana' }));
    assert.equal(await count(again), 1);
    await t.a.ok(P.documentsDelete, { organizationId: again, documentIds: ['doc'] });
    assert.equal(await count(again), 0, 'the document');
    const third = await world();
    await t.a.ok(ADD, at(third, { icon: '👍', userId: 'ana' }));
    assert.equal(await count(third), 1);
    await t.a.ok(P.organizationsDelete, { organizationIds: [third] });
    assert.equal(await count(third), 0, 'the organization');
  });

  test('a document migration moves them with their comments; retention of resolved threads deletes them', async () => {
    const org = await world();
    await t.a.ok(ADD, at(org, { icon: '👍', userId: 'ana' }));
    const started = await t.a.ok('/v2/organizations/documents/migrate', {
      organizationId: org,
      documentId: 'doc',
      newDocumentId: 'moved',
    });
    const w = new MigrationWorker({ store: t.store, batchSize: 3, pollMs: 10, leaseMs: 5000 }).start();
    try {
      for (const began = Date.now(); Date.now() - began < 60_000; await new Promise((r) => setTimeout(r, 20))) {
        const s = (
          await t.a.ok('/v2/organizations/documents/migrate/status', {
            organizationId: org,
            migrationId: started.data.migrationId,
          })
        ).data;
        if (s.status === 'completed' || s.status === 'failed') break;
      }
    } finally {
      await w.stop();
    }
    const moved = (await t.a.ok(v2(P.commentsGet), { organizationId: org, documentId: 'moved', annotationId: 'th' })).data;
    assert.deepEqual(
      moved[0].reactionAnnotations.map((r: any) => [r.icon, r.count]),
      [['👍', 1]],
    );
    assert.deepEqual(await t.db.query(`SELECT DISTINCT document_id FROM comment_reactions WHERE organization_id = '${org}'`), [
      { document_id: 'moved' },
    ]);

    const old = uniq('retention');
    const kept = now;
    now = T0 - 400 * 86_400_000;
    await t.a.ok(P.annotationsAdd, {
      organizationId: old,
      documentId: 'doc',
      commentAnnotations: [
        {
          annotationId: 'th',
          status: { id: 'RESOLVED', name: 'Resolved', type: 'terminal' },
          commentData: [{ commentText: 'done', from: user('bo') }],
        },
      ],
    });
    await t.a.ok(ADD, at(old, { icon: '👍', userId: 'ana' }));
    now = kept;
    assert.equal(await count(old), 1, 'there before');
    await t.a.ok(P.retentionSet, { organizationId: old, resolvedThreadsDays: 30 });
    await t.a.ok(P.retentionRun, { organizationId: old });
    assert.equal(await count(old), 0, 'retention of the resolved thread');
  });
});
