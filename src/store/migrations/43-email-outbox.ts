import type { Migration } from './migration.js';

export const emailOutbox: Migration = {
  version: 43,
  name: 'the email outbox and the unsubscribe secrets',
  // email_outbox: one row per (notification, recipient) to mail, drafted in the transaction that writes the
  // notification (store/email/drafts.ts) while MARGINALIA_SMTP_URL is set (docs/decisions.md, "Email (issue 40)").
  // next_at is when the row may be claimed: its digest window's end (or at once for a mention), a retry's time,
  // or, while claimed_by holds it, the end of that sender's lease (so a crashed sender's rows come back then).
  // status: pending, then sent, skipped (the recipient's setting, address or workspace said no) or failed (out of
  // attempts). email_outbox_due serves the sender's look for work and its claims, email_outbox_recipient the
  // rows of one recipient a digest takes, email_outbox_finished the pruning of finished rows.
  // email_secrets: each tenant's key for the HMAC of its unsubscribe links, made on first use.
  sqlite: `
CREATE TABLE email_outbox (
  id               INTEGER PRIMARY KEY,
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  notification_id  TEXT NOT NULL,
  document_id      TEXT,
  concerns         INTEGER NOT NULL,
  mention          INTEGER NOT NULL,
  created_at       INTEGER NOT NULL,
  next_at          INTEGER NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'skipped', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  claimed_by       TEXT,
  finished_at      INTEGER,
  error            TEXT,
  UNIQUE (tenant_id, organization_id, notification_id, user_id)
) STRICT;
CREATE INDEX email_outbox_due ON email_outbox (next_at) WHERE status = 'pending';
CREATE INDEX email_outbox_recipient ON email_outbox (tenant_id, organization_id, user_id, id) WHERE status = 'pending';
CREATE INDEX email_outbox_finished ON email_outbox (finished_at) WHERE status <> 'pending';
CREATE TABLE email_secrets (
  tenant_id   TEXT PRIMARY KEY,
  secret      TEXT NOT NULL,
  created_at  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`,
  postgres: `
CREATE TABLE email_outbox (
  id               bigserial PRIMARY KEY,
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  notification_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C",
  concerns         integer NOT NULL,
  mention          integer NOT NULL,
  created_at       bigint NOT NULL,
  next_at          bigint NOT NULL,
  status           text COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'skipped', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  claimed_by       text COLLATE "C",
  finished_at      bigint,
  error            text,
  UNIQUE (tenant_id, organization_id, notification_id, user_id)
);
CREATE INDEX email_outbox_due ON email_outbox (next_at) WHERE status = 'pending';
CREATE INDEX email_outbox_recipient ON email_outbox (tenant_id, organization_id, user_id, id) WHERE status = 'pending';
CREATE INDEX email_outbox_finished ON email_outbox (finished_at) WHERE status <> 'pending';
CREATE TABLE email_secrets (
  tenant_id   text COLLATE "C" PRIMARY KEY,
  secret      text NOT NULL,
  created_at  bigint NOT NULL
);
`,
};
