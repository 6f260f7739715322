// The statements of organizations as objects (SPEC 12), SQLite and PostgreSQL side by side.
import { byKind, inList } from '../sql.js';

/** The database's clock in integer milliseconds. */
const DATABASE_NOW = {
  sqlite: "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
  postgres: '(extract(epoch FROM clock_timestamp()) * 1000)::bigint',
} as const;

/** The columns an organization is read with, in the order organizations.ts maps them. */
const COLUMNS = 'organization_id, name, disabled, created_at, updated_at';

export const ORGANIZATIONS_SQL = {
  /**
   * Any write that names an organization brings it into being (SPEC 12), with no name, at the
   * database's time: the writes that name one do not all carry the service's (docs/decisions.md).
   * (WHERE true: SQLite would read ON CONFLICT as a join's ON.)
   */
  touch: byKind(
    'touchOrganization',
    (kind) => `INSERT INTO organizations (tenant_id, organization_id, created_at, updated_at)
     SELECT @tenantId, @organizationId, t.now, t.now FROM (SELECT ${DATABASE_NOW[kind]} AS now) t
     WHERE true ON CONFLICT (tenant_id, organization_id) DO NOTHING`,
  ),
  /** organizations/add: creates, or renames when a name is given (no name leaves it as it was). */
  add: byKind(
    'addOrganization',
    (kind) => `INSERT INTO organizations (tenant_id, organization_id, name, created_at, updated_at)
     VALUES (@tenantId, @organizationId, coalesce(@name${kind === 'postgres' ? '::text' : ''}, ''), @now, @now)
     ON CONFLICT (tenant_id, organization_id) DO UPDATE SET
       name = coalesce(@name, organizations.name),
       updated_at = CASE WHEN @name${kind === 'postgres' ? '::text' : ''} IS NULL THEN organizations.updated_at ELSE @now END`,
  ),
  /** organizations/update: renames an organization that exists; answers whether it did. */
  update: byKind(
    'updateOrganization',
    (kind) => `UPDATE organizations SET name = coalesce(@name${kind === 'postgres' ? '::text' : ''}, name), updated_at = @now
     WHERE tenant_id = @tenantId AND organization_id = @organizationId RETURNING organization_id`,
  ),
  /** organizations/get: by id (or all), in id order, after the page token's id. */
  page: byKind(
    'organizationsPage',
    (kind) => `SELECT ${COLUMNS} FROM organizations
     WHERE tenant_id = @tenantId AND ${inList(kind, 'organization_id', 'ids')}
       AND (@after${kind === 'postgres' ? '::text' : ''} IS NULL OR organization_id > @after)
     ORDER BY organization_id LIMIT @limit`,
  ),
};
