import type { Migration } from './migration.js';

export const documentThreadVersions: Migration = {
  version: 11,
  name: 'documents have a thread version',
  // A page of threads held in memory (services/thread-pages.ts) is answered again only while its
  // document's version is the one it was read under. A page is made of annotations rows alone (their
  // stored answers, migration 9) and profiles (their own version), so every change to what it shows
  // is a change to an annotations row: triggers move the version on each, whoever writes it (this
  // release, an instance of an earlier one during a rolling upgrade, a later migration, a hand-run
  // statement). The version is random, not a counter, so a database restored to an earlier state
  // cannot repeat one a running process holds. A document without a row has version 0.
  sqlite: `
CREATE TABLE document_versions (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  version          INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
) STRICT, WITHOUT ROWID;
${['INSERT', 'UPDATE', 'DELETE']
  .map(
    (event) => `CREATE TRIGGER annotations_${event.toLowerCase()}_moves_version AFTER ${event} ON annotations BEGIN
  INSERT INTO document_versions (tenant_id, organization_id, document_id, version)
    VALUES (${event === 'DELETE' ? 'OLD' : 'NEW'}.tenant_id, ${event === 'DELETE' ? 'OLD' : 'NEW'}.organization_id,
      ${event === 'DELETE' ? 'OLD' : 'NEW'}.document_id, random() >> 11)
    ON CONFLICT (tenant_id, organization_id, document_id) DO UPDATE SET version = excluded.version;
END;`,
  )
  .join('\n')}
`,
  // One trigger per statement (with the rows it changed as a table), so a statement over many
  // threads of a document moves its version once, after its rows are locked.
  postgres: `
CREATE TABLE document_versions (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  version          bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
);
CREATE FUNCTION annotations_move_versions() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  INSERT INTO document_versions (tenant_id, organization_id, document_id, version)
    SELECT tenant_id, organization_id, document_id, floor(random() * 9007199254740991)::bigint
    FROM (SELECT DISTINCT tenant_id, organization_id, document_id FROM changed) AS c
    ON CONFLICT (tenant_id, organization_id, document_id) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END
$fn$;
${['INSERT', 'UPDATE', 'DELETE']
  .map(
    (event) => `CREATE TRIGGER annotations_${event.toLowerCase()}_moves_versions AFTER ${event} ON annotations
  REFERENCING ${event === 'DELETE' ? 'OLD' : 'NEW'} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION annotations_move_versions();`,
  )
  .join('\n')}
`,
};
