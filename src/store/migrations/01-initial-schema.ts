import type { Migration } from './migration.js';

export const initialSchema: Migration = {
  version: 1,
  name: 'initial schema',
  sqlite: `
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
  postgres: `
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
};
