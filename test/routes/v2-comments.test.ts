// /v2's comment pages (docs/api.md, "Version 2"), on the configured database: commentannotations/get across an
// organization by lastUpdated with the v2 filters, paged both ways; threads' kind, suggestion, visibility,
// resolver and agent; comments' context, attachments and agent; the delete of an agent's pending suggestions;
// comments/get's /v2 shape. And v1's answers for the same threads.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, steppingClock, type TestApp, user, v2 } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  // Each write a millisecond after the one before: lastUpdated orders the threads as they were written.
  t = await makeTestApp({ clock: steppingClock() });
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const GET = v2(PATHS.annotationsGet);

const comment = (text: string, by = 'ann', extra: Record<string, unknown> = {}) => ({
  commentText: text,
  from: user(by),
  ...extra,
});

async function add(org: string, doc: string, threads: Record<string, unknown>[]) {
  return t.a.ok(v2(PATHS.annotationsAdd), { organizationId: org, documentId: doc, commentAnnotations: threads });
}

/** Every thread of a /v2 read, page after page, as their annotationIds. */
async function all(data: Record<string, unknown>, pageSize = 2): Promise<string[]> {
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await t.a.ok(GET, { ...data, pageSize, ...(pageToken ? { pageToken } : {}) });
    ids.push(...page.data.map((x: any) => x.annotationId));
    pageToken = page.nextPageToken;
  } while (pageToken);
  return ids;
}

describe('/v2 commentannotations/get', () => {
  test('across the organization by lastUpdated, newest or oldest first, paged; by documents, folder and times', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, folderId: 'f', documents: [{ documentId: 'in-f' }] });
    await add(org, 'd1', [{ annotationId: 't1', commentData: [comment('one')] }]);
    await add(org, 'in-f', [{ annotationId: 't2', commentData: [comment('two')] }]);
    await add(org, 'd2', [{ annotationId: 't3', commentData: [comment('three')] }]);
    // A comment on t1 makes it the latest change.
    await t.a.ok(PATHS.commentsAdd, {
      organizationId: org,
      documentId: 'd1',
      annotationId: 't1',
      commentData: [comment('again')],
    });

    assert.deepEqual(await all({ organizationId: org }), ['t1', 't3', 't2']);
    assert.deepEqual(await all({ organizationId: org, order: 'asc' }), ['t2', 't3', 't1']);
    assert.deepEqual(await all({ organizationId: org, documentIds: ['d1', 'd2'] }), ['t1', 't3']);
    assert.deepEqual(await all({ organizationId: org, documentId: 'd2' }), ['t3']);
    assert.deepEqual(await all({ organizationId: org, folderId: 'f' }), ['t2']);
    assert.deepEqual(await all({ organizationId: org, folderId: 'root' }), ['t1', 't3']);

    const threads = (await t.a.ok(GET, { organizationId: org })).data;
    const t3 = threads.find((x: any) => x.annotationId === 't3');
    assert.deepEqual(
      await all({ organizationId: org, updatedAfter: t3.lastUpdated, updatedBefore: t3.lastUpdated }),
      ['t3'],
      'inclusive',
    );
    assert.deepEqual(await all({ organizationId: org, createdBefore: t3.createdAt - 1 }), ['t1', 't2']);

    const grouped = await t.a.ok(GET, { organizationId: org, groupByDocumentId: true });
    assert.equal(grouped.message, 'Annotations fetched successfully.');
    assert.deepEqual(Object.keys(grouped.data).sort(), ['d1', 'd2', 'in-f']);
    const listed = await t.a.ok(GET, { organizationId: org });
    assert.equal(listed.message, 'Annotation(s) fetched successfully.');
  });

  test('mentioned users, authors, resolver; asked by id: one entry each, null where there is none', async () => {
    const org = uniq('org');
    await add(org, 'd', [
      {
        annotationId: 'mentions-bob',
        commentData: [comment('hi', 'ann', { taggedUserContacts: [{ userId: 'bob', contact: user('bob') }] })],
      },
      { annotationId: 'by-carol', commentData: [comment('hello', 'carol')] },
    ]);
    assert.deepEqual(await all({ organizationId: org, mentionedUserIds: ['bob'] }), ['mentions-bob']);
    assert.deepEqual(await all({ organizationId: org, userIds: ['carol'] }), ['by-carol']);

    await t.a.ok(v2(PATHS.annotationsUpdate), {
      organizationId: org,
      documentId: 'd',
      annotationIds: ['by-carol'],
      updatedData: {
        status: { id: 'RESOLVED', name: 'Resolved', type: 'terminal' },
        resolvedByUserId: 'dan',
        statusUpdatedByUserId: 'dan',
      },
    });
    assert.deepEqual(await all({ organizationId: org, resolvedBy: 'dan' }), ['by-carol']);
    const resolved = (await t.a.ok(GET, { organizationId: org, annotationIds: ['by-carol'] })).data[0];
    assert.equal(resolved.resolvedByUserId, 'dan');
    // Reopened: no longer resolved, so no resolver; who changed the status stays.
    await t.a.ok(v2(PATHS.annotationsUpdate), {
      organizationId: org,
      documentId: 'd',
      annotationIds: ['by-carol'],
      updatedData: { status: { id: 'OPEN', name: 'Open', type: 'default' }, statusUpdatedByUserId: 'erin' },
    });
    assert.deepEqual(await all({ organizationId: org, resolvedBy: 'dan' }), []);
    const reopened = (await t.a.ok(GET, { organizationId: org, annotationIds: ['by-carol', 'nope'] })).data;
    assert.equal(reopened[0].resolvedByUserId, undefined);
    assert.equal(reopened[0].statusUpdatedByUserId, 'erin');
    assert.equal(reopened[1], null);
  });

  test('the v2 members of a thread and of its comments, on /v2 and v1', async () => {
    const org = uniq('org');
    await add(org, 'd', [
      {
        annotationId: 's',
        type: 'suggestion',
        suggestion: { targetId: 'row.1', oldValue: 1, newValue: 2, status: 'accepted', mine: 'kept' },
        visibility: { type: 'restricted', userIds: ['ann', 'ann', 'bob'] },
        context: { access: { team: 'red' } },
        commentData: [
          comment('finding', 'bot', {
            agent: { agentSource: 'external', agentId: 'lint', executionId: 'run-1', reason: { title: 'x' } },
            context: { cell: 'A1' },
            attachments: [{ attachmentId: 1, name: 'a.png', url: 'https://files.example/a.png' }],
          }),
        ],
      },
    ]);
    const [s] = (await t.a.ok(GET, { organizationId: org })).data;
    assert.equal(s.type, 'suggestion');
    assert.deepEqual(
      s.suggestion,
      { targetId: 'row.1', oldValue: 1, newValue: 2, status: 'pending', mine: 'kept' },
      'the server owns status',
    );
    assert.deepEqual(s.visibilityConfig, { type: 'restricted', userIds: ['ann', 'bob'] });
    assert.deepEqual(s.context.accessFields, ['team:red']);
    assert.equal(s.hasDraftComments, false);
    assert.deepEqual(Object.values(s.subscribedUsers), [{ user: { userId: 'bot' }, type: 'auto' }]);
    const [c] = s.comments;
    assert.equal(c.agent.agentId, 'lint');
    assert.deepEqual(c.context, { cell: 'A1' });
    assert.equal(c.attachments[0].name, 'a.png');
    assert.equal(c.from.initial, 'N', 'the first letter of the name ("Name bot")');
    assert.equal(c.from.name_lowercase, 'namebot');
    assert.deepEqual([c.isDraft, c.to, c.reactionAnnotations], [false, [], []]);

    const v1 = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'd' })).data[0];
    assert.equal(v1.type, 'suggestion');
    assert.deepEqual(v1.comments[0].context, { cell: 'A1' }, 'v1 shows what was set too');
    assert.equal(v1.hasDraftComments, undefined, "v1 keeps its shape: none of /v2's derived members");

    const v2Comments = await t.a.ok(v2(PATHS.commentsGet), { organizationId: org, documentId: 'd', annotationId: 's' });
    assert.equal(v2Comments.message, 'Comments retrieved successfully.');
    assert.deepEqual(v2Comments.data[0].taggedUserContacts, []);

    await t.a.ok(v2(PATHS.commentsUpdate), {
      organizationId: org,
      documentId: 'd',
      annotationId: 's',
      commentIds: [c.commentId],
      updatedData: { attachments: [], context: null },
    });
    const rendered = (await t.a.ok(GET, { organizationId: org })).data[0];
    const changed = rendered.comments[0];
    assert.deepEqual([changed.attachments, changed.context], [[], undefined]);
    assert.deepEqual(rendered.context.access, { team: 'red' }, "the thread's own context stays as it was");

    assert.deepEqual(await all({ organizationId: org, agentId: 'lint' }), ['s']);
    assert.deepEqual(await all({ organizationId: org, executionId: 'run-1' }), ['s']);
    assert.deepEqual(await all({ organizationId: org, agentSource: 'velt' }), []);
    assert.deepEqual(await all({ organizationId: org, agentSuggestions: true }), ['s']);
  });

  test('refused: two agent filters, documentId with documentIds, a restricted visibility naming nobody, a bad order', async () => {
    const org = uniq('org');
    expectError(
      await t.a.post(GET, { organizationId: org, agentId: 'a', agentComments: true }),
      400,
      'INVALID_ARGUMENT',
      'agent filter',
    );
    expectError(
      await t.a.post(GET, { organizationId: org, documentId: 'd', documentIds: ['e'] }),
      400,
      'INVALID_ARGUMENT',
      'documentIds',
    );
    expectError(await t.a.post(GET, { organizationId: org, order: 'sideways' }), 400, 'INVALID_ARGUMENT', 'order');
    expectError(
      await t.a.post(v2(PATHS.annotationsAdd), {
        organizationId: org,
        documentId: 'd',
        commentAnnotations: [{ visibility: { type: 'restricted' }, commentData: [comment('x')] }],
      }),
      400,
      'INVALID_ARGUMENT',
      'userIds',
    );
    const got = await t.a.ok(GET, { organizationId: org });
    assert.deepEqual(got.data, [], 'nothing was written');
  });
});

describe('/v2 commentannotations/delete by agent', () => {
  test("an agent's pending suggestions, at the URLs named, go; the rest stays", async () => {
    const org = uniq('org');
    const finding = (id: string, url: string, type = 'suggestion') => ({
      annotationId: id,
      type,
      commentData: [comment('f', 'bot', { agent: { agentSource: 'velt', agentId: 'spell', url } })],
    });
    await add(org, 'd', [
      finding('pricing', 'https://example.com/pricing'),
      finding('home', 'https://example.com/'),
      finding('a-comment', 'https://example.com/pricing', 'comment'),
      { annotationId: 'human', commentData: [comment('mine')] },
    ]);
    const gone = await t.a.ok(v2(PATHS.annotationsDelete), {
      organizationId: org,
      documentId: 'd',
      agentId: 'spell',
      agentSuggestions: true,
      agentUrls: ['https://example.com/pricing'],
    });
    assert.deepEqual(Object.keys(gone.data), ['pricing']);
    assert.deepEqual((await all({ organizationId: org })).sort(), ['a-comment', 'home', 'human']);
  });
});
