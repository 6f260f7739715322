import type { Migration } from './migration.js';

export const profileVersions: Migration = {
  version: 7,
  name: 'profile versions',
  // Reads resolve authors and action users against profiles held in memory (services/profiles.ts)
  // instead of joining users once per row. Every write to an organization's users bumps its version
  // here, first in its transaction, and every read returns the version it saw: a cache of another
  // version is dropped before it answers, so a rename on any instance shows on the next read. No row
  // is version 0.
  sqlite: `
CREATE TABLE profile_versions (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  version          INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id)
) STRICT, WITHOUT ROWID;
`,
  postgres: `
CREATE TABLE profile_versions (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  version          bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id)
);
`,
};
