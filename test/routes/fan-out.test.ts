// Notifications from comments (docs/api.md, "Notifications from comments (triggerNotification)"):
// commentannotations/add, comments/add and comments/update with triggerNotification notify mentioned users (unless
// NONE), earlier authors of the thread (MINE or ALL) and document members (ALL), never the author, one notification
// per user; without triggerNotification nobody. Where docs/api.md is silent, docs/decisions.md
// ("triggerNotification").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, HEX32, makeTestApp, PATHS, T0, type TestApp } from '../helpers/app.js';

let t: TestApp;
let now = T0;

before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => {
  await t.close();
});

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;
const js = (x: unknown) => String(JSON.stringify(x)).slice(0, 1200);

const DOC = 'doc-f';

/** A comment as callers write it: text, author, and any other members (taggedUserContacts, triggerNotification). */
const say = (commentText: string, userId: string, extra: Record<string, unknown> = {}) => ({
  commentText,
  from: { userId },
  ...extra,
});
/** taggedUserContacts naming these users. */
const tags = (...userIds: string[]) => ({ taggedUserContacts: userIds.map((userId) => ({ userId, text: `@${userId}` })) });

async function addThread(
  org: string,
  annotationId: string,
  commentData: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
  annotationExtra: Record<string, unknown> = {},
): Promise<void> {
  now += 1;
  const r = await t.a.ok(PATHS.annotationsAdd, {
    organizationId: org,
    documentId: DOC,
    commentAnnotations: [{ annotationId, commentData, ...annotationExtra }],
    ...extra,
  });
  assert.equal(r.data[annotationId]?.success, true, js(r));
}

async function reply(
  org: string,
  annotationId: string,
  commentData: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
) {
  now += 1;
  return (await t.a.ok(PATHS.commentsAdd, { organizationId: org, documentId: DOC, annotationId, commentData, ...extra }))
    .data as number[];
}

async function edit(org: string, annotationId: string, commentIds: number[], updatedData: Record<string, unknown>, extra = {}) {
  now += 1;
  return t.a.ok(PATHS.commentsUpdate, { organizationId: org, documentId: DOC, annotationId, commentIds, updatedData, ...extra });
}

/** Every notification of the document, newest first. */
async function all(org: string, documentId = DOC): Promise<any[]> {
  return (await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId })).data as any[];
}

/** Who got how many notifications in the document: {userId: count}, from each notification's one recipient. */
async function tally(org: string, documentId = DOC): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const n of await all(org, documentId)) {
    const recipients = Object.keys(n.notifyUsersByUserId);
    assert.equal(recipients.length, 1, `a fan-out notification has one recipient: ${js(n)}`);
    out[recipients[0]!] = (out[recipients[0]!] ?? 0) + 1;
  }
  return out;
}

async function setInbox(org: string, userIds: string[], inbox: string, documentIds = [DOC]) {
  await t.a.ok(PATHS.notificationsConfigSet, { organizationId: org, documentIds, userIds, config: { inbox } });
}

async function docMembers(org: string, userIds: string[], documentId = DOC) {
  await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId, users: userIds.map((userId) => ({ userId })) });
}

describe('without triggerNotification nobody is notified (imports stay silent)', () => {
  for (const trigger of [undefined, false, null]) {
    test(`triggerNotification ${String(trigger)} at every level`, async () => {
      const org = uniq('org-silent');
      await docMembers(org, ['all-member']);
      await setInbox(org, ['all-member', 'm'], 'ALL');
      const flag = trigger === undefined ? {} : { triggerNotification: trigger };
      await addThread(org, 'a1', [say('first', 'p', { ...tags('m'), ...flag }), say('second', 'q', flag)], flag, flag);
      await reply(org, 'a1', [say('a reply', 'r', { ...tags('m', 'p'), ...flag })], flag);
      await edit(org, 'a1', [1, 2, 3], { commentText: 'edited', ...tags('m', 'all-member'), ...flag }, flag);
      assert.deepEqual(await all(org), []);
      for (const u of ['m', 'p', 'q', 'r', 'all-member']) {
        assert.deepEqual((await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: u })).data, {
          total: 0,
          unread: 0,
        });
      }
    });
  }
});

describe('who is notified', () => {
  test('mentions: everyone tagged whose inbox setting is not NONE, never the author', async () => {
    const org = uniq('org-mention');
    await setInbox(org, ['m-all'], 'ALL');
    await setInbox(org, ['m-mine'], 'MINE');
    await setInbox(org, ['m-none'], 'NONE');
    await setInbox(org, ['m-none-elsewhere'], 'NONE', ['another-doc']);
    await addThread(org, 'a1', [say('hi all', 'p', tags('m-all', 'm-mine', 'm-none', 'm-default', 'm-none-elsewhere', 'p'))], {
      triggerNotification: true,
    });
    assert.deepEqual(await tally(org), { 'm-all': 1, 'm-mine': 1, 'm-default': 1, 'm-none-elsewhere': 1 });
  });

  test('earlier authors of a reply: MINE (the default) and ALL, not NONE, never the author', async () => {
    const org = uniq('org-reply');
    await setInbox(org, ['a-all'], 'ALL');
    await setInbox(org, ['a-none'], 'NONE');
    await addThread(org, 'a1', [say('one', 'a-default')]);
    await reply(org, 'a1', [say('two', 'a-all')]);
    await reply(org, 'a1', [say('three', 'a-none')]);
    assert.deepEqual(await all(org), [], 'nothing triggered yet');
    await reply(org, 'a1', [say('four', 'late')], { triggerNotification: true });
    assert.deepEqual(await tally(org), { 'a-default': 1, 'a-all': 1 });
    // The author replying to their own thread: the others, not themselves.
    await reply(org, 'a1', [say('five', 'a-default')], { triggerNotification: true });
    assert.deepEqual(await tally(org), { 'a-default': 1, 'a-all': 2, late: 1 });
  });

  test('earlier authors are of this thread only, and of comments before the new one', async () => {
    const org = uniq('org-reply-scope');
    await addThread(org, 'a1', [say('one', 'p')]);
    await addThread(org, 'a2', [say('other thread', 'other')]);
    await reply(org, 'a1', [say('two', 'q')], { triggerNotification: true });
    assert.deepEqual(await tally(org), { p: 1 });
  });

  test('document members with ALL only; members of other documents, the organization or a folder are not', async () => {
    const org = uniq('org-members');
    await docMembers(org, ['d-all', 'd-mine', 'd-none', 'd-default', 'd-all-elsewhere']);
    await docMembers(org, ['other-doc-all'], 'other-doc');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'org-all' }] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, folderId: 'f', users: [{ userId: 'folder-all' }] });
    await setInbox(org, ['d-all', 'other-doc-all', 'org-all', 'folder-all'], 'ALL');
    await setInbox(org, ['d-mine'], 'MINE');
    await setInbox(org, ['d-none'], 'NONE');
    await setInbox(org, ['d-all-elsewhere'], 'ALL', ['other-doc']);
    await addThread(org, 'a1', [say('news', 'author')], { triggerNotification: true });
    assert.deepEqual(await tally(org), { 'd-all': 1 });
    // The author, a member with ALL, is not notified of their own comment.
    await setInbox(org, ['d-mine'], 'ALL');
    await reply(org, 'a1', [say('more', 'd-mine')], { triggerNotification: true });
    assert.deepEqual(await tally(org), { 'd-all': 2, author: 1 });
  });

  test('one notification per user for a comment with several reasons: the first reason (mention) names it', async () => {
    const org = uniq('org-reasons');
    await docMembers(org, ['x', 'y']);
    await setInbox(org, ['x', 'y'], 'ALL');
    await addThread(org, 'a1', [say('one', 'x'), say('two', 'y')]);
    await reply(org, 'a1', [say('three', 'z', tags('x', 'x', 'y'))], { triggerNotification: true });
    const list = await all(org);
    assert.deepEqual(await tally(org), { x: 1, y: 1 }, js(list));
    for (const n of list) assert.equal(n.displayHeadlineMessageTemplate, '{actionUser} mentioned you', js(n));
    // A reason that is not a mention: a reply to an earlier author who is also a member with ALL.
    await reply(org, 'a1', [say('four', 'z')], { triggerNotification: true });
    const latest = (await all(org)).slice(0, 2);
    assert.deepEqual(latest.map((n) => Object.keys(n.notifyUsersByUserId)[0]).sort(), ['x', 'y']);
    for (const n of latest) {
      assert.equal(n.displayHeadlineMessageTemplate, '{actionUser} replied to a thread you commented on', js(n));
    }
  });

  test('one notification per affected user per write, even over several comments', async () => {
    const org = uniq('org-per-write');
    await addThread(org, 'a1', [say('one', 'p')]);
    await reply(org, 'a1', [say('two', 'q', tags('m')), say('three', 'r', tags('m')), say('four', 's')], {
      triggerNotification: true,
    });
    const counts = await tally(org);
    assert.equal(counts.p, 1, `p, the earlier author, once for the write: ${js(counts)}`);
    assert.equal(counts.m, 1, `m, mentioned twice, once for the write: ${js(counts)}`);
  });

  test('one notification per affected user per write: comments/update of several comments', async () => {
    const org = uniq('org-per-write-update');
    await addThread(org, 'a1', [say('one', 'p')]);
    const ids = await reply(org, 'a1', [say('two', 'q'), say('three', 'q')]);
    await edit(org, 'a1', ids, tags('m'), { triggerNotification: true });
    // Only comments/add makes replies (docs/api.md, "Notifications from comments (triggerNotification)"): an edit
    // does not tell the earlier author p.
    assert.deepEqual(await tally(org), { m: 1 });
  });

  test("a thread's first comments (commentannotations/add) are not replies", async () => {
    const org = uniq('org-first');
    await addThread(org, 'a1', [say('one', 'p'), say('two', 'q'), say('three', 'r', tags('m'))], { triggerNotification: true });
    assert.deepEqual(await tally(org), { m: 1 }, 'p and q are not earlier authors of a reply');
  });

  test('settings are per document: NONE on one document does not silence another', async () => {
    const org = uniq('org-per-doc');
    await setInbox(org, ['m'], 'NONE', ['doc-quiet']);
    now += 1;
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc-quiet',
      triggerNotification: true,
      commentAnnotations: [{ annotationId: 'q1', commentData: [say('quiet', 'p', tags('m'))] }],
    });
    await addThread(org, 'a1', [say('loud', 'p', tags('m'))], { triggerNotification: true });
    assert.deepEqual(await tally(org, 'doc-quiet'), {});
    assert.deepEqual(await tally(org), { m: 1 });
  });
});

describe('the notification', () => {
  test('source, source data, action user resolved against the profile, template, recipient, metadata', async () => {
    const org = uniq('org-fields');
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [
        { userId: 'auth', name: 'Profile Author', email: 'author@profile.example' },
        { userId: 'm', name: 'Mentioned', email: 'm@example.com' },
      ],
    });
    now = T0 + 7_000_000;
    const r = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: DOC,
      triggerNotification: true,
      commentAnnotations: [
        {
          annotationId: 'ann-f',
          commentData: [
            {
              commentId: 41,
              commentText: 'look at this',
              from: { userId: 'auth', name: 'Sent Name', email: 'sent@example.com' },
              taggedUserContacts: [{ userId: 'm', text: '@m', contact: { userId: 'm' } }],
            },
          ],
        },
      ],
    });
    assert.deepEqual(r.data['ann-f'].commentIds, [41]);
    const list = await all(org);
    assert.equal(list.length, 1, js(list));
    const n = list[0];
    const mInternal = (await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'm' }] })).data.m.id;
    assert.match(mInternal, HEX32);
    const author = { userId: 'auth', name: 'Profile Author', email: 'author@profile.example' };
    assert.equal(typeof n.id, 'string');
    assert.equal(n.notificationSource, 'comment');
    assert.deepEqual(n.notificationSourceData, { annotationId: 'ann-f', commentId: 41, documentId: DOC });
    assert.deepEqual(n.actionUser, author);
    assert.match(n.displayHeadlineMessageTemplate, /\{actionUser\}/);
    assert.deepEqual(n.displayHeadlineMessageTemplateData, { actionUser: author });
    assert.equal(n.displayBodyMessage, 'look at this');
    assert.deepEqual(n.notifyUsersByUserId, { m: true });
    assert.deepEqual(n.notifyUsers, { [mInternal]: true });
    assert.deepEqual(n.metadata, { apiKey: t.a.creds.apiKey, organizationId: org, documentId: DOC });
    assert.equal(n.timestamp, T0 + 7_000_000);
    // Found in m's inbox, unread, counted; and readable like any other.
    const inbox = await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'm', unread: true });
    assert.deepEqual(inbox.data, list);
    assert.deepEqual((await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'm' })).data, {
      total: 1,
      unread: 1,
    });
    assert.deepEqual((await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'm' })).data, { read: 1 });
    // A users/update of the author shows at once in actionUser and in the template's user.
    await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'auth', name: 'Renamed Author' }] });
    const [again] = await all(org);
    assert.equal(again.actionUser.name, 'Renamed Author');
    assert.equal(again.displayHeadlineMessageTemplateData.actionUser.name, 'Renamed Author');
    assert.deepEqual(again.notifyUsersByUserId, { m: false });
    // notifications/update changes its content and keeps its source, source data and recipient.
    await t.a.ok(PATHS.notificationsUpdate, { organizationId: org, notifications: [{ id: n.id, displayBodyMessage: 'edited' }] });
    const [edited] = await all(org);
    assert.equal(edited.displayBodyMessage, 'edited');
    assert.equal(edited.notificationSource, 'comment');
    assert.deepEqual(edited.notificationSourceData, n.notificationSourceData);
    assert.deepEqual(edited.notifyUsersByUserId, { m: false });
    assert.equal(edited.timestamp, n.timestamp);
  });

  test('an author without a profile shows what the comment sent; a reply carries its own comment id', async () => {
    const org = uniq('org-fields-2');
    await addThread(org, 'a1', [say('one', 'p')]);
    const [id] = await reply(org, 'a1', [{ commentHtml: '<p>a <b>bold</b> reply</p>', from: { userId: 'q', name: 'Q Sent' } }], {
      triggerNotification: true,
    });
    const [n] = await all(org);
    assert.deepEqual(n.actionUser, { userId: 'q', name: 'Q Sent', email: '' });
    assert.deepEqual(n.notificationSourceData, { annotationId: 'a1', commentId: id, documentId: DOC });
    assert.equal(n.displayBodyMessage, 'a bold reply');
    assert.deepEqual(n.notifyUsersByUserId, { p: true });
  });
});

describe('triggerNotification sits at the top of data', () => {
  test('commentannotations/add: on data it notifies; on an annotation or a comment it is an unknown member', async () => {
    const org = uniq('org-levels-add');
    now += 1;
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: DOC,
      commentAnnotations: [
        { annotationId: 'ann-on', triggerNotification: true, commentData: [say('x', 'p', tags('m1'))] },
        { annotationId: 'ann-comment', commentData: [say('x', 'p', { ...tags('m2'), triggerNotification: true })] },
      ],
    });
    assert.deepEqual(await tally(org), {}, 'below the top of data it is ignored (unknown members)');
    now += 1;
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: DOC,
      triggerNotification: true,
      commentAnnotations: [
        { annotationId: 'ann-data-1', commentData: [say('x', 'p', tags('m6'))] },
        { annotationId: 'ann-data-2', triggerNotification: false, commentData: [say('x', 'p', tags('m7'))] },
      ],
    });
    assert.deepEqual(await tally(org), { m6: 1, m7: 1 }, 'the whole write notifies');
  });

  test('comments/add: on data it notifies; on a comment it is ignored', async () => {
    const org = uniq('org-levels-reply');
    await addThread(org, 'a1', [say('x', 'p')]);
    await reply(org, 'a1', [say('y', 'q', { ...tags('m2'), triggerNotification: true })]);
    assert.deepEqual(await tally(org), {});
    await reply(org, 'a1', [say('x', 'r', tags('m3'))], { triggerNotification: true });
    assert.deepEqual(await tally(org), { m3: 1, p: 1, q: 1 }, 'a reply tells the earlier authors p and q');
  });

  test('comments/update: on data it tells the mentioned and the members, never earlier authors (only comments/add replies)', async () => {
    const org = uniq('org-levels-update');
    await docMembers(org, ['member-all']);
    await setInbox(org, ['member-all'], 'ALL');
    await addThread(org, 'a1', [say('one', 'p')]);
    const [two] = await reply(org, 'a1', [say('two', 'q')]);
    assert.deepEqual(await all(org), []);
    await edit(org, 'a1', [two!], { commentText: 'ignored here', triggerNotification: true });
    assert.deepEqual(await all(org), [], 'on updatedData it is ignored');
    const r = await edit(org, 'a1', [two!], { commentText: 'two, edited', ...tags('m1') }, { triggerNotification: true });
    assert.deepEqual(r.data[String(two)], { success: true, id: two, message: 'Updated successfully' });
    assert.deepEqual(await tally(org), { m1: 1, 'member-all': 1 });
    const [n] = (await all(org)).filter((x) => Object.hasOwn(x.notifyUsersByUserId, 'm1'));
    assert.deepEqual(n.notificationSourceData, { annotationId: 'a1', commentId: two, documentId: DOC });
    assert.equal(n.displayBodyMessage, 'two, edited');
    assert.deepEqual(n.actionUser, { userId: 'q', name: '', email: '' });
    await edit(org, 'a1', [two!], { commentText: 'again' }, { triggerNotification: true });
    assert.deepEqual(await tally(org), { m1: 2, 'member-all': 2 }, 'tags kept from before still mention m1');
    await edit(org, 'a1', [two!], { commentText: 'silent' });
    assert.equal((await all(org)).length, 4, 'no trigger: nobody');
  });

  test('comments/update of comment ids that do not exist notifies nobody', async () => {
    const org = uniq('org-update-missing');
    await addThread(org, 'a1', [say('one', 'p')]);
    const r = await edit(org, 'a1', [7, 8], { commentText: 'x', ...tags('m1') }, { triggerNotification: true });
    assert.deepEqual(r.data, {
      7: { success: false, id: 7, message: 'Not found' },
      8: { success: false, id: 8, message: 'Not found' },
    });
    assert.deepEqual(await all(org), []);
  });
});

describe('the same transaction as the comment write', () => {
  test('comments/add that fails (ALREADY_EXISTS, NOT_FOUND, INVALID_ARGUMENT) creates no notification', async () => {
    const org = uniq('org-atomic');
    await docMembers(org, ['member-all']);
    await setInbox(org, ['member-all'], 'ALL');
    await addThread(org, 'a1', [say('one', 'p')]);
    const base = { organizationId: org, documentId: DOC, annotationId: 'a1', triggerNotification: true };
    const clash = await t.a.post(PATHS.commentsAdd, {
      ...base,
      commentData: [say('new', 'q', tags('m')), { ...say('taken', 'q', tags('m2')), commentId: 1 }],
    });
    expectError(clash, 409, 'ALREADY_EXISTS', 'clash');
    const missing = await t.a.post(PATHS.commentsAdd, { ...base, annotationId: 'nope', commentData: [say('x', 'q', tags('m'))] });
    expectError(missing, 404, 'NOT_FOUND', 'unknown annotation');
    const invalid = await t.a.post(PATHS.commentsAdd, {
      ...base,
      commentData: [say('x', 'q', tags('m')), { commentText: 'no author' }],
    });
    expectError(invalid, 400, 'INVALID_ARGUMENT', 'invalid');
    assert.deepEqual(await all(org), []);
    for (const u of ['m', 'm2', 'p', 'member-all']) {
      assert.deepEqual(
        (await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: u })).data,
        { total: 0, unread: 0 },
        u,
      );
    }
    const comments = await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: DOC, annotationId: 'a1' });
    assert.equal(comments.data.length, 1, 'nothing added either');
  });

  test('commentannotations/add: an annotation that already exists notifies nobody; the others do', async () => {
    const org = uniq('org-atomic-add');
    await addThread(org, 'taken', [say('one', 'p')]);
    now += 1;
    const r = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: DOC,
      triggerNotification: true,
      commentAnnotations: [
        { annotationId: 'taken', commentData: [say('again', 'q', tags('m-taken'))] },
        { annotationId: 'fresh', commentData: [say('new', 'q', tags('m-fresh'))] },
      ],
    });
    assert.equal(r.data.taken.success, false, js(r));
    assert.equal(r.data.fresh.success, true, js(r));
    assert.deepEqual(await tally(org), { 'm-fresh': 1 });
  });

  test('comments/update of an unknown annotation is NOT_FOUND and notifies nobody', async () => {
    const org = uniq('org-atomic-update');
    const r = await t.a.post(PATHS.commentsUpdate, {
      organizationId: org,
      documentId: DOC,
      annotationId: 'nope',
      commentIds: [1],
      triggerNotification: true,
      updatedData: { commentText: 'x', ...tags('m') },
    });
    expectError(r, 404, 'NOT_FOUND');
    assert.deepEqual(await all(org), []);
  });
});

describe('tenants', () => {
  test("tenant b's settings and members do not steer tenant a's fan-out, nor see its notifications", async () => {
    const org = uniq('org-fan-tenants');
    await t.b.ok(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: [DOC],
      userIds: ['m'],
      config: { inbox: 'NONE' },
    });
    await t.b.ok(PATHS.usersAdd, { organizationId: org, documentId: DOC, users: [{ userId: 'b-member' }] });
    await t.b.ok(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: [DOC],
      userIds: ['b-member'],
      config: { inbox: 'ALL' },
    });
    await addThread(org, 'a1', [say('one', 'p', tags('m'))], { triggerNotification: true });
    assert.deepEqual(await tally(org), { m: 1 });
    assert.deepEqual((await t.b.ok(PATHS.notificationsGet, { organizationId: org, documentId: DOC })).data, []);
  });
});
