// /v2's notification and creation members (docs/api.md, "Version 2"), on the configured database:
// notifications/add with the notification resolver, a context and a source; the organization-level notification
// setting (config/set without documentIds, config/get's getOrganizationConfig), each user's default for every
// document, in reads and in the fan-out; documents/add and users/add with createFolder; accessRole's values; and
// Marginalia's own operations under /v2.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type TestApp, user, v2 } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;

describe('/v2 notifications/add', () => {
  test('with the resolver no template is needed; context, source and the flag are kept and shown', async () => {
    const org = uniq('org');
    await t.a.ok(v2(PATHS.notificationsAdd), {
      organizationId: org,
      documentId: 'd',
      notificationId: 'resolved',
      actionUser: user('ann'),
      isNotificationResolverUsed: true,
      notificationSource: 'huddle',
      context: { access: { team: 'red' } },
      notifyUsers: [{ userId: 'bob' }],
    });
    const [n] = (await t.a.ok(v2(PATHS.notificationsGet), { organizationId: org, userId: 'bob' })).data;
    assert.equal(n.id, 'resolved');
    assert.equal(n.displayHeadlineMessageTemplate, '');
    assert.equal(n.isNotificationResolverUsed, true);
    assert.equal(n.notificationSource, 'huddle');
    assert.deepEqual(n.context, { access: { team: 'red' } });
    // A read mark is laid over the stored answer without losing them.
    await t.a.ok(PATHS.notificationsUpdate, { organizationId: org, notifications: [{ id: 'resolved', readByUserIds: ['bob'] }] });
    const [read] = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'bob' })).data;
    assert.deepEqual([read.notifyUsersByUserId.bob, read.isNotificationResolverUsed, read.context], [false, true, n.context]);
    // So is a change to its content, which renders the answer again from the row.
    await t.a.ok(PATHS.notificationsUpdate, {
      organizationId: org,
      notifications: [{ id: 'resolved', displayBodyMessage: 'x' }],
    });
    const [changed] = (await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'bob' })).data;
    assert.deepEqual([changed.displayBodyMessage, changed.isNotificationResolverUsed, changed.context], ['x', true, n.context]);
  });

  test('without the resolver the template is required; nothing is written', async () => {
    const org = uniq('org');
    const r = await t.a.post(v2(PATHS.notificationsAdd), {
      organizationId: org,
      actionUser: user('ann'),
      notifyUsers: [{ userId: 'bob' }],
    });
    expectError(r, 400, 'INVALID_ARGUMENT', 'displayHeadlineMessageTemplate');
    assert.deepEqual((await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'bob' })).data, []);
  });
});

describe('organization-level notification settings', () => {
  test("set without documentIds: each user's default for documents without their own; getOrganizationConfig reads it", async () => {
    const org = uniq('org');
    const set = await t.a.ok(v2(PATHS.notificationsConfigSet), {
      organizationId: org,
      userIds: ['u1'],
      config: { inbox: 'ALL' },
    });
    assert.deepEqual(set.data, { u1: { success: true, userId: 'u1', message: 'User config set successfully.' } });
    const orgLevel = await t.a.ok(v2(PATHS.notificationsConfigGet), {
      organizationId: org,
      userId: 'u1',
      getOrganizationConfig: true,
    });
    assert.deepEqual(orgLevel.data, [
      { config: { inbox: 'ALL', email: 'MINE' }, metadata: { organizationId: org, userId: 'u1', apiKey: t.a.creds.apiKey } },
    ]);
    await t.a.ok(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: ['own'],
      userIds: ['u1'],
      config: { inbox: 'NONE' },
    });
    const docs = await t.a.ok(PATHS.notificationsConfigGet, { organizationId: org, userId: 'u1', documentIds: ['own', 'other'] });
    assert.deepEqual(
      docs.data.map((e: any) => [e.metadata.documentId, e.config.inbox]),
      [
        ['own', 'NONE'],
        ['other', 'ALL'],
      ],
      "a document's own setting, else the organization's",
    );
    const someone = await t.a.ok(PATHS.notificationsConfigGet, { organizationId: org, userId: 'u2', documentIds: ['other'] });
    assert.equal(someone.data[0].config.inbox, 'MINE', 'the default for a user with neither');
    expectError(
      await t.a.post(v2(PATHS.notificationsConfigGet), { organizationId: org, userId: 'u1' }),
      400,
      'INVALID_ARGUMENT',
      'documentIds',
    );
  });

  test("the fan-out follows it: a member whose organization-level inbox is ALL hears of a document's comments", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd', users: [user('member'), user('quiet')] });
    await t.a.ok(v2(PATHS.notificationsConfigSet), {
      organizationId: org,
      userIds: ['member', 'quiet'],
      config: { inbox: 'ALL' },
    });
    await t.a.ok(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: ['d'],
      userIds: ['quiet'],
      config: { inbox: 'NONE' },
    });
    await t.a.ok(v2(PATHS.annotationsAdd), {
      organizationId: org,
      documentId: 'd',
      commentAnnotations: [{ commentData: [{ commentText: 'news', from: user('author'), triggerNotification: true }] }],
    });
    const count = async (userId: string) =>
      (await t.a.ok(v2(PATHS.notificationsCount), { organizationId: org, userId })).data.total as number;
    assert.equal(await count('member'), 1, 'ALL at the organization level');
    assert.equal(await count('quiet'), 0, "the document's own NONE wins");
  });
});

describe('/v2 createFolder', () => {
  test('documents/add and users/add make a folder that does not exist, at the top; without it, NOT_FOUND as on v1', async () => {
    const org = uniq('org');
    expectError(
      await t.a.post(v2(PATHS.documentsAdd), { organizationId: org, folderId: 'new', documents: [{ documentId: 'd' }] }),
      404,
      'NOT_FOUND',
    );
    await t.a.ok(v2(PATHS.documentsAdd), {
      organizationId: org,
      folderId: 'new',
      createFolder: true,
      documents: [{ documentId: 'd' }],
    });
    await t.a.ok(v2(PATHS.usersAdd), {
      organizationId: org,
      folderId: 'team',
      createFolder: true,
      users: [user('u1', { accessRole: 'viewer' })],
    });
    const folders = (await t.a.ok(v2(PATHS.foldersGet), { organizationId: org })).data;
    assert.deepEqual(
      folders.map((f: any) => [f.folderId, f.parentFolderId]),
      [
        ['new', 'root'],
        ['team', 'root'],
      ],
    );
    const docs = (await t.a.ok(PATHS.documentsGet, { organizationId: org, folderId: 'new' })).data;
    assert.deepEqual(
      docs.map((d: any) => d.id),
      ['d'],
    );
    // Again: the folder is there, nothing is made twice.
    await t.a.ok(v2(PATHS.documentsAdd), {
      organizationId: org,
      folderId: 'new',
      createFolder: true,
      documents: [{ documentId: 'e' }],
    });
    assert.equal((await t.a.ok(v2(PATHS.foldersGet), { organizationId: org })).data.length, 2);
    expectError(
      await t.a.post(v2(PATHS.usersAdd), { organizationId: org, users: [user('u2', { accessRole: 'owner' })] }),
      400,
      'INVALID_ARGUMENT',
      'accessRole',
    );
  });
});

describe("Marginalia's own operations under /v2", () => {
  test('counts, read marks, live state and webhooks answer on /v2 as on v1', async () => {
    const org = uniq('org');
    const v1 = await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'u' });
    assert.deepEqual(await t.a.ok(v2(PATHS.notificationsCount), { organizationId: org, userId: 'u' }), v1);
    for (const path of [PATHS.notificationsRead, PATHS.annotationsRead, PATHS.liveStateGet, PATHS.webhooksGet]) {
      const r = await t.a.post(v2(path), {});
      assert.notEqual(r.status, 404, `${v2(path)} is served`);
    }
  });
});
