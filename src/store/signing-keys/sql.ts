// The statements of the tenants' end-user token signing keys (SPEC 13), SQLite and PostgreSQL side by side.
import { same } from '../sql.js';

export const SIGNING_KEYS_SQL = {
  byTenant: same('signingKeyByTenant', 'SELECT kid, secret, created_at FROM tenant_signing_keys WHERE tenant_id = @tenantId'),
  /** The first key of a tenant; one made at the same time elsewhere wins, and is read back. */
  insert: same(
    'insertSigningKey',
    `INSERT INTO tenant_signing_keys (tenant_id, kid, secret, created_at) VALUES (@tenantId, @kid, @secret, @createdAt)
     ON CONFLICT (tenant_id) DO NOTHING`,
  ),
};
