// users/get and users/delete (docs/api.md, "POST /v1/users/get"): an organization's members, and their removal.
import type { Static } from 'typebox';
import { shownMember } from '../domain/answers/objects.js';
import { type Maybe, then } from '../maybe.js';
import type { Member } from '../schemas/responses.js';
import type { UsersDeleteData, UsersGetData } from '../schemas/users.js';
import type { Caller, Services } from './context.js';
import { asSet, filterDigest, keyPaged } from './page-token.js';
import { filterList, keyedOutcomes, scopeOf } from './rules.js';

export interface MemberPage {
  users: Static<typeof Member>[];
  nextPageToken: string | null;
}

/** users/get: members (of a document, folder or groups, when named) in userId order, paged; unknown ids left out. */
export function getMembers({ store }: Services, caller: Caller, input: UsersGetData): Maybe<MemberPage> {
  const scope = scopeOf(input);
  const userIds = filterList(input.userIds);
  const groupIds = filterList(input.organizationUserGroupIds);
  const digest = filterDigest(['users/get', input.organizationId, scope, asSet(userIds), asSet(groupIds)]);
  const read = (after: string | null, limit: number) =>
    store.getMembers(caller.id, { organizationId: input.organizationId, scope, userIds, groupIds, after, limit });
  return then(
    keyPaged(input, digest, read, (u) => u.userId),
    ({ page, nextPageToken }) => ({
      users: page.map(shownMember),
      nextPageToken,
    }),
  );
}

/** users/delete: with a document or folder only that membership goes; else the profile, every membership and group entry. */
export function deleteMembers({ store, clock }: Services, caller: Caller, input: UsersDeleteData) {
  const scope = scopeOf(input);
  return then(store.deleteMembers(caller.id, input.organizationId, scope, input.userIds, clock()), (removed) =>
    keyedOutcomes(input.userIds, [...removed], (_userId, success) =>
      success ? { success: true, message: 'User removed.' } : { success: false, message: 'User does not exist.' },
    ),
  );
}
