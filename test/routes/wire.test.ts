// The wire format (docs/api.md, "Wire format"), for all seven /v1 operations: path, method, credentials and body
// checks in that order, the envelopes, member paths in messages, no coercion, x-request-id, and that a
// rejected request wrote nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, user, type Caller, type Reply, type TestApp } from '../helpers/app.js';

const BODY_LIMIT = 2048;
const ORG = 'wire-org';
const DOC = 'wire-doc';
const ANNOTATION = 'wire-annotation';
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

let t: TestApp;
let seq = 0;
const fresh = (prefix: string) => `${prefix}-${++seq}`;

before(async () => {
  t = await makeTestApp({ bodyLimit: BODY_LIMIT });
  await t.a.ok(PATHS.annotationsAdd, {
    organizationId: ORG,
    documentId: DOC,
    commentAnnotations: [{ annotationId: ANNOTATION, commentData: [{ commentText: 'first', from: { userId: 'u1' } }] }],
  });
});
after(async () => {
  await t.close();
});

const credsOf = (c: Caller) => ({ 'x-service-api-key': c.creds.apiKey, 'x-service-auth-token': c.creds.authToken });

interface SendOptions {
  method?: string;
  caller?: Caller | null;
  /** A raw payload; otherwise `body` is serialized. */
  raw?: string;
  body?: unknown;
  /** undefined: application/json when there is a payload; null: no Content-Type header. */
  contentType?: string | null;
  headers?: Record<string, string | undefined>;
}

function send(path: string, opts: SendOptions = {}): Promise<Reply> {
  const headers: Record<string, string | undefined> = { ...(opts.caller ? credsOf(opts.caller) : {}), ...opts.headers };
  const raw = opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
  const contentType = opts.contentType === undefined ? (raw !== undefined ? 'application/json' : undefined) : opts.contentType;
  if (contentType) headers['content-type'] = contentType;
  return t.request(path, { method: opts.method ?? 'POST', headers, raw });
}

/** A body over the limit: the valid data plus an ignored top-level member that pads it. */
const oversized = (data: unknown) => JSON.stringify({ data, pad: 'x'.repeat(BODY_LIMIT + 100) });

interface Op {
  path: string;
  message: string;
  valid(): Record<string, unknown>;
  /** Unknown members at every level inside data. */
  withUnknown(): Record<string, unknown>;
  /** Every optional member null. */
  nullOptional(): Record<string, unknown>;
  nullRequired: [Record<string, unknown>, string][];
  wrongTypes: [Record<string, unknown>, string][];
}

const OPS: Op[] = [
  {
    path: PATHS.usersAdd,
    message: 'User(s) processed successfully.',
    valid: () => ({ organizationId: ORG, users: [user(fresh('ua'))] }),
    withUnknown: () => ({
      organizationId: ORG,
      unknownTop: { deep: [1, 2] },
      teamId: 'x',
      users: [{ ...user(fresh('ua')), role: 'admin', settings: { theme: 'dark' }, extra: null }],
    }),
    nullOptional: () => ({
      organizationId: ORG,
      documentId: null,
      folderId: null,
      users: [{ userId: fresh('ua'), name: null, email: null, photoUrl: null }],
    }),
    nullRequired: [
      [{ organizationId: null, users: [user('x')] }, 'data.organizationId'],
      [{ organizationId: ORG, users: null }, 'data.users'],
      [{ organizationId: ORG, users: [user('x'), { userId: null }] }, 'data.users[1].userId'],
    ],
    wrongTypes: [
      [{ organizationId: 1, users: [user('x')] }, 'data.organizationId'],
      [{ organizationId: ORG, users: [{ userId: 12 }] }, 'data.users[0].userId'],
      [{ organizationId: ORG, users: [user('x'), user('y'), { userId: 'z', name: 5 }] }, 'data.users[2].name'],
      [{ organizationId: ORG, users: [user('x'), user('y'), user('z', { email: ['not-an-address'] })] }, 'data.users[2].email'],
      [{ organizationId: ORG, users: [user('x', { photoUrl: true })] }, 'data.users[0].photoUrl'],
      [{ organizationId: ORG, users: { userId: 'x' } }, 'data.users'],
      [{ organizationId: ORG, documentId: ['d'], users: [user('x')] }, 'data.documentId'],
    ],
  },
  {
    path: PATHS.usersUpdate,
    message: 'User(s) processed successfully.',
    valid: () => ({ organizationId: ORG, users: [user(fresh('uu'))] }),
    withUnknown: () => ({
      organizationId: ORG,
      unknownTop: true,
      users: [{ ...user(fresh('uu')), role: 'admin', nested: { a: { b: 1 } } }],
    }),
    nullOptional: () => ({
      organizationId: ORG,
      documentId: null,
      folderId: null,
      users: [{ userId: fresh('uu'), name: null, email: null, photoUrl: null }],
    }),
    nullRequired: [
      [{ organizationId: null, users: [user('x')] }, 'data.organizationId'],
      [{ organizationId: ORG, users: null }, 'data.users'],
      [{ organizationId: ORG, users: [{ userId: null }] }, 'data.users[0].userId'],
    ],
    wrongTypes: [
      [{ organizationId: true, users: [user('x')] }, 'data.organizationId'],
      [{ organizationId: ORG, users: [user('x'), { userId: 2 }] }, 'data.users[1].userId'],
      [{ organizationId: ORG, users: [user('x'), user('y'), user('z', { email: 3 })] }, 'data.users[2].email'],
      [{ organizationId: ORG, folderId: 3, users: [user('x')] }, 'data.folderId'],
    ],
  },
  {
    path: PATHS.annotationsAdd,
    message: 'Comment Annotation(s) added successfully.',
    valid: () => ({
      organizationId: ORG,
      documentId: DOC,
      commentAnnotations: [{ annotationId: fresh('an'), commentData: [{ commentText: 'hello', from: { userId: 'u1' } }] }],
    }),
    withUnknown: () => ({
      organizationId: ORG,
      documentId: DOC,
      whatever: { x: 1 },
      commentAnnotations: [
        {
          annotationId: fresh('an'),
          pageInfo: { url: 'https://example.com' },
          highlightColor: 'x',
          commentData: [
            { commentText: 'hello', from: { userId: 'u1', photoUrl: 'p', isGuest: false }, reactions: [], attachments: [{}] },
          ],
        },
      ],
    }),
    nullOptional: () => ({
      organizationId: ORG,
      documentId: DOC,
      commentAnnotations: [
        {
          annotationId: null,
          location: null,
          locationId: null,
          context: null,
          status: null,
          commentData: [
            { commentId: null, commentHtml: null, commentText: 'x', from: { userId: 'u1', name: null, email: null } },
          ],
        },
      ],
    }),
    nullRequired: [
      [{ organizationId: ORG, documentId: null, commentAnnotations: [] }, 'data.documentId'],
      [{ organizationId: ORG, documentId: DOC, commentAnnotations: null }, 'data.commentAnnotations'],
      [
        { organizationId: ORG, documentId: DOC, commentAnnotations: [{ commentData: null }] },
        'data.commentAnnotations[0].commentData',
      ],
      [
        { organizationId: ORG, documentId: DOC, commentAnnotations: [{ commentData: [{ commentText: 'x', from: null }] }] },
        'data.commentAnnotations[0].commentData[0].from',
      ],
    ],
    wrongTypes: [
      [
        {
          organizationId: ORG,
          documentId: 5,
          commentAnnotations: [{ commentData: [{ commentText: 'x', from: { userId: 'u' } }] }],
        },
        'data.documentId',
      ],
      [
        {
          organizationId: ORG,
          documentId: DOC,
          commentAnnotations: [{ commentData: [{ commentId: '1', commentText: 'x', from: { userId: 'u' } }] }],
        },
        'data.commentAnnotations[0].commentData[0].commentId',
      ],
      [
        {
          organizationId: ORG,
          documentId: DOC,
          commentAnnotations: [{ location: 'top', commentData: [{ commentText: 'x', from: { userId: 'u' } }] }],
        },
        'data.commentAnnotations[0].location',
      ],
      [
        {
          organizationId: ORG,
          documentId: DOC,
          commentAnnotations: [
            {
              commentData: [
                { commentText: 'x', from: { userId: 'u' } },
                { commentText: 'y', from: {} },
              ],
            },
          ],
        },
        'data.commentAnnotations[0].commentData[1].from.userId',
      ],
      [
        {
          organizationId: ORG,
          documentId: DOC,
          commentAnnotations: [{ commentData: [{ commentText: 7, from: { userId: 'u' } }] }],
        },
        'data.commentAnnotations[0].commentData[0].commentText',
      ],
    ],
  },
  {
    path: PATHS.commentsAdd,
    message: 'Comment(s) added successfully.',
    valid: () => ({
      organizationId: ORG,
      documentId: DOC,
      annotationId: ANNOTATION,
      commentData: [{ commentText: 'more', from: { userId: 'u2' } }],
    }),
    withUnknown: () => ({
      organizationId: ORG,
      documentId: DOC,
      annotationId: ANNOTATION,
      clientVersion: '1.2.3',
      commentData: [{ commentText: 'more', from: { userId: 'u2', avatar: 'a.png' }, mentions: ['u1'] }],
    }),
    nullOptional: () => ({
      organizationId: ORG,
      documentId: DOC,
      annotationId: ANNOTATION,
      commentData: [{ commentId: null, commentHtml: null, commentText: 'x', from: { userId: 'u2', name: null, email: null } }],
    }),
    nullRequired: [
      [
        { organizationId: ORG, documentId: DOC, annotationId: null, commentData: [{ commentText: 'x', from: { userId: 'u' } }] },
        'data.annotationId',
      ],
      [{ organizationId: ORG, documentId: DOC, annotationId: ANNOTATION, commentData: null }, 'data.commentData'],
      [
        {
          organizationId: ORG,
          documentId: DOC,
          annotationId: ANNOTATION,
          commentData: [{ commentText: 'x', from: { userId: null } }],
        },
        'data.commentData[0].from.userId',
      ],
    ],
    wrongTypes: [
      [
        { organizationId: ORG, documentId: DOC, annotationId: 5, commentData: [{ commentText: 'x', from: { userId: 'u' } }] },
        'data.annotationId',
      ],
      [
        {
          organizationId: ORG,
          documentId: DOC,
          annotationId: ANNOTATION,
          commentData: [{ commentId: '9', commentText: 'x', from: { userId: 'u' } }],
        },
        'data.commentData[0].commentId',
      ],
      [
        {
          organizationId: ORG,
          documentId: DOC,
          annotationId: ANNOTATION,
          commentData: [
            { commentText: 'x', from: { userId: 'u' } },
            { commentId: 0, commentText: 'x', from: { userId: 'u' } },
          ],
        },
        'data.commentData[1].commentId',
      ],
      [
        {
          organizationId: ORG,
          documentId: DOC,
          annotationId: ANNOTATION,
          commentData: [{ commentHtml: ['<p>'], from: { userId: 'u' } }],
        },
        'data.commentData[0].commentHtml',
      ],
    ],
  },
  {
    path: PATHS.commentsGet,
    message: 'Comments(s) retrieved successfully.',
    valid: () => ({ organizationId: ORG, documentId: DOC, annotationId: ANNOTATION }),
    withUnknown: () => ({
      organizationId: ORG,
      documentId: DOC,
      annotationId: ANNOTATION,
      includeDeleted: true,
      sort: { by: 'x' },
    }),
    nullOptional: () => ({ organizationId: ORG, documentId: DOC, annotationId: ANNOTATION, userIds: null, commentIds: null }),
    nullRequired: [
      [{ organizationId: ORG, documentId: DOC, annotationId: null }, 'data.annotationId'],
      [{ organizationId: ORG, documentId: null, annotationId: ANNOTATION }, 'data.documentId'],
      // organizationId: null means absent, the documents without an organization (documents-without-organization.test.ts).
    ],
    wrongTypes: [
      [{ organizationId: ORG, documentId: DOC, annotationId: ANNOTATION, commentIds: ['1'] }, 'data.commentIds[0]'],
      [{ organizationId: ORG, documentId: DOC, annotationId: ANNOTATION, commentIds: [1, 'x'] }, 'data.commentIds[1]'],
      [{ organizationId: ORG, documentId: DOC, annotationId: ANNOTATION, commentIds: [1, 2.5] }, 'data.commentIds[1]'],
      [{ organizationId: ORG, documentId: DOC, annotationId: ANNOTATION, userIds: ['u1', 1] }, 'data.userIds[1]'],
      [{ organizationId: ORG, documentId: DOC, annotationId: ANNOTATION, userIds: 'u1' }, 'data.userIds'],
      [{ organizationId: ORG, documentId: DOC, annotationId: 1 }, 'data.annotationId'],
    ],
  },
  {
    path: PATHS.notificationsAdd,
    message: 'Notification added successfully.',
    valid: () => ({
      organizationId: ORG,
      documentId: DOC,
      notificationId: fresh('n'),
      actionUser: user('u1'),
      displayHeadlineMessageTemplate: 'hi',
      notifyUsers: [user('u2')],
    }),
    withUnknown: () => ({
      organizationId: ORG,
      documentId: DOC,
      notificationId: fresh('n'),
      priority: 'high',
      actionUser: { ...user('u1'), photoUrl: 'x', extra: { a: 1 } },
      displayHeadlineMessageTemplate: 'hi',
      notifyUsers: [{ ...user('u2'), channel: 'email' }],
    }),
    nullOptional: () => ({
      organizationId: ORG,
      documentId: null,
      locationId: null,
      notificationId: null,
      actionUser: { userId: 'u1', name: null, email: null },
      displayHeadlineMessageTemplate: 'hi',
      displayHeadlineMessageTemplateData: null,
      displayBodyMessage: null,
      notificationSourceData: null,
      notifyUsers: [{ userId: 'u2', name: null, email: null }],
    }),
    nullRequired: [
      [
        { organizationId: ORG, actionUser: null, displayHeadlineMessageTemplate: 'h', notifyUsers: [user('u')] },
        'data.actionUser',
      ],
      [
        { organizationId: ORG, actionUser: user('u'), displayHeadlineMessageTemplate: null, notifyUsers: [user('u')] },
        'data.displayHeadlineMessageTemplate',
      ],
      [
        { organizationId: ORG, actionUser: user('u'), displayHeadlineMessageTemplate: null, notifyUsers: null },
        'data.displayHeadlineMessageTemplate',
      ],
      [
        { organizationId: ORG, actionUser: { userId: null }, displayHeadlineMessageTemplate: 'h', notifyUsers: [user('u')] },
        'data.actionUser.userId',
      ],
    ],
    wrongTypes: [
      [
        {
          organizationId: ORG,
          actionUser: user('u'),
          displayHeadlineMessageTemplate: 'h',
          displayBodyMessage: 1,
          notifyUsers: [user('u')],
        },
        'data.displayBodyMessage',
      ],
      [
        {
          organizationId: ORG,
          notificationId: 12,
          actionUser: user('u'),
          displayHeadlineMessageTemplate: 'h',
          notifyUsers: [user('u')],
        },
        'data.notificationId',
      ],
      [
        {
          organizationId: ORG,
          actionUser: user('u'),
          displayHeadlineMessageTemplate: 'h',
          notifyUsers: [user('u'), user('v'), { name: 'x' }],
        },
        'data.notifyUsers[2].userId',
      ],
      [
        { organizationId: ORG, actionUser: user('u'), displayHeadlineMessageTemplate: ['h'], notifyUsers: [user('u')] },
        'data.displayHeadlineMessageTemplate',
      ],
    ],
  },
  {
    path: PATHS.notificationsGet,
    message: 'Notification(s) retrieved successfully.',
    valid: () => ({ organizationId: ORG, documentId: DOC }),
    withUnknown: () => ({ organizationId: ORG, documentId: DOC, unreadOnly: true, sort: 'desc', filters: { a: [1] } }),
    nullOptional: () => ({
      organizationId: ORG,
      documentId: DOC,
      userId: null,
      locationId: null,
      notificationIds: null,
      pageSize: null,
      pageToken: null,
    }),
    nullRequired: [[{ organizationId: null, documentId: DOC }, 'data.organizationId']],
    wrongTypes: [
      [{ organizationId: ORG, documentId: DOC, pageSize: '5' }, 'data.pageSize'],
      [{ organizationId: ORG, documentId: DOC, notificationIds: ['a', 3] }, 'data.notificationIds[1]'],
      [{ organizationId: ORG, documentId: 1 }, 'data.documentId'],
      [{ organizationId: ORG, userId: false }, 'data.userId'],
      [{ organizationId: ORG, documentId: DOC, pageSize: 2.5 }, 'data.pageSize'],
    ],
  },
];

const OTHER_METHODS = ['GET', 'PUT', 'DELETE', 'PATCH'];

function expectSuccess(r: Reply, op: Op, what = ''): void {
  assert.equal(r.status, 200, `${what} ${op.path}: ${r.body.slice(0, 500)}`);
  assert.deepEqual(Object.keys(r.json), ['result'], r.body.slice(0, 500));
  assert.equal(r.json.result.status, 'success', r.body.slice(0, 500));
  assert.equal(r.json.result.message, op.message, r.body.slice(0, 500));
  assert.ok(Object.hasOwn(r.json.result, 'data'), r.body.slice(0, 500));
  assert.equal(r.json.error, undefined);
}

for (const op of OPS) {
  describe(op.path, () => {
    test('a valid request succeeds with the success envelope and nothing else', async () => {
      const r = await send(op.path, { caller: t.a, body: { data: op.valid() } });
      expectSuccess(r, op);
      assert.deepEqual(Object.keys(r.json.result).sort(), ['data', 'message', 'status'], r.body);
      assert.match(String(r.headers['x-request-id']), WELL_FORMED_ID);
    });

    test('GET, PUT, DELETE and PATCH are 405 with Allow: POST and INVALID_ARGUMENT, with or without credentials', async () => {
      for (const method of OTHER_METHODS) {
        for (const caller of [null, t.a]) {
          const r = await send(op.path, { method, caller });
          expectError(r, 405, 'INVALID_ARGUMENT', `${method} ${caller ? 'with' : 'without'} credentials`);
          assert.equal(r.headers.allow, 'POST', `${method}: Allow header ${String(r.headers.allow)}`);
          assert.match(String(r.headers['x-request-id']), WELL_FORMED_ID);
        }
        // A well-formed JSON body does not change that.
        const withBody = await send(op.path, { method, caller: t.a, body: { data: op.valid() } });
        expectError(withBody, 405, 'INVALID_ARGUMENT', `${method} with a JSON body`);
        assert.equal(withBody.headers.allow, 'POST');
      }
    });

    test('the method check (405) comes before any body check: garbage, wrong Content-Type, oversized', async () => {
      // Every combination is tried; the failures are reported together.
      const wrong: string[] = [];
      for (const method of OTHER_METHODS) {
        const bodies: [string, SendOptions][] = [
          ['invalid JSON', { raw: '{"data": {', contentType: 'application/json' }],
          ['text/plain', { raw: 'hello', contentType: 'text/plain' }],
          ['oversized JSON', { raw: oversized(op.valid()), contentType: 'application/json' }],
        ];
        for (const [name, opts] of bodies) {
          const r = await send(op.path, { ...opts, method });
          if (r.status !== 405 || r.json?.error?.status !== 'INVALID_ARGUMENT' || r.headers.allow !== 'POST') {
            wrong.push(`${method} ${name} without credentials -> ${r.status} ${r.body.slice(0, 200)}`);
          }
        }
      }
      assert.deepEqual(wrong, [], `expected 405 with Allow: POST for every one:\n${wrong.join('\n')}`);
    });

    test('without credentials the answer is 401 whatever the body (garbage, wrong type, none, oversized)', async () => {
      const bodies: [string, SendOptions][] = [
        ['valid', { body: { data: op.valid() } }],
        ['invalid JSON', { raw: '{"data": {', contentType: 'application/json' }],
        ['text/plain', { raw: 'hello', contentType: 'text/plain' }],
        ['no content type', { raw: '{"data":{}}', contentType: null }],
        ['no body', {}],
        ['empty JSON body', { raw: '', contentType: 'application/json' }],
        ['an array', { raw: '[1,2]', contentType: 'application/json' }],
        ['data missing', { body: {} }],
        ['oversized', { raw: oversized(op.valid()), contentType: 'application/json' }],
        ['oversized text', { raw: 'x'.repeat(BODY_LIMIT * 3), contentType: 'text/plain' }],
      ];
      for (const [name, opts] of bodies) {
        const r = await send(op.path, opts);
        const message = expectError(r, 401, 'UNAUTHENTICATED', name);
        assert.match(message, /x-service-api-key/, `${name}: ${r.body}`);
      }
      // With a known key and a wrong token the body is not looked at either.
      const wrong = await send(op.path, {
        raw: 'garbage',
        contentType: 'text/plain',
        headers: { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': 'nope' },
      });
      assert.equal(expectError(wrong, 401, 'UNAUTHENTICATED'), 'Invalid API key or auth token.');
    });

    test('a missing credential header is named in the message; bad credentials get one message', async () => {
      const noKey = await send(op.path, { body: { data: op.valid() }, headers: { 'x-service-auth-token': t.a.creds.authToken } });
      assert.match(expectError(noKey, 401, 'UNAUTHENTICATED'), /x-service-api-key/, noKey.body);
      const noToken = await send(op.path, { body: { data: op.valid() }, headers: { 'x-service-api-key': t.a.creds.apiKey } });
      assert.match(expectError(noToken, 401, 'UNAUTHENTICATED'), /x-service-auth-token/, noToken.body);
      for (const headers of [
        { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': 'mt_not-the-token' },
        { 'x-service-api-key': 'mk_unknown', 'x-service-auth-token': t.a.creds.authToken },
        { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': t.b.creds.authToken },
        { 'x-service-api-key': t.a.creds.authToken, 'x-service-auth-token': t.a.creds.apiKey },
      ]) {
        const r = await send(op.path, { body: { data: op.valid() }, headers });
        assert.equal(expectError(r, 401, 'UNAUTHENTICATED'), 'Invalid API key or auth token.', r.body);
      }
    });

    test('credential header names are case-insensitive', async () => {
      for (const [k, v] of [
        ['X-Service-Api-Key', 'X-Service-Auth-Token'],
        ['X-SERVICE-API-KEY', 'x-SERVICE-auth-TOKEN'],
      ] as const) {
        const r = await send(op.path, {
          body: { data: op.valid() },
          headers: { [k]: t.a.creds.apiKey, [v]: t.a.creds.authToken },
        });
        expectSuccess(r, op, `${k}/${v}`);
      }
    });

    test('Content-Type: text/plain, form, none and other JSON-ish types are INVALID_ARGUMENT; parameters are fine', async () => {
      const payload = JSON.stringify({ data: op.valid() });
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'application/vnd.api+json',
        null,
      ]) {
        const r = await send(op.path, { caller: t.a, raw: payload, contentType });
        const message = expectError(r, 400, 'INVALID_ARGUMENT', `Content-Type ${String(contentType)}`);
        assert.match(message, /Content-Type/i, r.body);
      }
      for (const contentType of ['application/json; charset=utf-8', 'application/json;charset=UTF-8']) {
        expectSuccess(await send(op.path, { caller: t.a, body: { data: op.valid() }, contentType }), op, contentType);
      }
    });

    test('a charset other than utf-8 is INVALID_ARGUMENT naming it; utf-8 in any spelling is fine', async () => {
      for (const charset of ['utf-16', 'UTF-16LE', 'latin1', 'iso-8859-1', '"us-ascii"', '']) {
        const r = await send(op.path, {
          caller: t.a,
          body: { data: op.valid() },
          contentType: `application/json; charset=${charset}`,
        });
        const message = expectError(r, 400, 'INVALID_ARGUMENT', `charset=${charset}`);
        assert.match(message, /charset must be utf-8/, r.body);
      }
      for (const contentType of [
        'application/json; charset="utf-8"',
        'application/json; CHARSET=utf8',
        'application/json; foo=bar',
      ]) {
        expectSuccess(await send(op.path, { caller: t.a, body: { data: op.valid() }, contentType }), op, contentType);
      }
    });

    test('a body over the size limit is 413 with status INVALID_ARGUMENT', async () => {
      const r = await send(op.path, { caller: t.a, raw: oversized(op.valid()) });
      const message = expectError(r, 413, 'INVALID_ARGUMENT');
      assert.match(message, /2048|large|limit|size/i, r.body);
      assert.match(String(r.headers['x-request-id']), WELL_FORMED_ID);
    });

    test('bodies that are not JSON objects with an object data are 400 INVALID_ARGUMENT', async () => {
      const raws: [string, string, RegExp][] = [
        ['invalid JSON', '{"data": {"organizationId": ', /JSON/],
        ['trailing garbage', '{"data": {}} x', /JSON/],
        ['single quotes', "{'data': {}}", /JSON/],
        ['empty', '', /./],
        ['an array', '[{"data": {}}]', /body|object/],
        ['a string', '"data"', /body|object/],
        ['a number', '42', /body|object/],
        ['null', 'null', /./],
        ['true', 'true', /body|object/],
        ['data missing', '{"date": {}}', /data/],
        ['data null', '{"data": null}', /data/],
        ['data an array', '{"data": []}', /data/],
        ['data a string', '{"data": "x"}', /data/],
        ['data a number', '{"data": 1}', /data/],
      ];
      for (const [name, raw, message] of raws) {
        const r = await send(op.path, { caller: t.a, raw, contentType: 'application/json' });
        const m = expectError(r, 400, 'INVALID_ARGUMENT', name);
        assert.match(m, message, `${name}: ${r.body}`);
      }
    });

    test('unknown members are ignored: top level, inside data, inside nested objects and array entries', async () => {
      expectSuccess(
        await send(op.path, { caller: t.a, body: { data: op.withUnknown(), meta: { trace: 1 }, version: 2, extra: null } }),
        op,
      );
      expectSuccess(
        await send(op.path, {
          caller: t.a,
          raw: `{"before":[1,{"x":2}],"data":${JSON.stringify(op.withUnknown())},"after":"x"}`,
        }),
        op,
      );
    });

    test('null for an optional member means absent', async () => {
      expectSuccess(await send(op.path, { caller: t.a, body: { data: op.nullOptional() } }), op);
    });

    test('null for a required member is INVALID_ARGUMENT naming the member', async () => {
      for (const [data, path] of op.nullRequired) {
        const r = await send(op.path, { caller: t.a, body: { data } });
        const message = expectError(r, 400, 'INVALID_ARGUMENT', path);
        assert.ok(message.includes(path), `message should name ${path}: ${r.body}`);
      }
    });

    test('no type coercion; the message names the member path', async () => {
      for (const [data, path] of op.wrongTypes) {
        const r = await send(op.path, { caller: t.a, body: { data } });
        const message = expectError(r, 400, 'INVALID_ARGUMENT', path);
        assert.ok(message.includes(path), `message should name ${path}: ${r.body}`);
      }
    });

    test('x-request-id: kept when well formed, replaced otherwise, on success and on errors', async () => {
      const kinds: [string, (h: Record<string, string>) => Promise<Reply>, number][] = [
        ['success', (h) => send(op.path, { caller: t.a, body: { data: op.valid() }, headers: h }), 200],
        ['400', (h) => send(op.path, { caller: t.a, raw: '{', headers: h }), 400],
        ['401', (h) => send(op.path, { body: { data: op.valid() }, headers: h }), 401],
        ['405', (h) => send(op.path, { method: 'GET', headers: h }), 405],
        ['413', (h) => send(op.path, { caller: t.a, raw: oversized(op.valid()), headers: h }), 413],
        ['404', (h) => send(`${op.path}/nope`, { caller: t.a, body: { data: {} }, headers: h }), 404],
      ];
      const good = ['abc', 'req-1.2:3_Z', 'A', `${'0123456789'.repeat(12)}abcdefgh`, 'a:b:c', '...', '---'];
      const bad = ['', 'x'.repeat(129), 'has space', 'a/b', 'a,b', '<script>', 'a\tb', 'ünïcode', 'a"b', '{"json":1}'];
      for (const [kind, run, status] of kinds) {
        for (const id of good) {
          const r = await run({ 'x-request-id': id });
          assert.equal(r.status, status, `${kind}: ${r.body.slice(0, 300)}`);
          assert.equal(r.headers['x-request-id'], id, `${kind}: incoming ${id} must be kept`);
        }
        for (const id of bad) {
          const r = await run({ 'x-request-id': id });
          assert.equal(r.status, status, `${kind}: ${r.body.slice(0, 300)}`);
          const got = String(r.headers['x-request-id']);
          assert.notEqual(got, id, `${kind}: a malformed id (${JSON.stringify(id)}) must be replaced`);
          assert.match(got, WELL_FORMED_ID, `${kind}: the new id ${JSON.stringify(got)}`);
        }
        const none1 = await run({});
        const none2 = await run({});
        assert.match(String(none1.headers['x-request-id']), WELL_FORMED_ID, `${kind}: a request without one gets one`);
        assert.notEqual(none1.headers['x-request-id'], none2.headers['x-request-id'], `${kind}: new ids differ`);
      }
    });
  });
}

describe('paths', () => {
  const unknown = [
    '/v1/nope',
    '/v1/users',
    '/v1/users/remove',
    '/v1/users/add/extra',
    '/v3/users/add',
    '/v2/users/remove',
    // Not `/`: GET / is the home page (routes/home.ts); its other methods are below.
    '/v1',
    '/v1/notifications',
    '/V1/USERS/ADD',
  ];

  test('an unknown path is 404 NOT_FOUND for any method, with or without credentials', async () => {
    for (const path of unknown) {
      for (const method of ['POST', 'GET', 'PUT', 'DELETE', 'PATCH']) {
        for (const caller of [null, t.a]) {
          const r = await send(path, { method, caller, ...(method === 'POST' ? { body: { data: {} } } : {}) });
          expectError(r, 404, 'NOT_FOUND', `${method} ${path} ${caller ? 'with' : 'without'} credentials`);
          assert.match(String(r.headers['x-request-id']), WELL_FORMED_ID);
        }
      }
    }
  });

  test('/ answers GET (the home page) and nothing else: 404 for the other methods', async () => {
    assert.equal((await send('/', { method: 'GET', caller: null })).status, 200);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'])
      expectError(
        await send('/', { method, caller: null, ...(method === 'POST' ? { body: { data: {} } } : {}) }),
        404,
        'NOT_FOUND',
        method,
      );
  });

  test('the path check (404) comes before the body: garbage, wrong type and oversized bodies', async () => {
    const bodies: [string, SendOptions][] = [
      ['invalid JSON', { raw: '{"data": {', contentType: 'application/json' }],
      ['text/plain', { raw: 'hello', contentType: 'text/plain' }],
      ['oversized JSON', { raw: oversized({}), contentType: 'application/json' }],
      ['non-object JSON', { raw: '[1]', contentType: 'application/json' }],
    ];
    const wrong: string[] = [];
    for (const path of ['/v1/nope', '/v1/users/add/extra']) {
      for (const [name, opts] of bodies) {
        for (const caller of [null, t.a]) {
          const r = await send(path, { ...opts, caller });
          if (r.status !== 404 || r.json?.error?.status !== 'NOT_FOUND') {
            wrong.push(`POST ${path} ${name} ${caller ? 'with' : 'without'} credentials -> ${r.status} ${r.body.slice(0, 200)}`);
          }
        }
      }
    }
    assert.deepEqual(wrong, [], `expected 404 NOT_FOUND for every one:\n${wrong.join('\n')}`);
  });

  test('/healthz and /readyz answer 200 without credentials, with a request id', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const r = await send(path, { method: 'GET' });
      assert.equal(r.status, 200, `${path}: ${r.body}`);
      assert.match(String(r.headers['x-request-id']), WELL_FORMED_ID);
      const kept = await send(path, { method: 'GET', headers: { 'x-request-id': 'probe-1' } });
      assert.equal(kept.headers['x-request-id'], 'probe-1');
    }
  });
});

describe('size limit boundary', () => {
  test('a body of exactly the limit is read; one byte more is 413', async () => {
    const build = (size: number) => {
      const base = JSON.stringify({ data: { organizationId: ORG, documentId: DOC }, pad: '' });
      return JSON.stringify({ data: { organizationId: ORG, documentId: DOC }, pad: 'x'.repeat(size - base.length) });
    };
    const exact = build(BODY_LIMIT);
    assert.equal(Buffer.byteLength(exact), BODY_LIMIT);
    const r = await send(PATHS.notificationsGet, { caller: t.a, raw: exact });
    assert.equal(r.status, 200, r.body);
    const over = build(BODY_LIMIT + 1);
    expectError(await send(PATHS.notificationsGet, { caller: t.a, raw: over }), 413, 'INVALID_ARGUMENT');
    // Bytes, not characters: 1100 two-byte characters are over a 2048-byte limit.
    const multi = JSON.stringify({ data: { organizationId: ORG, documentId: DOC }, pad: 'é'.repeat(1100) });
    assert.ok(multi.length < BODY_LIMIT && Buffer.byteLength(multi) > BODY_LIMIT);
    expectError(await send(PATHS.notificationsGet, { caller: t.a, raw: multi }), 413, 'INVALID_ARGUMENT');
  });
});

describe('errors never leak internals', () => {
  test('no stack traces, file names or SQL in any error body', async () => {
    const replies: [string, Reply][] = [];
    for (const op of OPS) {
      replies.push([
        `${op.path} invalid JSON`,
        await send(op.path, { caller: t.a, raw: '{"data":', contentType: 'application/json' }),
      ]);
      replies.push([`${op.path} wrong types`, await send(op.path, { caller: t.a, body: { data: op.wrongTypes[0]![0] } })]);
      replies.push([`${op.path} data array`, await send(op.path, { caller: t.a, body: { data: [] } })]);
      replies.push([`${op.path} 413`, await send(op.path, { caller: t.a, raw: oversized(op.valid()) })]);
      replies.push([`${op.path} 405`, await send(op.path, { method: 'DELETE' })]);
      replies.push([
        `${op.path} 401`,
        await send(op.path, { body: { data: {} }, headers: { 'x-service-api-key': "' OR 1=1 --", 'x-service-auth-token': 'x' } }),
      ]);
      replies.push([
        `${op.path} proto`,
        await send(op.path, { caller: t.a, raw: '{"data":{"__proto__":{"x":1},"constructor":{"prototype":{"y":1}}}}' }),
      ]);
      replies.push([
        `${op.path} deep nesting`,
        await send(op.path, { caller: t.a, raw: `{"data":${'['.repeat(500)}${']'.repeat(500)}}` }),
      ]);
    }
    replies.push([
      '409',
      await send(PATHS.notificationsAdd, { caller: t.a, body: { data: { ...OPS[5]!.valid(), notificationId: 'wire-dup' } } }),
    ]);
    replies.push([
      '409 again',
      await send(PATHS.notificationsAdd, { caller: t.a, body: { data: { ...OPS[5]!.valid(), notificationId: 'wire-dup' } } }),
    ]);
    replies.push([
      '404 comments/add',
      await send(PATHS.commentsAdd, {
        caller: t.a,
        body: {
          data: {
            organizationId: ORG,
            documentId: DOC,
            annotationId: 'nope',
            commentData: [{ commentText: 'x', from: { userId: 'u' } }],
          },
        },
      }),
    ]);
    replies.push([
      'bad token',
      await send(PATHS.notificationsGet, {
        caller: t.a,
        body: { data: { organizationId: ORG, documentId: DOC, pageToken: "'; SELECT * FROM notifications; --" } },
      }),
    ]);
    let errors = 0;
    for (const [name, r] of replies) {
      if (r.status < 400) continue;
      errors++;
      assert.ok(r.status < 500, `${name}: no 5xx: ${r.body.slice(0, 300)}`);
      assert.equal(typeof r.json?.error, 'object', `${name}: ${r.body.slice(0, 300)}`);
      for (const key of Object.keys(r.json.error))
        assert.ok(['message', 'status', 'details'].includes(key), `${name}: unexpected ${key}: ${r.body}`);
      assert.doesNotMatch(
        r.body,
        /\n\s+at |\bat .+\(.+:\d+:\d+\)|\.ts:\d|\.js:\d|node_modules|stack|SQLITE|SELECT |INSERT |UPDATE |FROM [a-z_]+ WHERE|constraint/i,
        `${name}: ${r.body}`,
      );
      assert.match(String(r.headers['content-type']), /application\/json/, `${name}: errors are JSON`);
    }
    assert.ok(errors >= OPS.length * 7, `expected the bad requests to fail, got ${errors}`);
  });
});

describe('a rejected request wrote nothing', () => {
  /** The ways a well-formed write can be turned away before it is applied. */
  function rejections(path: string, data: Record<string, unknown>): [string, () => Promise<Reply>, number][] {
    const body = JSON.stringify({ data });
    return [
      ['no credentials', () => send(path, { raw: body }), 401],
      [
        'wrong token',
        () => send(path, { raw: body, headers: { 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': 'wrong' } }),
        401,
      ],
      ['PUT', () => send(path, { method: 'PUT', caller: t.a, raw: body }), 405],
      ['PATCH', () => send(path, { method: 'PATCH', caller: t.a, raw: body }), 405],
      ['text/plain', () => send(path, { caller: t.a, raw: body, contentType: 'text/plain' }), 400],
      ['no content type', () => send(path, { caller: t.a, raw: body, contentType: null }), 400],
      ['oversized', () => send(path, { caller: t.a, raw: oversized(data) }), 413],
      ['truncated JSON', () => send(path, { caller: t.a, raw: body.slice(0, -1) }), 400],
    ];
  }

  async function rejectAll(path: string, data: Record<string, unknown>, invalid: [string, Record<string, unknown>, number][]) {
    for (const [name, run, status] of rejections(path, data)) {
      const r = await run();
      assert.equal(r.status, status, `${path} ${name}: ${r.body.slice(0, 300)}`);
      assert.equal(typeof r.json?.error, 'object', `${path} ${name}: ${r.body.slice(0, 300)}`);
    }
    for (const [name, bad, status] of invalid) {
      const r = await send(path, { caller: t.a, body: { data: bad } });
      assert.equal(r.status, status, `${path} ${name}: ${r.body.slice(0, 300)}`);
      assert.equal(typeof r.json?.error, 'object', `${path} ${name}: ${r.body.slice(0, 300)}`);
    }
  }

  test('users/add', async () => {
    const org = 'wn-users-add';
    const users = [user('wn-a1'), user('wn-a2')];
    await rejectAll(PATHS.usersAdd, { organizationId: org, users }, [
      ['a bad email in the second user', { organizationId: org, users: [users[0], user('wn-a2', { email: 1 })] }, 400],
      ['a repeated userId', { organizationId: org, users: [users[0], users[1], users[0]] }, 400],
      ['documentId and folderId', { organizationId: org, documentId: 'd', folderId: 'f', users }, 400],
    ]);
    const r = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'wn-a1' }, { userId: 'wn-a2' }] });
    assert.equal(r.data['wn-a1'].success, false, JSON.stringify(r));
    assert.equal(r.data['wn-a2'].success, false, JSON.stringify(r));
  });

  test('users/update', async () => {
    const org = 'wn-users-update';
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [
        { userId: 'wn-u1', name: 'Before', email: 'before@example.com' },
        { userId: 'wn-u2', name: 'Two' },
      ],
    });
    await t.a.ok(PATHS.notificationsAdd, {
      organizationId: org,
      documentId: 'd',
      actionUser: { userId: 'wn-u1' },
      displayHeadlineMessageTemplate: 'h',
      notifyUsers: [{ userId: 'x' }],
    });
    const change = [{ userId: 'wn-u1', name: 'After', email: 'after@example.com' }];
    await rejectAll(PATHS.usersUpdate, { organizationId: org, users: change }, [
      ['a bad second user', { organizationId: org, users: [...change, { userId: 'wn-u2', email: 2 }] }, 400],
      ['a repeated userId', { organizationId: org, users: [...change, { userId: 'wn-u1', name: 'Again' }] }, 400],
    ]);
    const n = await t.a.ok(PATHS.notificationsGet, { organizationId: org, documentId: 'd' });
    assert.deepEqual(
      n.data[0]?.actionUser,
      { email: 'before@example.com', name: 'Before', userId: 'wn-u1' },
      JSON.stringify(n.data),
    );
  });

  test('commentannotations/add', async () => {
    const annotation = (annotationId: string) => ({ annotationId, commentData: [{ commentText: 'x', from: { userId: 'u1' } }] });
    await rejectAll(
      PATHS.annotationsAdd,
      { organizationId: ORG, documentId: 'wn-doc', commentAnnotations: [annotation('wn-an1')] },
      [
        [
          'a bad second annotation',
          {
            organizationId: ORG,
            documentId: 'wn-doc',
            commentAnnotations: [annotation('wn-an1'), { annotationId: 'wn-an2', commentData: [] }],
          },
          400,
        ],
        [
          'a comment with neither text nor html',
          {
            organizationId: ORG,
            documentId: 'wn-doc',
            commentAnnotations: [annotation('wn-an1'), { annotationId: 'wn-an2', commentData: [{ from: { userId: 'u' } }] }],
          },
          400,
        ],
        [
          'a repeated annotationId',
          { organizationId: ORG, documentId: 'wn-doc', commentAnnotations: [annotation('wn-an1'), annotation('wn-an1')] },
          400,
        ],
      ],
    );
    for (const annotationId of ['wn-an1', 'wn-an2']) {
      const r = await t.a.ok(PATHS.commentsGet, { organizationId: ORG, documentId: 'wn-doc', annotationId });
      assert.deepEqual(r.data, [], `${annotationId}: ${JSON.stringify(r.data)}`);
    }
    const add = await send(PATHS.commentsAdd, {
      caller: t.a,
      body: {
        data: {
          organizationId: ORG,
          documentId: 'wn-doc',
          annotationId: 'wn-an1',
          commentData: [{ commentText: 'x', from: { userId: 'u' } }],
        },
      },
    });
    expectError(add, 404, 'NOT_FOUND', 'the annotation was never created');
  });

  test('commentannotations/comments/add', async () => {
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: ORG,
      documentId: 'wn-doc2',
      commentAnnotations: [
        { annotationId: 'wn-thread', commentData: [{ commentId: 1, commentText: 'only', from: { userId: 'u1' } }] },
      ],
    });
    const data = (commentData: unknown[]) => ({
      organizationId: ORG,
      documentId: 'wn-doc2',
      annotationId: 'wn-thread',
      commentData,
    });
    const fine = { commentText: 'new', from: { userId: 'u2' } };
    await rejectAll(PATHS.commentsAdd, data([fine]), [
      ['a taken commentId after a new one', data([fine, { commentId: 1, commentText: 'clash', from: { userId: 'u2' } }]), 409],
      ['a bad second comment', data([fine, { commentText: 'x', from: {} }]), 400],
      [
        'a repeated commentId',
        data([
          { ...fine, commentId: 7 },
          { ...fine, commentId: 7 },
        ]),
        400,
      ],
      ['neither text nor html', data([fine, { from: { userId: 'u2' } }]), 400],
    ]);
    const r = await t.a.ok(PATHS.commentsGet, { organizationId: ORG, documentId: 'wn-doc2', annotationId: 'wn-thread' });
    assert.deepEqual(
      r.data.map((c: any) => [c.commentId, c.commentText]),
      [[1, 'only']],
      JSON.stringify(r.data),
    );
  });

  test('notifications/add', async () => {
    const data = {
      organizationId: ORG,
      documentId: 'wn-ndoc',
      notificationId: 'wn-n1',
      actionUser: user('u1'),
      displayHeadlineMessageTemplate: 'h',
      notifyUsers: [user('u2')],
    };
    await rejectAll(PATHS.notificationsAdd, data, [
      ['a bad second recipient', { ...data, notifyUsers: [user('u2'), { userId: '' }] }, 400],
      ['a bad notificationId', { ...data, notificationId: 'wn n1' }, 400],
    ]);
    const r = await t.a.ok(PATHS.notificationsGet, { organizationId: ORG, documentId: 'wn-ndoc' });
    assert.deepEqual(r.data, [], JSON.stringify(r.data));
    const byUser = await t.a.ok(PATHS.notificationsGet, { organizationId: ORG, userId: 'u2', notificationIds: ['wn-n1'] });
    assert.deepEqual(byUser.data, []);
  });
});
