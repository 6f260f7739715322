// The request data of folders (docs/api.md, "Folders"): organizations/folders/*.
import Type from 'typebox';
import { Batch, Id, MAX_ID_LENGTH, Name, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';
import { AccessTypeIn } from './documents.js';

/** "root" names the top of the tree, so no folder may be called that. */
export const ROOT = 'root';

const FolderIn = Type.Object({
  folderId: Id,
  folderName: Opt(Name),
  // A folder that exists (or comes earlier in the same folders/add); "root" or none: the top.
  parentFolderId: Opt(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'A folderId, or "root" for the top' })),
});

/** organizations/folders/add and organizations/folders/update. */
export const FoldersBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, folders: Batch(limits, FolderIn) }));
export type FoldersData = DataOf<typeof FoldersBody>;

export const FoldersGetBody = () =>
  RequestBody(Type.Object({ organizationId: Id, folderId: Opt(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH })) }));
export type FoldersGetData = DataOf<typeof FoldersGetBody>;

export const FoldersDeleteBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, folderIds: Batch(limits, Id) }));
export type FoldersDeleteData = DataOf<typeof FoldersDeleteBody>;

export const FoldersAccessBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, folderIds: Batch(limits, Id), accessType: AccessTypeIn }));
export type FoldersAccessData = DataOf<typeof FoldersAccessBody>;
