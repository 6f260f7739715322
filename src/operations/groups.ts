// An organization's user groups.
import { success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { addGroupUsers, addUserGroups, deleteGroupUsers, getUserGroups } from '../services/groups.js';

/** An organization's user groups. */
export const groups = [
  operation(CONTRACT.userGroupsAdd, {
    run: addUserGroups,
    answer: 'Organization User Groups added successfully.',
  }),
  operation(CONTRACT.groupUsersAdd, {
    run: addGroupUsers,
    answer: 'Added organization users to group successfully.',
  }),
  operation(CONTRACT.groupUsersDelete, {
    run: deleteGroupUsers,
    answer: 'Deleted users from group successfully.',
  }),
  // An extension, the same on /v1 and /v2 (docs/api.md, "POST /v1/organizations/usergroups/get").
  operation(CONTRACT.userGroupsGet, {
    run: getUserGroups,
    answer: (got) => success('Organization user groups retrieved successfully.', got.groups, pageTokenOf(got.nextPageToken)),
  }),
];
