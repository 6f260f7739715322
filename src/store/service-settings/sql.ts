// The statements of the workspace's service settings (migration 37), SQLite and PostgreSQL side by side.
import { same, written } from '../sql.js';

export const SERVICE_SETTINGS_SQL = {
  /**
   * PostgreSQL: the tenant's row, so that a tenant's changes of its settings run one at a time and each
   * merges into what the one before wrote (the row may not exist yet). SQLite's write transaction
   * excludes every other writer already.
   */
  lockTenant: written(
    'lockTenantForServiceSettings',
    (s) => `SELECT id FROM tenants WHERE id = @tenantId${s.lock('NO KEY UPDATE')}`,
  ),
  read: same('serviceSetting', 'SELECT enabled, config FROM service_settings WHERE tenant_id = @tenantId AND service = @service'),
  write: same(
    'writeServiceSetting',
    `INSERT INTO service_settings (tenant_id, service, enabled, config, updated_at)
     VALUES (@tenantId, @service, @enabled, @config, @now)
     ON CONFLICT (tenant_id, service) DO UPDATE SET enabled = excluded.enabled, config = excluded.config,
       updated_at = excluded.updated_at`,
  ),
};
