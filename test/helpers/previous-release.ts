// Takes a database back to the schema an earlier release left, rows included, so a test can check that
// the migrations after it carry those rows forward. Each step undoes one migration, newest first.
import {
  COMMENT_SEARCH,
  NOTIFICATION_SEARCH,
  SEARCH_WORDS_FUNCTION,
  dropSearchTriggers,
  sqliteSearchRemade,
} from '../../src/store/migrations/44-search-index.js';
import { SEARCHED_COMMENTS, SEARCHED_NOTIFICATIONS } from '../../src/store/migrations/47-notification-headlines-searched.js';
import { MIGRATIONS, NAMING, USER_COLUMNS } from '../../src/store/migrations/index.js';
import type { FreshDatabase } from './test-database.js';

/**
 * Before migration 6: the inbox was notification_recipients, an index into notifications, and on SQLite
 * the document index did not cover the read.
 */
export async function beforeInboxAnswers(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const sqlite = db.kind === 'sqlite';
  await db.exec(`
CREATE TABLE notification_recipients (
  tenant_id        ${sqlite ? 'TEXT' : 'text COLLATE "C"'} NOT NULL,
  organization_id  ${sqlite ? 'TEXT' : 'text COLLATE "C"'} NOT NULL,
  notification_id  ${sqlite ? 'TEXT' : 'text COLLATE "C"'} NOT NULL,
  user_id          ${sqlite ? 'TEXT' : 'text COLLATE "C"'} NOT NULL,
  position         ${sqlite ? 'INTEGER' : 'integer'} NOT NULL,
  unread           ${sqlite ? 'INTEGER' : 'boolean'} NOT NULL,
  timestamp        ${sqlite ? 'INTEGER' : 'bigint'} NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, notification_id, user_id)
)${sqlite ? ' STRICT, WITHOUT ROWID' : ''};
CREATE INDEX recipients_by_user
  ON notification_recipients (tenant_id, organization_id, user_id, timestamp DESC, notification_id DESC);
INSERT INTO notification_recipients
  SELECT tenant_id, organization_id, notification_id, user_id, position, unread, timestamp FROM inbox;
DROP TABLE inbox;
${
  sqlite
    ? `DROP INDEX notifications_by_document;
CREATE INDEX notifications_by_document
  ON notifications (tenant_id, organization_id, document_id, timestamp DESC, notification_id DESC);`
    : ''
}
DELETE FROM schema_migrations WHERE version = 6;`);
}

/** Before migration 7: reads joined users for profiles; no versions were kept. */
export async function beforeProfileVersions(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP TABLE profile_versions; DELETE FROM schema_migrations WHERE version = 7');
}

/** Before migration 8: threads had no lastUpdated, filter columns or import members; no read marks. */
export async function beforeThreadLife(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const columns = ['last_updated', 'status_id', 'first_user_id', 'assigned_to', 'priority', 'target_element'];
  await db.exec(`
DROP INDEX annotations_by_time;
${columns.map((c) => `ALTER TABLE annotations DROP COLUMN ${c};`).join('\n')}
ALTER TABLE comments DROP COLUMN tagged_user_contacts;
DROP TABLE annotation_reads;
DELETE FROM schema_migrations WHERE version = 8;`);
}

/** Before migration 9: threads kept neither their answers nor their newest comments. */
export async function beforeStoredThreads(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  const columns = ['answer_head', 'answer_comments', 'last_comment_at', 'last_comment_by', 'last_other_at'];
  await db.exec(`
${columns.map((c) => `ALTER TABLE annotations DROP COLUMN ${c};`).join('\n')}
DELETE FROM schema_migrations WHERE version = 9;`);
}

/** Before migration 10: counts read each thread's row; no index held what they compare. */
export async function beforeCountIndex(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP INDEX annotations_counted; DELETE FROM schema_migrations WHERE version = 10');
}

/** Before migration 11: documents had no thread version, and no trigger moved one. */
export async function beforeDocumentVersions(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const triggers =
    db.kind === 'sqlite'
      ? ['insert', 'update', 'delete'].map((e) => `DROP TRIGGER annotations_${e}_moves_version;`).join('\n')
      : 'DROP FUNCTION annotations_move_versions() CASCADE;';
  await db.exec(`${triggers}
DROP TABLE document_versions;
DELETE FROM schema_migrations WHERE version = 11;`);
}

/**
 * Before migration 12: notifications had no read state, organization-wide addressing, counters or
 * settings. Only rows the previous release could write may exist (every notification listed, unread).
 */
export async function beforeInboxLife(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const counted = ['inbox', 'notification_reads', 'notifications'];
  const triggers =
    db.kind === 'sqlite'
      ? counted.flatMap((t) => ['insert', 'update', 'delete'].map((e) => `DROP TRIGGER ${t}_${e}_counts;`)).join('\n')
      : counted.map((t) => `DROP FUNCTION ${t}_apply_counts() CASCADE;`).join('\n');
  await db.exec(`${triggers}
DROP INDEX notifications_wide;
DROP INDEX inbox_unread;
DROP INDEX inbox_readers;
ALTER TABLE notifications DROP COLUMN notify_all;
ALTER TABLE notifications DROP COLUMN source;
ALTER TABLE inbox DROP COLUMN wide;
DROP TABLE notification_reads;
DROP TABLE notification_settings;
DROP TABLE inbox_counts;
DROP TABLE wide_counts;
DELETE FROM schema_migrations WHERE version = 12;`);
}

/** Before migration 13: organizations were only keys. */
export async function beforeOrganizations(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP TABLE organizations; DELETE FROM schema_migrations WHERE version = 13');
}

/** Before migrations 14 and 15: documents were only keys; folders, groups and erasures did not exist. */
export async function beforeDocuments(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec(`DROP TABLE documents; DROP TABLE folders; DROP TABLE user_groups; DROP TABLE group_members;
DROP TABLE erasure_jobs; DROP INDEX comments_by_author; DROP INDEX notifications_by_actor; DROP INDEX memberships_by_user;
DROP INDEX annotation_reads_by_user; DROP INDEX notification_reads_by_user; DROP INDEX notification_settings_by_user;
DELETE FROM schema_migrations WHERE version IN (14, 15);`);
}

/** Before migration 16: no tenant had a secret to sign end-user tokens with. */
export async function beforeSigningKeys(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP TABLE tenant_signing_keys; DELETE FROM schema_migrations WHERE version = 16');
}

/** Before migration 25: threads had no color column. */
export async function beforeThreadColors(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('ALTER TABLE annotations DROP COLUMN color; DELETE FROM schema_migrations WHERE version = 25');
}

/** Before migration 23: tenants had no allowed browser domains. */
export async function beforeAllowedDomains(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP TABLE allowed_domains; DELETE FROM schema_migrations WHERE version = 23');
}

/** Before migration 24: documents kept no live state. */
export async function beforeLiveStates(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP TABLE live_states; DELETE FROM schema_migrations WHERE version = 24');
}

/** Before migration 22: retention found old events through an index by age. */
export async function beforeHeadPruning(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await beforeAllowedDomains(db);
  await db.exec('CREATE INDEX events_by_age ON events (created_at); DELETE FROM schema_migrations WHERE version = 22');
}

/**
 * Before migration 21: a PostgreSQL numbering took the drafts of the writes it was given (migration
 * 19's sequence_events, taken from its own text); drafts had no xid, counters no drafts_from.
 */
export async function beforeDraftHorizon(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await beforeHeadPruning(db);
  if (db.kind === 'postgres') {
    const m19 = MIGRATIONS.find((m) => m.version === 19)!.postgres;
    await db.exec(`DROP FUNCTION sequence_events(text); DROP FUNCTION sequence_events(text, bigint[]);
ALTER TABLE event_drafts DROP CONSTRAINT event_drafts_pkey, ADD PRIMARY KEY (write_id, position);
ALTER TABLE event_drafts DROP COLUMN xid;
ALTER TABLE event_counters DROP COLUMN drafts_from;
${m19.slice(m19.indexOf('CREATE FUNCTION'))}`);
  }
  await db.exec('DELETE FROM schema_migrations WHERE version = 21');
}

/** Before migration 20: PostgreSQL compressed every large answer with its default, pglz. */
export async function beforeLz4(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await beforeDraftHorizon(db);
  if (db.kind === 'postgres') {
    await db.exec(`ALTER TABLE inbox ALTER COLUMN answer SET COMPRESSION default;
ALTER TABLE notifications ALTER COLUMN answer SET COMPRESSION default, ALTER COLUMN recipients SET COMPRESSION default;
ALTER TABLE events ALTER COLUMN body SET COMPRESSION default;
ALTER TABLE event_drafts ALTER COLUMN body_rest SET COMPRESSION default;`);
  }
  await db.exec('DELETE FROM schema_migrations WHERE version = 20');
}

/**
 * Before migration 19: PostgreSQL's numbering took every draft of the tenant (migration 18's
 * sequence_events, taken from its own text), and drafts were keyed by tenant first.
 */
export async function beforeNumberingByWrite(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await beforeLz4(db);
  if (db.kind === 'postgres') {
    const m18 = MIGRATIONS.find((m) => m.version === 18)!.postgres;
    await db.exec(`DROP FUNCTION sequence_events(text); DROP FUNCTION sequence_events(text, bigint[]);
ALTER TABLE event_drafts DROP CONSTRAINT event_drafts_pkey, ADD PRIMARY KEY (tenant_id, write_id, position);
${m18.slice(m18.indexOf('CREATE FUNCTION'))}`);
  }
  await db.exec('DELETE FROM schema_migrations WHERE version = 19');
}

/** Before migration 18: PostgreSQL writes numbered their events themselves; there were no drafts. */
export async function beforeEventDrafts(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await beforeNumberingByWrite(db);
  const drafts =
    db.kind === 'postgres'
      ? 'DROP FUNCTION sequence_events(text); DROP TABLE event_drafts; DROP SEQUENCE event_draft_writes;'
      : '';
  await db.exec(`${drafts} DELETE FROM schema_migrations WHERE version = 18`);
}

/** Before migration 27: no index of the organizations of each user, no triggers keeping it. */
export async function beforeUserOrganizations(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const triggers =
    db.kind === 'sqlite'
      ? [
          ...USER_COLUMNS.flatMap(([t]) => [
            `DROP TRIGGER ${t}_user_organization;`,
            `DROP TRIGGER ${t}_user_organization_update;`,
          ]),
          ...NAMING.flatMap((n) => [
            `DROP TRIGGER ${n.table}_insert_names_users;`,
            `DROP TRIGGER ${n.table}_update_names_users;`,
          ]),
        ]
      : [
          ...USER_COLUMNS.flatMap(([t]) => [
            `DROP FUNCTION ${t}_user_organizations() CASCADE;`,
            `DROP FUNCTION ${t}_user_organizations_update() CASCADE;`,
          ]),
          ...NAMING.flatMap((n) => [
            `DROP FUNCTION ${n.table}_insert_names_users() CASCADE;`,
            `DROP FUNCTION ${n.table}_update_names_users() CASCADE;`,
          ]),
        ];
  await db.exec(`${triggers.join('\n')}
DROP TABLE user_organizations; DELETE FROM schema_migrations WHERE version = 27;`);
}

/** Before migration 26: organizations and documents were deleted in one transaction, with no mark. */
export async function beforeDeletesInBatches(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec(`ALTER TABLE organizations DROP COLUMN deleting; ALTER TABLE documents DROP COLUMN deleting;
DELETE FROM schema_migrations WHERE version = 26;`);
}

/**
 * Before migration 28: notifications (SQLite) were a WITHOUT ROWID table, its rows in its interior
 * pages too. Migration 28's own steps, the other way: the same columns, indexes and triggers.
 */
export async function beforeNotificationsByRowid(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const step = MIGRATIONS.find((m) => m.version === 28)!.sqlite;
  const keyed = step.replaceAll('notifications_by_rowid', 'notifications_keyed').replace(') STRICT;', ') STRICT, WITHOUT ROWID;');
  await db.exec(`${db.kind === 'sqlite' ? keyed : ''}\nDELETE FROM schema_migrations WHERE version = 28;`);
}

/** Before migration 30: threads and comments had none of /v2's members, and no index by lastUpdated. */
export async function beforeThreadV2Members(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  const threads = [
    'kind',
    'suggestion',
    'comment_type',
    'visibility',
    'resolved_by',
    'status_updated_by',
    'agent_id',
    'agent_source',
    'execution_id',
    'agent_type',
    'agent_url',
  ];
  await db.exec(`DROP INDEX annotations_by_update; DROP INDEX annotations_by_document_update;
${threads.map((c) => `ALTER TABLE annotations DROP COLUMN ${c};`).join('\n')}
${['context', 'attachments', 'agent'].map((c) => `ALTER TABLE comments DROP COLUMN ${c};`).join('\n')}
DELETE FROM schema_migrations WHERE version = 30;`);
}

/** Before migration 29: folders did not inherit their parent's access. */
export async function beforeFolderInheritance(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('ALTER TABLE folders DROP COLUMN inherit_access; DELETE FROM schema_migrations WHERE version = 29;');
}

/** Before migration 31: notifications had no context and no resolver flag. */
export async function beforeNotificationV2Members(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec(`ALTER TABLE notifications DROP COLUMN context; ALTER TABLE notifications DROP COLUMN resolver_used;
DELETE FROM schema_migrations WHERE version = 31;`);
}

/** Before migration 32: no activity logs, no activity settings. */
export async function beforeActivities(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec(`DROP TABLE activities; DROP TABLE activity_settings; DROP TABLE activity_muted;
DELETE FROM schema_migrations WHERE version = 32;`);
}

/** Before migration 34: no workspace credentials, and API keys had no settings. */
export async function beforeWorkspaceKeys(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec(
    'DROP TABLE workspace_credentials; DROP TABLE api_key_settings; DELETE FROM schema_migrations WHERE version = 34;',
  );
}

/** The schema through migration 31 (the release before issue 37's features), with the rows written since. */
export async function asOfMigration31(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await beforeAttachments(db);
  await beforeCommentReactions(db);
  await beforeSearchIndex(db);
  await beforeNotificationArchives(db);
  await beforeAccessRoles(db);
  await beforeWebhookKinds(db);
  await beforeBoundedWork(db);
  await beforeServiceSettingsAndPresence(db);
  await beforeApprovalWorkflows(db);
  await beforeAdvancedWebhooks(db);
  await beforeWorkspaceKeys(db);
  await beforeDocumentMigrations(db);
  await beforeActivities(db);
}

/** Before migration 36: no approval workflows. */
export async function beforeApprovalWorkflows(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec(`DROP TABLE workflow_events; DROP TABLE workflow_steps; DROP TABLE workflow_executions;
DROP TABLE workflow_definition_versions; DROP TABLE workflow_definitions; DELETE FROM schema_migrations WHERE version = 36;`);
}

/**
 * Before migration 38: recover's failed deliveries indexed by time, and no partial indexes for workflow retention and
 * the count of open migrations.
 */
export async function beforeBoundedWork(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec(`DROP INDEX webhook_deliveries_failed_in_order;
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (tenant_id, webhook_id, created_at) WHERE status = 'failed';
DROP INDEX workflow_executions_finished; DROP INDEX document_migrations_open_of_tenant;
DELETE FROM schema_migrations WHERE version = 38;`);
}

/** Before migration 37: no workspace service settings, no presence. */
export async function beforeServiceSettingsAndPresence(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP TABLE service_settings; DROP TABLE presence; DELETE FROM schema_migrations WHERE version = 37;');
}

/** Before migration 39: webhooks not told apart by kind, uids not unique. */
export async function beforeWebhookKinds(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec(
    'DROP INDEX webhooks_by_uid; ALTER TABLE webhooks DROP COLUMN advanced; DELETE FROM schema_migrations WHERE version = 39;',
  );
}

/** Before migration 40: no roles. */
export async function beforeAccessRoles(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP TABLE access_roles; DELETE FROM schema_migrations WHERE version = 40;');
}

/** Before migration 41: no archive (its triggers, table and counter columns). */
export async function beforeNotificationArchives(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const sets = ['inbox_archive', 'notification_archives', 'notification_reads_archive'];
  const triggers =
    db.kind === 'sqlite'
      ? [
          ...sets.flatMap((t) => ['insert', 'update', 'delete'].map((e) => `DROP TRIGGER ${t}_${e}_counts;`)),
          'DROP TRIGGER notifications_delete_archives;',
        ].join('\n')
      : [
          ...sets.map((t) => `DROP FUNCTION ${t}_apply_counts() CASCADE;`),
          'DROP FUNCTION notifications_delete_archives() CASCADE;',
        ].join('\n');
  const counters = ['archived', 'archived_unread', 'wide_archived', 'wide_archived_read'];
  await db.exec(`${triggers}
DROP TABLE notification_archives;
ALTER TABLE inbox DROP COLUMN archived;
${counters.map((c) => `ALTER TABLE inbox_counts DROP COLUMN ${c};`).join('\n')}
DELETE FROM schema_migrations WHERE version = 41;`);
}

/** The schema the release before this one left (through migration 28), with the rows written since. */
export async function asOfMigration28(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration31(db);
  await beforeNotificationV2Members(db);
  await beforeThreadV2Members(db);
  await beforeFolderInheritance(db);
}

/** The schema an earlier release left (through migration 27), with the rows written since. */
export async function asOfMigration27(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration28(db);
  await beforeNotificationsByRowid(db);
}

/** The schema an earlier release left (through migration 25), with the rows written since. */
export async function asOfMigration25(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration27(db);
  await beforeUserOrganizations(db);
  await beforeDeletesInBatches(db);
}

/** The schema an earlier release left (through migration 13), with the rows written since. */
export async function previousRelease(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration25(db);
  // Migration 9 makes the annotations table again (SQLite) with the columns of its release: the
  // color column of migration 25 comes back with 25, run again after it.
  await beforeThreadColors(db);
  await beforeSigningKeys(db);
  await beforeDocuments(db);
}

/** The schema of the release before organizations were objects (through migration 12), with the rows written since. */
export async function asOfMigration12(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await previousRelease(db);
  await beforeOrganizations(db);
}

/** The schema of the release before the inbox's whole life (through migration 11), with the rows written since. */
export async function asOfMigration11(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration12(db);
  await beforeInboxLife(db);
}

/** The schema of the release before thread pages were held (through migration 9), with the rows written since. */
export async function asOfMigration9(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration11(db);
  await beforeDocumentVersions(db);
  await beforeCountIndex(db);
}

/** The schema of the release before threads kept their answers (through migration 8), with the rows written since. */
export async function asOfMigration8(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration9(db);
  await beforeStoredThreads(db);
}

/** The schema of the release before thread life (through migration 7), with the rows written since. */
export async function asOfMigration7(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration8(db);
  await beforeThreadLife(db);
}

/** The schema of the release before the fast path (through migration 5), with the rows written since. */
export async function asOfMigration5(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await asOfMigration7(db);
  await beforeProfileVersions(db);
  await beforeInboxAnswers(db);
}

/** Before migration 33: documents did not migrate (no jobs). */
export async function beforeDocumentMigrations(db: Pick<FreshDatabase, 'exec'>): Promise<void> {
  await db.exec('DROP TABLE document_migrations; DELETE FROM schema_migrations WHERE version = 33;');
}

/** Before migration 35: webhooks had no endpoint members; no worker state, no webhook settings, no index of failed deliveries. */
export async function beforeAdvancedWebhooks(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const columns = [
    'filter_types',
    'channels',
    'disabled',
    'rate_limit',
    'metadata',
    'uid',
    'updated_at',
    'previous_secret',
    'previous_secret_until',
  ];
  await db.exec(
    db.kind === 'sqlite'
      ? columns.map((c) => `ALTER TABLE webhooks DROP COLUMN ${c};`).join('\n')
      : `ALTER TABLE webhooks ${columns.map((c) => `DROP COLUMN ${c}`).join(', ')};`,
  );
  // Migration 38 replaced the index (beforeBoundedWork puts it back): undone alone, there may be none to drop.
  await db.exec(`DROP TABLE webhook_states; DROP TABLE webhook_settings; DROP INDEX IF EXISTS webhook_deliveries_failed;
DELETE FROM schema_migrations WHERE version = 35`);
}

/** Before migration 45: comments had no reactions (nor the triggers that keep them with their comments). */
export async function beforeCommentReactions(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const triggers =
    db.kind === 'sqlite'
      ? 'DROP TRIGGER comments_delete_reactions; DROP TRIGGER comments_move_reactions;'
      : 'DROP FUNCTION comments_delete_reactions() CASCADE; DROP FUNCTION comments_move_reactions() CASCADE;';
  await db.exec(`${triggers} DROP TABLE comment_reactions; DELETE FROM schema_migrations WHERE version = 45;`);
}

/** Before migration 46: no attachments (their tables and the triggers on comments and documents). */
export async function beforeAttachments(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const triggers =
    db.kind === 'sqlite'
      ? ['comments_insert_links_attachments', 'comments_update_links_attachments', 'comments_move_attachments']
          .concat(['comments_delete_attachments', 'documents_delete_attachments'])
          .map((t) => `DROP TRIGGER ${t};`)
          .join('\n')
      : ['attachments_queue_files', 'comments_link_attachments', 'comments_move_attachments']
          .concat(['comments_delete_attachments', 'documents_delete_attachments'])
          .map((f) => `DROP FUNCTION ${f}() CASCADE;`)
          .join('\n');
  await db.exec(`${triggers}
DROP TABLE attachments;
DROP TABLE attachment_removals;
DELETE FROM schema_migrations WHERE version = 46;`);
}

/** PostgreSQL: a table's search_words made again over `text`, unscoped (migrations 44 and 47). */
const unscopedWords = (table: string, text: string) => `DROP INDEX ${table}_search;
ALTER TABLE ${table} DROP COLUMN search_words;
ALTER TABLE ${table} ADD COLUMN search_words tsvector GENERATED ALWAYS AS (search_words(${text})) STORED;
CREATE INDEX ${table}_search ON ${table} USING GIN (search_words);`;

/** Before migration 48: every word indexed once for all tenants, SQLite's FTS tables contentless. */
export async function beforeScopedTerms(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  const back =
    db.kind === 'sqlite'
      ? sqliteSearchRemade([SEARCHED_COMMENTS, SEARCHED_NOTIFICATIONS])
      : `${SEARCH_WORDS_FUNCTION}
${unscopedWords('comments', 'comment_text')}
${unscopedWords('notifications', String.raw`headline_text || E'\n' || body_message`)}
DROP FUNCTION scoped_search_query(text, tsquery);
DROP FUNCTION scoped_search_words(text, text);
DROP FUNCTION search_scope(text, text);`;
  await db.exec(`${back}\nDELETE FROM schema_migrations WHERE version = 48;`);
}

/** Before migration 47: notifications indexed by their body alone, no headline_text; FTS rows left by rowid. */
export async function beforeNotificationHeadlines(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await beforeScopedTerms(db);
  const back =
    db.kind === 'sqlite'
      ? // 44's triggers first: 47's read headline_text, which then goes.
        `${sqliteSearchRemade([COMMENT_SEARCH, NOTIFICATION_SEARCH])}
ALTER TABLE notifications DROP COLUMN headline_text;`
      : `DROP INDEX notifications_search;
ALTER TABLE notifications DROP COLUMN search_words;
ALTER TABLE notifications DROP COLUMN headline_text;
ALTER TABLE notifications ADD COLUMN search_words tsvector GENERATED ALWAYS AS (search_words(body_message)) STORED;
CREATE INDEX notifications_search ON notifications USING GIN (search_words);`;
  await db.exec(`${back}\nDELETE FROM schema_migrations WHERE version = 47;`);
}

/** Before migration 44 (and 47): no search index (SQLite's FTS tables, keys tables and triggers; PostgreSQL's columns). */
export async function beforeSearchIndex(db: Pick<FreshDatabase, 'kind' | 'exec'>): Promise<void> {
  await beforeNotificationHeadlines(db);
  const drop =
    db.kind === 'sqlite'
      ? ['comments', 'notifications']
          .map(dropSearchTriggers)
          .concat(['comment', 'notification'].map((k) => `DROP TABLE ${k}_search; DROP TABLE ${k}_search_keys;`))
          .concat(['DROP TRIGGER organizations_search_scope_delete;', 'DROP TABLE search_scopes;'])
          .join('\n')
      : `ALTER TABLE comments DROP COLUMN search_words; ALTER TABLE notifications DROP COLUMN search_words;
DROP FUNCTION search_words(text);`;
  await db.exec(`${drop}\nDELETE FROM schema_migrations WHERE version = 44;`);
}
