import type { Migration } from './migration.js';

export const eventDrafts: Migration = {
  version: 18,
  name: 'event drafts numbered after their commit (PostgreSQL)',
  // Migration 17 had a PostgreSQL write take its events' ids from the tenant's counter row and hold
  // that row to its commit: a tenant's writes then ran one at a time (45% of notifications/add req/s
  // at 10 connections). Now a write leaves its events in event_drafts, without ids and without
  // touching the counter, and right after its commit sequence_events(tenant) numbers them: it locks
  // the counter row, and in a statement of its own (so a snapshot taken after the lock: every draft
  // committed before it is seen) moves the tenant's drafts into events with the next ids, in the
  // order their writes took write_id, then announces the new last id (NOTIFY, sent at commit). The
  // lock is held for that one call, and ids still commit in order, so "everything after id N" stays
  // complete. A draft whose writer stopped before numbering it is numbered by the tenant's next write
  // or by the sweep (src/events/sweep.ts). SQLite runs one write at a time anyway: it numbers events
  // as it records them, as before, and needs none of this. The channel name is EVENTS_CHANNEL's.
  sqlite: '-- PostgreSQL only: SQLite numbers events inside the writing transaction.',
  postgres: `
CREATE SEQUENCE event_draft_writes;
CREATE TABLE event_drafts (
  tenant_id        text COLLATE "C" NOT NULL,
  write_id         bigint NOT NULL,
  position         integer NOT NULL,
  type             text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C",
  created_at       bigint NOT NULL,
  audience         text,
  body_rest        text NOT NULL,
  PRIMARY KEY (tenant_id, write_id, position)
);
CREATE FUNCTION sequence_events(tenant text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  last bigint;
  added bigint;
BEGIN
  INSERT INTO event_counters (tenant_id, last_id) VALUES (tenant, 0) ON CONFLICT (tenant_id) DO NOTHING;
  SELECT last_id INTO last FROM event_counters WHERE tenant_id = tenant FOR UPDATE;
  WITH moved AS (DELETE FROM event_drafts WHERE tenant_id = tenant RETURNING *)
  INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
  SELECT tenant, last + n, type, organization_id, document_id, created_at, audience, '{"id":' || (last + n) || body_rest
  FROM (SELECT m.*, row_number() OVER (ORDER BY write_id, position) AS n FROM moved m) numbered;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 THEN
    UPDATE event_counters SET last_id = last + added WHERE tenant_id = tenant;
    PERFORM pg_notify('marginalia_events', tenant || ' ' || (last + added));
  END IF;
  RETURN last + added;
END
$$;
`,
};
