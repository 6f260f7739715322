// commentannotations/update's updateUsers, as the original service's page shows it (docs/decisions.md):
// in the threads the filters match, every comment by oldUser becomes newUser's, with or without
// updatedData; newUser with a name or email is upserted as a profile. Happy, errors (nothing written),
// security (tenants, a disabled organization), and the events it records.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';
import { eventsSince, lastEventId, tenantIdOf } from '../helpers/events.js';
import { js, notFound, RESOLVED, say, uniq } from '../helpers/threads.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

const DOC = 'doc';
const ONE = { id: 'OPEN', name: 'Open', type: 'default' };

/** Threads t1 (old, other, old) and t2 (old) of a new organization, and a profile of `old`. */
async function seeded(caller = t.a) {
  const org = uniq('org');
  await caller.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'old', name: 'Old Name', email: 'old@x.y' }] });
  await caller.ok(PATHS.annotationsAdd, {
    organizationId: org,
    documentId: DOC,
    commentAnnotations: [
      { annotationId: 't1', commentData: [say('one', 'old'), say('two', 'other'), say('three', 'old')] },
      { annotationId: 't2', commentData: [say('four', 'old')] },
    ],
  });
  return org;
}

const threadsOf = async (org: string, caller = t.a) =>
  (await caller.ok(PATHS.annotationsGet, { organizationId: org, documentId: DOC, annotationIds: ['t1', 't2'] })).data as any[];
const authors = (th: any) => [th.from?.userId, ...th.comments.map((c: any) => c.from.userId)];

describe('commentannotations/update with updateUsers: happy paths', () => {
  test("the page's example: the listed threads' comments by oldUser become newUser's, whose profile is upserted", async () => {
    const org = await seeded();
    const r = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: DOC,
      annotationIds: ['t1', 'missing'],
      updateUsers: [{ oldUser: { userId: 'old' }, newUser: { userId: 'new', name: 'newUserName', email: 'newUserEmail' } }],
    });
    assert.equal(r.message, 'Annotations updated successfully.');
    assert.deepEqual(r.data, {
      t1: { success: true, id: 't1', message: 'Annotations updated successfully' },
      missing: notFound('missing'),
    });
    const [t1, t2] = await threadsOf(org);
    assert.deepEqual(authors(t1), ['new', 'new', 'other', 'new'], js(t1));
    assert.deepEqual(t1.from, { email: 'newUserEmail', name: 'newUserName', userId: 'new' }, 'the profile shows');
    assert.deepEqual(
      t1.comments.map((c: any) => [c.commentText, c.status]),
      [
        ['one', 'added'],
        ['two', 'added'],
        ['three', 'added'],
      ],
      'the text and status of a comment stay: only its author changed',
    );
    assert.deepEqual(authors(t2), ['old', 'old'], 'a thread not matched keeps its authors');
    const members = (await t.a.ok(PATHS.usersGet, { organizationId: org, userIds: ['new'] })).data;
    assert.deepEqual(members, [{ userId: 'new', name: 'newUserName', email: 'newUserEmail', photoUrl: '' }]);
    const byNew = await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: DOC, userIds: ['new'] });
    assert.deepEqual(
      byNew.data.map((x: any) => x.annotationId),
      ['t1'],
      "the userIds filter (a thread's first author) follows",
    );
  });

  test('without annotationIds every thread of the document; a newUser without name or email gets no profile', async () => {
    const org = await seeded();
    await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: DOC,
      updateUsers: [{ oldUser: { userId: 'old' }, newUser: { userId: 'plain' } }],
    });
    const [t1, t2] = await threadsOf(org);
    assert.deepEqual(authors(t1), ['plain', 'plain', 'other', 'plain']);
    assert.deepEqual(authors(t2), ['plain', 'plain']);
    assert.deepEqual(t2.from, { email: '', name: '', userId: 'plain' }, 'no profile and nothing written: ""');
    assert.deepEqual((await t.a.ok(PATHS.usersGet, { organizationId: org, userIds: ['plain'] })).data, []);
  });

  test('with updatedData both apply; pairs apply at once, so two users can swap', async () => {
    const org = await seeded();
    await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: DOC,
      annotationIds: ['t1'],
      updatedData: { status: RESOLVED },
      updateUsers: [
        { oldUser: { userId: 'old' }, newUser: { userId: 'other' } },
        { oldUser: { userId: 'other' }, newUser: { userId: 'old' } },
      ],
    });
    const [t1, t2] = await threadsOf(org);
    assert.deepEqual(t1.status, RESOLVED);
    assert.deepEqual(authors(t1), ['other', 'other', 'old', 'other'], js(t1));
    assert.deepEqual(t2.status, ONE);
  });

  test('it records the profile, each thread and each comment given another author', async () => {
    const org = await seeded();
    const tenant = await tenantIdOf(t, t.a);
    const from = await lastEventId(t, tenant);
    await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: DOC,
      annotationIds: ['t1'],
      updateUsers: [{ oldUser: { userId: 'old' }, newUser: { userId: 'new', name: 'N' } }],
    });
    const events = await eventsSince(t, tenant, from);
    assert.deepEqual(
      events.map((e) => [e.type, e.data.userId ?? e.data.annotationId, e.data.commentId ?? null]),
      [
        ['user.add', 'new', null],
        ['comment_annotation.update', 't1', null],
        ['comment.update', 't1', 1],
        ['comment.update', 't1', 3],
      ],
      js(events),
    );
    assert.equal(events[2]!.data.from.userId, 'new');
  });
});

describe('commentannotations/update with updateUsers: what it does not make', () => {
  test('no thread matched, or a document without an organization: no profile, no organization, no user event', async () => {
    const tenant = await tenantIdOf(t, t.a);
    const from = await lastEventId(t, tenant);
    const swap = [{ oldUser: { userId: 'old' }, newUser: { userId: 'new', name: 'N', email: 'n@x.y' } }];
    const ghost = uniq('org');
    const r = await t.a.ok(PATHS.annotationsUpdate, { organizationId: ghost, documentId: DOC, updateUsers: swap });
    assert.deepEqual(r.data, {});
    assert.deepEqual((await t.a.ok(PATHS.organizationsGet, { organizationIds: [ghost] })).data, [], 'no organization made');
    const doc = uniq('doc');
    await t.a.ok(PATHS.annotationsAdd, {
      documentId: doc,
      commentAnnotations: [{ annotationId: 't', commentData: [say('x', 'old')] }],
    });
    await t.a.ok(PATHS.annotationsUpdate, { documentId: doc, updateUsers: swap });
    const [thread] = (await t.a.ok(PATHS.annotationsGet, { documentId: doc })).data;
    assert.deepEqual(thread.from, { email: 'n@x.y', name: 'N', userId: 'new' }, 'the comment shows what was written');
    const types = (await eventsSince(t, tenant, from)).map((e) => e.type);
    assert.equal(types.includes('user.add'), false, js(types));
  });
});

describe('commentannotations/update with updateUsers: errors', () => {
  test('bad updateUsers, or neither member, is INVALID_ARGUMENT naming the member, and nothing is written', async () => {
    const org = await seeded();
    const before = await threadsOf(org);
    const swap = { oldUser: { userId: 'old' }, newUser: { userId: 'new', name: 'N' } };
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['neither', {}, /data\.updatedData.*data\.updateUsers/],
      ['both null', { updatedData: null, updateUsers: null }, /data\.updatedData.*data\.updateUsers/],
      ['empty list', { updateUsers: [] }, /data\.updateUsers/],
      ['not a list', { updateUsers: swap }, /data\.updateUsers/],
      ['no oldUser', { updateUsers: [{ newUser: { userId: 'n' } }] }, /data\.updateUsers\[0\]\.oldUser/],
      [
        'oldUser without id',
        { updateUsers: [{ oldUser: {}, newUser: { userId: 'n' } }] },
        /data\.updateUsers\[0\]\.oldUser\.userId/,
      ],
      ['newUser id empty', { updateUsers: [{ oldUser: { userId: 'o' }, newUser: { userId: '' } }] }, /newUser\.userId/],
      ['newUser name a number', { updateUsers: [{ ...swap, newUser: { userId: 'n', name: 1 } }] }, /newUser\.name/],
      ['a second bad pair', { updateUsers: [swap, { oldUser: { userId: 7 }, newUser: { userId: 'n' } }] }, /updateUsers\[1\]/],
      ['oldUser twice', { updateUsers: [swap, { ...swap, newUser: { userId: 'x' } }] }, /data\.updateUsers/],
      ['updatedData empty beside it', { updatedData: {}, updateUsers: [swap] }, /data\.updatedData/],
    ];
    for (const [what, extra, message] of cases) {
      const r = await t.a.post(PATHS.annotationsUpdate, { organizationId: org, documentId: DOC, ...extra });
      assert.match(expectError(r, 400, 'INVALID_ARGUMENT', what), message, what);
    }
    assert.deepEqual(await threadsOf(org), before, 'nothing changed');
    assert.deepEqual((await t.a.ok(PATHS.usersGet, { organizationId: org, userIds: ['new'] })).data, [], 'no profile made');
  });
});

describe('commentannotations/update with updateUsers: security', () => {
  test("another tenant's updateUsers on the same ids changes nothing of a's; a disabled organization refuses it", async () => {
    const org = await seeded();
    const before = await threadsOf(org);
    const data = {
      organizationId: org,
      documentId: DOC,
      updateUsers: [{ oldUser: { userId: 'old' }, newUser: { userId: 'mallory', name: 'M' } }],
    };
    const r = await t.b.ok(PATHS.annotationsUpdate, { ...data, annotationIds: ['t1'] });
    assert.deepEqual(r.data, { t1: notFound('t1') });
    assert.deepEqual(await threadsOf(org), before);
    assert.deepEqual((await t.a.ok(PATHS.usersGet, { organizationId: org, userIds: ['mallory'] })).data, []);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    expectError(await t.a.post(PATHS.annotationsUpdate, data), 403, 'PERMISSION_DENIED');
    assert.deepEqual(await threadsOf(org), before, 'refused: nothing written');
  });
});
