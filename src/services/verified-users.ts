// `verifyUserPermissions` on server-credential writes (docs/api.md, "verifyUserPermissions"; docs/decisions.md):
// the users a write names are held to the access check every end-user request asks (document-access.ts). A comment
// write refuses, whole, when an author may not write to the document; a notification keeps the recipients who may
// read it; read marks are kept for the users who may read the document named.
import { allows } from '../domain/access.js';
import { ApiError } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { Caller, Services } from './context.js';
import { documentAccess } from './document-access.js';

/** Of `userIds`, those who may `want` the document, in their order; each user asked once. */
export function usersWithAccess(
  services: Services,
  caller: Caller,
  organizationId: string,
  documentId: string,
  userIds: readonly string[],
  want: 'read' | 'write',
): Maybe<Set<string>> {
  const ids = [...new Set(userIds)];
  const kept = new Set<string>();
  const step = (i: number): Maybe<Set<string>> => {
    if (i === ids.length) return kept;
    const userId = ids[i]!;
    return then(documentAccess(services, { tenantId: caller.id, organizationId, documentId, userId }), (access) => {
      if (allows(access, want)) kept.add(userId);
      return step(i + 1);
    });
  };
  return step(0);
}

/** Who a write names, and where in its request (for the refusal's details). */
export interface NamedUser {
  /** The member's path in `data`, as spelt in answers: `commentAnnotations[0].commentData[1].from`. */
  at: string;
  userId: string;
}

/**
 * Every user named may `want` the document, or PERMISSION_DENIED naming each that may not, by where the request names
 * them (`details.refused`), before anything is written.
 */
export function requireUsersAccess(
  services: Services,
  caller: Caller,
  organizationId: string,
  documentId: string,
  named: readonly NamedUser[],
  want: 'read' | 'write',
): Maybe<void> {
  const asked = named.map((n) => n.userId);
  return then(usersWithAccess(services, caller, organizationId, documentId, asked, want), (kept) => {
    const refused = named.filter((n) => !kept.has(n.userId));
    if (refused.length === 0) return;
    const who = [...new Set(refused.map((r) => r.userId))].join(', ');
    throw new ApiError(
      'PERMISSION_DENIED',
      `verifyUserPermissions: ${who} may not ${want === 'write' ? 'write to' : 'read'} document ${documentId}; nothing was written.`,
      { details: { documentId, refused: refused.map((r) => ({ at: `data.${r.at}`, userId: r.userId })) } },
    );
  });
}
