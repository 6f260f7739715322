// The statements of organization user groups (docs/api.md, "POST /v1/organizations/usergroups/add"), SQLite and
// PostgreSQL side by side.
import { same, sql, written } from '../sql.js';

const GROUP = 'tenant_id = @tenantId AND organization_id = @organizationId AND group_id = @groupId';

export const GROUPS_SQL = {
  /** usergroups/add: creates, or renames when a name is given (no name leaves it as it was). */
  add: written(
    'addUserGroup',
    (s) => `INSERT INTO user_groups (tenant_id, organization_id, group_id, name, created_at, updated_at)
     VALUES (@tenantId, @organizationId, @groupId, coalesce(@name${s.cast('text')}, ''), @now, @now)
     ON CONFLICT (tenant_id, organization_id, group_id) DO UPDATE SET
       name = coalesce(@name, user_groups.name),
       updated_at = CASE WHEN @name${s.cast('text')} IS NULL THEN user_groups.updated_at ELSE @now END`,
  ),
  /** The group, locked on PostgreSQL so its entries change one writer at a time (and not beside its deletion). */
  lock: written('lockUserGroup', (s) => `SELECT group_id FROM user_groups WHERE ${GROUP}${s.lock('UPDATE')}`),
  /** A batch: SQLite once per user, PostgreSQL once with the userIds as an array. */
  addMembers: sql('addGroupMembers', {
    sqlite: `INSERT INTO group_members (tenant_id, organization_id, group_id, user_id)
             VALUES (@tenantId, @organizationId, @groupId, @userId) ON CONFLICT DO NOTHING`,
    postgres: `INSERT INTO group_members (tenant_id, organization_id, group_id, user_id)
               SELECT @tenantId, @organizationId, @groupId, x.user_id FROM unnest(@userId::text[]) AS x(user_id)
               ORDER BY x.user_id ON CONFLICT DO NOTHING`,
  }),
  deleteMembers: written(
    'deleteGroupMembers',
    (s) => `DELETE FROM group_members WHERE ${GROUP} AND ${s.isIn('user_id', 'userIds')} RETURNING user_id`,
  ),
  deleteAllMembers: same('deleteAllGroupMembers', `DELETE FROM group_members WHERE ${GROUP} RETURNING user_id`),
  /**
   * usergroups/get: the organization's groups after the page token's id, in id order: a range of user_groups' primary
   * key (tenant_id, organization_id, group_id), read in its order.
   */
  page: written(
    'userGroupsPage',
    (s) => `SELECT group_id, name FROM user_groups
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND (@after${s.cast('text')} IS NULL OR group_id > @after)
     ORDER BY group_id LIMIT @limit`,
  ),
};
