import type { Migration } from './migration.js';

export const eventsPrunedByOldestId: Migration = {
  version: 22,
  name: "events pruned from each tenant's oldest id, without an index by age",
  // The index by created_at was read only by retention, and cost every event an index entry: on
  // SQLite a page of WAL a write, about 6% of notifications/add's pages (bench/README.md). Ids increase
  // with the time a tenant's events are written, so retention now takes each tenant's oldest ids
  // through the primary key (events/sql.ts, agedTenants and pruneTenant).
  sqlite: 'DROP INDEX IF EXISTS events_by_age;',
  postgres: 'DROP INDEX IF EXISTS events_by_age;',
};
