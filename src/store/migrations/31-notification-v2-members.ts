import type { Migration } from './migration.js';

export const notificationV2Members: Migration = {
  version: 31,
  name: "notifications' context and notification resolver flag",
  // /v2's notifications/add (docs/api.md, "Version 2"): an access context kept as sent, and whether the
  // notification's content is resolved by the customer's own resolver (its template may then be empty).
  // Both are in the stored answer too; the columns are what a change renders it again from.
  sqlite: `
ALTER TABLE notifications ADD COLUMN context TEXT;
ALTER TABLE notifications ADD COLUMN resolver_used INTEGER NOT NULL DEFAULT 0;`,
  postgres: `ALTER TABLE notifications ADD COLUMN context text, ADD COLUMN resolver_used boolean NOT NULL DEFAULT false;`,
};
