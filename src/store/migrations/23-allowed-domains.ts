import type { Migration } from './migration.js';

export const allowedDomains: Migration = {
  version: 23,
  name: "a tenant's allowed browser domains",
  // workspace/domains/add and delete (store/domains/): the hosts, normalized, whose pages may read the
  // tenant's end-user answers (CORS, http/cors.ts). Keyed tenant first: a tenant's list and "does this
  // tenant allow one of an origin's candidate keys" are ranges of the key. A preflight carries no
  // credentials, so "does any tenant allow one" goes through the index by domain.
  sqlite: `
CREATE TABLE allowed_domains (
  tenant_id   TEXT NOT NULL,
  domain      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, domain)
) STRICT, WITHOUT ROWID;
CREATE INDEX allowed_domains_by_domain ON allowed_domains (domain);`,
  postgres: `
CREATE TABLE allowed_domains (
  tenant_id   text COLLATE "C" NOT NULL,
  domain      text COLLATE "C" NOT NULL,
  created_at  bigint NOT NULL,
  PRIMARY KEY (tenant_id, domain)
);
CREATE INDEX allowed_domains_by_domain ON allowed_domains (domain);`,
};
