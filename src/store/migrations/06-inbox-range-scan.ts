import type { Migration } from './migration.js';

/** Migration 6's data step, the same on both databases: each inbox row from its recipient and notification. */
const FILL_INBOX = `INSERT INTO inbox
  SELECT r.tenant_id, r.organization_id, r.user_id, r.timestamp, r.notification_id, r.position, r.unread, n.document_id,
    n.location_id, n.action_user_id, n.action_user_name, n.action_user_email, n.answer
  FROM notification_recipients r JOIN notifications n ON n.tenant_id = r.tenant_id
    AND n.organization_id = r.organization_id AND n.notification_id = r.notification_id
  ORDER BY r.tenant_id, r.organization_id, r.user_id, r.timestamp DESC, r.notification_id DESC;
DROP TABLE notification_recipients;`;

export const inboxRangeScan: Migration = {
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
};
