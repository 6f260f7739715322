import type { Migration } from './migration.js';

export const advancedWebhooks: Migration = {
  version: 35,
  name: 'advanced webhook endpoints, their health and rate, and the webhook settings',
  // An advanced endpoint (docs/api.md, "Advanced webhooks") is a webhook of the engine with more members:
  // the filter as the caller named it (event_types keeps it mapped to this server's types), channels,
  // a switch, a rate, metadata, a caller's id, and the secret it had before a rotation (it signs too until
  // previous_secret_until). webhook_states is what the worker writes as it sends (a run of failures, the
  // switch it turns off after MARGINALIA_WEBHOOK_DISABLE_AFTER_FAILING_HOURS, the deliveries started in the
  // current second): a table of its own, so the worker never waits on the webhook's row, which a dispatch
  // holds while it waits on queues. webhook_settings: the two configuration pages, per tenant.
  sqlite: `
ALTER TABLE webhooks ADD COLUMN filter_types TEXT;
ALTER TABLE webhooks ADD COLUMN channels TEXT;
ALTER TABLE webhooks ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD COLUMN rate_limit INTEGER;
ALTER TABLE webhooks ADD COLUMN metadata TEXT;
ALTER TABLE webhooks ADD COLUMN uid TEXT;
ALTER TABLE webhooks ADD COLUMN updated_at INTEGER;
ALTER TABLE webhooks ADD COLUMN previous_secret TEXT;
ALTER TABLE webhooks ADD COLUMN previous_secret_until INTEGER;
CREATE TABLE webhook_states (
  tenant_id        TEXT NOT NULL,
  webhook_id       TEXT NOT NULL,
  failing_since    INTEGER,
  disabled_at      INTEGER,
  disabled_reason  TEXT,
  rate_window_at   INTEGER NOT NULL DEFAULT 0,
  rate_sent        INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, webhook_id)
) STRICT;
CREATE TABLE webhook_settings (
  tenant_id   TEXT PRIMARY KEY,
  advanced    TEXT,
  basic       TEXT,
  updated_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (tenant_id, webhook_id, created_at) WHERE status = 'failed';`,
  postgres: `
ALTER TABLE webhooks ADD COLUMN filter_types text, ADD COLUMN channels text, ADD COLUMN disabled boolean NOT NULL DEFAULT false,
  ADD COLUMN rate_limit integer, ADD COLUMN metadata text, ADD COLUMN uid text, ADD COLUMN updated_at bigint,
  ADD COLUMN previous_secret text, ADD COLUMN previous_secret_until bigint;
CREATE TABLE webhook_states (
  tenant_id        text COLLATE "C" NOT NULL,
  webhook_id       text COLLATE "C" NOT NULL,
  failing_since    bigint,
  disabled_at      bigint,
  disabled_reason  text,
  rate_window_at   bigint NOT NULL DEFAULT 0,
  rate_sent        integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, webhook_id)
);
CREATE TABLE webhook_settings (
  tenant_id   text COLLATE "C" PRIMARY KEY,
  advanced    text,
  basic       text,
  updated_at  bigint NOT NULL
);
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (tenant_id, webhook_id, created_at) WHERE status = 'failed';`,
};
