// Folders of documents.
import { success } from '../http/envelope.js';
import type { FoldersAccessData, FoldersAccessV2Data, FoldersGetData, FoldersGetV2Data } from '../schemas/folders.js';
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
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
