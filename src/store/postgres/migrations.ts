// PostgreSQL schema steps, numbered like the SQLite ones (same versions, same meaning).
// Ids are COLLATE "C" so they compare byte by byte, which for the ASCII notificationIds is code unit
// order (SPEC 7), whatever the database's default collation. JSON members are kept as text, not
// jsonb: jsonb would reorder keys, and callers get back what they sent.
import type { Migration } from '../migration.js';

export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE tenants (
  id          text COLLATE "C" PRIMARY KEY,
  api_key     text COLLATE "C" NOT NULL UNIQUE,
  name        text NOT NULL,
  disabled    boolean NOT NULL,
  revoked_at  bigint,
  created_at  bigint NOT NULL
);

CREATE TABLE auth_tokens (
  tenant_id   text COLLATE "C" NOT NULL REFERENCES tenants(id),
  token_hash  text COLLATE "C" NOT NULL,
  prefix      text COLLATE "C" NOT NULL,
  created_at  bigint NOT NULL,
  revoked_at  bigint,
  PRIMARY KEY (tenant_id, token_hash)
);

CREATE TABLE users (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  name             text,
  email            text,
  photo_url        text,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, user_id)
);

CREATE TABLE memberships (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  scope_kind       text COLLATE "C" NOT NULL CHECK (scope_kind IN ('document', 'folder')),
  scope_id         text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, scope_kind, scope_id, user_id)
);

CREATE TABLE annotations (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  annotation_id    text COLLATE "C" NOT NULL,
  location         text,
  location_id      text COLLATE "C",
  context          text,
  status           text NOT NULL,
  created_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id)
);

CREATE TABLE comments (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  annotation_id    text COLLATE "C" NOT NULL,
  comment_id       integer NOT NULL,
  seq              integer NOT NULL,
  comment_html     text NOT NULL,
  comment_text     text NOT NULL,
  from_user_id     text COLLATE "C" NOT NULL,
  from_name        text,
  from_email       text,
  status           text NOT NULL,
  type             text NOT NULL,
  created_at       bigint NOT NULL,
  last_updated     bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id, comment_id)
);
CREATE UNIQUE INDEX comments_in_order ON comments (tenant_id, organization_id, document_id, annotation_id, seq);

CREATE TABLE notifications (
  tenant_id          text COLLATE "C" NOT NULL,
  organization_id    text COLLATE "C" NOT NULL,
  notification_id    text COLLATE "C" NOT NULL,
  document_id        text COLLATE "C",
  location_id        text COLLATE "C",
  action_user_id     text COLLATE "C" NOT NULL,
  action_user_name   text,
  action_user_email  text,
  headline_template  text NOT NULL,
  headline_data      text NOT NULL,
  body_message       text NOT NULL,
  source_data        text NOT NULL,
  timestamp          bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, notification_id)
);
CREATE INDEX notifications_by_document
  ON notifications (tenant_id, organization_id, document_id, timestamp DESC, notification_id DESC);

CREATE TABLE notification_recipients (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  notification_id  text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  position         integer NOT NULL,
  unread           boolean NOT NULL,
  timestamp        bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, notification_id, user_id)
);
CREATE INDEX recipients_by_user
  ON notification_recipients (tenant_id, organization_id, user_id, timestamp DESC, notification_id DESC);
`,
  },
  {
    version: 2,
    name: 'recipients on the notification row',
    // See the SQLite step of the same number.
    sql: `
ALTER TABLE notifications ADD COLUMN recipients text NOT NULL DEFAULT '[]';
UPDATE notifications n SET recipients = coalesce((
  SELECT json_agg(json_build_array(r.user_id, r.unread) ORDER BY r.position)::text FROM notification_recipients r
  WHERE r.tenant_id = n.tenant_id AND r.organization_id = n.organization_id AND r.notification_id = n.notification_id), '[]');
`,
  },
  {
    version: 3,
    name: 'credentials version',
    // Bumped by every change to keys and tokens, in the same transaction, so a process may cache
    // authentication and still see a revocation on the very next request by reading one number.
    sql: `
CREATE TABLE credentials_version (
  id       integer PRIMARY KEY CHECK (id = 1),
  version  bigint NOT NULL
);
INSERT INTO credentials_version (id, version) VALUES (1, 1);
`,
  },
  {
    version: 4,
    name: 'readiness probe',
    // See the SQLite step of the same number.
    sql: `
CREATE TABLE readiness_probe (
  id  integer PRIMARY KEY CHECK (id = 1),
  at  bigint NOT NULL
);
INSERT INTO readiness_probe (id, at) VALUES (1, 0);
`,
  },
];
