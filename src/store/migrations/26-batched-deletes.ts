import type { Migration } from './migration.js';

export const batchedDeletes: Migration = {
  version: 26,
  name: 'organizations and documents deleted in batches',
  // organizations/delete and documents/delete run as batches of short transactions (store/batches.ts):
  // the first marks the row deleting (and disabled, so every write under it is refused meanwhile), the
  // last deletes it. A row still marked after a crash is finished by the next delete that names it.
  sqlite: `
ALTER TABLE organizations ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0;`,
  postgres: `
ALTER TABLE organizations ADD COLUMN deleting boolean NOT NULL DEFAULT false;
ALTER TABLE documents ADD COLUMN deleting boolean NOT NULL DEFAULT false;`,
};
