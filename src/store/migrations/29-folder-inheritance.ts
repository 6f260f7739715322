import type { Migration } from './migration.js';

export const folderInheritance: Migration = {
  version: 29,
  name: 'folders that inherit their access from their parent',
  // /v2 organizations/folders/access/update takes inheritFromParent, and folders/get shows it as
  // inheritAccessFromParent (docs/api.md, "Version 2"). The folder keeps its own access type beside the flag.
  sqlite: `ALTER TABLE folders ADD COLUMN inherit_access INTEGER NOT NULL DEFAULT 0;`,
  postgres: `ALTER TABLE folders ADD COLUMN inherit_access boolean NOT NULL DEFAULT false;`,
};
