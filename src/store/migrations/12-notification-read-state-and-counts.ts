import { COUNT_TRIGGERS } from '../notifications/counts-schema.js';
import type { Migration } from './migration.js';

/** Migration 12's data step, the same on both databases: each user's counts from the inbox rows there are. */
const FILL_COUNTS = `INSERT INTO inbox_counts (tenant_id, organization_id, user_id, document_id, total, unread, wide_listed, wide_read)
  SELECT tenant_id, organization_id, user_id, document_id, count(*), sum(CASE WHEN unread THEN 1 ELSE 0 END), 0, 0
  FROM (SELECT tenant_id, organization_id, user_id, '' AS document_id, unread FROM inbox
        UNION ALL SELECT tenant_id, organization_id, user_id, document_id, unread FROM inbox WHERE document_id IS NOT NULL) AS r
  GROUP BY tenant_id, organization_id, user_id, document_id;`;

export const notificationReadStateAndCounts: Migration = {
  version: 12,
  name: 'notifications have read state, organization-wide addressing, counts and settings',
  // docs/api.md "Notifications". An organization-wide notification is one row (notify_all), found by members at
  // read time through notifications_wide; it is never copied per member. Read state is per (notification, user)
  // and lives in that user's own row: the unread flag of their inbox row when the notification lists
  // them, else a notification_reads row (organization-wide notifications only). A read mark never
  // rewrites a row another user's read needs. The stored answers keep every recipient unread; a read
  // lays the read marks over them (answers/notifications.ts), found through inbox_readers and
  // notification_reads' key. Counts are kept by triggers (notifications/counts-schema.ts), filled
  // here from the inboxes that exist. source is "comment" (docs/api.md,
  // "Notifications from comments (triggerNotification)") or "custom".
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
};
