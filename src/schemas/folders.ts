// The request data of folders (docs/api.md, "Folders"): organizations/folders/*.
import Type from 'typebox';
import { Batch, GIVEN_TIMES, Id, MAX_ID_LENGTH, Name, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';
import { AccessTypeIn } from './documents.js';

/** "root" names the top of the tree, so no folder may be called that. */
export const ROOT = 'root';

const FolderIn = Type.Object({
  folderId: Id,
  folderName: Opt(Name),
  // A folder that exists (or comes earlier in the same folders/add); "root" or none: the top.
  parentFolderId: Opt(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'A folderId, or "root" for the top' })),
  accessType: Opt(AccessTypeIn),
});

/** organizations/folders/update. */
export const FoldersBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, folders: Batch(limits, FolderIn) }));
export type FoldersData = DataOf<typeof FoldersBody>;

/** organizations/folders/add: as update, and the times a new folder keeps. */
export const FoldersAddBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({ organizationId: Id, folders: Batch(limits, Type.Object({ ...FolderIn.properties, ...GIVEN_TIMES })) }),
  );
export type FoldersAddData = DataOf<typeof FoldersAddBody>;

const FoldersGetFields = {
  organizationId: Id,
  folderId: Opt(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH })),
  maxDepth: Opt(Type.Integer({ minimum: 1, description: 'Levels of subFolders under folderId (v1: all of them; /v2: 1)' })),
};
export const FoldersGetBody = () => RequestBody(Type.Object(FoldersGetFields));
export type FoldersGetData = DataOf<typeof FoldersGetBody>;
/** As /v2 asks: the same members; the operation is told which version asked (`v2`), as the answers differ. */
export type FoldersGetV2Data = FoldersGetData & { v2?: boolean };

export const FoldersDeleteBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, folderIds: Batch(limits, Id) }));
export type FoldersDeleteData = DataOf<typeof FoldersDeleteBody>;

export const FoldersAccessBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, folderIds: Batch(limits, Id), accessType: AccessTypeIn }));
export type FoldersAccessData = DataOf<typeof FoldersAccessBody>;

/** /v2: the access type, or inheritFromParent, or both (docs/api.md, "Version 2"). */
export const FoldersAccessV2Body = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      folderIds: Batch(limits, Id),
      accessType: Opt(AccessTypeIn),
      inheritFromParent: Opt(Type.Boolean()),
    }),
  );
export type FoldersAccessV2Data = DataOf<typeof FoldersAccessV2Body>;

/** /v2's folders/delete: one folder, deleted with everything in it (docs/api.md, "Version 2"). */
export const FolderDeleteV2Body = () => RequestBody(Type.Object({ organizationId: Id, folderId: Id }));
export type FolderDeleteV2Data = DataOf<typeof FolderDeleteV2Body>;
