// Store code for user profiles and their memberships of documents and folders.
import { enter, refuseListed } from '../organizations/organizations.js';
import { all, type BatchQuery, batchQuery, inKeyOrder, list, type Query, query, run, type Work } from '../sql.js';
import type { Profile, Scope, UserWrite } from '../../domain/users.js';
import { USERS_SQL as SQL } from './sql.js';
import { folderMadeIfMissing } from '../folders/made-on-demand.js';

const fields = (u: UserWrite) => ({
  userId: u.userId,
  name: u.name ?? null,
  email: u.email ?? null,
  photoUrl: u.photoUrl ?? null,
});

/** users/add: returns the profiles as written, which its events show (events.ts). */
export function* upsert(
  tenantId: string,
  organizationId: string,
  scope: Scope,
  users: UserWrite[],
  now: number,
  createFolder = false,
): Work<Map<string, Profile>> {
  // docs/api.md "Disabled organizations and documents": the organization (and a document scope) exists from the first
  // write that names it, and refuses when disabled.
  yield* enter(tenantId, organizationId, scope?.kind === 'document' ? scope.id : null, true);
  // First, as in every write to users: one lock order (the version row, then users in key order).
  yield* run(SQL.bumpProfileVersion, { tenantId, organizationId });
  const written = new Map<string, Profile>();
  for (const u of inKeyOrder(users, (x) => x.userId)) {
    for (const r of yield* all(SQL.upsert, { tenantId, organizationId, now, ...fields(u) }))
      written.set(u.userId, profileFrom(r));
    if (scope)
      yield* run(SQL.insertMembership, { tenantId, organizationId, kind: scope.kind, scopeId: scope.id, userId: u.userId });
  }
  // /v2's createFolder: last, after the users, so every write to users takes its locks in one order.
  if (createFolder && scope?.kind === 'folder') yield* folderMadeIfMissing(tenantId, organizationId, scope.id, now);
  return written;
}

/** Updates the users that exist in the scope; returns their profiles as changed. One statement on PostgreSQL. */
export function update(
  tenantId: string,
  organizationId: string,
  scope: Scope,
  users: UserWrite[],
  now: number,
): BatchQuery<Map<string, Profile>> {
  const documentId = scope?.kind === 'document' ? scope.id : null;
  const params = scope
    ? { tenantId, organizationId, documentId, now, kind: scope.kind, scopeId: scope.id }
    : { tenantId, organizationId, documentId, now };
  // Key order: two updates of the same users lock them in the same order.
  const rows = inKeyOrder(users, (x) => x.userId).map(fields);
  return batchQuery(
    scope ? SQL.updateMembers : SQL.updateUsers,
    params,
    rows,
    (r) => {
      refuseListed(r, organizationId, documentId);
      return new Map(r.flatMap((x): [string, Profile][] => (x.user_id == null ? [] : [[x.user_id as string, profileFrom(x)]])));
    },
    [SQL.bumpUnlessDisabled],
  );
}

function profileFrom(r: Record<string, unknown>): Profile {
  return {
    userId: r.user_id as string,
    name: r.name as string | null,
    email: r.email as string | null,
    photoUrl: r.photo_url as string | null,
  };
}

export function* profiles(tenantId: string, organizationId: string, userIds: string[]): Work<Map<string, Profile>> {
  const found = new Map<string, Profile>();
  if (userIds.length === 0) return found;
  for (const r of yield* all(SQL.profiles, { tenantId, organizationId, userIds: list(userIds) })) {
    found.set(r.user_id as string, profileFrom(r));
  }
  return found;
}

export function organizationProfiles(tenantId: string, organizationId: string, limit: number): Query<Profile[]> {
  return query(SQL.organizationProfiles, { tenantId, organizationId, limit }, false, (rows) =>
    (rows as Record<string, unknown>[]).map(profileFrom),
  );
}
