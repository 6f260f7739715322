import type { Migration } from './migration.js';

export const liveStates: Migration = {
  version: 24,
  name: "documents' live state",
  // livestate/broadcast keeps a document's live state per liveStateDataId, as the JSON text it was
  // sent as (merged or replaced: store/livestate/), and livestate/get reads it in id order through the
  // primary key. SQLite: a rowid table, the state last, since a state may be as large as a request body
  // (a WITHOUT ROWID table spills rows past about 2 kB to overflow chains: migration 9).
  // PostgreSQL: lz4 as for the other large texts (migration 20), where the server has it.
  sqlite: `
CREATE TABLE live_states (
  tenant_id           TEXT NOT NULL,
  organization_id     TEXT NOT NULL,
  document_id         TEXT NOT NULL,
  live_state_data_id  TEXT NOT NULL,
  updated_at          INTEGER NOT NULL,
  data                TEXT NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, live_state_data_id)
) STRICT;
`,
  postgres: `
CREATE TABLE live_states (
  tenant_id           text COLLATE "C" NOT NULL,
  organization_id     text COLLATE "C" NOT NULL,
  document_id         text COLLATE "C" NOT NULL,
  live_state_data_id  text COLLATE "C" NOT NULL,
  updated_at          bigint NOT NULL,
  data                text NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, live_state_data_id)
);
DO $$
BEGIN
  ALTER TABLE live_states ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not built into this server: live states are compressed with pglz';
END
$$;
`,
};
