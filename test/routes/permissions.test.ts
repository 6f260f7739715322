// Users' roles (docs/api.md, "Permissions (/v2)") on the configured database: auth/permissions/add, get and
// remove as their pages show them; roles from users/add|update `accessRole` and a v2 token's resources; what
// get decides for folders and documents (access types, a folder's role over its subtree, a document's own,
// expiry); auth/generate_signature; refusals with the pages' codes; credentials first and tenants apart.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type TestApp, v2 } from '../helpers/app.js';
import { eventsSince, lastEventId, tenantIdOf } from '../helpers/events.js';
import { expectMissingCredentials } from '../helpers/security.js';

let now = Date.UTC(2025, 0, 15, 12);
let t: TestApp;
before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const P = PATHS;
const seconds = (ms: number) => Math.floor(ms / 1000);

const grant = (userId: string, resources: unknown[], c = t.a) =>
  c.post(P.permissionsAdd, { user: { userId }, permissions: { resources } });
const get = async (data: Record<string, unknown>, c = t.a) => (await c.ok(P.permissionsGet, data)).data;

/** An organization with a folder tree f1 > f2, documents in f2 and at the top, and a member `m`. */
async function organization(): Promise<string> {
  const org = uniq('org');
  await t.a.ok(P.usersAdd, { organizationId: org, users: [{ userId: 'm', name: 'M' }] });
  await t.a.ok(P.foldersAdd, {
    organizationId: org,
    folders: [{ folderId: 'f1' }, { folderId: 'f2', parentFolderId: 'f1' }],
  });
  await t.a.ok(P.documentsAdd, { organizationId: org, folderId: 'f2', documents: [{ documentId: 'in-f2' }] });
  await t.a.ok(P.documentsAdd, { organizationId: org, documents: [{ documentId: 'top' }] });
  return org;
}

describe('permissions: the pages', () => {
  test("add answers the page's message; get shows the roles, and decides each document named", async () => {
    const org = await organization();
    const r = await grant('u', [
      { type: 'organization', id: org, accessRole: 'viewer' },
      { type: 'document', id: 'top', organizationId: org, accessRole: 'editor', expiresAt: seconds(now) + 3600 },
    ]);
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, { result: { status: 'success', message: 'Permissions added successfully.' } });
    const data = await get({ organizationId: org, userIds: ['u'], documentIds: ['top', 'in-f2'] });
    assert.deepEqual(data, {
      u: {
        organization: { [org]: { accessRole: 'viewer' } },
        documents: {
          top: { accessRole: 'editor', accessType: 'organizationPrivate', expiresAt: seconds(now) + 3600 },
          'in-f2': { accessRole: 'viewer', accessType: 'organizationPrivate' },
        },
      },
    });
  });

  test('a folder role covers its subtree unless the document says otherwise; an expired role counts for nothing', async () => {
    const org = await organization();
    await t.a.ok(P.documentsAccess, { organizationId: org, documentIds: ['in-f2', 'top'], accessType: 'restricted' });
    const decided = async (userId: string) =>
      (await get({ organizationId: org, userIds: [userId], documentIds: ['in-f2', 'top'], folderIds: ['f2'] }))[userId];
    let u = await decided('m');
    assert.deepEqual(u.documents['in-f2'], {
      error: 'User does not have access to document',
      errorCode: 'permission_denied',
      accessType: 'restricted',
    });
    await grant('m', [{ type: 'folder', id: 'f1', organizationId: org, accessRole: 'viewer' }]);
    u = await decided('m');
    assert.deepEqual(u.documents['in-f2'], { accessRole: 'viewer', accessType: 'restricted' }, 'f1 covers f2 and its document');
    assert.equal(u.documents.top.errorCode, 'permission_denied', 'a document outside the folder stays closed');
    assert.equal(u.folders.f2.accessRole, 'viewer');
    await grant('m', [
      { type: 'document', id: 'in-f2', organizationId: org, accessRole: 'editor', expiresAt: seconds(now) + 60 },
    ]);
    assert.equal((await decided('m')).documents['in-f2'].accessRole, 'editor', 'the document says otherwise');
    now += 61_000;
    u = await decided('m');
    assert.equal(u.documents['in-f2'].accessRole, 'viewer', 'expired: the folder role applies again');
    assert.equal(u.documents['in-f2'].expiresAt, undefined);
  });

  test('remove takes roles away; a resource without one is skipped', async () => {
    const org = await organization();
    await grant('r', [
      { type: 'organization', id: org },
      { type: 'folder', id: 'f1', organizationId: org },
    ]);
    const r = await t.a.post(P.permissionsRemove, {
      userId: 'r',
      permissions: {
        resources: [
          { type: 'folder', id: 'f1', organizationId: org },
          { type: 'document', id: 'top', organizationId: org },
        ],
      },
    });
    assert.deepEqual(r.json, { result: { status: 'success', message: 'Permissions removed successfully.' } });
    assert.deepEqual(await get({ organizationId: org, userIds: ['r'] }), {
      r: { organization: { [org]: { accessRole: 'editor' } } },
    });
  });

  test('users/add and users/update accessRole, and a v2 token, give roles; every change is an event', async () => {
    const org = await organization();
    const tenantId = await tenantIdOf(t, t.a);
    const from = await lastEventId(t, tenantId);
    await t.a.ok(v2(P.usersAdd), { organizationId: org, users: [{ userId: 'x', accessRole: 'viewer' }] });
    await t.a.ok(v2(P.usersAdd), { organizationId: org, documentId: 'top', users: [{ userId: 'y', accessRole: 'viewer' }] });
    await t.a.ok(v2(P.usersUpdate), {
      organizationId: org,
      users: [
        { userId: 'x', accessRole: 'editor' },
        { userId: 'nobody', accessRole: 'viewer' },
      ],
    });
    await t.a.ok(P.authGenerateToken, {
      userId: 'z',
      userProperties: { name: 'Z', email: 'z@example.com' },
      permissions: { resources: [{ type: 'folder', id: 'f2', organizationId: org, accessRole: 'viewer' }] },
    });
    const data = await get({ organizationId: org, userIds: ['x', 'y', 'z', 'nobody'] });
    assert.deepEqual(data, {
      x: { organization: { [org]: { accessRole: 'editor' } } },
      y: { documents: { top: { accessRole: 'viewer', accessType: 'organizationPrivate' } } },
      z: { folders: { f2: { accessRole: 'viewer', accessType: 'organizationPrivate' } } },
      nobody: {},
    });
    const events = (await eventsSince(t, tenantId, from)).filter((e) => e.type.startsWith('user.permissions'));
    assert.deepEqual(
      events.map((e) => [e.type, e.data.userId, e.data.resources]),
      [
        ['user.permissions_add', 'x', [{ type: 'organization', id: org, accessRole: 'viewer' }]],
        ['user.permissions_add', 'y', [{ type: 'document', id: 'top', accessRole: 'viewer' }]],
        ['user.permissions_add', 'x', [{ type: 'organization', id: org, accessRole: 'editor' }]],
        ['user.permissions_add', 'z', [{ type: 'folder', id: 'f2', accessRole: 'viewer' }]],
      ],
    );
  });

  test('roles on a document or folder go with it: one made again under the same id starts with none', async () => {
    const org = await organization();
    await grant('g', [
      { type: 'document', id: 'top', organizationId: org, accessRole: 'viewer' },
      { type: 'folder', id: 'f2', organizationId: org, accessRole: 'viewer' },
    ]);
    await t.a.ok(P.documentsDelete, { organizationId: org, documentIds: ['top'] });
    await t.a.ok(P.foldersDelete, { organizationId: org, folderIds: ['f2'] });
    assert.deepEqual(await get({ organizationId: org, userIds: ['g'] }), { g: {} });
  });

  test('a folder or document named that does not exist: NOT_FOUND with every entry in details', async () => {
    const org = await organization();
    const r = await t.a.post(P.permissionsGet, { organizationId: org, userIds: ['m'], documentIds: ['top', 'gone'] });
    assert.equal(expectError(r, 404, 'NOT_FOUND'), 'Folder or document does not exist');
    assert.deepEqual(r.json.error.details, {
      m: {
        documents: {
          top: { accessRole: 'editor', accessType: 'organizationPrivate' },
          gone: { error: 'Document does not exist', errorCode: 'does_not_exist' },
        },
      },
    });
  });

  test('generate_signature: HMAC-SHA256 hex of the decisions, the same for the same decisions, per tenant', async () => {
    const permissions = [
      { userId: 'user123', resourceId: 'document456', type: 'document', hasAccess: true, accessRole: 'viewer' },
    ];
    const sign = async (data: unknown, c = t.a) => (await c.ok(P.generateSignature, data)).data.signature as string;
    const a1 = await sign({ permissions });
    assert.match(a1, /^[0-9a-f]{64}$/);
    assert.equal(await sign({ permissions }), a1, 'the same decisions, the same signature');
    assert.notEqual(await sign({ permissions: [{ ...permissions[0], hasAccess: false }] }), a1, 'another decision, another');
    assert.notEqual(await sign({ permissions }, t.b), a1, "another tenant's key");
    // Not the token key itself: a signature is never an end-user token's HMAC.
    const key = (await t.db.query(`SELECT secret FROM tenant_signing_keys WHERE tenant_id = '${await tenantIdOf(t, t.a)}'`))[0]!
      .secret;
    const text = JSON.stringify(permissions);
    assert.notEqual(
      createHmac('sha256', Buffer.from(String(key), 'hex'))
        .update(text)
        .digest('hex'),
      a1,
    );
  });
});

describe('permissions: errors', () => {
  test('the request rules: INVALID_ARGUMENT, nothing written', async () => {
    const org = await organization();
    for (const resources of [
      [{ type: 'document', id: 'top' }],
      [{ type: 'workspace', id: 'w' }],
      [{ type: 'organization', id: org, accessRole: 'owner' }],
      [{ type: 'organization', id: org, expiresAt: -1 }],
      [],
    ])
      expectError(await grant('e', resources), 400, 'INVALID_ARGUMENT');
    expectError(await t.a.post(P.permissionsGet, { organizationId: org, userIds: [] }), 400, 'INVALID_ARGUMENT');
    const many = Array.from({ length: 100 }, (_, i) => `u${i}`);
    const docs = Array.from({ length: 11 }, (_, i) => `d${i}`);
    const tooMany = await t.a.post(P.permissionsGet, { organizationId: org, userIds: many, documentIds: docs });
    assert.match(expectError(tooMany, 400, 'INVALID_ARGUMENT'), /At most 1000 decisions/);
    expectError(
      await t.a.post(P.generateSignature, { permissions: [{ userId: 'u', resourceId: 'r', type: 'document' }] }),
      400,
      'INVALID_ARGUMENT',
    );
    assert.deepEqual(await get({ organizationId: org, userIds: ['e'] }), { e: {} });
  });

  test('served on /v2 only', async () => {
    for (const path of [P.permissionsAdd, P.permissionsGet, P.permissionsRemove, P.generateSignature])
      assert.equal((await t.a.post(path.replace('/v2/', '/v1/'), {})).status, 404, path);
  });
});

describe('permissions: security', () => {
  test('credentials are checked first', async () => {
    for (const path of [P.permissionsAdd, P.permissionsGet, P.permissionsRemove, P.generateSignature])
      await expectMissingCredentials(t, path, { data: {} });
  });

  test("another tenant reads none of a's roles and removes none", async () => {
    const org = await organization();
    await grant('s', [{ type: 'organization', id: org, accessRole: 'viewer' }]);
    assert.deepEqual(await get({ organizationId: org, userIds: ['s'] }, t.b), { s: {} });
    await t.b.ok(P.permissionsRemove, { userId: 's', permissions: { resources: [{ type: 'organization', id: org }] } });
    assert.deepEqual(await get({ organizationId: org, userIds: ['s'] }), {
      s: { organization: { [org]: { accessRole: 'viewer' } } },
    });
  });
});
