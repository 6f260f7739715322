// The statements of tenants, API keys and auth tokens, SQLite and PostgreSQL side by side.
import { same, sql, written } from '../sql.js';

const TENANT_COLUMNS = 'id, api_key, name, disabled, revoked_at, created_at';

export const CREDENTIALS_SQL = {
  version: same('credentialsVersion', 'SELECT version FROM credentials_version WHERE id = 1'),
  bumpVersion: same('bumpCredentialsVersion', 'UPDATE credentials_version SET version = version + 1 WHERE id = 1'),
  countTenants: same('countTenants', 'SELECT count(*) AS n FROM tenants'),
  insertTenant: same(
    'insertTenant',
    `INSERT INTO tenants (id, api_key, name, disabled, revoked_at, created_at)
     VALUES (@id, @apiKey, @name, @disabled, NULL, @createdAt)`,
  ),
  // The same index probes whether or not the key exists (an unknown key probes auth_tokens for no
  // tenant), so the time of a 401 does not tell which keys exist. No row for the tenant: unknown key.
  byKey: written(
    'credentialsByKey',
    (s) => `SELECT t.id, t.api_key, t.name, t.disabled, t.revoked_at, t.created_at, k.token_hash
     FROM (SELECT ${s.typed('apiKey', 'text')} AS api_key) q
     LEFT JOIN tenants t ON t.api_key = q.api_key
     LEFT JOIN auth_tokens k ON k.tenant_id = coalesce(t.id, '') AND k.revoked_at IS NULL`,
  ),
  allTenants: same('allTenants', `SELECT ${TENANT_COLUMNS} FROM tenants ORDER BY created_at, api_key`),
  revokeTenant: same('revokeTenant', 'UPDATE tenants SET revoked_at = coalesce(revoked_at, @at) WHERE api_key = @apiKey'),
  setDisabled: same('setDisabled', 'UPDATE tenants SET disabled = @disabled WHERE api_key = @apiKey'),
  insertToken: same(
    'insertToken',
    `INSERT INTO auth_tokens (tenant_id, token_hash, prefix, created_at, revoked_at)
     VALUES (@tenantId, @hash, @prefix, @createdAt, NULL) ON CONFLICT DO NOTHING`,
  ),
  tokensOf: same(
    'tokensOf',
    'SELECT token_hash, prefix, created_at, revoked_at FROM auth_tokens WHERE tenant_id = @tenantId ORDER BY created_at',
  ),
  allTokens: same('allTokens', 'SELECT tenant_id, prefix, created_at, revoked_at FROM auth_tokens ORDER BY created_at'),
  revokeToken: same(
    'revokeToken',
    `UPDATE auth_tokens SET revoked_at = @at
     WHERE tenant_id = @tenantId AND token_hash = @hash AND revoked_at IS NULL`,
  ),
  readinessProbe: same('readinessProbe', 'UPDATE readiness_probe SET at = at + 1 WHERE id = 1'),
  // PostgreSQL serializes first starts with a transaction-level advisory lock; SQLite's write
  // transaction already excludes every other writer.
  firstTenantLock: sql('firstTenantLock', {
    sqlite: 'SELECT 1',
    postgres: `SELECT pg_advisory_xact_lock(hashtext('marginalia:first-tenant:' || current_schema()))`,
  }),
};
