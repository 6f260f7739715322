import type { Migration } from './migration.js';

export const activities: Migration = {
  version: 32,
  name: 'activity logs and their settings',
  // /v2's activities (docs/api.md, "Activities"; store/activities/): one row per activity, written by
  // activities/add and, in the same transaction as the write, by every write's events
  // (docs/decisions.md, "Activities"). The columns are what the reads filter and order by; `body` is the
  // rest of the record as JSON text, shown as stored. Keyed tenant first: an organization's activities by
  // time, a document's by time, an entity's, a user's (the userId filter, users/data/get) and the tenant's oldest
  // for retention, each an index range.
  // SQLite: a rowid table, the JSON last (an entity snapshot may be large: migration 24).
  // activity_settings holds workspace/activityconfig (null: never set, the defaults apply) and
  // activity_muted the action types its triggers turn off, so the write's one insert can check both
  // without a read of its own.
  sqlite: `
CREATE TABLE activities (
  tenant_id         TEXT NOT NULL,
  organization_id   TEXT NOT NULL,
  activity_id       TEXT NOT NULL,
  document_id       TEXT,
  feature_type      TEXT NOT NULL,
  action_type       TEXT NOT NULL,
  actor_id          TEXT,
  target_entity_id  TEXT,
  created_at        INTEGER NOT NULL,
  immutable         INTEGER NOT NULL DEFAULT 0,
  body              TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX activities_by_id ON activities (tenant_id, organization_id, activity_id);
CREATE INDEX activities_by_time ON activities (tenant_id, organization_id, created_at);
CREATE INDEX activities_by_document ON activities (tenant_id, organization_id, document_id, created_at);
CREATE INDEX activities_by_target ON activities (tenant_id, organization_id, target_entity_id);
CREATE INDEX activities_by_age ON activities (tenant_id, created_at);
CREATE INDEX activities_by_actor ON activities (tenant_id, organization_id, actor_id, created_at);
CREATE TABLE activity_settings (
  tenant_id       TEXT NOT NULL PRIMARY KEY,
  is_enabled      INTEGER,
  immutable       INTEGER,
  enabled_time    INTEGER,
  retention_days  INTEGER,
  triggers        TEXT,
  updated_at      INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE activity_muted (
  tenant_id    TEXT NOT NULL,
  action_type  TEXT NOT NULL,
  PRIMARY KEY (tenant_id, action_type)
) STRICT, WITHOUT ROWID;`,
  postgres: `
CREATE TABLE activities (
  tenant_id         text COLLATE "C" NOT NULL,
  organization_id   text COLLATE "C" NOT NULL,
  activity_id       text COLLATE "C" NOT NULL,
  document_id       text COLLATE "C",
  feature_type      text COLLATE "C" NOT NULL,
  action_type       text COLLATE "C" NOT NULL,
  actor_id          text COLLATE "C",
  target_entity_id  text COLLATE "C",
  created_at        bigint NOT NULL,
  immutable         boolean NOT NULL DEFAULT false,
  body              text NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, activity_id)
);
CREATE INDEX activities_by_time ON activities (tenant_id, organization_id, created_at);
CREATE INDEX activities_by_document ON activities (tenant_id, organization_id, document_id, created_at);
CREATE INDEX activities_by_target ON activities (tenant_id, organization_id, target_entity_id);
CREATE INDEX activities_by_age ON activities (tenant_id, created_at);
CREATE INDEX activities_by_actor ON activities (tenant_id, organization_id, actor_id, created_at);
DO $$
BEGIN
  ALTER TABLE activities ALTER COLUMN body SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not built into this server: activities are compressed with pglz';
END
$$;
CREATE TABLE activity_settings (
  tenant_id       text COLLATE "C" NOT NULL PRIMARY KEY,
  is_enabled      boolean,
  immutable       boolean,
  enabled_time    bigint,
  retention_days  integer,
  triggers        text,
  updated_at      bigint NOT NULL
);
CREATE TABLE activity_muted (
  tenant_id    text COLLATE "C" NOT NULL,
  action_type  text COLLATE "C" NOT NULL,
  PRIMARY KEY (tenant_id, action_type)
);`,
};
