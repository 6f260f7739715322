import type { Migration } from './migration.js';

export const serviceSettingsAndPresence: Migration = {
  version: 37,
  name: "workspace service settings and documents' presence",
  // service_settings: a tenant's settings of one workspace service (/v2's workspace/emailconfig,
  // notificationconfig and permissionproviderconfig: docs/api.md "Workspace service settings"), one row
  // per tenant and service: its switch and its configuration as the JSON text it was merged into. No
  // row: the service was never set, and its pages answer their documented defaults.
  // presence: who is on a document (presence/add, update, delete: docs/api.md "Presence"), a row per
  // user with the expiry each write moves forward; a read passes over expired rows, and retention's
  // pruning (events/pruner.ts) deletes them through presence_by_expiry, a tenant at a time.
  // presence_by_user serves users/data/delete, which erases a user's presence wherever it is.
  sqlite: `
CREATE TABLE service_settings (
  tenant_id   TEXT NOT NULL,
  service     TEXT NOT NULL,
  enabled     INTEGER NOT NULL,
  config      TEXT NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, service)
) STRICT, WITHOUT ROWID;
CREATE TABLE presence (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  name             TEXT,
  email            TEXT,
  status           TEXT NOT NULL,
  updated_at       INTEGER NOT NULL,
  expires_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX presence_by_expiry ON presence (tenant_id, expires_at);
CREATE INDEX presence_by_user ON presence (tenant_id, user_id);
`,
  postgres: `
CREATE TABLE service_settings (
  tenant_id   text COLLATE "C" NOT NULL,
  service     text COLLATE "C" NOT NULL,
  enabled     boolean NOT NULL,
  config      text NOT NULL,
  updated_at  bigint NOT NULL,
  PRIMARY KEY (tenant_id, service)
);
CREATE TABLE presence (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  name             text,
  email            text,
  status           text NOT NULL,
  updated_at       bigint NOT NULL,
  expires_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, user_id)
);
CREATE INDEX presence_by_expiry ON presence (tenant_id, expires_at);
CREATE INDEX presence_by_user ON presence (tenant_id, user_id);
`,
};
