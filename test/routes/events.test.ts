// Every successful write records its events (docs/events.md, "Events"), in its own transaction: for each write
// operation, the types, the organization and document, and the data, which for an add or
// an update is the object as the corresponding read shows it (with users as written and no API key;
// docs/decisions.md, "Events of every write"). A refused write records nothing; ids go up by one per
// event, per tenant; no event carries an API key; users/data/delete leaves no event naming the user.
import { EVENT_TYPES } from '../../src/store/events/drafts.js';
import { EVENT_CATEGORIES } from '../../src/schemas/webhooks.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, T0, type TestApp, user } from '../helpers/app.js';

let t: TestApp;
let now = T0;
let tenantA: string;
let tenantB: string;

before(async () => {
  t = await makeTestApp({ clock: () => now });
  tenantA = (await t.store.findCredentials(t.a.creds.apiKey))!.tenant.id;
  tenantB = (await t.store.findCredentials(t.b.creds.apiKey))!.tenant.id;
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const js = (x: unknown) => String(JSON.stringify(x)).slice(0, 1500);
const say = (commentText: string, userId: string, extra: Record<string, unknown> = {}) => ({
  commentText,
  from: { userId, name: `Written ${userId}`, email: `${userId}@written.example` },
  ...extra,
});

interface Recorded {
  id: number;
  type: string;
  timestamp: number;
  organizationId: string;
  documentId?: string;
  data: any;
  audience: { users: string[]; wide: boolean } | null;
}

/** The tenant's last event id, once the events of every write answered are numbered (PostgreSQL numbers them just after). */
async function lastEventId(tenant: string): Promise<number> {
  await t.store.eventsNumbered(tenant);
  return t.store.lastEventId(tenant);
}

/** Every event of the tenant after `from`, bodies parsed; checks what the outbox row and its body say alike. */
async function eventsAfter(tenant: string, from: number): Promise<Recorded[]> {
  await t.store.eventsNumbered(tenant);
  const out: Recorded[] = [];
  for (let at = from; ; ) {
    const page = await t.store.eventsAfter(tenant, at, 1000);
    for (const e of page) {
      const body = JSON.parse(e.body);
      assert.deepEqual(Object.keys(body), [
        'id',
        'type',
        'timestamp',
        'organizationId',
        ...(e.documentId !== null ? ['documentId'] : []),
        'data',
      ]);
      assert.equal(body.id, e.id);
      assert.equal(body.type, e.type);
      assert.equal(body.organizationId, e.organizationId);
      assert.equal(body.documentId, e.documentId ?? undefined);
      assert.ok(Number.isSafeInteger(body.timestamp), e.body);
      out.push({ ...body, audience: e.audience });
    }
    if (page.length < 1000) return out;
    at = page[page.length - 1]!.id;
  }
}

/** Runs the write (the clock one ms on) and answers the events it recorded for tenant a. */
async function recorded(write: () => Promise<unknown>, tenant = () => tenantA): Promise<Recorded[]> {
  now += 1;
  const from = await lastEventId(tenant());
  await write();
  const events = await eventsAfter(tenant(), from);
  // Every write's events carry the services' clock (the one clock), whatever the write.
  for (const e of events) assert.equal(e.timestamp, now, `${e.type}: the clock's time`);
  return events;
}

const typesOf = (events: readonly Recorded[]) => events.map((e) => e.type);

/** A read's answer as an event shows it: metadata without the API key. */
function withoutKey(x: any): any {
  if (Array.isArray(x)) return x.map(withoutKey);
  if (x === null || typeof x !== 'object') return x;
  const out: any = {};
  for (const [k, v] of Object.entries(x)) if (!(k === 'apiKey' && typeof v === 'string')) out[k] = withoutKey(v);
  return out;
}

const read = async (path: string, data: Record<string, unknown>) => (await t.a.ok(path, data)).data as any;

const threadsOf = (org: string, documentId: string, annotationIds?: string[]) =>
  read(PATHS.annotationsGet, { organizationId: org, documentId, ...(annotationIds && { annotationIds }) });

async function addThreads(org: string, documentId: string, commentAnnotations: unknown[], extra = {}) {
  return recorded(() => t.a.ok(PATHS.annotationsAdd, { organizationId: org, documentId, commentAnnotations, ...extra }));
}

describe('event types', () => {
  test('every family a filter or a webhook names (EVENT_CATEGORIES) is a family of the recorded types, and back', () => {
    const families = [...new Set(EVENT_TYPES.map((type) => type.slice(0, type.indexOf('.'))))].sort();
    assert.deepEqual([...EVENT_CATEGORIES].sort(), families);
  });
});

describe('events: users', () => {
  test('users/add: user.add per user, as users/get shows it; with a document, under the document', async () => {
    const org = uniq('org');
    const events = await recorded(() =>
      t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u2'), { userId: 'u1', name: 'Only a name' }] }),
    );
    assert.deepEqual(typesOf(events), ['user.add', 'user.add']);
    const got = await read(PATHS.usersGet, { organizationId: org });
    assert.deepEqual(
      events.map((e) => e.data),
      [got.find((u: any) => u.userId === 'u2'), got.find((u: any) => u.userId === 'u1')],
    );
    for (const e of events) {
      assert.equal(e.organizationId, org);
      assert.equal(e.documentId, undefined);
      assert.equal(e.timestamp, now);
      assert.equal(e.audience, null);
    }
    const scoped = await recorded(() =>
      t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd', users: [{ userId: 'u1', email: 'u1@x.example' }] }),
    );
    assert.deepEqual(typesOf(scoped), ['user.add']);
    assert.equal(scoped[0]!.documentId, 'd');
    assert.deepEqual(scoped[0]!.data, { userId: 'u1', name: 'Only a name', email: 'u1@x.example', photoUrl: '' });
  });

  test('users/update: user.update for each user that exists, none for the missing', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1'), user('u2')] });
    const events = await recorded(() =>
      t.a.ok(PATHS.usersUpdate, {
        organizationId: org,
        users: [{ userId: 'ghost', name: 'G' }, { userId: 'u2', name: 'Renamed' }, { userId: 'u1' }],
      }),
    );
    assert.deepEqual(typesOf(events), ['user.update', 'user.update']);
    const got = await read(PATHS.usersGet, { organizationId: org, userIds: ['u2', 'u1'] });
    assert.deepEqual(
      events.map((e) => e.data),
      ['u2', 'u1'].map((id) => got.find((u: any) => u.userId === id)),
    );
    assert.equal(events[0]!.data.name, 'Renamed');
    assert.deepEqual(
      await recorded(() => t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'ghost', name: 'G' }] })),
      [],
      'an update that changed nobody records nothing',
    );
  });

  test('users/delete: user.delete per user removed; with a document or folder, the data says which', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd', users: [user('u1'), user('u2')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, folderId: 'f', users: [user('u1')] });
    const fromDocument = await recorded(() =>
      t.a.ok(PATHS.usersDelete, { organizationId: org, documentId: 'd', userIds: ['u1', 'ghost'] }),
    );
    assert.deepEqual(
      fromDocument.map((e) => [e.type, e.documentId, e.data]),
      [['user.delete', 'd', { userId: 'u1', documentId: 'd' }]],
    );
    const fromFolder = await recorded(() => t.a.ok(PATHS.usersDelete, { organizationId: org, folderId: 'f', userIds: ['u1'] }));
    assert.deepEqual(
      fromFolder.map((e) => [e.type, e.documentId, e.data]),
      [['user.delete', undefined, { userId: 'u1', folderId: 'f' }]],
    );
    const whole = await recorded(() => t.a.ok(PATHS.usersDelete, { organizationId: org, userIds: ['u2', 'u1', 'ghost'] }));
    assert.deepEqual(
      whole.map((e) => [e.type, e.data]),
      [
        ['user.delete', { userId: 'u2' }],
        ['user.delete', { userId: 'u1' }],
      ],
    );
  });

  test('user groups: usergroup_add per group, usergroup_users_add and _delete with the users', async () => {
    const org = uniq('org');
    const added = await recorded(() =>
      t.a.ok(PATHS.userGroupsAdd, {
        organizationId: org,
        organizationUserGroups: [{ groupId: 'g1', groupName: 'Group one' }, { groupId: 'g2' }],
      }),
    );
    assert.deepEqual(
      added.map((e) => [e.type, e.organizationId, e.documentId, e.data]),
      [
        ['organization.usergroup_add', org, undefined, { organizationUserGroupId: 'g1', groupName: 'Group one' }],
        ['organization.usergroup_add', org, undefined, { organizationUserGroupId: 'g2' }],
      ],
    );
    const joined = await recorded(() =>
      t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g1', userIds: ['u2', 'u1', 'u2'] }),
    );
    assert.deepEqual(
      joined.map((e) => [e.type, e.data]),
      [['organization.usergroup_users_add', { organizationUserGroupId: 'g1', userIds: ['u2', 'u1'] }]],
    );
    const left = await recorded(() =>
      t.a.ok(PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g1', userIds: ['u1', 'ghost'] }),
    );
    assert.deepEqual(
      left.map((e) => [e.type, e.data]),
      [['organization.usergroup_users_delete', { organizationUserGroupId: 'g1', userIds: ['u1'] }]],
    );
    const rest = await recorded(() =>
      t.a.ok(PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g1', deleteAll: true }),
    );
    assert.deepEqual(
      rest.map((e) => [e.type, e.data]),
      [['organization.usergroup_users_delete', { organizationUserGroupId: 'g1', userIds: ['u2'] }]],
    );
    assert.deepEqual(
      await recorded(() =>
        t.a.ok(PATHS.groupUsersDelete, { organizationId: org, organizationUserGroupId: 'g1', deleteAll: true }),
      ),
      [],
      'nobody left: nothing recorded',
    );
  });
});

describe('events: threads and comments', () => {
  test('commentannotations/add: comment_annotation.add per thread added, in request order, as the read shows it', async () => {
    const org = uniq('org');
    const events = await addThreads(org, 'd', [
      {
        annotationId: 'b',
        location: { page: 2 },
        locationId: 'loc',
        context: { x: 1 },
        assignedTo: { userId: 'boss', name: 'Boss' },
        priority: { id: 'P1' },
        targetElement: { elementId: 'e' },
        status: { id: 'IN_PROGRESS', name: 'In progress', type: 'ongoing' },
        commentData: [
          say('<b>first</b>', 'u1', { taggedUserContacts: [{ userId: 'u2', text: '@u2', contact: { userId: 'u2' } }] }),
          say('second', 'u2'),
        ],
      },
      { annotationId: 'a', commentData: [say('only', 'u3')] },
    ]);
    assert.deepEqual(typesOf(events), ['comment_annotation.add', 'comment_annotation.add']);
    const got = await threadsOf(org, 'd', ['b', 'a']);
    assert.deepEqual(
      events.map((e) => e.data),
      withoutKey(got),
    );
    for (const e of events) {
      assert.equal(e.organizationId, org);
      assert.equal(e.documentId, 'd');
      assert.equal(e.timestamp, now);
      assert.equal(e.data.metadata.apiKey, undefined);
      assert.deepEqual(e.data.metadata, { organizationId: org, documentId: 'd' });
    }
    const again = await addThreads(org, 'd', [
      { annotationId: 'a', commentData: [say('taken', 'u3')] },
      { annotationId: 'c', commentData: [say('new', 'u3')] },
    ]);
    assert.deepEqual(
      again.map((e) => [e.type, e.data.annotationId]),
      [['comment_annotation.add', 'c']],
      'a thread whose id was taken is not announced',
    );
  });

  test('thread and comment data show users as their writer gave them, not as profiles resolve them', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'u1', name: 'Profile name', email: 'p@x.example' }] });
    const [added] = await addThreads(org, 'd', [{ annotationId: 'a', commentData: [say('hi', 'u1')] }]);
    assert.deepEqual(added!.data.from, { email: 'u1@written.example', name: 'Written u1', userId: 'u1' });
    assert.deepEqual(added!.data.comments[0].from, added!.data.from);
    const [read] = await threadsOf(org, 'd', ['a']);
    assert.equal(read.from.name, 'Profile name', 'the read resolves the profile');
  });

  test('comments/add: comment.add per comment, as comments/get shows it with its annotationId', async () => {
    const org = uniq('org');
    await addThreads(org, 'd', [{ annotationId: 'a', commentData: [say('first', 'u1')] }]);
    const events = await recorded(() =>
      t.a.ok(PATHS.commentsAdd, {
        organizationId: org,
        documentId: 'd',
        annotationId: 'a',
        commentData: [say('two', 'u2'), say('three', 'u1', { commentId: 77, taggedUserContacts: [{ userId: 'u2' }] })],
      }),
    );
    assert.deepEqual(typesOf(events), ['comment.add', 'comment.add']);
    const got = await read(PATHS.commentsGet, { organizationId: org, documentId: 'd', annotationId: 'a' });
    assert.deepEqual(
      events.map((e) => e.data),
      got.slice(1).map((c: any) => ({ ...c, annotationId: 'a' })),
    );
    for (const e of events) assert.deepEqual([e.organizationId, e.documentId, e.timestamp], [org, 'd', now]);
  });

  test('comment writes with triggerNotification: notification.add for each fan-out notification, to its one recipient', async () => {
    const org = uniq('org');
    const tagged = (userId: string) => ({ taggedUserContacts: [{ userId, text: `@${userId}` }] });
    const first = await addThreads(org, 'd', [{ annotationId: 'a', commentData: [say('hey @m1', 'u1', tagged('m1'))] }], {
      triggerNotification: true,
    });
    assert.deepEqual(typesOf(first), ['comment_annotation.add', 'notification.add']);
    const replied = await recorded(() =>
      t.a.ok(PATHS.commentsAdd, {
        organizationId: org,
        documentId: 'd',
        annotationId: 'a',
        triggerNotification: true,
        commentData: [say('reply @m2', 'u2', tagged('m2'))],
      }),
    );
    assert.deepEqual(typesOf(replied), ['comment.add', 'notification.add', 'notification.add']);
    const edited = await recorded(() =>
      t.a.ok(PATHS.commentsUpdate, {
        organizationId: org,
        documentId: 'd',
        annotationId: 'a',
        commentIds: [1],
        triggerNotification: true,
        updatedData: { commentText: 'hey @m3', taggedUserContacts: [{ userId: 'm3' }] },
      }),
    );
    assert.deepEqual(typesOf(edited), ['comment.update', 'notification.add']);
    const notices = [...first, ...replied, ...edited].filter((e) => e.type === 'notification.add');
    const got = await read(PATHS.notificationsGet, { organizationId: org, documentId: 'd' });
    for (const e of notices) {
      const [recipient] = Object.keys(e.data.notifyUsersByUserId);
      assert.deepEqual(e.audience, { users: [recipient], wide: false }, js(e));
      assert.equal(e.documentId, 'd');
      assert.equal(e.data.notificationSource, 'comment');
      assert.deepEqual(e.data, withoutKey(got.find((n: any) => n.id === e.data.id)), js(e));
    }
    assert.deepEqual(notices.map((e) => e.audience!.users[0]).sort(), ['m1', 'm2', 'm3', 'u1']);
  });

  test('commentannotations/update: comment_annotation.update per thread changed, status_change where its status changed', async () => {
    const org = uniq('org');
    const open = { id: 'OPEN', name: 'Open', type: 'default' };
    await addThreads(org, 'd', [
      { annotationId: 'a', commentData: [say('x', 'u1')] },
      { annotationId: 'b', status: { id: 'RESOLVED', name: 'Resolved', type: 'terminal' }, commentData: [say('y', 'u1')] },
      { annotationId: 'c', commentData: [say('z', 'u2')] },
    ]);
    const events = await recorded(() =>
      t.a.ok(PATHS.annotationsUpdate, {
        organizationId: org,
        documentId: 'd',
        annotationIds: ['b', 'ghost', 'a'],
        updatedData: { status: { id: 'RESOLVED', name: 'Resolved', type: 'terminal' }, priority: { id: 'P2' } },
      }),
    );
    assert.deepEqual(byTypeOf(events, 'comment_annotation.update').sort(), ['a', 'b']);
    assert.deepEqual(byTypeOf(events, 'comment_annotation.status_change'), ['a'], 'b was resolved already');
    assert.equal(events.length, 3, js(typesOf(events)));
    const got = withoutKey(await threadsOf(org, 'd', ['a', 'b']));
    for (const e of events) {
      assert.deepEqual(
        e.data,
        got.find((x: any) => x.annotationId === e.data.annotationId),
      );
      assert.deepEqual([e.organizationId, e.documentId, e.timestamp], [org, 'd', now]);
    }
    const noStatus = await recorded(() =>
      t.a.ok(PATHS.annotationsUpdate, { organizationId: org, documentId: 'd', updatedData: { status: open } }),
    );
    assert.deepEqual(byTypeOf(noStatus, 'comment_annotation.update').sort(), ['a', 'b', 'c'], 'no filter: every thread');
    assert.deepEqual(byTypeOf(noStatus, 'comment_annotation.status_change').sort(), ['a', 'b']);
    const located = await recorded(() =>
      t.a.ok(PATHS.annotationsUpdate, { organizationId: org, documentId: 'd', updatedData: { locationId: 'here' } }),
    );
    assert.deepEqual(typesOf(located), ['comment_annotation.update', 'comment_annotation.update', 'comment_annotation.update']);
  });

  test('commentannotations/delete: comment_annotation.delete per thread deleted, with its id', async () => {
    const org = uniq('org');
    await addThreads(org, 'd', [
      { annotationId: 'a', commentData: [say('x', 'u1')] },
      { annotationId: 'b', commentData: [say('y', 'u1')] },
    ]);
    const events = await recorded(() =>
      t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'd', annotationIds: ['b', 'ghost'] }),
    );
    assert.deepEqual(
      events.map((e) => [e.type, e.organizationId, e.documentId, e.data]),
      [['comment_annotation.delete', org, 'd', { annotationId: 'b' }]],
    );
    const rest = await recorded(() => t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'd' }));
    assert.deepEqual(
      rest.map((e) => e.data),
      [{ annotationId: 'a' }],
    );
  });

  test('commentannotations/read: comment_annotation.read with the user and the threads named, or all', async () => {
    const org = uniq('org');
    await addThreads(org, 'd', [{ annotationId: 'a', commentData: [say('x', 'u1')] }]);
    const named = await recorded(() =>
      t.a.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'd', userId: 'u2', annotationIds: ['a'] }),
    );
    assert.deepEqual(
      named.map((e) => [e.type, e.documentId, e.data]),
      [['comment_annotation.read', 'd', { userId: 'u2', annotationIds: ['a'] }]],
    );
    const every = await recorded(() => t.a.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'd', userId: 'u2' }));
    assert.deepEqual(
      every.map((e) => e.data),
      [{ userId: 'u2', all: true }],
    );
    assert.deepEqual(
      await recorded(() => t.a.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'none', userId: 'u2' })),
      [],
      'no thread marked: nothing recorded',
    );
  });

  test('comments/update and comments/delete: comment.update as comments/get shows it, comment.delete with the ids', async () => {
    const org = uniq('org');
    await addThreads(org, 'd', [{ annotationId: 'a', commentData: [say('one', 'u1'), say('two', 'u2'), say('three', 'u1')] }]);
    const thread = { organizationId: org, documentId: 'd', annotationId: 'a' };
    const updated = await recorded(() =>
      t.a.ok(PATHS.commentsUpdate, { ...thread, commentIds: [3, 1, 99], updatedData: { commentHtml: '<i>changed</i>' } }),
    );
    assert.deepEqual(typesOf(updated), ['comment.update', 'comment.update']);
    const got = await read(PATHS.commentsGet, { ...thread, commentIds: [1, 3] });
    assert.deepEqual(
      updated.map((e) => e.data),
      got.map((c: any) => ({ ...c, annotationId: 'a' })),
    );
    assert.equal(updated[0]!.data.status, 'updated');
    const deleted = await recorded(() => t.a.ok(PATHS.commentsDelete, { ...thread, commentIds: [2, 99] }));
    assert.deepEqual(
      deleted.map((e) => [e.type, e.documentId, e.data]),
      [['comment.delete', 'd', { annotationId: 'a', commentId: 2 }]],
    );
    const rest = await recorded(() => t.a.ok(PATHS.commentsDelete, thread));
    assert.deepEqual(
      rest.map((e) => e.data.commentId),
      [1, 3],
    );
    const emptied = await recorded(() =>
      t.a.ok(PATHS.annotationsUpdate, { organizationId: org, documentId: 'd', updatedData: { context: { left: 'empty' } } }),
    );
    assert.deepEqual(
      emptied.map((e) => [e.type, e.data.from, e.data.comments]),
      [['comment_annotation.update', null, []]],
    );
    assert.deepEqual(emptied[0]!.data, withoutKey((await threadsOf(org, 'd', ['a']))[0]));
  });
});

const byTypeOf = (events: readonly Recorded[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.data.annotationId);

describe('events: notifications', () => {
  const notification = (org: string, over: Record<string, unknown> = {}) => ({
    organizationId: org,
    documentId: 'd',
    actionUser: { userId: 'actor', name: 'Actor', email: 'actor@x.example' },
    displayHeadlineMessageTemplate: '{actionUser} pinged {who}',
    displayHeadlineMessageTemplateData: { who: { userId: 'r1', name: 'Written r1' }, n: 3 },
    notifyUsers: [user('r1'), user('r2')],
    ...over,
  });
  const notificationsOf = (org: string, data: Record<string, unknown> = {}) =>
    read(PATHS.notificationsGet, { organizationId: org, documentId: 'd', ...data });

  test('notifications/add: notification.add as notifications/get shows it, addressed to its recipients or everyone', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'member' }] });
    const listed = await recorded(() => t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n1' })));
    const wide = await recorded(() =>
      t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n2', notifyUsers: [], documentId: null })),
    );
    assert.deepEqual(typesOf([...listed, ...wide]), ['notification.add', 'notification.add']);
    assert.deepEqual(listed[0]!.audience, { users: ['r1', 'r2'], wide: false });
    assert.deepEqual(wide[0]!.audience, { users: [], wide: true });
    assert.equal(listed[0]!.documentId, 'd');
    assert.equal(wide[0]!.documentId, undefined);
    assert.deepEqual(listed[0]!.data, withoutKey((await notificationsOf(org, { notificationIds: ['n1'] }))[0]));
    const [n2] = await read(PATHS.notificationsGet, { organizationId: org, userId: 'member', notificationIds: ['n2'] });
    assert.deepEqual(wide[0]!.data, withoutKey(n2));
    assert.deepEqual(
      await recorded(() => t.a.post(PATHS.notificationsAdd, notification(org, { notificationId: 'n1' }))),
      [],
      'a taken id records nothing',
    );
  });

  test('notifications/update: notification.update with the new answer; read marks as notification.read and .unread', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n1' }));
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n2' }));
    const changed = await recorded(() =>
      t.a.ok(PATHS.notificationsUpdate, {
        organizationId: org,
        notifications: [
          { id: 'n1', displayBodyMessage: 'new body', actionUser: { userId: 'other', name: 'Other' } },
          { id: 'ghost', displayBodyMessage: 'x' },
        ],
      }),
    );
    assert.deepEqual(typesOf(changed), ['notification.update']);
    assert.deepEqual(changed[0]!.audience, { users: ['r1', 'r2'], wide: false });
    assert.deepEqual(changed[0]!.data, withoutKey((await notificationsOf(org, { notificationIds: ['n1'] }))[0]));
    assert.equal(changed[0]!.data.displayBodyMessage, 'new body');
    const marked = await recorded(() =>
      t.a.ok(PATHS.notificationsUpdate, {
        organizationId: org,
        notifications: [
          { id: 'n1', readByUserIds: ['r1'] },
          { id: 'n2', readByUserIds: ['r1', 'r2'], unreadByUserIds: ['r3'] },
        ],
      }),
    );
    assert.deepEqual(
      marked.map((e) => [e.type, e.data, e.audience]),
      [
        ['notification.read', { userId: 'r1', notificationIds: ['n1', 'n2'] }, { users: ['r1'], wide: false }],
        ['notification.read', { userId: 'r2', notificationIds: ['n2'] }, { users: ['r2'], wide: false }],
        ['notification.unread', { userId: 'r3', notificationIds: ['n2'] }, { users: ['r3'], wide: false }],
      ],
    );
  });

  test('notifications/delete: notification.delete per notification deleted, to those it was addressed to', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n1' }));
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n2', notifyUsers: [], notifyAll: true }));
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n3', documentId: 'other' }));
    const events = await recorded(() => t.a.ok(PATHS.notificationsDelete, { organizationId: org, documentId: 'd' }));
    assert.deepEqual(
      events
        .map((e) => [e.type, e.organizationId, e.data, e.audience])
        .sort((x: any, y: any) => (x[2].notificationId < y[2].notificationId ? -1 : 1)),
      [
        ['notification.delete', org, { notificationId: 'n1' }, { users: ['r1', 'r2'], wide: false }],
        ['notification.delete', org, { notificationId: 'n2' }, { users: [], wide: true }],
      ],
    );
    const byId = await recorded(() =>
      t.a.ok(PATHS.notificationsDelete, { organizationId: org, notificationIds: ['n3', 'gone'] }),
    );
    assert.deepEqual(
      byId.map((e) => e.data),
      [{ notificationId: 'n3' }],
    );
  });

  test('notifications/read: notification.read for the user, of the ids named or all; nothing when nothing was unread', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n1' }));
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n2' }));
    const named = await recorded(() =>
      t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1', notificationIds: ['n1'] }),
    );
    assert.deepEqual(
      named.map((e) => [e.type, e.documentId, e.data, e.audience]),
      [['notification.read', undefined, { userId: 'r1', notificationIds: ['n1'] }, { users: ['r1'], wide: false }]],
    );
    const every = await recorded(() => t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1', documentId: 'd' }));
    assert.deepEqual(
      every.map((e) => [e.documentId, e.data]),
      [['d', { userId: 'r1', all: true }]],
    );
    assert.deepEqual(await recorded(() => t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1' })), []);
  });

  test('notifications/archive and unarchive: .archive and .unarchive for the user; nothing when nothing changed', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n1' }));
    await t.a.ok(PATHS.notificationsAdd, notification(org, { notificationId: 'n2' }));
    const archive = (data: Record<string, unknown>) =>
      recorded(() => t.a.ok(PATHS.notificationsArchive, { organizationId: org, userId: 'r1', ...data }));
    const named = await archive({ notificationIds: ['n1', 'ghost'] });
    assert.deepEqual(
      named.map((e) => [e.type, e.documentId, e.data, e.audience]),
      [['notification.archive', undefined, { userId: 'r1', notificationIds: ['n1', 'ghost'] }, { users: ['r1'], wide: false }]],
    );
    assert.deepEqual(await archive({ notificationIds: ['n1'] }), [], 'already archived');
    await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'r1' });
    assert.deepEqual(
      (await archive({ allRead: true })).map((e) => [e.type, e.data]),
      [['notification.archive', { userId: 'r1', allRead: true }]],
    );
    const back = await recorded(() =>
      t.a.ok(PATHS.notificationsUnarchive, { organizationId: org, userId: 'r1', notificationIds: ['n2'] }),
    );
    assert.deepEqual(
      back.map((e) => [e.type, e.data, e.audience]),
      [['notification.unarchive', { userId: 'r1', notificationIds: ['n2'] }, { users: ['r1'], wide: false }]],
    );
    assert.deepEqual(
      await recorded(() => t.a.ok(PATHS.notificationsUnarchive, { organizationId: org, userId: 'r1', notificationIds: ['n2'] })),
      [],
    );
  });

  test('notifications/config/set: notification.config_set per document, with the users and the channels set', async () => {
    const org = uniq('org');
    const events = await recorded(() =>
      t.a.ok(PATHS.notificationsConfigSet, {
        organizationId: org,
        documentIds: ['d1', 'd2'],
        userIds: ['u1', 'u2'],
        config: { inbox: 'ALL' },
      }),
    );
    assert.deepEqual(
      events.map((e) => [e.type, e.documentId, e.data, e.audience]),
      ['d1', 'd2'].map((d) => [
        'notification.config_set',
        d,
        { userIds: ['u1', 'u2'], config: { inbox: 'ALL' } },
        { users: ['u1', 'u2'], wide: false },
      ]),
    );
  });
});

describe('events: organizations, documents, folders', () => {
  const orgsOf = (ids: string[]) => read(PATHS.organizationsGet, { organizationIds: ids });

  test('organizations: add, update and disable state as organizations/get shows them; delete with the id, recorded last', async () => {
    const [o1, o2] = [uniq('org'), uniq('org')];
    const added = await recorded(() =>
      t.a.ok(PATHS.organizationsAdd, {
        organizations: [{ organizationId: o2, organizationName: 'Two' }, { organizationId: o1 }],
      }),
    );
    assert.deepEqual(
      added.map((e) => [e.type, e.organizationId, e.documentId]),
      [
        ['organization.add', o2, undefined],
        ['organization.add', o1, undefined],
      ],
    );
    assert.deepEqual(
      added.map((e) => e.data),
      [(await orgsOf([o2]))[0], (await orgsOf([o1]))[0]],
    );
    const updated = await recorded(() =>
      t.a.ok(PATHS.organizationsUpdate, {
        organizations: [{ organizationId: o1, organizationName: 'One' }, { organizationId: 'no' }],
      }),
    );
    assert.deepEqual(
      updated.map((e) => [e.type, e.data]),
      [['organization.update', (await orgsOf([o1]))[0]]],
    );
    const disabled = await recorded(() => t.a.ok(PATHS.organizationsDisable, { organizationIds: [o1], disabled: true }));
    assert.deepEqual(
      disabled.map((e) => [e.type, e.data]),
      [['organization.update', (await orgsOf([o1]))[0]]],
    );
    assert.equal(disabled[0]!.data.disabled, true);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [o1], disabled: false });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: o1,
      documentId: 'd',
      commentAnnotations: [{ commentData: [say('x', 'u')] }],
    });
    const deleted = await recorded(() => t.a.ok(PATHS.organizationsDelete, { organizationIds: [o1, 'no-such'] }));
    assert.deepEqual(
      deleted.map((e) => [e.type, e.organizationId, e.data]),
      [['organization.delete', o1, { organizationId: o1 }]],
    );
    const kept = (await eventsAfter(tenantA, 0)).filter((e) => e.organizationId === o1);
    assert.ok(
      kept.some((e) => e.type === 'comment_annotation.add'),
      'the events of the organization are kept',
    );
  });

  test('documents: add, update, move, access and disable state as documents/get shows them; delete with the id', async () => {
    const org = uniq('org');
    const docsOf = async (ids: string[]) => read(PATHS.documentsGet, { organizationId: org, documentIds: ids });
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] });
    const expectDocs = async (events: Recorded[], type: string, ids: string[]) => {
      assert.deepEqual(
        events.map((e) => [e.type, e.organizationId, e.documentId]),
        ids.map((id) => [type, org, id]),
      );
      const got = await docsOf(ids);
      assert.deepEqual(
        events.map((e) => e.data),
        ids.map((id) => got.find((d: any) => d.id === id)),
      );
    };
    const added = await recorded(() =>
      t.a.ok(PATHS.documentsAdd, {
        organizationId: org,
        folderId: 'f',
        documents: [{ documentId: 'd2', documentName: 'Two' }, { documentId: 'd1' }],
      }),
    );
    await expectDocs(added, 'document.add', ['d2', 'd1']);
    const updated = await recorded(() =>
      t.a.ok(PATHS.documentsUpdate, {
        organizationId: org,
        documents: [{ documentId: 'ghost' }, { documentId: 'd1', documentName: 'One' }],
      }),
    );
    await expectDocs(updated, 'document.update', ['d1']);
    const moved = await recorded(() =>
      t.a.ok(PATHS.documentsMove, { organizationId: org, documentIds: ['d1'], folderId: 'root' }),
    );
    await expectDocs(moved, 'document.update', ['d1']);
    assert.equal(moved[0]!.data.folderId, null);
    const access = await recorded(() =>
      t.a.ok(PATHS.documentsAccess, { organizationId: org, documentIds: ['d2', 'd1'], accessType: 'restricted' }),
    );
    await expectDocs(access, 'document.update', ['d2', 'd1']);
    const disabled = await recorded(() =>
      t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['d2'], disabled: true }),
    );
    await expectDocs(disabled, 'document.update', ['d2']);
    assert.equal(disabled[0]!.data.disabled, true);
    const deleted = await recorded(() => t.a.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['d2', 'ghost'] }));
    assert.deepEqual(
      deleted.map((e) => [e.type, e.documentId, e.data]),
      [['document.delete', 'd2', { documentId: 'd2' }]],
    );
  });

  test('folders: add, update and access as folders/get lists them; delete per folder gone, its subfolders too', async () => {
    const org = uniq('org');
    const flat = async () => read(PATHS.foldersGet, { organizationId: org });
    const expectFolders = async (events: Recorded[], type: string, ids: string[]) => {
      const got = await flat();
      assert.deepEqual(
        events.map((e) => [e.type, e.organizationId, e.documentId, e.data]),
        ids.map((id) => [type, org, undefined, got.find((f: any) => f.folderId === id)]),
      );
    };
    const added = await recorded(() =>
      t.a.ok(PATHS.foldersAdd, {
        organizationId: org,
        folders: [{ folderId: 'top', folderName: 'Top' }, { folderId: 'sub', parentFolderId: 'top' }, { folderId: 'other' }],
      }),
    );
    await expectFolders(added, 'folder.add', ['top', 'sub', 'other']);
    const updated = await recorded(() =>
      t.a.ok(PATHS.foldersUpdate, {
        organizationId: org,
        folders: [{ folderId: 'other', folderName: 'Other', parentFolderId: 'top' }],
      }),
    );
    await expectFolders(updated, 'folder.update', ['other']);
    const access = await recorded(() =>
      t.a.ok(PATHS.foldersAccess, { organizationId: org, folderIds: ['sub', 'ghost'], accessType: 'public' }),
    );
    await expectFolders(access, 'folder.update', ['sub']);
    const deleted = await recorded(() => t.a.ok(PATHS.foldersDelete, { organizationId: org, folderIds: ['top', 'ghost'] }));
    assert.deepEqual(
      deleted.map((e) => e.type),
      ['folder.delete', 'folder.delete', 'folder.delete'],
    );
    assert.deepEqual(deleted.map((e) => e.data.folderId).sort(), ['other', 'sub', 'top']);
  });
});

describe('events: what is always true', () => {
  test('a refused write records nothing: a disabled organization or document, NOT_FOUND, INVALID_ARGUMENT', async () => {
    const org = uniq('org');
    await addThreads(org, 'd', [{ annotationId: 'a', commentData: [say('x', 'u1')] }]);
    await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['d'], disabled: true });
    const before = await lastEventId(tenantA);
    const refused: [string, Record<string, unknown>, number, string][] = [
      [
        PATHS.annotationsAdd,
        { organizationId: org, documentId: 'd', commentAnnotations: [{ commentData: [say('y', 'u')] }] },
        403,
        'PERMISSION_DENIED',
      ],
      [
        PATHS.commentsAdd,
        { organizationId: org, documentId: 'd', annotationId: 'a', commentData: [say('y', 'u')] },
        403,
        'PERMISSION_DENIED',
      ],
      [
        PATHS.commentsAdd,
        { organizationId: org, documentId: 'd2', annotationId: 'none', commentData: [say('y', 'u')] },
        404,
        'NOT_FOUND',
      ],
      [PATHS.documentsMove, { organizationId: org, documentIds: ['d2'], folderId: 'no-folder' }, 404, 'NOT_FOUND'],
      [PATHS.usersAdd, { organizationId: org, documentId: 'd', users: [user('u')] }, 403, 'PERMISSION_DENIED'],
      [PATHS.usersUpdate, { organizationId: org, documentId: 'd', users: [user('u1')] }, 403, 'PERMISSION_DENIED'],
      [PATHS.usersAdd, { organizationId: org, users: [user('u'), user('u')] }, 400, 'INVALID_ARGUMENT'],
    ];
    for (const [path, data, status, code] of refused) expectError(await t.a.post(path, data), status, code, path);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    const afterDisable = await lastEventId(tenantA);
    assert.equal(afterDisable, before + 1, 'the disable-state update itself is one event');
    for (const [path, data] of [
      [
        PATHS.notificationsAdd,
        { organizationId: org, actionUser: user('a'), displayHeadlineMessageTemplate: 'x', notifyUsers: [user('r')] },
      ],
      [PATHS.usersUpdate, { organizationId: org, users: [user('u1')] }],
      [PATHS.organizationsUpdate, { organizations: [{ organizationId: org, organizationName: 'N' }] }],
      [PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] }],
      [PATHS.notificationsConfigSet, { organizationId: org, documentIds: ['x'], userIds: ['u'], config: { inbox: 'ALL' } }],
    ] as const) {
      expectError(await t.a.post(path, data), 403, 'PERMISSION_DENIED', path);
    }
    assert.equal(await lastEventId(tenantA), afterDisable, 'refused writes recorded nothing');
  });

  test('ids go up by one per event, per tenant: each tenant has its own sequence, concurrent writes included', async () => {
    const org = uniq('org');
    const fromB = await lastEventId(tenantB);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? t.a : t.b).ok(PATHS.usersAdd, { organizationId: org, users: [user(`c${i}`), user(`d${i}`)] }),
      ),
    );
    for (const tenant of [tenantA, tenantB]) {
      const all = await eventsAfter(tenant, 0);
      assert.deepEqual(
        all.map((e) => e.id),
        all.map((_, i) => i + 1),
        'ids 1, 2, 3, ... without a gap',
      );
      assert.equal(await lastEventId(tenant), all.length);
    }
    const ofB = await eventsAfter(tenantB, fromB);
    assert.equal(ofB.length, 12, "tenant b's own six writes, two users each");
    assert.ok(ofB.every((e) => e.type === 'user.add' && Number(e.data.userId.slice(1)) % 2 === 0));
  });

  test('users/data/delete leaves no event that names the user, and records none of its own', async () => {
    const org = uniq('org');
    const id = 'zz-events-erased';
    const me = { userId: id, name: 'Erasable Person', email: 'erasable@events.example' };
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [me, user('keep')] });
    await addThreads(org, 'd', [
      { annotationId: 'a', assignedTo: me, commentData: [say('mine', id, { from: me }), say('theirs', 'keep')] },
    ]);
    await t.a.ok(PATHS.notificationsAdd, {
      organizationId: org,
      actionUser: user('keep'),
      displayHeadlineMessageTemplate: '{who}',
      displayHeadlineMessageTemplateData: { who: me },
      notifyUsers: [me, user('keep')],
    });
    await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: id });
    await t.a.ok(PATHS.groupUsersAdd, { organizationId: org, organizationUserGroupId: 'g', userIds: [id] }).catch(() => null);
    const naming = async () =>
      (await eventsAfter(tenantA, 0)).filter((e) => [id, me.name, me.email].some((needle) => JSON.stringify(e).includes(needle)));
    assert.ok((await naming()).length >= 4, 'the fixture names the user in events');
    const before = await lastEventId(tenantA);
    const untouched = (await eventsAfter(tenantA, 0)).filter((e) => e.organizationId !== org);
    await t.a.ok(PATHS.userDataDelete, { userIds: [id], organizationIds: [org] });
    assert.deepEqual(await naming(), []);
    assert.equal(await lastEventId(tenantA), before, 'the erasure recorded no event');
    assert.deepEqual(
      (await eventsAfter(tenantA, 0)).filter((e) => e.organizationId !== org),
      untouched,
      "other organizations' events stay",
    );
    const ofKeep = (await eventsAfter(tenantA, 0)).filter((e) => e.organizationId === org && e.type === 'user.add');
    assert.deepEqual(
      ofKeep.map((e) => e.data.userId),
      ['keep'],
      "others' events that do not name the user stay",
    );
  });

  test('no event carries an API key (streams reach browsers)', async () => {
    for (const tenant of [tenantA, tenantB]) {
      await t.store.eventsNumbered(tenant);
      for (const e of await t.store.eventsAfter(tenant, 0, 100_000)) {
        for (const key of [t.a.creds.apiKey, t.b.creds.apiKey]) assert.ok(!e.body.includes(key), e.body.slice(0, 300));
        assert.ok(!e.body.includes('"apiKey"'), e.body.slice(0, 300));
      }
    }
  });
});
