import type { Migration } from './migration.js';

const INDEXES = `
DROP INDEX webhook_deliveries_failed;
CREATE INDEX webhook_deliveries_failed_in_order ON webhook_deliveries
  (tenant_id, webhook_id, organization_id, event_id, created_at) WHERE status = 'failed';
CREATE INDEX workflow_executions_finished ON workflow_executions (completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX document_migrations_open_of_tenant ON document_migrations (tenant_id)
  WHERE status IN ('pending', 'in_progress');
`;

export const boundedWork: Migration = {
  version: 38,
  name: 'indexes for work done in bounded batches',
  // Three partial indexes, each holding only the rows a bounded walk looks for (docs/decisions.md: "Advanced
  // webhooks", "Document migration", "Approval workflows").
  // webhook_deliveries_failed_in_order: webhooks/recover walks a webhook's failed deliveries a batch at a time
  // in (organization, event) order, so each organization's are made pending in event order. It replaces
  // migration 35's webhook_deliveries_failed (by time), which only recover's one statement read: through
  // it, every batch would sort everything that failed since the time.
  // workflow_executions_finished: retention takes the executions that ended longest ago, a batch at a time,
  // never reading a running one.
  // document_migrations_open_of_tenant: organizations/documents/migrate counts the tenant's open jobs up to
  // its bound without reading the finished ones.
  // The same text on both databases.
  sqlite: INDEXES,
  postgres: INDEXES,
};
