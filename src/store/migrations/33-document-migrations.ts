import type { Migration } from './migration.js';

export const documentMigrations: Migration = {
  version: 33,
  name: 'document migrations as jobs',
  // organizations/documents/migrate (docs/api.md, "Document migration"): one row per job, which the
  // call writes and a worker of any serving process claims under a lease (lease_owner until lease_until)
  // and runs in batches. `step` is the mover it is at (store/document-migrations/movers.ts) and `moved`
  // the rows moved so far, both written in each batch's own transaction, so a job that another process
  // takes over after a crash or a restart goes on from where the last committed batch left it.
  // `source_disabled` is the source document's own disabled flag, which the new id takes at the end (both
  // ids are disabled while it runs). Reads: by id (the status page), by document (is one under way), and
  // the open jobs a worker may claim (a partial index: finished jobs are never scanned).
  sqlite: `
CREATE TABLE document_migrations (
  tenant_id        TEXT NOT NULL,
  migration_id     TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  new_document_id  TEXT NOT NULL,
  status           TEXT NOT NULL,
  step             INTEGER NOT NULL DEFAULT 0,
  moved            INTEGER NOT NULL DEFAULT 0,
  source_disabled  INTEGER NOT NULL,
  error            TEXT,
  lease_owner      TEXT,
  lease_until      INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, migration_id)
) STRICT;
CREATE INDEX document_migrations_by_source ON document_migrations (tenant_id, organization_id, document_id);
CREATE INDEX document_migrations_by_target ON document_migrations (tenant_id, organization_id, new_document_id);
CREATE INDEX document_migrations_open ON document_migrations (lease_until)
  WHERE status IN ('pending', 'in_progress');
`,
  postgres: `
CREATE TABLE document_migrations (
  tenant_id        text COLLATE "C" NOT NULL,
  migration_id     text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  new_document_id  text COLLATE "C" NOT NULL,
  status           text NOT NULL,
  step             integer NOT NULL DEFAULT 0,
  moved            bigint NOT NULL DEFAULT 0,
  source_disabled  boolean NOT NULL,
  error            text,
  lease_owner      text,
  lease_until      bigint NOT NULL DEFAULT 0,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, migration_id)
);
CREATE INDEX document_migrations_by_source ON document_migrations (tenant_id, organization_id, document_id);
CREATE INDEX document_migrations_by_target ON document_migrations (tenant_id, organization_id, new_document_id);
CREATE INDEX document_migrations_open ON document_migrations (lease_until)
  WHERE status IN ('pending', 'in_progress');
`,
};
