// /v2's organizations/folders/delete (docs/api.md, "Version 2"), on the configured database: one folder, deleted
// with its subfolders and every document in them, answered as its page shows; v1's folders/delete keeps its own
// meaning and answers (documents stay, in no folder); errors and tenant isolation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type TestApp, v2 } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const DELETE_V2 = v2(PATHS.foldersDelete);

/** f1 > f2 > f3, and f4 beside; a document in f1, one in f3, one in f4 and one in no folder, each with a thread. */
async function tree(org: string): Promise<void> {
  await t.a.ok(PATHS.foldersAdd, {
    organizationId: org,
    folders: [
      { folderId: 'f1' },
      { folderId: 'f2', parentFolderId: 'f1' },
      { folderId: 'f3', parentFolderId: 'f2' },
      { folderId: 'f4' },
    ],
  });
  for (const [documentId, folderId] of [
    ['in-f1', 'f1'],
    ['in-f3', 'f3'],
    ['in-f4', 'f4'],
    ['loose', null],
  ] as const) {
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, ...(folderId ? { folderId } : {}), documents: [{ documentId }] });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId,
      commentAnnotations: [{ annotationId: 'a', commentData: [{ commentText: 'x', from: { userId: 'u' } }] }],
    });
  }
}

const documentIds = async (org: string) =>
  ((await t.a.ok(PATHS.documentsGet, { organizationId: org })).data as any[]).map((d) => d.id);
const folderIds = async (org: string) =>
  ((await t.a.ok(PATHS.foldersGet, { organizationId: org })).data as any[]).map((f) => f.folderId).sort();

describe('/v2 folders/delete', () => {
  test('deletes the folder, its subfolders and the documents in any of them, with what they hold; answers null', async () => {
    const org = uniq('org');
    await tree(org);
    const r = await t.a.post(DELETE_V2, { organizationId: org, folderId: 'f1' });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, { result: { status: 'success', message: 'Folder deletion initiated successfully.', data: null } });
    assert.deepEqual(await folderIds(org), ['f4']);
    assert.deepEqual(await documentIds(org), ['in-f4', 'loose']);
    for (const documentId of ['in-f1', 'in-f3'])
      assert.deepEqual(
        (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId })).data,
        [],
        `${documentId}'s threads`,
      );
    assert.equal((await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'in-f4' })).data.length, 1);
  });

  test('v1 keeps its meaning: the folders go, their documents stay in no folder, answered per folder', async () => {
    const org = uniq('org');
    await tree(org);
    const r = await t.a.ok(PATHS.foldersDelete, { organizationId: org, folderIds: ['f1'] });
    assert.equal(r.message, 'Folder(s) deleted successfully.');
    assert.deepEqual(r.data, { f1: { success: true, id: 'f1', message: 'Folder deleted.' } });
    assert.deepEqual(await documentIds(org), ['in-f1', 'in-f3', 'in-f4', 'loose']);
  });

  test("a folder the organization does not have is 404 Folder not found.; v1's body is refused on /v2", async () => {
    const org = uniq('org');
    await tree(org);
    assert.equal(
      expectError(await t.a.post(DELETE_V2, { organizationId: org, folderId: 'ghost' }), 404, 'NOT_FOUND'),
      'Folder not found.',
    );
    expectError(await t.a.post(DELETE_V2, { organizationId: org, folderIds: ['f1'] }), 400, 'INVALID_ARGUMENT');
    assert.deepEqual(await folderIds(org), ['f1', 'f2', 'f3', 'f4'], 'nothing deleted');
  });

  test("another tenant's folder is not found, and nothing of it goes", async () => {
    const org = uniq('org');
    await tree(org);
    expectError(await t.b.post(DELETE_V2, { organizationId: org, folderId: 'f1' }), 404, 'NOT_FOUND');
    assert.deepEqual(await folderIds(org), ['f1', 'f2', 'f3', 'f4']);
    assert.deepEqual(await documentIds(org), ['in-f1', 'in-f3', 'in-f4', 'loose']);
  });

  test('documents are read and deleted a page of MARGINALIA_FOLDER_DELETION_BATCH_SIZE at a time, each page before the next', async () => {
    const fresh = await makeTestApp({ config: { folderDeletionBatchSize: 2 } });
    try {
      const org = 'org';
      await fresh.a.ok(PATHS.foldersAdd, {
        organizationId: org,
        folders: [{ folderId: 'f1' }, { folderId: 'f2', parentFolderId: 'f1' }],
      });
      const inF1 = ['d1', 'd2', 'd3', 'd4', 'd5'];
      await fresh.a.ok(PATHS.documentsAdd, {
        organizationId: org,
        folderId: 'f1',
        documents: inF1.map((documentId) => ({ documentId })),
      });
      await fresh.a.ok(PATHS.documentsAdd, { organizationId: org, folderId: 'f2', documents: [{ documentId: 'e1' }] });
      await fresh.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'loose' }] });
      const calls: string[] = [];
      fresh.store.observeCalls!((method) => {
        if (method === 'getDocuments' || method === 'markDocumentDeleting')
          calls.push(method === 'getDocuments' ? 'read' : 'delete');
      });
      await fresh.a.ok(DELETE_V2, { organizationId: org, folderId: 'f1' });
      fresh.store.observeCalls!(null);
      // f1: pages of 2, 2 and 1, each deleted before the next is read; then f2's one.
      assert.deepEqual(calls, ['read', 'delete', 'delete', 'read', 'delete', 'delete', 'read', 'delete', 'read', 'delete']);
      assert.deepEqual(
        ((await fresh.a.ok(PATHS.documentsGet, { organizationId: org })).data as any[]).map((d) => d.id),
        ['loose'],
      );
    } finally {
      await fresh.close();
    }
  });

  test('a disabled organization refuses it', async () => {
    const org = uniq('org');
    await tree(org);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    expectError(await t.a.post(DELETE_V2, { organizationId: org, folderId: 'f1' }), 403, 'PERMISSION_DENIED');
    assert.deepEqual(await folderIds(org), ['f1', 'f2', 'f3', 'f4']);
  });
});
