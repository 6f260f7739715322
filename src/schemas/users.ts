// The request data shared by users/add and users/update (docs/api.md, "Users").
import Type from 'typebox';
import { Batch, Email, Filter, Id, PAGING, Name, Opt, PhotoUrl, RequestBody, type InputLimits, type DataOf } from './common.js';

export const UserIn = Type.Object({
  userId: Id,
  name: Opt(Name),
  email: Opt(Email),
  photoUrl: Opt(PhotoUrl),
  /** /v2: the user's role on the organization, document or folder named; taken, given effect by the permissions. */
  accessRole: Opt(Type.Union([Type.Literal('viewer'), Type.Literal('editor')])),
});

export const UsersBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Opt(Id),
      folderId: Opt(Id),
      users: Batch(limits, UserIn),
      /** The organization and a document are made by the first write anyway. */
      createOrganization: Opt(Type.Boolean()),
      createDocument: Opt(Type.Boolean()),
      /** users/add: a folderId that does not exist is made, at the top. */
      createFolder: Opt(Type.Boolean()),
    }),
  );

export type UsersData = DataOf<typeof UsersBody>;

/**
 * users/get (docs/api.md, "POST /v1/users/get"): members of the organization, of a document or folder, of groups.
 */
export const UsersGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Opt(Id),
      folderId: Opt(Id),
      userIds: Filter(limits, Id),
      organizationUserGroupIds: Filter(limits, Id),
      /** Members of any document of the organization instead of its members (no documentId or folderId then). */
      allDocuments: Opt(Type.Boolean()),
      /** With allDocuments: the answer's data is a map of documentId to that document's members. */
      groupByDocumentId: Opt(Type.Boolean()),
      ...PAGING,
    }),
  );
export type UsersGetData = DataOf<typeof UsersGetBody>;

/** users/delete (docs/api.md, "POST /v1/users/delete"). */
export const UsersDeleteBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentId: Opt(Id), folderId: Opt(Id), userIds: Batch(limits, Id) }));
export type UsersDeleteData = DataOf<typeof UsersDeleteBody>;
