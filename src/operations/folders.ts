// Folders of documents.
import { operation } from './operation.js';
import { FoldersAccessBody, FoldersBody, FoldersDeleteBody, FoldersGetBody } from '../schemas/folders.js';
import { AccessResult, FolderListResult, FoldersResult, answers } from '../schemas/responses.js';
import { addFolders, deleteFolders, getFolders, setFolderAccess, updateFolders } from '../services/folders.js';

/** Folders of documents. */
export const folders = [
  operation({
    paths: { v1: 'organizations/folders/add' },
    summary: 'Create folders under a parent that exists, or at the top (SPEC 12)',
    tags: ['organizations'],
    body: FoldersBody,
    response: answers(FoldersResult, [404]),
    run: addFolders,
    answer: 'Folder created successfully.',
  }),
  operation({
    paths: { v1: 'organizations/folders/get' },
    summary: 'Every folder of an organization, flat; or one folder with its whole subtree (SPEC 12)',
    tags: ['organizations'],
    body: FoldersGetBody,
    response: answers(FolderListResult),
    run: getFolders,
    answer: 'Folders retrieved successfully.',
  }),
  operation({
    paths: { v1: 'organizations/folders/update' },
    summary: 'Rename and move folders that exist (SPEC 12)',
    tags: ['organizations'],
    body: FoldersBody,
    response: answers(FoldersResult, [404]),
    run: updateFolders,
    answer: 'Folder Updated successfully.',
  }),
  operation({
    paths: { v1: 'organizations/folders/delete' },
    summary: 'Delete folders with their subtrees; their documents move to no folder (extension, SPEC 12)',
    tags: ['organizations'],
    body: FoldersDeleteBody,
    response: answers(FoldersResult),
    run: deleteFolders,
    answer: 'Folder(s) deleted successfully.',
  }),
  operation({
    paths: { v1: 'organizations/folders/access/update' },
    summary: "Set folders' access type (SPEC 12)",
    tags: ['organizations'],
    body: FoldersAccessBody,
    response: answers(AccessResult),
    run: setFolderAccess,
    answer: 'Updated access for folders successfully.',
  }),
];
