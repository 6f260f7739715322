// End users (docs/api.md, "End users") on the configured database: with `Authorization: Bearer <token>` and no
// server credentials, the operations open to end users act as the token's user on what that user may access,
// on /v1 and /v2; everything else, and any act for another user, is PERMISSION_DENIED; a forged or expired
// token is 401; revoking the tenant or a role holds on the next request; browsers' origins are checked; each
// end user has a rate budget of their own.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type Caller,
  expectError,
  makeTestApp,
  notificationData,
  PATHS,
  type Reply,
  type TestApp,
  user,
  v2,
} from '../helpers/app.js';

let now = Date.UTC(2025, 0, 15, 12);
let t: TestApp;
before(async () => {
  t = await makeTestApp({
    clock: () => now,
    config: { corsOrigins: ['https://app.example'], endUserRateLimit: 0 },
  });
});
after(async () => t.close());

const P = PATHS;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A v1 token (auth/token/get) of `userId` in `organizationId`. */
async function tokenOf(userId: string, organizationId: string, c: Caller = t.a): Promise<string> {
  const got = await c.ok(P.authTokenGet, {
    userId,
    userProperties: { organizationId, name: `Name ${userId}`, email: `${userId}@x.test` },
  });
  return got.data.token;
}

/** POST {data} as the token's user: no server credentials. */
const as = (token: string, path: string, data: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
  t.request(path, { body: { data }, headers: { authorization: `Bearer ${token}`, ...headers } });

const ok = async (r: Reply) => {
  assert.equal(r.status, 200, r.body.slice(0, 400));
  return r.json.result;
};
const denied = (r: Reply, what = '') => expectError(r, 403, 'PERMISSION_DENIED', what);

/**
 * An organization with members ana and bo, an organizationPrivate document `doc` holding a thread `th` with a
 * comment by bo, a restricted document `locked`, and a notification to ana.
 */
async function world(c: Caller = t.a) {
  const org = uniq('org');
  await c.ok(P.usersAdd, { organizationId: org, users: [user('ana'), user('bo')] });
  await c.ok(P.annotationsAdd, {
    organizationId: org,
    documentId: 'doc',
    commentAnnotations: [{ annotationId: 'th', commentData: [{ commentText: 'by bo', from: user('bo') }] }],
  });
  await c.ok(P.documentsAdd, { organizationId: org, documents: [{ documentId: 'locked' }] });
  await c.ok(P.documentsAccess, { organizationId: org, documentIds: ['locked'], accessType: 'restricted' });
  await c.ok(P.notificationsAdd, notificationData(org, { documentId: 'doc', notifyUsers: [user('ana')] }));
  return { org, ana: await tokenOf('ana', org, c), bo: await tokenOf('bo', org, c) };
}

describe('end users: their inbox', () => {
  test('reads, counts and marks read their own notifications, userId omitted or their own', async () => {
    const { org, ana } = await world();
    const got = await ok(await as(ana, P.notificationsGet, { organizationId: org }));
    assert.equal(got.data.length, 1);
    assert.equal((await ok(await as(ana, P.notificationsCount, { organizationId: org, userId: 'ana' }))).data.unread, 1);
    await ok(await as(ana, v2(P.notificationsRead), { organizationId: org, userId: 'ana' }));
    assert.equal((await ok(await as(ana, v2(P.notificationsCount), { organizationId: org, userId: 'ana' }))).data.unread, 0);
    // The server sees the same read state.
    assert.equal((await t.a.ok(P.notificationsCount, { organizationId: org, userId: 'ana' })).data.unread, 0);
    // Unread again through notifications/update, their own read state only.
    const id = got.data[0].id;
    await ok(await as(ana, P.notificationsUpdate, { organizationId: org, notifications: [{ id, unreadByUserIds: ['ana'] }] }));
    assert.equal((await t.a.ok(P.notificationsCount, { organizationId: org, userId: 'ana' })).data.unread, 1);
  });

  test("another user's inbox, another organization, or changing a notification is refused", async () => {
    const { org, ana } = await world();
    denied(await as(ana, P.notificationsGet, { organizationId: org, userId: 'bo' }), 'data.userId');
    denied(await as(ana, P.notificationsCount, { organizationId: org, userId: 'bo' }));
    denied(await as(ana, P.notificationsRead, { organizationId: org, userId: 'bo' }));
    denied(await as(ana, P.notificationsGet, { organizationId: uniq('other') }), 'not for organization');
    const [n] = (await t.a.ok(P.notificationsGet, { organizationId: org, userId: 'ana' })).data;
    denied(await as(ana, P.notificationsUpdate, { organizationId: org, notifications: [{ id: n.id, readByUserIds: ['bo'] }] }));
    denied(
      await as(ana, P.notificationsUpdate, { organizationId: org, notifications: [{ id: n.id, displayBodyMessage: 'x' }] }),
      'displayBodyMessage',
    );
    // Nothing changed: bo's read state and the text.
    const after = (await t.a.ok(P.notificationsGet, { organizationId: org, userId: 'ana' })).data[0];
    assert.deepEqual(after, n);
  });
});

describe('end users: threads and comments', () => {
  test('write as themselves whatever `from` says, and read the threads of a document', async () => {
    const { org, ana } = await world();
    await ok(
      await as(ana, P.annotationsAdd, {
        organizationId: org,
        documentId: 'doc',
        commentAnnotations: [
          { annotationId: 'a1', createdAt: 5, commentData: [{ commentText: 'mine', from: user('bo'), createdAt: 5 }] },
        ],
      }),
    );
    await ok(
      await as(ana, v2(P.commentsAdd), {
        organizationId: org,
        documentId: 'doc',
        annotationId: 'th',
        commentData: [{ commentText: 'reply', from: { userId: 'bo', email: 'evil@x.test' } }],
      }),
    );
    const threads = (await t.a.ok(P.annotationsGet, { organizationId: org, documentId: 'doc' })).data;
    const a1 = threads.find((x: { annotationId: string }) => x.annotationId === 'a1');
    assert.equal(a1.comments[0].from.userId, 'ana');
    assert.notEqual(a1.comments[0].createdAt, 5, 'an end user does not choose the time');
    const thRead = await t.a.post(P.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 'th' });
    assert.ok(!thRead.body.includes('evil@x.test'), 'what `from` said is not kept');
    const th = thRead.json.result.data;
    assert.deepEqual(
      th.map((c: { from: { userId: string } }) => c.from.userId),
      ['bo', 'ana'],
    );
    // Reads, on both versions.
    assert.equal((await ok(await as(ana, P.annotationsGet, { organizationId: org, documentId: 'doc' }))).data.length, 2);
    assert.equal((await ok(await as(ana, v2(P.annotationsGet), { organizationId: org, documentIds: ['doc'] }))).data.length, 2);
    assert.equal(
      (await ok(await as(ana, v2(P.commentsGet), { organizationId: org, documentId: 'doc', annotationId: 'th' }))).data.length,
      2,
    );
    const count = await ok(await as(ana, P.annotationsCount, { organizationId: org, documentIds: ['doc'], userId: 'ana' }));
    assert.equal(count.data.doc.total, 2);
    await ok(await as(ana, P.annotationsRead, { organizationId: org, documentId: 'doc', userId: 'ana' }));
    // /v2's read across documents must name them.
    denied(await as(ana, v2(P.annotationsGet), { organizationId: org }), 'documentId');
    denied(await as(ana, P.annotationsCount, { organizationId: org, documentIds: ['doc'], userId: 'bo' }));
    denied(await as(ana, P.annotationsRead, { organizationId: org, documentId: 'doc', userId: 'bo' }));
  });

  test('change and delete their own comments only, named', async () => {
    const { org, ana } = await world();
    await ok(
      await as(ana, P.commentsAdd, {
        organizationId: org,
        documentId: 'doc',
        annotationId: 'th',
        commentData: [{ commentText: 'a', from: user('ana') }],
      }),
    );
    const ids = (await t.a.ok(P.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 'th' })).data.map(
      (c: { commentId: number }) => c.commentId,
    );
    const [bos, anas] = ids;
    const where = { organizationId: org, documentId: 'doc', annotationId: 'th' };
    await ok(
      await as(ana, P.commentsUpdate, { ...where, commentIds: [anas], updatedData: { commentText: 'edited', from: user('bo') } }),
    );
    denied(await as(ana, P.commentsUpdate, { ...where, commentIds: [bos], updatedData: { commentText: 'hijack' } }), 'own');
    denied(await as(ana, P.commentsUpdate, { ...where, commentIds: [anas, bos], updatedData: { commentText: 'both' } }), 'own');
    denied(await as(ana, P.commentsDelete, { ...where, commentIds: [bos] }), 'own');
    denied(await as(ana, P.commentsDelete, where), 'commentIds');
    let comments = (await t.a.ok(P.commentsGet, where)).data;
    assert.deepEqual(
      comments.map((c: { commentText: string; from: { userId: string } }) => [c.from.userId, c.commentText]),
      [
        ['bo', 'by bo'],
        ['ana', 'edited'],
      ],
    );
    await ok(await as(ana, v2(P.commentsDelete), { ...where, commentIds: [anas] }));
    comments = (await t.a.ok(P.commentsGet, where)).data;
    assert.equal(comments.length, 1);
  });

  test('a restricted document opens with a role; a viewer may not write; an expired or revoked role counts for nothing', async () => {
    const { org, ana } = await world();
    const read = () => as(ana, P.annotationsGet, { organizationId: org, documentId: 'locked' });
    const write = () =>
      as(ana, P.annotationsAdd, {
        organizationId: org,
        documentId: 'locked',
        commentAnnotations: [{ commentData: [{ commentText: 'x', from: user('ana') }] }],
      });
    denied(await read(), 'no access to document locked');
    denied(await write());
    const doc = { type: 'document', id: 'locked', organizationId: org };
    await t.a.ok(P.permissionsAdd, { user: { userId: 'ana' }, permissions: { resources: [{ ...doc, accessRole: 'viewer' }] } });
    await ok(await read());
    denied(await write(), 'viewer');
    await t.a.ok(P.permissionsAdd, {
      user: { userId: 'ana' },
      permissions: { resources: [{ ...doc, accessRole: 'editor', expiresAt: seconds(now) + 60 }] },
    });
    await ok(await write());
    now += 61_000;
    denied(await read(), 'expired: nothing');
    await t.a.ok(P.permissionsAdd, { user: { userId: 'ana' }, permissions: { resources: [{ ...doc, accessRole: 'editor' }] } });
    await ok(await read());
    await t.a.ok(P.permissionsRemove, { userId: 'ana', permissions: { resources: [doc] } });
    denied(await read(), 'revoked');
  });

  test("a v2 token's resources are what its user opens; its organization's other documents stay closed", async () => {
    const { org } = await world();
    const got = await t.a.ok(P.authGenerateToken, {
      userId: 'zed',
      userProperties: { name: 'Zed', email: 'zed@x.test' },
      permissions: { resources: [{ type: 'document', id: 'doc', organizationId: org, accessRole: 'viewer' }] },
    });
    const zed = got.data.token;
    await ok(await as(zed, v2(P.annotationsGet), { organizationId: org, documentId: 'doc' }));
    denied(
      await as(zed, P.commentsAdd, {
        organizationId: org,
        documentId: 'doc',
        annotationId: 'th',
        commentData: [{ commentText: 'x', from: user('zed') }],
      }),
      'viewer',
    );
    await t.a.ok(P.documentsAdd, { organizationId: org, documents: [{ documentId: 'other' }] });
    denied(await as(zed, P.annotationsGet, { organizationId: org, documentId: 'other' }), 'no access');
  });
});

describe('end users: what a token may not do', () => {
  test('every other operation is PERMISSION_DENIED, on both versions', async () => {
    const { org, ana } = await world();
    for (const [path, data] of [
      [P.usersAdd, { organizationId: org, users: [user('x')] }],
      [P.notificationsAdd, notificationData(org)],
      [P.notificationsConfigGet, { organizationId: org, documentIds: ['doc'], userId: 'ana' }],
      [P.annotationsUpdate, { organizationId: org, documentId: 'doc', annotationIds: ['th'], updatedData: { color: '#fff' } }],
      [v2(P.annotationsDelete), { organizationId: org, documentId: 'doc', annotationIds: ['th'] }],
      [P.authTokenGet, { userId: 'bo', userProperties: { organizationId: org } }],
      [P.permissionsAdd, { user: { userId: 'ana' }, permissions: { resources: [{ type: 'organization', id: org }] } }],
    ] as const) {
      denied(await as(ana, path, data), 'server credentials');
    }
    // Nothing was written: the thread is whole.
    assert.equal((await t.a.ok(P.annotationsGet, { organizationId: org, documentId: 'doc' })).data.length, 1);
  });

  test('a forged, expired or unknown token is 401, before anything else', async () => {
    const { org, ana } = await world();
    const [h, p, s] = ana.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'bo' })).toString('base64url')}.${s}`;
    expectError(await as(forged, P.notificationsGet, { organizationId: org }), 401, 'UNAUTHENTICATED');
    expectError(await as('not-a-token', P.notificationsGet, { organizationId: org }), 401, 'UNAUTHENTICATED');
    // 401 comes before the 403 of a closed operation and the 400 of a bad body.
    expectError(await as(forged, P.usersAdd, { nonsense: true }), 401, 'UNAUTHENTICATED');
    now += 49 * 3600_000;
    expectError(await as(ana, P.notificationsGet, { organizationId: org }), 401, 'UNAUTHENTICATED');
  });

  test("a token of one tenant reads nothing of another's; a revoked or disabled tenant's tokens stop at once", async () => {
    const c = await t.tenant(uniq('tenant'));
    const { org, ana } = await world(c);
    const mine = await world();
    // The same organization id in tenant a holds other data: a token of c reads c's.
    denied(await as(ana, P.notificationsGet, { organizationId: mine.org }));
    assert.equal((await ok(await as(ana, P.notificationsGet, { organizationId: org }))).data.length, 1);
    await t.store.setTenantDisabled(c.creds.apiKey, true);
    expectError(await as(ana, P.notificationsGet, { organizationId: org }), 401, 'UNAUTHENTICATED');
    await t.store.setTenantDisabled(c.creds.apiKey, false);
    await ok(await as(ana, P.notificationsGet, { organizationId: org }));
    await t.store.revokeTenant(c.creds.apiKey, now);
    expectError(await as(ana, P.notificationsGet, { organizationId: org }), 401, 'UNAUTHENTICATED');
  });
});

describe('end users: browsers', () => {
  test('a listed origin or one of the tenant domains is answered with CORS headers; any other is refused', async () => {
    const { org, ana } = await world();
    const listed = await as(ana, P.notificationsCount, { organizationId: org, userId: 'ana' }, { origin: 'https://app.example' });
    await ok(listed);
    assert.equal(listed.headers['access-control-allow-origin'], 'https://app.example');
    const other = await as(ana, P.notificationsCount, { organizationId: org, userId: 'ana' }, { origin: 'https://evil.example' });
    denied(other, 'Origin https://evil.example');
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    await t.a.ok(P.domainsAdd, { domains: ['https://evil.example'] });
    const allowed = await as(
      ana,
      P.notificationsCount,
      { organizationId: org, userId: 'ana' },
      { origin: 'https://evil.example' },
    );
    await ok(allowed);
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://evil.example');
    // The server credentials are not touched by the tenant's domains.
    const server = await t.a.post(
      P.notificationsCount,
      { organizationId: org, userId: 'ana' },
      { headers: { origin: 'https://evil.example' } },
    );
    assert.equal(server.status, 200);
    assert.equal(server.headers['access-control-allow-origin'], undefined);
  });
});

describe('end users: rate limits', () => {
  test('each end user has a budget of their own beside the tenant', async () => {
    const limited = await makeTestApp({ clock: () => now, config: { endUserRateLimit: 1 } });
    try {
      const org = uniq('org');
      const token = async (userId: string) =>
        (await limited.a.ok(P.authTokenGet, { userId, userProperties: { organizationId: org } })).data.token;
      const [ana, bo] = [await token('ana'), await token('bo')];
      const call = (tk: string) =>
        limited.request(P.notificationsCount, {
          body: { data: { organizationId: org, userId: tk === ana ? 'ana' : 'bo' } },
          headers: { authorization: `Bearer ${tk}` },
        });
      // A burst of twice the rate, then 429 for her alone.
      assert.equal((await call(ana)).status, 200);
      assert.equal((await call(ana)).status, 200);
      const refused = await call(ana);
      expectError(refused, 429, 'RESOURCE_EXHAUSTED', 'this end user');
      assert.ok(refused.headers['retry-after']);
      assert.equal((await call(bo)).status, 200);
      // The server credentials keep their own budget.
      assert.equal((await limited.a.post(P.notificationsCount, { organizationId: org, userId: 'ana' })).status, 200);
    } finally {
      await limited.close();
    }
  });
});
