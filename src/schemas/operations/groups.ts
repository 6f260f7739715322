// An organization's user groups.
import { GroupUsersAddBody, GroupUsersDeleteBody, UserGroupsAddBody, UserGroupsGetBody } from '../groups.js';
import { GroupUsersResult, UserGroupListResult, UserGroupsResult } from '../responses.js';
import { contract } from './contract.js';

export const groups = {
  userGroupsAdd: contract({
    paths: { v1: 'organizations/usergroups/add', v2: 'organizations/usergroups/add' },
    summary: 'Create organization user groups, or rename them',
    tags: ['users'],
    body: UserGroupsAddBody,
    example: { organizationId: 'acme', organizationUserGroups: [{ groupId: 'editors', groupName: 'Editors' }] },
    result: UserGroupsResult,
  }),
  groupUsersAdd: contract({
    paths: { v1: 'organizations/usergroups/users/add', v2: 'organizations/usergroups/users/add' },
    summary: 'Add users to an organization user group; the group must exist',
    tags: ['users'],
    body: GroupUsersAddBody,
    example: { organizationId: 'acme', organizationUserGroupId: 'editors', userIds: ['ada'] },
    result: GroupUsersResult,
    also: [404],
  }),
  groupUsersDelete: contract({
    paths: { v1: 'organizations/usergroups/users/delete', v2: 'organizations/usergroups/users/delete' },
    summary: 'Remove users (or all) from an organization user group',
    tags: ['users'],
    body: GroupUsersDeleteBody,
    example: { organizationId: 'acme', organizationUserGroupId: 'editors', deleteAll: true },
    result: GroupUsersResult,
    also: [404],
  }),
  /**
   * An extension (the original service has no read of groups): what `marginalia import` copies groups with. The same on
   * /v1 and /v2, as Marginalia's own operations are (docs/api.md, "Version 2").
   */
  userGroupsGet: contract({
    paths: { v1: 'organizations/usergroups/get', v2: 'organizations/usergroups/get' },
    summary: "An organization's user groups, in groupId order and paged (an extension)",
    tags: ['users'],
    body: UserGroupsGetBody,
    example: { organizationId: 'acme' },
    result: UserGroupListResult,
  }),
};
