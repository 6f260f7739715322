// Every input bound that is a setting, at and past the bound, at its default and at a configured
// value: body size (413), nesting depth, array entries and free-text length (400 naming the member).
// Nothing past a bound is written. The contract's fixed limits (ids, names, emails...) are covered by
// the *.errors tests.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_LIMITS } from '../../src/schemas/common.js';
import { expectError, makeTestApp, PATHS, type TestApp, type TestAppOptions } from '../helpers/app.js';

async function withApp(options: TestAppOptions, fn: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await makeTestApp(options);
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

const ids = (n: number, prefix = 'x') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const comment = (text: string, i = 0) => ({ commentText: text, from: { userId: `author-${i}` } });

/** Whether user x0 exists in the organization (users/update answers per user, creating nothing). */
const userExists = async (t: TestApp, tag: string) =>
  (await t.a.ok(PATHS.usersUpdate, { organizationId: tag, users: [{ userId: 'x0' }] })).data.x0.success as boolean;
const threadLength = async (t: TestApp, tag: string, annotationId: string) =>
  (await t.a.ok(PATHS.commentsGet, { organizationId: tag, documentId: 'd-new', annotationId })).data.length as number;

/**
 * Each array member of each operation, as data holding `n` entries of it, and for writes, whether
 * anything of such a request landed (the rejected one must leave nothing).
 */
const ARRAYS: {
  member: string;
  path: string;
  data: (n: number, tag: string) => Record<string, unknown>;
  landed?: (t: TestApp, tag: string) => Promise<boolean>;
}[] = [
  {
    member: 'data.users',
    path: PATHS.usersAdd,
    data: (n, tag) => ({ organizationId: tag, users: ids(n).map((userId) => ({ userId })) }),
    landed: userExists,
  },
  // An update creates no one: x0 exists only if the request did something it must not.
  {
    member: 'data.users',
    path: PATHS.usersUpdate,
    data: (n, tag) => ({ organizationId: tag, users: ids(n).map((userId) => ({ userId })) }),
    landed: userExists,
  },
  {
    member: 'data.commentAnnotations',
    path: PATHS.annotationsAdd,
    data: (n, tag) => ({
      organizationId: tag,
      documentId: 'd-new',
      commentAnnotations: ids(n, 'a').map((annotationId) => ({ annotationId, commentData: [comment('c')] })),
    }),
    landed: async (t, tag) => (await threadLength(t, tag, 'a0')) > 0,
  },
  {
    member: 'data.commentAnnotations[0].commentData',
    path: PATHS.annotationsAdd,
    data: (n, tag) => ({
      organizationId: tag,
      documentId: 'd-new',
      commentAnnotations: [{ annotationId: 'a-new', commentData: Array.from({ length: n }, (_, i) => comment('c', i)) }],
    }),
    landed: async (t, tag) => (await threadLength(t, tag, 'a-new')) > 0,
  },
  {
    member: 'data.notifyUsers',
    path: PATHS.notificationsAdd,
    data: (n, tag) => ({
      organizationId: tag,
      documentId: 'd',
      notificationId: 'n',
      actionUser: { userId: 'a' },
      displayHeadlineMessageTemplate: 'h',
      notifyUsers: ids(n).map((userId) => ({ userId })),
    }),
    landed: async (t, tag) => (await t.a.ok(PATHS.notificationsGet, { organizationId: tag, documentId: 'd' })).data.length > 0,
  },
  {
    member: 'data.userIds',
    path: PATHS.commentsGet,
    data: (n, tag) => ({ organizationId: tag, documentId: 'd', annotationId: 'a', userIds: ids(n) }),
  },
  {
    member: 'data.commentIds',
    path: PATHS.commentsGet,
    data: (n, tag) => ({
      organizationId: tag,
      documentId: 'd',
      annotationId: 'a',
      commentIds: Array.from({ length: n }, (_, i) => i + 1),
    }),
  },
  {
    member: 'data.notificationIds',
    path: PATHS.notificationsGet,
    data: (n, tag) => ({ organizationId: tag, documentId: 'd', notificationIds: ids(n) }),
  },
];

/** Each free-text member, as data holding a text of `n` code points. */
const TEXTS: { member: string; path: string; data: (text: string, tag: string) => Record<string, unknown> }[] = [
  {
    member: 'data.commentData[0].commentText',
    path: PATHS.commentsAdd,
    data: (text, tag) => ({ organizationId: tag, documentId: 'd', annotationId: 'a', commentData: [comment(text)] }),
  },
  {
    member: 'data.commentData[0].commentHtml',
    path: PATHS.commentsAdd,
    data: (text, tag) => ({
      organizationId: tag,
      documentId: 'd',
      annotationId: 'a',
      commentData: [{ commentHtml: text, from: { userId: 'u' } }],
    }),
  },
  {
    member: 'data.displayHeadlineMessageTemplate',
    path: PATHS.notificationsAdd,
    data: (text, tag) => ({
      organizationId: tag,
      documentId: 'd',
      actionUser: { userId: 'a' },
      displayHeadlineMessageTemplate: text,
      notifyUsers: [{ userId: 'r' }],
    }),
  },
  {
    member: 'data.displayBodyMessage',
    path: PATHS.notificationsAdd,
    data: (text, tag) => ({
      organizationId: tag,
      documentId: 'd',
      actionUser: { userId: 'a' },
      displayHeadlineMessageTemplate: 'h',
      displayBodyMessage: text,
      notifyUsers: [{ userId: 'r' }],
    }),
  },
];

/** Comments/add needs its annotation to exist. */
async function prepare(t: TestApp, tag: string): Promise<void> {
  await t.a.ok(PATHS.annotationsAdd, {
    organizationId: tag,
    documentId: 'd',
    commentAnnotations: [{ annotationId: 'a', commentData: [comment('first')] }],
  });
}

for (const [label, options, maxBatch] of [
  ['default', {}, DEFAULT_LIMITS.maxBatch],
  ['MARGINALIA_MAX_BATCH=1200', { limits: { maxBatch: 1200 } }, 1200],
] as const) {
  describe(`array entries, ${label} (${maxBatch})`, () => {
    for (const a of ARRAYS) {
      test(`${a.path} ${a.member}: ${maxBatch} entries pass, ${maxBatch + 1} are 400 naming the member; nothing is written`, async () => {
        await withApp(options, async (t) => {
          const at = await t.a.post(a.path, a.data(maxBatch, 'at'));
          assert.equal(at.status, 200, at.body.slice(0, 300));
          // users/update creates no one, so only users/add is expected to have landed at the bound.
          if (a.landed && a.path !== PATHS.usersUpdate)
            assert.equal(await a.landed(t, 'at'), true, 'the request at the bound was applied');
          const past = await t.a.post(a.path, a.data(maxBatch + 1, 'past'));
          const message = expectError(past, 400, 'INVALID_ARGUMENT');
          assert.ok(message.includes(a.member), message);
          assert.ok(message.includes(String(maxBatch)), `the message states the bound: ${message}`);
          if (a.landed) assert.equal(await a.landed(t, 'past'), false, 'nothing of the rejected request landed');
        });
      });
    }
  });
}

for (const [label, options, maxText] of [
  ['default', {}, DEFAULT_LIMITS.maxTextLength],
  ['MARGINALIA_MAX_TEXT_LENGTH=40', { limits: { maxTextLength: 40 } }, 40],
] as const) {
  describe(`free text, ${label} (${maxText} code points)`, () => {
    for (const x of TEXTS) {
      test(`${x.path} ${x.member}: ${maxText} code points pass (emoji count once), ${maxText + 1} are 400 naming the member`, async () => {
        await withApp(options, async (t) => {
          await prepare(t, 'at');
          await prepare(t, 'past');
          // Half emoji (two UTF-16 units each), so code points, not units, are what is counted.
          const text = (n: number) => '😀'.repeat(Math.floor(n / 2)) + 'x'.repeat(n - Math.floor(n / 2));
          const at = await t.a.post(x.path, x.data(text(maxText), 'at'));
          assert.equal(at.status, 200, at.body.slice(0, 300));
          const past = await t.a.post(x.path, x.data(text(maxText + 1), 'past'));
          const message = expectError(past, 400, 'INVALID_ARGUMENT');
          assert.ok(message.includes(x.member), message);
          const comments = await t.a.ok(PATHS.commentsGet, { organizationId: 'past', documentId: 'd', annotationId: 'a' });
          assert.equal(comments.data.length, 1);
          assert.deepEqual((await t.a.ok(PATHS.notificationsGet, { organizationId: 'past', documentId: 'd' })).data, []);
        });
      });
    }
  });
}

describe('nesting depth (MARGINALIA_MAX_JSON_DEPTH)', () => {
  const nested = (levels: number): unknown => (levels === 0 ? 'leaf' : { x: nested(levels - 1) });
  // The body {data: {..., status: <nested>}} is 4 levels deep before `status` holds anything.
  const body = (statusDepth: number) => ({
    organizationId: 'o',
    documentId: 'd',
    commentAnnotations: [{ annotationId: 'a', status: nested(statusDepth), commentData: [comment('c')] }],
  });
  for (const [label, maxJsonDepth] of [
    ['default', 32],
    ['set to 10', 10],
  ] as const) {
    test(`${label} (${maxJsonDepth}): a body exactly that deep passes, one level more is 400`, async () => {
      await withApp({ maxJsonDepth }, async (t) => {
        const at = await t.a.post(PATHS.annotationsAdd, body(maxJsonDepth - 4));
        assert.equal(at.status, 200, at.body.slice(0, 300));
        const past = await t.a.post(PATHS.annotationsAdd, { ...body(maxJsonDepth - 3), documentId: 'd2' });
        const message = expectError(past, 400, 'INVALID_ARGUMENT');
        assert.match(message, new RegExp(`deeper than ${maxJsonDepth}`));
        // The refused annotation was not created: its thread reads as empty.
        const thread = await t.a.ok(PATHS.commentsGet, { organizationId: 'o', documentId: 'd2', annotationId: 'a' });
        assert.deepEqual(thread.data, []);
      });
    });
  }
});

describe('body size (MARGINALIA_BODY_LIMIT)', () => {
  for (const [label, bodyLimit] of [
    ['default', 1_048_576],
    ['set to 4096', 4096],
  ] as const) {
    test(`${label} (${bodyLimit} bytes): a body of exactly that size passes, one byte more is 413`, async () => {
      await withApp({ bodyLimit, limits: { maxTextLength: 10_000_000 } }, async (t) => {
        const sized = (bytes: number, tag: string) => {
          const shell = JSON.stringify({
            data: {
              organizationId: tag,
              documentId: 'd',
              actionUser: { userId: 'a' },
              displayHeadlineMessageTemplate: '',
              notifyUsers: [{ userId: 'r' }],
            },
          });
          const pad = bytes - Buffer.byteLength(shell);
          return JSON.stringify({
            data: {
              organizationId: tag,
              documentId: 'd',
              actionUser: { userId: 'a' },
              displayHeadlineMessageTemplate: 'x'.repeat(pad),
              notifyUsers: [{ userId: 'r' }],
            },
          });
        };
        const raw = (body: string) =>
          t.a.post(PATHS.notificationsAdd, null, { raw: body, headers: { 'content-type': 'application/json' } });
        const exact = sized(bodyLimit, 'at');
        assert.equal(Buffer.byteLength(exact), bodyLimit);
        const at = await raw(exact);
        assert.equal(at.status, 200, at.body.slice(0, 300));
        const past = await raw(sized(bodyLimit + 1, 'past'));
        expectError(past, 413, 'INVALID_ARGUMENT');
        assert.deepEqual((await t.a.ok(PATHS.notificationsGet, { organizationId: 'past', documentId: 'd' })).data, []);
      });
    });
  }
});
