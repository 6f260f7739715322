export interface Tenant {
  id: string;
  apiKey: string;
  name: string;
  disabled: boolean;
  revoked: boolean;
  createdAt: number;
}

export interface TokenRecord {
  /** SHA-256 of the token, hex. The token itself is never stored. */
  hash: string;
  /** The first few characters, so an operator can name a token to revoke. */
  prefix: string;
  createdAt: number;
}

export interface TenantListing extends Tenant {
  tokens: { prefix: string; createdAt: number; revoked: boolean }[];
}

export interface Credentials {
  tenant: Tenant;
  /** Hashes of the tenant's tokens that are not revoked. */
  activeTokenHashes: string[];
}

/**
 * A tenant's secret for signing end-user tokens (docs/api.md, "POST /v1/auth/token/get"); `secret` is 32 random
 * bytes as hex.
 */
export interface SigningKey {
  kid: string;
  secret: string;
  createdAt: number;
  /** As read: whether its tenant is disabled or revoked (its tokens then verify no more). */
  tenantRefused?: boolean;
  /** As read: its tenant, whose requests an end-user token's are. */
  tenant?: Tenant;
}
