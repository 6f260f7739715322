// An organization's folder tree.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { FolderAccess, FolderRecord, FolderWrite } from '../../domain/organizations.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { foldersWritten } from './events.js';
import * as folders from './folders.js';

export const foldersStore = (core: StoreCore) => ({
  /** folders/add: creates each under its parent (which must exist), or renames and moves one that exists. */
  addFolders(
    tenantId: string,
    organizationId: string,
    entries: readonly FolderWrite[],
    now: number,
    maxDepth?: number,
  ): Maybe<void> {
    return core.emitting(
      'addFolders',
      tenantId,
      now,
      () => folders.add(tenantId, organizationId, entries, now, maxDepth),
      () =>
        foldersWritten(
          'folder.add',
          tenantId,
          organizationId,
          entries.map((e) => e.folderId),
        ),
    );
  },

  /** folders/update: renames and moves those that exist; answers which did. */
  updateFolders(
    tenantId: string,
    organizationId: string,
    entries: readonly FolderWrite[],
    now: number,
    maxDepth?: number,
  ): Maybe<Set<string>> {
    return core.emitting(
      'updateFolders',
      tenantId,
      now,
      () => folders.update(tenantId, organizationId, entries, now, maxDepth),
      (updated) =>
        foldersWritten(
          'folder.update',
          tenantId,
          organizationId,
          entries.map((e) => e.folderId).filter((id) => updated.has(id)),
        ),
    );
  },

  /** folders/delete: with their subtrees, their documents left in no folder; answers the ids that existed. */
  deleteFolders(tenantId: string, organizationId: string, folderIds: readonly string[], now: number): Maybe<Set<string>> {
    // Every folder that goes, the subfolders of those named included, is told of where it goes (folders.ts).
    return core.emitting('deleteFolders', tenantId, now, () => folders.remove(tenantId, organizationId, folderIds, now));
  },

  /** folders/access/update: answers the ids that exist. */
  setFolderAccess(
    tenantId: string,
    organizationId: string,
    folderIds: readonly string[],
    access: FolderAccess,
    now: number,
  ): Maybe<Set<string>> {
    return core.emitting(
      'setFolderAccess',
      tenantId,
      now,
      () => folders.setAccess(tenantId, organizationId, folderIds, access, now),
      (done) =>
        foldersWritten(
          'folder.update',
          tenantId,
          organizationId,
          folderIds.filter((id) => done.has(id)),
        ),
    );
  },

  /** Every folder of the organization, in id order. */
  getFolders(tenantId: string, organizationId: string): Maybe<FolderRecord[]> {
    return core.read('getFolders', () => folders.listAll(tenantId, organizationId));
  },
});

export type FoldersStore = ReturnType<typeof foldersStore>;
