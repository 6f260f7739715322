// Users: their profiles (added, updated) and their memberships (read, removed).
import { success } from '../http/envelope.js';
import { nextPageTokenOf, operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { addUsers, updateUsers } from '../services/users.js';
import { deleteMembers, getMembers } from '../services/members.js';

/** Users' profiles: added, or updated where they exist. */
export const users = [
  operation(CONTRACT.usersAdd, {
    run: addUsers,
    answer: 'User(s) processed successfully.',
  }),
  operation(CONTRACT.usersUpdate, {
    run: updateUsers,
    answer: 'User(s) processed successfully.',
  }),
];

/** An organization's members, and of its documents and folders. */
export const members = [
  operation(CONTRACT.usersGet, {
    run: getMembers,
    answer: (got) => success('User(s) retrieved successfully.', got.users, pageTokenOf(got.nextPageToken)),
    adapters: {
      v2: {
        answer: (got) => success('User(s) retrieved successfully.', got.users, nextPageTokenOf(got.nextPageToken)),
      },
    },
  }),
  operation(CONTRACT.usersDelete, {
    run: deleteMembers,
    answer: 'User(s) deleted successfully.',
  }),
];
