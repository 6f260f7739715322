// Store code of organization user groups (docs/api.md, "POST /v1/organizations/usergroups/add"): groups, and which
// users are in them.
import { enter } from '../organizations/organizations.js';
import { all, batch, first, list, run, type Work } from '../sql.js';
import type { UserGroupRecord, UserGroupWrite } from '../../domain/users.js';
import { GROUPS_SQL as SQL } from './sql.js';

/** usergroups/add: each group created, or renamed when given a name; the organization comes into being. */
export function* addGroups(tenantId: string, organizationId: string, groups: readonly UserGroupWrite[], now: number): Work<void> {
  yield* enter(tenantId, organizationId, null, true);
  for (const g of groups) yield* run(SQL.add, { tenantId, organizationId, groupId: g.groupId, name: g.name, now });
}

/** usergroups/users/add: false when the group does not exist (docs/api.md, "What does not exist": NOT_FOUND). */
export function* addGroupMembers(tenantId: string, organizationId: string, groupId: string, userIds: string[]): Work<boolean> {
  yield* enter(tenantId, organizationId, null, false);
  const group = { tenantId, organizationId, groupId };
  if (!(yield* first(SQL.lock, group))) return false;
  yield* batch(
    SQL.addMembers,
    group,
    [...new Set(userIds)].sort().map((userId) => ({ userId })),
  );
  return true;
}

/** usergroups/users/delete: the listed users (null: all of them); null when the group does not exist, else who left. */
export function* deleteGroupMembers(
  tenantId: string,
  organizationId: string,
  groupId: string,
  userIds: string[] | null,
): Work<string[] | null> {
  yield* enter(tenantId, organizationId, null, false);
  const group = { tenantId, organizationId, groupId };
  if (!(yield* first(SQL.lock, group))) return null;
  const rows = userIds
    ? yield* all(SQL.deleteMembers, { ...group, userIds: list([...userIds].sort()) })
    : yield* all(SQL.deleteAllMembers, group);
  return rows.map((r) => r.user_id as string).sort();
}

/** usergroups/get: up to `limit` groups of the organization after the id `after`, in id order. */
export function* page(tenantId: string, organizationId: string, after: string | null, limit: number): Work<UserGroupRecord[]> {
  const rows = yield* all(SQL.page, { tenantId, organizationId, after, limit });
  return rows.map((r) => ({ groupId: String(r.group_id), name: String(r.name) }));
}
