// Organization user groups (docs/api.md, "POST /v1/organizations/usergroups/add"): groups, and who is in them.
// docs/api.md "POST /v1/organizations/usergroups/users/add": a group is named by the caller's groupId
// (organizationUserGroupId in requests).
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { GroupUsersAddData, GroupUsersDeleteData, UserGroupsAddData, UserGroupsGetData } from '../schemas/groups.js';
import type { UserGroup } from '../schemas/responses.js';
import type { Static } from 'typebox';
import type { Caller, Services } from './context.js';
import { internalGroupId } from '../domain/ids.js';
import { spell } from './member-path.js';
import { filterDigest, keyPaged } from './page-token.js';
import { orNull, requireUnique } from './rules.js';

const noGroup = (organizationId: string, groupId: string) =>
  new ApiError('NOT_FOUND', `Organization user group ${groupId} does not exist in organization ${organizationId}.`);

/** usergroups/add: each group created, or renamed when given a name. */
export function addUserGroups({ store, clock }: Services, caller: Caller, input: UserGroupsAddData) {
  requireUnique(input.organizationUserGroups, (g) => g.groupId, ['organizationUserGroups'], 'groupId');
  const groups = input.organizationUserGroups.map((g) => ({ groupId: g.groupId, name: orNull(g.groupName) }));
  return then(store.addUserGroups(caller.id, input.organizationId, groups, clock()), () =>
    Object.fromEntries(
      groups.map(({ groupId }) => [
        groupId,
        {
          success: true,
          id: internalGroupId(caller.id, input.organizationId, groupId),
          message: 'Organization user group added.',
        },
      ]),
    ),
  );
}

const entries = (userIds: readonly string[], groupId: string, message: string) =>
  Object.fromEntries(userIds.map((userId) => [userId, { success: true, organizationUserGroupId: groupId, message }]));

/**
 * usergroups/users/add: the group must exist (docs/api.md, "What does not exist"); the users need not have a
 * profile yet (as memberships of documents, a group can be filled before its users arrive; users/get shows the
 * members that have one). Adding a user twice keeps one entry.
 */
export function addGroupUsers({ store, clock }: Services, caller: Caller, input: GroupUsersAddData) {
  const groupId = input.organizationUserGroupId;
  return then(store.addGroupMembers(caller.id, input.organizationId, groupId, input.userIds, clock()), (found) => {
    if (!found) throw noGroup(input.organizationId, groupId);
    return entries(input.userIds, groupId, 'User added to organization user group.');
  });
}

/**
 * usergroups/users/delete: the listed users, or every one with deleteAll (then each user removed is
 * answered). A user not in the group is answered as removed too: afterwards they are not in it. An
 * unknown group is NOT_FOUND, as for users/add.
 */
export function deleteGroupUsers({ store, clock }: Services, caller: Caller, input: GroupUsersDeleteData) {
  const groupId = input.organizationUserGroupId;
  const listed = input.userIds ?? [];
  if (input.deleteAll !== true && listed.length === 0)
    throw invalid(`${spell(['userIds'])} lists nobody and ${spell(['deleteAll'])} is not true: nothing to delete.`);
  const userIds = input.deleteAll === true ? null : listed;
  return then(store.deleteGroupMembers(caller.id, input.organizationId, groupId, userIds, clock()), (removed) => {
    if (!removed) throw noGroup(input.organizationId, groupId);
    return entries([...new Set([...listed, ...removed])], groupId, 'User deleted from organization user group.');
  });
}

export interface UserGroupPage {
  groups: Static<typeof UserGroup>[];
  nextPageToken: string | null;
}

/**
 * usergroups/get (an extension, docs/api.md "POST /v1/organizations/usergroups/get"): the organization's groups in
 * groupId order, paged as organizations/get. An organization without groups, or unknown, answers none, as users/get
 * does: nothing tells the two apart, here or there.
 */
export function getUserGroups({ store }: Services, caller: Caller, input: UserGroupsGetData): Maybe<UserGroupPage> {
  const digest = filterDigest(['organizations/usergroups/get', input.organizationId]);
  const read = (after: string | null, limit: number) => store.getUserGroups(caller.id, input.organizationId, after, limit);
  return then(
    keyPaged(input, digest, read, (g) => g.groupId),
    ({ page, nextPageToken }) => ({
      groups: page.map((g) => ({ groupId: g.groupId, groupName: g.name })),
      nextPageToken,
    }),
  );
}
