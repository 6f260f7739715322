// The statements of the event outbox (SPEC 13), SQLite and PostgreSQL side by side.
import { byKind, cast, same, sql } from '../sql.js';

/** The PostgreSQL channel every write's commit is announced on (payload: "<tenantId> <lastId>"). */
export const EVENTS_CHANNEL = 'marginalia_events';

export const EVENTS_SQL = {
  /**
   * Takes `count` ids after the tenant's last one. The counter row is locked until commit, and it is
   * the last thing a write takes, so the tenant's ids commit in order (migration 17). PostgreSQL
   * announces the commit in the same statement (NOTIFY is sent only if the transaction commits).
   */
  takeIds: sql('takeEventIds', {
    sqlite: `INSERT INTO event_counters (tenant_id, last_id) VALUES (@tenantId, @count)
             ON CONFLICT (tenant_id) DO UPDATE SET last_id = last_id + @count RETURNING last_id`,
    postgres: `WITH c AS (
                 INSERT INTO event_counters AS e (tenant_id, last_id) VALUES (@tenantId, @count::bigint)
                 ON CONFLICT (tenant_id) DO UPDATE SET last_id = e.last_id + @count::bigint RETURNING last_id)
               SELECT last_id, pg_notify('${EVENTS_CHANNEL}', @tenantId::text || ' ' || last_id) AS announced FROM c`,
  }),
  insert: sql('insertEvents', {
    sqlite: `INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
             VALUES (@tenantId, @id, @type, @organizationId, @documentId, @createdAt, @audience, @body)`,
    postgres: `INSERT INTO events (tenant_id, id, type, organization_id, document_id, created_at, audience, body)
               SELECT @tenantId, r.id, r.type, r.organization_id, r.document_id, @createdAt::bigint, r.audience, r.body
               FROM unnest(@id::bigint[], @type::text[], @organizationId::text[], @documentId::text[], @audience::text[],
                 @body::text[]) AS r(id, type, organization_id, document_id, audience, body)`,
  }),
  /** A tenant's events after an id, in id order (the stream's resume and its tail). */
  after: byKind(
    'eventsAfter',
    (kind) => `SELECT id, type, organization_id, document_id, audience, body FROM events
               WHERE tenant_id = @tenantId AND id > @after${cast(kind, 'bigint')} ORDER BY id LIMIT @limit`,
  ),
  lastId: same('lastEventId', 'SELECT last_id FROM event_counters WHERE tenant_id = @tenantId'),
  /** The oldest events, a batch at a time (retention: MARGINALIA_EVENT_RETENTION_HOURS). */
  prune: same(
    'pruneEvents',
    `DELETE FROM events WHERE (tenant_id, id) IN (
       SELECT tenant_id, id FROM events WHERE created_at < @before ORDER BY created_at LIMIT @limit)`,
  ),
};

/**
 * What an end-user token's stream may carry of an organization (SPEC 13): whether the user has a
 * profile there, and whether they may see a document: `public`, anyone of the organization;
 * `organizationPrivate` (also a document no write has described yet), users with a profile;
 * `restricted`, members of the document or of its folder.
 */
export const ACCESS_SQL = {
  access: same(
    'streamAccess',
    `SELECT
       EXISTS (SELECT 1 FROM users WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId)
         AS member,
       (SELECT access_type FROM documents
         WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId) AS access_type,
       EXISTS (SELECT 1 FROM memberships
         WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
           AND ((scope_kind = 'document' AND scope_id = @documentId)
             OR (scope_kind = 'folder' AND scope_id = (SELECT folder_id FROM documents
                   WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId))))
         AS listed`,
  ),
};
