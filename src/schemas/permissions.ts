// The request data and answers of users' roles (docs/api.md, "Permissions (/v2)"): auth/permissions/add,
// get and remove, and auth/generate_signature.
import Type, { type Static } from 'typebox';
import { AccessRole, MAX_TOKEN_RESOURCES, ResourceType, TokenResourceIn } from './auth.js';
import { type DataOf, Id, type InputLimits, MAX_TIME, Opt, RequestBody } from './common.js';
import { MessageOnlyResult, Success } from './responses.js';

export { MessageOnlyResult };

/** Most users auth/permissions/get reads at once. */
export const MAX_PERMISSION_USERS = 100;
/** Most folders, and most documents, auth/permissions/get decides for each user. */
export const MAX_PERMISSION_RESOURCES = 100;
/** Most decisions one auth/permissions/get makes: users times the folders and documents named. */
export const MAX_PERMISSION_CHECKS = 1000;
/** Most decisions one auth/generate_signature signs. */
export const MAX_SIGNED_PERMISSIONS = 1000;

const Resources = Type.Object({
  resources: Type.Array(TokenResourceIn, { minItems: 1, maxItems: MAX_TOKEN_RESOURCES }),
});

/** auth/permissions/add. */
export const PermissionsAddBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ user: Type.Object({ userId: Id }), permissions: Resources }));
export type PermissionsAddData = DataOf<typeof PermissionsAddBody>;

/** A resource a role is taken away from: a folder or a document names its organization, as in add. */
const ResourceOut = Type.Object(
  { type: ResourceType, id: Id, organizationId: Opt(Id) },
  {
    if: { properties: { type: { not: { enum: ['folder', 'document'] } } } },
    else: { required: ['organizationId'], properties: { organizationId: Id } },
  },
);

/** auth/permissions/remove. */
export const PermissionsRemoveBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      userId: Id,
      permissions: Type.Object({ resources: Type.Array(ResourceOut, { minItems: 1, maxItems: MAX_TOKEN_RESOURCES }) }),
    }),
  );
export type PermissionsRemoveData = DataOf<typeof PermissionsRemoveBody>;

/** auth/permissions/get. */
export const PermissionsGetBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      userIds: Type.Array(Id, { minItems: 1, maxItems: MAX_PERMISSION_USERS }),
      folderIds: Opt(Type.Array(Id, { maxItems: MAX_PERMISSION_RESOURCES })),
      documentIds: Opt(Type.Array(Id, { maxItems: MAX_PERMISSION_RESOURCES })),
    }),
  );
export type PermissionsGetData = DataOf<typeof PermissionsGetBody>;

/** One resource's entry in auth/permissions/get: the role and access type, or why there is none. */
export const PermissionEntry = Type.Object({
  accessRole: Type.Optional(AccessRole),
  accessType: Type.Optional(Type.String({ description: 'public, restricted or organizationPrivate' })),
  expiresAt: Type.Optional(Type.Integer({ description: 'When the role that applies ends: Unix seconds' })),
  error: Type.Optional(Type.String()),
  errorCode: Type.Optional(Type.String({ description: 'permission_denied or does_not_exist' })),
});
export type PermissionEntry = Static<typeof PermissionEntry>;

const ById = Type.Record(Type.String(), PermissionEntry);
/** A user's entries: their organization role, and each folder and document (those named, those with a role). */
export const UserPermissions = Type.Object({
  organization: Type.Optional(ById),
  folders: Type.Optional(ById),
  documents: Type.Optional(ById),
});
export type UserPermissions = Static<typeof UserPermissions>;

export const PermissionsGetResult = Success(Type.Record(Type.String(), UserPermissions));

/** auth/generate_signature: decisions of a permission provider, to sign. */
export const GenerateSignatureBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      permissions: Type.Array(
        Type.Object({
          userId: Id,
          resourceId: Id,
          type: ResourceType,
          hasAccess: Type.Boolean(),
          accessRole: Opt(AccessRole),
          expiresAt: Opt(Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'When it ends: ms since the epoch' })),
        }),
        { minItems: 1, maxItems: MAX_SIGNED_PERMISSIONS },
      ),
    }),
  );
export type GenerateSignatureData = DataOf<typeof GenerateSignatureBody>;

export const GenerateSignatureResult = Success(
  Type.Object({ signature: Type.String({ description: 'HMAC-SHA256 of the decisions, hex (docs/decisions.md)' }) }),
);
