// commentannotations/add, comments/add, comments/get: every rejection of docs/api.md "Wire format",
// "Identifiers and limits" and "Comment threads", and that a rejected request wrote nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type Reply, type TestApp } from '../helpers/app.js';

let t: TestApp;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;
const c = (commentText: string, userId = 'u1', extra: Record<string, unknown> = {}) => ({
  commentText,
  from: { userId },
  ...extra,
});
const ALL = [PATHS.annotationsAdd, PATHS.commentsAdd, PATHS.commentsGet] as const;

function expectInvalid(r: Reply, member: string, what: string): string {
  const message = expectError(r, 400, 'INVALID_ARGUMENT', what);
  assert.ok(message.includes(member), `${what}: message should name ${member}: ${message}`);
  return message;
}

async function thread(
  commentData: unknown[],
  where: { organizationId?: string; documentId?: string; annotationId?: string } = {},
) {
  const organizationId = where.organizationId ?? uniq('org');
  const documentId = where.documentId ?? 'doc';
  const annotationId = where.annotationId ?? uniq('ann');
  const r = await t.a.ok(PATHS.annotationsAdd, {
    organizationId,
    documentId,
    commentAnnotations: [{ annotationId, commentData }],
  });
  assert.equal(r.data[annotationId]?.success, true, JSON.stringify(r));
  return { organizationId, documentId, annotationId };
}

async function commentTexts(where: { organizationId: string; documentId: string; annotationId: string }): Promise<string[]> {
  const r = await t.a.ok(PATHS.commentsGet, where);
  return r.data.map((x: any) => x.commentText);
}

async function commentIdsOf(where: { organizationId: string; documentId: string; annotationId: string }): Promise<number[]> {
  const r = await t.a.ok(PATHS.commentsGet, where);
  return r.data.map((x: any) => x.commentId);
}

/** A valid request for each path, to break one member at a time. */
function validData(path: string): Record<string, any> {
  if (path === PATHS.annotationsAdd) {
    return { organizationId: 'o', documentId: 'd', commentAnnotations: [{ annotationId: 'v', commentData: [c('x')] }] };
  }
  if (path === PATHS.commentsAdd) return { organizationId: 'o', documentId: 'd', annotationId: 'v', commentData: [c('x')] };
  return { organizationId: 'o', documentId: 'd', annotationId: 'v' };
}

describe('comments errors', () => {
  before(async () => {
    t = await makeTestApp();
    await t.a.ok(PATHS.annotationsAdd, validData(PATHS.annotationsAdd));
  });
  after(async () => {
    await t.close();
  });

  test('the valid baseline requests succeed (so each error below is caused by its one change)', async () => {
    for (const path of [PATHS.commentsAdd, PATHS.commentsGet]) {
      const r = await t.a.post(path, validData(path));
      assert.equal(r.status, 200, `${path}: ${r.body}`);
    }
  });

  test('required ids missing, null, empty, too long, or not strings', async () => {
    const required: Record<string, string[]> = {
      [PATHS.annotationsAdd]: ['organizationId', 'documentId'],
      [PATHS.commentsAdd]: ['organizationId', 'documentId', 'annotationId'],
      [PATHS.commentsGet]: ['organizationId', 'documentId', 'annotationId'],
    };
    for (const path of ALL) {
      for (const member of required[path]!) {
        for (const [label, value] of [
          ['missing', undefined],
          ['null', null],
          ['empty', ''],
          ['257 astral', '😀'.repeat(257)],
          ['257 ascii', 'x'.repeat(257)],
          ['number', 1],
          ['array', ['o']],
        ] as const) {
          // Absent (or null) is not an error for organizationId: the documents without an organization.
          if (member === 'organizationId' && (value === undefined || value === null)) continue;
          const data = validData(path);
          if (value === undefined) delete data[member];
          else data[member] = value;
          expectInvalid(await t.a.post(path, data), `data.${member}`, `${path} ${member} ${label}`);
        }
      }
    }
  });

  test('commentAnnotations missing, null, empty, not an array, or over 1000', async () => {
    const org = uniq('org');
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ annotationId: `many-${i}`, commentData: [c('x')] }));
    for (const [label, value] of [
      ['missing', undefined],
      ['null', null],
      ['empty', []],
      ['object', { commentData: [] }],
      ['1001', tooMany],
    ] as const) {
      const data: Record<string, unknown> = { organizationId: org, documentId: 'doc' };
      if (value !== undefined) data.commentAnnotations = value;
      expectInvalid(await t.a.post(PATHS.annotationsAdd, data), 'commentAnnotations', `commentAnnotations ${label}`);
    }
    assert.deepEqual(
      await commentTexts({ organizationId: org, documentId: 'doc', annotationId: 'many-0' }),
      [],
      '1001 annotations: nothing written',
    );
  });

  test('commentData missing, null, empty, not an array, or over 1000 (both write operations)', async () => {
    const th = await thread([c('keep')]);
    const tooMany = Array.from({ length: 1001 }, (_, i) => c(`m${i}`));
    for (const [label, value] of [
      ['missing', undefined],
      ['null', null],
      ['empty', []],
      ['object', c('x')],
      ['1001', tooMany],
    ] as const) {
      const add: Record<string, unknown> = { ...th };
      if (value !== undefined) add.commentData = value;
      expectInvalid(await t.a.post(PATHS.commentsAdd, add), 'commentData', `comments/add commentData ${label}`);
      const ann: Record<string, unknown> = { annotationId: uniq('ann') };
      if (value !== undefined) ann.commentData = value;
      expectInvalid(
        await t.a.post(PATHS.annotationsAdd, { organizationId: th.organizationId, documentId: 'doc', commentAnnotations: [ann] }),
        'data.commentAnnotations[0]',
        `annotations/add commentData ${label}`,
      );
    }
    assert.deepEqual(await commentTexts(th), ['keep']);
  });

  test('commentId out of range or not an integer: 0, -1, 2147483648, 1.5, "1", true, null-like objects', async () => {
    const th = await thread([c('keep')]);
    for (const bad of [0, -1, 2147483648, 1e10, 1.5, '1', true, { id: 1 }, [1]]) {
      expectInvalid(
        await t.a.post(PATHS.commentsAdd, { ...th, commentData: [c('x', 'u', { commentId: bad })] }),
        'data.commentData[0].commentId',
        `comments/add commentId ${JSON.stringify(bad)}`,
      );
      expectInvalid(
        await t.a.post(PATHS.annotationsAdd, {
          organizationId: th.organizationId,
          documentId: 'doc',
          commentAnnotations: [
            { annotationId: 'fine', commentData: [c('x')] },
            { annotationId: 'bad', commentData: [c('a'), c('b', 'u', { commentId: bad })] },
          ],
        }),
        'data.commentAnnotations[1].commentData[1].commentId',
        `annotations/add commentId ${JSON.stringify(bad)}`,
      );
      expectInvalid(
        await t.a.post(PATHS.commentsGet, { ...th, commentIds: [1, bad] }),
        'data.commentIds[1]',
        `comments/get commentIds ${JSON.stringify(bad)}`,
      );
    }
    assert.deepEqual(await commentTexts(th), ['keep']);
    assert.deepEqual(await commentTexts({ ...th, annotationId: 'fine' }), [], 'the valid sibling annotation was not written');
  });

  test('commentIds / userIds filters: wrong type, invalid entries, over 1000 entries', async () => {
    const th = await thread([c('x')]);
    const cases: [string, Record<string, unknown>, string][] = [
      ['commentIds string', { commentIds: '1' }, 'data.commentIds'],
      ['commentIds object', { commentIds: { 0: 1 } }, 'data.commentIds'],
      ['commentIds number', { commentIds: 1 }, 'data.commentIds'],
      ['commentIds null entry', { commentIds: [1, null] }, 'data.commentIds[1]'],
      ['commentIds 1001', { commentIds: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'data.commentIds'],
      ['userIds string', { userIds: 'u1' }, 'data.userIds'],
      ['userIds number entry', { userIds: ['u1', 5] }, 'data.userIds[1]'],
      ['userIds empty string', { userIds: [''] }, 'data.userIds[0]'],
      ['userIds null entry', { userIds: [null] }, 'data.userIds[0]'],
      ['userIds 257', { userIds: ['😀'.repeat(257)] }, 'data.userIds[0]'],
      ['userIds 1001', { userIds: Array.from({ length: 1001 }, (_, i) => `u${i}`) }, 'data.userIds'],
    ];
    for (const [label, extra, member] of cases) {
      expectInvalid(await t.a.post(PATHS.commentsGet, { ...th, ...extra }), member, label);
    }
  });

  test('neither commentText nor commentHtml (absent or null) is INVALID_ARGUMENT naming the entry', async () => {
    const th = await thread([c('keep')]);
    for (const entry of [
      { from: { userId: 'u' } },
      { commentText: null, commentHtml: null, from: { userId: 'u' } },
      { commentId: 5, from: { userId: 'u' } },
    ]) {
      expectInvalid(
        await t.a.post(PATHS.commentsAdd, { ...th, commentData: [c('fine'), entry] }),
        'data.commentData[1]',
        `comments/add ${JSON.stringify(entry)}`,
      );
      expectInvalid(
        await t.a.post(PATHS.annotationsAdd, {
          organizationId: th.organizationId,
          documentId: 'doc',
          commentAnnotations: [{ annotationId: 'x1', commentData: [entry] }],
        }),
        'data.commentAnnotations[0].commentData[0]',
        `annotations/add ${JSON.stringify(entry)}`,
      );
    }
    assert.deepEqual(await commentTexts(th), ['keep']);
    assert.deepEqual(await commentTexts({ ...th, annotationId: 'x1' }), []);
  });

  test('commentText / commentHtml of the wrong type', async () => {
    const th = await thread([c('keep')]);
    for (const [member, value] of [
      ['commentText', 5],
      ['commentText', ['a']],
      ['commentHtml', { p: 'x' }],
      ['commentHtml', true],
    ] as const) {
      expectInvalid(
        await t.a.post(PATHS.commentsAdd, { ...th, commentData: [{ [member]: value, from: { userId: 'u' } }] }),
        `data.commentData[0].${member}`,
        `${member}=${JSON.stringify(value)}`,
      );
    }
  });

  test('from missing, null, not an object; from.userId/name/email invalid', async () => {
    const th = await thread([c('keep')]);
    const cases: [string, unknown, string][] = [
      ['from missing', undefined, 'data.commentData[0].from'],
      ['from null', null, 'data.commentData[0].from'],
      ['from string', 'u1', 'data.commentData[0].from'],
      ['userId missing', { name: 'n' }, 'data.commentData[0].from.userId'],
      ['userId null', { userId: null }, 'data.commentData[0].from.userId'],
      ['userId empty', { userId: '' }, 'data.commentData[0].from.userId'],
      ['userId 257', { userId: '😀'.repeat(257) }, 'data.commentData[0].from.userId'],
      ['userId number', { userId: 3 }, 'data.commentData[0].from.userId'],
      ['name 257', { userId: 'u', name: 'n'.repeat(257) }, 'data.commentData[0].from.name'],
      ['name number', { userId: 'u', name: 1 }, 'data.commentData[0].from.name'],
      ['email number', { userId: 'u', email: 5 }, 'data.commentData[0].from.email'],
      ['email 255', { userId: 'u', email: `${'a'.repeat(64)}@${'b'.repeat(190)}` }, 'data.commentData[0].from.email'],
    ];
    for (const [label, from, member] of cases) {
      const entry: Record<string, unknown> = { commentText: 'x' };
      if (from !== undefined) entry.from = from;
      const r = await t.a.post(PATHS.commentsAdd, { ...th, commentData: [entry] });
      const message = expectInvalid(r, member, `comments/add ${label}`);
      assert.ok(message.includes('commentData[0]'), `${label}: ${message}`);
      const r2 = await t.a.post(PATHS.annotationsAdd, {
        organizationId: th.organizationId,
        documentId: 'doc',
        commentAnnotations: [{ commentData: [c('ok'), entry] }],
      });
      const m2 = expectError(r2, 400, 'INVALID_ARGUMENT', `annotations/add ${label}`);
      assert.ok(m2.includes('data.commentAnnotations[0].commentData[1]'), `${label}: ${m2}`);
    }
    assert.deepEqual(await commentTexts(th), ['keep']);
  });

  test('annotation members of the wrong type: annotationId, locationId, location, context, status', async () => {
    const org = uniq('org');
    const cases: [string, unknown][] = [
      ['annotationId', ''],
      ['annotationId', 5],
      ['annotationId', '😀'.repeat(257)],
      ['locationId', ''],
      ['locationId', 7],
      ['locationId', 'l'.repeat(257)],
      ['location', 'page-1'],
      ['location', [1, 2]],
      ['location', 3],
      ['context', 'ctx'],
      ['context', [true]],
      ['status', 'OPEN'],
      ['status', ['OPEN']],
    ];
    for (const [member, value] of cases) {
      const r = await t.a.post(PATHS.annotationsAdd, {
        organizationId: org,
        documentId: 'doc',
        commentAnnotations: [
          { annotationId: 'ok', commentData: [c('x')] },
          { annotationId: 'second', commentData: [c('y')], [member]: value },
        ],
      });
      expectInvalid(r, `data.commentAnnotations[1].${member}`, `${member}=${JSON.stringify(value).slice(0, 20)}`);
    }
    assert.deepEqual(await commentTexts({ organizationId: org, documentId: 'doc', annotationId: 'ok' }), [], 'nothing written');
  });

  test('comments/add to an unknown annotation is NOT_FOUND and writes nothing', async () => {
    const th = await thread([c('original')]);
    const r = await t.a.post(PATHS.commentsAdd, { ...th, annotationId: 'nope', commentData: [c('lost')] });
    expectError(r, 404, 'NOT_FOUND', 'unknown annotation');
    // Same annotationId in another document or organization.
    expectError(
      await t.a.post(PATHS.commentsAdd, { ...th, documentId: 'other-doc', commentData: [c('lost')] }),
      404,
      'NOT_FOUND',
      'other document',
    );
    expectError(
      await t.a.post(PATHS.commentsAdd, { ...th, organizationId: uniq('org'), commentData: [c('lost')] }),
      404,
      'NOT_FOUND',
      'other organization',
    );
    // Nothing was written anywhere: creating the annotation later starts empty (its own comments only).
    await thread([c('fresh')], { organizationId: th.organizationId, documentId: th.documentId, annotationId: 'nope' });
    assert.deepEqual(await commentTexts({ ...th, annotationId: 'nope' }), ['fresh']);
    await thread([c('fresh-doc')], { organizationId: th.organizationId, documentId: 'other-doc', annotationId: th.annotationId });
    assert.deepEqual(await commentTexts({ ...th, documentId: 'other-doc' }), ['fresh-doc']);
    assert.deepEqual(await commentTexts(th), ['original']);
  });

  test('a taken caller-chosen commentId is ALREADY_EXISTS and nothing is added', async () => {
    const th = await thread([c('one'), c('two'), c('three')]);
    const r = await t.a.post(PATHS.commentsAdd, { ...th, commentData: [c('dup', 'u', { commentId: 2 })] });
    expectError(r, 409, 'ALREADY_EXISTS', 'taken commentId');
    assert.deepEqual(await commentTexts(th), ['one', 'two', 'three']);
  });

  test('ALREADY_EXISTS when only one of several caller-chosen ids is taken; nothing added, not even generated ones', async () => {
    const th = await thread([c('one', 'u', { commentId: 10 })]);
    const r = await t.a.post(PATHS.commentsAdd, {
      ...th,
      commentData: [
        c('gen'),
        c('free', 'u', { commentId: 20 }),
        c('taken', 'u', { commentId: 10 }),
        c('free2', 'u', { commentId: 30 }),
      ],
    });
    expectError(r, 409, 'ALREADY_EXISTS', 'one taken of several');
    assert.deepEqual(await commentIdsOf(th), [10], 'nothing added');
    // The free ids are still free afterwards.
    const ok = await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('free', 'u', { commentId: 20 }), c('gen')] });
    assert.deepEqual(ok.data, [20, 21]);
  });

  test('a caller-chosen id that a generated id of the same request takes first is a clash (assignCommentIds rule)', async () => {
    // Existing largest is 5: the generated id is 6, then the caller asks for 6 too.
    const th = await thread([c('five', 'u', { commentId: 5 })]);
    const r = await t.a.post(PATHS.commentsAdd, { ...th, commentData: [c('gen'), c('six', 'u', { commentId: 6 })] });
    expectError(r, 409, 'ALREADY_EXISTS', 'generated then chosen');
    assert.deepEqual(await commentIdsOf(th), [5]);
    // In commentannotations/add the thread starts empty: generated 1, then the caller asks for 1.
    const org = uniq('org');
    const a = await t.a.post(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [{ annotationId: 'clash', commentData: [c('gen'), c('one', 'u', { commentId: 1 })] }],
    });
    expectError(a, 409, 'ALREADY_EXISTS', 'annotations/add generated then chosen');
    assert.deepEqual(await commentTexts({ organizationId: org, documentId: 'doc', annotationId: 'clash' }), []);
  });

  test('duplicate commentIds within one commentData are INVALID_ARGUMENT; nothing written', async () => {
    const th = await thread([c('keep')]);
    const r = await t.a.post(PATHS.commentsAdd, {
      ...th,
      commentData: [c('a', 'u', { commentId: 7 }), c('b'), c('c', 'u', { commentId: 7 })],
    });
    expectInvalid(r, 'data.commentData[2].commentId', 'comments/add duplicate commentIds');
    assert.deepEqual(await commentTexts(th), ['keep']);

    const org = uniq('org');
    const a = await t.a.post(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { annotationId: 'innocent', commentData: [c('fine')] },
        { annotationId: 'dups', commentData: [c('a', 'u', { commentId: 3 }), c('b', 'u', { commentId: 3 })] },
      ],
    });
    expectInvalid(a, 'data.commentAnnotations[1].commentData[1].commentId', 'annotations/add duplicate commentIds');
    assert.deepEqual(
      await commentTexts({ organizationId: org, documentId: 'doc', annotationId: 'innocent' }),
      [],
      'no annotation of the request was written',
    );
    assert.deepEqual(await commentTexts({ organizationId: org, documentId: 'doc', annotationId: 'dups' }), []);
  });

  test('the same commentId in different annotations of one request is fine', async () => {
    const org = uniq('org');
    const r = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { annotationId: 'x', commentData: [c('a', 'u', { commentId: 4 })] },
        { annotationId: 'y', commentData: [c('b', 'u', { commentId: 4 })] },
      ],
    });
    assert.deepEqual(r.data.x.commentIds, [4]);
    assert.deepEqual(r.data.y.commentIds, [4]);
  });

  test('duplicate annotationIds in commentAnnotations are INVALID_ARGUMENT; nothing written', async () => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { annotationId: 'other', commentData: [c('o')] },
        { annotationId: 'twice', commentData: [c('1')] },
        { annotationId: 'twice', commentData: [c('2')] },
      ],
    });
    expectInvalid(r, 'data.commentAnnotations[2].annotationId', 'duplicate annotationIds');
    for (const annotationId of ['other', 'twice']) {
      assert.deepEqual(
        await commentTexts({ organizationId: org, documentId: 'doc', annotationId }),
        [],
        `${annotationId} not written`,
      );
    }
    // Absent/null annotationIds are generated, never duplicates.
    const ok = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [{ commentData: [c('a')] }, { annotationId: null, commentData: [c('b')] }, { commentData: [c('c')] }],
    });
    assert.equal(Object.keys(ok.data).length, 3);
  });

  test('RESOURCE_EXHAUSTED past 2147483647; nothing written', async () => {
    const th = await thread([c('max', 'u', { commentId: 2147483647 })]);
    const r = await t.a.post(PATHS.commentsAdd, { ...th, commentData: [c('over')] });
    const message = expectError(r, 429, 'RESOURCE_EXHAUSTED', 'comments/add past the maximum');
    // Permanent, unlike the rate limit: no Retry-After, and the message says what to do instead.
    assert.equal(r.headers['retry-after'], undefined, 'no Retry-After');
    assert.match(
      message,
      /Retrying will not help: give each new comment a free commentId of your own, or start a new annotation/,
    );
    // A caller-chosen free id in the same request is not written either.
    const r2 = await t.a.post(PATHS.commentsAdd, { ...th, commentData: [c('fine', 'u', { commentId: 3 }), c('over')] });
    expectError(r2, 429, 'RESOURCE_EXHAUSTED', 'mixed');
    assert.deepEqual(await commentIdsOf(th), [2147483647]);
    // Caller-chosen ids below the maximum still work.
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('low', 'u', { commentId: 3 })] })).data, [3]);

    // One id left: two generated ones exhaust it; nothing of the request is added.
    const near = await thread([c('near', 'u', { commentId: 2147483646 })]);
    expectError(
      await t.a.post(PATHS.commentsAdd, { ...near, commentData: [c('a'), c('b')] }),
      429,
      'RESOURCE_EXHAUSTED',
      'two past',
    );
    assert.deepEqual(await commentIdsOf(near), [2147483646]);

    // In commentannotations/add too.
    const org = uniq('org');
    const a = await t.a.post(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { annotationId: 'fine', commentData: [c('x')] },
        { annotationId: 'full', commentData: [c('m', 'u', { commentId: 2147483647 }), c('over')] },
      ],
    });
    expectError(a, 429, 'RESOURCE_EXHAUSTED', 'annotations/add past the maximum');
    assert.deepEqual(await commentTexts({ organizationId: org, documentId: 'doc', annotationId: 'fine' }), []);
    assert.deepEqual(await commentTexts({ organizationId: org, documentId: 'doc', annotationId: 'full' }), []);
  });

  test('body shape, JSON and Content-Type errors on every comment operation', async () => {
    for (const path of ALL) {
      expectInvalid(await t.a.post(path, undefined), 'data', `${path} data missing`);
      expectInvalid(await t.a.post(path, null), 'data', `${path} data null`);
      expectInvalid(await t.a.post(path, [validData(path)]), 'data', `${path} data array`);
      for (const raw of ['{', '{"data":', 'not json', '[]', '"s"', '']) {
        expectError(
          await t.a.post(path, null, { raw, headers: { 'content-type': 'application/json' } }),
          400,
          'INVALID_ARGUMENT',
          `${path} raw ${JSON.stringify(raw)}`,
        );
      }
      for (const ct of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
        const r = await t.a.post(path, null, { raw: JSON.stringify({ data: validData(path) }), headers: { 'content-type': ct } });
        expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${ct}`);
      }
      const m = await t.request(path, {
        method: 'GET',
        headers: { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': t.a.creds.authToken },
      });
      expectError(m, 405, 'INVALID_ARGUMENT', `GET ${path}`);
      assert.equal(m.headers.allow, 'POST');
    }
  });

  test('a rejected commentannotations/add writes none of its annotations', async () => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { annotationId: 'first', commentData: [c('1')] },
        { annotationId: 'second', commentData: [c('2'), { commentText: 'bad', from: { userId: 'u', email: false } }] },
      ],
    });
    expectInvalid(r, 'data.commentAnnotations[1].commentData[1].from.email', 'bad email in second annotation');
    assert.deepEqual(await commentTexts({ organizationId: org, documentId: 'doc', annotationId: 'first' }), []);
    // And comments/add to it is still NOT_FOUND: the annotation was never created.
    expectError(
      await t.a.post(PATHS.commentsAdd, { organizationId: org, documentId: 'doc', annotationId: 'first', commentData: [c('x')] }),
      404,
      'NOT_FOUND',
    );
  });
});
