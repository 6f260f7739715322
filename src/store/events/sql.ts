// The statements of the event outbox (docs/events.md, "Events"), SQLite and PostgreSQL side by side.
import { postgresOnly, same, sql, sqliteOnly, written } from '../sql.js';

/**
 * The PostgreSQL channel every numbering of events is announced on (payload: "<tenantId> <lastId>"):
 * sequence_events sends it (migration 18, which names it itself).
 */
export const EVENTS_CHANNEL = 'marginalia_events';

export const EVENTS_SQL = {
  /**
   * SQLite: takes `count` ids after the tenant's last one, inside the writing transaction (SQLite runs
   * one write at a time, so ids commit in order). PostgreSQL numbers drafts instead (below).
   */
  takeIds: sqliteOnly(
    'takeEventIds',
    `INSERT INTO event_counters (tenant_id, last_id) VALUES (@tenantId, @count)
     ON CONFLICT (tenant_id) DO UPDATE SET last_id = last_id + @count RETURNING last_id`,
  ),
  insert: sqliteOnly(
    'insertEvents',
    `INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
     VALUES (@tenantId, @id, @type, @organizationId, @documentId, @createdAt, @audience, @body)`,
  ),
  /**
   * PostgreSQL: the write's events as drafts, without ids, under one write_id (their write) and with
   * the write's transaction id (xid, the column's default: their order among the tenant's writes);
   * sequence_events numbers them after the commit (migrations 18, 21).
   */
  insertDrafts: postgresOnly(
    'insertEventDrafts',
    `INSERT INTO event_drafts (tenant_id, write_id, position, type, organization_id, document_id, created_at, audience,
       body_rest)
     SELECT @tenantId, w.id, r.position, r.type, r.organization_id, r.document_id, @createdAt::bigint, r.audience, r.body_rest
     FROM (SELECT nextval('event_draft_writes') AS id) w,
       unnest(@type::text[], @organizationId::text[], @documentId::text[], @audience::text[], @bodyRest::text[])
         WITH ORDINALITY AS r(type, organization_id, document_id, audience, body_rest, position)`,
  ),
  /**
   * Numbers the tenant's committed drafts (every one, migration 21) and answers its last id. SQLite has
   * no drafts: it numbers events as it records them.
   */
  sequence: sql('sequenceEvents', {
    sqlite: `SELECT coalesce((SELECT last_id FROM event_counters WHERE tenant_id = @tenantId), 0) AS last_id`,
    postgres: 'SELECT sequence_events(@tenantId) AS last_id',
  }),
  /** PostgreSQL: the tenants with drafts written before `before` (left by a writer that stopped before numbering them). */
  draftedTenants: postgresOnly('draftedTenants', 'SELECT DISTINCT tenant_id FROM event_drafts WHERE created_at < @before'),
  /** A tenant's events after an id, in id order (the stream's resume and its tail). */
  after: written(
    'eventsAfter',
    (s) => `SELECT id, type, organization_id, document_id, audience, body FROM events
               WHERE tenant_id = @tenantId AND id > @after${s.cast('bigint')} ORDER BY id LIMIT @limit`,
  ),
  lastId: same('lastEventId', 'SELECT last_id FROM event_counters WHERE tenant_id = @tenantId'),
  /**
   * Retention (MARGINALIA_EVENT_RETENTION_HOURS), through the primary key (migration 22): the tenants
   * whose oldest event was recorded before `before` (one look each, at that event).
   */
  agedTenants: same(
    'agedEventTenants',
    `SELECT tenant_id FROM event_counters c
     WHERE (SELECT created_at FROM events e WHERE e.tenant_id = c.tenant_id ORDER BY e.id LIMIT 1) < @before
     ORDER BY tenant_id LIMIT @limit`,
  ),
  /**
   * Of a tenant's `limit` oldest events, those recorded before `before`. Ids follow the time events are
   * written (to the millisecond, between writes running side by side), so these are its old ones.
   */
  pruneTenant: same(
    'pruneTenantEvents',
    `DELETE FROM events WHERE tenant_id = @tenantId AND created_at < @before
       AND id IN (SELECT id FROM events WHERE tenant_id = @tenantId ORDER BY id LIMIT @limit)`,
  ),
};
