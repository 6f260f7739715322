import type { Migration } from './migration.js';

export const approvalWorkflows: Migration = {
  version: 36,
  name: 'approval workflows: definitions, their versions, executions, steps and event logs',
  // workflow/* on /v2 (store/workflows/). A definition is one row per tenant and definitionId (its
  // current version; a delete tombstones it), and one row per prior version (update snapshots them). An
  // execution keeps the definition it was dispatched with (`graph`), so updates never move it; its steps
  // and its numbered event log are rows under it. Everything is keyed tenant first; the lists read
  // (tenant, time) ranges, and dispatch finds a replay by its idempotency key, unique per tenant.
  // Booleans are integers on both databases (0/1), JSON members text (what was sent comes back).
  sqlite: `
CREATE TABLE workflow_definitions (
  tenant_id      TEXT NOT NULL,
  definition_id  TEXT NOT NULL,
  version        INTEGER NOT NULL,
  deleted        INTEGER NOT NULL,
  body           TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, definition_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX workflow_definitions_by_update ON workflow_definitions (tenant_id, deleted, updated_at, definition_id);
CREATE TABLE workflow_definition_versions (
  tenant_id      TEXT NOT NULL,
  definition_id  TEXT NOT NULL,
  version        INTEGER NOT NULL,
  body           TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, definition_id, version)
) STRICT, WITHOUT ROWID;
CREATE TABLE workflow_executions (
  tenant_id           TEXT NOT NULL,
  execution_id        TEXT NOT NULL,
  definition_id       TEXT NOT NULL,
  definition_version  INTEGER NOT NULL,
  status              TEXT NOT NULL,
  correlation_id      TEXT NOT NULL,
  idempotency_key     TEXT NOT NULL,
  started_at          INTEGER NOT NULL,
  completed_at        INTEGER,
  cancelled_at        INTEGER,
  failure_reason      TEXT,
  trigger_context     TEXT,
  target              TEXT NOT NULL,
  graph               TEXT NOT NULL,
  loops               TEXT NOT NULL,
  last_seq            INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, execution_id)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX workflow_executions_by_key ON workflow_executions (tenant_id, idempotency_key);
CREATE INDEX workflow_executions_by_start ON workflow_executions (tenant_id, started_at, execution_id);
CREATE INDEX workflow_executions_by_definition ON workflow_executions (tenant_id, definition_id, status, started_at);
CREATE TABLE workflow_steps (
  tenant_id      TEXT NOT NULL,
  execution_id   TEXT NOT NULL,
  step_id        TEXT NOT NULL,
  ordinal        INTEGER NOT NULL,
  node_id        TEXT NOT NULL,
  node_type      TEXT NOT NULL,
  status         TEXT NOT NULL,
  started_at     INTEGER NOT NULL,
  completed_at   INTEGER,
  output         TEXT NOT NULL,
  error          TEXT,
  aggregator     TEXT,
  PRIMARY KEY (tenant_id, execution_id, step_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE workflow_events (
  tenant_id      TEXT NOT NULL,
  execution_id   TEXT NOT NULL,
  seq            INTEGER NOT NULL,
  event_id       TEXT NOT NULL,
  type           TEXT NOT NULL,
  step_id        TEXT,
  external       INTEGER NOT NULL,
  at             INTEGER NOT NULL,
  data           TEXT,
  PRIMARY KEY (tenant_id, execution_id, seq)
) STRICT, WITHOUT ROWID;`,
  postgres: `
CREATE TABLE workflow_definitions (
  tenant_id      text COLLATE "C" NOT NULL,
  definition_id  text COLLATE "C" NOT NULL,
  version        integer NOT NULL,
  deleted        smallint NOT NULL,
  body           text NOT NULL,
  created_at     bigint NOT NULL,
  updated_at     bigint NOT NULL,
  PRIMARY KEY (tenant_id, definition_id)
);
CREATE INDEX workflow_definitions_by_update ON workflow_definitions (tenant_id, deleted, updated_at, definition_id);
CREATE TABLE workflow_definition_versions (
  tenant_id      text COLLATE "C" NOT NULL,
  definition_id  text COLLATE "C" NOT NULL,
  version        integer NOT NULL,
  body           text NOT NULL,
  created_at     bigint NOT NULL,
  PRIMARY KEY (tenant_id, definition_id, version)
);
CREATE TABLE workflow_executions (
  tenant_id           text COLLATE "C" NOT NULL,
  execution_id        text COLLATE "C" NOT NULL,
  definition_id       text COLLATE "C" NOT NULL,
  definition_version  integer NOT NULL,
  status              text NOT NULL,
  correlation_id      text COLLATE "C" NOT NULL,
  idempotency_key     text COLLATE "C" NOT NULL,
  started_at          bigint NOT NULL,
  completed_at        bigint,
  cancelled_at        bigint,
  failure_reason      text,
  trigger_context     text,
  target              text NOT NULL,
  graph               text NOT NULL,
  loops               text NOT NULL,
  last_seq            integer NOT NULL,
  PRIMARY KEY (tenant_id, execution_id)
);
CREATE UNIQUE INDEX workflow_executions_by_key ON workflow_executions (tenant_id, idempotency_key);
CREATE INDEX workflow_executions_by_start ON workflow_executions (tenant_id, started_at, execution_id);
CREATE INDEX workflow_executions_by_definition ON workflow_executions (tenant_id, definition_id, status, started_at);
CREATE TABLE workflow_steps (
  tenant_id      text COLLATE "C" NOT NULL,
  execution_id   text COLLATE "C" NOT NULL,
  step_id        text COLLATE "C" NOT NULL,
  ordinal        integer NOT NULL,
  node_id        text COLLATE "C" NOT NULL,
  node_type      text NOT NULL,
  status         text NOT NULL,
  started_at     bigint NOT NULL,
  completed_at   bigint,
  output         text NOT NULL,
  error          text,
  aggregator     text,
  PRIMARY KEY (tenant_id, execution_id, step_id)
);
CREATE TABLE workflow_events (
  tenant_id      text COLLATE "C" NOT NULL,
  execution_id   text COLLATE "C" NOT NULL,
  seq            integer NOT NULL,
  event_id       text COLLATE "C" NOT NULL,
  type           text NOT NULL,
  step_id        text COLLATE "C",
  external       smallint NOT NULL,
  at             bigint NOT NULL,
  data           text,
  PRIMARY KEY (tenant_id, execution_id, seq)
);`,
};
