// Users: profiles and memberships of an organization.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { DocumentMember, DocumentMemberQuery, MemberQuery, Profile, Scope, UserWrite } from '../../domain/users.js';
import { type Maybe, then } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { usersDeleted, usersShown } from './events.js';
import * as members from './members.js';
import * as users from './users.js';
import type { RoleGrant } from '../../domain/access.js';
import { rolesGranted } from '../access-roles/events.js';
import * as roles from '../access-roles/roles.js';

export const usersStore = (core: StoreCore) => ({
  upsertUsers(
    tenantId: string,
    organizationId: string,
    scope: Scope,
    list: UserWrite[],
    now: number,
    createFolder = false,
    grants: readonly RoleGrant[] = [],
  ): Maybe<void> {
    const written = core.emitting(
      'upsertUsers',
      tenantId,
      now,
      function* () {
        const profiles = yield* users.upsert(tenantId, organizationId, scope, list, now, createFolder);
        yield* roles.grant(tenantId, grants, now);
        return profiles;
      },
      (profiles) => [
        ...usersShown(
          'user.add',
          organizationId,
          scope,
          list.map((u) => u.userId),
          profiles,
        ),
        ...rolesGranted(grants),
      ],
    );
    return then(written, () => undefined);
  },

  /** Updates the users that exist in the scope; returns their userIds. */
  updateUsers(
    tenantId: string,
    organizationId: string,
    scope: Scope,
    list: UserWrite[],
    now: number,
    grants: readonly RoleGrant[] = [],
  ): Maybe<Set<string>> {
    // One statement on PostgreSQL still, but now in a transaction with its events (core.ts, batched); the
    // statement returns the changed profiles, which the events show. Roles go to the users that exist.
    const q = users.update(tenantId, organizationId, scope, list, now);
    const granted = (updated: ReadonlyMap<string, unknown>) => grants.filter((g) => updated.has(g.userId));
    const written = core.emitting(
      'updateUsers',
      tenantId,
      now,
      function* () {
        const updated = yield* core.batched(q);
        yield* roles.grant(tenantId, granted(updated), now);
        return updated;
      },
      (updated) => [
        ...usersShown(
          'user.update',
          organizationId,
          scope,
          list.map((u) => u.userId),
          updated,
        ),
        ...rolesGranted(granted(updated)),
      ],
    );
    return then(written, (updated) => new Set(updated.keys()));
  },

  findProfiles(tenantId: string, organizationId: string, userIds: string[]): Maybe<Map<string, Profile>> {
    return core.read('findProfiles', () => users.profiles(tenantId, organizationId, userIds));
  },

  /** The organization's profiles in userId order, at most `limit` of them (one range of the users table). */
  organizationProfiles(tenantId: string, organizationId: string, limit: number): Maybe<Profile[]> {
    return core.query('organizationProfiles', users.organizationProfiles(tenantId, organizationId, limit));
  },

  /** users/get: members in userId order, at most `limit`. */
  getMembers(tenantId: string, q: MemberQuery): Maybe<Profile[]> {
    return core.read('getMembers', () => members.members(tenantId, q));
  },

  /** users/get allDocuments grouped by document: memberships in (documentId, userId) order, at most `limit`. */
  getDocumentMembers(tenantId: string, q: DocumentMemberQuery): Maybe<DocumentMember[]> {
    return core.read('getDocumentMembers', () => members.documentMembers(tenantId, q));
  },

  /** users/delete: with a scope, that membership; else profiles, memberships and group entries. Answers who was removed. */
  deleteMembers(tenantId: string, organizationId: string, scope: Scope, userIds: string[], now: number): Maybe<Set<string>> {
    return core.emitting(
      'deleteMembers',
      tenantId,
      now,
      () => members.removeMembers(tenantId, organizationId, scope, userIds),
      (removed) =>
        usersDeleted(
          organizationId,
          scope,
          [...new Set(userIds)].filter((id) => removed.has(id)),
        ),
    );
  },
});

export type UsersStore = ReturnType<typeof usersStore>;
