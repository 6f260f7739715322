// Store code for the tenants' end-user token signing keys (docs/api.md, "POST /v1/auth/token/get"): one per tenant,
// made on first use.
import { first, type Row, run, type Work } from '../sql.js';
import type { SigningKey } from '../../domain/credentials.js';
import { SIGNING_KEYS_SQL as SQL } from './sql.js';

const keyFrom = (tenantId: string, r: Row): SigningKey => ({
  kid: r.kid as string,
  secret: r.secret as string,
  createdAt: Number(r.created_at),
  tenantRefused: Boolean(r.refused),
  tenant: {
    id: tenantId,
    apiKey: r.api_key as string,
    name: r.name as string,
    disabled: Boolean(r.disabled),
    revoked: r.revoked_at != null,
    createdAt: Number(r.tenant_created_at),
  },
});

export function* find(tenantId: string): Work<SigningKey | null> {
  const row = yield* first(SQL.byTenant, { tenantId });
  return row ? keyFrom(tenantId, row) : null;
}

/** The tenant's key: `candidate` when it has none yet, else the one it has (made first, here or by another process). */
export function* ensure(tenantId: string, candidate: SigningKey): Work<SigningKey> {
  yield* run(SQL.insert, { tenantId, ...candidate });
  return (yield* find(tenantId))!;
}

/** Replaces the tenant's key; false when it has none. */
export function* replace(tenantId: string, key: SigningKey): Work<boolean> {
  return (yield* run(SQL.replace, { tenantId, ...key })) > 0;
}
