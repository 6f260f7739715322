// Users: their profiles (added, updated) and their memberships (read, removed).
import { MembersDeletedResult, MembersResult, MembersResultV2, UsersResult } from '../responses.js';
import { UsersBody, UsersDeleteBody, UsersGetBody } from '../users.js';
import { contract } from './contract.js';

export const users = {
  usersAdd: contract({
    paths: { v1: 'users/add', v2: 'users/add' },
    summary: 'Add users or update their profiles, optionally as members of a document or folder',
    tags: ['users'],
    body: UsersBody,
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      users: [
        { userId: 'ann', name: 'Ann', email: 'ann@example.com', photoUrl: 'https://example.com/ann.png' },
        { userId: 'bob', name: 'Bob', email: 'bob@example.com' },
        { userId: 'ada', name: 'Ada', email: 'ada@acme.test' },
      ],
    },
    result: UsersResult,
  }),
  usersUpdate: contract({
    paths: { v1: 'users/update', v2: 'users/update' },
    summary: 'Update existing users; missing users are reported, not created',
    tags: ['users'],
    body: UsersBody,
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      users: [
        { userId: 'ann', name: 'Ann Lee' },
        { userId: 'zed', name: 'Zed' },
      ],
    },
    result: UsersResult,
  }),
  usersGet: contract({
    paths: { v1: 'users/get', v2: 'users/get' },
    summary: 'Members of the organization, or of a document, folder or user groups, in userId order and paged',
    tags: ['users'],
    body: UsersGetBody,
    example: { organizationId: 'acme', documentId: 'spec' },
    result: MembersResult,
    v2: { result: MembersResultV2 },
  }),
  usersDelete: contract({
    paths: { v1: 'users/delete', v2: 'users/delete' },
    summary: 'Remove users from the organization, or only from a document or folder',
    tags: ['users'],
    body: UsersDeleteBody,
    example: { organizationId: 'acme', documentId: 'spec', userIds: ['bob', 'ghost'] },
    result: MembersDeletedResult,
  }),
};
