// Folders of documents.
import {
  FolderDeleteV2Body,
  FoldersAccessBody,
  FoldersAccessV2Body,
  FoldersAddBody,
  FoldersBody,
  FoldersDeleteBody,
  FoldersGetBody,
} from '../folders.js';
import { AccessResult, FolderAccessResultV2, FolderDeletedResultV2, FolderListResult, FoldersResult } from '../responses.js';
import { contract } from './contract.js';

export const folders = {
  foldersAdd: contract({
    paths: { v1: 'organizations/folders/add', v2: 'organizations/folders/add' },
    summary: 'Create folders under a parent that exists, or at the top',
    tags: ['organizations'],
    body: FoldersAddBody,
    example: {
      organizationId: 'acme',
      folders: [
        { folderId: 'specs', folderName: 'Specs' },
        { folderId: 'drafts', parentFolderId: 'specs' },
        { folderId: 'archive', folderName: 'Archive' },
      ],
    },
    result: FoldersResult,
    also: [404],
  }),
  foldersGet: contract({
    paths: { v1: 'organizations/folders/get', v2: 'organizations/folders/get' },
    summary: 'Every folder of an organization, flat; or one folder with its whole subtree',
    tags: ['organizations'],
    body: FoldersGetBody,
    example: { organizationId: 'acme', folderId: 'specs' },
    result: FolderListResult,
  }),
  foldersUpdate: contract({
    paths: { v1: 'organizations/folders/update', v2: 'organizations/folders/update' },
    summary: 'Rename and move folders that exist',
    tags: ['organizations'],
    body: FoldersBody,
    example: { organizationId: 'acme', folders: [{ folderId: 'drafts', folderName: 'Drafts', parentFolderId: 'root' }] },
    result: FoldersResult,
    also: [404],
  }),
  foldersDelete: contract({
    paths: { v1: 'organizations/folders/delete', v2: 'organizations/folders/delete' },
    summary: 'Delete folders with their subtrees; v1: their documents move to no folder; /v2: one folder, its documents deleted',
    description:
      'v1 (an extension): `folderIds`, answered per folder; the documents of the deleted folders stay, in no folder. ' +
      '/v2 (its page): one `folderId`, deleted with its subfolders and every document in them (as documents/delete ' +
      'deletes one); `data` is null; 404 `Folder not found.` for a folder the organization does not have.',
    tags: ['organizations'],
    body: FoldersDeleteBody,
    example: { organizationId: 'acme', folderIds: ['archive'] },
    result: FoldersResult,
    v2: { body: FolderDeleteV2Body, example: { organizationId: 'acme', folderId: 'specs' }, result: FolderDeletedResultV2 },
  }),
  foldersAccess: contract({
    paths: { v1: 'organizations/folders/access/update', v2: 'organizations/folders/access/update' },
    summary: "Set folders' access type",
    tags: ['organizations'],
    body: FoldersAccessBody,
    example: { organizationId: 'acme', folderIds: ['drafts', 'nope'], accessType: 'public' },
    result: AccessResult,
    v2: { body: FoldersAccessV2Body, result: FolderAccessResultV2 },
  }),
};
