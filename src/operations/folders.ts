// Folders of documents.
import { success } from '../http/envelope.js';
import type { FoldersAccessData, FoldersAccessV2Data, FoldersGetData, FoldersGetV2Data } from '../schemas/folders.js';
import { operation, ownRun } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { answers, FolderDeletedResultV2 } from '../schemas/responses.js';
import { deleteFolderWithContents } from '../services/folder-deletion.js';
import { addFolders, deleteFolders, getFolders, setFolderAccess, updateFolders } from '../services/folders.js';

/** Folders of documents. */
export const folders = [
  operation(CONTRACT.foldersAdd, {
    run: addFolders,
    answer: 'Folder created successfully.',
  }),
  operation(CONTRACT.foldersGet, {
    run: getFolders,
    answer: 'Folders retrieved successfully.',
    adapters: {
      v2: {
        data: (data: FoldersGetData): FoldersGetV2Data => ({ ...data, v2: true }),
        // The /v2 page words the answer about one folder apart from the answer about all of them.
        answer: (folders, request) =>
          success(
            (request.body as { data: FoldersGetData }).data.folderId == null
              ? 'Folders retrieved successfully.'
              : 'Folder(s) retrieved successfully.',
            folders,
          ),
      },
    },
  }),
  operation(CONTRACT.foldersUpdate, {
    run: updateFolders,
    answer: 'Folder Updated successfully.',
  }),
  operation(CONTRACT.foldersDelete, {
    run: deleteFolders,
    answer: 'Folder(s) deleted successfully.',
    adapters: {
      // The /v2 page: one folder, deleted with what it holds, documents included; v1 keeps its answers.
      v2: ownRun({
        response: answers(FolderDeletedResultV2, [404]),
        run: deleteFolderWithContents,
        answer: 'Folder deletion initiated successfully.',
      }),
    },
  }),
  operation(CONTRACT.foldersAccess, {
    run: setFolderAccess,
    answer: 'Updated access for folders successfully.',
    adapters: {
      v2: {
        data: (data: FoldersAccessV2Data) => data as FoldersAccessData,
        // The /v2 page words the answer that sets the inheritance as its entries are worded.
        answer: (entries, request) =>
          success(
            (request.body as { data: FoldersAccessV2Data }).data.inheritFromParent == null
              ? 'Updated access for folders successfully.'
              : 'Folder access type updated.',
            entries,
          ),
      },
    },
  }),
];
