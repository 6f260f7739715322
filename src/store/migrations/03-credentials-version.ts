import type { Migration } from './migration.js';

export const credentialsVersion: Migration = {
  version: 3,
  name: 'credentials version',
  // Bumped by every change to keys and tokens, in the same transaction, so a process may cache
  // authentication and still see a revocation on the very next request by reading one number.
  sqlite: `
CREATE TABLE credentials_version (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  version  INTEGER NOT NULL
) STRICT;
INSERT INTO credentials_version (id, version) VALUES (1, 1);
`,
  postgres: `
CREATE TABLE credentials_version (
  id       integer PRIMARY KEY CHECK (id = 1),
  version  bigint NOT NULL
);
INSERT INTO credentials_version (id, version) VALUES (1, 1);
`,
};
