// The statements of the tenants' end-user token signing keys (docs/api.md, "POST /v1/auth/token/get"), SQLite and
// PostgreSQL side by side.
import { same, written } from '../sql.js';

export const SIGNING_KEYS_SQL = {
  /**
   * With its tenant (an end-user request is the tenant's, docs/api.md "End users") and the tenant's state: a disabled
   * or revoked tenant's tokens are refused.
   */
  byTenant: written(
    'signingKeyByTenant',
    (s) => `SELECT k.kid, k.secret, k.created_at, t.api_key, t.name, t.disabled, t.revoked_at, t.created_at AS tenant_created_at,
       (${s.isTrue('t.disabled')} OR t.revoked_at IS NOT NULL) AS refused
     FROM tenant_signing_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.tenant_id = @tenantId`,
  ),
  /** The first key of a tenant; one made at the same time elsewhere wins, and is read back. */
  insert: same(
    'insertSigningKey',
    `INSERT INTO tenant_signing_keys (tenant_id, kid, secret, created_at) VALUES (@tenantId, @kid, @secret, @createdAt)
     ON CONFLICT (tenant_id) DO NOTHING`,
  ),
  /** An operator's rotation: the tenant's key replaced, kid and all (none made when it has none). */
  replace: same(
    'replaceSigningKey',
    'UPDATE tenant_signing_keys SET kid = @kid, secret = @secret, created_at = @createdAt WHERE tenant_id = @tenantId',
  ),
};
