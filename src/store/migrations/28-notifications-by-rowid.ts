import type { Migration } from './migration.js';

export const notificationsByRowid: Migration = {
  version: 28,
  name: 'notifications kept in a rowid table',
  // SQLite keeps a WITHOUT ROWID table's whole row in its interior pages as well as in its leaves, and a
  // notification's row (its stored answer, headline and recipients) is about a kilobyte: 7 rows to an
  // interior page, so on a file of a million notifications the table was 7 levels deep, its 15,000
  // interior pages (120 MB) past the page cache, and an insert at a random key split a full leaf and
  // its parents (6 pages a notifications/add). A rowid table keeps only row numbers inside (790 to a
  // page), appends each new row to its last leaf, and finds a row by its key through the key's own
  // narrow index (docs/decisions.md, "Wide rows in rowid tables"). Same columns, indexes and triggers.
  // PostgreSQL keeps every table's rows in a heap, and its B-tree pages hold keys only: nothing to do.
  sqlite: `
CREATE TABLE notifications_by_rowid (
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
  recipients         TEXT NOT NULL DEFAULT '[]',
  answer             TEXT NOT NULL DEFAULT '',
  notify_all         INTEGER NOT NULL DEFAULT 0,
  source             TEXT NOT NULL DEFAULT 'custom',
  PRIMARY KEY (tenant_id, organization_id, notification_id)
) STRICT;
-- In key order: a walk of the old table, no sort. New rows then come in time order, at the end.
INSERT INTO notifications_by_rowid (tenant_id, organization_id, notification_id, document_id, location_id,
  action_user_id, action_user_name, action_user_email, headline_template, headline_data, body_message, source_data,
  timestamp, recipients, answer, notify_all, source)
SELECT tenant_id, organization_id, notification_id, document_id, location_id,
  action_user_id, action_user_name, action_user_email, headline_template, headline_data, body_message, source_data,
  timestamp, recipients, answer, notify_all, source
FROM notifications ORDER BY tenant_id, organization_id, notification_id;
DROP TABLE notifications;
ALTER TABLE notifications_by_rowid RENAME TO notifications;
CREATE INDEX notifications_by_document ON notifications (tenant_id, organization_id, document_id, timestamp DESC,
  notification_id DESC, location_id, action_user_id, action_user_name, action_user_email, answer);
CREATE INDEX notifications_wide ON notifications (tenant_id, organization_id, timestamp DESC, notification_id DESC,
  document_id, location_id, action_user_id, action_user_name, action_user_email, answer) WHERE notify_all = 1;
CREATE INDEX notifications_by_actor ON notifications (tenant_id, organization_id, action_user_id, notification_id);
CREATE TRIGGER notifications_insert_counts AFTER INSERT ON notifications BEGIN
  INSERT INTO wide_counts (tenant_id, organization_id, document_id, total)
    SELECT NEW.tenant_id, NEW.organization_id, '', (1) WHERE true AND NEW.notify_all = 1
    ON CONFLICT DO UPDATE SET total = wide_counts.total + excluded.total;
  INSERT INTO wide_counts (tenant_id, organization_id, document_id, total)
    SELECT NEW.tenant_id, NEW.organization_id, NEW.document_id, (1) WHERE true AND NEW.document_id IS NOT NULL AND NEW.notify_all = 1
    ON CONFLICT DO UPDATE SET total = wide_counts.total + excluded.total;
END;
CREATE TRIGGER notifications_delete_counts AFTER DELETE ON notifications BEGIN
  INSERT INTO wide_counts (tenant_id, organization_id, document_id, total)
    SELECT OLD.tenant_id, OLD.organization_id, '', -(1) WHERE true AND OLD.notify_all = 1
    ON CONFLICT DO UPDATE SET total = wide_counts.total + excluded.total;
  INSERT INTO wide_counts (tenant_id, organization_id, document_id, total)
    SELECT OLD.tenant_id, OLD.organization_id, OLD.document_id, -(1) WHERE true AND OLD.document_id IS NOT NULL AND OLD.notify_all = 1
    ON CONFLICT DO UPDATE SET total = wide_counts.total + excluded.total;
END;
CREATE TRIGGER notifications_update_counts AFTER UPDATE OF document_id, notify_all ON notifications BEGIN
  INSERT INTO wide_counts (tenant_id, organization_id, document_id, total)
    SELECT OLD.tenant_id, OLD.organization_id, '', -(1) WHERE true AND OLD.notify_all = 1
    ON CONFLICT DO UPDATE SET total = wide_counts.total + excluded.total;
  INSERT INTO wide_counts (tenant_id, organization_id, document_id, total)
    SELECT OLD.tenant_id, OLD.organization_id, OLD.document_id, -(1) WHERE true AND OLD.document_id IS NOT NULL AND OLD.notify_all = 1
    ON CONFLICT DO UPDATE SET total = wide_counts.total + excluded.total;
  INSERT INTO wide_counts (tenant_id, organization_id, document_id, total)
    SELECT NEW.tenant_id, NEW.organization_id, '', (1) WHERE true AND NEW.notify_all = 1
    ON CONFLICT DO UPDATE SET total = wide_counts.total + excluded.total;
  INSERT INTO wide_counts (tenant_id, organization_id, document_id, total)
    SELECT NEW.tenant_id, NEW.organization_id, NEW.document_id, (1) WHERE true AND NEW.document_id IS NOT NULL AND NEW.notify_all = 1
    ON CONFLICT DO UPDATE SET total = wide_counts.total + excluded.total;
END;
CREATE TRIGGER notifications_user_organization AFTER INSERT ON notifications BEGIN
  INSERT OR IGNORE INTO user_organizations VALUES (new.tenant_id, new.action_user_id, new.organization_id, 0);
END;
CREATE TRIGGER notifications_user_organization_update AFTER UPDATE OF action_user_id ON notifications
  WHEN new.action_user_id IS NOT old.action_user_id BEGIN
  INSERT OR IGNORE INTO user_organizations VALUES (new.tenant_id, new.action_user_id, new.organization_id, 0);
END;
CREATE TRIGGER notifications_insert_names_users AFTER INSERT ON notifications WHEN new.headline_data IS NOT NULL BEGIN
  INSERT OR IGNORE INTO user_organizations
    SELECT * FROM (SELECT new.tenant_id, json_extract(t.value, '$.userId') AS user_id, new.organization_id, 1
      FROM json_each(new.headline_data) t WHERE t.type = 'object') x WHERE typeof(x.user_id) = 'text';
END;
CREATE TRIGGER notifications_update_names_users AFTER UPDATE OF headline_data ON notifications
  WHEN new.headline_data IS NOT NULL AND new.headline_data IS NOT old.headline_data BEGIN
  INSERT OR IGNORE INTO user_organizations
    SELECT * FROM (SELECT new.tenant_id, json_extract(t.value, '$.userId') AS user_id, new.organization_id, 1
      FROM json_each(new.headline_data) t WHERE t.type = 'object') x WHERE typeof(x.user_id) = 'text';
END;`,
  postgres: '-- Nothing: PostgreSQL keeps rows in a heap, never in its B-trees.',
};
