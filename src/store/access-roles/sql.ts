// The statements of users' roles (migration 40: access_roles), SQLite and PostgreSQL side by side. An
// organization's role has resource_id ''. Row locks are not needed: a grant is one upsert per row, a
// revoke one delete, and the access check reads at its statement's snapshot.
import { sql, written } from '../sql.js';

const USER = 'tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId';

export const ACCESS_ROLES_SQL = {
  /** Roles given or changed (a batch: one row each; PostgreSQL from arrays). The newest grant wins. */
  grant: sql('grantAccessRoles', {
    sqlite: `INSERT INTO access_roles (tenant_id, organization_id, user_id, resource_kind, resource_id, access_role,
       expires_at, granted_at)
     VALUES (@tenantId, @organizationId, @userId, @kind, @resourceId, @role, @expiresAt, @now)
     ON CONFLICT (tenant_id, organization_id, user_id, resource_kind, resource_id)
     DO UPDATE SET access_role = excluded.access_role, expires_at = excluded.expires_at, granted_at = excluded.granted_at`,
    postgres: `INSERT INTO access_roles (tenant_id, organization_id, user_id, resource_kind, resource_id, access_role,
       expires_at, granted_at)
     SELECT @tenantId, x.organization_id, x.user_id, x.kind, x.resource_id, x.role, x.expires_at, @now
       FROM unnest(@organizationId::text[], @userId::text[], @kind::text[], @resourceId::text[], @role::text[],
         @expiresAt::bigint[]) AS x(organization_id, user_id, kind, resource_id, role, expires_at)
     ON CONFLICT (tenant_id, organization_id, user_id, resource_kind, resource_id)
     DO UPDATE SET access_role = excluded.access_role, expires_at = excluded.expires_at, granted_at = excluded.granted_at`,
  }),
  /** Roles taken away (a batch: one row each); answers how many there were. */
  revoke: sql('revokeAccessRoles', {
    sqlite: `DELETE FROM access_roles WHERE ${USER} AND resource_kind = @kind AND resource_id = @resourceId`,
    postgres: `DELETE FROM access_roles r USING unnest(@organizationId::text[], @userId::text[], @kind::text[],
         @resourceId::text[]) AS x(organization_id, user_id, kind, resource_id)
       WHERE r.tenant_id = @tenantId AND r.organization_id = x.organization_id AND r.user_id = x.user_id
         AND r.resource_kind = x.kind AND r.resource_id = x.resource_id`,
  }),
  /**
   * auth/permissions/get: the users' roles in the organization, by user and resource (expired ones too), each
   * folder's and document's with its access type (null: no row).
   */
  ofUsers: written(
    'accessRolesOfUsers',
    (s) => `SELECT r.user_id, r.resource_kind, r.resource_id, r.access_role, r.expires_at,
       CASE r.resource_kind
         WHEN 'folder' THEN (SELECT f.access_type FROM folders f WHERE f.tenant_id = r.tenant_id
           AND f.organization_id = r.organization_id AND f.folder_id = r.resource_id)
         WHEN 'document' THEN (SELECT d.access_type FROM documents d WHERE d.tenant_id = r.tenant_id
           AND d.organization_id = r.organization_id AND d.document_id = r.resource_id)
       END AS access_type
     FROM access_roles r
     WHERE r.tenant_id = @tenantId AND r.organization_id = @organizationId AND ${s.isIn('r.user_id', 'userIds')}
     ORDER BY r.user_id, r.resource_kind, r.resource_id`,
  ),
  /**
   * The facts the access check decides from (domain/access.ts), for one user and one resource, in one
   * statement: a document (@documentId, @folderId null) or a folder (@folderId, @documentId ''). Rows of the
   * user's roles on the document ('document'), on each folder from the resource's own up ('folder', `depth` 1
   * the nearest), on the organization ('organization'); and one row 'facts' whose `access_role` column
   * carries the resource's access type (null: no such resource), `depth` whether the user has a profile in
   * the organization and `expires_at` whether they are listed on the document or a folder above it (one
   * shape for every row, so the check is one round trip).
   */
  facts: written('accessFacts', (s) => {
    const folderId = s.typed('folderId', 'text');
    const document = 'tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId';
    const folder = `tenant_id = @tenantId AND organization_id = @organizationId AND folder_id = ${folderId}`;
    return `WITH RECURSIVE chain(folder_id, depth) AS (
       SELECT start.folder_id, 1 FROM (
         SELECT coalesce(${folderId}, (SELECT folder_id FROM documents WHERE ${document})) AS folder_id
       ) start WHERE start.folder_id IS NOT NULL
       UNION ALL
       SELECT f.parent_id, c.depth + 1 FROM chain c JOIN folders f
           ON f.tenant_id = @tenantId AND f.organization_id = @organizationId AND f.folder_id = c.folder_id
        WHERE f.parent_id IS NOT NULL AND c.depth < @maxDepth
     )
     SELECT 'facts' AS kind,
       CASE WHEN EXISTS (SELECT 1 FROM users WHERE ${USER}) THEN 1 ELSE 0 END AS depth,
       CASE WHEN ${folderId} IS NULL THEN (SELECT access_type FROM documents WHERE ${document})
         ELSE (SELECT access_type FROM folders WHERE ${folder}) END AS access_role,
       CASE WHEN EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = @tenantId AND m.organization_id = @organizationId
           AND m.user_id = @userId AND ((m.scope_kind = 'document' AND m.scope_id = @documentId)
             OR (m.scope_kind = 'folder' AND m.scope_id IN (SELECT folder_id FROM chain))))
         THEN 1 ELSE 0 END AS expires_at
     UNION ALL
     SELECT 'document', 0, access_role, expires_at FROM access_roles
      WHERE ${USER} AND resource_kind = 'document' AND resource_id = @documentId
     UNION ALL
     SELECT 'folder', c.depth, r.access_role, r.expires_at FROM chain c JOIN access_roles r
         ON r.tenant_id = @tenantId AND r.organization_id = @organizationId AND r.user_id = @userId
        AND r.resource_kind = 'folder' AND r.resource_id = c.folder_id
     UNION ALL
     SELECT 'organization', 0, access_role, expires_at FROM access_roles
      WHERE ${USER} AND resource_kind = 'organization' AND resource_id = ''`;
  }),
  /** users/data/delete: a batch of the users' roles, anywhere in the tenant (access_roles_by_user). */
  ofUsersAnywhere: written(
    'accessRolesForErasure',
    (s) => `SELECT organization_id, user_id, resource_kind, resource_id FROM access_roles
     WHERE tenant_id = @tenantId AND ${s.isIn('user_id', 'userIds')} AND ${s.inList('organization_id', 'organizationIds')}
     LIMIT @limit`,
  ),
};
