// Every forward-only schema step, with its SQLite and its PostgreSQL text side by side, and the one
// runner that applies them (under the dialect's migration lock). A released step never changes; a
// new need is a new step. Every table is keyed tenant first, and every read path has an index that
// starts the same way. Ids are compared code unit by code unit (COLLATE "C" on PostgreSQL, SQLite's
// default BINARY), as SPEC 7 orders them. JSON members are kept as text, not jsonb: jsonb would
// reorder keys, and callers get back what they sent.
import type { DatabaseKind, Dialect } from './dialect/dialect.js';
import { renderStoredThreads } from './comments/backfill.js';
import { renderStoredAnswers } from './notifications/backfill.js';
import { COUNT_TRIGGERS } from './notifications/counts-schema.js';
import { all, exec, run, same, type Work } from './sql.js';

export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
  /** Store code run after the DDL, in the same transaction: data that only the service's code can write. */
  backfill?: () => Work<void>;
}

/** Migration 13: every organization some row names (comments and inbox rows name theirs through these). */
const KNOWN_ORGANIZATIONS = `SELECT tenant_id, organization_id FROM users
  UNION SELECT tenant_id, organization_id FROM memberships
  UNION SELECT tenant_id, organization_id FROM annotations
  UNION SELECT tenant_id, organization_id FROM notifications
  UNION SELECT tenant_id, organization_id FROM notification_settings`;

/** Migration 14: every document some row names. */
const KNOWN_DOCUMENTS = `SELECT tenant_id, organization_id, document_id FROM annotations
  UNION SELECT tenant_id, organization_id, document_id FROM notifications WHERE document_id IS NOT NULL
  UNION SELECT tenant_id, organization_id, scope_id FROM memberships WHERE scope_kind = 'document'
  UNION SELECT tenant_id, organization_id, document_id FROM notification_settings
  UNION SELECT tenant_id, organization_id, document_id FROM document_versions`;

/**
 * Migration 27: where each user has a row of their own (USER_COLUMNS) or is named in JSON (NAMING: a
 * tag, an assignment, a notification's template data), so users/data/delete visits those organizations
 * only, found by user, instead of walking every organization of the tenant (personal-data/erasure.ts).
 * Triggers keep it, on every insert and on each change of a naming column, so no write path can miss
 * one; rows that go leave their entry (a visit then finds nothing, cheaply), and an erasure and
 * organizations/delete take theirs. `named` is part of the key, so every trigger only inserts, with
 * ON CONFLICT DO NOTHING: no entry is ever updated, and no write waits on another's entry. The
 * backfill reads each table once. The list is the migration's own, not personal-data/sql.ts's
 * HELD_BY_USER that it resembles: a released migration's text never changes, whatever that one becomes.
 */
export const USER_COLUMNS: readonly [table: string, column: string][] = [
  ['users', 'user_id'],
  ['comments', 'from_user_id'],
  ['notifications', 'action_user_id'],
  ['inbox', 'user_id'],
  ['memberships', 'user_id'],
  ['group_members', 'user_id'],
  ['annotation_reads', 'user_id'],
  ['notification_reads', 'user_id'],
  ['notification_settings', 'user_id'],
];
/**
 * The userIds a JSON column of a row `r` names (as personal-data/erasure.ts reads them), per database.
 * SQLite: entries of user_organizations, from `new` in a trigger (`from` empty) or from the table's
 * rows (`from`: "table r, "), as json_each reads a column of a table before it in the join. PostgreSQL:
 * the userIds, read LATERAL of the row.
 */
export const NAMING: readonly {
  table: string;
  column: string;
  sqlite: (r: string, from: string) => string;
  postgres: (r: string) => string;
}[] = [
  {
    table: 'comments',
    column: 'tagged_user_contacts',
    sqlite: (r, from) =>
      ['$.userId', '$.contact.userId']
        .map(
          (path) => `SELECT ${r}.tenant_id, json_extract(t.value, '${path}') AS user_id, ${r}.organization_id, 1
      FROM ${from}json_each(${r}.tagged_user_contacts) t WHERE t.type = 'object'`,
        )
        .join(' UNION '),
    postgres: (r) => `SELECT e->>'userId' AS user_id FROM jsonb_array_elements(CASE
        WHEN jsonb_typeof(${r}.tagged_user_contacts::jsonb) = 'array' THEN ${r}.tagged_user_contacts::jsonb ELSE '[]' END) e
      WHERE jsonb_typeof(e) = 'object'
      UNION SELECT e->'contact'->>'userId' FROM jsonb_array_elements(CASE
        WHEN jsonb_typeof(${r}.tagged_user_contacts::jsonb) = 'array' THEN ${r}.tagged_user_contacts::jsonb ELSE '[]' END) e
      WHERE jsonb_typeof(e) = 'object' AND jsonb_typeof(e->'contact') = 'object'`,
  },
  {
    table: 'annotations',
    column: 'assigned_to',
    sqlite: (r, from) => `SELECT ${r}.tenant_id, json_extract(${r}.assigned_to, '$.userId') AS user_id, ${r}.organization_id, 1
      ${from ? `FROM ${from.slice(0, -2)}` : ''} WHERE json_type(${r}.assigned_to) = 'object'`,
    postgres: (r) =>
      `SELECT ${r}.assigned_to::jsonb->>'userId' AS user_id WHERE jsonb_typeof(${r}.assigned_to::jsonb) = 'object'`,
  },
  {
    table: 'notifications',
    column: 'headline_data',
    sqlite: (r, from) => `SELECT ${r}.tenant_id, json_extract(t.value, '$.userId') AS user_id, ${r}.organization_id, 1
      FROM ${from}json_each(${r}.headline_data) t WHERE t.type = 'object'`,
    postgres: (r) => `SELECT v.value->>'userId' AS user_id FROM jsonb_each(CASE
        WHEN jsonb_typeof(${r}.headline_data::jsonb) = 'object' THEN ${r}.headline_data::jsonb ELSE '{}' END) v
      WHERE jsonb_typeof(v.value) = 'object'`,
  },
];
const USER_ORGANIZATIONS = {
  sqlite: `
CREATE TABLE user_organizations (
  tenant_id        TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  named            INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, user_id, organization_id, named)
) STRICT, WITHOUT ROWID;
CREATE INDEX user_organizations_by_organization ON user_organizations (tenant_id, organization_id);
${USER_COLUMNS.map(
  ([table, column]) => `CREATE TRIGGER ${table}_user_organization AFTER INSERT ON ${table} BEGIN
  INSERT OR IGNORE INTO user_organizations VALUES (new.tenant_id, new.${column}, new.organization_id, 0);
END;
CREATE TRIGGER ${table}_user_organization_update AFTER UPDATE OF ${column} ON ${table} WHEN new.${column} IS NOT old.${column} BEGIN
  INSERT OR IGNORE INTO user_organizations VALUES (new.tenant_id, new.${column}, new.organization_id, 0);
END;
INSERT OR IGNORE INTO user_organizations SELECT DISTINCT tenant_id, ${column}, organization_id, 0 FROM ${table};`,
).join('\n')}
${NAMING.map((n) => {
  const named = (select: string) => `INSERT OR IGNORE INTO user_organizations
    SELECT * FROM (${select}) x WHERE typeof(x.user_id) = 'text'`;
  return `CREATE TRIGGER ${n.table}_insert_names_users AFTER INSERT ON ${n.table} WHEN new.${n.column} IS NOT NULL BEGIN
  ${named(n.sqlite('new', ''))};
END;
CREATE TRIGGER ${n.table}_update_names_users AFTER UPDATE OF ${n.column} ON ${n.table}
  WHEN new.${n.column} IS NOT NULL AND new.${n.column} IS NOT old.${n.column} BEGIN
  ${named(n.sqlite('new', ''))};
END;
${named(n.sqlite('r', `${n.table} r, `))};`;
}).join('\n')}
`,
  postgres: `
CREATE TABLE user_organizations (
  tenant_id        text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  named            boolean NOT NULL,
  PRIMARY KEY (tenant_id, user_id, organization_id, named)
);
CREATE INDEX user_organizations_by_organization ON user_organizations (tenant_id, organization_id);
${USER_COLUMNS.map(
  ([table, column]) => `CREATE FUNCTION ${table}_user_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_organizations SELECT DISTINCT tenant_id, ${column}, organization_id, false FROM added ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER ${table}_user_organizations AFTER INSERT ON ${table} REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION ${table}_user_organizations();
CREATE FUNCTION ${table}_user_organizations_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_organizations VALUES (NEW.tenant_id, NEW.${column}, NEW.organization_id, false) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER ${table}_user_organizations_update AFTER UPDATE OF ${column} ON ${table} FOR EACH ROW
  WHEN (NEW.${column} IS DISTINCT FROM OLD.${column}) EXECUTE FUNCTION ${table}_user_organizations_update();
INSERT INTO user_organizations SELECT DISTINCT tenant_id, ${column}, organization_id, false FROM ${table} ON CONFLICT DO NOTHING;`,
).join('\n')}
${NAMING.map((n) => {
  const names = (from: string) => `INSERT INTO user_organizations SELECT DISTINCT r.tenant_id, x.user_id, r.organization_id, true
    FROM ${from} r, LATERAL (${n.postgres('r')}) x WHERE r.${n.column} IS NOT NULL AND x.user_id IS NOT NULL ON CONFLICT DO NOTHING`;
  return `CREATE FUNCTION ${n.table}_insert_names_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${names('named_rows')};
  RETURN NULL;
END $$;
CREATE TRIGGER ${n.table}_insert_names_users AFTER INSERT ON ${n.table} REFERENCING NEW TABLE AS named_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.table}_insert_names_users();
CREATE FUNCTION ${n.table}_update_names_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${names('(SELECT NEW.*)')};
  RETURN NULL;
END $$;
CREATE TRIGGER ${n.table}_update_names_users AFTER UPDATE OF ${n.column} ON ${n.table} FOR EACH ROW
  WHEN (NEW.${n.column} IS NOT NULL AND NEW.${n.column} IS DISTINCT FROM OLD.${n.column})
  EXECUTE FUNCTION ${n.table}_update_names_users();
${names(n.table)};`;
}).join('\n')}
`,
};

/** Migration 6's data step/** Migration 6's data step, the same on both databases: each inbox row from its recipient and notification. */
const FILL_INBOX = `INSERT INTO inbox
  SELECT r.tenant_id, r.organization_id, r.user_id, r.timestamp, r.notification_id, r.position, r.unread, n.document_id,
    n.location_id, n.action_user_id, n.action_user_name, n.action_user_email, n.answer
  FROM notification_recipients r JOIN notifications n ON n.tenant_id = r.tenant_id
    AND n.organization_id = r.organization_id AND n.notification_id = r.notification_id
  ORDER BY r.tenant_id, r.organization_id, r.user_id, r.timestamp DESC, r.notification_id DESC;
DROP TABLE notification_recipients;`;

/** Migration 12's data step, the same on both databases: each user's counts from the inbox rows there are. */
const FILL_COUNTS = `INSERT INTO inbox_counts (tenant_id, organization_id, user_id, document_id, total, unread, wide_listed, wide_read)
  SELECT tenant_id, organization_id, user_id, document_id, count(*), sum(CASE WHEN unread THEN 1 ELSE 0 END), 0, 0
  FROM (SELECT tenant_id, organization_id, user_id, '' AS document_id, unread FROM inbox
        UNION ALL SELECT tenant_id, organization_id, user_id, document_id, unread FROM inbox WHERE document_id IS NOT NULL) AS r
  GROUP BY tenant_id, organization_id, user_id, document_id;`;

export const MIGRATIONS: readonly Migration[] = [
  {
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
  },
  {
    version: 2,
    name: 'recipients on the notification row',
    // A notification's recipients travel with its row, so a page of notifications is one query; the
    // notification_recipients table stays the index of each user's inbox. Both hold the unread flag:
    // whatever marks a notification read must update both in one transaction.
    sqlite: `
ALTER TABLE notifications ADD COLUMN recipients TEXT NOT NULL DEFAULT '[]';
UPDATE notifications SET recipients = (
  SELECT json_group_array(json_array(x.user_id, json(CASE x.unread WHEN 1 THEN 'true' ELSE 'false' END))) FROM (
    SELECT user_id, unread FROM notification_recipients r
    WHERE r.tenant_id = notifications.tenant_id AND r.organization_id = notifications.organization_id
      AND r.notification_id = notifications.notification_id
    ORDER BY r.position) x);
`,
    postgres: `
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
    sqlite: `
CREATE TABLE credentials_version (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  version  INTEGER NOT NULL
) STRICT;
INSERT INTO credentials_version (id, version) VALUES (1, 1);
`,
    postgres: `
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
    // One row that readiness rewrites while writes are being refused (disk full, read-only), to learn
    // when they are taken again without waiting for a caller's write.
    sqlite: `
CREATE TABLE readiness_probe (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  at  INTEGER NOT NULL
) STRICT;
INSERT INTO readiness_probe (id, at) VALUES (1, 0);
`,
    postgres: `
CREATE TABLE readiness_probe (
  id  integer PRIMARY KEY CHECK (id = 1),
  at  bigint NOT NULL
);
INSERT INTO readiness_probe (id, at) VALUES (1, 0);
`,
  },
  {
    version: 5,
    name: 'answers rendered at write time',
    // notifications/get splices each notification's answer from text rendered when it was written
    // (answers/notifications.ts) instead of building it per read. Rows written before get theirs here,
    // rendered by the same code (key order follows JavaScript's rules, which SQL cannot reproduce).
    sqlite: `ALTER TABLE notifications ADD COLUMN answer TEXT NOT NULL DEFAULT '';`,
    postgres: `ALTER TABLE notifications ADD COLUMN answer text NOT NULL DEFAULT '';`,
    backfill: renderStoredAnswers,
  },
  {
    version: 6,
    name: 'a page of notifications is one range scan',
    // A user's page of notifications is one range scan of contiguous rows: each inbox row holds what the
    // answer needs (the stored answer, the action user, the filter columns), so a read no longer descends
    // into notifications once per row. SQLite clusters the rows by user (the primary key); PostgreSQL
    // gets them in that order once, here, and reads them through inbox_by_user. The answer is copied per
    // recipient, in the transaction that writes the notification. On SQLite the document index covers
    // the read by document too (113 -> 50 us per page of 10 at the large scale); PostgreSQL cannot
    // carry the answer in a B-tree entry (at most about 2.7 kB), so there a read by document still
    // visits each row.
    sqlite: `
CREATE TABLE inbox (
  tenant_id          TEXT NOT NULL,
  organization_id    TEXT NOT NULL,
  user_id            TEXT NOT NULL,
  timestamp          INTEGER NOT NULL,
  notification_id    TEXT NOT NULL,
  position           INTEGER NOT NULL,
  unread             INTEGER NOT NULL,
  document_id        TEXT,
  location_id        TEXT,
  action_user_id     TEXT NOT NULL,
  action_user_name   TEXT,
  action_user_email  TEXT,
  answer             TEXT NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, user_id, timestamp DESC, notification_id DESC)
) STRICT, WITHOUT ROWID;
${FILL_INBOX}
CREATE UNIQUE INDEX inbox_by_notification ON inbox (tenant_id, organization_id, notification_id, user_id);
DROP INDEX notifications_by_document;
CREATE INDEX notifications_by_document ON notifications (tenant_id, organization_id, document_id, timestamp DESC,
  notification_id DESC, location_id, action_user_id, action_user_name, action_user_email, answer);
`,
    postgres: `
CREATE TABLE inbox (
  tenant_id          text COLLATE "C" NOT NULL,
  organization_id    text COLLATE "C" NOT NULL,
  user_id            text COLLATE "C" NOT NULL,
  timestamp          bigint NOT NULL,
  notification_id    text COLLATE "C" NOT NULL,
  position           integer NOT NULL,
  unread             boolean NOT NULL,
  document_id        text COLLATE "C",
  location_id        text COLLATE "C",
  action_user_id     text COLLATE "C" NOT NULL,
  action_user_name   text,
  action_user_email  text,
  answer             text NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, notification_id, user_id)
);
${FILL_INBOX}
CREATE INDEX inbox_by_user ON inbox (tenant_id, organization_id, user_id, timestamp DESC, notification_id DESC);
ANALYZE inbox;
`,
  },
  {
    version: 7,
    name: 'profile versions',
    // Reads resolve authors and action users against profiles held in memory (services/profiles.ts)
    // instead of joining users once per row. Every write to an organization's users bumps its version
    // here, first in its transaction, and every read returns the version it saw: a cache of another
    // version is dropped before it answers, so a rename on any instance shows on the next read. No row
    // is version 0.
    sqlite: `
CREATE TABLE profile_versions (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  version          INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id)
) STRICT, WITHOUT ROWID;
`,
    postgres: `
CREATE TABLE profile_versions (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  version          bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id)
);
`,
  },
  {
    version: 8,
    name: 'comment threads with a whole life',
    // SPEC 10. A thread gains its lastUpdated, the members an import keeps (assignedTo, priority,
    // targetElement; taggedUserContacts on comments), and two columns that its filters read without
    // parsing JSON or walking comments: status_id (the status object's id) and first_user_id (the
    // author of its first comment). A user's read mark per thread is a row of annotation_reads. A
    // document's threads are read newest first through annotations_by_time.
    sqlite: `
ALTER TABLE annotations ADD COLUMN last_updated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE annotations ADD COLUMN status_id TEXT;
ALTER TABLE annotations ADD COLUMN first_user_id TEXT;
ALTER TABLE annotations ADD COLUMN assigned_to TEXT;
ALTER TABLE annotations ADD COLUMN priority TEXT;
ALTER TABLE annotations ADD COLUMN target_element TEXT;
ALTER TABLE comments ADD COLUMN tagged_user_contacts TEXT;
UPDATE annotations AS a SET
  status_id = CASE WHEN json_type(a.status, '$.id') = 'text' THEN json_extract(a.status, '$.id') END,
  first_user_id = (SELECT c.from_user_id FROM comments c
    WHERE c.tenant_id = a.tenant_id
    AND c.organization_id = a.organization_id AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id
    ORDER BY c.seq LIMIT 1),
  last_updated = max(a.created_at, coalesce((SELECT max(c.last_updated) FROM comments c
    WHERE c.tenant_id = a.tenant_id
    AND c.organization_id = a.organization_id AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id), 0));
CREATE INDEX annotations_by_time ON annotations (tenant_id, organization_id, document_id, created_at DESC, annotation_id DESC);
CREATE TABLE annotation_reads (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  annotation_id    TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  read_at          INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id, user_id)
) STRICT, WITHOUT ROWID;
`,
    postgres: `
ALTER TABLE annotations ADD COLUMN last_updated bigint NOT NULL DEFAULT 0, ADD COLUMN status_id text COLLATE "C",
  ADD COLUMN first_user_id text COLLATE "C", ADD COLUMN assigned_to text, ADD COLUMN priority text,
  ADD COLUMN target_element text;
ALTER TABLE comments ADD COLUMN tagged_user_contacts text;
UPDATE annotations AS a SET
  status_id = CASE WHEN json_typeof(a.status::json -> 'id') = 'string' THEN a.status::json ->> 'id' END,
  first_user_id = (SELECT c.from_user_id FROM comments c
    WHERE c.tenant_id = a.tenant_id
    AND c.organization_id = a.organization_id AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id
    ORDER BY c.seq LIMIT 1),
  last_updated = greatest(a.created_at, coalesce((SELECT max(c.last_updated) FROM comments c
    WHERE c.tenant_id = a.tenant_id
    AND c.organization_id = a.organization_id AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id), 0));
CREATE INDEX annotations_by_time ON annotations (tenant_id, organization_id, document_id, created_at DESC, annotation_id DESC);
CREATE TABLE annotation_reads (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  annotation_id    text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  read_at          bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id, user_id)
);
ANALYZE annotations;
`,
  },
  {
    version: 9,
    name: 'threads keep their answers',
    // commentannotations/get splices each thread's answer from text rendered when it was written
    // (answers/annotations.ts): its head (answer_head) and its comments' answers in creation order
    // (answer_comments, appended to by comments/add), instead of reading every comment of the page.
    // Unread counts compare a read mark with the thread's newest comment by anyone but the reader,
    // which the thread now keeps (comments/latest.ts), instead of walking its comments. Threads written
    // before get both here, rendered by the same code.
    // SQLite: the table becomes a rowid table, answers last. A WITHOUT ROWID table is a B-tree of keys,
    // whose rows spill to overflow pages past about 2 kB of a 8 kB page, so a page of 20 threads of
    // 2-3 kB read each through a chain of pages (about 200 us in a loop); a rowid table keeps up to
    // about 8 kB of a row on its page (about 55 us), and columns before the answers are read without them.
    sqlite: `
CREATE TABLE annotations_v9 (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  annotation_id    TEXT NOT NULL,
  location         TEXT,
  location_id      TEXT,
  context          TEXT,
  status           TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  last_updated     INTEGER NOT NULL DEFAULT 0,
  status_id        TEXT,
  first_user_id    TEXT,
  assigned_to      TEXT,
  priority         TEXT,
  target_element   TEXT,
  last_comment_at  INTEGER,
  last_comment_by  TEXT,
  last_other_at    INTEGER,
  answer_head      TEXT NOT NULL DEFAULT '',
  answer_comments  TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id)
) STRICT;
INSERT INTO annotations_v9 (tenant_id, organization_id, document_id, annotation_id, location, location_id, context, status,
  created_at, last_updated, status_id, first_user_id, assigned_to, priority, target_element)
SELECT tenant_id, organization_id, document_id, annotation_id, location, location_id, context, status,
  created_at, last_updated, status_id, first_user_id, assigned_to, priority, target_element
FROM annotations ORDER BY tenant_id, organization_id, document_id, annotation_id;
DROP TABLE annotations;
ALTER TABLE annotations_v9 RENAME TO annotations;
CREATE INDEX annotations_by_time ON annotations (tenant_id, organization_id, document_id, created_at DESC, annotation_id DESC);
`,
    postgres: `
ALTER TABLE annotations ADD COLUMN answer_head text NOT NULL DEFAULT '', ADD COLUMN answer_comments text NOT NULL DEFAULT '',
  ADD COLUMN last_comment_at bigint, ADD COLUMN last_comment_by text COLLATE "C", ADD COLUMN last_other_at bigint;
`,
    backfill: renderStoredThreads,
  },
  {
    version: 10,
    name: 'counts read an index',
    // commentannotations/count/get probes each document's threads for their status, their newest
    // comment and its author, and the newest comment by anyone else. With those in one index the
    // count reads index pages only, never a thread's row (2-4 kB of stored answer, each on its own
    // page): 50 documents in 80 us instead of 130 in a loop (bench/README.md). The key is the
    // primary key's, so that a count's read marks are found thread by thread as before.
    sqlite: `
CREATE INDEX annotations_counted ON annotations (tenant_id, organization_id, document_id, annotation_id,
  status_id, last_comment_by, last_comment_at, last_other_at);
`,
    postgres: `
CREATE INDEX annotations_counted ON annotations (tenant_id, organization_id, document_id, annotation_id)
  INCLUDE (status_id, last_comment_by, last_comment_at, last_other_at);
`,
  },
  {
    version: 11,
    name: 'documents have a thread version',
    // A page of threads held in memory (services/thread-pages.ts) is answered again only while its
    // document's version is the one it was read under. A page is made of annotations rows alone (their
    // stored answers, migration 9) and profiles (their own version), so every change to what it shows
    // is a change to an annotations row: triggers move the version on each, whoever writes it (this
    // release, an instance of an earlier one during a rolling upgrade, a later migration, a hand-run
    // statement). The version is random, not a counter, so a database restored to an earlier state
    // cannot repeat one a running process holds. A document without a row has version 0.
    sqlite: `
CREATE TABLE document_versions (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  version          INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
) STRICT, WITHOUT ROWID;
${['INSERT', 'UPDATE', 'DELETE']
  .map(
    (event) => `CREATE TRIGGER annotations_${event.toLowerCase()}_moves_version AFTER ${event} ON annotations BEGIN
  INSERT INTO document_versions (tenant_id, organization_id, document_id, version)
    VALUES (${event === 'DELETE' ? 'OLD' : 'NEW'}.tenant_id, ${event === 'DELETE' ? 'OLD' : 'NEW'}.organization_id,
      ${event === 'DELETE' ? 'OLD' : 'NEW'}.document_id, random() >> 11)
    ON CONFLICT (tenant_id, organization_id, document_id) DO UPDATE SET version = excluded.version;
END;`,
  )
  .join('\n')}
`,
    // One trigger per statement (with the rows it changed as a table), so a statement over many
    // threads of a document moves its version once, after its rows are locked.
    postgres: `
CREATE TABLE document_versions (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  version          bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
);
CREATE FUNCTION annotations_move_versions() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  INSERT INTO document_versions (tenant_id, organization_id, document_id, version)
    SELECT tenant_id, organization_id, document_id, floor(random() * 9007199254740991)::bigint
    FROM (SELECT DISTINCT tenant_id, organization_id, document_id FROM changed) AS c
    ON CONFLICT (tenant_id, organization_id, document_id) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END
$fn$;
${['INSERT', 'UPDATE', 'DELETE']
  .map(
    (event) => `CREATE TRIGGER annotations_${event.toLowerCase()}_moves_versions AFTER ${event} ON annotations
  REFERENCING ${event === 'DELETE' ? 'OLD' : 'NEW'} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION annotations_move_versions();`,
  )
  .join('\n')}
`,
  },
  {
    version: 12,
    name: 'notifications have read state, organization-wide addressing, counts and settings',
    // SPEC 11. An organization-wide notification is one row (notify_all), found by members at read time
    // through notifications_wide; it is never copied per member. Read state is per (notification, user)
    // and lives in that user's own row: the unread flag of their inbox row when the notification lists
    // them, else a notification_reads row (organization-wide notifications only). A read mark never
    // rewrites a row another user's read needs. The stored answers keep every recipient unread; a read
    // lays the read marks over them (answers/notifications.ts), found through inbox_readers and
    // notification_reads' key. Counts are kept by triggers (notifications/counts-schema.ts), filled
    // here from the inboxes that exist. source is SPEC 11.7's "comment" or "custom".
    sqlite: `
ALTER TABLE notifications ADD COLUMN notify_all INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notifications ADD COLUMN source TEXT NOT NULL DEFAULT 'custom';
ALTER TABLE inbox ADD COLUMN wide INTEGER NOT NULL DEFAULT 0;
CREATE INDEX notifications_wide ON notifications (tenant_id, organization_id, timestamp DESC, notification_id DESC,
  document_id, location_id, action_user_id, action_user_name, action_user_email, answer) WHERE notify_all = 1;
CREATE INDEX inbox_unread ON inbox (tenant_id, organization_id, user_id, timestamp DESC, notification_id DESC) WHERE unread = 1;
CREATE INDEX inbox_readers ON inbox (tenant_id, organization_id, notification_id, user_id) WHERE unread = 0;
CREATE TABLE notification_reads (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  notification_id  TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  internal_id      TEXT NOT NULL,
  document_id      TEXT,
  PRIMARY KEY (tenant_id, organization_id, notification_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE notification_settings (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  inbox            TEXT NOT NULL,
  email            TEXT NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE inbox_counts (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  total            INTEGER NOT NULL,
  unread           INTEGER NOT NULL,
  wide_listed      INTEGER NOT NULL,
  wide_read        INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, user_id, document_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE wide_counts (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  total            INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
) STRICT, WITHOUT ROWID;
${FILL_COUNTS}
${COUNT_TRIGGERS.sqlite}
`,
    postgres: `
ALTER TABLE notifications ADD COLUMN notify_all boolean NOT NULL DEFAULT false;
ALTER TABLE notifications ADD COLUMN source text NOT NULL DEFAULT 'custom';
ALTER TABLE inbox ADD COLUMN wide boolean NOT NULL DEFAULT false;
CREATE INDEX notifications_wide ON notifications (tenant_id, organization_id, timestamp DESC, notification_id DESC)
  WHERE notify_all;
CREATE INDEX inbox_unread ON inbox (tenant_id, organization_id, user_id, timestamp DESC, notification_id DESC) WHERE unread;
CREATE INDEX inbox_readers ON inbox (tenant_id, organization_id, notification_id, user_id) WHERE NOT unread;
CREATE TABLE notification_reads (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  notification_id  text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  internal_id      text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C",
  PRIMARY KEY (tenant_id, organization_id, notification_id, user_id)
);
CREATE TABLE notification_settings (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  inbox            text NOT NULL,
  email            text NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, user_id)
);
CREATE TABLE inbox_counts (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  total            bigint NOT NULL,
  unread           bigint NOT NULL,
  wide_listed      bigint NOT NULL,
  wide_read        bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, user_id, document_id)
);
CREATE TABLE wide_counts (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  total            bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
);
${FILL_COUNTS}
${COUNT_TRIGGERS.postgres}
`,
  },
  {
    version: 13,
    name: 'organizations are objects',
    // SPEC 12. An organization has a row from its first write on: organizations/add makes one, and so
    // does every write that names an organization without one (store/organizations: touch). The
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
  },
  {
    version: 14,
    name: 'documents, folders, groups and erasures are objects',
    // SPEC 12. A document has a row from its first write on, like an organization (migration 13); the
    // documents a database already holds get theirs here. A folder's parent and a document's folder are
    // NULL at the top. Erasure jobs (users/data/delete) keep only what their status answers.
    sqlite: `
CREATE TABLE documents (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  name             TEXT NOT NULL DEFAULT '',
  folder_id        TEXT,
  access_type      TEXT NOT NULL DEFAULT 'organizationPrivate',
  disabled         INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX documents_by_folder ON documents (tenant_id, organization_id, folder_id, document_id);
CREATE TABLE folders (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  folder_id        TEXT NOT NULL,
  name             TEXT NOT NULL DEFAULT '',
  parent_id        TEXT,
  access_type      TEXT NOT NULL DEFAULT 'organizationPrivate',
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, folder_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX folders_by_parent ON folders (tenant_id, organization_id, parent_id, folder_id);
CREATE TABLE user_groups (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  group_id         TEXT NOT NULL,
  name             TEXT NOT NULL DEFAULT '',
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, group_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE group_members (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  group_id         TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, group_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX group_members_by_user ON group_members (tenant_id, organization_id, user_id);
CREATE TABLE erasure_jobs (
  tenant_id        TEXT NOT NULL,
  job_id           TEXT NOT NULL,
  tasks_count      INTEGER NOT NULL,
  completed_at     INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, job_id)
) STRICT, WITHOUT ROWID;
INSERT INTO documents (tenant_id, organization_id, document_id, created_at, updated_at)
  SELECT tenant_id, organization_id, document_id, CAST(unixepoch('subsec') * 1000 AS INTEGER), CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM (${KNOWN_DOCUMENTS}) known ORDER BY 1, 2, 3;
`,
    postgres: `
CREATE TABLE documents (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  name             text NOT NULL DEFAULT '',
  folder_id        text COLLATE "C",
  access_type      text NOT NULL DEFAULT 'organizationPrivate',
  disabled         boolean NOT NULL DEFAULT false,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
);
CREATE INDEX documents_by_folder ON documents (tenant_id, organization_id, folder_id, document_id);
CREATE TABLE folders (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  folder_id        text COLLATE "C" NOT NULL,
  name             text NOT NULL DEFAULT '',
  parent_id        text COLLATE "C",
  access_type      text NOT NULL DEFAULT 'organizationPrivate',
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, folder_id)
);
CREATE INDEX folders_by_parent ON folders (tenant_id, organization_id, parent_id, folder_id);
CREATE TABLE user_groups (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  group_id         text COLLATE "C" NOT NULL,
  name             text NOT NULL DEFAULT '',
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, group_id)
);
CREATE TABLE group_members (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  group_id         text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, group_id, user_id)
);
CREATE INDEX group_members_by_user ON group_members (tenant_id, organization_id, user_id);
CREATE TABLE erasure_jobs (
  tenant_id        text COLLATE "C" NOT NULL,
  job_id           text COLLATE "C" NOT NULL,
  tasks_count      bigint NOT NULL,
  completed_at     bigint NOT NULL,
  PRIMARY KEY (tenant_id, job_id)
);
INSERT INTO documents (tenant_id, organization_id, document_id, created_at, updated_at)
  SELECT tenant_id, organization_id, document_id, (extract(epoch FROM now()) * 1000)::bigint, (extract(epoch FROM now()) * 1000)::bigint
  FROM (${KNOWN_DOCUMENTS}) known ORDER BY 1, 2, 3;
`,
  },
  {
    version: 15,
    name: 'rows of a user found by user',
    // users/data/get and users/data/delete (SPEC 12) find one user's rows in an organization: their
    // comments, the notifications they acted in, their memberships, read marks and settings, each
    // keyed by something else first. Without these, erasing a user in batches would scan the
    // organization once per batch (docs/decisions.md, "Users, groups and personal data").
    sqlite: `
CREATE INDEX comments_by_author ON comments (tenant_id, organization_id, from_user_id, document_id, annotation_id, comment_id);
CREATE INDEX notifications_by_actor ON notifications (tenant_id, organization_id, action_user_id, notification_id);
CREATE INDEX memberships_by_user ON memberships (tenant_id, organization_id, user_id);
CREATE INDEX annotation_reads_by_user ON annotation_reads (tenant_id, organization_id, user_id);
CREATE INDEX notification_reads_by_user ON notification_reads (tenant_id, organization_id, user_id);
CREATE INDEX notification_settings_by_user ON notification_settings (tenant_id, organization_id, user_id);
`,
    postgres: `
CREATE INDEX comments_by_author ON comments (tenant_id, organization_id, from_user_id, document_id, annotation_id, comment_id);
CREATE INDEX notifications_by_actor ON notifications (tenant_id, organization_id, action_user_id, notification_id);
CREATE INDEX memberships_by_user ON memberships (tenant_id, organization_id, user_id);
CREATE INDEX annotation_reads_by_user ON annotation_reads (tenant_id, organization_id, user_id);
CREATE INDEX notification_reads_by_user ON notification_reads (tenant_id, organization_id, user_id);
CREATE INDEX notification_settings_by_user ON notification_settings (tenant_id, organization_id, user_id);
`,
  },
  {
    version: 16,
    name: 'end-user token signing keys',
    // auth/token/get (SPEC 13) signs end-user tokens with HMAC-SHA256 under a secret of the tenant's,
    // made on first use. The secret itself is kept (a hash cannot sign); `kid` names it in each token's
    // header, so a later rotation can tell keys apart (docs/decisions.md, "End-user tokens").
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
  },
  {
    version: 17,
    name: 'an event outbox and webhooks',
    // SPEC 13. Every write records its events in `events` in its own transaction (the outbox), under
    // ids that increase per tenant in commit order: `event_counters` holds each tenant's last id and
    // its row is taken last in the writing transaction, so on PostgreSQL a later id never commits
    // before an earlier one and a reader that resumes after an id misses nothing. `body` is the event
    // as sent (JSON text); `audience`, for a notification's events, who it is addressed to (what an
    // end-user token's stream may carry). Webhooks keep their secret itself (an HMAC cannot be made with a hash of
    // its key) and a cursor: the last event id turned into deliveries. A delivery is one event for one
    // webhook, with its body and its state; `webhook_queues` has one row per (webhook, organization)
    // with deliveries pending: when its oldest may be tried next, and the instance whose lease it is
    // under (the lease's end is that time, so a crashed instance's deliveries are taken over). Each
    // attempt is logged in `webhook_attempts` (docs/decisions.md, "Webhooks").
    sqlite: `
CREATE TABLE events (
  tenant_id        TEXT NOT NULL,
  id               INTEGER NOT NULL,
  type             TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT,
  created_at       INTEGER NOT NULL,
  audience         TEXT,
  body             TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX events_by_age ON events (created_at);
CREATE TABLE event_counters (
  tenant_id  TEXT PRIMARY KEY,
  last_id    INTEGER NOT NULL
) STRICT;
CREATE TABLE webhooks (
  tenant_id     TEXT NOT NULL,
  id            TEXT NOT NULL,
  url           TEXT NOT NULL,
  description   TEXT,
  event_types   TEXT,
  secret        TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  event_cursor  INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, id)
) STRICT;
CREATE TABLE webhook_deliveries (
  tenant_id          TEXT NOT NULL,
  webhook_id         TEXT NOT NULL,
  event_id           INTEGER NOT NULL,
  organization_id    TEXT NOT NULL,
  event_type         TEXT NOT NULL,
  body               TEXT NOT NULL,
  status             TEXT NOT NULL,
  attempts           INTEGER NOT NULL DEFAULT 0,
  created_at         INTEGER NOT NULL,
  finished_at        INTEGER,
  PRIMARY KEY (tenant_id, webhook_id, event_id)
) STRICT;
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (tenant_id, webhook_id, organization_id, event_id)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';
CREATE TABLE webhook_queues (
  tenant_id        TEXT NOT NULL,
  webhook_id       TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  next_attempt_at  INTEGER NOT NULL,
  claimed_by       TEXT,
  PRIMARY KEY (tenant_id, webhook_id, organization_id)
) STRICT;
CREATE INDEX webhook_queues_due ON webhook_queues (next_attempt_at);
CREATE TABLE webhook_attempts (
  id             INTEGER PRIMARY KEY,
  tenant_id      TEXT NOT NULL,
  webhook_id     TEXT NOT NULL,
  event_id       INTEGER NOT NULL,
  event_type     TEXT NOT NULL,
  attempt        INTEGER NOT NULL,
  attempted_at   INTEGER NOT NULL,
  status         TEXT NOT NULL,
  response_code  INTEGER,
  error          TEXT,
  duration_ms    INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_attempts_by_webhook ON webhook_attempts (tenant_id, webhook_id, id);
CREATE INDEX webhook_attempts_by_age ON webhook_attempts (attempted_at);
`,
    postgres: `
CREATE TABLE events (
  tenant_id        text COLLATE "C" NOT NULL,
  id               bigint NOT NULL,
  type             text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C",
  created_at       bigint NOT NULL,
  audience         text,
  body             text NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX events_by_age ON events (created_at);
CREATE TABLE event_counters (
  tenant_id  text COLLATE "C" PRIMARY KEY,
  last_id    bigint NOT NULL
);
CREATE TABLE webhooks (
  tenant_id     text COLLATE "C" NOT NULL,
  id            text COLLATE "C" NOT NULL,
  url           text NOT NULL,
  description   text,
  event_types   text,
  secret        text NOT NULL,
  created_at    bigint NOT NULL,
  event_cursor  bigint NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE webhook_deliveries (
  tenant_id          text COLLATE "C" NOT NULL,
  webhook_id         text COLLATE "C" NOT NULL,
  event_id           bigint NOT NULL,
  organization_id    text COLLATE "C" NOT NULL,
  event_type         text COLLATE "C" NOT NULL,
  body               text NOT NULL,
  status             text COLLATE "C" NOT NULL,
  attempts           integer NOT NULL DEFAULT 0,
  created_at         bigint NOT NULL,
  finished_at        bigint,
  PRIMARY KEY (tenant_id, webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (tenant_id, webhook_id, organization_id, event_id)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';
CREATE TABLE webhook_queues (
  tenant_id        text COLLATE "C" NOT NULL,
  webhook_id       text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  next_attempt_at  bigint NOT NULL,
  claimed_by       text,
  PRIMARY KEY (tenant_id, webhook_id, organization_id)
);
CREATE INDEX webhook_queues_due ON webhook_queues (next_attempt_at);
CREATE TABLE webhook_attempts (
  id             bigserial PRIMARY KEY,
  tenant_id      text COLLATE "C" NOT NULL,
  webhook_id     text COLLATE "C" NOT NULL,
  event_id       bigint NOT NULL,
  event_type     text COLLATE "C" NOT NULL,
  attempt        integer NOT NULL,
  attempted_at   bigint NOT NULL,
  status         text COLLATE "C" NOT NULL,
  response_code  integer,
  error          text,
  duration_ms    integer NOT NULL
);
CREATE INDEX webhook_attempts_by_webhook ON webhook_attempts (tenant_id, webhook_id, id);
CREATE INDEX webhook_attempts_by_age ON webhook_attempts (attempted_at);
`,
  },
  {
    version: 18,
    name: 'event drafts numbered after their commit (PostgreSQL)',
    // Migration 17 had a PostgreSQL write take its events' ids from the tenant's counter row and hold
    // that row to its commit: a tenant's writes then ran one at a time (45% of notifications/add req/s
    // at 10 connections). Now a write leaves its events in event_drafts, without ids and without
    // touching the counter, and right after its commit sequence_events(tenant) numbers them: it locks
    // the counter row, and in a statement of its own (so a snapshot taken after the lock: every draft
    // committed before it is seen) moves the tenant's drafts into events with the next ids, in the
    // order their writes took write_id, then announces the new last id (NOTIFY, sent at commit). The
    // lock is held for that one call, and ids still commit in order, so "everything after id N" stays
    // complete. A draft whose writer stopped before numbering it is numbered by the tenant's next write
    // or by the sweep (src/events/sweep.ts). SQLite runs one write at a time anyway: it numbers events
    // as it records them, as before, and needs none of this. The channel name is EVENTS_CHANNEL's.
    sqlite: '-- PostgreSQL only: SQLite numbers events inside the writing transaction.',
    postgres: `
CREATE SEQUENCE event_draft_writes;
CREATE TABLE event_drafts (
  tenant_id        text COLLATE "C" NOT NULL,
  write_id         bigint NOT NULL,
  position         integer NOT NULL,
  type             text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C",
  created_at       bigint NOT NULL,
  audience         text,
  body_rest        text NOT NULL,
  PRIMARY KEY (tenant_id, write_id, position)
);
CREATE FUNCTION sequence_events(tenant text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  last bigint;
  added bigint;
BEGIN
  INSERT INTO event_counters (tenant_id, last_id) VALUES (tenant, 0) ON CONFLICT (tenant_id) DO NOTHING;
  SELECT last_id INTO last FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  WITH moved AS (DELETE FROM event_drafts WHERE tenant_id = tenant RETURNING *)
  INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
  SELECT tenant, last + n, type, organization_id, document_id, created_at, audience, '{"id":' || (last + n) || body_rest
  FROM (SELECT m.*, row_number() OVER (ORDER BY write_id, position) AS n FROM moved m) numbered;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 THEN
    UPDATE event_counters SET last_id = last + added WHERE tenant_id = tenant;
    PERFORM pg_notify('marginalia_events', tenant || ' ' || (last + added));
  END IF;
  RETURN last + added;
END
$$;
`,
  },
  {
    version: 19,
    name: 'a numbering moves the drafts of the writes it serves (PostgreSQL)',
    // Migration 18's sequence_events found the tenant's drafts by scanning for them, and every draft it
    // had moved left a dead row behind until autovacuum came by (a minute apart by default): under a
    // steady stream of writes each numbering read more dead rows than the last (0.2 ms a call at first,
    // 0.9 ms after ten seconds of writes, measured with pgbench). Now a numbering is given the write_ids
    // of the writes it serves (their process waits for it) and takes exactly those by key, at a cost
    // that does not grow; drafts are keyed by write_id for it. Without write_ids (the sweep, an erasure:
    // rare) it takes every draft of the tenant as before. Ids still commit in the order numberings take
    // the counter. The counter row is made only when missing, rather than tried on every call. The
    // one-argument form stays, numbering every draft, for instances of the release before during a
    // rolling upgrade. Without write_ids the numbering reads the whole (small) drafts table: drafts
    // live for milliseconds, and that path is the sweep's and an erasure's, not a write's. The two
    // paths are two statements, not one with `writes IS NULL OR ...`: plpgsql keeps a generic plan per
    // statement, and one for the OR could not look drafts up by write_id.
    sqlite: '-- PostgreSQL only: SQLite numbers events inside the writing transaction.',
    postgres: `
ALTER TABLE event_drafts DROP CONSTRAINT event_drafts_pkey, ADD PRIMARY KEY (write_id, position);
CREATE FUNCTION sequence_events(tenant text, writes bigint[]) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  last bigint;
  added bigint;
BEGIN
  SELECT last_id INTO last FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO event_counters (tenant_id, last_id) VALUES (tenant, 0) ON CONFLICT (tenant_id) DO NOTHING;
    SELECT last_id INTO last FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  END IF;
  IF writes IS NULL THEN
    WITH moved AS (DELETE FROM event_drafts WHERE tenant_id = tenant RETURNING *)
    INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
    SELECT tenant, last + n, type, organization_id, document_id, created_at, audience, '{"id":' || (last + n) || body_rest
    FROM (SELECT m.*, row_number() OVER (ORDER BY write_id, position) AS n FROM moved m) numbered;
  ELSE
    WITH moved AS (DELETE FROM event_drafts WHERE write_id = ANY (writes) AND tenant_id = tenant RETURNING *)
    INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
    SELECT tenant, last + n, type, organization_id, document_id, created_at, audience, '{"id":' || (last + n) || body_rest
    FROM (SELECT m.*, row_number() OVER (ORDER BY write_id, position) AS n FROM moved m) numbered;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 THEN
    UPDATE event_counters SET last_id = last + added WHERE tenant_id = tenant;
    PERFORM pg_notify('marginalia_events', tenant || ' ' || (last + added));
  END IF;
  RETURN last + added;
END
$$;
-- Instances not yet upgraded (a rolling upgrade) still call the one-argument form: every draft.
CREATE OR REPLACE FUNCTION sequence_events(tenant text) RETURNS bigint LANGUAGE sql
  AS $$ SELECT sequence_events(tenant, NULL::bigint[]) $$;
`,
  },
  {
    version: 20,
    name: 'large answers compressed with lz4 (PostgreSQL)',
    // Each inbox row carries its notification's answer, whose notifyUsers names every recipient: a
    // notifications/add to 1200 users wrote 1200 answers of 48 kB, and PostgreSQL's default
    // compression (pglz) took 2.6 s over them, 3 s a request, past the 5 s statement timeout on a busy
    // machine. lz4 takes 0.7 s (EXPLAIN ANALYZE of that insert). Rows written before keep pglz and read
    // as before. A server built without lz4 keeps pglz: the migration must not fail there.
    sqlite: '-- PostgreSQL only: SQLite does not compress.',
    postgres: `
DO $$
BEGIN
  ALTER TABLE inbox ALTER COLUMN answer SET COMPRESSION lz4;
  ALTER TABLE notifications ALTER COLUMN answer SET COMPRESSION lz4, ALTER COLUMN recipients SET COMPRESSION lz4;
  ALTER TABLE events ALTER COLUMN body SET COMPRESSION lz4;
  ALTER TABLE event_drafts ALTER COLUMN body_rest SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not built into this server: large answers stay compressed with pglz';
END
$$;
`,
  },
  {
    version: 21,
    name: 'numberings take every committed draft, in transaction order, from a horizon (PostgreSQL)',
    // Through migration 20 a write answered only once a numbering had taken its drafts, which cost about
    // one more transaction for every two writes (notifications/add at 0.72 of its req/s without the
    // outbox). Now a write answers once it has committed, and its process numbers the tenant's drafts
    // just after, at most once every MARGINALIA_EVENT_NUMBERING_MS: under load one numbering serves many
    // writes. So that a write made after another's answer, on any instance, still gets the later id, a
    // numbering takes every committed draft of the tenant, ordered by the transaction id of its write
    // (xid, drawn before the write commits: a write that starts after another committed has the larger
    // one), not only the drafts its process wrote. To not read every draft it deleted before (dead rows
    // until autovacuum: why migration 19 took drafts by write_id), it starts at the tenant's drafts_from:
    // the oldest transaction holding an id (on any database of the server) when the last numbering that
    // moved drafts had the counter (pg_snapshot_xmin). Every transaction older than that had ended, so
    // its drafts were committed and taken, or never will be. A long transaction keeps drafts_from back
    // (a numbering then reads more rows); it never holds back a numbering. A drafts_from past the
    // horizon came from another server (a restored dump) and is started over. Drafts already there
    // take xid 0 (they were committed before any write to come). The tables are locked first, in the
    // order a numbering takes them, so a numbering of the release before cannot deadlock with this.
    // Both earlier forms of sequence_events now do the same, for a rolling upgrade.
    postgres: `
LOCK TABLE event_counters, event_drafts IN ACCESS EXCLUSIVE MODE;
ALTER TABLE event_drafts ADD COLUMN xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE event_drafts ALTER COLUMN xid SET DEFAULT pg_current_xact_id();
ALTER TABLE event_drafts DROP CONSTRAINT event_drafts_pkey, ADD PRIMARY KEY (tenant_id, xid, write_id, position);
ALTER TABLE event_counters ADD COLUMN drafts_from xid8 NOT NULL DEFAULT '0';
CREATE OR REPLACE FUNCTION sequence_events(tenant text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  last bigint;
  added bigint;
  since xid8;
  horizon xid8;
BEGIN
  SELECT last_id, drafts_from INTO last, since FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO event_counters (tenant_id, last_id) VALUES (tenant, 0) ON CONFLICT (tenant_id) DO NOTHING;
    SELECT last_id, drafts_from INTO last, since FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  END IF;
  -- Taken before the move's snapshot (any time before it is safe; after it would not be).
  horizon := pg_snapshot_xmin(pg_current_snapshot());
  -- Past the horizon, drafts_from came from another server's transaction ids (a restored dump): from the start.
  IF since > horizon THEN
    since := '0';
  END IF;
  WITH moved AS (DELETE FROM event_drafts WHERE tenant_id = tenant AND xid >= since RETURNING *)
  INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
  SELECT tenant, last + n, type, organization_id, document_id, created_at, audience, '{"id":' || (last + n) || body_rest
  FROM (SELECT m.*, row_number() OVER (ORDER BY xid, write_id, position) AS n FROM moved m) numbered;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 THEN
    UPDATE event_counters SET last_id = last + added, drafts_from = horizon WHERE tenant_id = tenant;
    PERFORM pg_notify('marginalia_events', tenant || ' ' || (last + added));
  END IF;
  RETURN last + added;
END
$$;
CREATE OR REPLACE FUNCTION sequence_events(tenant text, writes bigint[]) RETURNS bigint LANGUAGE sql
  AS $$ SELECT sequence_events(tenant) $$;
`,
    sqlite: '-- PostgreSQL only: SQLite numbers events inside the writing transaction.',
  },
  {
    version: 22,
    name: "events pruned from each tenant's oldest id, without an index by age",
    // The index by created_at was read only by retention, and cost every event an index entry: on
    // SQLite a page of WAL a write, about 6% of notifications/add's pages (bench/README.md). Ids increase
    // with the time a tenant's events are written, so retention now takes each tenant's oldest ids
    // through the primary key (events/sql.ts, agedTenants and pruneTenant).
    sqlite: 'DROP INDEX IF EXISTS events_by_age;',
    postgres: 'DROP INDEX IF EXISTS events_by_age;',
  },
  {
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
  },
  {
    version: 24,
    name: "documents' live state",
    // livestate/broadcast keeps a document's live state per liveStateDataId, as the JSON text it was
    // sent as (merged or replaced: store/livestate/), and livestate/get reads it in id order through the
    // primary key. SQLite: a rowid table, the state last, since a state may be as large as a request body
    // (a WITHOUT ROWID table spills rows past about 2 kB to overflow chains: migration 9).
    // PostgreSQL: lz4 as for the other large texts (migration 20), where the server has it.
    sqlite: `
CREATE TABLE live_states (
  tenant_id           TEXT NOT NULL,
  organization_id     TEXT NOT NULL,
  document_id         TEXT NOT NULL,
  live_state_data_id  TEXT NOT NULL,
  updated_at          INTEGER NOT NULL,
  data                TEXT NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, live_state_data_id)
) STRICT;
`,
    postgres: `
CREATE TABLE live_states (
  tenant_id           text COLLATE "C" NOT NULL,
  organization_id     text COLLATE "C" NOT NULL,
  document_id         text COLLATE "C" NOT NULL,
  live_state_data_id  text COLLATE "C" NOT NULL,
  updated_at          bigint NOT NULL,
  data                text NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, live_state_data_id)
);
DO $$
BEGIN
  ALTER TABLE live_states ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not built into this server: live states are compressed with pglz';
END
$$;
`,
  },
  {
    version: 25,
    name: 'threads keep a color',
    // A thread's color, kept as sent and shown in its answer (docs/decisions.md). Threads written
    // before have none, and their stored answers show none: nothing to render again.
    sqlite: 'ALTER TABLE annotations ADD COLUMN color TEXT;',
    postgres: 'ALTER TABLE annotations ADD COLUMN color text;',
  },
  {
    version: 26,
    name: 'organizations and documents deleted in batches',
    // organizations/delete and documents/delete run as batches of short transactions (store/batches.ts):
    // the first marks the row deleting (and disabled, so every write under it is refused meanwhile), the
    // last deletes it. A row still marked after a crash is finished by the next delete that names it.
    sqlite: `
ALTER TABLE organizations ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0;`,
    postgres: `
ALTER TABLE organizations ADD COLUMN deleting boolean NOT NULL DEFAULT false;
ALTER TABLE documents ADD COLUMN deleting boolean NOT NULL DEFAULT false;`,
  },
  {
    version: 27,
    name: 'the organizations of each user',
    sqlite: USER_ORGANIZATIONS.sqlite,
    postgres: USER_ORGANIZATIONS.postgres,
  },
];

const APPLIED = same('appliedMigrations', 'SELECT version FROM schema_migrations');
const RECORD = same('recordMigration', 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (@version, @name, @at)');

/** The one migration runner: the steps not yet applied, in order, each recorded as it is applied. */
function* pendingSteps(kind: DatabaseKind, now: number): Work<void> {
  const applied = new Set((yield* all(APPLIED)).map((r) => Number(r.version)));
  for (const step of MIGRATIONS) {
    if (applied.has(step.version)) continue;
    yield* exec(step[kind]);
    if (step.backfill) yield* step.backfill();
    yield* run(RECORD, { version: step.version, name: step.name, at: now });
  }
}

/** Brings the schema up to date, in one transaction; safe to run from several processes at once. */
export function migrate(dialect: Dialect): Promise<void> {
  return dialect.migrate(() => pendingSteps(dialect.kind, Date.now()));
}
