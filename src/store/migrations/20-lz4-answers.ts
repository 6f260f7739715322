import type { Migration } from './migration.js';

export const lz4Answers: Migration = {
  version: 20,
  name: 'large answers compressed with lz4 (PostgreSQL)',
  // Each inbox row carries its notification's answer, whose notifyUsers names every recipient: a
  // notifications/add to 1200 users wrote 1200 answers of 48 kB, and PostgreSQL's default
  // compression (pglz) took 2.6 s over them, 3 s a request, past the 5 s statement timeout on a busy
  // machine. lz4 takes 0.7 s (EXPLAIN ANALYZE of that insert). Rows written before keep pglz and read
  // as before. A server built without lz4 keeps pglz: the migration must not fail there.
  sqlite: '-- PostgreSQL only: SQLite does not compress.',
  postgres: `
DO $$
BEGIN
  ALTER TABLE inbox ALTER COLUMN answer SET COMPRESSION lz4;
  ALTER TABLE notifications ALTER COLUMN answer SET COMPRESSION lz4, ALTER COLUMN recipients SET COMPRESSION lz4;
  ALTER TABLE events ALTER COLUMN body SET COMPRESSION lz4;
  ALTER TABLE event_drafts ALTER COLUMN body_rest SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not built into this server: large answers stay compressed with pglz';
END
$$;
`,
};
