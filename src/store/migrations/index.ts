// Every forward-only schema step, in order (one file each, numbered by its version, with its SQLite
// and its PostgreSQL text side by side), and the one runner that applies them (under the dialect's
// migration lock). A released step never changes; a new need is a new file and a new entry at the end
// of MIGRATIONS. Every table is keyed tenant first, and every read path has an index that starts the
// same way. Ids are compared code unit by code unit (COLLATE "C" on PostgreSQL, SQLite's default
// BINARY), as docs/api.md "Paging" orders them. JSON members are kept as text, not jsonb: jsonb would reorder keys,
// and callers get back what they sent.
import type { DatabaseKind, Dialect } from '../dialect/dialect.js';
import { all, exec, run, same, type Work } from '../sql.js';
import { initialSchema } from './01-initial-schema.js';
import { recipientsOnTheNotification } from './02-recipients-on-the-notification.js';
import { credentialsVersion } from './03-credentials-version.js';
import { readinessProbe } from './04-readiness-probe.js';
import { answersRenderedAtWriteTime } from './05-answers-rendered-at-write-time.js';
import { inboxRangeScan } from './06-inbox-range-scan.js';
import { profileVersions } from './07-profile-versions.js';
import { threadLife } from './08-thread-life.js';
import { storedThreadAnswers } from './09-stored-thread-answers.js';
import { countIndex } from './10-count-index.js';
import { documentThreadVersions } from './11-document-thread-versions.js';
import { notificationReadStateAndCounts } from './12-notification-read-state-and-counts.js';
import { organizations } from './13-organizations.js';
import { documentsFoldersGroupsErasures } from './14-documents-folders-groups-erasures.js';
import { rowsOfAUserByUser } from './15-rows-of-a-user-by-user.js';
import { endUserSigningKeys } from './16-end-user-signing-keys.js';
import { eventOutboxAndWebhooks } from './17-event-outbox-and-webhooks.js';
import { eventDrafts } from './18-event-drafts.js';
import { numberingMovesDrafts } from './19-numbering-moves-drafts.js';
import { lz4Answers } from './20-lz4-answers.js';
import { numberingInCommitOrder } from './21-numbering-in-commit-order.js';
import { eventsPrunedByOldestId } from './22-events-pruned-by-oldest-id.js';
import { allowedDomains } from './23-allowed-domains.js';
import { liveStates } from './24-live-states.js';
import { threadColors } from './25-thread-colors.js';
import { batchedDeletes } from './26-batched-deletes.js';
import { userOrganizations } from './27-user-organizations.js';
import { notificationsByRowid } from './28-notifications-by-rowid.js';
import { folderInheritance } from './29-folder-inheritance.js';
import { threadV2Members } from './30-thread-v2-members.js';
import { notificationV2Members } from './31-notification-v2-members.js';
import { activities } from './32-activities.js';
import { documentMigrations } from './33-document-migrations.js';
import { workspaceKeys } from './34-workspace-keys.js';
import { advancedWebhooks } from './35-advanced-webhooks.js';
import { approvalWorkflows } from './36-approval-workflows.js';
import { webhookKinds } from './39-webhook-kinds.js';
import { accessRoles } from './40-access-roles.js';
import { retentionPolicies } from './42-retention-policies.js';
import { emailOutbox } from './43-email-outbox.js';
import { searchIndex } from './44-search-index.js';
import { commentReactions } from './45-comment-reactions.js';
import { attachments } from './46-attachments.js';
import { notificationHeadlinesSearched } from './47-notification-headlines-searched.js';
import { searchTermsScoped } from './48-search-terms-scoped.js';
import { serviceSettingsAndPresence } from './37-service-settings-and-presence.js';
import { boundedWork } from './38-bounded-work.js';
import { notificationArchives } from './41-notification-archives.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';
export { NAMING, USER_COLUMNS } from './27-user-organizations.js';

/** Every step, in the order applied: a step's version is its place here, and its file's number. */
export const MIGRATIONS: readonly Migration[] = [
  initialSchema,
  recipientsOnTheNotification,
  credentialsVersion,
  readinessProbe,
  answersRenderedAtWriteTime,
  inboxRangeScan,
  profileVersions,
  threadLife,
  storedThreadAnswers,
  countIndex,
  documentThreadVersions,
  notificationReadStateAndCounts,
  organizations,
  documentsFoldersGroupsErasures,
  rowsOfAUserByUser,
  endUserSigningKeys,
  eventOutboxAndWebhooks,
  eventDrafts,
  numberingMovesDrafts,
  lz4Answers,
  numberingInCommitOrder,
  eventsPrunedByOldestId,
  allowedDomains,
  liveStates,
  threadColors,
  batchedDeletes,
  userOrganizations,
  notificationsByRowid,
  folderInheritance,
  threadV2Members,
  notificationV2Members,
  activities,
  documentMigrations,
  workspaceKeys,
  advancedWebhooks,
  approvalWorkflows,
  serviceSettingsAndPresence,
  boundedWork,
  webhookKinds,
  accessRoles,
  notificationArchives,
  retentionPolicies,
  emailOutbox,
  searchIndex,
  commentReactions,
  attachments,
  notificationHeadlinesSearched,
  searchTermsScoped,
];

const APPLIED = same('appliedMigrations', 'SELECT version FROM schema_migrations');
const RECORD = same('recordMigration', 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (@version, @name, @at)');

/** What a migration run found and did: the database's level before it, and the steps it applied. */
export interface MigrationOutcome {
  /** The highest step applied before this run (0: a new database). */
  before: number;
  applied: number[];
}

/** The level a build brings a database to: its last step. */
export const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * A database that a newer build migrated further than this build knows: served by this build, it would
 * meet tables and columns it does not write (docs/deployment.md, "Upgrading": go forward, or restore the
 * backup taken before the upgrade).
 */
export class NewerSchemaError extends Error {
  constructor(readonly level: number) {
    super(
      `The database is at migration ${level}, newer than this build knows (${LATEST_MIGRATION}): ` +
        'run the release that migrated it, or restore a backup taken before.',
    );
  }
}

/** The one migration runner: the steps not yet applied, in order, each recorded as it is applied. */
function* pendingSteps(kind: DatabaseKind, now: number): Work<MigrationOutcome> {
  const applied = new Set((yield* all(APPLIED)).map((r) => Number(r.version)));
  const before = Math.max(0, ...applied);
  if (before > LATEST_MIGRATION) throw new NewerSchemaError(before);
  const done: number[] = [];
  for (const step of MIGRATIONS) {
    if (applied.has(step.version)) continue;
    yield* exec(step[kind]);
    if (step.backfill) yield* step.backfill();
    yield* run(RECORD, { version: step.version, name: step.name, at: now });
    done.push(step.version);
  }
  return { before, applied: done };
}

/** Brings the schema up to date, in one transaction; safe to run from several processes at once. */
export function migrate(dialect: Dialect): Promise<MigrationOutcome> {
  return dialect.migrate(() => pendingSteps(dialect.kind, Date.now()));
}

/** One line for people (the migrate command prints it, the server logs it): `applied 39-40: ...`. */
export function describeMigration({ before, applied }: MigrationOutcome): string {
  if (applied.length === 0) return `database at migration ${before}, nothing to do`;
  const steps = applied.length === 1 ? `${applied[0]}` : `${applied[0]}-${applied[applied.length - 1]}`;
  const after = Math.max(before, ...applied);
  return `applied ${steps}: database at migration ${after} (${before === 0 ? 'new database' : `was ${before}`})`;
}
