// Rows of tenants and tokens as domain values. SQLite's 0/1 booleans read through Boolean().
import type { Row } from '../sql.js';
import type { Credentials, Tenant, TokenRecord } from '../../domain/credentials.js';

export function tenantFrom(r: Row): Tenant {
  return {
    id: r.id as string,
    apiKey: r.api_key as string,
    name: r.name as string,
    disabled: Boolean(r.disabled),
    revoked: r.revoked_at !== null,
    createdAt: Number(r.created_at),
  };
}

/** The rows of credentialsByKey: one per active token (a null hash when there is none); a null id when the key is unknown. */
export function credentialsFrom(rows: Row[]): Credentials | null {
  if (rows.length === 0 || rows[0]!.id === null) return null;
  return {
    tenant: tenantFrom(rows[0]!),
    activeTokenHashes: rows.flatMap((r) => (r.token_hash === null ? [] : [r.token_hash as string])),
  };
}

export function tokenListingFrom(r: Row) {
  return { prefix: r.prefix as string, createdAt: Number(r.created_at), revoked: r.revoked_at !== null };
}

export function tokenFrom(r: Row): TokenRecord & { revoked: boolean } {
  return { hash: r.token_hash as string, ...tokenListingFrom(r) };
}
