import type { Migration } from './migration.js';

export const workspaceKeys: Migration = {
  version: 34,
  name: "the workspace's credentials and each API key's settings",
  // The workspace is this installation (docs/api.md, "Workspace keys and tokens"): one row, made or
  // rotated by `marginalia workspace credentials`, its token kept only as a SHA-256 hash, like tenants'.
  // api_key_settings: what workspace/apikey/create and apikeyconfig/update keep of a key (a tenant),
  // keyed by the tenant; a tenant without a row has the defaults. The columns the service acts on are
  // columns; the members only stored and shown are one JSON text (store/workspace/).
  sqlite: `
CREATE TABLE workspace_credentials (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  workspace_id  TEXT NOT NULL,
  token_hash    TEXT NOT NULL,
  prefix        TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  rotated_at    INTEGER
) STRICT;
CREATE TABLE api_key_settings (
  tenant_id       TEXT PRIMARY KEY,
  owner_email     TEXT,
  key_type        TEXT,
  default_access  TEXT,
  shown           TEXT NOT NULL,
  updated_at      INTEGER NOT NULL
) STRICT, WITHOUT ROWID;`,
  postgres: `
CREATE TABLE workspace_credentials (
  id            integer PRIMARY KEY CHECK (id = 1),
  workspace_id  text COLLATE "C" NOT NULL,
  token_hash    text COLLATE "C" NOT NULL,
  prefix        text COLLATE "C" NOT NULL,
  created_at    bigint NOT NULL,
  rotated_at    bigint
);
CREATE TABLE api_key_settings (
  tenant_id       text COLLATE "C" PRIMARY KEY,
  owner_email     text,
  key_type        text,
  default_access  text,
  shown           text NOT NULL,
  updated_at      bigint NOT NULL
);`,
};
