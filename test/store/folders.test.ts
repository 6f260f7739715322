// Folders in the store (docs/api.md, "Folders") at the sizes the service must carry: 10,000 folders under one
// parent and a chain 50 levels deep, with no recursion in JavaScript or SQL and lists bound as one parameter;
// and no chain deeper than FOLDER_DEPTH_CEILING, whose nested subtree still serializes.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { Refusal } from '../../src/domain/refusal.js';
import { subtree } from '../../src/services/folders.js';
import { FOLDER_DEPTH_CEILING } from '../../src/domain/folder-tree.js';
import { TEST_STORE } from '../helpers/test-database.js';
import { ORG, T0, TA, TB, eq, storeTest } from '../helpers/store-fixtures.js';

const WIDE = 10_000;
const DEEP = 50;

const refused = (code: string) => (err: unknown) => err instanceof Refusal && err.code === code;

describe(`${TEST_STORE} store: folders`, () => {
  storeTest(
    '10,000 folders under one parent: added, read flat and as a subtree, refused a cycle, deleted whole',
    async (store) => {
      const children = Array.from({ length: WIDE }, (_, i) => `c-${String(i).padStart(5, '0')}`);
      await store.addFolders(TA, ORG, [{ folderId: 'top', name: 'Top', parentId: null }], T0);
      await store.addFolders(
        TA,
        ORG,
        children.map((folderId) => ({ folderId, name: null, parentId: 'top' })),
        T0,
      );
      await store.addDocuments(TA, ORG, children[WIDE - 1]!, [{ documentId: 'in-last', name: null }], T0);
      await store.addFolders(TB, ORG, [{ folderId: 'top', name: 'Theirs', parentId: null }], T0);
      const all = await store.getFolders(TA, ORG);
      eq(all.length, WIDE + 1, 'every folder, flat');
      const tree = subtree(all, 'top', ORG)!;
      eq(tree.subFolders!.length, WIDE, 'the subtree holds every child');
      eq(tree.subFolders![0]!.folderId, children[0], 'children in folderId order');
      await assert.rejects(
        async () => store.updateFolders(TA, ORG, [{ folderId: 'top', name: null, parentId: children[5_000]! }], T0 + 1),
        refused('INVALID_ARGUMENT'),
      );
      const deleted = await store.deleteFolders(TA, ORG, ['top'], T0 + 2);
      eq([...deleted], ['top'], 'answers the ids asked for');
      eq(await store.getFolders(TA, ORG), [], 'the whole subtree is gone');
      const [doc] = await store.getDocuments(TA, {
        organizationId: ORG,
        documentIds: ['in-last'],
        folder: undefined,
        after: null,
        limit: 10,
      });
      eq(doc?.folderId, null, 'its document stays, in no folder');
      eq(
        (await store.getFolders(TB, ORG)).map((f) => f.name),
        ['Theirs'],
        "another tenant's folder of the same id stays",
      );
    },
  );

  storeTest('a chain 50 levels deep: made in one call, a subtree nested 50 deep, no move under itself', async (store) => {
    const ids = Array.from({ length: DEEP }, (_, i) => `l-${String(i).padStart(2, '0')}`);
    await store.addFolders(
      TA,
      ORG,
      ids.map((folderId, i) => ({ folderId, name: null, parentId: i ? ids[i - 1]! : null })),
      T0,
    );
    const tree = subtree(await store.getFolders(TA, ORG), ids[0]!, ORG)!;
    const walked: string[] = [];
    for (let at: typeof tree | undefined = tree; at; at = at.subFolders?.[0]) walked.push(at.folderId);
    eq(walked, ids, 'nested in order');
    for (const under of [ids[DEEP - 1]!, ids[0]!]) {
      await assert.rejects(
        async () => store.updateFolders(TA, ORG, [{ folderId: ids[0]!, name: null, parentId: under }], T0 + 1),
        refused('INVALID_ARGUMENT'),
      );
    }
    await assert.rejects(
      async () => store.addFolders(TA, ORG, [{ folderId: 'x', name: null, parentId: 'missing' }], T0),
      refused('NOT_FOUND'),
    );
    await store.updateFolders(TA, ORG, [{ folderId: ids[10]!, name: 'moved', parentId: null }], T0 + 2);
    const flat = await store.getFolders(TA, ORG);
    eq(flat.find((f) => f.folderId === ids[10])?.parentId, null, 'moved to the top');
    eq(subtree(flat, ids[0]!, ORG) !== null, true, 'the rest stays');
    eq([...(await store.deleteFolders(TA, ORG, [ids[0]!, ids[10]!], T0 + 3))].sort(), [ids[0], ids[10]], 'both trees');
    eq(await store.getFolders(TA, ORG), [], 'all gone');
  });

  storeTest(
    'no folder deeper than FOLDER_DEPTH_CEILING: a chain that deep serializes, one more level is refused',
    async (store) => {
      const ids = Array.from({ length: FOLDER_DEPTH_CEILING }, (_, i) => `d-${String(i).padStart(4, '0')}`);
      await store.addFolders(
        TA,
        ORG,
        ids.map((folderId, i) => ({ folderId, name: null, parentId: i ? ids[i - 1]! : null })),
        T0,
      );
      const flat = await store.getFolders(TA, ORG);
      eq(JSON.parse(JSON.stringify(subtree(flat, ids[0]!, ORG))).folderId, ids[0], 'the deepest subtree serializes');
      await assert.rejects(
        async () => store.addFolders(TA, ORG, [{ folderId: 'one-more', name: null, parentId: ids.at(-1)! }], T0 + 1),
        refused('INVALID_ARGUMENT'),
      );
      await store.addFolders(TA, ORG, [{ folderId: 'side', name: null, parentId: null }], T0 + 1);
      await assert.rejects(
        async () => store.updateFolders(TA, ORG, [{ folderId: ids[0]!, name: null, parentId: 'side' }], T0 + 2),
        refused('INVALID_ARGUMENT'),
      );
      eq((await store.getFolders(TA, ORG)).length, FOLDER_DEPTH_CEILING + 1, 'nothing more was written');
    },
  );
});
