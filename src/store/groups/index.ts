// An organization's user groups.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { UserGroupRecord, UserGroupWrite } from '../../domain/users.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { groupMembersChanged, groupsAdded } from './events.js';
import * as groups from './groups.js';

export const groupsStore = (core: StoreCore) => ({
  addUserGroups(tenantId: string, organizationId: string, list: readonly UserGroupWrite[], now: number): Maybe<void> {
    return core.emitting(
      'addUserGroups',
      tenantId,
      now,
      () => groups.addGroups(tenantId, organizationId, list, now),
      () => groupsAdded(organizationId, list),
    );
  },

  /** usergroups/users/add: false when the group does not exist. */
  addGroupMembers(tenantId: string, organizationId: string, groupId: string, userIds: string[], now: number): Maybe<boolean> {
    return core.emitting(
      'addGroupMembers',
      tenantId,
      now,
      () => groups.addGroupMembers(tenantId, organizationId, groupId, userIds),
      (found) => (found ? groupMembersChanged('organization.usergroup_users_add', organizationId, groupId, userIds) : []),
    );
  },

  /** usergroups/users/delete (userIds null: all); null when the group does not exist, else who left. */
  deleteGroupMembers(
    tenantId: string,
    organizationId: string,
    groupId: string,
    userIds: string[] | null,
    now: number,
  ): Maybe<string[] | null> {
    return core.emitting(
      'deleteGroupMembers',
      tenantId,
      now,
      () => groups.deleteGroupMembers(tenantId, organizationId, groupId, userIds),
      (removed) => (removed ? groupMembersChanged('organization.usergroup_users_delete', organizationId, groupId, removed) : []),
    );
  },

  /** usergroups/get: up to `limit` groups of the organization after the id `after`, in id order. */
  getUserGroups(tenantId: string, organizationId: string, after: string | null, limit: number): Maybe<UserGroupRecord[]> {
    return core.read('getUserGroups', () => groups.page(tenantId, organizationId, after, limit));
  },
});

export type GroupsStore = ReturnType<typeof groupsStore>;
