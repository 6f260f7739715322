import type { Migration } from './migration.js';

export const numberingMovesDrafts: Migration = {
  version: 19,
  name: 'a numbering moves the drafts of the writes it serves (PostgreSQL)',
  // Migration 18's sequence_events found the tenant's drafts by scanning for them, and every draft it
  // had moved left a dead row behind until autovacuum came by (a minute apart by default): under a
  // steady stream of writes each numbering read more dead rows than the last (0.2 ms a call at first,
  // 0.9 ms after ten seconds of writes, measured with pgbench). Now a numbering is given the write_ids
  // of the writes it serves (their process waits for it) and takes exactly those by key, at a cost
  // that does not grow; drafts are keyed by write_id for it. Without write_ids (the sweep, an erasure:
  // rare) it takes every draft of the tenant as before. Ids still commit in the order numberings take
  // the counter. The counter row is made only when missing, rather than tried on every call. The
  // one-argument form stays, numbering every draft, for instances of the release before during a
  // rolling upgrade. Without write_ids the numbering reads the whole (small) drafts table: drafts
  // live for milliseconds, and that path is the sweep's and an erasure's, not a write's. The two
  // paths are two statements, not one with `writes IS NULL OR ...`: plpgsql keeps a generic plan per
  // statement, and one for the OR could not look drafts up by write_id.
  sqlite: '-- PostgreSQL only: SQLite numbers events inside the writing transaction.',
  postgres: `
ALTER TABLE event_drafts DROP CONSTRAINT event_drafts_pkey, ADD PRIMARY KEY (write_id, position);
CREATE FUNCTION sequence_events(tenant text, writes bigint[]) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  last bigint;
  added bigint;
BEGIN
  SELECT last_id INTO last FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO event_counters (tenant_id, last_id) VALUES (tenant, 0) ON CONFLICT (tenant_id) DO NOTHING;
    SELECT last_id INTO last FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  END IF;
  IF writes IS NULL THEN
    WITH moved AS (DELETE FROM event_drafts WHERE tenant_id = tenant RETURNING *)
    INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
    SELECT tenant, last + n, type, organization_id, document_id, created_at, audience, '{"id":' || (last + n) || body_rest
    FROM (SELECT m.*, row_number() OVER (ORDER BY write_id, position) AS n FROM moved m) numbered;
  ELSE
    WITH moved AS (DELETE FROM event_drafts WHERE write_id = ANY (writes) AND tenant_id = tenant RETURNING *)
    INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
    SELECT tenant, last + n, type, organization_id, document_id, created_at, audience, '{"id":' || (last + n) || body_rest
    FROM (SELECT m.*, row_number() OVER (ORDER BY write_id, position) AS n FROM moved m) numbered;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 THEN
    UPDATE event_counters SET last_id = last + added WHERE tenant_id = tenant;
    PERFORM pg_notify('marginalia_events', tenant || ' ' || (last + added));
  END IF;
  RETURN last + added;
END
$$;
-- Instances not yet upgraded (a rolling upgrade) still call the one-argument form: every draft.
CREATE OR REPLACE FUNCTION sequence_events(tenant text) RETURNS bigint LANGUAGE sql
  AS $$ SELECT sequence_events(tenant, NULL::bigint[]) $$;
`,
};
