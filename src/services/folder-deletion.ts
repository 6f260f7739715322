// /v2's organizations/folders/delete (docs/api.md, "Version 2"): one folder and everything in it, as its page
// says: its subfolders, and the documents in any of them, each deleted as documents/delete deletes one
// (its threads, comments, notifications, memberships, settings and live state, in batches). v1's
// folders/delete keeps its own meaning: the folders go, their documents stay in no folder.
import { childrenOf, subtreeOf } from '../domain/folder-tree.js';
import { ApiError } from '../errors.js';
import type { FolderDeleteV2Data } from '../schemas/folders.js';
import type { Caller, Services } from './context.js';

/** Documents read a page at a time from each folder of the subtree. */
const DOCUMENTS_PAGE = 1000;

/**
 * The folder (NOT_FOUND when the organization has none of that id), its documents, then the folders.
 * Documents first: a failure part of the way leaves the folders, so the call can be made again. A document
 * added to one of them meanwhile is left in no folder, as v1's folders/delete leaves documents.
 */
export async function deleteFolderWithContents(
  { store, clock }: Services,
  caller: Caller,
  input: FolderDeleteV2Data,
): Promise<null> {
  const { organizationId, folderId } = input;
  const folders = await store.getFolders(caller.id, organizationId);
  if (!folders.some((f) => f.folderId === folderId)) throw new ApiError('NOT_FOUND', 'Folder not found.');
  const parents = new Map(folders.map((f) => [f.folderId, f.parentId]));
  const documents: string[] = [];
  for (const folder of subtreeOf(folderId, childrenOf(parents))) {
    for (let after: string | null = null; ; ) {
      const page = await store.getDocuments(caller.id, {
        organizationId,
        documentIds: null,
        folder,
        after,
        limit: DOCUMENTS_PAGE,
      });
      documents.push(...page.map((d) => d.documentId));
      if (page.length < DOCUMENTS_PAGE) break;
      after = page[page.length - 1]!.documentId;
    }
  }
  if (documents.length > 0) await store.deleteDocuments(caller.id, organizationId, documents, clock());
  await store.deleteFolders(caller.id, organizationId, [folderId], clock());
  return null;
}
