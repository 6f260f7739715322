// /v2's activities (activities/add, get, update, delete) and the tenant's activity settings
// (workspace/activityconfig/get and update) on the configured database: the pages' answers and messages,
// every write's events as activities (and the settings that turn them off), paging and filters, the
// documented errors, and tenants kept apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, steppingClock, type Caller, type TestApp, v2 } from '../helpers/app.js';
import { badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';
import { say, uniq } from '../helpers/threads.js';

const ADDED = 'Activity(s) added successfully.';
const READ = 'Activity(s) retrieved successfully.';
const UPDATED = 'Activity(s) updated successfully.';
const DELETED = 'Activity(s) deleted successfully.';
const CONFIG_READ = 'Activity logs configuration retrieved successfully.';
const CONFIG_UPDATED = 'Activity logs configuration updated successfully.';

let t: TestApp;
before(async () => {
  t = await makeTestApp({ clock: steppingClock() });
});
after(async () => t.close());

const actor = { userId: 'user-1', email: 'user@example.com', name: 'User Name' };
const enable = (c: Caller, extra: Record<string, unknown> = {}) =>
  c.ok(PATHS.activityConfigUpdate, { activityServiceConfig: { isEnabled: true, immutable: false, ...extra } });
const get = async (c: Caller, data: Record<string, unknown>) => (await c.ok(PATHS.activitiesGet, data)) as any;
const commentActivity = (over: Record<string, unknown> = {}) => ({
  featureType: 'comment',
  actionType: 'comment.add',
  actionUser: actor,
  displayMessageTemplate: '{{user}} added a comment',
  ...over,
});

describe('workspace/activityconfig', () => {
  test('never set: isEnabled false; the first enable seeds triggers, immutable and enabledTime under the request', async () => {
    const fresh = await makeTestApp({ clock: steppingClock() });
    try {
      const r = await fresh.a.post(PATHS.activityConfigGet, {});
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(r.json, {
        result: { status: 'success', message: CONFIG_READ, data: { activityServiceConfig: { isEnabled: false } } },
      });
      const u = await fresh.a.ok(PATHS.activityConfigUpdate, { activityServiceConfig: { isEnabled: true, immutable: false } });
      assert.equal(u.message, CONFIG_UPDATED);
      const c = u.data.activityServiceConfig;
      assert.equal(c.isEnabled, true);
      assert.equal(c.immutable, false, 'the request is merged over the seeded immutable: true');
      assert.equal(typeof c.enabledTime, 'number');
      assert.equal(c.triggers.comment['comment_annotation.suggestion_accept'], true);
      // Deep merge: omitted members stay, a trigger group merges.
      const again = await fresh.a.ok(PATHS.activityConfigUpdate, {
        activityServiceConfig: { triggers: { comment: { 'comment.delete': false } }, retentionDays: 30 },
      });
      const d = again.data.activityServiceConfig;
      assert.equal(d.enabledTime, c.enabledTime);
      assert.equal(d.triggers.comment['comment.add'], true);
      assert.equal(d.triggers.comment['comment.delete'], false);
      assert.equal(d.retentionDays, 30);
      assert.deepEqual((await fresh.a.ok(PATHS.activityConfigGet, {})).data, again.data);
      // Another tenant's settings are its own.
      assert.deepEqual((await fresh.b.ok(PATHS.activityConfigGet, {})).data, { activityServiceConfig: { isEnabled: false } });
    } finally {
      await fresh.close();
    }
  });

  test('no sub-field: the documented INVALID_ARGUMENT; bad members refused', async () => {
    const r = await t.a.post(PATHS.activityConfigUpdate, { activityServiceConfig: {} });
    assert.deepEqual(r.json, {
      error: { status: 'INVALID_ARGUMENT', message: 'At least one field must be provided for update' },
    });
    assert.equal(r.status, 400);
    expectError(
      await t.a.post(PATHS.activityConfigUpdate, { activityServiceConfig: { isEnabled: 'yes' } }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await t.a.post(PATHS.activityConfigUpdate, { activityServiceConfig: { retentionDays: 0 } }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(await t.a.post(PATHS.activityConfigUpdate, {}), 400, 'INVALID_ARGUMENT');
  });

  test('credentials are required', async () => {
    await expectMissingCredentials(t, PATHS.activityConfigGet, { data: {} });
    await expectMissingCredentials(t, PATHS.activityConfigUpdate, { data: { activityServiceConfig: { isEnabled: true } } });
  });
});

describe('activities/add and get', () => {
  test('add while disabled is refused and writes nothing; enabled, it answers as the page shows', async () => {
    const fresh = await makeTestApp({ clock: steppingClock() });
    try {
      const data = { organizationId: 'org-123', documentId: 'doc-456', activities: [commentActivity()] };
      expectError(await fresh.a.post(PATHS.activitiesAdd, data), 400, 'FAILED_PRECONDITION');
      assert.deepEqual((await fresh.a.ok(PATHS.activitiesGet, { organizationId: 'org-123' })).data, []);
      await enable(fresh.a);
      const r = await fresh.a.post(PATHS.activitiesAdd, data);
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(r.json, { result: { status: 'success', message: ADDED, data: { success: true, message: ADDED } } });
    } finally {
      await fresh.close();
    }
  });

  test('an activity reads back with its members, metadata (the reader key) and timestamp; a given id writes over', async () => {
    await enable(t.a);
    const org = uniq('org');
    const id = uniq('act');
    await t.a.ok(PATHS.activitiesAdd, {
      organizationId: org,
      documentId: 'doc-456',
      activities: [
        commentActivity({
          id,
          targetEntityId: 'annotation-789',
          targetSubEntityId: 'comment-001',
          changes: { commentText: { from: 'a', to: 'b' } },
          displayMessageTemplateData: { user: { userId: 'user-1', name: 'User Name' } },
        }),
      ],
    });
    const r = await get(t.a, { organizationId: org, documentId: 'doc-456' });
    assert.equal(r.message, READ);
    assert.equal(r.data.length, 1);
    const a = r.data[0];
    assert.equal(a.id, id);
    assert.equal(a.featureType, 'comment');
    assert.equal(a.actionType, 'comment.add');
    assert.deepEqual(a.actionUser, actor);
    assert.equal(a.targetEntityId, 'annotation-789');
    assert.equal(a.targetSubEntityId, 'comment-001');
    assert.deepEqual(a.changes, { commentText: { from: 'a', to: 'b' } });
    assert.deepEqual(a.metadata, { apiKey: t.a.creds.apiKey, documentId: 'doc-456', organizationId: org });
    assert.equal(typeof a.timestamp, 'number');
    assert.equal(r.pageToken, undefined);
    // The same id again: written over, still one.
    await t.a.ok(PATHS.activitiesAdd, {
      organizationId: org,
      documentId: 'doc-456',
      activities: [commentActivity({ id, actionType: 'comment.update' })],
    });
    const again = await get(t.a, { organizationId: org });
    assert.deepEqual(
      again.data.map((x: any) => [x.id, x.actionType]),
      [[id, 'comment.update']],
    );
  });

  test('custom activities need targetEntityId; bad featureType and missing members refused; nothing half-written', async () => {
    await enable(t.a);
    const org = uniq('org');
    const r = await t.a.post(PATHS.activitiesAdd, {
      organizationId: org,
      documentId: 'd',
      activities: [commentActivity(), { featureType: 'custom', actionType: 'statusChanged', actionUser: actor }],
    });
    const message = expectError(r, 400, 'INVALID_ARGUMENT');
    assert.match(message, /data\.activities\[1\]\.targetEntityId/);
    expectError(
      await t.a.post(PATHS.activitiesAdd, {
        organizationId: org,
        documentId: 'd',
        activities: [commentActivity({ featureType: 'x' })],
      }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await t.a.post(PATHS.activitiesAdd, {
        organizationId: org,
        documentId: 'd',
        activities: [{ featureType: 'comment', actionType: 'x' }],
      }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await t.a.post(PATHS.activitiesAdd, { organizationId: org, activities: [commentActivity()] }),
      400,
      'INVALID_ARGUMENT',
    );
    assert.deepEqual((await get(t.a, { organizationId: org })).data, []);
  });

  test('filters, order and paging', async () => {
    await enable(t.a);
    const org = uniq('org');
    const acts = [
      commentActivity({ id: 'a1', targetEntityId: 'ann-1' }),
      commentActivity({ id: 'a2', targetEntityId: 'ann-2', actionType: 'comment.update' }),
      commentActivity({ id: 'a3', featureType: 'custom', actionType: 'statusChanged', targetEntityId: 'e-1' }),
      commentActivity({ id: 'a4', targetEntityId: 'ann-1', actionUser: { userId: 'user-2' } }),
    ];
    for (const a of acts) await t.a.ok(PATHS.activitiesAdd, { organizationId: org, documentId: 'doc-1', activities: [a] });
    await t.a.ok(PATHS.activitiesAdd, { organizationId: org, documentId: 'doc-2', activities: [commentActivity({ id: 'b1' })] });
    const ids = async (data: Record<string, unknown>) =>
      (await get(t.a, { organizationId: org, ...data })).data.map((x: any) => x.id);
    assert.deepEqual(await ids({}), ['b1', 'a4', 'a3', 'a2', 'a1'], 'newest first');
    assert.deepEqual(await ids({ order: 'asc', documentId: 'doc-1' }), ['a1', 'a2', 'a3', 'a4']);
    assert.deepEqual(await ids({ featureTypes: ['custom'] }), ['a3']);
    assert.deepEqual(await ids({ featureTypes: [] }), ['b1', 'a4', 'a3', 'a2', 'a1'], 'an empty list is no filter');
    assert.deepEqual(await ids({ actionTypes: ['comment.update'] }), ['a2']);
    assert.deepEqual(await ids({ userId: 'user-2' }), ['a4']);
    assert.deepEqual(await ids({ targetEntityId: 'ann-1' }), ['a4', 'a1']);
    assert.deepEqual(await ids({ activityIds: ['a1', 'b1', 'nope'] }), ['b1', 'a1']);
    // Paging: two at a time, the token good only for its own filters.
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await get(t.a, { organizationId: org, pageSize: 2, ...(pageToken ? { pageToken } : {}) });
      seen.push(...page.data.map((x: any) => x.id));
      pageToken = page.pageToken;
    } while (pageToken);
    assert.deepEqual(seen, ['b1', 'a4', 'a3', 'a2', 'a1']);
    const first = await get(t.a, { organizationId: org, pageSize: 2 });
    expectError(
      await t.a.post(PATHS.activitiesGet, { organizationId: org, pageSize: 2, order: 'asc', pageToken: first.pageToken }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await t.a.post(PATHS.activitiesGet, { organizationId: org, pageToken: 'encryptedPageToken' }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(await t.a.post(PATHS.activitiesGet, { organizationId: org, pageSize: 0 }), 400, 'INVALID_ARGUMENT');
    expectError(await t.a.post(PATHS.activitiesGet, { organizationId: org, featureTypes: ['nope'] }), 400, 'INVALID_ARGUMENT');
    expectError(await t.a.post(PATHS.activitiesGet, { organizationId: org, order: 'sideways' }), 400, 'INVALID_ARGUMENT');
  });
});

describe("every write's events are activities", () => {
  test('a thread and a comment added, a document updated: each an activity, with the acting user and its entity', async () => {
    await enable(t.a);
    const org = uniq('org');
    const doc = uniq('doc');
    const added = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{ commentData: [say('first', 'alice')] }],
    });
    const annotationId = Object.keys(added.data)[0]!;
    await t.a.ok(PATHS.commentsAdd, { organizationId: org, documentId: doc, annotationId, commentData: [say('second', 'bob')] });
    const r = await get(t.a, { organizationId: org, documentId: doc, order: 'asc' });
    const shown = r.data.map((x: any) => [x.featureType, x.actionType, x.actionUser.userId, x.targetEntityId]);
    assert.deepEqual(shown, [
      ['comment', 'comment_annotation.add', 'alice', annotationId],
      ['comment', 'comment.add', 'bob', annotationId],
    ]);
    assert.equal(r.data[1].targetSubEntityId, String(r.data[1].entityData.commentId));
    assert.equal(r.data[1].entityData.commentText, 'second');
    // By the acting user.
    assert.deepEqual(
      (await get(t.a, { organizationId: org, userId: 'bob' })).data.map((x: any) => x.actionType),
      ['comment.add'],
    );
  });

  test('presence is no activity: a heartbeat that expires, not something that happened to the document', async () => {
    await enable(t.a);
    const org = uniq('org');
    const doc = uniq('doc');
    await t.a.ok(PATHS.presenceAdd, { organizationId: org, documentId: doc, users: [{ userId: 'alice', name: 'Alice' }] });
    await t.a.ok(PATHS.documentsUpdate, { organizationId: org, documents: [{ documentId: doc, documentName: 'Spec' }] });
    const r = await get(t.a, { organizationId: org, documentId: doc });
    assert.deepEqual(
      r.data.map((x: any) => x.actionType),
      ['document.update'],
      'the document write only',
    );
  });

  test('a write that fails writes no activity; triggers set false and a disabled config stop them', async () => {
    await enable(t.a);
    const org = uniq('org');
    const doc = uniq('doc');
    // Refused: a comment on a thread that is not there.
    const r = await t.a.post(PATHS.commentsAdd, {
      organizationId: org,
      documentId: doc,
      annotationId: 'nope',
      commentData: [say('x')],
    });
    assert.notEqual(r.status, 200);
    assert.deepEqual((await get(t.a, { organizationId: org })).data, []);
    await t.a.ok(PATHS.activityConfigUpdate, {
      activityServiceConfig: { triggers: { comment: { 'comment_annotation.add': false } } },
    });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{ commentData: [say('a')] }],
    });
    assert.deepEqual((await get(t.a, { organizationId: org })).data, []);
    await t.a.ok(PATHS.activityConfigUpdate, {
      activityServiceConfig: { triggers: { comment: { 'comment_annotation.add': true } } },
    });
    await t.a.ok(PATHS.activityConfigUpdate, { activityServiceConfig: { isEnabled: false } });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{ commentData: [say('b')] }],
    });
    assert.deepEqual((await get(t.a, { organizationId: org })).data, []);
    await enable(t.a);
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{ commentData: [say('c')] }],
    });
    assert.equal((await get(t.a, { organizationId: org })).data.length, 1);
  });
});

describe('activities/update and delete', () => {
  test("update: each id's outcome as the page shows it; the members named replace the stored ones", async () => {
    await enable(t.a);
    const org = uniq('org');
    await t.a.ok(PATHS.activitiesAdd, {
      organizationId: org,
      documentId: 'd',
      activities: [commentActivity({ id: 'activity-002' })],
    });
    const r = await t.a.post(PATHS.activitiesUpdate, {
      organizationId: org,
      activities: [
        { id: 'activity-001', displayMessageTemplate: '{{user}} updated the comment' },
        { id: 'activity-002', actionIcon: 'https://example.com/icons/edit.svg' },
      ],
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      result: {
        status: 'success',
        message: UPDATED,
        data: {
          'activity-001': { success: false, message: 'Failed to update activity.' },
          'activity-002': { success: true, message: 'Activity updated.' },
        },
      },
    });
    const [a] = (await get(t.a, { organizationId: org })).data;
    assert.equal(a.actionIcon, 'https://example.com/icons/edit.svg');
    assert.equal(a.displayMessageTemplate, '{{user}} added a comment', 'what the update did not name stays');
    expectError(await t.a.post(PATHS.activitiesUpdate, { organizationId: org, activities: [{}] }), 400, 'INVALID_ARGUMENT');
  });

  test('immutable activities are neither updated nor deleted through the API', async () => {
    await enable(t.a, { immutable: true });
    const org = uniq('org');
    await t.a.ok(PATHS.activitiesAdd, { organizationId: org, documentId: 'd', activities: [commentActivity({ id: 'locked' })] });
    await enable(t.a);
    const [shown] = (await get(t.a, { organizationId: org })).data;
    assert.equal(shown.immutable, true);
    const u = await t.a.ok(PATHS.activitiesUpdate, { organizationId: org, activities: [{ id: 'locked', actionIcon: 'x' }] });
    assert.deepEqual(u.data, { locked: { success: false, message: 'Failed to update activity.' } });
    const d = await t.a.ok(PATHS.activitiesDelete, { organizationId: org, activityIds: ['locked'] });
    assert.deepEqual(d.data, { locked: { success: false, message: 'Failed to delete activity.' } });
    assert.equal((await t.a.ok(PATHS.activitiesDelete, { organizationId: org, documentId: 'd' })).data.locked, undefined);
    assert.equal((await get(t.a, { organizationId: org })).data.length, 1);
  });

  test('delete by ids, by document, by entity, by both; at least one is required', async () => {
    await enable(t.a);
    const org = uniq('org');
    const add = (documentId: string, id: string, targetEntityId: string) =>
      t.a.ok(PATHS.activitiesAdd, { organizationId: org, documentId, activities: [commentActivity({ id, targetEntityId })] });
    await add('doc-456', 'activity-001', 'annotation-789');
    await add('doc-456', 'activity-002', 'annotation-1');
    await add('doc-9', 'activity-003', 'annotation-789');
    await add('doc-9', 'activity-004', 'annotation-2');
    await add('doc-456', 'activity-005', 'annotation-3');
    const r = await t.a.post(PATHS.activitiesDelete, { organizationId: org, activityIds: ['activity-001', 'nope'] });
    assert.deepEqual(r.json, {
      result: {
        status: 'success',
        message: DELETED,
        data: {
          'activity-001': { success: true, message: 'Activity deleted.' },
          nope: { success: false, message: 'Failed to delete activity.' },
        },
      },
    });
    const both = await t.a.ok(PATHS.activitiesDelete, {
      organizationId: org,
      documentId: 'doc-9',
      targetEntityId: 'annotation-789',
    });
    assert.deepEqual(Object.keys(both.data), ['activity-003']);
    const byTarget = await t.a.ok(PATHS.activitiesDelete, { organizationId: org, targetEntityId: 'annotation-2' });
    assert.deepEqual(Object.keys(byTarget.data), ['activity-004']);
    const byDoc = await t.a.ok(PATHS.activitiesDelete, { organizationId: org, documentId: 'doc-456' });
    assert.deepEqual(Object.keys(byDoc.data).sort(), ['activity-002', 'activity-005']);
    assert.deepEqual((await get(t.a, { organizationId: org })).data, []);
    const none = await t.a.post(PATHS.activitiesDelete, { organizationId: org });
    expectError(none, 400, 'INVALID_ARGUMENT');
  });
});

describe('activities: bounds', () => {
  test('delete by document or entity deletes at most MARGINALIA_ACTIVITIES_DELETE_MAX a call; a call again takes the next', async () => {
    const fresh = await makeTestApp({ clock: steppingClock(), config: { activitiesDeleteMax: 3 } });
    try {
      await enable(fresh.a);
      const ids = ['a1', 'a2', 'a3', 'a4', 'a5'];
      await fresh.a.ok(PATHS.activitiesAdd, {
        organizationId: 'org',
        documentId: 'd',
        activities: ids.map((id) => commentActivity({ id, targetEntityId: 'e' })),
      });
      const first = await fresh.a.ok(PATHS.activitiesDelete, { organizationId: 'org', documentId: 'd' });
      assert.equal(first.message, DELETED);
      assert.equal(Object.keys(first.data).length, 3, 'the answer lists as many as the bound');
      assert.ok(Object.values(first.data).every((o: any) => o.success === true));
      assert.equal((await get(fresh.a, { organizationId: 'org' })).data.length, 2, 'the others are still there');
      const second = await fresh.a.ok(PATHS.activitiesDelete, { organizationId: 'org', targetEntityId: 'e' });
      assert.deepEqual(Object.keys({ ...first.data, ...second.data }).sort(), ids, 'the next call deletes the rest');
      assert.deepEqual((await fresh.a.ok(PATHS.activitiesDelete, { organizationId: 'org', documentId: 'd' })).data, {});
    } finally {
      await fresh.close();
    }
  });

  test('trigger maps are bounded in a request and once merged with the stored ones; past it, 400 and nothing written', async () => {
    const fresh = await makeTestApp({ clock: steppingClock() });
    try {
      const types = (prefix: string, n: number) =>
        Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}.${i}`, false]));
      const update = (triggers: unknown) => fresh.a.post(PATHS.activityConfigUpdate, { activityServiceConfig: { triggers } });
      // The schema: at most 200 action types a group and 20 groups a request.
      expectError(await update({ comment: types('x', 201) }), 400, 'INVALID_ARGUMENT');
      expectError(await update(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`g${i}`, {}]))), 400, 'INVALID_ARGUMENT');
      // The merge: two requests within the bound that would add up past it.
      assert.equal((await update({ comment: types('x', 150) })).status, 200);
      const merged = await update({ comment: types('y', 60) });
      assert.match(
        expectError(merged, 400, 'INVALID_ARGUMENT'),
        /triggers\.comment: at most 200 triggers in a group.*would make 210/,
      );
      for (let g = 0; g < 19; g++) assert.equal((await update({ [`g${g}`]: { 'comment.add': true } })).status, 200);
      const groups = await update({ g19: { 'comment.add': true } });
      assert.match(expectError(groups, 400, 'INVALID_ARGUMENT'), /at most 20 trigger groups.*would make 21/);
      const stored = (await fresh.a.ok(PATHS.activityConfigGet, {})).data.activityServiceConfig.triggers;
      assert.equal(Object.keys(stored).length, 20, 'nothing written by the refused updates');
      assert.equal(Object.keys(stored.comment).length, 150);
    } finally {
      await fresh.close();
    }
  });
});

describe('activities: security', () => {
  test("another tenant's activities are invisible and untouchable; credentials are required", async () => {
    await enable(t.a);
    await enable(t.b);
    const org = uniq('org');
    await t.a.ok(PATHS.activitiesAdd, { organizationId: org, documentId: 'd', activities: [commentActivity({ id: 'mine' })] });
    assert.deepEqual((await get(t.b, { organizationId: org })).data, []);
    assert.deepEqual((await get(t.b, { organizationId: org, activityIds: ['mine'] })).data, []);
    const u = await t.b.ok(PATHS.activitiesUpdate, { organizationId: org, activities: [{ id: 'mine', actionIcon: 'x' }] });
    assert.equal(u.data.mine.success, false);
    const d = await t.b.ok(PATHS.activitiesDelete, { organizationId: org, activityIds: ['mine'] });
    assert.equal(d.data.mine.success, false);
    assert.deepEqual(await t.b.ok(PATHS.activitiesDelete, { organizationId: org, documentId: 'd' }).then((x) => x.data), {});
    // b writing the same id writes its own.
    await t.b.ok(PATHS.activitiesAdd, {
      organizationId: org,
      documentId: 'd',
      activities: [commentActivity({ id: 'mine', actionIcon: 'b' })],
    });
    const [a] = (await get(t.a, { organizationId: org })).data;
    assert.equal(a.actionIcon, undefined);
    assert.equal(a.metadata.apiKey, t.a.creds.apiKey);
    const paths = [PATHS.activitiesAdd, PATHS.activitiesGet, PATHS.activitiesUpdate, PATHS.activitiesDelete];
    for (const path of [...paths, PATHS.activityConfigGet, PATHS.activityConfigUpdate]) {
      const body = { data: { organizationId: org, activityIds: ['mine'], activityServiceConfig: { isEnabled: false } } };
      await expectMissingCredentials(t, path, body);
      for (const [label, headers] of badCredentialCases(t)) await expectBadCredentials(t, path, label, headers, body);
    }
    assert.equal((await t.a.ok(PATHS.activityConfigGet, {})).data.activityServiceConfig.isEnabled, true, 'nothing changed');
  });
});

describe('activities: erasure', () => {
  test("users/data/delete removes the activities the user did or that show them; the erasure's own names no one", async () => {
    await enable(t.a);
    const org = uniq('org');
    const doc = uniq('doc');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{ commentData: [say('hi', 'alice')] }],
    });
    await t.a.ok(PATHS.activitiesAdd, {
      organizationId: org,
      documentId: doc,
      activities: [
        commentActivity({ id: 'by-alice', actionUser: { userId: 'alice', name: 'Alice' } }),
        commentActivity({
          id: 'shows-alice',
          actionUser: { userId: 'bob' },
          displayMessageTemplateData: { to: { userId: 'alice' } },
        }),
        commentActivity({ id: 'bob-alone', actionUser: { userId: 'bob' } }),
      ],
    });
    await t.a.ok(PATHS.activitiesAdd, {
      organizationId: uniq('org'),
      documentId: doc,
      activities: [commentActivity({ id: 'kept' })],
    });
    // users/data/get lists the activities the user did.
    const data = (await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'alice' })).data;
    assert.deepEqual(
      data.activities.map((x: any) => x.actionType),
      ['comment.add', 'comment_annotation.add'],
    );
    assert.equal(data.activities[0].id, 'by-alice');
    assert.equal((await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'nobody' })).data.activities, undefined);
    const erased = await t.a.post(PATHS.userDataDelete, { organizationIds: [org], userIds: ['alice'] });
    assert.equal(erased.status, 202, erased.body);
    const left = (await get(t.a, { organizationId: org })).data.map((x: any) => x.id);
    assert.deepEqual(left, ['bob-alone']);
    const [erasure] = (await get(t.a, { actionTypes: ['user.data_delete'] })).data;
    assert.equal(erasure.actionUser.userId, '@server');
    assert.equal(erasure.entityData.usersCount, 1);
    assert.equal(erasure.entityData.jobId, erased.json.data.jobId);
    assert.doesNotMatch(JSON.stringify(erasure), /alice/);
    assert.deepEqual(
      await t.db.query(`SELECT activity_id FROM activities WHERE organization_id = '${org}' AND body LIKE '%alice%'`),
      [],
    );
  });
});

test('an erasure finds the activities of a user who has no other data, in every organization when none is named', async () => {
  await enable(t.a);
  const [org1, org2] = [uniq('org'), uniq('org')];
  const ghost = uniq('ghost');
  for (const organizationId of [org1, org2])
    await t.a.ok(PATHS.activitiesAdd, {
      organizationId,
      documentId: 'd',
      activities: [commentActivity({ actionUser: { userId: ghost } }), commentActivity({ id: 'stays' })],
    });
  assert.equal((await t.a.post(PATHS.userDataDelete, { userIds: [ghost] })).status, 202);
  for (const organizationId of [org1, org2])
    assert.deepEqual(
      (await get(t.a, { organizationId })).data.map((x: any) => x.id),
      ['stays'],
    );
  assert.deepEqual(await t.db.query(`SELECT activity_id FROM activities WHERE body LIKE '%${ghost}%'`), []);
});

test('/v2 comment writes with triggerActivities: false log no activity for those comments; the rest are logged', async () => {
  await enable(t.a);
  const org = uniq('org');
  const doc = uniq('doc');
  const added = await t.a.ok(v2(PATHS.annotationsAdd), {
    organizationId: org,
    documentId: doc,
    commentAnnotations: [
      { commentData: [say('quiet thread', 'alice', { triggerActivities: false })] },
      { commentData: [say('loud thread', 'alice')] },
    ],
  });
  const [quietId, loudId] = Object.keys(added.data);
  await t.a.ok(v2(PATHS.commentsAdd), {
    organizationId: org,
    documentId: doc,
    annotationId: quietId,
    commentData: [
      say('quiet reply', 'bob', { triggerActivities: false }),
      say('loud reply', 'carol', { triggerActivities: true }),
    ],
  });
  const shown = (await get(t.a, { organizationId: org, order: 'asc' })).data.map((x: any) => [
    x.actionType,
    x.actionUser.userId,
    x.targetEntityId,
  ]);
  assert.deepEqual(shown, [
    ['comment_annotation.add', 'alice', loudId],
    ['comment.add', 'carol', quietId],
  ]);
  const comments = (await t.a.ok(v2(PATHS.commentsGet), { organizationId: org, documentId: doc, annotationId: quietId })).data;
  assert.ok(!JSON.stringify(comments).includes('noActivity'), 'the flag is not stored in the answer');
});
