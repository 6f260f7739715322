// /v2's organizations/folders/delete (docs/api.md, "Version 2"): one folder and everything in it, as its page
// says: its subfolders, and the documents in any of them, each deleted as documents/delete deletes one
// (its threads, comments, notifications, memberships, settings and live state, in batches). v1's
// folders/delete keeps its own meaning: the folders go, their documents stay in no folder.
import { childrenOf, subtreeOf } from '../domain/folder-tree.js';
import { ApiError } from '../errors.js';
import type { FolderDeleteV2Data } from '../schemas/folders.js';
import type { Caller, Services } from './context.js';

/** MARGINALIA_FOLDER_DELETION_BATCH_SIZE unless set: the most document ids the deletion reads, and holds, at a time. */
export const DEFAULT_FOLDER_DELETION_BATCH = 1000;

/**
 * The folder (NOT_FOUND when the organization has none of that id), its documents, then the folders.
 * Documents first: a failure part of the way leaves the folders, so the call can be made again. Each folder's
 * documents are read a page at a time (MARGINALIA_FOLDER_DELETION_BATCH_SIZE ids) and each page deleted before
 * the next is read, so the ids held stay bounded however many documents the tree holds. A document added to
 * one of them meanwhile is left in no folder, as v1's folders/delete leaves documents.
 */
export async function deleteFolderWithContents(
  { store, clock, folderDeletionBatchSize }: Services,
  caller: Caller,
  input: FolderDeleteV2Data,
): Promise<null> {
  const { organizationId, folderId } = input;
  const pageSize = folderDeletionBatchSize ?? DEFAULT_FOLDER_DELETION_BATCH;
  const folders = await store.getFolders(caller.id, organizationId);
  if (!folders.some((f) => f.folderId === folderId)) throw new ApiError('NOT_FOUND', 'Folder not found.');
  const parents = new Map(folders.map((f) => [f.folderId, f.parentId]));
  for (const folder of subtreeOf(folderId, childrenOf(parents))) {
    // After the page's last id: a document another deletion holds (so not deleted here) is not read again.
    for (let after: string | null = null; ; ) {
      const page = await store.getDocuments(caller.id, { organizationId, documentIds: null, folder, after, limit: pageSize });
      if (page.length > 0)
        await store.deleteDocuments(
          caller.id,
          organizationId,
          page.map((d) => d.documentId),
          clock(),
        );
      if (page.length < pageSize) break;
      after = page[page.length - 1]!.documentId;
    }
  }
  await store.deleteFolders(caller.id, organizationId, [folderId], clock());
  return null;
}
