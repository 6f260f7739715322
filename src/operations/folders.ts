// Folders of documents.
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
  }),
];
