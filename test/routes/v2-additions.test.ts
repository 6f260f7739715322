// What /v2 adds to the operations it shares with v1 (docs/api.md, "Version 2"), on the configured database: the
// next-page token under each page's name, users/get by every document (allDocuments, groupByDocumentId),
// notifications/get oldest first (order), folders/get to a depth with ancestors and the inheritance of access,
// folders/access/update's inheritFromParent, folders/add's accessType, and the documents operations' partial
// failures (500 INTERNAL with details, the rest done). And that v1 answers the same requests as it always has.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type TestApp, user, v2 } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;

describe('/v2 next-page tokens', () => {
  test('users/get and organizations/get name it nextPageToken on /v2, pageToken on v1; each version reads its own', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1'), user('u2'), user('u3')] });
    const first = await t.a.ok(v2(PATHS.usersGet), { organizationId: org, pageSize: 2 });
    assert.deepEqual(
      first.data.map((u: any) => u.userId),
      ['u1', 'u2'],
    );
    assert.equal(typeof first.nextPageToken, 'string');
    assert.equal(first.pageToken, undefined);
    const rest = await t.a.ok(v2(PATHS.usersGet), { organizationId: org, pageSize: 2, pageToken: first.nextPageToken });
    assert.deepEqual(
      rest.data.map((u: any) => u.userId),
      ['u3'],
    );
    assert.equal(rest.nextPageToken, undefined, 'the last page has no token');
    const v1 = await t.a.ok(PATHS.usersGet, { organizationId: org, pageSize: 2 });
    assert.equal(v1.pageToken, first.nextPageToken, 'the same token, under v1 its own name');
    assert.equal(v1.nextPageToken, undefined);

    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: `${org}-a` }, { organizationId: `${org}-b` }] });
    const orgs = await t.a.ok(v2(PATHS.organizationsGet), { organizationIds: [`${org}-a`, `${org}-b`], pageSize: 1 });
    assert.equal(typeof orgs.nextPageToken, 'string');
    assert.equal(orgs.pageToken, undefined);
  });
});

describe('users/get allDocuments', () => {
  test('members of any document (not the organization-only ones), listed or grouped by document, paged', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('only-org')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd1', users: [user('u1'), user('u2')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd2', users: [user('u2'), user('u3')] });
    const listed = await t.a.ok(v2(PATHS.usersGet), { organizationId: org, allDocuments: true });
    assert.deepEqual(
      listed.data.map((u: any) => u.userId),
      ['u1', 'u2', 'u3'],
      'each member once, in userId order',
    );

    const pages: Record<string, string[]>[] = [];
    let pageToken: string | undefined;
    do {
      const page = await t.a.ok(v2(PATHS.usersGet), {
        organizationId: org,
        allDocuments: true,
        groupByDocumentId: true,
        pageSize: 3,
        ...(pageToken ? { pageToken } : {}),
      });
      pages.push(Object.fromEntries(Object.entries(page.data).map(([doc, us]) => [doc, (us as any[]).map((u) => u.userId)])));
      pageToken = page.nextPageToken;
    } while (pageToken);
    assert.deepEqual(pages, [{ d1: ['u1', 'u2'], d2: ['u2'] }, { d2: ['u3'] }], 'by (documentId, userId), three to a page');

    const someone = await t.a.ok(v2(PATHS.usersGet), {
      organizationId: org,
      allDocuments: true,
      groupByDocumentId: true,
      userIds: ['u2'],
    });
    assert.deepEqual(Object.keys(someone.data), ['d1', 'd2']);
  });

  test('groupByDocumentId without allDocuments, and allDocuments with a document, are refused', async () => {
    const org = uniq('org');
    expectError(
      await t.a.post(v2(PATHS.usersGet), { organizationId: org, groupByDocumentId: true }),
      400,
      'INVALID_ARGUMENT',
      'groupByDocumentId',
    );
    expectError(
      await t.a.post(v2(PATHS.usersGet), { organizationId: org, allDocuments: true, documentId: 'd1' }),
      400,
      'INVALID_ARGUMENT',
      'allDocuments',
    );
  });
});

describe('notifications/get order', () => {
  test('"asc" pages oldest first, "desc" (the default) newest first; a token is good for its own order only', async () => {
    const org = uniq('org');
    for (const id of ['n1', 'n2', 'n3']) {
      await t.a.ok(PATHS.notificationsAdd, {
        organizationId: org,
        documentId: 'doc',
        notificationId: id,
        actionUser: user('actor'),
        displayHeadlineMessageTemplate: id,
        notifyUsers: [{ userId: 'reader' }],
      });
    }
    const read = async (path: string, order: string | undefined, byUser: boolean) => {
      const ids: string[] = [];
      let pageToken: string | undefined;
      do {
        const page = await t.a.ok(path, {
          organizationId: org,
          ...(byUser ? { userId: 'reader' } : { documentId: 'doc' }),
          pageSize: 2,
          ...(order ? { order } : {}),
          ...(pageToken ? { pageToken } : {}),
        });
        ids.push(...page.data.map((n: any) => n.id));
        pageToken = page.pageToken;
      } while (pageToken);
      return ids;
    };
    for (const byUser of [false, true]) {
      for (const path of [PATHS.notificationsGet, v2(PATHS.notificationsGet)]) {
        assert.deepEqual(await read(path, 'asc', byUser), ['n1', 'n2', 'n3'], `${path} asc, by user: ${byUser}`);
        assert.deepEqual(await read(path, undefined, byUser), ['n3', 'n2', 'n1'], `${path} default, by user: ${byUser}`);
        assert.deepEqual(await read(path, 'desc', byUser), ['n3', 'n2', 'n1'], `${path} desc, by user: ${byUser}`);
      }
    }
    const desc = await t.a.ok(v2(PATHS.notificationsGet), { organizationId: org, documentId: 'doc', pageSize: 1 });
    expectError(
      await t.a.post(v2(PATHS.notificationsGet), {
        organizationId: org,
        documentId: 'doc',
        order: 'asc',
        pageToken: desc.pageToken,
      }),
      400,
      'INVALID_ARGUMENT',
      'pageToken',
    );
    expectError(
      await t.a.post(v2(PATHS.notificationsGet), { organizationId: org, documentId: 'doc', order: 'up' }),
      400,
      'INVALID_ARGUMENT',
      'order',
    );
  });
});

describe('/v2 folders', () => {
  /** top > a > b > c, and top > z. */
  async function tree(org: string) {
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: [
        { folderId: 'top' },
        { folderId: 'a', parentFolderId: 'top' },
        { folderId: 'b', parentFolderId: 'a' },
        { folderId: 'c', parentFolderId: 'b', accessType: 'public' },
        { folderId: 'z', parentFolderId: 'top' },
      ],
    });
  }
  const nested = (f: any): unknown => (f.subFolders === undefined ? f.folderId : [f.folderId, f.subFolders.map(nested)]);

  test('get: one level of subFolders by default, maxDepth levels when asked; v1 answers the whole subtree', async () => {
    const org = uniq('org');
    await tree(org);
    const one = await t.a.ok(v2(PATHS.foldersGet), { organizationId: org, folderId: 'top' });
    assert.equal(one.message, 'Folder(s) retrieved successfully.');
    assert.deepEqual(one.data.map(nested), [['top', ['a', 'z']]]);
    const two = await t.a.ok(v2(PATHS.foldersGet), { organizationId: org, folderId: 'top', maxDepth: 2 });
    assert.deepEqual(two.data.map(nested), [
      [
        'top',
        [
          ['a', ['b']],
          ['z', []],
        ],
      ],
    ]);
    const v1 = await t.a.ok(PATHS.foldersGet, { organizationId: org, folderId: 'top' });
    assert.equal(v1.message, 'Folders retrieved successfully.');
    assert.deepEqual(v1.data.map(nested), [
      [
        'top',
        [
          ['a', [['b', [['c', []]]]]],
          ['z', []],
        ],
      ],
    ]);
    assert.equal(v1.data[0].ancestors, undefined, 'v1 shows no /v2 member');
    expectError(
      await t.a.post(v2(PATHS.foldersGet), { organizationId: org, folderId: 'top', maxDepth: 0 }),
      400,
      'INVALID_ARGUMENT',
      'maxDepth',
    );
  });

  test('get: apiKey, ancestors from "root" down, inheritAccessFromParent; the access type folders/add set', async () => {
    const org = uniq('org');
    await tree(org);
    const all = await t.a.ok(v2(PATHS.foldersGet), { organizationId: org });
    assert.equal(all.message, 'Folders retrieved successfully.');
    const c = all.data.find((f: any) => f.folderId === 'c');
    assert.deepEqual(c.ancestors, ['root', 'top', 'a', 'b']);
    assert.equal(c.apiKey, t.a.creds.apiKey);
    assert.equal(c.accessType, 'public');
    assert.equal(c.inheritAccessFromParent, false);
    assert.deepEqual(all.data.find((f: any) => f.folderId === 'top').ancestors, ['root']);
  });

  test('access/update: inheritFromParent alone keeps the access type; an access type alone stops the inheritance', async () => {
    const org = uniq('org');
    await tree(org);
    const inherit = await t.a.ok(v2(PATHS.foldersAccess), {
      organizationId: org,
      folderIds: ['c', 'nope'],
      inheritFromParent: true,
    });
    assert.equal(inherit.message, 'Folder access type updated.');
    assert.deepEqual(inherit.data.c, {
      success: true,
      accessType: null,
      inheritFromParent: true,
      message: 'Folder access type updated.',
    });
    assert.equal(inherit.data.nope.success, false);
    const shown = async () =>
      (await t.a.ok(v2(PATHS.foldersGet), { organizationId: org })).data.find((f: any) => f.folderId === 'c');
    assert.deepEqual([(await shown()).accessType, (await shown()).inheritAccessFromParent], ['public', true]);

    const own = await t.a.ok(v2(PATHS.foldersAccess), { organizationId: org, folderIds: ['c'], accessType: 'restricted' });
    assert.equal(own.message, 'Updated access for folders successfully.');
    assert.deepEqual(own.data.c, { success: true, accessType: 'restricted', message: 'Folder access type updated.' });
    assert.deepEqual([(await shown()).accessType, (await shown()).inheritAccessFromParent], ['restricted', false]);

    expectError(
      await t.a.post(v2(PATHS.foldersAccess), { organizationId: org, folderIds: ['c'] }),
      400,
      'INVALID_ARGUMENT',
      'accessType',
    );
    expectError(
      await t.a.post(PATHS.foldersAccess, { organizationId: org, folderIds: ['c'], inheritFromParent: true }),
      400,
      'INVALID_ARGUMENT',
      'accessType',
    );
  });
});

describe('/v2 documents: partial failures', () => {
  test('update and delete of a batch with an unknown document answer 500 INTERNAL with every entry; the rest is done', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd1' }, { documentId: 'd2' }] });
    const updated = await t.a.post(v2(PATHS.documentsUpdate), {
      organizationId: org,
      documents: [
        { documentId: 'd1', documentName: 'One' },
        { documentId: 'nope', documentName: 'x' },
      ],
    });
    assert.equal(updated.status, 500);
    assert.equal(updated.json.error.status, 'INTERNAL');
    assert.equal(updated.json.error.message, 'Error updating document(s).');
    assert.equal(updated.json.error.details.d1.success, true);
    assert.deepEqual(updated.json.error.details.nope, {
      success: false,
      id: 'nope',
      message: 'Document does not exist',
      code: 'not-found',
    });
    const names = await t.a.ok(PATHS.documentsGet, { organizationId: org });
    assert.equal(names.data.find((d: any) => d.id === 'd1').documentName, 'One', 'what could be done was done');

    const deleted = await t.a.post(v2(PATHS.documentsDelete), { organizationId: org, documentIds: ['d1', 'nope'] });
    assert.equal(deleted.status, 500);
    assert.equal(deleted.json.error.message, 'Error deleting document(s).');
    assert.equal(deleted.json.error.details.d1.message, 'Deleted Successfully');
    const v1 = await t.a.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['d2', 'nope'] });
    assert.equal(v1.message, 'Document(s) deleted successfully.', 'v1 answers the same batch as a success with its entries');
    assert.equal(v1.data.nope.success, false);
    const all = await t.a.ok(v2(PATHS.documentsDelete), { organizationId: org, documentIds: [] }).catch((e) => e);
    assert.ok(all instanceof Error, 'an empty batch is refused as on v1');
  });
});
