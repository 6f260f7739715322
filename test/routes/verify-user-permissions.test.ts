// verifyUserPermissions on server-credential writes (docs/api.md and docs/decisions.md, "verifyUserPermissions"), on the
// configured database, on /v1 and /v2 alike: a comment write refuses, with details and writing nothing, when an
// author may not write to the document; notifications/add keeps only recipients who may read it; notifications/update
// applies read marks only for users who may read it. Without the flag (or with false) nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type Reply, type TestApp, user, v2 } from '../helpers/app.js';
import { eventsSince, lastEventId, tenantIdOf } from '../helpers/events.js';

let now = Date.UTC(2025, 0, 15, 12);
let t: TestApp;
before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const P = PATHS;
const VERSIONS = [(p: string) => p, v2] as const;
const versionOf = (path: (p: string) => string) => (path(P.commentsAdd).startsWith('/v2/') ? 'v2' : 'v1');
const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * An organization with: `member` (a profile: opens its organizationPrivate documents, an editor by default),
 * `viewer` (a viewer role on the organization, no profile), `listed` (listed on the restricted document), `outsider`
 * (nothing); documents `private` (organizationPrivate), `public` and `restricted`.
 */
async function organization(): Promise<string> {
  const org = uniq('org');
  await t.a.ok(P.usersAdd, { organizationId: org, users: [user('member')] });
  await t.a.ok(P.documentsAdd, {
    organizationId: org,
    documents: [{ documentId: 'private' }, { documentId: 'public' }, { documentId: 'restricted' }],
  });
  await t.a.ok(P.documentsAccess, { organizationId: org, documentIds: ['public'], accessType: 'public' });
  await t.a.ok(P.documentsAccess, { organizationId: org, documentIds: ['restricted'], accessType: 'restricted' });
  await t.a.ok(P.usersAdd, { organizationId: org, documentId: 'restricted', users: [user('listed')] });
  const r = await t.a.post(P.permissionsAdd, {
    user: { userId: 'viewer' },
    permissions: { resources: [{ type: 'organization', id: org, accessRole: 'viewer' }] },
  });
  assert.equal(r.status, 200, r.body);
  return org;
}

const say = (userId: string, extra: Record<string, unknown> = {}) => ({
  commentText: `by ${userId}`,
  from: { userId },
  ...extra,
});

/** A thread of one comment by `by` in the document. */
const threadAdd = (org: string, documentId: string, by: string, extra: Record<string, unknown> = {}, path = P.annotationsAdd) =>
  t.a.post(path, { organizationId: org, documentId, commentAnnotations: [{ commentData: [say(by)] }], ...extra });

/** The threads of a document, as annotations/get reads them. */
const threadsOf = async (org: string, documentId: string) =>
  (await t.a.ok(P.annotationsGet, { organizationId: org, documentId })).data as { annotationId: string }[];

describe('verifyUserPermissions: comment writes', () => {
  for (const path of VERSIONS)
    test(`an author must be able to write to the document (${versionOf(path)})`, async () => {
      const org = await organization();
      const verify = { verifyUserPermissions: true };
      const add = path(P.annotationsAdd);
      const cases: [string, string, boolean][] = [
        ['member', 'private', true],
        ['viewer', 'private', false],
        ['outsider', 'private', false],
        ['outsider', 'public', true],
        ['viewer', 'public', false],
        ['member', 'restricted', false],
        ['listed', 'restricted', true],
        ['viewer', 'restricted', false],
      ];
      for (const [by, documentId, allowed] of cases) {
        const r = await threadAdd(org, documentId, by, verify, add);
        if (allowed) assert.equal(r.status, 200, `${by} on ${documentId}: ${r.body}`);
        else expectError(r, 403, 'PERMISSION_DENIED', `${by} on ${documentId}`);
      }
      // Each document holds the threads that were allowed, and only those.
      assert.equal((await threadsOf(org, 'private')).length, 1);
      assert.equal((await threadsOf(org, 'public')).length, 1);
      assert.equal((await threadsOf(org, 'restricted')).length, 1);
    });

  test('an expired role counts for nothing; a role given opens the write', async () => {
    const org = await organization();
    const role = (accessRole: string, expiresAt?: number) =>
      t.a.post(P.permissionsAdd, {
        user: { userId: 'outsider' },
        permissions: {
          resources: [
            { type: 'document', id: 'restricted', organizationId: org, accessRole, ...(expiresAt ? { expiresAt } : {}) },
          ],
        },
      });
    const write = () => threadAdd(org, 'restricted', 'outsider', { verifyUserPermissions: true });
    expectError(await write(), 403, 'PERMISSION_DENIED', 'no role');
    assert.equal((await role('viewer')).status, 200);
    expectError(await write(), 403, 'PERMISSION_DENIED', 'a viewer');
    assert.equal((await role('editor', seconds(now) + 60)).status, 200);
    assert.equal((await write()).status, 200, 'an editor until the role ends');
    now += 61_000;
    expectError(await write(), 403, 'PERMISSION_DENIED', 'the role has ended');
  });

  for (const path of VERSIONS)
    test(`annotations/add refused: details name each annotation, comment and user; nothing written (${versionOf(path)})`, async () => {
      const org = await organization();
      const tenantId = await tenantIdOf(t, t.a);
      const from = await lastEventId(t, tenantId);
      const r = await t.a.post(path(P.annotationsAdd), {
        organizationId: org,
        documentId: 'private',
        verifyUserPermissions: true,
        commentAnnotations: [
          { annotationId: 'fine', commentData: [say('member')] },
          { commentData: [say('viewer')] },
          { annotationId: 'mixed', commentData: [say('member'), say('outsider'), say('viewer')] },
        ],
      });
      expectError(r, 403, 'PERMISSION_DENIED');
      assert.match(
        r.json.error.message,
        /2 annotations have an author without write access to document private; nothing was added/,
      );
      assert.deepEqual(r.json.error.details, {
        '__velt_denied:1': {
          success: false,
          index: 1,
          message: 'viewer may read document private but not write to it (a viewer).',
          refused: [{ commentIndex: 0, userId: 'viewer', access: 'viewer' }],
        },
        mixed: {
          success: false,
          annotationId: 'mixed',
          index: 2,
          message: 'outsider has no access to document private. viewer may read document private but not write to it (a viewer).',
          refused: [
            { commentIndex: 1, userId: 'outsider', access: 'none' },
            { commentIndex: 2, userId: 'viewer', access: 'viewer' },
          ],
        },
      });
      assert.deepEqual(await threadsOf(org, 'private'), [], 'not even the annotation whose authors may write');
      assert.deepEqual(await eventsSince(t, tenantId, from), [], 'no event');
    });

  test('a key made for an annotation without an id never takes one the caller chose', async () => {
    const org = await organization();
    const r = await t.a.post(P.annotationsAdd, {
      organizationId: org,
      documentId: 'private',
      verifyUserPermissions: true,
      commentAnnotations: [{ annotationId: '__velt_denied:1', commentData: [say('viewer')] }, { commentData: [say('viewer')] }],
    });
    expectError(r, 403, 'PERMISSION_DENIED');
    assert.deepEqual(Object.keys(r.json.error.details).sort(), ['__velt_denied:1', '__velt_denied:1:1']);
    assert.equal(r.json.error.details['__velt_denied:1'].annotationId, '__velt_denied:1');
    assert.equal(r.json.error.details['__velt_denied:1:1'].index, 1);
  });

  for (const path of VERSIONS)
    test(`comments/add refused: details per comment; the thread is unchanged (${versionOf(path)})`, async () => {
      const org = await organization();
      assert.equal(
        (
          await threadAdd(org, 'private', 'member', {
            commentAnnotations: [{ annotationId: 'th', commentData: [say('member')] }],
          })
        ).status,
        200,
      );
      const tenantId = await tenantIdOf(t, t.a);
      const from = await lastEventId(t, tenantId);
      const where = { organizationId: org, documentId: 'private', annotationId: 'th' };
      const r = await t.a.post(path(P.commentsAdd), {
        ...where,
        verifyUserPermissions: true,
        commentData: [say('member'), say('viewer', { commentId: 7 }), say('outsider')],
      });
      expectError(r, 403, 'PERMISSION_DENIED');
      assert.deepEqual(r.json.error.details, {
        '7': {
          success: false,
          commentId: 7,
          index: 1,
          userId: 'viewer',
          access: 'viewer',
          message: 'viewer may read document private but not write to it (a viewer).',
        },
        '__velt_denied:2': {
          success: false,
          index: 2,
          userId: 'outsider',
          access: 'none',
          message: 'outsider has no access to document private.',
        },
      });
      const comments = (await t.a.ok(P.commentsGet, where)).data as { from: { userId: string } }[];
      assert.deepEqual(
        comments.map((c) => c.from.userId),
        ['member'],
        'the first comment only',
      );
      assert.deepEqual(await eventsSince(t, tenantId, from), [], 'no event');
      const ok = await t.a.post(path(P.commentsAdd), { ...where, verifyUserPermissions: true, commentData: [say('member')] });
      assert.equal(ok.status, 200, ok.body);
    });

  test('comments/add: a role on the restricted document lets its holder write; an expired one does not', async () => {
    const org = await organization();
    assert.equal(
      (
        await threadAdd(org, 'restricted', 'listed', {
          commentAnnotations: [{ annotationId: 'th', commentData: [say('listed')] }],
        })
      ).status,
      200,
    );
    const add = (from: string, path = P.commentsAdd) =>
      t.a.post(path, {
        organizationId: org,
        documentId: 'restricted',
        annotationId: 'th',
        verifyUserPermissions: true,
        commentData: [say(from)],
      });
    expectError(await add('member'), 403, 'PERMISSION_DENIED', 'a member alone does not open a restricted document');
    const role = await t.a.post(P.permissionsAdd, {
      user: { userId: 'member' },
      permissions: {
        resources: [
          { type: 'document', id: 'restricted', organizationId: org, accessRole: 'editor', expiresAt: seconds(now) + 60 },
        ],
      },
    });
    assert.equal(role.status, 200, role.body);
    assert.equal((await add('member', v2(P.commentsAdd))).status, 200);
    now += 61_000;
    expectError(await add('member'), 403, 'PERMISSION_DENIED', 'the role has ended');
    const comments = (await t.a.ok(P.commentsGet, { organizationId: org, documentId: 'restricted', annotationId: 'th' })).data;
    assert.equal(comments.length, 2);
  });

  for (const path of VERSIONS)
    test(`without the flag, or with false, nothing is checked (${versionOf(path)})`, async () => {
      const org = await organization();
      for (const flag of [{}, { verifyUserPermissions: false }]) {
        const r = await threadAdd(
          org,
          'restricted',
          'outsider',
          { ...flag, commentAnnotations: [{ annotationId: uniq('t'), commentData: [say('outsider')] }] },
          path(P.annotationsAdd),
        );
        assert.equal(r.status, 200, r.body);
        const c = await t.a.post(path(P.commentsAdd), {
          organizationId: org,
          documentId: 'restricted',
          annotationId: (await threadsOf(org, 'restricted'))[0]!.annotationId,
          commentData: [say('viewer')],
          ...flag,
        });
        assert.equal(c.status, 200, c.body);
      }
    });

  test('a document without an organization cannot be verified: 400, nothing written', async () => {
    const documentId = uniq('orphan');
    const r = await t.a.post(P.annotationsAdd, {
      documentId,
      verifyUserPermissions: true,
      commentAnnotations: [{ commentData: [say('member')] }],
    });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT'), /data\.verifyUserPermissions needs data\.organizationId/);
    assert.deepEqual((await t.a.ok(P.annotationsGet, { documentId })).data, []);
  });
});

/** A notification's recipients as notifications/get shows them (by userId), read by document. */
async function recipientsOf(org: string, documentId: string, id: string): Promise<Record<string, boolean> | undefined> {
  const data = (await t.a.ok(P.notificationsGet, { organizationId: org, documentId })).data as {
    id: string;
    notifyUsersByUserId: Record<string, boolean>;
  }[];
  return data.find((n) => n.id === id)?.notifyUsersByUserId;
}

/** Whether a user's inbox holds the notification. */
const inboxHas = async (org: string, userId: string, id: string) =>
  ((await t.a.ok(P.notificationsGet, { organizationId: org, userId })).data as { id: string }[]).some((n) => n.id === id);

const notification = (org: string, documentId: string | undefined, over: Record<string, unknown> = {}) => ({
  organizationId: org,
  ...(documentId !== undefined ? { documentId } : {}),
  notificationId: uniq('n'),
  actionUser: user('member'),
  displayHeadlineMessageTemplate: '{actionUser} did something',
  ...over,
});

describe('verifyUserPermissions: notifications/add', () => {
  for (const path of VERSIONS)
    test(`only the listed users who may read the document receive it (${versionOf(path)})`, async () => {
      const org = await organization();
      const everyone = ['member', 'viewer', 'listed', 'outsider'].map((userId) => ({ userId }));
      const expected: [string, string[]][] = [
        // listed has a profile (users/add on a document makes one): a member, who opens private documents.
        ['private', ['member', 'viewer', 'listed']],
        ['public', ['member', 'viewer', 'listed', 'outsider']],
        ['restricted', ['listed']],
      ];
      for (const [documentId, kept] of expected) {
        const n = notification(org, documentId, {
          notifyUsers: everyone,
          verifyUserPermissions: true,
          actionUser: user(documentId === 'restricted' ? 'listed' : 'member'),
        });
        const r = await t.a.post(path(P.notificationsAdd), n);
        assert.equal(r.status, 200, r.body);
        assert.deepEqual(r.json.result.data, {
          success: true,
          id: n.notificationId,
          message: 'Notification added successfully.',
        });
        const shown = await recipientsOf(org, documentId, n.notificationId);
        assert.deepEqual(Object.keys(shown ?? {}).sort(), [...kept].sort(), documentId);
      }
      // Without the flag, or with false, everyone listed.
      for (const flag of [{}, { verifyUserPermissions: false }]) {
        const n = notification(org, 'restricted', { notifyUsers: everyone, ...flag });
        assert.equal((await t.a.post(path(P.notificationsAdd), n)).status, 200);
        assert.equal(Object.keys((await recipientsOf(org, 'restricted', n.notificationId)) ?? {}).length, 4);
      }
    });

  test('notifyAll reaches the members who may read the document, listed: it is not organization-wide', async () => {
    const org = await organization();
    // Members: member, listed (users/add on the document gives a profile), and another who is listed on nothing.
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('later')] });
    const n = notification(org, 'restricted', { notifyAll: true, verifyUserPermissions: true, actionUser: user('listed') });
    assert.equal((await t.a.post(P.notificationsAdd, n)).status, 200);
    assert.deepEqual(await recipientsOf(org, 'restricted', n.notificationId), { listed: true });
    assert.equal(await inboxHas(org, 'listed', n.notificationId), true);
    assert.equal(await inboxHas(org, 'member', n.notificationId), false, 'a member without access does not find it');
    // A member who joins afterwards does not either: the recipients were checked when it was made.
    await t.a.ok(P.usersAdd, { organizationId: org, users: [user('newcomer')] });
    assert.equal(await inboxHas(org, 'newcomer', n.notificationId), false);
    // Without the flag, the same notification is the organization's: every member finds it.
    const wide = notification(org, 'restricted', { notifyAll: true, actionUser: user('listed') });
    assert.equal((await t.a.post(P.notificationsAdd, wide)).status, 200);
    assert.equal(await inboxHas(org, 'member', wide.notificationId), true);
  });

  test('notifyAll with listed users: the listed users and the members, each with access', async () => {
    const org = await organization();
    const n = notification(org, 'private', {
      notifyAll: true,
      notifyUsers: [{ userId: 'viewer' }, { userId: 'outsider' }],
      verifyUserPermissions: true,
    });
    assert.equal((await t.a.post(v2(P.notificationsAdd), n)).status, 200);
    // listed has a profile (users/add on the restricted document) and so opens the organization's private documents.
    assert.deepEqual(Object.keys((await recipientsOf(org, 'private', n.notificationId)) ?? {}).sort(), [
      'listed',
      'member',
      'viewer',
    ]);
  });

  for (const path of VERSIONS)
    test(`no recipient with access: 403 with details, nothing written (${versionOf(path)})`, async () => {
      const org = await organization();
      const n = notification(org, 'restricted', {
        notifyUsers: [{ userId: 'member' }, { userId: 'outsider' }],
        verifyUserPermissions: true,
        actionUser: user('listed'),
      });
      const r = await t.a.post(path(P.notificationsAdd), n);
      assert.match(expectError(r, 403, 'PERMISSION_DENIED'), /no recipient has access to document restricted; nothing was added/);
      assert.deepEqual(r.json.error.details, {
        recipients: [
          { userId: 'member', access: 'none' },
          { userId: 'outsider', access: 'none' },
        ],
      });
      assert.equal(await recipientsOf(org, 'restricted', n.notificationId), undefined, 'not written');
      assert.equal(await inboxHas(org, 'member', n.notificationId), false, 'and never the organization-wide one');
      // The same with notifyAll false and one listed user without access, and with notifyAll and no member with access.
      const none = notification(org, 'restricted', {
        notifyUsers: [{ userId: 'outsider' }],
        notifyAll: false,
        verifyUserPermissions: true,
        actionUser: user('listed'),
      });
      expectError(await t.a.post(path(P.notificationsAdd), none), 403, 'PERMISSION_DENIED');
      // notifyAll where no member may read: `actor` may (a role on the document) but is no member.
      await t.a.ok(P.usersDelete, { organizationId: org, documentId: 'restricted', userIds: ['listed'] });
      const role = await t.a.post(P.permissionsAdd, {
        user: { userId: 'actor' },
        permissions: { resources: [{ type: 'document', id: 'restricted', organizationId: org, accessRole: 'viewer' }] },
      });
      assert.equal(role.status, 200, role.body);
      const wide = notification(org, 'restricted', { notifyAll: true, verifyUserPermissions: true, actionUser: user('actor') });
      const w = await t.a.post(path(P.notificationsAdd), wide);
      expectError(w, 403, 'PERMISSION_DENIED');
      assert.deepEqual(w.json.error.details, {
        recipients: [
          { userId: 'listed', access: 'none' },
          { userId: 'member', access: 'none' },
        ],
      });
      assert.equal(await inboxHas(org, 'member', wide.notificationId), false, 'not organization-wide');
    });

  test('the action user must be able to read the document; a viewer may', async () => {
    const org = await organization();
    const refused = notification(org, 'private', {
      actionUser: user('outsider'),
      notifyUsers: [{ userId: 'member' }],
      verifyUserPermissions: true,
    });
    const r = await t.a.post(P.notificationsAdd, refused);
    assert.match(expectError(r, 403, 'PERMISSION_DENIED'), /the action user outsider has no access to document private/);
    assert.deepEqual(r.json.error.details, { actionUser: { userId: 'outsider', access: 'none' } });
    assert.equal(await inboxHas(org, 'member', refused.notificationId), false);
    const byViewer = notification(org, 'private', {
      actionUser: user('viewer'),
      notifyUsers: [{ userId: 'member' }],
      verifyUserPermissions: true,
    });
    assert.equal((await t.a.post(P.notificationsAdd, byViewer)).status, 200);
  });

  test('a notification of no document cannot be verified: 400, nothing written', async () => {
    const org = await organization();
    const n = notification(org, undefined, { notifyUsers: [{ userId: 'member' }], verifyUserPermissions: true });
    assert.match(expectError(await t.a.post(P.notificationsAdd, n), 400, 'INVALID_ARGUMENT'), /needs data\.documentId/);
    assert.equal(await inboxHas(org, 'member', n.notificationId), false);
  });

  test('notifyAll in an organization larger than MARGINALIA_MAX_BATCH is 400: the recipients must be listed', async () => {
    const small = await makeTestApp({ limits: { maxBatch: 2 } });
    try {
      const org = uniq('org');
      await small.a.ok(P.usersAdd, { organizationId: org, users: [user('a'), user('b')] });
      const n = notification(org, 'd', { actionUser: user('a'), notifyAll: true, verifyUserPermissions: true });
      assert.equal((await small.a.post(P.notificationsAdd, n)).status, 200, 'two members: listed');
      await small.a.ok(P.usersAdd, { organizationId: org, users: [user('c')] });
      const more = { ...n, notificationId: uniq('n') };
      assert.match(expectError(await small.a.post(P.notificationsAdd, more), 400, 'INVALID_ARGUMENT'), /more than 2/);
    } finally {
      await small.close();
    }
  });
});

describe('verifyUserPermissions: notifications/update', () => {
  /** A notification of the restricted document to listed (with access) and outsider (without), as added without the flag. */
  async function addressed(org: string, documentId: string | null = 'restricted'): Promise<string> {
    const n = notification(org, documentId ?? undefined, { notifyUsers: [{ userId: 'listed' }, { userId: 'outsider' }] });
    await t.a.ok(P.notificationsAdd, n);
    return n.notificationId;
  }
  const unreadBy = async (org: string, id: string) => {
    const data = (await t.a.ok(P.notificationsGet, { organizationId: org, notificationIds: [id], userId: 'listed' })).data;
    const byOutsider = (await t.a.ok(P.notificationsGet, { organizationId: org, notificationIds: [id], userId: 'outsider' }))
      .data;
    return { listed: data[0].notifyUsersByUserId.listed, outsider: byOutsider[0].notifyUsersByUserId.outsider };
  };
  /** notifications/update of one entry, with the flag (true, false, or absent). */
  const update = (
    path: (p: string) => string,
    org: string,
    entry: Record<string, unknown>,
    flag: boolean | 'absent' = true,
  ): Promise<Reply> =>
    t.a.post(path(P.notificationsUpdate), {
      organizationId: org,
      notifications: [entry],
      ...(flag === 'absent' ? {} : { verifyUserPermissions: flag }),
    });

  for (const path of VERSIONS)
    test(`read and unread marks apply only to users who may read the document (${versionOf(path)})`, async () => {
      const org = await organization();
      const id = await addressed(org);
      const r = await update(path, org, { id, readByUserIds: ['listed', 'outsider'], displayBodyMessage: 'changed' });
      assert.deepEqual(r.json, {
        result: {
          status: 'success',
          message: 'Notification(s) updated successfully.',
          data: { [id]: { success: true, message: 'Notification updated.' } },
        },
      });
      assert.deepEqual(await unreadBy(org, id), { listed: false, outsider: true }, 'the outsider stays unread');
      const [shown] = (await t.a.ok(P.notificationsGet, { organizationId: org, documentId: 'restricted' })).data;
      assert.equal(shown.displayBodyMessage, 'changed', "content is the notification's: it changes");
      // Unread marks likewise: the outsider's is dropped (marked read without the flag first).
      assert.equal((await update(path, org, { id, readByUserIds: ['outsider'] }, 'absent')).status, 200);
      assert.equal((await update(path, org, { id, unreadByUserIds: ['listed', 'outsider'] })).status, 200);
      assert.deepEqual(await unreadBy(org, id), { listed: true, outsider: false });
    });

  test('without the flag, or with false, every mark applies', async () => {
    const org = await organization();
    for (const flag of ['absent', false] as const) {
      const id = await addressed(org);
      assert.equal((await update((p) => p, org, { id, readByUserIds: ['listed', 'outsider'] }, flag)).status, 200);
      assert.deepEqual(await unreadBy(org, id), { listed: false, outsider: false });
    }
  });

  test('an expired role counts for nothing; a notification of no document keeps its marks; an unknown one is not found', async () => {
    const org = await organization();
    const id = await addressed(org);
    const r = await t.a.post(P.permissionsAdd, {
      user: { userId: 'outsider' },
      permissions: {
        resources: [
          { type: 'document', id: 'restricted', organizationId: org, accessRole: 'viewer', expiresAt: seconds(now) + 60 },
        ],
      },
    });
    assert.equal(r.status, 200, r.body);
    now += 61_000;
    assert.equal((await update((p) => p, org, { id, readByUserIds: ['outsider'] })).status, 200);
    assert.deepEqual(await unreadBy(org, id), { listed: true, outsider: true }, 'the role has ended');
    const ofOrganization = await addressed(org, null);
    const both = await t.a.post(P.notificationsUpdate, {
      organizationId: org,
      verifyUserPermissions: true,
      notifications: [
        { id: ofOrganization, readByUserIds: ['listed', 'outsider'] },
        { id: 'missing', readByUserIds: ['listed'] },
      ],
    });
    assert.deepEqual(both.json.result.data, {
      [ofOrganization]: { success: true, message: 'Notification updated.' },
      missing: { success: false, message: 'Failed to update notification.' },
    });
    assert.deepEqual(await unreadBy(org, ofOrganization), { listed: false, outsider: false });
  });
});
