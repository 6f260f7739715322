// The request data of documents as objects (docs/api.md, "Documents"): organizations/documents/*.
import Type from 'typebox';
import {
  Batch,
  Filter,
  GIVEN_TIMES,
  Id,
  MAX_ID_LENGTH,
  PAGING,
  Name,
  Opt,
  RequestBody,
  type DataOf,
  type InputLimits,
} from './common.js';

/**
 * Who may see a document or folder; any other value is INVALID_ARGUMENT (docs/api.md,
 * "POST /v1/organizations/documents/access/update").
 */
export const AccessTypeIn = Type.Union(
  [Type.Literal('organizationPrivate'), Type.Literal('restricted'), Type.Literal('public')],
  {
    description: 'organizationPrivate (the default), restricted or public',
  },
);

/** A folderId a document is placed in; "root" means no folder. */
const FolderRef = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'A folderId, or "root" for no folder' });

const DocumentIn = Type.Object({ documentId: Id, documentName: Opt(Name) });

/** organizations/documents/add: folderId (which must exist) places every document of the request in it. */
export const DocumentsAddBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      folderId: Opt(FolderRef),
      documents: Batch(limits, Type.Object({ ...DocumentIn.properties, ...GIVEN_TIMES })),
      /** The organization is made by the first write anyway. */
      createOrganization: Opt(Type.Boolean()),
      /** A folderId that does not exist is made, at the top, instead of answering NOT_FOUND. */
      createFolder: Opt(Type.Boolean()),
    }),
  );
export type DocumentsAddData = DataOf<typeof DocumentsAddBody>;

export const DocumentsUpdateBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documents: Batch(limits, DocumentIn) }));
export type DocumentsUpdateData = DataOf<typeof DocumentsUpdateBody>;

export const DocumentsGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      // None: every document of the organization.
      documentIds: Filter(limits, Id),
      // Only the documents in this folder ("root": in no folder).
      folderId: Opt(FolderRef),
      ...PAGING,
    }),
  );
export type DocumentsGetData = DataOf<typeof DocumentsGetBody>;

export const DocumentsDeleteBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentIds: Batch(limits, Id) }));
export type DocumentsDeleteData = DataOf<typeof DocumentsDeleteBody>;

export const DocumentsMoveBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentIds: Batch(limits, Id), folderId: FolderRef }));
export type DocumentsMoveData = DataOf<typeof DocumentsMoveBody>;

export const DocumentsAccessBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentIds: Batch(limits, Id), accessType: AccessTypeIn }));
export type DocumentsAccessData = DataOf<typeof DocumentsAccessBody>;

export const DocumentsDisableBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentIds: Batch(limits, Id), disabled: Type.Boolean() }));
export type DocumentsDisableData = DataOf<typeof DocumentsDisableBody>;
