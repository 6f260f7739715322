import type { Migration } from './migration.js';

export const numberingInCommitOrder: Migration = {
  version: 21,
  name: 'numberings take every committed draft, in transaction order, from a horizon (PostgreSQL)',
  // Through migration 20 a write answered only once a numbering had taken its drafts, which cost about
  // one more transaction for every two writes (notifications/add at 0.72 of its req/s without the
  // outbox). Now a write answers once it has committed, and its process numbers the tenant's drafts
  // just after, at most once every MARGINALIA_EVENT_NUMBERING_MS: under load one numbering serves many
  // writes. So that a write made after another's answer, on any instance, still gets the later id, a
  // numbering takes every committed draft of the tenant, ordered by the transaction id of its write
  // (xid, drawn before the write commits: a write that starts after another committed has the larger
  // one), not only the drafts its process wrote. To not read every draft it deleted before (dead rows
  // until autovacuum: why migration 19 took drafts by write_id), it starts at the tenant's drafts_from:
  // the oldest transaction holding an id (on any database of the server) when the last numbering that
  // moved drafts had the counter (pg_snapshot_xmin). Every transaction older than that had ended, so
  // its drafts were committed and taken, or never will be. A long transaction keeps drafts_from back
  // (a numbering then reads more rows); it never holds back a numbering. A drafts_from past the
  // horizon came from another server (a restored dump) and is started over. Drafts already there
  // take xid 0 (they were committed before any write to come). The tables are locked first, in the
  // order a numbering takes them, so a numbering of the release before cannot deadlock with this.
  // Both earlier forms of sequence_events now do the same, for a rolling upgrade.
  postgres: `
LOCK TABLE event_counters, event_drafts IN ACCESS EXCLUSIVE MODE;
ALTER TABLE event_drafts ADD COLUMN xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE event_drafts ALTER COLUMN xid SET DEFAULT pg_current_xact_id();
ALTER TABLE event_drafts DROP CONSTRAINT event_drafts_pkey, ADD PRIMARY KEY (tenant_id, xid, write_id, position);
ALTER TABLE event_counters ADD COLUMN drafts_from xid8 NOT NULL DEFAULT '0';
CREATE OR REPLACE FUNCTION sequence_events(tenant text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  last bigint;
  added bigint;
  since xid8;
  horizon xid8;
BEGIN
  SELECT last_id, drafts_from INTO last, since FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO event_counters (tenant_id, last_id) VALUES (tenant, 0) ON CONFLICT (tenant_id) DO NOTHING;
    SELECT last_id, drafts_from INTO last, since FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  END IF;
  -- Taken before the move's snapshot (any time before it is safe; after it would not be).
  horizon := pg_snapshot_xmin(pg_current_snapshot());
  -- Past the horizon, drafts_from came from another server's transaction ids (a restored dump): from the start.
  IF since > horizon THEN
    since := '0';
  END IF;
  WITH moved AS (DELETE FROM event_drafts WHERE tenant_id = tenant AND xid >= since RETURNING *)
  INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
  SELECT tenant, last + n, type, organization_id, document_id, created_at, audience, '{"id":' || (last + n) || body_rest
  FROM (SELECT m.*, row_number() OVER (ORDER BY xid, write_id, position) AS n FROM moved m) numbered;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 THEN
    UPDATE event_counters SET last_id = last + added, drafts_from = horizon WHERE tenant_id = tenant;
    PERFORM pg_notify('marginalia_events', tenant || ' ' || (last + added));
  END IF;
  RETURN last + added;
END
$$;
CREATE OR REPLACE FUNCTION sequence_events(tenant text, writes bigint[]) RETURNS bigint LANGUAGE sql
  AS $$ SELECT sequence_events(tenant) $$;
`,
  sqlite: '-- PostgreSQL only: SQLite numbers events inside the writing transaction.',
};
