// verifyUserPermissions on server-credential writes (docs/api.md, "verifyUserPermissions") on the configured database:
// a comment write is refused whole when an author may not write to the document; a notification keeps the recipients
// who may read its document, and refuses an action user who may not; read marks are kept for users who may read the
// document named. Without the flag, nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, notificationData, PATHS, type TestApp, user, v2 } from '../helpers/app.js';

let now = Date.UTC(2025, 0, 15, 12);
let t: TestApp;
before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => t.close());

const P = PATHS;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;

/** An organization with members ed (editor by default) and vi (a viewer of `doc`), and a restricted document `locked`. */
async function world() {
  const org = uniq('org');
  await t.a.ok(P.usersAdd, { organizationId: org, users: [user('ed'), user('vi')] });
  await t.a.ok(P.documentsAdd, { organizationId: org, documents: [{ documentId: 'doc' }, { documentId: 'locked' }] });
  await t.a.ok(P.documentsAccess, { organizationId: org, documentIds: ['locked'], accessType: 'restricted' });
  await t.a.ok(P.permissionsAdd, {
    user: { userId: 'vi' },
    permissions: { resources: [{ type: 'document', id: 'doc', organizationId: org, accessRole: 'viewer' }] },
  });
  return org;
}

const threadOf = (org: string, documentId: string, authors: string[], verifyUserPermissions = true) => ({
  organizationId: org,
  documentId,
  verifyUserPermissions,
  commentAnnotations: [{ annotationId: 'th', commentData: authors.map((a) => ({ commentText: `by ${a}`, from: user(a) })) }],
});
const threads = async (org: string, documentId: string) =>
  (await t.a.ok(P.annotationsGet, { organizationId: org, documentId })).data as { annotationId: string }[];

describe('verifyUserPermissions: comment writes', () => {
  for (const path of [P.annotationsAdd, v2(P.annotationsAdd)]) {
    test(`${path}: an editor writes; a viewer, a stranger, or a member on a restricted document is refused whole`, async () => {
      const org = await world();
      const r = await t.a.post(path, threadOf(org, 'doc', ['ed', 'vi', 'stranger']));
      const message = expectError(r, 403, 'PERMISSION_DENIED', 'vi, stranger may not write to document doc');
      assert.ok(message.includes('nothing was written'));
      assert.deepEqual(r.json.error.details, {
        documentId: 'doc',
        refused: [
          { at: 'data.commentAnnotations[0].commentData[1].from', userId: 'vi' },
          { at: 'data.commentAnnotations[0].commentData[2].from', userId: 'stranger' },
        ],
      });
      assert.deepEqual(await threads(org, 'doc'), [], 'nothing written');
      expectError(await t.a.post(path, threadOf(org, 'locked', ['ed'])), 403, 'PERMISSION_DENIED', 'ed may not write');
      await t.a.ok(path, threadOf(org, 'doc', ['ed']));
      assert.equal((await threads(org, 'doc')).length, 1);
      // Without the flag, anyone's comment goes in, as before.
      await t.a.ok(path, { ...threadOf(org, 'locked', ['stranger'], false) });
      assert.equal((await threads(org, 'locked')).length, 1);
    });
  }

  test('comments/add: a role on the restricted document lets its holder write; an expired one does not', async () => {
    const org = await world();
    await t.a.ok(P.annotationsAdd, threadOf(org, 'locked', ['someone'], false));
    const add = (from: string, path = P.commentsAdd) =>
      t.a.post(path, {
        organizationId: org,
        documentId: 'locked',
        annotationId: 'th',
        verifyUserPermissions: true,
        commentData: [{ commentText: 'x', from: user(from) }],
      });
    expectError(await add('ed'), 403, 'PERMISSION_DENIED');
    await t.a.ok(P.permissionsAdd, {
      user: { userId: 'ed' },
      permissions: {
        resources: [{ type: 'document', id: 'locked', organizationId: org, accessRole: 'editor', expiresAt: now / 1000 + 60 }],
      },
    });
    assert.equal((await add('ed', v2(P.commentsAdd))).status, 200);
    now += 61_000;
    expectError(await add('ed'), 403, 'PERMISSION_DENIED', 'ed may not write to document locked');
    const comments = (await t.a.ok(P.commentsGet, { organizationId: org, documentId: 'locked', annotationId: 'th' })).data;
    assert.equal(comments.length, 2);
  });
});

describe('verifyUserPermissions: notifications', () => {
  const inbox = async (org: string, userId: string) =>
    (await t.a.ok(P.notificationsGet, { organizationId: org, userId })).data as { id: string }[];

  test('add keeps the recipients who may read the document, refuses an action user who may not', async () => {
    const org = await world();
    const data = (over: Record<string, unknown>) =>
      notificationData(org, { documentId: 'locked', verifyUserPermissions: true, actionUser: user('ed'), ...over });
    // ed may not read the restricted document: the action user is refused.
    expectError(
      await t.a.post(v2(P.notificationsAdd), data({ notifyUsers: [user('vi')] })),
      403,
      'PERMISSION_DENIED',
      'action user',
    );
    await t.a.ok(P.usersAdd, { organizationId: org, documentId: 'locked', users: [user('ed')] });
    // Listed on it now; vi is not: vi is left out.
    const added = await t.a.ok(v2(P.notificationsAdd), data({ notificationId: 'n1', notifyUsers: [user('ed'), user('vi')] }));
    assert.equal(added.data.id ?? added.data.n1?.id ?? 'n1', 'n1');
    assert.equal((await inbox(org, 'ed')).length, 1);
    assert.deepEqual(await inbox(org, 'vi'), []);
    // Nobody left: refused, and never the whole organization.
    const r = await t.a.post(v2(P.notificationsAdd), data({ notificationId: 'n2', notifyUsers: [user('vi'), user('x')] }));
    expectError(r, 403, 'PERMISSION_DENIED', 'no user listed');
    assert.deepEqual(r.json.error.details.refused, [{ userId: 'vi' }, { userId: 'x' }]);
    assert.deepEqual(await inbox(org, 'vi'), []);
    assert.equal((await inbox(org, 'ed')).length, 1);
    // Without the flag, vi is notified.
    await t.a.ok(P.notificationsAdd, data({ notificationId: 'n3', verifyUserPermissions: false, notifyUsers: [user('vi')] }));
    assert.equal((await inbox(org, 'vi')).length, 1);
  });

  test('update keeps the read marks of users who may read the document named', async () => {
    const org = await world();
    await t.a.ok(
      P.notificationsAdd,
      notificationData(org, { notificationId: 'n1', documentId: 'doc', notifyUsers: [user('ed'), user('stranger')] }),
    );
    const unread = async (userId: string) => (await t.a.ok(P.notificationsCount, { organizationId: org, userId })).data.unread;
    await t.a.ok(v2(P.notificationsUpdate), {
      organizationId: org,
      documentId: 'doc',
      verifyUserPermissions: true,
      notifications: [{ id: 'n1', readByUserIds: ['ed', 'stranger'] }],
    });
    assert.equal(await unread('ed'), 0);
    assert.equal(await unread('stranger'), 1, 'a user who may not read the document keeps what they had');
    await t.a.ok(P.notificationsUpdate, { organizationId: org, notifications: [{ id: 'n1', readByUserIds: ['stranger'] }] });
    assert.equal(await unread('stranger'), 0, 'without the flag, as before');
  });
});
