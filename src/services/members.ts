// users/get and users/delete (docs/api.md, "POST /v1/users/get"): an organization's members, and their removal.
import type { Static } from 'typebox';
import { shownMember } from '../domain/answers/objects.js';
import { type Maybe, then } from '../maybe.js';
import type { Member } from '../schemas/responses.js';
import type { UsersDeleteData, UsersGetData } from '../schemas/users.js';
import type { Caller, Services } from './context.js';
import { asSet, filterDigest, keyPaged, keyTuple, tupleKey } from './page-token.js';
import { filterList, grouped, keyedOutcomes, scopeOf } from './rules.js';
import { invalid } from '../errors.js';
import { spell } from './member-path.js';

export interface MemberPage {
  /** In userId order; grouped (allDocuments with groupByDocumentId): by documentId, each in userId order. */
  users: Static<typeof Member>[] | Record<string, Static<typeof Member>[]>;
  nextPageToken: string | null;
}

/**
 * users/get: members (of a document, folder or groups, when named; with allDocuments, of any document) in userId
 * order, paged; unknown ids left out. With allDocuments and groupByDocumentId, every document's members.
 */
export function getMembers(services: Services, caller: Caller, input: UsersGetData): Maybe<MemberPage> {
  const scope = scopeOf(input);
  const allDocuments = input.allDocuments === true;
  if (allDocuments && scope)
    throw invalid(
      `${spell(['allDocuments'])} cannot be used with ${spell([scope.kind === 'document' ? 'documentId' : 'folderId'])}.`,
    );
  if (input.groupByDocumentId === true) {
    if (!allDocuments) throw invalid(`${spell(['groupByDocumentId'])} needs ${spell(['allDocuments'])}.`);
    return documentMembers(services, caller, input);
  }
  const userIds = filterList(input.userIds);
  const groupIds = filterList(input.organizationUserGroupIds);
  // allDocuments only when asked: the tokens of the reads without it stay what they were.
  const filters = ['users/get', input.organizationId, scope, asSet(userIds), asSet(groupIds)];
  const digest = filterDigest(allDocuments ? [...filters, 'allDocuments'] : filters);
  const read = (after: string | null, limit: number) =>
    services.store.getMembers(caller.id, {
      organizationId: input.organizationId,
      scope,
      userIds,
      groupIds,
      ofAnyDocument: allDocuments,
      after,
      limit,
    });
  return then(
    keyPaged(input, digest, read, (u) => u.userId),
    ({ page, nextPageToken }) => ({
      users: page.map(shownMember),
      nextPageToken,
    }),
  );
}

/** users/get by document: paged by (documentId, userId), the token's key that pair as JSON. */
function documentMembers({ store }: Services, caller: Caller, input: UsersGetData): Maybe<MemberPage> {
  const userIds = filterList(input.userIds);
  const groupIds = filterList(input.organizationUserGroupIds);
  const digest = filterDigest(['users/get by document', input.organizationId, asSet(userIds), asSet(groupIds)]);
  const read = (after: string | null, limit: number) =>
    store.getDocumentMembers(caller.id, {
      organizationId: input.organizationId,
      userIds,
      groupIds,
      after: after === null ? null : pairOf(after),
      limit,
    });
  return then(
    keyPaged(input, digest, read, (m) => tupleKey([m.documentId, m.userId])),
    ({ page, nextPageToken }) => {
      const users = grouped(page, (m) => m.documentId, shownMember);
      return { users, nextPageToken };
    },
  );
}

/** The (documentId, userId) a token's key holds. */
function pairOf(key: string): { documentId: string; userId: string } {
  const [documentId, userId] = keyTuple(key, ['id', 'id']);
  return { documentId, userId };
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
