// Users' roles on organizations, folders and documents (auth/permissions/*, users/add|update `accessRole`,
// a v2 token's resources). This feature's part of the Store (store.ts): each method runs its store code
// through the core.
import type { RoleGrant, RoleResource, StoredRole } from '../../domain/access.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { rolesGranted, rolesRevoked } from './events.js';
import * as roles from './roles.js';
import type { ResourceFacts } from './roles.js';

export const accessRolesStore = (core: StoreCore) => ({
  /** Roles given (or changed: the newest grant of a resource wins), with their events. */
  grantRoles(tenantId: string, grants: readonly RoleGrant[], now: number): Maybe<void> {
    return core.emitting(
      'grantRoles',
      tenantId,
      now,
      () => roles.grant(tenantId, grants, now),
      () => rolesGranted(grants),
    );
  },

  /** Roles taken away, with their events; answers how many there were. */
  revokeRoles(tenantId: string, resources: readonly RoleResource[], now: number): Maybe<number> {
    return core.emitting(
      'revokeRoles',
      tenantId,
      now,
      () => roles.revoke(tenantId, resources),
      (n) => (n > 0 ? rolesRevoked(resources) : []),
    );
  },

  /** auth/permissions/get: the users' roles in the organization, expired ones too. */
  rolesOfUsers(tenantId: string, organizationId: string, userIds: readonly string[]): Maybe<StoredRole[]> {
    return core.read('rolesOfUsers', () => roles.ofUsers(tenantId, organizationId, userIds));
  },

  /** The facts the access check decides a user's access to a document or folder from (domain/access.ts). */
  accessFacts(
    tenantId: string,
    organizationId: string,
    resource: { documentId: string } | { folderId: string },
    userId: string,
    maxDepth: number,
  ): Maybe<ResourceFacts> {
    return core.read('accessFacts', () => roles.facts(tenantId, organizationId, resource, userId, maxDepth));
  },
});

export type AccessRolesStore = ReturnType<typeof accessRolesStore>;
