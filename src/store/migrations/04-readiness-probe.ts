import type { Migration } from './migration.js';

export const readinessProbe: Migration = {
  version: 4,
  name: 'readiness probe',
  // One row that readiness rewrites while writes are being refused (disk full, read-only), to learn
  // when they are taken again without waiting for a caller's write.
  sqlite: `
CREATE TABLE readiness_probe (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  at  INTEGER NOT NULL
) STRICT;
INSERT INTO readiness_probe (id, at) VALUES (1, 0);
`,
  postgres: `
CREATE TABLE readiness_probe (
  id  integer PRIMARY KEY CHECK (id = 1),
  at  bigint NOT NULL
);
INSERT INTO readiness_probe (id, at) VALUES (1, 0);
`,
};
