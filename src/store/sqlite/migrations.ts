// SQLite schema steps. Every table is keyed tenant first, and every read path has an index that
// starts the same way.
import type { Migration } from '../migration.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE tenants (
  id          TEXT PRIMARY KEY,
  api_key     TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  disabled    INTEGER NOT NULL,
  revoked_at  INTEGER,
  created_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE auth_tokens (
  tenant_id   TEXT NOT NULL REFERENCES tenants(id),
  token_hash  TEXT NOT NULL,
  prefix      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER,
  PRIMARY KEY (tenant_id, token_hash)
) STRICT, WITHOUT ROWID;

-- name/email/photo_url are NULL until some write gives them; a NULL falls back to what a writer sent.
CREATE TABLE users (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  name             TEXT,
  email            TEXT,
  photo_url        TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE memberships (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  scope_kind       TEXT NOT NULL CHECK (scope_kind IN ('document', 'folder')),
  scope_id         TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, scope_kind, scope_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE annotations (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  annotation_id    TEXT NOT NULL,
  location         TEXT,
  location_id      TEXT,
  context          TEXT,
  status           TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id)
) STRICT, WITHOUT ROWID;

-- seq keeps creation order inside a thread; caller-chosen commentIds need not be increasing.
CREATE TABLE comments (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  annotation_id    TEXT NOT NULL,
  comment_id       INTEGER NOT NULL,
  seq              INTEGER NOT NULL,
  comment_html     TEXT NOT NULL,
  comment_text     TEXT NOT NULL,
  from_user_id     TEXT NOT NULL,
  from_name        TEXT,
  from_email       TEXT,
  status           TEXT NOT NULL,
  type             TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  last_updated     INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id, comment_id)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX comments_in_order ON comments (tenant_id, organization_id, document_id, annotation_id, seq);

CREATE TABLE notifications (
  tenant_id          TEXT NOT NULL,
  organization_id    TEXT NOT NULL,
  notification_id    TEXT NOT NULL,
  document_id        TEXT,
  location_id        TEXT,
  action_user_id     TEXT NOT NULL,
  action_user_name   TEXT,
  action_user_email  TEXT,
  headline_template  TEXT NOT NULL,
  headline_data      TEXT NOT NULL,
  body_message       TEXT NOT NULL,
  source_data        TEXT NOT NULL,
  timestamp          INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, notification_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX notifications_by_document
  ON notifications (tenant_id, organization_id, document_id, timestamp DESC, notification_id DESC);

-- timestamp is copied from the notification so a user's inbox is read in order from this index alone;
-- position keeps the recipients in the order the writer listed them.
CREATE TABLE notification_recipients (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  notification_id  TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  position         INTEGER NOT NULL,
  unread           INTEGER NOT NULL,
  timestamp        INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, notification_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX recipients_by_user
  ON notification_recipients (tenant_id, organization_id, user_id, timestamp DESC, notification_id DESC);
`,
  },
  {
    version: 2,
    name: 'recipients on the notification row',
    // A notification's recipients travel with its row, so a page of notifications is one query; the
    // notification_recipients table stays the index of each user's inbox. Both hold the unread flag:
    // whatever marks a notification read must update both in one transaction.
    sql: `
ALTER TABLE notifications ADD COLUMN recipients TEXT NOT NULL DEFAULT '[]';
UPDATE notifications SET recipients = (
  SELECT json_group_array(json_array(x.user_id, json(CASE x.unread WHEN 1 THEN 'true' ELSE 'false' END))) FROM (
    SELECT user_id, unread FROM notification_recipients r
    WHERE r.tenant_id = notifications.tenant_id AND r.organization_id = notifications.organization_id
      AND r.notification_id = notifications.notification_id
    ORDER BY r.position) x);
`,
  },
  {
    version: 3,
    name: 'credentials version',
    // Bumped by every change to keys and tokens, in the same transaction, so a process may cache
    // authentication and still see a revocation on the very next request by reading one number.
    sql: `
CREATE TABLE credentials_version (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  version  INTEGER NOT NULL
) STRICT;
INSERT INTO credentials_version (id, version) VALUES (1, 1);
`,
  },
  {
    version: 4,
    name: 'readiness probe',
    // One row that readiness rewrites while writes are being refused (disk full, read-only), to learn
    // when they are taken again without waiting for a caller's write.
    sql: `
CREATE TABLE readiness_probe (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  at  INTEGER NOT NULL
) STRICT;
INSERT INTO readiness_probe (id, at) VALUES (1, 0);
`,
  },
];
