// The statements of users/get and users/delete (docs/api.md, "POST /v1/users/get"): an organization's members, by
// scope and group, and their removal. SQLite and PostgreSQL side by side.
import { written } from '../sql.js';

const USERS_OF_ORG = 'u.tenant_id = @tenantId AND u.organization_id = @organizationId';

export const MEMBERS_SQL = {
  /**
   * users/get: profiles in userId order after the page token's id; with a scope, members of it; with
   * groups, members of any of them; userIds filter. Each optional filter passes every row when null.
   */
  page: written(
    'membersPage',
    (s) => `SELECT u.user_id, u.name, u.email, u.photo_url FROM users u
     WHERE ${USERS_OF_ORG} AND ${s.inList('u.user_id', 'userIds')}
       AND (@after${s.cast('text')} IS NULL OR u.user_id > @after)
       AND (@scopeKind${s.cast('text')} IS NULL OR EXISTS (SELECT 1 FROM memberships m
         WHERE m.tenant_id = u.tenant_id AND m.organization_id = u.organization_id AND m.scope_kind = @scopeKind
           AND m.scope_id = @scopeId AND m.user_id = u.user_id))
       AND (@groupIds${s.cast('text[]')} IS NULL OR EXISTS (SELECT 1 FROM group_members g
         WHERE g.tenant_id = u.tenant_id AND g.organization_id = u.organization_id
           AND ${s.isIn('g.group_id', 'groupIds')} AND g.user_id = u.user_id))
       AND (NOT @anyDocument${s.cast('boolean')} OR EXISTS (SELECT 1 FROM memberships m
         WHERE m.tenant_id = u.tenant_id AND m.organization_id = u.organization_id AND m.user_id = u.user_id
           AND m.scope_kind = 'document'))
     ORDER BY u.user_id LIMIT @limit`,
  ),
  /**
   * users/get allDocuments grouped by document: every document membership with its profile, in
   * (documentId, userId) order after the page token's pair, through the memberships' key.
   */
  documentMembersPage: written(
    'documentMembersPage',
    (s) => `SELECT m.scope_id AS document_id, u.user_id, u.name, u.email, u.photo_url
     FROM memberships m JOIN users u ON u.tenant_id = m.tenant_id AND u.organization_id = m.organization_id
       AND u.user_id = m.user_id
     WHERE m.tenant_id = @tenantId AND m.organization_id = @organizationId AND m.scope_kind = 'document'
       AND ${s.inList('m.user_id', 'userIds')}
       AND (m.scope_id, m.user_id) > (@afterDocument${s.cast('text')}, @afterUser${s.cast('text')})
       AND (@groupIds${s.cast('text[]')} IS NULL OR EXISTS (SELECT 1 FROM group_members g
         WHERE g.tenant_id = u.tenant_id AND g.organization_id = u.organization_id
           AND ${s.isIn('g.group_id', 'groupIds')} AND g.user_id = u.user_id))
     ORDER BY m.scope_id, m.user_id LIMIT @limit`,
  ),
  /** users/delete with a document or folder: only that membership goes. */
  deleteMemberships: written(
    'deleteScopeMemberships',
    (s) => `DELETE FROM memberships WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND scope_kind = @scopeKind AND scope_id = @scopeId AND ${s.isIn('user_id', 'userIds')} RETURNING user_id`,
  ),
  /** users/delete of the organization: the profiles (after the version bump), then what hangs on them. */
  deleteProfiles: written(
    'deleteProfiles',
    (s) => `DELETE FROM users WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND ${s.isIn('user_id', 'userIds')} RETURNING user_id`,
  ),
  deleteAllMemberships: written(
    'deleteUserMemberships',
    (s) => `DELETE FROM memberships WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND ${s.isIn('user_id', 'userIds')} RETURNING user_id`,
  ),
  deleteGroupEntries: written(
    'deleteUserGroupEntries',
    (s) => `DELETE FROM group_members WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND ${s.isIn('user_id', 'userIds')} RETURNING user_id`,
  ),
};
