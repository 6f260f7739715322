// Store code for user profiles and their memberships of documents and folders.
import { all, list, run, type Work } from '../sql.js';
import type { Profile, Scope, UserWrite } from '../store.js';
import { USERS_SQL as SQL } from './sql.js';

/**
 * A batch's rows in key order, so that two transactions writing the same keys lock them in the same
 * order and cannot deadlock each other (PostgreSQL; on SQLite it costs nothing). Results are keyed by
 * id, so the order they are written in does not show.
 */
export function inKeyOrder<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const fields = (u: UserWrite) => ({
  userId: u.userId,
  name: u.name ?? null,
  email: u.email ?? null,
  photoUrl: u.photoUrl ?? null,
});

export function* upsert(tenantId: string, organizationId: string, scope: Scope, users: UserWrite[], now: number): Work<void> {
  for (const u of inKeyOrder(users, (x) => x.userId)) {
    yield* run(SQL.upsert, { tenantId, organizationId, now, ...fields(u) });
    if (scope)
      yield* run(SQL.insertMembership, { tenantId, organizationId, kind: scope.kind, scopeId: scope.id, userId: u.userId });
  }
}

/** Updates the users that exist in the scope; returns their userIds. */
export function* update(
  tenantId: string,
  organizationId: string,
  scope: Scope,
  users: UserWrite[],
  now: number,
): Work<Set<string>> {
  const updated = new Set<string>();
  for (const u of inKeyOrder(users, (x) => x.userId)) {
    const params = { tenantId, organizationId, now, ...fields(u) };
    const changed = scope
      ? yield* run(SQL.updateMember, { ...params, kind: scope.kind, scopeId: scope.id })
      : yield* run(SQL.update, params);
    if (changed > 0) updated.add(u.userId);
  }
  return updated;
}

export function profileFrom(r: Record<string, unknown>): Profile {
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
