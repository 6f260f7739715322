import type { Migration } from './migration.js';

export const retentionPolicies: Migration = {
  version: 42,
  name: 'retention policies',
  // docs/api.md "Retention". A tenant's policy (organization_id '') and an organization's, which replaces the
  // tenant's there: how many days notifications (all, or read ones only), resolved threads, events and
  // activities are kept; null keeps them. The retention job (src/jobs/retention.ts) reads every row.
  // notifications_by_age: retention finds an organization's old notifications oldest first, whatever their
  // document (the other notification indexes start at the document, the user or the wide ones only);
  // resolved threads are found through annotations_by_update (migration 30).
  sqlite: `
CREATE TABLE retention_policies (
  tenant_id              TEXT NOT NULL,
  organization_id        TEXT NOT NULL,
  notifications_days     INTEGER,
  notifications_scope    TEXT NOT NULL DEFAULT 'read' CHECK (notifications_scope IN ('read', 'all')),
  resolved_threads_days  INTEGER,
  events_days            INTEGER,
  activities_days        INTEGER,
  updated_at             INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX notifications_by_age ON notifications (tenant_id, organization_id, timestamp, notification_id);
`,
  postgres: `
CREATE TABLE retention_policies (
  tenant_id              text COLLATE "C" NOT NULL,
  organization_id        text COLLATE "C" NOT NULL,
  notifications_days     integer,
  notifications_scope    text COLLATE "C" NOT NULL DEFAULT 'read' CHECK (notifications_scope IN ('read', 'all')),
  resolved_threads_days  integer,
  events_days            integer,
  activities_days        integer,
  updated_at             bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id)
);
CREATE INDEX notifications_by_age ON notifications (tenant_id, organization_id, timestamp, notification_id);
`,
};
