// The statements of document migrations (docs/api.md, "Document migration"): the job's row, its claim
// under a lease, and the moves of a document's rows to the new id (movers.ts), SQLite and PostgreSQL side by side.
import { DOCUMENT } from '../documents/sql.js';
import { same, written } from '../sql.js';

const JOB = 'tenant_id = @tenantId AND migration_id = @migrationId';
/** The job, while this worker holds it. */
const HELD = `${JOB} AND lease_owner = @owner AND status = 'in_progress'`;
const OPEN = "status IN ('pending', 'in_progress')";
/** The same document under its new id. */
const TARGET = 'tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @newDocumentId';
const NOTIFICATIONS_OF = (s: { isIn(column: string, param: string): string }) =>
  `tenant_id = @tenantId AND organization_id = @organizationId AND ${s.isIn('notification_id', 'ids')}`;

/** The columns a job is read with, in the order document-migrations.ts maps them. */
const COLUMNS = 'migration_id, organization_id, document_id, new_document_id, status, moved, error, created_at, updated_at';

export const MIGRATIONS_SQL = {
  /**
   * First in a start (PostgreSQL): the tenant's row, so that two starts count its open jobs one after the other
   * and cannot both pass MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT.
   */
  lockTenant: written('lockTenantForMigrations', (s) => `SELECT id FROM tenants WHERE id = @tenantId${s.lock('NO KEY UPDATE')}`),
  /** The tenant's open jobs, counted up to @most (document_migrations_open_of_tenant, migration 38). */
  openOfTenant: same(
    'openMigrationsOfTenant',
    `SELECT count(*) AS n FROM (SELECT 1 FROM document_migrations WHERE tenant_id = @tenantId AND ${OPEN} LIMIT @most) held`,
  ),
  /** The source document, locked until the start commits (PostgreSQL): a documents/delete of it waits or is waited for. */
  source: written('migrationSource', (s) => `SELECT disabled, deleting FROM documents WHERE ${DOCUMENT}${s.lock('UPDATE')}`),
  /** A job under way that moves the document, or moves another one to it. */
  openOn: same(
    'openMigrationOn',
    `SELECT migration_id FROM document_migrations
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId AND ${OPEN}
     UNION ALL SELECT migration_id FROM document_migrations
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND new_document_id = @documentId AND ${OPEN}`,
  ),
  /**
   * The new id's row: the source's name, folder and access, disabled while the job runs, so every write to
   * it is refused (docs/decisions.md, "Document migration"). No row when the id is taken.
   */
  makeTarget: written(
    'makeMigrationTarget',
    (s) => `INSERT INTO documents (tenant_id, organization_id, document_id, name, folder_id, access_type, disabled,
       created_at, updated_at)
     SELECT tenant_id, organization_id, @newDocumentId, name, folder_id, access_type, ${s.true}, created_at, @now
     FROM documents WHERE ${DOCUMENT}
     ON CONFLICT (tenant_id, organization_id, document_id) DO NOTHING RETURNING document_id`,
  ),
  /** The source is disabled while the job runs: every write to it is refused. */
  disableSource: written('disableMigrationSource', (s) => `UPDATE documents SET disabled = ${s.true} WHERE ${DOCUMENT}`),
  insert: same(
    'insertDocumentMigration',
    `INSERT INTO document_migrations (tenant_id, migration_id, organization_id, document_id, new_document_id, status,
       source_disabled, created_at, updated_at)
     VALUES (@tenantId, @migrationId, @organizationId, @documentId, @newDocumentId, 'pending', @sourceDisabled, @now, @now)`,
  ),
  /** The status page: the job of this tenant and organization. */
  byId: same(
    'documentMigrationById',
    `SELECT ${COLUMNS} FROM document_migrations WHERE ${JOB} AND organization_id = @organizationId`,
  ),
  /**
   * An open job no worker holds (never claimed, handed back, or its worker's lease ran out), oldest lease
   * first; PostgreSQL skips one another instance is claiming. Any tenant's: the workers serve them all.
   */
  due: written(
    'dueDocumentMigration',
    (s) => `SELECT tenant_id, migration_id FROM document_migrations
     WHERE ${OPEN} AND lease_until <= @now ORDER BY lease_until LIMIT 1${s.lock('UPDATE', { skipLocked: true })}`,
  ),
  claim: same(
    'claimDocumentMigration',
    `UPDATE document_migrations SET status = 'in_progress', lease_owner = @owner, lease_until = @until, updated_at = @now
     WHERE ${JOB} RETURNING organization_id, document_id, new_document_id, step`,
  ),
  /** The first statement of every batch: the job is still this worker's (locked on PostgreSQL), its lease renewed. */
  hold: same('holdDocumentMigration', `UPDATE document_migrations SET lease_until = @until WHERE ${HELD} RETURNING step`),
  progress: same(
    'documentMigrationProgress',
    `UPDATE document_migrations SET step = @step, moved = moved + @moved, updated_at = @now WHERE ${HELD}`,
  ),
  /** The end: the source's row goes; the new id takes the source's own disabled flag. */
  sourceDisabled: same('documentMigrationSourceDisabled', `SELECT source_disabled FROM document_migrations WHERE ${JOB}`),
  removeSource: same('removeMigratedDocument', `DELETE FROM documents WHERE ${DOCUMENT} RETURNING document_id`),
  enable: written(
    'enableMigratedDocument',
    (s) => `UPDATE documents SET disabled = @disabled${s.cast('boolean')}, updated_at = @now WHERE ${TARGET}`,
  ),
  /** A failed job gives both ids the source's own flag back, so writes go on where the rows are. */
  enableBoth: written(
    'enableDocumentsOfFailedMigration',
    (s) => `UPDATE documents SET disabled = @disabled${s.cast('boolean')}, updated_at = @now
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id IN (@documentId, @newDocumentId)`,
  ),
  finish: same(
    'finishDocumentMigration',
    `UPDATE document_migrations SET status = @status, error = @error, lease_owner = NULL, lease_until = 0, updated_at = @now
     WHERE ${HELD}`,
  ),
  /** A stopping worker hands its job back, due at once to whichever worker looks next. */
  release: same('releaseDocumentMigration', `UPDATE document_migrations SET lease_owner = NULL, lease_until = 0 WHERE ${HELD}`),

  // --- The moves (movers.ts): each a batch of at most @limit rows of one table ---
  moveRows: (name: string, table: string) => written(name, (s) => s.updateSome(table, 'document_id = @newDocumentId', DOCUMENT)),
  moveMemberships: written('migrateSomeMemberships', (s) =>
    s.updateSome(
      'memberships',
      'scope_id = @newDocumentId',
      "tenant_id = @tenantId AND organization_id = @organizationId AND scope_kind = 'document' AND scope_id = @documentId",
    ),
  ),
  /** Roles on the document (migration 40) follow it, as its memberships do. */
  moveRoles: written('migrateSomeRoles', (s) =>
    s.updateSome(
      'access_roles',
      'resource_id = @newDocumentId',
      "tenant_id = @tenantId AND organization_id = @organizationId AND resource_kind = 'document' AND resource_id = @documentId",
    ),
  ),
  /** Threads: their stored answers name the document (domain/answers/annotations.ts headDocumentPiece). */
  moveThreads: written('migrateSomeThreads', (s) =>
    s.updateSome('annotations', 'document_id = @newDocumentId, answer_head = replace(answer_head, @from, @to)', DOCUMENT),
  ),
  /**
   * The source's thread version moves too (the annotations' triggers move the new id's, migration 11):
   * pages of its threads held in memory (services/thread-pages.ts) are read again.
   */
  moveVersion: same('migrationMovesDocumentVersion', `UPDATE document_versions SET version = @version WHERE ${DOCUMENT}`),
  /** Notifications a batch at a time (their ids), each with its inbox rows and read marks, in notifications/delete's order. */
  someNotifications: written(
    'someNotificationsToMigrate',
    (s) => `SELECT notification_id FROM notifications WHERE ${DOCUMENT} ORDER BY notification_id LIMIT @limit${s.lock('UPDATE')}`,
  ),
  moveNotifications: written(
    'migrateNotifications',
    (s) =>
      `UPDATE notifications SET document_id = @newDocumentId, answer = replace(answer, @from, @to) WHERE ${NOTIFICATIONS_OF(s)}`,
  ),
  moveInbox: written(
    'migrateInboxRows',
    (s) => `UPDATE inbox${s.indexedBy('inbox_by_notification')} SET document_id = @newDocumentId,
       answer = replace(answer, @from, @to) WHERE ${NOTIFICATIONS_OF(s)}`,
  ),
  moveNotificationReads: written(
    'migrateNotificationReads',
    (s) => `UPDATE notification_reads SET document_id = @newDocumentId WHERE ${NOTIFICATIONS_OF(s)}`,
  ),
  /** Archives of organization-wide notifications (migration 41), after the read marks: their pair counters follow. */
  moveNotificationArchives: written(
    'migrateNotificationArchives',
    (s) => `UPDATE notification_archives SET document_id = @newDocumentId WHERE ${NOTIFICATIONS_OF(s)}`,
  ),
};
