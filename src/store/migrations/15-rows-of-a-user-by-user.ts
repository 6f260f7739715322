import type { Migration } from './migration.js';

export const rowsOfAUserByUser: Migration = {
  version: 15,
  name: 'rows of a user found by user',
  // users/data/get and users/data/delete (docs/api.md, "POST /v1/users/data/delete") find one user's rows in an
  // organization: their comments, the notifications they acted in, their memberships, read marks and settings, each
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
};
