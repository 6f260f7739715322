// The statements of documents' presence (migration 37), SQLite and PostgreSQL side by side. Row locks are
// PostgreSQL's; SQLite's write transaction already excludes other writers. A presence is there while
// its expires_at is later than the write's or the read's @now.
import { DOCUMENT } from '../documents/sql.js';
import { deleteSome, same, written } from '../sql.js';

const COLUMNS = 'user_id, name, email, status, updated_at, expires_at';

export const PRESENCE_SQL = {
  /**
   * The document's row, locked until the write commits (NO KEY UPDATE: the weakest lock two writers
   * wait on each other for), so that a document's presence writes run one at a time and its count stays
   * exact; also what documents/delete locks first, so it finds what a write under it added.
   */
  lockDocument: written(
    'lockPresenceDocument',
    (s) => `SELECT 1 AS found FROM documents WHERE ${DOCUMENT}${s.lock('NO KEY UPDATE')}`,
  ),
  /** The presence of the listed users that has not expired. */
  held: written(
    'heldPresence',
    (s) => `SELECT ${COLUMNS} FROM presence WHERE ${DOCUMENT} AND ${s.isIn('user_id', 'userIds')} AND expires_at > @now`,
  ),
  write: same(
    'writePresence',
    `INSERT INTO presence (tenant_id, organization_id, document_id, user_id, name, email, status, updated_at, expires_at)
     VALUES (@tenantId, @organizationId, @documentId, @userId, @name, @email, @status, @now, @expiresAt)
     ON CONFLICT (tenant_id, organization_id, document_id, user_id)
     DO UPDATE SET name = excluded.name, email = excluded.email, status = excluded.status,
       updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
  ),
  /** How many users are on the document, counted up to @limit (all the bound needs to know). */
  count: same(
    'countPresence',
    `SELECT count(*) AS n FROM (SELECT 1 FROM presence WHERE ${DOCUMENT} AND expires_at > @now LIMIT @limit) held`,
  ),
  /** presence/delete: the listed users' rows go; answers those that had not expired. */
  remove: written(
    'deletePresence',
    (s) => `DELETE FROM presence WHERE ${DOCUMENT} AND ${s.isIn('user_id', 'userIds')} RETURNING user_id, expires_at`,
  ),
  /** presence/get: who is on the document, in userId order. */
  read: same(
    'presenceOfDocument',
    `SELECT ${COLUMNS} FROM presence WHERE ${DOCUMENT} AND expires_at > @now ORDER BY user_id LIMIT @limit`,
  ),
  /** Retention: tenants with an expired presence (one probe of presence_by_expiry each), in id order after @after. */
  expiredTenants: same(
    'tenantsWithExpiredPresence',
    `SELECT id FROM tenants t WHERE id > @after
       AND EXISTS (SELECT 1 FROM presence p WHERE p.tenant_id = t.id AND p.expires_at <= @now)
     ORDER BY id LIMIT @limit`,
  ),
  /** Retention: a batch of a tenant's expired presence (presence_by_expiry). */
  pruneTenant: deleteSome('pruneTenantPresence', 'presence', 'tenant_id = @tenantId AND expires_at <= @now'),
  /** users/data/delete: a batch of the users' presence, in the organizations erased (presence_by_user). */
  eraseUsers: written('erasePresence', (s) =>
    s.deleteSome(
      'presence',
      `tenant_id = @tenantId AND ${s.isIn('user_id', 'userIds')} AND ${s.inList('organization_id', 'organizationIds')}`,
    ),
  ),
};
