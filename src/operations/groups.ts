// An organization's user groups.
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { addGroupUsers, addUserGroups, deleteGroupUsers } from '../services/groups.js';

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
];
