// End users (docs/api.md, "End users"): a request made with an end-user token acts as the token's user and no one
// else, in the token's organizations, on the documents that user may access. These are the checks every rule of
// end-user-rules.ts is made of; what a user may do on a document is the access check's (document-access.ts).
import { type Access, accessOf, allows } from '../domain/access.js';
import { ApiError } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import { NO_ORGANIZATION } from '../schemas/common.js';
import type { Services } from './context.js';
import { documentFacts } from './document-access.js';
import type { EndUserClaims } from './end-user-tokens.js';
import { organizationOfResource } from './token-resources.js';

/** Who an end-user request is (from its verified token). */
export interface EndUser {
  tenantId: string;
  userId: string;
  /**
   * The organizations the token names: its own, and its resources' (a v2 token). Naming one opens nothing by
   * itself: what the user may access there is the access check's (a profile there, roles), as for the stream.
   */
  organizations: ReadonlySet<string>;
  /** How the token names its user: the author of what the user writes. */
  name?: string;
  email?: string;
}

export function endUserOf(claims: EndUserClaims): EndUser {
  const organizations = new Set([claims.organizationId, ...(claims.resources ?? []).map(organizationOfResource)]);
  return {
    tenantId: claims.tenantId,
    userId: claims.userId,
    organizations,
    ...(claims.name !== undefined ? { name: claims.name } : {}),
    ...(claims.email !== undefined ? { email: claims.email } : {}),
  };
}

export const denied = (message: string): ApiError => new ApiError('PERMISSION_DENIED', message);

/** The answer to an operation an end-user token may not call (http/auth.ts). */
export const SERVER_CREDENTIALS_ONLY =
  'This operation needs the server credentials (x-service-api-key and x-service-auth-token); ' +
  'an end-user token may not call it.';

/** The organization the request names, when its token names it; an end user has no documents outside an organization. */
export function organizationOf(user: EndUser, organizationId: string | null | undefined): string {
  const id = organizationId ?? NO_ORGANIZATION;
  if (!user.organizations.has(id))
    throw denied(
      organizationId == null
        ? 'An end-user token acts in its organization: give data.organizationId.'
        : `The end-user token is not for organization ${organizationId}.`,
    );
  return id;
}

/** The user a request names (at `field`), when it is the token's own; absent, the token's user. */
export function ownUserId(user: EndUser, userId: string | null | undefined, field = 'data.userId'): string {
  if (userId != null && userId !== user.userId) throw denied(`${field}: an end-user token acts for its own user only.`);
  return user.userId;
}

/** The token's user as the author of what they write: never what the request's `from` says. */
export const authorOf = (user: EndUser): { userId: string; name?: string; email?: string } => ({
  userId: user.userId,
  ...(user.name !== undefined ? { name: user.name } : {}),
  ...(user.email !== undefined ? { email: user.email } : {}),
});

/** Where the user stands on one document of the organization: their access, and whether they are a member. */
export const accessTo = (
  services: Services,
  user: EndUser,
  organizationId: string,
  documentId: string,
): Maybe<{ access: Access; member: boolean }> =>
  then(
    documentFacts(services, {
      tenantId: user.tenantId,
      organizationId,
      documentId,
      userId: user.userId,
    }),
    (facts) => ({ access: accessOf(facts, services.clock()), member: facts.member }),
  );

/**
 * Each document, when the user may `want` it (read, or write: an editor's); else PERMISSION_DENIED naming the first
 * that is not. One statement a document (documents named once each).
 */
export function requireAccess(
  services: Services,
  user: EndUser,
  organizationId: string,
  documentIds: readonly string[],
  want: 'read' | 'write',
): Maybe<void> {
  const ids = [...new Set(documentIds)];
  const step = (i: number): Maybe<void> => {
    if (i === ids.length) return;
    return then(accessTo(services, user, organizationId, ids[i]!), ({ access }) => {
      if (!allows(access, want))
        throw denied(
          access === 'none'
            ? `The user has no access to document ${ids[i]}.`
            : `The user may read document ${ids[i]} but not write to it (a viewer).`,
        );
      return step(i + 1);
    });
  };
  return step(0);
}
