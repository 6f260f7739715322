// Personal data (docs/api.md, "POST /v1/users/data/get"): users/data/get, users/data/delete and
// users/data/delete/status, on the configured database. Happy: what a user wrote and received, paged; erasure in
// every organization or those named, in batches; afterwards no table holds the user's id, name or email. Errors:
// the request rules, an unknown job, erasure under a disabled organization (allowed). Security:
// credentials first; another tenant reads and erases nothing. Also: erasing a user with 100,000
// comments, timed, with another tenant writing meanwhile.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { internalUserId } from '../../src/domain/ids.js';
import { encodeKeyToken, filterDigest } from '../../src/services/page-token.js';
import { expectError, makeTestApp, notificationData, PATHS, type TestApp, user } from '../helpers/app.js';
import { assertNoLeak, badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';

let t: TestApp;
before(async () => {
  // Small batches, so every step of an erasure runs in several transactions.
  t = await makeTestApp({ erasureBatchSize: 2 });
});
after(async () => t.close());

/**
 * Where the database's own bytes still hold any of the texts. SQLite: the file and its WAL, read raw,
 * free pages and all (secure_delete zeroes what is deleted; the erasure checkpoints the WAL into the file
 * and truncates it). PostgreSQL keeps dead row versions until VACUUM, which the erasure runs: a table the
 * erasure vacuumed shows it in pg_stat_user_tables (what remains beyond, in the WAL and in free space
 * until reused, is in docs/operations.md).
 */
async function bytesHolding(texts: string[]): Promise<string[]> {
  if (t.db.kind === 'sqlite') {
    const path = t.db.env.DATABASE_URL!.slice('sqlite:'.length);
    const found: string[] = [];
    for (const file of [path, `${path}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      for (const text of texts) if (bytes.includes(Buffer.from(text))) found.push(`${file} holds ${text}`);
    }
    return found;
  }
  // pg_stat_user_tables is written as the VACUUM reports, in shared memory: read until it shows (at most 5 s).
  for (let i = 0; ; i++) {
    const rows = await t.db.query(
      `SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname IN ('users', 'comments')
         AND last_vacuum IS NULL`,
    );
    if (rows.length === 0 || i === 50) return rows.map((r) => `${r.relname} was not vacuumed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** users/data/get's data for a user with nothing (reactions and recordings are always empty). */
const NOTHING = { comments: [], reactions: [], recordings: [], notifications: [] };
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const say = (text: string, userId: string, extra: Record<string, unknown> = {}) => ({
  commentHtml: `<p>${text}</p>`,
  from: { userId },
  ...extra,
});
const threads = (org: string, documentId: string, list: unknown[], who = t.a) =>
  who.ok(PATHS.annotationsAdd, { organizationId: org, documentId, commentAnnotations: list });
const texts = async (org: string, documentId: string, annotationId: string) =>
  ((await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId, annotationId })).data as { commentText: string }[]).map(
    (c) => c.commentText,
  );
const notified = (org: string, over: Record<string, unknown>) => t.a.ok(PATHS.notificationsAdd, notificationData(org, over));
const tenantIdOf = async (apiKey: string) =>
  (await t.db.query(`SELECT id FROM tenants WHERE api_key = '${apiKey}'`))[0]!.id as string;

describe('personal data: happy paths', () => {
  test('get: the comments the user wrote and the notifications they acted, are listed or (as a member) are in', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u'), user('v')] });
    await threads(org, 'd1', [{ annotationId: 't1', commentData: [say('by v', 'v'), say('by u 1', 'u')] }]);
    await threads(org, 'd2', [{ annotationId: 't2', commentData: [say('by u 2', 'u')] }]);
    await notified(org, { notificationId: 'acted', actionUser: { userId: 'u' }, notifyUsers: [{ userId: 'v' }] });
    await notified(org, { notificationId: 'listed', notifyUsers: [{ userId: 'u' }, { userId: 'v' }] });
    await notified(org, { notificationId: 'wide', notifyUsers: [], notifyAll: true });
    await notified(org, { notificationId: 'other', notifyUsers: [{ userId: 'v' }] });
    const got = await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u' });
    assert.equal(got.message, 'Data fetched successfully.');
    assert.deepEqual(
      got.data.comments.map((c: Record<string, unknown>) => [c.documentId, c.annotationId, c.commentId, c.commentText]),
      [
        ['d1', 't1', 2, 'by u 1'],
        ['d2', 't2', 1, 'by u 2'],
      ],
    );
    const [first] = got.data.comments;
    assert.deepEqual(first.from, { email: 'u@example.com', name: 'Name u', userId: 'u' }, 'shown as comments/get shows it');
    assert.deepEqual(got.data.notifications.map((n: { id: string }) => n.id).sort(), ['acted', 'listed', 'wide']);
    assert.equal(got.nextPageToken, undefined);
    const nobody = await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'nobody' });
    assert.deepEqual(nobody.data, NOTHING, 'a user with nothing reads as empty');
  });

  test('get pages at most 100 of each list; nextPageToken while either has more', async () => {
    const org = uniq('org');
    const many = Array.from({ length: 130 }, (_, i) => say(`c${i}`, 'u'));
    await threads(org, 'd', [{ annotationId: 't', commentData: many }]);
    for (let i = 0; i < 105; i++) await notified(org, { notificationId: `n${i}`, notifyUsers: [{ userId: 'u' }] });
    const one = await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u' });
    assert.deepEqual([one.data.comments.length, one.data.notifications.length], [100, 100]);
    assert.ok(one.nextPageToken);
    const two = await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u', pageToken: one.nextPageToken });
    assert.deepEqual([two.data.comments.length, two.data.notifications.length], [30, 5]);
    assert.equal(two.nextPageToken, undefined);
    const ids = [...one.data.comments, ...two.data.comments].map((c: { commentId: number }) => c.commentId);
    assert.equal(new Set(ids).size, 130, 'no comment twice, none left out');
    const nids = [...one.data.notifications, ...two.data.notifications].map((n: { id: string }) => n.id);
    assert.equal(new Set(nids).size, 105);
  });

  test('delete: the conformance story; the status; an emptied thread goes; the others are rendered again', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u'), user('v')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd', users: [user('u')] });
    await threads(org, 'd', [
      { annotationId: 't1', commentData: [say('by v', 'v'), say('by u 1', 'u'), say('by u 2', 'u')] },
      { annotationId: 'mine', commentData: [say('only u', 'u'), say('only u again', 'u'), say('and again', 'u')] },
    ]);
    await notified(org, {
      notificationId: 'acted',
      documentId: 'd',
      actionUser: { userId: 'u' },
      notifyUsers: [{ userId: 'v' }],
    });
    await notified(org, { notificationId: 'both', documentId: 'd', notifyUsers: [{ userId: 'u' }, { userId: 'v' }] });
    await notified(org, { notificationId: 'alone', documentId: 'd', notifyUsers: [{ userId: 'u' }] });
    await t.a.ok(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: ['d'],
      userIds: ['u'],
      config: { inbox: 'ALL' },
    });
    const del = await t.a.ok(PATHS.userDataDelete, { userIds: ['u'], organizationIds: [org] });
    assert.equal(del.message, 'Data deletion process has been initiated.');
    assert.equal(typeof del.data.jobId, 'string');
    assert.ok(Number.isInteger(del.data.tasksCount) && del.data.tasksCount > 13, JSON.stringify(del.data));
    const st = await t.a.ok(PATHS.userDataStatus, { jobId: del.data.jobId });
    assert.equal(st.message, 'Data fetched successfully.');
    assert.deepEqual([st.data.isDeleteCompleted, st.data.tasksLeft], [true, 0]);
    assert.ok(Number.isInteger(st.data.lastTaskCompletedTime));
    const users = (await t.a.ok(PATHS.usersGet, { organizationId: org })).data.map((x: { userId: string }) => x.userId);
    assert.deepEqual(users, ['v']);
    assert.deepEqual(await texts(org, 'd', 't1'), ['by v']);
    const left = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'd' })).data;
    assert.deepEqual(
      left.map((a: { annotationId: string }) => a.annotationId),
      ['t1'],
      'the thread of u alone went',
    );
    assert.deepEqual(
      left[0].comments.map((c: { commentText: string }) => c.commentText),
      ['by v'],
      'the stored answer was rendered again',
    );
    const inbox = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'd' })).data;
    assert.deepEqual(inbox.map((n: { id: string }) => n.id).sort(), ['both']);
    assert.deepEqual(inbox[0].notifyUsersByUserId, { v: true });
    const vInbox = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'v' })).data;
    assert.deepEqual(vInbox[0].notifyUsersByUserId, { v: true }, "v's own inbox row shows the answer rendered again");
    const [cfg] = (await t.a.ok(PATHS.notificationsConfigGet, { organizationId: org, documentIds: ['d'], userId: 'u' })).data;
    assert.deepEqual(cfg.config, { inbox: 'MINE', email: 'MINE' });
    const count = (await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'u' })).data;
    assert.deepEqual(count, { total: 0, unread: 0 });
    const afterwards = await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u' });
    assert.deepEqual(afterwards.data, NOTHING);
  });

  test('delete without organizationIds erases the user in every organization of the tenant, and only that user', async () => {
    const [o1, o2] = [uniq('org'), uniq('org')];
    for (const org of [o1, o2]) {
      await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u'), user('keep')] });
      await threads(org, 'd', [{ annotationId: 't', commentData: [say('u says', 'u'), say('keep says', 'keep')] }]);
    }
    await t.a.ok(PATHS.userDataDelete, { userIds: ['u', 'u'] });
    for (const org of [o1, o2]) {
      const users = (await t.a.ok(PATHS.usersGet, { organizationId: org })).data.map((x: { userId: string }) => x.userId);
      assert.deepEqual(users, ['keep'], org);
      assert.deepEqual(await texts(org, 'd', 't'), ['keep says']);
    }
  });

  test('afterwards no table of the database holds the user id, name or email, in any text column', async () => {
    const [org, org2] = [uniq('org'), uniq('org')];
    const id = 'zz-erase-7f3a';
    const name = 'Zebulon Quuxley';
    const email = 'zebulon.q@erase.example';
    const me = { userId: id, name, email };
    const tenantId = await tenantIdOf(t.a.creds.apiKey);
    for (const o of [org, org2]) {
      await t.a.ok(PATHS.usersAdd, { organizationId: o, users: [me, user('v')] });
      await t.a.ok(PATHS.usersAdd, { organizationId: o, documentId: 'd', users: [me] });
      await t.a.ok(PATHS.usersAdd, { organizationId: o, folderId: 'f', users: [me] });
      await t.a.ok(PATHS.userGroupsAdd, { organizationId: o, organizationUserGroups: [{ groupId: 'g' }] });
      await t.a.ok(PATHS.groupUsersAdd, { organizationId: o, organizationUserGroupId: 'g', userIds: [id, 'v'] });
      await t.a.ok(PATHS.notificationsConfigSet, {
        organizationId: o,
        documentIds: ['d'],
        userIds: [id],
        config: { email: 'ALL' },
      });
      await threads(o, 'd', [
        { annotationId: 'hers', commentData: [say('mine', id, { from: me })] },
        {
          annotationId: 'theirs',
          assignedTo: me,
          commentData: [
            say('hello', 'v', {
              taggedUserContacts: [
                { userId: id, text: '@Z', contact: me },
                { userId: 'w', text: '@W' },
              ],
            }),
            say('reply', id, { from: me }),
          ],
        },
      ]);
      await t.a.ok(PATHS.commentsAdd, {
        organizationId: o,
        documentId: 'd',
        annotationId: 'theirs',
        triggerNotification: true,
        commentData: [say(`hey @${name}`.replace(name, 'you'), 'v', { taggedUserContacts: [{ userId: id, contact: me }] })],
      });
      await t.a.ok(PATHS.annotationsRead, { organizationId: o, documentId: 'd', userId: id });
      await notified(o, { notificationId: 'acted', actionUser: me, notifyUsers: [{ userId: 'v' }] });
      await notified(o, { notificationId: 'both', notifyUsers: [me, user('v')] });
      await notified(o, { notificationId: 'alone', notifyUsers: [me] });
      await notified(o, { notificationId: 'wide', notifyUsers: [], notifyAll: true });
      await notified(o, {
        notificationId: 'about',
        displayHeadlineMessageTemplate: '{who} joined',
        displayHeadlineMessageTemplateData: { who: me },
        notifyUsers: [{ userId: 'v' }],
      });
      await t.a.ok(PATHS.notificationsRead, { organizationId: o, userId: id });
      const state = (liveStateDataId: string, data: unknown) =>
        t.a.ok(PATHS.liveStateBroadcast, { organizationId: o, documentId: 'd', liveStateDataId, data });
      await state('cursors', { [id]: { line: 3 }, v: { line: 9 }, by: { userId: id, name } });
      await state('layout', { columns: 2 });
      await t.a
        .ok(PATHS.notificationsUpdate, { organizationId: o, notifications: [{ id: 'both', readBy: [id] }] })
        .catch(() => null);
    }
    // Approval workflows (tenant-wide, their organization in the execution's target): one run names the user
    // in its trigger context, one only through its step's reviewers and log, one names someone else.
    const reviewedBy = (definitionId: string, reviewer: string) => ({
      definitionId,
      name: 'Review',
      nodes: [
        { nodeId: 'review', type: 'human', config: { reviewers: [{ userId: reviewer, mandatory: true }] } },
        { nodeId: 'rework', type: 'agent', config: { agentId: '__mock__', url: 'https://acme.example/doc' } },
      ],
      edges: [{ from: 'review', to: 'rework', on: 'reject' }],
    });
    /** Workflow pages answer `{"result": ...}` without the status envelope. */
    const flow = async (path: string, data: unknown) => {
      const r = await t.a.post(path, data);
      assert.equal(r.status, 200, `${path}: ${r.body.slice(0, 300)}`);
      return r.json.result;
    };
    await flow(PATHS.workflowDefinitionsCreate, reviewedBy('wf-by-user', id));
    await flow(PATHS.workflowDefinitionsCreate, reviewedBy('wf-by-other', 'v'));
    const dispatch = async (definitionId: string, triggerContext: Record<string, unknown>) =>
      (
        await flow(PATHS.workflowExecutionsDispatch, {
          definitionId,
          idempotencyKey: uniq('key'),
          organizationId: org,
          triggerContext,
        })
      ).executionId as string;
    await dispatch('wf-by-other', { requestedBy: id });
    const reviewed = await dispatch('wf-by-user', { requestedBy: 'v' });
    const kept = await dispatch('wf-by-other', { requestedBy: 'v' });
    const step = (await flow(PATHS.workflowExecutionsGet, { executionId: reviewed })).steps[0];
    await flow(PATHS.workflowStepsRecordReviewerDecision, {
      executionId: reviewed,
      stepId: step.stepId,
      reviewerId: id,
      decision: 'approve',
    });
    // Roles (migration 40), on the organization and on a document of the other one.
    await t.a.ok(PATHS.permissionsAdd, {
      user: { userId: id },
      permissions: {
        resources: [
          { type: 'organization', id: org },
          { type: 'document', id: 'd', organizationId: org2, accessRole: 'viewer' },
        ],
      },
    });
    // Webhook deliveries carry events' bodies (migration 17): one owed for each event, as a webhook would hold them.
    await t.db.exec(`INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, organization_id, event_type, body, status,
        created_at)
      SELECT tenant_id, 'wh-erasure', id, organization_id, type, body, 'pending', created_at FROM events
      WHERE tenant_id = '${tenantId}' AND organization_id IN ('${org}', '${org2}')`);
    const needles = [id, name, email, internalUserId(tenantId, org, id), internalUserId(tenantId, org2, id)];
    const holding = async () => {
      const found: string[] = [];
      for (const [table, columns] of await t.db.textColumns()) {
        // A definition is the tenant's configuration, naming reviewers as the tenant wrote them (docs/decisions.md).
        if (table === 'workflow_definitions' || table === 'workflow_definition_versions') continue;
        for (const column of columns) {
          for (const needle of needles) {
            const rows = await t.db.query(`SELECT count(*) AS n FROM ${table} WHERE ${column} LIKE '%${needle}%'`);
            if (Number(rows[0]!.n) > 0) found.push(`${table}.${column} holds ${needle}`);
          }
        }
      }
      return found;
    };
    const before = await holding();
    for (const table of [
      'users',
      'memberships',
      'group_members',
      'comments',
      'annotations',
      'notifications',
      'inbox',
      'events',
      'webhook_deliveries',
      'live_states',
      'workflow_executions',
      'workflow_steps',
      'workflow_events',
      'access_roles',
    ]) {
      assert.ok(
        before.some((f) => f.startsWith(`${table}.`)),
        `the fixture puts the user in ${table}: ${before.join('; ')}`,
      );
    }
    await t.a.ok(PATHS.userDataDelete, { userIds: [id] });
    assert.deepEqual(await holding(), []);
    assert.deepEqual(await bytesHolding([name, email]), [], 'no page of the file or its WAL holds the name or the email');
    // What others wrote stays, and so does the history that does not name the user.
    for (const table of ['events', 'webhook_deliveries']) {
      const kept = await t.db.query(`SELECT count(*) AS n FROM ${table} WHERE organization_id = '${org}'`);
      assert.ok(Number(kept[0]!.n) > 0, `${table}: what does not name the user stays`);
    }
    assert.deepEqual(await texts(org, 'd', 'theirs'), ['hello', 'hey @you']);
    const runs = await t.db.query(`SELECT execution_id FROM workflow_executions WHERE tenant_id = '${tenantId}'`);
    assert.deepEqual(
      runs.map((r) => r.execution_id),
      [kept],
      'the runs naming the user went whole; the other stays',
    );
    const left = await t.db.query(`SELECT count(*) AS n FROM workflow_steps WHERE tenant_id = '${tenantId}'`);
    assert.equal(Number(left[0]!.n), 1, 'with its step');
    const states = (await t.a.ok(PATHS.liveStateGet, { organizationId: org, documentId: 'd' })).data;
    assert.deepEqual(
      states.map((x: { liveStateDataId: string }) => x.liveStateDataId),
      ['layout'],
      'a state naming the user went whole; the other stays',
    );
    const [theirs] = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'd', annotationIds: ['theirs'] }))
      .data;
    assert.equal(theirs.assignedTo, undefined, 'the assignment went');
    assert.deepEqual(theirs.comments[0].taggedUserContacts, [{ userId: 'w', text: '@W' }], 'the other tag stays');
    const ids = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'v' })).data.map(
      (n: { id: string }) => n.id,
    );
    assert.deepEqual(ids.sort(), ['both', 'wide'], 'acted-in, about-the-user and fan-out notifications went; the others stay');
  });

  test('delete erases several users at once across organizations, including those where they have nothing', async () => {
    const [o1, o2, o3, empty] = [uniq('org'), uniq('org'), uniq('org'), uniq('org')];
    const gone = ['m1', 'm2', 'm3'];
    const tenantId = await tenantIdOf(t.a.creds.apiKey);
    // o1: all three, with comments, notifications, assignments and tags; o2: only m2; o3: none of them
    // has a row, but m3 is assigned a thread and tagged there; empty: nobody at all.
    await t.a.ok(PATHS.usersAdd, { organizationId: o1, users: [user('m1'), user('m2'), user('m3'), user('keep')] });
    await threads(o1, 'd', [
      { annotationId: 'shared', commentData: [say('m1 a', 'm1'), say('keep a', 'keep'), say('m2 a', 'm2'), say('m1 b', 'm1')] },
      { annotationId: 'theirs', commentData: [say('m1 c', 'm1'), say('m2 b', 'm2'), say('m3 a', 'm3')] },
      {
        annotationId: 'kept',
        assignedTo: user('m2'),
        commentData: [
          say('keep b', 'keep', {
            taggedUserContacts: [{ userId: 'm1' }, { userId: 'keep' }, { userId: 'x', contact: user('m3') }],
          }),
        ],
      },
    ]);
    await notified(o1, { notificationId: 'acted', actionUser: { userId: 'm3' }, notifyUsers: [{ userId: 'keep' }] });
    await notified(o1, { notificationId: 'them', notifyUsers: [{ userId: 'm1' }, { userId: 'm2' }] });
    await notified(o1, { notificationId: 'mixed', notifyUsers: [{ userId: 'm1' }, { userId: 'keep' }, { userId: 'm3' }] });
    await t.a.ok(PATHS.usersAdd, { organizationId: o2, users: [user('m2'), user('keep')] });
    await threads(o2, 'd', [{ annotationId: 't', commentData: [say('m2 here', 'm2'), say('keep here', 'keep')] }]);
    await t.a.ok(PATHS.usersAdd, { organizationId: o3, users: [user('keep')] });
    await threads(o3, 'd', [
      {
        annotationId: 't',
        assignedTo: user('m3'),
        commentData: [say('keep there', 'keep', { taggedUserContacts: [{ userId: 'm3', contact: user('m3') }] })],
      },
    ]);
    await t.a.ok(PATHS.usersAdd, { organizationId: empty, users: [user('keep')] });
    const del = await t.a.ok(PATHS.userDataDelete, { userIds: [...gone, 'nobody'], organizationIds: [o1, o2, o3, empty] });
    assert.ok(Number.isInteger(del.data.tasksCount), JSON.stringify(del.data));
    for (const org of [o1, o2, o3, empty]) {
      const users = (await t.a.ok(PATHS.usersGet, { organizationId: org })).data.map((x: { userId: string }) => x.userId);
      assert.deepEqual(users, ['keep'], org);
      for (const u of gone) {
        assert.deepEqual((await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: u })).data, NOTHING);
      }
    }
    assert.deepEqual(await texts(o1, 'd', 'shared'), ['keep a']);
    const left = (await t.a.ok(PATHS.annotationsGet, { organizationId: o1, documentId: 'd' })).data;
    const byId = new Map(left.map((a: { annotationId: string }) => [a.annotationId, a]));
    assert.deepEqual([...byId.keys()].sort(), ['kept', 'shared'], 'the thread of the erased users alone went');
    const kept = byId.get('kept') as { assignedTo?: unknown; comments: { taggedUserContacts?: unknown }[] };
    assert.equal(kept.assignedTo, undefined);
    assert.deepEqual(kept.comments[0]!.taggedUserContacts, [{ userId: 'keep' }]);
    const shared = byId.get('shared') as { comments: { commentText: string }[] };
    assert.deepEqual(
      shared.comments.map((c) => c.commentText),
      ['keep a'],
      'rendered again',
    );
    const inbox = (await t.a.ok(PATHS.notificationsGet, { organizationId: o1, userId: 'keep' })).data;
    assert.deepEqual(
      inbox.map((n: { id: string }) => n.id),
      ['mixed'],
    );
    assert.deepEqual(inbox[0].notifyUsersByUserId, { keep: true }, 'both erased recipients went from the answer');
    const rest = await t.db.query(
      `SELECT count(*) AS n FROM notifications WHERE tenant_id = '${tenantId}' AND organization_id = '${o1}'`,
    );
    assert.equal(Number(rest[0]!.n), 1, 'acted-in and listed-to-them-alone notifications went');
    assert.deepEqual(await texts(o2, 'd', 't'), ['keep here']);
    const [there] = (await t.a.ok(PATHS.annotationsGet, { organizationId: o3, documentId: 'd' })).data;
    assert.equal(there.assignedTo, undefined, 'named without a row of their own: still erased');
    assert.equal(there.comments[0].taggedUserContacts, undefined);
    for (const u of gone) {
      for (const [table, column] of [
        ['comments', 'from_user_id'],
        ['inbox', 'user_id'],
        ['users', 'user_id'],
        ['annotations', 'assigned_to'],
        ['comments', 'tagged_user_contacts'],
      ] as const) {
        const like = column === 'assigned_to' || column === 'tagged_user_contacts' ? `LIKE '%"${u}"%'` : `= '${u}'`;
        const rows = await t.db.query(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = '${tenantId}' AND ${column} ${like}`);
        assert.equal(Number(rows[0]!.n), 0, `${table}.${column} holds ${u}`);
      }
    }
  });
});

describe('personal data: errors', () => {
  test('request rules: INVALID_ARGUMENT', async () => {
    const org = uniq('org');
    const get = await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u' });
    assert.deepEqual(get.data, NOTHING);
    const cases: [string, unknown][] = [
      [PATHS.userDataGet, { organizationId: org }],
      [PATHS.userDataGet, { userId: 'u' }],
      [PATHS.userDataGet, { organizationId: org, userId: 'u', pageToken: 'junk!' }],
      [PATHS.userDataGet, { organizationId: org, userId: 'u', pageToken: Buffer.from('[2,"{}","x"]').toString('base64url') }],
      [PATHS.userDataDelete, {}],
      [PATHS.userDataDelete, { userIds: [] }],
      [PATHS.userDataDelete, { userIds: ['u'], organizationIds: 'o' }],
      [PATHS.userDataStatus, {}],
      [PATHS.userDataStatus, { jobId: 5 }],
    ];
    for (const [path, data] of cases) {
      const r = await t.a.post(path, data);
      expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${JSON.stringify(data)}`);
      assertNoLeak(r, path);
    }
  });

  test('forged page tokens are INVALID_ARGUMENT, never a 500 (tokens are unsigned, the digest computable)', async () => {
    const org = uniq('org');
    const digest = filterDigest(['users/data/get', org, 'u']);
    const token = (cursor: unknown) => encodeKeyToken(typeof cursor === 'string' ? cursor : JSON.stringify(cursor), digest);
    const comments = { documentId: 'd', annotationId: 't', commentId: 1 };
    const notifications = { timestamp: 5, notificationId: 'n' };
    // A genuine-shaped token is accepted: the forged ones below differ from it in one member each.
    await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u', pageToken: token({ comments, notifications }) });
    const forged: unknown[] = [
      { comments: { ...comments, commentId: 9_999_999_999 }, notifications },
      { comments: { ...comments, commentId: 2_147_483_648 }, notifications },
      { comments: { ...comments, commentId: 0 }, notifications },
      { comments: { ...comments, commentId: -1 }, notifications },
      { comments: { ...comments, commentId: 1.5 }, notifications },
      { comments: { ...comments, commentId: '1' }, notifications },
      { comments: { ...comments, documentId: 'd\u0000' }, notifications },
      { comments: { ...comments, annotationId: '\u0000' }, notifications },
      { comments: { ...comments, documentId: '\ud800' }, notifications },
      { comments: { ...comments, documentId: 7 }, notifications },
      { comments: { documentId: 'd', commentId: 1 }, notifications },
      { comments, notifications: { ...notifications, notificationId: 'n\u0000' } },
      { comments, notifications: { ...notifications, notificationId: null } },
      { comments, notifications: { ...notifications, timestamp: 2 ** 60 } },
      { comments, notifications: { ...notifications, timestamp: '5' } },
      { comments, notifications: [5, 'n'] },
      { comments: [], notifications },
      { comments: null, notifications: null },
      { comments },
      [comments, notifications],
      'null',
      '"text"',
      '{"comments":',
    ];
    for (const cursor of forged) {
      // JSON.stringify writes a NUL or a lone surrogate as a \u escape: the token's key itself is storable.
      const text = typeof cursor === 'string' ? cursor : JSON.stringify(cursor);
      const r = await t.a.post(PATHS.userDataGet, { organizationId: org, userId: 'u', pageToken: token(text) });
      expectError(r, 400, 'INVALID_ARGUMENT', text);
      assertNoLeak(r, text);
    }
  });

  test('a page token is good only for the user it was issued for', async () => {
    const org = uniq('org');
    for (let i = 0; i < 101; i++) await notified(org, { notificationId: `n${i}`, notifyUsers: [{ userId: 'u' }] });
    const one = await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u' });
    const r = await t.a.post(PATHS.userDataGet, { organizationId: org, userId: 'v', pageToken: one.nextPageToken });
    expectError(r, 400, 'INVALID_ARGUMENT');
  });

  test('an unknown job is NOT_FOUND', async () => {
    expectError(await t.a.post(PATHS.userDataStatus, { jobId: 'no-such-job' }), 404, 'NOT_FOUND');
  });

  test('erasure is not refused under a disabled organization (a legal obligation)', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u')] });
    await threads(org, 'd', [{ annotationId: 't', commentData: [say('x', 'u')] }]);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    await t.a.ok(PATHS.userDataDelete, { userIds: ['u'], organizationIds: [org] });
    assert.deepEqual((await t.a.ok(PATHS.usersGet, { organizationId: org })).data, []);
    assert.deepEqual((await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u' })).data.comments, []);
  });
});

describe('personal data: security', () => {
  test('credentials are checked first', async () => {
    const body = { data: { organizationId: 'o', userId: 'u', userIds: ['u'], jobId: 'j' } };
    for (const path of [PATHS.userDataGet, PATHS.userDataDelete, PATHS.userDataStatus]) {
      await expectMissingCredentials(t, path, body);
      for (const [label, headers] of badCredentialCases(t)) await expectBadCredentials(t, path, label, headers, body);
    }
  });

  test("another tenant reads nothing of a's, erases nothing of a's, and cannot see a's jobs", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u')] });
    await threads(org, 'd', [{ annotationId: 't', commentData: [say('secret', 'u')] }]);
    await notified(org, { notificationId: 'n', notifyUsers: [{ userId: 'u' }] });
    const read = await t.b.ok(PATHS.userDataGet, { organizationId: org, userId: 'u' });
    assert.deepEqual(read.data, NOTHING);
    const mine = await t.a.ok(PATHS.userDataDelete, { userIds: ['nobody'], organizationIds: [org] });
    await t.b.ok(PATHS.userDataDelete, { userIds: ['u'] });
    await t.b.ok(PATHS.userDataDelete, { userIds: ['u'], organizationIds: [org] });
    expectError(await t.b.post(PATHS.userDataStatus, { jobId: mine.data.jobId }), 404, 'NOT_FOUND');
    assert.deepEqual(await texts(org, 'd', 't'), ['secret']);
    const still = await t.a.ok(PATHS.userDataGet, { organizationId: org, userId: 'u' });
    assert.deepEqual([still.data.comments.length, still.data.notifications.length], [1, 1]);
  });
});

describe('personal data: a user with 100,000 comments', () => {
  test('erased in bounded batches; no batch is long; another tenant writes meanwhile', { timeout: 600_000 }, async () => {
    const big = await makeTestApp();
    let erasing = true;
    let writer: Promise<void> = Promise.resolve();
    try {
      const tenantId = (await big.db.query(`SELECT id FROM tenants WHERE api_key = '${big.a.creds.apiKey}'`))[0]!.id as string;
      const COMMENTS = 100_000;
      const PER_THREAD = 100;
      await big.a.ok(PATHS.usersAdd, { organizationId: 'big', users: [user('heavy'), user('other')] });
      const series =
        big.db.kind === 'sqlite'
          ? (n: number) => `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1}) SELECT i FROM s`
          : (n: number) => `SELECT i FROM generate_series(0, ${n - 1}) AS i`;
      const status = `'{"id":"OPEN","name":"Open","type":"default"}'`;
      const started = Date.now();
      await big.db.exec(`INSERT INTO annotations (tenant_id, organization_id, document_id, annotation_id, status, created_at, last_updated)
        SELECT '${tenantId}', 'big', 'doc', 't' || i, ${status}, 1000 + i, 1000 + i FROM (${series(COMMENTS / PER_THREAD)}) x`);
      await big.db.exec(`INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html,
          comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated)
        SELECT '${tenantId}', 'big', 'doc', 't' || (i / ${PER_THREAD}), (i % ${PER_THREAD}) + 1, (i % ${PER_THREAD}) + 1,
          '<p>x</p>', 'x', 'heavy', 'Heavy', 'heavy@example.com', 'added', 'comment', 1000 + i, 1000 + i
        FROM (${series(COMMENTS)}) x`);
      // Every other thread has a comment by someone else too: those stay, rendered again.
      await big.db.exec(`INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html,
          comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated)
        SELECT '${tenantId}', 'big', 'doc', 't' || i, ${PER_THREAD + 1}, ${PER_THREAD + 1}, '<p>kept</p>', 'kept', 'other',
          NULL, NULL, 'added', 'comment', 5000000, 5000000 FROM (${series(COMMENTS / PER_THREAD)}) x WHERE i % 2 = 0`);
      const seeded = (Date.now() - started) / 1000;
      const batches: number[] = [];
      big.store.observeCalls?.((method, seconds) => {
        if (method === 'eraseUserData') batches.push(seconds);
      });
      // Tenant b writes all along; those answered while the erasure still ran say it did not hold them up.
      const bWrites: number[] = [];
      let during = 0;
      writer = (async () => {
        let i = 0;
        while (erasing) {
          const at = performance.now();
          await big.b.ok(PATHS.usersAdd, { organizationId: 'b-org', users: [user(`b${i++ % 50}`)] });
          bWrites.push((performance.now() - at) / 1000);
          if (erasing) during++;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const at = performance.now();
      const del = await big.a.ok(PATHS.userDataDelete, { userIds: ['heavy'], organizationIds: ['big'] });
      const total = (performance.now() - at) / 1000;
      erasing = false;
      await writer;
      big.store.observeCalls?.(null);
      const longest = Math.max(...batches);
      const slowestB = Math.max(0, ...bWrites);
      const report =
        `${big.db.kind}: seeded ${COMMENTS} comments in ${seeded.toFixed(1)} s; erased in ${total.toFixed(2)} s, ` +
        `${del.data.tasksCount} batches, longest ${(longest * 1000).toFixed(1)} ms; tenant b: ${bWrites.length} writes, ` +
        `slowest ${(slowestB * 1000).toFixed(1)} ms, ${during} answered while it ran`;
      console.log(`# erasure timing: ${report}`);
      // Other tenants' writes go on between the batches: at least 3 answered before the erasure was
      // (one that held the writer to its end would let at most one through). The times are reported,
      // not asserted: they measure the machine (a CI run beside other disk work saw batches of 3.4 s).
      assert.ok(during >= 3, report);
      const left = await big.db.query(`SELECT count(*) AS n FROM comments WHERE from_user_id = 'heavy'`);
      assert.equal(Number(left[0]!.n), 0);
      const threadsLeft = await big.db.query(`SELECT count(*) AS n FROM annotations WHERE organization_id = 'big'`);
      assert.equal(Number(threadsLeft[0]!.n), COMMENTS / PER_THREAD / 2, 'the threads of heavy alone went');
      const [kept] = (await big.a.ok(PATHS.annotationsGet, { organizationId: 'big', documentId: 'doc', annotationIds: ['t0'] }))
        .data;
      assert.deepEqual(
        kept.comments.map((c: { commentText: string }) => c.commentText),
        ['kept'],
      );
    } finally {
      erasing = false;
      await writer.catch(() => undefined);
      await big.close();
    }
  });
});
