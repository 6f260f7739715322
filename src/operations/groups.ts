// An organization's user groups.
import { operation } from './operation.js';
import { GroupUsersAddBody, GroupUsersDeleteBody, UserGroupsAddBody } from '../schemas/groups.js';
import { GroupUsersResult, UserGroupsResult, answers } from '../schemas/responses.js';
import { addGroupUsers, addUserGroups, deleteGroupUsers } from '../services/groups.js';

/** An organization's user groups. */
export const groups = [
  operation({
    paths: { v1: 'organizations/usergroups/add' },
    summary: 'Create organization user groups, or rename them (SPEC 12)',
    tags: ['users'],
    body: UserGroupsAddBody,
    response: answers(UserGroupsResult),
    run: addUserGroups,
    answer: 'Organization User Groups added successfully.',
  }),
  operation({
    paths: { v1: 'organizations/usergroups/users/add' },
    summary: 'Add users to an organization user group; the group must exist (SPEC 12)',
    tags: ['users'],
    body: GroupUsersAddBody,
    response: answers(GroupUsersResult, [404]),
    run: addGroupUsers,
    answer: 'Added organization users to group successfully.',
  }),
  operation({
    paths: { v1: 'organizations/usergroups/users/delete' },
    summary: 'Remove users (or all) from an organization user group (SPEC 12)',
    tags: ['users'],
    body: GroupUsersDeleteBody,
    response: answers(GroupUsersResult, [404]),
    run: deleteGroupUsers,
    answer: 'Deleted users from group successfully.',
  }),
];
