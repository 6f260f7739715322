// Comment threads read, changed, deleted, counted and marked read: every rejection
// for these operations (docs/api.md, "Wire format", "Identifiers and limits" and "Comment threads"), the messages
// that name the offending member, and that a rejected request changed nothing (all-or-nothing: the state is
// compared before and after each rejected write).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type Reply, type TestApp } from '../helpers/app.js';
import { js, RESOLVED, say, THREAD_OPS, uniq } from '../helpers/threads.js';

let t: TestApp;
const MAX_TIME = 8_640_000_000_000_000;

function expectInvalid(r: Reply, member: string | RegExp, what: string): string {
  const message = expectError(r, 400, 'INVALID_ARGUMENT', what);
  if (typeof member === 'string') assert.ok(message.includes(member), `${what}: message should name ${member}: ${message}`);
  else assert.match(message, member, `${what}: ${message}`);
  return message;
}

/** A fixture: two documents of threads with comments, some read by user u. */
async function fixture() {
  const org = uniq('org');
  await t.a.ok(PATHS.annotationsAdd, {
    organizationId: org,
    documentId: 'doc',
    commentAnnotations: [
      { annotationId: 't1', locationId: 'l1', priority: { id: 'P1' }, commentData: [say('1a', 'p'), say('1b', 'q')] },
      { annotationId: 't2', locationId: 'l2', commentData: [say('2a', 'q')] },
      { annotationId: 't3', status: RESOLVED, commentData: [say('3a', 'p'), say('3b', 'p')] },
    ],
  });
  await t.a.ok(PATHS.annotationsAdd, {
    organizationId: org,
    documentId: 'doc2',
    commentAnnotations: [{ annotationId: 't1', commentData: [say('other doc', 'p')] }],
  });
  await t.a.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'doc', userId: 'u', annotationIds: ['t2'] });
  return org;
}

/** Everything a write of these operations could change, as the reads show it. */
async function state(org: string) {
  const out: Record<string, unknown> = {};
  for (const doc of ['doc', 'doc2']) {
    out[doc] = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: doc })).data;
  }
  for (const userId of ['u', 'p', 'q']) {
    out[`count-${userId}`] = (
      await t.a.ok(PATHS.annotationsCount, { organizationId: org, documentIds: ['doc', 'doc2'], userId })
    ).data;
  }
  return out;
}

/** A valid request for each new operation against the fixture, to break one member at a time. */
function validData(path: string, org: string): Record<string, any> {
  switch (path) {
    case PATHS.annotationsGet:
      return { organizationId: org, documentId: 'doc' };
    case PATHS.annotationsUpdate:
      return { organizationId: org, documentId: 'doc', annotationIds: ['t1'], updatedData: { context: { changed: true } } };
    case PATHS.annotationsDelete:
      return { organizationId: org, documentId: 'doc', annotationIds: ['t1'] };
    case PATHS.annotationsCount:
      return { organizationId: org, documentIds: ['doc'], userId: 'u' };
    case PATHS.annotationsRead:
      return { organizationId: org, documentId: 'doc', userId: 'u' };
    case PATHS.commentsUpdate:
      return {
        organizationId: org,
        documentId: 'doc',
        annotationId: 't1',
        commentIds: [1],
        updatedData: { commentText: 'changed' },
      };
    case PATHS.commentsDelete:
      return { organizationId: org, documentId: 'doc', annotationId: 't1', commentIds: [1] };
    default:
      throw new Error(path);
  }
}

const REQUIRED_IDS: Record<string, string[]> = {
  [PATHS.annotationsGet]: ['organizationId', 'documentId'],
  [PATHS.annotationsUpdate]: ['organizationId', 'documentId'],
  [PATHS.annotationsDelete]: ['organizationId', 'documentId'],
  [PATHS.annotationsCount]: ['organizationId', 'userId'],
  [PATHS.annotationsRead]: ['organizationId', 'documentId', 'userId'],
  [PATHS.commentsUpdate]: ['organizationId', 'documentId', 'annotationId'],
  [PATHS.commentsDelete]: ['organizationId', 'documentId', 'annotationId'],
};

/** The id-list members of each operation and what an entry is. */
const ID_LISTS: Record<string, [string, 'string' | 'status' | 'commentId'][]> = {
  [PATHS.annotationsGet]: [
    ['annotationIds', 'string'],
    ['locationIds', 'string'],
    ['userIds', 'string'],
    ['statusIds', 'status'],
  ],
  [PATHS.annotationsUpdate]: [
    ['annotationIds', 'string'],
    ['locationIds', 'string'],
    ['userIds', 'string'],
  ],
  [PATHS.annotationsDelete]: [
    ['annotationIds', 'string'],
    ['locationIds', 'string'],
    ['userIds', 'string'],
  ],
  [PATHS.annotationsCount]: [
    ['documentIds', 'string'],
    ['statusIds', 'status'],
  ],
  [PATHS.annotationsRead]: [['annotationIds', 'string']],
  [PATHS.commentsUpdate]: [['commentIds', 'commentId']],
  [PATHS.commentsDelete]: [['commentIds', 'commentId']],
};

/** commentannotations/add of a fine thread and one whose `member` is `bad`: nothing may be written. */
const addBesideAFineThread = (organizationId: string, member: string, bad: unknown) =>
  t.a.post(PATHS.annotationsAdd, {
    organizationId,
    documentId: 'doc',
    commentAnnotations: [
      { annotationId: 'fine', commentData: [say('x')] },
      { annotationId: 'bad', [member]: bad, commentData: [say('x')] },
    ],
  });

describe('comment threads: errors', () => {
  let org: string;
  before(async () => {
    t = await makeTestApp();
    org = await fixture();
  });
  after(async () => {
    await t.close();
  });

  test('the valid baseline requests succeed (so each error below is caused by its one change)', async () => {
    for (const path of THREAD_OPS) {
      const r = await t.a.post(path, validData(path, await fixture()));
      assert.equal(r.status, 200, `${path}: ${r.body}`);
    }
  });

  test('body not JSON, not an object, data missing or not an object, wrong Content-Type: 400, nothing changed', async () => {
    const before = await state(org);
    const headers = { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': t.a.creds.authToken };
    for (const path of THREAD_OPS) {
      const valid = JSON.stringify({ data: validData(path, org) });
      for (const [label, raw, contentType] of [
        ['not JSON', '{"data":', 'application/json'],
        ['array', '[]', 'application/json'],
        ['no data', '{"other":{}}', 'application/json'],
        ['data null', '{"data":null}', 'application/json'],
        ['data array', '{"data":[1]}', 'application/json'],
        ['data string', '{"data":"x"}', 'application/json'],
        ['text/plain', valid, 'text/plain'],
        ['form', valid, 'application/x-www-form-urlencoded'],
      ] as const) {
        const r = await t.request(path, { headers: { ...headers, 'content-type': contentType }, raw });
        expectError(r, 400, 'INVALID_ARGUMENT', `${path} ${label}`);
      }
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('required ids missing, null, empty, over 256 code points, or not strings; nothing changed', async () => {
    const before = await state(org);
    for (const path of THREAD_OPS) {
      for (const member of REQUIRED_IDS[path]!) {
        for (const [label, value] of [
          ['missing', undefined],
          ['null', null],
          ['empty', ''],
          ['257 astral', '😀'.repeat(257)],
          ['257 ascii', 'x'.repeat(257)],
          ['number', 1],
          ['array', ['o']],
          ['object', { id: 'o' }],
        ] as const) {
          // Absent (or null) is not an error for organizationId: the documents without an organization.
          if (member === 'organizationId' && (value === undefined || value === null)) continue;
          const data = validData(path, org);
          if (value === undefined) delete data[member];
          else data[member] = value;
          expectInvalid(await t.a.post(path, data), `data.${member}`, `${path} ${member} ${label}`);
        }
      }
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('id lists: not arrays, bad entries, over 1000 entries; nothing changed', async () => {
    const before = await state(org);
    for (const path of THREAD_OPS) {
      for (const [member, kind] of ID_LISTS[path]!) {
        const good = kind === 'commentId' ? 1 : 'x';
        const over = Array.from({ length: 1001 }, (_, i) => (kind === 'commentId' ? i + 1 : `id-${i}`));
        const cases: [string, unknown, string][] = [
          ['a string', kind === 'commentId' ? '1' : 'x', `data.${member}`],
          ['a number', 1, `data.${member}`],
          ['an object', { 0: good }, `data.${member}`],
          ['1001 entries', over, `data.${member}`],
          ['a null entry', [good, null], `data.${member}[1]`],
          ['an object entry', [good, { id: good }], `data.${member}[1]`],
          ['an array entry', [good, [good]], `data.${member}[1]`],
        ];
        if (kind === 'commentId') {
          for (const bad of [0, -1, 2147483648, 1.5, '1', true]) cases.push([`entry ${js(bad)}`, [1, bad], `data.${member}[1]`]);
        } else {
          cases.push(['a number entry', ['x', 5], `data.${member}[1]`], ['a boolean entry', ['x', false], `data.${member}[1]`]);
          if (kind === 'string') {
            cases.push(
              ['an empty entry', ['x', ''], `data.${member}[1]`],
              ['a 257 entry', ['x', '😀'.repeat(257)], `data.${member}[1]`],
            );
          }
        }
        for (const [label, value, named] of cases) {
          const data = { ...validData(path, org), [member]: value };
          expectInvalid(await t.a.post(path, data), named, `${path} ${member} ${label}`);
        }
      }
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('count/get: documentIds missing, null or empty (1..1000 required)', async () => {
    for (const value of [undefined, null, []]) {
      const data: Record<string, unknown> = { organizationId: org, userId: 'u' };
      if (value !== undefined) data.documentIds = value;
      expectInvalid(await t.a.post(PATHS.annotationsCount, data), 'data.documentIds', `documentIds ${js(value)}`);
    }
  });

  test('comments/update: commentIds missing or null is INVALID_ARGUMENT; nothing changed', async () => {
    const before = await state(org);
    for (const value of [undefined, null]) {
      const data = validData(PATHS.commentsUpdate, org);
      if (value === undefined) delete data.commentIds;
      else data.commentIds = value;
      expectInvalid(await t.a.post(PATHS.commentsUpdate, data), 'data.commentIds', `commentIds ${js(value)}`);
    }
    assert.deepEqual(await state(org), before);
  });

  // ---- commentannotations/get: paging ----

  test('get: pageSize 0, 1001 and non-integers are INVALID_ARGUMENT naming data.pageSize', async () => {
    for (const pageSize of [0, 1001, -1, 1.5, '10', true, [5], { n: 1 }, 1e10]) {
      expectInvalid(
        await t.a.post(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageSize }),
        'data.pageSize',
        `pageSize ${js(pageSize)}`,
      );
    }
    // The bounds themselves are fine.
    for (const pageSize of [1, 1000]) await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageSize });
  });

  test('get: pageToken with annotationIds is INVALID_ARGUMENT (never paged)', async () => {
    const first = await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageSize: 1 });
    assert.equal(typeof first.pageToken, 'string', js(first));
    const r = await t.a.post(PATHS.annotationsGet, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['t1', 't2'],
      pageToken: first.pageToken,
    });
    expectInvalid(r, /pageToken|annotationIds/, 'pageToken with annotationIds');
    const garbage = await t.a.post(PATHS.annotationsGet, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['t1'],
      pageToken: 'anything',
    });
    expectInvalid(garbage, /pageToken|annotationIds/, 'any pageToken with annotationIds');
  });

  test('get: a pageToken of the wrong type names data.pageToken', async () => {
    for (const pageToken of [5, true, {}, ['x']]) {
      expectInvalid(
        await t.a.post(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageToken }),
        'data.pageToken',
        `pageToken ${js(pageToken)}`,
      );
    }
  });

  describe('get: malformed and foreign page tokens', () => {
    let token = '';
    before(async () => {
      const first = await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageSize: 1 });
      token = first.pageToken;
      assert.equal(typeof token, 'string', js(first));
      const next = await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageSize: 1, pageToken: token });
      assert.equal(next.data.length, 1, 'the token works with the filters it came from');
    });

    const flip = (s: string) => {
      const i = Math.floor(s.length / 2);
      return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    };
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const malformed: [string, () => string][] = [
      ['garbage', () => '%%% not a token %%%'],
      ['empty', () => ''],
      ['a word', () => 'garbage'],
      ['base64 of a non-JSON string', () => Buffer.from('hello world').toString('base64url')],
      ['base64 of an object', () => b64({ createdAt: 1, annotationId: 'x' })],
      ['base64 of an empty array', () => b64([])],
      ['base64 of numbers', () => b64([1, 2, 3, 4, 5, 6])],
      ['a truncated token', () => token.slice(0, Math.floor(token.length / 2))],
      ['a token with one character changed', () => flip(token)],
      ['a token with junk appended', () => `${token}@@@`],
      ['a 5000-character token', () => 'A'.repeat(5000)],
    ];
    for (const [name, make] of malformed) {
      test(`a malformed pageToken (${name}) is INVALID_ARGUMENT naming pageToken`, async () => {
        const r = await t.a.post(PATHS.annotationsGet, {
          organizationId: org,
          documentId: 'doc',
          pageSize: 1,
          pageToken: make(),
        });
        expectInvalid(r, /pageToken/, name);
      });
    }

    const otherFilters: [string, Record<string, unknown>][] = [
      ['another documentId', { documentId: 'doc2' }],
      ['another organizationId', { organizationId: `${org}-other` }],
      ['a locationIds filter added', { locationIds: ['l1', 'l2'] }],
      ['a userIds filter added', { userIds: ['p', 'q'] }],
      ['a statusIds filter added', { statusIds: ['OPEN', 'RESOLVED'] }],
    ];
    for (const [name, change] of otherFilters) {
      test(`a pageToken reused with other filters (${name}) is INVALID_ARGUMENT`, async () => {
        const r = await t.a.post(PATHS.annotationsGet, {
          organizationId: org,
          documentId: 'doc',
          ...change,
          pageSize: 1,
          pageToken: token,
        });
        expectInvalid(r, /pageToken/, name);
      });
    }

    test('a token from a filtered walk does not fit other filter values, nor none', async () => {
      const first = await t.a.ok(PATHS.annotationsGet, {
        organizationId: org,
        documentId: 'doc',
        statusIds: ['OPEN'],
        pageSize: 1,
      });
      assert.equal(typeof first.pageToken, 'string', js(first));
      for (const change of [{ statusIds: ['RESOLVED'] }, {}, { statusIds: ['OPEN'], locationIds: ['l1'] }]) {
        const r = await t.a.post(PATHS.annotationsGet, {
          organizationId: org,
          documentId: 'doc',
          ...change,
          pageSize: 1,
          pageToken: first.pageToken,
        });
        expectInvalid(r, /pageToken/, js(change));
      }
      const same = await t.a.ok(PATHS.annotationsGet, {
        organizationId: org,
        documentId: 'doc',
        statusIds: ['OPEN'],
        pageSize: 5,
        pageToken: first.pageToken,
      });
      assert.equal(same.data.length, 1, js(same));
    });
  });

  // ---- commentannotations/update ----

  test('update: updatedData missing, null, empty, not an object, or with no known member', async () => {
    const before = await state(org);
    for (const [label, value] of [
      ['missing', undefined],
      ['null', null],
      ['empty', {}],
      ['array', [{ status: RESOLVED }]],
      ['string', 'status'],
      ['number', 1],
      ['only unknown members', { colour: 'red', notes: 'x' }],
    ] as const) {
      const data: Record<string, unknown> = { organizationId: org, documentId: 'doc', annotationIds: ['t1'] };
      if (value !== undefined) data.updatedData = value;
      expectInvalid(await t.a.post(PATHS.annotationsUpdate, data), 'data.updatedData', `updatedData ${label}`);
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('update: members of the wrong type, and status null, change nothing even beside a valid member', async () => {
    const before = await state(org);
    const cases: [string, unknown, string][] = [
      ['status', null, 'data.updatedData.status'],
      ['status', 'RESOLVED', 'data.updatedData.status'],
      ['status', ['RESOLVED'], 'data.updatedData.status'],
      ['status', 3, 'data.updatedData.status'],
      ['location', 'page-1', 'data.updatedData.location'],
      ['location', [1, 2], 'data.updatedData.location'],
      ['locationId', '', 'data.updatedData.locationId'],
      ['locationId', 7, 'data.updatedData.locationId'],
      ['locationId', 'l'.repeat(257), 'data.updatedData.locationId'],
      ['context', 'ctx', 'data.updatedData.context'],
      ['context', [true], 'data.updatedData.context'],
      ['assignedTo', 'q', 'data.updatedData.assignedTo'],
      ['assignedTo', {}, 'data.updatedData.assignedTo'],
      ['assignedTo', { userId: '' }, 'data.updatedData.assignedTo.userId'],
      ['assignedTo', { userId: 5 }, 'data.updatedData.assignedTo.userId'],
      ['assignedTo', { name: 'No Id' }, 'data.updatedData.assignedTo'],
      ['assignedTo', { userId: 'q', email: 1 }, 'data.updatedData.assignedTo.email'],
      ['color', { hex: '#fff' }, 'data.updatedData.color'],
      ['assignedTo', { userId: 'q', name: 5 }, 'data.updatedData.assignedTo.name'],
      ['priority', 'P1', 'data.updatedData.priority'],
      ['priority', [1], 'data.updatedData.priority'],
      ['targetElement', 5, 'data.updatedData.targetElement'],
      ['targetElement', 'el', 'data.updatedData.targetElement'],
    ];
    for (const [member, value, named] of cases) {
      for (const filters of [{ annotationIds: ['t1', 't2'] }, {}]) {
        const r = await t.a.post(PATHS.annotationsUpdate, {
          organizationId: org,
          documentId: 'doc',
          ...filters,
          updatedData: { context: { changed: true }, priority: { id: 'P9' }, [member]: value },
        });
        expectInvalid(r, named, `${member}=${js(value).slice(0, 30)} ${js(filters)}`);
      }
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  // ---- comments/update ----

  test('comments/update: updatedData missing, null, empty, not an object, or from null; nothing changed', async () => {
    const before = await state(org);
    const base = { organizationId: org, documentId: 'doc', annotationId: 't1', commentIds: [1, 2] };
    for (const [label, value, named] of [
      ['missing', undefined, 'data.updatedData'],
      ['null', null, 'data.updatedData'],
      ['empty', {}, 'data.updatedData'],
      ['array', [{ commentText: 'x' }], 'data.updatedData'],
      ['string', 'x', 'data.updatedData'],
      ['only unknown members', { status: 'deleted', reactions: [] }, 'data.updatedData'],
      ['from null', { from: null }, 'data.updatedData.from'],
      ['from null beside text', { commentText: 'x', from: null }, 'data.updatedData.from'],
    ] as const) {
      const data: Record<string, unknown> = { ...base };
      if (value !== undefined) data.updatedData = value;
      expectInvalid(await t.a.post(PATHS.commentsUpdate, data), named, `updatedData ${label}`);
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('comments/update: members of the wrong type, beside a valid member, change nothing', async () => {
    const before = await state(org);
    const cases: [Record<string, unknown>, string][] = [
      [{ commentText: 5 }, 'data.updatedData.commentText'],
      [{ commentText: ['a'] }, 'data.updatedData.commentText'],
      [{ commentHtml: { p: 'x' } }, 'data.updatedData.commentHtml'],
      [{ commentHtml: true }, 'data.updatedData.commentHtml'],
      [{ from: 'p' }, 'data.updatedData.from'],
      [{ from: {} }, 'data.updatedData.from'],
      [{ from: { userId: '' } }, 'data.updatedData.from.userId'],
      [{ from: { userId: null } }, 'data.updatedData.from.userId'],
      [{ from: { userId: 'x'.repeat(257) } }, 'data.updatedData.from.userId'],
      [{ from: { userId: 'r', email: 4 } }, 'data.updatedData.from.email'],
      [{ from: { userId: 'r', name: 'n'.repeat(257) } }, 'data.updatedData.from.name'],
      [{ taggedUserContacts: 'm' }, 'data.updatedData.taggedUserContacts'],
      [{ taggedUserContacts: { userId: 'm' } }, 'data.updatedData.taggedUserContacts'],
      [{ taggedUserContacts: [{ userId: 'm' }, {}] }, 'data.updatedData.taggedUserContacts[1]'],
      [{ taggedUserContacts: [null] }, 'data.updatedData.taggedUserContacts[0]'],
      [{ taggedUserContacts: [{ userId: '' }] }, 'data.updatedData.taggedUserContacts[0].userId'],
      [{ taggedUserContacts: [{ userId: 5 }] }, 'data.updatedData.taggedUserContacts[0].userId'],
      [{ taggedUserContacts: [{ userId: 'm', text: 5 }] }, 'data.updatedData.taggedUserContacts[0].text'],
      [{ taggedUserContacts: [{ userId: 'm', contact: 'm' }] }, 'data.updatedData.taggedUserContacts[0].contact'],
      [{ taggedUserContacts: [{ userId: 'm', contact: {} }] }, 'data.updatedData.taggedUserContacts[0].contact'],
      [
        { taggedUserContacts: Array.from({ length: 101 }, (_, i) => ({ userId: `m${i}` })) },
        'data.updatedData.taggedUserContacts',
      ],
    ];
    for (const [bad, named] of cases) {
      const r = await t.a.post(PATHS.commentsUpdate, {
        organizationId: org,
        documentId: 'doc',
        annotationId: 't1',
        commentIds: [1, 2],
        updatedData: { commentText: 'changed', ...bad },
      });
      expectInvalid(r, named, js(bad).slice(0, 60));
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  // ---- NOT_FOUND ----

  test('comments/update and comments/delete on an unknown annotation: NOT_FOUND, nothing changed', async () => {
    const before = await state(org);
    const where = { organizationId: org, documentId: 'doc' };
    const targets: [string, Record<string, unknown>][] = [
      ['unknown annotation', { ...where, annotationId: 'ghost' }],
      ['another document', { ...where, documentId: 'doc3', annotationId: 't1' }],
      ['a document where only another thread exists', { ...where, documentId: 'doc2', annotationId: 't2' }],
      ['another organization', { ...where, organizationId: uniq('org'), annotationId: 't1' }],
    ];
    for (const [label, w] of targets) {
      expectError(
        await t.a.post(PATHS.commentsUpdate, { ...w, commentIds: [1], updatedData: { commentText: 'x' } }),
        404,
        'NOT_FOUND',
        `comments/update ${label}`,
      );
      expectError(await t.a.post(PATHS.commentsDelete, { ...w, commentIds: [1] }), 404, 'NOT_FOUND', `comments/delete ${label}`);
      expectError(await t.a.post(PATHS.commentsDelete, w), 404, 'NOT_FOUND', `comments/delete all ${label}`);
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('NOT_FOUND after the thread was deleted; the body is still checked first (400 before 404)', async () => {
    const scratch = await fixture();
    const w = { organizationId: scratch, documentId: 'doc', annotationId: 't2' };
    await t.a.ok(PATHS.annotationsDelete, { organizationId: scratch, documentId: 'doc', annotationIds: ['t2'] });
    expectError(
      await t.a.post(PATHS.commentsUpdate, { ...w, commentIds: [1], updatedData: { commentText: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await t.a.post(PATHS.commentsDelete, w), 404, 'NOT_FOUND');
    expectInvalid(
      await t.a.post(PATHS.commentsUpdate, { ...w, annotationId: 'ghost', commentIds: [1], updatedData: {} }),
      'data.updatedData',
      'invalid body to an unknown annotation',
    );
    expectInvalid(
      await t.a.post(PATHS.commentsDelete, { ...w, annotationId: 'ghost', commentIds: [0] }),
      'data.commentIds[0]',
      'invalid commentIds to an unknown annotation',
    );
  });

  test('reads and changes by filter never answer NOT_FOUND for missing things', async () => {
    const ghostOrg = uniq('org');
    const r1 = await t.a.ok(PATHS.annotationsGet, { organizationId: ghostOrg, documentId: 'none', annotationIds: ['x'] });
    assert.deepEqual(r1.data, [null]);
    const r2 = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: ghostOrg,
      documentId: 'none',
      annotationIds: ['x'],
      updatedData: { status: RESOLVED },
    });
    assert.deepEqual(r2.data, { x: { success: false, id: 'x', message: 'Annotation not found.' } });
    const r3 = await t.a.ok(PATHS.annotationsDelete, { organizationId: ghostOrg, documentId: 'none', annotationIds: ['x'] });
    assert.deepEqual(r3.data, { x: { success: false, id: 'x', message: 'Annotation not found.' } });
    const r4 = await t.a.ok(PATHS.annotationsCount, { organizationId: ghostOrg, documentIds: ['none'], userId: 'u' });
    assert.deepEqual(r4.data, { none: { total: 0, unread: 0 } });
    const r5 = await t.a.ok(PATHS.annotationsRead, { organizationId: ghostOrg, documentId: 'none', userId: 'u' });
    assert.deepEqual(r5.data, { read: 0 });
  });

  // ---- import fidelity inputs ----

  test('createdAt / lastUpdated outside 0..8640000000000000 or not integers: INVALID_ARGUMENT, nothing written', async () => {
    const scratch = uniq('org');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: scratch,
      documentId: 'doc',
      commentAnnotations: [{ annotationId: 'keep', commentData: [say('keep')] }],
    });
    const bads = [-1, MAX_TIME + 1, 1.5, 1e300, '1600000000000', '2024-06-20T09:53:42.258Z', true, {}, [1]];
    for (const member of ['createdAt', 'lastUpdated']) {
      for (const bad of bads) {
        const what = `${member}=${js(bad)}`;
        expectInvalid(await addBesideAFineThread(scratch, member, bad), `data.commentAnnotations[1].${member}`, `thread ${what}`);
        expectInvalid(
          await t.a.post(PATHS.annotationsAdd, {
            organizationId: scratch,
            documentId: 'doc',
            commentAnnotations: [{ annotationId: 'fine', commentData: [say('x'), say('y', 'p', { [member]: bad })] }],
          }),
          `data.commentAnnotations[0].commentData[1].${member}`,
          `comment ${what}`,
        );
        expectInvalid(
          await t.a.post(PATHS.commentsAdd, {
            organizationId: scratch,
            documentId: 'doc',
            annotationId: 'keep',
            commentData: [say('x'), say('y', 'p', { [member]: bad })],
          }),
          `data.commentData[1].${member}`,
          `comments/add ${what}`,
        );
      }
    }
    const got = await t.a.ok(PATHS.annotationsGet, { organizationId: scratch, documentId: 'doc' });
    assert.deepEqual(
      got.data.map((x: any) => [x.annotationId, x.comments.map((c: any) => c.commentText)]),
      [['keep', ['keep']]],
      'nothing written',
    );
  });

  test('add: taggedUserContacts, assignedTo, priority, targetElement of the wrong shape: 400, nothing written', async () => {
    const scratch = uniq('org');
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: scratch,
      documentId: 'doc',
      commentAnnotations: [{ annotationId: 'keep', commentData: [say('keep')] }],
    });
    const tagCases: [unknown, string][] = [
      ['m', 'taggedUserContacts'],
      [{ userId: 'm' }, 'taggedUserContacts'],
      [[{ text: '@m' }], 'taggedUserContacts[0]'],
      [[{ userId: '' }], 'taggedUserContacts[0].userId'],
      [[{ userId: 7 }], 'taggedUserContacts[0].userId'],
      [[{ userId: 'm' }, null], 'taggedUserContacts[1]'],
      [[{ userId: 'm', text: {} }], 'taggedUserContacts[0].text'],
      [[{ userId: 'm', contact: [] }], 'taggedUserContacts[0].contact'],
      [[{ userId: 'm', contact: { name: 'no id' } }], 'taggedUserContacts[0].contact'],
      [Array.from({ length: 101 }, (_, i) => ({ userId: `m${i}` })), 'taggedUserContacts'],
    ];
    for (const [bad, named] of tagCases) {
      expectInvalid(
        await t.a.post(PATHS.annotationsAdd, {
          organizationId: scratch,
          documentId: 'doc',
          commentAnnotations: [{ annotationId: 'fine', commentData: [say('x', 'p', { taggedUserContacts: bad })] }],
        }),
        `data.commentAnnotations[0].commentData[0].${named}`,
        `add tags ${js(bad).slice(0, 40)}`,
      );
      expectInvalid(
        await t.a.post(PATHS.commentsAdd, {
          organizationId: scratch,
          documentId: 'doc',
          annotationId: 'keep',
          commentData: [say('x', 'p', { taggedUserContacts: bad })],
        }),
        `data.commentData[0].${named}`,
        `comments/add tags ${js(bad).slice(0, 40)}`,
      );
    }
    const annotationCases: [string, unknown, string][] = [
      ['assignedTo', 'q', 'assignedTo'],
      ['assignedTo', {}, 'assignedTo'],
      ['assignedTo', { userId: '' }, 'assignedTo.userId'],
      ['assignedTo', { userId: 'q', email: ['bad'] }, 'assignedTo.email'],
      ['color', 5, 'color'],
      ['color', 'c'.repeat(257), 'color'],
      ['assignedTo', [{ userId: 'q' }], 'assignedTo'],
      ['priority', 'high', 'priority'],
      ['priority', [1], 'priority'],
      ['priority', 1, 'priority'],
      ['targetElement', 'el', 'targetElement'],
      ['targetElement', [], 'targetElement'],
    ];
    for (const [member, bad, named] of annotationCases) {
      expectInvalid(
        await addBesideAFineThread(scratch, member, bad),
        `data.commentAnnotations[1].${named}`,
        `${member}=${js(bad)}`,
      );
    }
    const got = await t.a.ok(PATHS.annotationsGet, { organizationId: scratch, documentId: 'doc' });
    assert.deepEqual(
      got.data.map((x: any) => [x.annotationId, x.comments.length]),
      [['keep', 1]],
      'nothing written',
    );
  });

  // ---- all-or-nothing for each write, state compared ----

  test('a rejected delete, read, comments/delete or update deletes, marks and changes nothing', async () => {
    const scratch = await fixture();
    const before = await state(scratch);
    const rejected: [string, Record<string, unknown>, string][] = [
      [
        PATHS.annotationsDelete,
        { organizationId: scratch, documentId: 'doc', annotationIds: ['t1', 5] },
        'data.annotationIds[1]',
      ],
      [PATHS.annotationsDelete, { organizationId: scratch, documentId: 'doc', locationIds: ['l1', null] }, 'data.locationIds[1]'],
      [PATHS.annotationsDelete, { organizationId: scratch, documentId: 'doc', userIds: 'p' }, 'data.userIds'],
      [PATHS.annotationsDelete, { organizationId: scratch, documentId: '' }, 'data.documentId'],
      [
        PATHS.annotationsRead,
        { organizationId: scratch, documentId: 'doc', userId: 'p', annotationIds: ['t1', ''] },
        'data.annotationIds[1]',
      ],
      [PATHS.annotationsRead, { organizationId: scratch, documentId: 'doc', userId: '' }, 'data.userId'],
      [PATHS.annotationsRead, { organizationId: scratch, documentId: 'doc' }, 'data.userId'],
      [
        PATHS.commentsDelete,
        { organizationId: scratch, documentId: 'doc', annotationId: 't1', commentIds: [1, 0] },
        'data.commentIds[1]',
      ],
      [
        PATHS.commentsDelete,
        { organizationId: scratch, documentId: 'doc', annotationId: 't1', commentIds: [1, '2'] },
        'data.commentIds[1]',
      ],
      [
        PATHS.annotationsUpdate,
        { organizationId: scratch, documentId: 'doc', locationIds: ['l1', 3], updatedData: { status: RESOLVED } },
        'data.locationIds[1]',
      ],
      [
        PATHS.commentsUpdate,
        {
          organizationId: scratch,
          documentId: 'doc',
          annotationId: 't1',
          commentIds: [1, -2],
          updatedData: { commentText: 'x' },
        },
        'data.commentIds[1]',
      ],
    ];
    for (const [path, data, named] of rejected) {
      expectInvalid(await t.a.post(path, data), named, `${path} ${js(data)}`);
      assert.deepEqual(await state(scratch), before, `${path} ${js(data)} changed something`);
    }
  });

  test('filters may repeat ids: not an error, one entry per thread', async () => {
    const scratch = await fixture();
    const upd = await t.a.ok(PATHS.annotationsUpdate, {
      organizationId: scratch,
      documentId: 'doc',
      annotationIds: ['t1', 't1', 'ghost', 'ghost'],
      updatedData: { context: { n: 1 } },
    });
    assert.deepEqual(Object.keys(upd.data).sort(), ['ghost', 't1'], js(upd));
    const read = await t.a.ok(PATHS.annotationsRead, {
      organizationId: scratch,
      documentId: 'doc',
      userId: 'v',
      annotationIds: ['t1', 't1'],
    });
    assert.deepEqual(read.data, { read: 1 }, 'one thread, marked once');
    const cdel = await t.a.ok(PATHS.commentsDelete, {
      organizationId: scratch,
      documentId: 'doc',
      annotationId: 't1',
      commentIds: [2, 2],
    });
    assert.deepEqual(cdel.data, { '2': { success: true, id: 2, message: 'Deleted successfully' } }, js(cdel));
    const del = await t.a.ok(PATHS.annotationsDelete, {
      organizationId: scratch,
      documentId: 'doc',
      annotationIds: ['t2', 't2'],
    });
    assert.deepEqual(del.data, { t2: { success: true, id: 't2', message: 'Deleted Successfully' } }, js(del));
  });

  test('405 with Allow: POST for other methods on every new path; unknown sub-paths are 404', async () => {
    for (const path of THREAD_OPS) {
      const r = await t.request(path, {
        method: 'GET',
        headers: { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': t.a.creds.authToken },
      });
      expectError(r, 405, 'INVALID_ARGUMENT', `GET ${path}`);
      assert.equal(r.headers.allow, 'POST', path);
      expectError(await t.a.post(`${path}/extra`, {}), 404, 'NOT_FOUND', `${path}/extra`);
    }
  });

  test('rejected writes leave the fixture exactly as it was (final check)', async () => {
    const snapshot = await state(org);
    // The fixture was only ever the target of rejected writes above (and of reads).
    const t1 = (snapshot.doc as any[]).find((x) => x.annotationId === 't1');
    assert.deepEqual(t1.priority, { id: 'P1' }, js(t1));
    assert.equal('context' in t1, false, js(t1));
    assert.deepEqual(
      t1.comments.map((c: any) => [c.commentText, c.status]),
      [
        ['1a', 'added'],
        ['1b', 'added'],
      ],
    );
    assert.equal((snapshot.doc as any[]).length, 3);
  });

  test('a page token made by hand with an id no request could hold (NUL, a lone surrogate) is malformed, not a 500', async () => {
    const { filterDigest } = await import('../../src/services/page-token.js');
    const forged = (id: string, digest: string) => Buffer.from(JSON.stringify([1, 5, id, digest])).toString('base64url');
    const org = uniq('org');
    const threadDigest = filterDigest(['annotations', org, 'doc', null, null, null]);
    const inboxDigest = filterDigest([org, null, 'u', null, null]);
    for (const id of ['a\u0000b', '\ud800', 'x\udc00y']) {
      const thread = await t.a.post(PATHS.annotationsGet, {
        organizationId: org,
        documentId: 'doc',
        pageToken: forged(id, threadDigest),
      });
      expectInvalid(thread, /pageToken/, `threads, id ${JSON.stringify(id)}`);
      const inbox = await t.a.post(PATHS.notificationsGet, {
        organizationId: org,
        userId: 'u',
        pageToken: forged(id, inboxDigest),
      });
      expectInvalid(inbox, /pageToken/, `inbox, id ${JSON.stringify(id)}`);
    }
    // The same token with an ordinary id is good: the refusal is the id's, not the token's.
    const ok = await t.a.post(PATHS.annotationsGet, {
      organizationId: org,
      documentId: 'doc',
      pageToken: forged('a', threadDigest),
    });
    assert.equal(ok.status, 200, ok.body);
  });
});
