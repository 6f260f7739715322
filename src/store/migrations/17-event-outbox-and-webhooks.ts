import type { Migration } from './migration.js';

export const eventOutboxAndWebhooks: Migration = {
  version: 17,
  name: 'an event outbox and webhooks',
  // docs/events.md "Events". Every write records its events in `events` in its own transaction (the outbox), under
  // ids that increase per tenant in commit order: `event_counters` holds each tenant's last id and
  // its row is taken last in the writing transaction, so on PostgreSQL a later id never commits
  // before an earlier one and a reader that resumes after an id misses nothing. `body` is the event
  // as sent (JSON text); `audience`, for a notification's events, who it is addressed to (what an
  // end-user token's stream may carry). Webhooks keep their secret itself (an HMAC cannot be made with a hash of
  // its key) and a cursor: the last event id turned into deliveries. A delivery is one event for one
  // webhook, with its body and its state; `webhook_queues` has one row per (webhook, organization)
  // with deliveries pending: when its oldest may be tried next, and the instance whose lease it is
  // under (the lease's end is that time, so a crashed instance's deliveries are taken over). Each
  // attempt is logged in `webhook_attempts` (docs/decisions.md, "Webhooks").
  sqlite: `
CREATE TABLE events (
  tenant_id        TEXT NOT NULL,
  id               INTEGER NOT NULL,
  type             TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT,
  created_at       INTEGER NOT NULL,
  audience         TEXT,
  body             TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX events_by_age ON events (created_at);
CREATE TABLE event_counters (
  tenant_id  TEXT PRIMARY KEY,
  last_id    INTEGER NOT NULL
) STRICT;
CREATE TABLE webhooks (
  tenant_id     TEXT NOT NULL,
  id            TEXT NOT NULL,
  url           TEXT NOT NULL,
  description   TEXT,
  event_types   TEXT,
  secret        TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  event_cursor  INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, id)
) STRICT;
CREATE TABLE webhook_deliveries (
  tenant_id          TEXT NOT NULL,
  webhook_id         TEXT NOT NULL,
  event_id           INTEGER NOT NULL,
  organization_id    TEXT NOT NULL,
  event_type         TEXT NOT NULL,
  body               TEXT NOT NULL,
  status             TEXT NOT NULL,
  attempts           INTEGER NOT NULL DEFAULT 0,
  created_at         INTEGER NOT NULL,
  finished_at        INTEGER,
  PRIMARY KEY (tenant_id, webhook_id, event_id)
) STRICT;
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (tenant_id, webhook_id, organization_id, event_id)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';
CREATE TABLE webhook_queues (
  tenant_id        TEXT NOT NULL,
  webhook_id       TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  next_attempt_at  INTEGER NOT NULL,
  claimed_by       TEXT,
  PRIMARY KEY (tenant_id, webhook_id, organization_id)
) STRICT;
CREATE INDEX webhook_queues_due ON webhook_queues (next_attempt_at);
CREATE TABLE webhook_attempts (
  id             INTEGER PRIMARY KEY,
  tenant_id      TEXT NOT NULL,
  webhook_id     TEXT NOT NULL,
  event_id       INTEGER NOT NULL,
  event_type     TEXT NOT NULL,
  attempt        INTEGER NOT NULL,
  attempted_at   INTEGER NOT NULL,
  status         TEXT NOT NULL,
  response_code  INTEGER,
  error          TEXT,
  duration_ms    INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_attempts_by_webhook ON webhook_attempts (tenant_id, webhook_id, id);
CREATE INDEX webhook_attempts_by_age ON webhook_attempts (attempted_at);
`,
  postgres: `
CREATE TABLE events (
  tenant_id        text COLLATE "C" NOT NULL,
  id               bigint NOT NULL,
  type             text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C",
  created_at       bigint NOT NULL,
  audience         text,
  body             text NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX events_by_age ON events (created_at);
CREATE TABLE event_counters (
  tenant_id  text COLLATE "C" PRIMARY KEY,
  last_id    bigint NOT NULL
);
CREATE TABLE webhooks (
  tenant_id     text COLLATE "C" NOT NULL,
  id            text COLLATE "C" NOT NULL,
  url           text NOT NULL,
  description   text,
  event_types   text,
  secret        text NOT NULL,
  created_at    bigint NOT NULL,
  event_cursor  bigint NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE webhook_deliveries (
  tenant_id          text COLLATE "C" NOT NULL,
  webhook_id         text COLLATE "C" NOT NULL,
  event_id           bigint NOT NULL,
  organization_id    text COLLATE "C" NOT NULL,
  event_type         text COLLATE "C" NOT NULL,
  body               text NOT NULL,
  status             text COLLATE "C" NOT NULL,
  attempts           integer NOT NULL DEFAULT 0,
  created_at         bigint NOT NULL,
  finished_at        bigint,
  PRIMARY KEY (tenant_id, webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (tenant_id, webhook_id, organization_id, event_id)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';
CREATE TABLE webhook_queues (
  tenant_id        text COLLATE "C" NOT NULL,
  webhook_id       text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  next_attempt_at  bigint NOT NULL,
  claimed_by       text,
  PRIMARY KEY (tenant_id, webhook_id, organization_id)
);
CREATE INDEX webhook_queues_due ON webhook_queues (next_attempt_at);
CREATE TABLE webhook_attempts (
  id             bigserial PRIMARY KEY,
  tenant_id      text COLLATE "C" NOT NULL,
  webhook_id     text COLLATE "C" NOT NULL,
  event_id       bigint NOT NULL,
  event_type     text COLLATE "C" NOT NULL,
  attempt        integer NOT NULL,
  attempted_at   bigint NOT NULL,
  status         text COLLATE "C" NOT NULL,
  response_code  integer,
  error          text,
  duration_ms    integer NOT NULL
);
CREATE INDEX webhook_attempts_by_webhook ON webhook_attempts (tenant_id, webhook_id, id);
CREATE INDEX webhook_attempts_by_age ON webhook_attempts (attempted_at);
`,
};
