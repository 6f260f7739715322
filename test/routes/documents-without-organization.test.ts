// Documents without an organization (docs/decisions.md), as the original service's pages describe them:
// the thread and comment operations take an absent organizationId as "the tenant's documents that have
// no organization", kept apart from every named organization. Happy paths (the delete page's examples
// 7-12 among them), errors, security (tenants), and what answers, events and erasure show of them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';
import { eventsSince, lastEventId, tenantIdOf } from '../helpers/events.js';
import { js, notFound, say, uniq } from '../helpers/threads.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

/** Two threads of `doc` with no organization: t1 at locationx by u1, t2 by u2. */
async function seeded(doc: string, caller = t.a) {
  const r = await caller.ok(PATHS.annotationsAdd, {
    documentId: doc,
    commentAnnotations: [
      { annotationId: 't1', locationId: 'locationx', commentData: [say('one', 'u1')] },
      { annotationId: 't2', commentData: [say('two', 'u2')] },
    ],
  });
  assert.equal(r.data.t1.success && r.data.t2.success, true, js(r));
}

const ids = async (data: Record<string, unknown>, caller = t.a) =>
  ((await caller.ok(PATHS.annotationsGet, data)).data as any[]).map((x) => x.annotationId);

describe('documents without an organization: happy paths', () => {
  test('threads and comments are written, read, counted, marked read and changed without an organizationId', async () => {
    const doc = uniq('doc');
    await seeded(doc);
    const [t1] = (await t.a.ok(PATHS.annotationsGet, { documentId: doc, annotationIds: ['t1'] })).data;
    assert.deepEqual(Object.keys(t1.metadata), ['apiKey', 'documentId'], `no organizationId in metadata: ${js(t1)}`);
    assert.equal(t1.metadata.documentId, doc);
    assert.deepEqual(await ids({ documentId: doc, organizationId: null }), ['t2', 't1'], 'null is absent');
    const where = { documentId: doc, annotationId: 't1' };
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [say('reply', 'u2')] })).data, [2]);
    const got = (await t.a.ok(PATHS.commentsGet, where)).data;
    assert.deepEqual(
      got.map((c: any) => c.commentText),
      ['one', 'reply'],
    );
    await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds: [2], updatedData: { commentText: 'edited' } });
    await t.a.ok(PATHS.commentsDelete, { ...where, commentIds: [1] });
    const count = await t.a.ok(PATHS.annotationsCount, { documentIds: [doc], userId: 'u1' });
    assert.deepEqual(count.data, { [doc]: { total: 2, unread: 2 } }, js(count));
    await t.a.ok(PATHS.annotationsRead, { documentId: doc, userId: 'u1' });
    const counted = await t.a.ok(PATHS.annotationsCount, { documentIds: [doc], userId: 'u1' });
    assert.deepEqual(counted.data, { [doc]: { total: 2, unread: 0 } });
    const upd = await t.a.ok(PATHS.annotationsUpdate, {
      documentId: doc,
      locationIds: ['locationx'],
      updatedData: { color: 'red' },
    });
    assert.deepEqual(Object.keys(upd.data), ['t1']);
    const [changed] = (await t.a.ok(PATHS.annotationsGet, { documentId: doc, annotationIds: ['t1'] })).data;
    assert.deepEqual([changed.color, changed.comments.map((c: any) => c.commentText)], ['red', ['edited']]);
  });

  test("the delete page's examples 7 to 12: by documentId alone, with locationIds, userIds or annotationIds", async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, string[]][] = [
      [{}, { t1: undefined, t2: undefined }, []],
      [{ locationIds: ['locationx'] }, {}, ['t2']],
      [{ userIds: ['u2'] }, {}, ['t1']],
      [
        { annotationIds: ['t1', 'gone'] },
        { t1: { success: true, id: 't1', message: 'Deleted Successfully' }, gone: notFound('gone') },
        ['t2'],
      ],
      [{ locationIds: ['locationx'], userIds: ['u2'] }, {}, ['t2', 't1']],
      [
        { locationIds: ['locationx'], annotationIds: ['t1', 't2'] },
        { t1: { success: true, id: 't1', message: 'Deleted Successfully' }, t2: notFound('t2') },
        ['t2'],
      ],
    ];
    for (const [filters, entries, left] of cases) {
      const doc = uniq('doc');
      await seeded(doc);
      const r = await t.a.ok(PATHS.annotationsDelete, { documentId: doc, ...filters });
      assert.equal(r.message, 'Annotations deleted successfully.');
      if (filters.annotationIds) assert.deepEqual(r.data, entries, js(r));
      assert.deepEqual(await ids({ documentId: doc }), left, `${js(filters)} leaves ${left}`);
    }
  });
});

describe('documents without an organization: kept apart', () => {
  test('an organization with a document of the same id sees none of them, and they none of it', async () => {
    const doc = uniq('doc');
    const org = uniq('org');
    await seeded(doc);
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{ annotationId: 't1', commentData: [say('in the organization', 'u1')] }],
    });
    assert.deepEqual(await ids({ organizationId: org, documentId: doc }), ['t1']);
    await t.a.ok(PATHS.annotationsDelete, { documentId: doc });
    assert.deepEqual(await ids({ documentId: doc }), []);
    assert.deepEqual(await ids({ organizationId: org, documentId: doc }), ['t1'], "the organization's thread stays");
    const orgs = (await t.a.ok(PATHS.organizationsGet, {})).data as any[];
    assert.equal(
      orgs.some((o) => o.id === ''),
      false,
      `organizations/get lists no organization for them: ${js(orgs)}`,
    );
  });

  test('events carry no organizationId; erasure without organizationIds reaches them', async () => {
    const doc = uniq('doc');
    const tenant = await tenantIdOf(t, t.a);
    const from = await lastEventId(t, tenant);
    await seeded(doc);
    const [added] = await eventsSince(t, tenant, from);
    assert.deepEqual(
      [added!.type, 'organizationId' in added!, added!.documentId, 'organizationId' in added!.data.metadata],
      ['comment_annotation.add', false, doc, false],
      js(added),
    );
    await t.a.ok(PATHS.userDataDelete, { userIds: ['u1'] });
    assert.deepEqual(await ids({ documentId: doc }), ['t2'], "u1's thread (its only comment erased) goes with it");
  });
});

describe('documents without an organization: errors and security', () => {
  test('triggerNotification needs an organization: INVALID_ARGUMENT, nothing written', async () => {
    const doc = uniq('doc');
    const r = await t.a.post(PATHS.annotationsAdd, {
      documentId: doc,
      triggerNotification: true,
      commentAnnotations: [{ annotationId: 't', commentData: [say('x', 'u1')] }],
    });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT'), /data\.triggerNotification.*data\.organizationId/);
    assert.deepEqual(await ids({ documentId: doc }), []);
    const bad = await t.a.post(PATHS.annotationsGet, { organizationId: '', documentId: doc });
    assert.match(expectError(bad, 400, 'INVALID_ARGUMENT'), /data\.organizationId/, 'an empty id is not "none"');
  });

  test("another tenant's documents without an organization are its own", async () => {
    const doc = uniq('doc');
    await seeded(doc);
    assert.deepEqual(await ids({ documentId: doc }, t.b), []);
    const r = await t.b.ok(PATHS.annotationsDelete, { documentId: doc, annotationIds: ['t1'] });
    assert.deepEqual(r.data, { t1: notFound('t1') });
    await t.b.ok(PATHS.annotationsDelete, { documentId: doc });
    assert.deepEqual(await ids({ documentId: doc }), ['t2', 't1'], "b's deletes touch nothing of a's");
  });
});
