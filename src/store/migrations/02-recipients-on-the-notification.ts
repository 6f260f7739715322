import type { Migration } from './migration.js';

export const recipientsOnTheNotification: Migration = {
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
};
