// The statements of organizations as objects (docs/api.md, "Organizations"), SQLite and PostgreSQL side by side.
import { POSTGRES, SQLITE, type Syntax } from '../dialect/syntax.js';
import { deleteSome, same, sql, type Statement, written } from '../sql.js';
import { NEW_DOCUMENT_ACCESS } from '../workspace/sql.js';

/** Which of the organization and the document (@documentId, may be null) are disabled: a row `what` for each. */
export const DISABLED_IN_SCOPE = (s: Syntax) => `SELECT 'organization' AS what FROM organizations
  WHERE tenant_id = @tenantId AND organization_id = @organizationId AND disabled
  UNION ALL SELECT 'document' FROM documents WHERE tenant_id = @tenantId AND organization_id = @organizationId
    AND document_id = @documentId${s.cast('text')} AND disabled`;

/** The columns an organization is read with, in the order organizations.ts maps them. */
const COLUMNS = 'organization_id, name, disabled, created_at, updated_at';

export const ORGANIZATIONS_SQL = {
  /**
   * The first step of a write that may create: the organization comes into being (docs/api.md, "Organizations")
   * with no name, at the database's time (the writes that name one do not all carry the service's; see
   * docs/decisions.md), and a row answers when it is disabled. Folded into the statement every such
   * write ran anyway, so the check costs no statement (docs/decisions.md, "Disabled"). SQLite: a
   * conflict updates nothing unless the row is disabled, and RETURNING answers only rows written (a
   * new one reads disabled = 0); WHERE true because SQLite would read ON CONFLICT as a join's ON.
   * PostgreSQL: DO NOTHING, because DO UPDATE would lock the row for every write of the organization.
   * So the two differ in shape: an upsert answering with RETURNING, and a CTE read after it.
   */
  enterOrganization: sql('enterOrganization', {
    sqlite: `INSERT INTO organizations (tenant_id, organization_id, created_at, updated_at)
     SELECT @tenantId, @organizationId, t.now, t.now FROM (SELECT ${SQLITE.nowMs} AS now) t
     WHERE true ON CONFLICT (tenant_id, organization_id) DO UPDATE SET disabled = organizations.disabled
       WHERE organizations.disabled RETURNING disabled`,
    postgres: `WITH made AS (INSERT INTO organizations (tenant_id, organization_id, created_at, updated_at)
       SELECT @tenantId, @organizationId, t.now, t.now FROM (SELECT ${POSTGRES.nowMs} AS now) t
       ON CONFLICT (tenant_id, organization_id) DO NOTHING)
     SELECT disabled FROM organizations WHERE tenant_id = @tenantId AND organization_id = @organizationId AND disabled`,
  }),
  /** The same for a document the write names (after its organization's step), with the tenant's default access. */
  enterDocument: sql('enterDocument', {
    sqlite: `INSERT INTO documents (tenant_id, organization_id, document_id, access_type, created_at, updated_at)
     SELECT @tenantId, @organizationId, @documentId, ${NEW_DOCUMENT_ACCESS}, t.now, t.now FROM (SELECT ${SQLITE.nowMs} AS now) t
     WHERE true ON CONFLICT (tenant_id, organization_id, document_id) DO UPDATE SET disabled = documents.disabled
       WHERE documents.disabled RETURNING disabled`,
    postgres: `WITH made AS (INSERT INTO documents (tenant_id, organization_id, document_id, access_type, created_at, updated_at)
       SELECT @tenantId, @organizationId, @documentId, ${NEW_DOCUMENT_ACCESS}, t.now, t.now FROM (SELECT ${POSTGRES.nowMs} AS now) t
       ON CONFLICT (tenant_id, organization_id, document_id) DO NOTHING)
     SELECT disabled FROM documents
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId AND disabled`,
  }),
  /** The first step of a write that creates nothing: which of the organization and the document are disabled. */
  disabled: written('disabledScope', (s) => DISABLED_IN_SCOPE(s)),
  /**
   * organizations/add: creates, with the times given (docs/api.md, "What an import keeps"), or renames when a name is
   * given (no name leaves it as it was; its times stay its own).
   */
  add: written(
    'addOrganization',
    (s) => `INSERT INTO organizations (tenant_id, organization_id, name, created_at, updated_at)
     VALUES (@tenantId, @organizationId, coalesce(@name${s.cast('text')}, ''), @createdAt, @updatedAt)
     ON CONFLICT (tenant_id, organization_id) DO UPDATE SET
       name = coalesce(@name, organizations.name),
       updated_at = CASE WHEN @name${s.cast('text')} IS NULL THEN organizations.updated_at ELSE @now END`,
  ),
  /** organizations/update: renames an organization that exists; answers whether it did. */
  update: written(
    'updateOrganization',
    (s) => `UPDATE organizations SET name = coalesce(@name${s.cast('text')}, name), updated_at = @now
     WHERE tenant_id = @tenantId AND organization_id = @organizationId RETURNING organization_id`,
  ),
  /**
   * The disabled organizations among @ids: a rename of one is a write under it (docs/api.md,
   * "Disabled organizations and documents").
   */
  disabledAmong: written(
    'disabledOrganizations',
    (s) => `SELECT organization_id FROM organizations WHERE tenant_id = @tenantId AND ${s.inList('organization_id', 'ids')}
     AND disabled ORDER BY organization_id`,
  ),
  /**
   * organizations/access/disablestate/update: an organization that exists takes the state; a missing
   * one is answered as not existing (the original service's page), never created.
   */
  setDisabled: same(
    'setOrganizationDisabled',
    `UPDATE organizations SET disabled = @disabled, updated_at = @now
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND NOT deleting RETURNING organization_id`,
  ),
  /**
   * organizations/delete, first and alone: the organization is marked deleting, and disabled, so every
   * write under it is refused while its rows go in batches (store/batches.ts); answers whether it was
   * there (one marked already is one a deletion did not finish: this one finishes it).
   */
  markDeleting: same(
    'markOrganizationDeleting',
    `UPDATE organizations SET disabled = true, deleting = true
     WHERE tenant_id = @tenantId AND organization_id = @organizationId RETURNING organization_id`,
  ),
  /** organizations/delete, last: its own row (locked on PostgreSQL before what is left goes). */
  deleteOrganization: same(
    'deleteOrganization',
    'DELETE FROM organizations WHERE tenant_id = @tenantId AND organization_id = @organizationId RETURNING organization_id',
  ),
  /**
   * The profile version moves instead of going: profiles held in memory are keyed by it (services/
   * profiles.ts), so a version that went back to 1 could answer a held profile of the deleted one.
   */
  moveProfileVersion: same(
    'moveOrganizationProfileVersion',
    `UPDATE profile_versions SET version = version + 1 WHERE tenant_id = @tenantId AND organization_id = @organizationId`,
  ),
  /** organizations/get: by id (or all), in id order, after the page token's id. */
  page: written(
    'organizationsPage',
    // organization_id '' holds the documents without an organization (NO_ORGANIZATION): not one to list.
    (s) => `SELECT ${COLUMNS} FROM organizations
     WHERE tenant_id = @tenantId AND organization_id <> '' AND NOT deleting AND ${s.inList('organization_id', 'ids')}
       AND (@after${s.cast('text')} IS NULL OR organization_id > @after)
     ORDER BY organization_id LIMIT @limit`,
  ),
};

/**
 * Every table that holds an organization's data, in the order organizations/delete empties them: on
 * PostgreSQL each parent before what hangs on it, the order in which writers lock them (a thread
 * before its comments and read marks, a notification before its inbox rows and read marks), so a
 * writer waits for the deletion instead of adding a child it would miss or meeting it in a deadlock;
 * the count tables after the rows their triggers count.
 * document_versions stays, like profile_versions: deleting the threads moves each version (migration
 * 11's triggers), and pages held in memory are keyed by it. A test reads the schema and fails when a
 * table with an organization_id is in neither list.
 */
export const ORGANIZATION_TABLES = [
  // First: a document migration's worker holds its job's row before it moves rows (document-migrations/),
  // so the job goes before what it moves, and its worker stops at its next batch.
  'document_migrations',
  'annotations',
  'comments',
  // Migration 45: a comment's reactions go with it (a trigger); what is left of them here, none should be.
  'comment_reactions',
  // Uploads no comment took (attached ones go with their comments); their files are queued for removal (migration 46).
  'attachments',
  'annotation_reads',
  // Before notifications: mails waiting for them go with them.
  'email_outbox',
  'notifications',
  'inbox',
  'notification_reads',
  'notification_archives',
  'notification_settings',
  'inbox_counts',
  'wide_counts',
  'memberships',
  'access_roles',
  'group_members',
  'user_groups',
  'users',
  'documents',
  // After documents: a broadcast of a new liveStateDataId locks its document's row before it writes the
  // state (livestate/), so the deletion, once it has that row, finds the state written.
  'live_states',
  // After documents too: a presence write locks its document's row first (presence/).
  'presence',
  'folders',
  // An organization's own retention policy goes with it (migration 42).
  'retention_policies',
  // Last: the index of where each user has rows (migration 27), which the rows above no longer need.
  'user_organizations',
] as const;
/** The tables that keep an organization's rows after organizations/delete (see above). */
export const ORGANIZATION_VERSIONS = ['profile_versions', 'document_versions'] as const;
/**
 * The tables of what happened (migration 17), which keep a deleted organization's rows too: the event
 * outbox is a log, not the organization's data, and retention prunes it (MARGINALIA_EVENT_RETENTION_HOURS);
 * streams resuming after an id, and webhooks owed its events, must still find them (a delivery's
 * queue row goes with its deliveries), and the organization.delete event itself is recorded under the
 * organization after its rows went. An erasure of a user's personal data deletes the events and
 * deliveries that name them (personal-data/erasure.ts). PostgreSQL's event_drafts (migration 18) are
 * events not numbered yet, so they are kept alike (SQLite has no such table). The activity log (migration
 * 32) is kept as the outbox is, for the same reasons: its retention prunes it, the organization.delete
 * activity is its last word, and an erasure deletes what names the user.
 */
export const ORGANIZATION_HISTORY = ['events', 'webhook_deliveries', 'webhook_queues', 'event_drafts', 'activities'] as const;
/**
 * SQLite's search index (migration 44; PostgreSQL keeps its index in columns of comments and notifications): the
 * keys tables follow their rows by trigger, and an organization's rowid range (search_scopes) goes with its row in
 * organizations, by trigger too. organizations/delete empties them without naming them.
 */
export const ORGANIZATION_INDEXES = ['comment_search_keys', 'notification_search_keys', 'search_scopes'] as const;

export const DELETE_FROM: Readonly<Record<(typeof ORGANIZATION_TABLES)[number], Statement>> = Object.fromEntries(
  ORGANIZATION_TABLES.map((table) => [
    table,
    same(`deleteOrganization_${table}`, `DELETE FROM ${table} WHERE tenant_id = @tenantId AND organization_id = @organizationId`),
  ]),
) as Record<(typeof ORGANIZATION_TABLES)[number], Statement>;

/** A batch of an organization's rows of each table (organizations/delete in batches). */
export const DELETE_SOME_FROM: Readonly<Record<(typeof ORGANIZATION_TABLES)[number], Statement>> = Object.fromEntries(
  ORGANIZATION_TABLES.map((table) => [
    table,
    deleteSome(`deleteSomeOfOrganization_${table}`, table, 'tenant_id = @tenantId AND organization_id = @organizationId'),
  ]),
) as Record<(typeof ORGANIZATION_TABLES)[number], Statement>;
