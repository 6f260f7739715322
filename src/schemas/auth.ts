// The request data of end-user tokens (docs/api.md, "POST /v1/auth/token/get" and "POST /v2/auth/generate_token"):
// v1's auth/token/get, and v2's auth/generate_token with the resources its user may access.
import Type, { type Static } from 'typebox';
import { BodyCredentials, Email, Id, MAX_TIME, Name, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';

/**
 * The longest end-user token the event stream takes (its `token` parameter, docs/events.md): a token
 * that would be longer is refused when asked for, rather than issued and then refused by the stream.
 */
export const MAX_END_USER_TOKEN_LENGTH = 8192;
/**
 * Most resources one v2 token names (docs/api.md, "POST /v2/auth/generate_token"): each travels in the
 * token, which must fit MAX_END_USER_TOKEN_LENGTH; more are given with the permissions operations.
 */
export const MAX_TOKEN_RESOURCES = 100;

/** auth/token/get. */
export const AuthTokenBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      userId: Id,
      userProperties: Type.Object({
        organizationId: Id,
        email: Opt(Email),
        name: Opt(Name),
        isAdmin: Opt(Type.Boolean()),
      }),
      ...BodyCredentials,
    }),
  );
export type AuthTokenData = DataOf<typeof AuthTokenBody>;

/** A kind of resource a user may hold a role on. */
export const ResourceType = Type.Unsafe<'organization' | 'folder' | 'document'>({
  type: 'string',
  enum: ['organization', 'folder', 'document'],
});
/** A role on a resource: viewer reads, editor also writes (given meaning by the permissions operations). */
export const AccessRole = Type.Unsafe<'viewer' | 'editor'>({
  type: 'string',
  enum: ['viewer', 'editor'],
  description: 'viewer or editor; absent: editor',
});

/**
 * One entry of `permissions.resources`, as the original service's page has it: a folder or a document
 * names its organization (required there: the `else` below, a null counting as absent); an
 * organization is its own. The `if` passes every type but those two, so a type that is none of the
 * three is answered as that, not as a missing organizationId (and no `then`: a schema must not be thenable).
 */
export const TokenResourceIn = Type.Object(
  {
    type: ResourceType,
    id: Id,
    organizationId: Opt(Id),
    accessRole: Opt(AccessRole),
    expiresAt: Opt(
      Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'When the role ends: a Unix timestamp, kept as sent' }),
    ),
  },
  {
    if: { properties: { type: { not: { enum: ['folder', 'document'] } } } },
    else: { required: ['organizationId'], properties: { organizationId: Id } },
  },
);
export type TokenResourceIn = Static<typeof TokenResourceIn>;

/** auth/generate_token (and /v2/auth/token/get): header credentials only, as the page documents. */
export const GenerateTokenBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      userId: Id,
      userProperties: Type.Object({ name: Name, email: Email, isAdmin: Opt(Type.Boolean()) }),
      permissions: Type.Object({
        resources: Type.Array(TokenResourceIn, { minItems: 1, maxItems: MAX_TOKEN_RESOURCES }),
      }),
    }),
  );
export type GenerateTokenData = DataOf<typeof GenerateTokenBody>;
