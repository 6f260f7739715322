// The statements of a tenant's allowed browser domains (workspace/domains/add and delete, and CORS for
// its end-user requests: http/cors.ts), SQLite and PostgreSQL side by side. A domain is stored as
// services/domain-names.ts normalizes it; a lookup names the keys an origin could be allowed by.
import { same, sql, written } from '../sql.js';

export const DOMAINS_SQL = {
  /**
   * PostgreSQL: the tenant's row, so that its domain writes run one at a time and the limit and the
   * skipped entries they answer stay exact (NO KEY: tokens can still be added under it). SQLite's write
   * transaction excludes every other writer already.
   */
  lockTenant: written('lockTenantForDomains', (s) => `SELECT id FROM tenants WHERE id = @tenantId${s.lock('NO KEY UPDATE')}`),
  count: same('countAllowedDomains', 'SELECT count(*) AS n FROM allowed_domains WHERE tenant_id = @tenantId'),
  /** Which of `domains` the tenant allows already. */
  among: written(
    'allowedDomainsAmong',
    (s) => `SELECT domain FROM allowed_domains WHERE tenant_id = @tenantId AND ${s.isIn('domain', 'domains')}`,
  ),
  /** A batch: SQLite once per domain, PostgreSQL once with the domains as an array. */
  insert: sql('insertAllowedDomains', {
    sqlite: 'INSERT INTO allowed_domains (tenant_id, domain, created_at) VALUES (@tenantId, @domain, @now)',
    postgres: `INSERT INTO allowed_domains (tenant_id, domain, created_at)
               SELECT @tenantId, d, @now::bigint FROM unnest(@domain::text[]) AS d ORDER BY d`,
  }),
  delete: written(
    'deleteAllowedDomains',
    (s) => `DELETE FROM allowed_domains WHERE tenant_id = @tenantId AND ${s.isIn('domain', 'domains')} RETURNING domain`,
  ),
  ofTenant: same('allowedDomainsOfTenant', 'SELECT domain FROM allowed_domains WHERE tenant_id = @tenantId ORDER BY domain'),
  /** Whether the tenant allows any of the candidate keys (its primary key). */
  tenantAllows: written(
    'tenantAllowsDomain',
    (s) => `SELECT 1 AS found FROM allowed_domains WHERE tenant_id = @tenantId AND ${s.isIn('domain', 'candidates')} LIMIT 1`,
  ),
  /** Whether any tenant allows any of the candidate keys (the index by domain): a preflight names no tenant. */
  anyAllows: written(
    'anyTenantAllowsDomain',
    (s) => `SELECT 1 AS found FROM allowed_domains WHERE ${s.isIn('domain', 'candidates')} LIMIT 1`,
  ),
};
