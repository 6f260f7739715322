import { ARCHIVE_COUNT_TRIGGERS } from '../notifications/counts-schema.js';
import type { Migration } from './migration.js';

export const notificationArchives: Migration = {
  version: 41,
  name: 'per-recipient archive of notifications',
  // docs/decisions.md "Per-recipient archive (issue 40)". A user's archive of a notification lives where its read
  // state does: the archived flag of their inbox row when the notification lists them, else a
  // notification_archives row (organization-wide notifications that do not list them). inbox_counts gains
  // the archived counts, kept by triggers like migration 12's (notifications/counts-schema.ts); a notification's
  // delete takes its archive rows with it (notifications_delete_archives), so a deleter only deletes.
  // Nothing is archived before this step: the counters start at 0.
  sqlite: `
ALTER TABLE inbox ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
ALTER TABLE inbox_counts ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
ALTER TABLE inbox_counts ADD COLUMN archived_unread INTEGER NOT NULL DEFAULT 0;
ALTER TABLE inbox_counts ADD COLUMN wide_archived INTEGER NOT NULL DEFAULT 0;
ALTER TABLE inbox_counts ADD COLUMN wide_archived_read INTEGER NOT NULL DEFAULT 0;
CREATE TABLE notification_archives (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  notification_id  TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  document_id      TEXT,
  PRIMARY KEY (tenant_id, organization_id, notification_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX notification_archives_by_user ON notification_archives (tenant_id, organization_id, user_id);
${ARCHIVE_COUNT_TRIGGERS.sqlite}
CREATE TRIGGER notifications_delete_archives AFTER DELETE ON notifications WHEN OLD.notify_all = 1 BEGIN
  DELETE FROM notification_archives WHERE tenant_id = OLD.tenant_id AND organization_id = OLD.organization_id
    AND notification_id = OLD.notification_id;
END;
`,
  postgres: `
ALTER TABLE inbox ADD COLUMN archived boolean NOT NULL DEFAULT false;
ALTER TABLE inbox_counts ADD COLUMN archived bigint NOT NULL DEFAULT 0;
ALTER TABLE inbox_counts ADD COLUMN archived_unread bigint NOT NULL DEFAULT 0;
ALTER TABLE inbox_counts ADD COLUMN wide_archived bigint NOT NULL DEFAULT 0;
ALTER TABLE inbox_counts ADD COLUMN wide_archived_read bigint NOT NULL DEFAULT 0;
CREATE TABLE notification_archives (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  notification_id  text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C",
  PRIMARY KEY (tenant_id, organization_id, notification_id, user_id)
);
CREATE INDEX notification_archives_by_user ON notification_archives (tenant_id, organization_id, user_id);
${ARCHIVE_COUNT_TRIGGERS.postgres}
CREATE FUNCTION notifications_delete_archives() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  DELETE FROM notification_archives a USING old_rows o
    WHERE a.tenant_id = o.tenant_id AND a.organization_id = o.organization_id AND a.notification_id = o.notification_id
      AND o.notify_all;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER notifications_delete_archives AFTER DELETE ON notifications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_delete_archives();
`,
};
