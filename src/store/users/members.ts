// Store code of users/get and users/delete (docs/api.md, "POST /v1/users/get"): an organization's members and their
// removal.
import { enter } from '../organizations/organizations.js';
import { all, list, run, type Work } from '../sql.js';
import type { DocumentMember, DocumentMemberQuery, MemberQuery, Profile, Scope } from '../../domain/users.js';
import { MEMBERS_SQL as SQL } from './members-sql.js';
import { USERS_SQL } from './sql.js';

/** users/get: up to `limit` members in userId order after `after`. */
export function* members(tenantId: string, q: MemberQuery): Work<Profile[]> {
  const rows = yield* all(SQL.page, {
    tenantId,
    organizationId: q.organizationId,
    userIds: list(q.userIds),
    groupIds: list(q.groupIds),
    scopeKind: q.scope?.kind ?? null,
    scopeId: q.scope?.id ?? null,
    anyDocument: q.ofAnyDocument ?? false,
    after: q.after,
    limit: q.limit,
  });
  return rows.map(profileOf);
}

const profileOf = (r: Record<string, unknown>): Profile => ({
  userId: r.user_id as string,
  name: r.name as string | null,
  email: r.email as string | null,
  photoUrl: r.photo_url as string | null,
});

/** users/get allDocuments grouped by document: up to `limit` memberships in (documentId, userId) order after `after`. */
export function* documentMembers(tenantId: string, q: DocumentMemberQuery): Work<DocumentMember[]> {
  const rows = yield* all(SQL.documentMembersPage, {
    tenantId,
    organizationId: q.organizationId,
    userIds: list(q.userIds),
    groupIds: list(q.groupIds),
    // '' sorts before every id: from the first.
    afterDocument: q.after?.documentId ?? '',
    afterUser: q.after?.userId ?? '',
    limit: q.limit,
  });
  return rows.map((r) => ({ documentId: r.document_id as string, ...profileOf(r) }));
}

/**
 * users/delete: with a scope, the users' membership of it; else their profiles, every membership and
 * every group entry in the organization. Answers the userIds that were there to remove.
 */
export function* removeMembers(tenantId: string, organizationId: string, scope: Scope, userIds: string[]): Work<Set<string>> {
  // docs/api.md "Disabled organizations and documents": a disabled organization (or the document named) refuses the
  // write.
  yield* enter(tenantId, organizationId, scope?.kind === 'document' ? scope.id : null, false);
  const params = { tenantId, organizationId, userIds: list([...userIds].sort()) };
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.user_id as string);
  if (scope) return new Set(ids(yield* all(SQL.deleteMemberships, { ...params, scopeKind: scope.kind, scopeId: scope.id })));
  // First, as in every write to users (architecture.md, "Profiles at read time").
  yield* run(USERS_SQL.bumpProfileVersion, { tenantId, organizationId });
  const removed = new Set(ids(yield* all(SQL.deleteProfiles, params)));
  // A member with no profile left (none is made so, but a membership could outlive its profile) counts as removed too.
  for (const id of ids(yield* all(SQL.deleteAllMemberships, params))) removed.add(id);
  yield* all(SQL.deleteGroupEntries, params);
  return removed;
}
