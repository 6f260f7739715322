import type { Migration } from './migration.js';

/** Migration 13: every organization some row names (comments and inbox rows name theirs through these). */
const KNOWN_ORGANIZATIONS = `SELECT tenant_id, organization_id FROM users
  UNION SELECT tenant_id, organization_id FROM memberships
  UNION SELECT tenant_id, organization_id FROM annotations
  UNION SELECT tenant_id, organization_id FROM notifications
  UNION SELECT tenant_id, organization_id FROM notification_settings`;

export const organizations: Migration = {
  version: 13,
  name: 'organizations are objects',
  // docs/api.md "Organizations". An organization has a row from its first write on: organizations/add makes one,
  // and so does every write that names an organization without one (store/organizations: touch). The
  // organizations a database already holds get theirs here, made at the time of the migration.
  sqlite: `
CREATE TABLE organizations (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  name             TEXT NOT NULL DEFAULT '',
  disabled         INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id)
) STRICT, WITHOUT ROWID;
INSERT INTO organizations (tenant_id, organization_id, created_at, updated_at)
  SELECT tenant_id, organization_id, CAST(unixepoch('subsec') * 1000 AS INTEGER), CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM (${KNOWN_ORGANIZATIONS}) ORDER BY 1, 2;
`,
  postgres: `
CREATE TABLE organizations (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  name             text NOT NULL DEFAULT '',
  disabled         boolean NOT NULL DEFAULT false,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id)
);
INSERT INTO organizations (tenant_id, organization_id, created_at, updated_at)
  SELECT tenant_id, organization_id, (extract(epoch FROM now()) * 1000)::bigint, (extract(epoch FROM now()) * 1000)::bigint
  FROM (${KNOWN_ORGANIZATIONS}) known ORDER BY 1, 2;
`,
};
