import type { Migration } from './migration.js';

export const endUserSigningKeys: Migration = {
  version: 16,
  name: 'end-user token signing keys',
  // auth/token/get (docs/api.md, "POST /v1/auth/token/get") signs end-user tokens with HMAC-SHA256 under a secret
  // of the tenant's, made on first use. The secret itself is kept (a hash cannot sign); `kid` names it in each
  // token's header, so a later rotation can tell keys apart (docs/decisions.md, "End-user tokens").
  sqlite: `
CREATE TABLE tenant_signing_keys (
  tenant_id   TEXT PRIMARY KEY REFERENCES tenants(id),
  kid         TEXT NOT NULL,
  secret      TEXT NOT NULL,
  created_at  INTEGER NOT NULL
) STRICT;
`,
  postgres: `
CREATE TABLE tenant_signing_keys (
  tenant_id   text COLLATE "C" PRIMARY KEY REFERENCES tenants(id),
  kid         text COLLATE "C" NOT NULL,
  secret      text NOT NULL,
  created_at  bigint NOT NULL
);
`,
};
