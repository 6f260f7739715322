// The roles a request gives (docs/decisions.md, "Permissions"): auth/permissions/add's and remove's resources,
// users/add|update `accessRole`, a v2 token's `permissions.resources[]`. The pages give a role's end in Unix
// seconds; it is kept in ms.
import { DEFAULT_ACCESS_ROLE, type ResourceKind, type RoleGrant, type RoleResource } from '../domain/access.js';
import type { Scope } from '../domain/users.js';
import type { TokenResourceIn } from '../schemas/auth.js';

/** A resource as the pages name it: an organization is its own id; a folder or document names its organization. */
interface NamedResource {
  type: ResourceKind;
  id: string;
  organizationId?: string | null | undefined;
}

/** Where a named resource's role is kept: its organization, and '' for the organization itself. */
export const keyOf = (userId: string, r: NamedResource): RoleResource => ({
  organizationId: r.type === 'organization' ? r.id : r.organizationId!,
  userId,
  kind: r.type,
  resourceId: r.type === 'organization' ? '' : r.id,
});

/** The roles a request's resources give (the pages' default role: editor; their expiry: Unix seconds). */
export const grantsOf = (userId: string, resources: readonly TokenResourceIn[]): RoleGrant[] =>
  resources.map((r) => ({
    ...keyOf(userId, r),
    role: r.accessRole ?? DEFAULT_ACCESS_ROLE,
    expiresAt: r.expiresAt != null ? r.expiresAt * 1000 : null,
  }));

/** users/add|update `accessRole`: each user's role on the write's scope (the organization, or its document or folder). */
export function grantsOfUsers(
  organizationId: string,
  scope: Scope,
  users: readonly { userId: string; accessRole?: 'viewer' | 'editor' | null | undefined }[],
): RoleGrant[] {
  const kind: ResourceKind = scope?.kind ?? 'organization';
  return users.flatMap((u) =>
    u.accessRole == null
      ? []
      : [{ organizationId, userId: u.userId, kind, resourceId: scope?.id ?? '', role: u.accessRole, expiresAt: null }],
  );
}
