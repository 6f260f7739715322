// Users: their profiles (added, updated) and their memberships (read, removed).
import { success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import { MembersDeletedResult, MembersResult, UsersResult, answers } from '../schemas/responses.js';
import { UsersBody, UsersDeleteBody, UsersGetBody } from '../schemas/users.js';
import { addUsers, updateUsers } from '../services/users.js';
import { deleteMembers, getMembers } from '../services/members.js';

/** Users' profiles: added, or updated where they exist. */
export const users = [
  operation({
    paths: { v1: 'users/add' },
    summary: 'Add users or update their profiles, optionally as members of a document or folder',
    tags: ['users'],
    body: UsersBody,
    response: answers(UsersResult),
    run: addUsers,
    answer: 'User(s) processed successfully.',
  }),
  operation({
    paths: { v1: 'users/update' },
    summary: 'Update existing users; missing users are reported, not created',
    tags: ['users'],
    body: UsersBody,
    response: answers(UsersResult),
    run: updateUsers,
    answer: 'User(s) processed successfully.',
  }),
];

/** An organization's members, and of its documents and folders. */
export const members = [
  operation({
    paths: { v1: 'users/get' },
    summary: 'Members of the organization, or of a document, folder or user groups, in userId order and paged (SPEC 12)',
    tags: ['users'],
    body: UsersGetBody,
    response: answers(MembersResult),
    run: getMembers,
    answer: (got) => success('User(s) retrieved successfully.', got.users, pageTokenOf(got.nextPageToken)),
  }),
  operation({
    paths: { v1: 'users/delete' },
    summary: 'Remove users from the organization, or only from a document or folder (SPEC 12)',
    tags: ['users'],
    body: UsersDeleteBody,
    response: answers(MembersDeletedResult),
    run: deleteMembers,
    answer: 'User(s) deleted successfully.',
  }),
];
