// The events of user group writes (events/drafts.ts).
import { draft, json, once } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';

export const groupsAdded = (organizationId: string, groups: readonly { groupId: string; name: string | null }[]): EventDraft[] =>
  groups.map((g) =>
    draft(
      'organization.usergroup_add',
      organizationId,
      null,
      json(g.name !== null ? { organizationUserGroupId: g.groupId, groupName: g.name } : { organizationUserGroupId: g.groupId }),
    ),
  );

export const groupMembersChanged = (
  type: 'organization.usergroup_users_add' | 'organization.usergroup_users_delete',
  organizationId: string,
  groupId: string,
  userIds: readonly string[],
): EventDraft[] =>
  userIds.length === 0
    ? []
    : [draft(type, organizationId, null, json({ organizationUserGroupId: groupId, userIds: once(userIds) }))];
