// The storage seam. Services see only this type; db-store.ts makes it once, over the SQLite or the
// PostgreSQL dialect, from the feature parts. Every data method takes the tenant's internal id first,
// so no query can forget it. Each method is atomic on its own: a batch is one transaction inside the
// store. Data methods answer with a Maybe (maybe.ts): at once on SQLite, with a promise on PostgreSQL;
// `await` takes either.
import type { CallListener, CheckpointStats, TransactionListener } from './dialect/dialect.js';
import type { CheckState, LastingFault } from './health.js';

/** A tenant's new last event id; a null tenant: notices may have been missed (any tenant may have new events). */
export type EventListener = (tenantId: string | null, lastId: number) => void;
export type { EventDraft, StoredEvent } from './events/outbox.js';
import type { CredentialsStore } from './credentials/index.js';
import type { SigningKeysStore } from './signing-keys/index.js';
import type { EventsStore } from './events/index.js';
import type { UsersStore } from './users/index.js';
import type { GroupsStore } from './groups/index.js';
import type { OrganizationsStore } from './organizations/index.js';
import type { DocumentsStore } from './documents/index.js';
import type { FoldersStore } from './folders/index.js';
import type { CommentsStore } from './comments/index.js';
import type { LocationsStore } from './locations/index.js';
import type { NotificationsStore } from './notifications/index.js';
import type { PersonalDataStore } from './personal-data/index.js';
import type { DomainsStore } from './domains/index.js';
import type { LiveStatesStore } from './livestate/index.js';
import type { WebhooksStore } from './webhooks/index.js';
import type { EmailStore } from './email/index.js';
import type { ActivitiesStore } from './activities/index.js';
import type { DocumentMigrationsStore } from './document-migrations/index.js';
import type { WorkspaceStore } from './workspace/index.js';
import type { WorkflowsStore } from './workflows/index.js';
import type { ServiceSettingsStore } from './service-settings/index.js';
import type { PresenceStore } from './presence/index.js';
import type { AccessRolesStore } from './access-roles/index.js';
import type { RetentionStore } from './retention/index.js';
import type { ReactionsStore } from './reactions/index.js';
import type { AttachmentsStore } from './attachments/index.js';
import type { SearchStore } from './search/index.js';
import type { MigrationOutcome } from './migrations/index.js';

/** The store's own life: its schema, health, pool and observers, and the events it hears of. */
export interface StoreLife {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Brings the schema up to date; safe to call from several processes at once. Says what it found and
   * applied; null when the file was found damaged and left as it is.
   */
  migrate(): Promise<MigrationOutcome | null>;
  /** Resolves when the database answers; rejects with StoreUnavailableError when it does not. */
  ping(): Promise<void>;
  /** The fault that outlasts single requests, if any: writes refused by the storage, or a damaged database. */
  fault(): LastingFault | null;
  /** Connection pool occupancy, where there is a pool (PostgreSQL). */
  poolStats?(): { total: number; idle: number; waiting: number } | undefined;
  /** At rest: lets go of what the database keeps in memory for speed alone (SQLite's page cache). */
  releaseMemory?(): void;
  /**
   * A request has come in (app.ts, its first hook): what it reads includes every write committed before
   * it was sent, by any process, such as a key the CLI has just made.
   */
  requestArrived?(): void;
  /** The check of the file for damage at start (SQLite): not made, running, or its outcome (/readyz says which). */
  check(): CheckState;
  /** What the checkpoint thread has done (SQLite, once it runs): /metrics counts the WAL pages written from it. */
  checkpointStats?(): CheckpointStats | undefined;
  /** Where the time of every store call goes (the app's metrics). */
  observeCalls?(listener: CallListener | null): void;
  /** Where the time of every write transaction goes (metrics.ts: marginalia_write_transaction_seconds). */
  observeTransactions?(listener: TransactionListener | null): void;
  close(): Promise<void>;
  /**
   * Called after each write that recorded events has committed, with the tenant and its last event id:
   * this process's writes, and on PostgreSQL every instance's (LISTEN/NOTIFY).
   */
  onEvents?(listener: EventListener | null): void;
  /**
   * Answers once the events of every write this process has answered for the tenant are numbered
   * (PostgreSQL numbers them just after the write's commit, migration 21; SQLite as it writes them).
   * Rejects if that numbering failed: the drafts then wait for the tenant's next one, or the sweep.
   */
  eventsNumbered(tenantId: string): Promise<void>;
  /**
   * Numbers events their writers left as drafts before `before` (PostgreSQL, migration 18: a process
   * that stopped between a write's commit and its numbering, or numberings that failed); answers how
   * many tenants had some, or rejects if a numbering failed (the sweep logs it and tries again).
   */
  numberLeftDrafts(before: number): Promise<number>;
}

/**
 * The whole store: its life, and each feature's part (`<feature>/index.ts`), which owns its methods
 * and their implementation; db-store.ts puts them together.
 */
export type Store = StoreLife &
  CredentialsStore &
  SigningKeysStore &
  EventsStore &
  UsersStore &
  GroupsStore &
  OrganizationsStore &
  DocumentsStore &
  FoldersStore &
  CommentsStore &
  LocationsStore &
  NotificationsStore &
  PersonalDataStore &
  DomainsStore &
  LiveStatesStore &
  WebhooksStore &
  EmailStore &
  ActivitiesStore &
  DocumentMigrationsStore &
  WorkspaceStore &
  WorkflowsStore &
  ServiceSettingsStore &
  PresenceStore &
  AccessRolesStore &
  RetentionStore &
  ReactionsStore &
  AttachmentsStore &
  SearchStore;

export type { LocationDataDeleted, LocationMoved } from './locations/locations.js';
export type * from './webhooks/types.js';
export type { DomainsAdded } from './domains/domains.js';
export type { MigrationRun, MigrationStart } from './document-migrations/index.js';
export type { ExecutionFilter, StoredDefinition, StoredExecution } from './workflows/workflows.js';

export { StoreUnavailableError, type CheckState, type LastingFault, type UnavailableReason } from './health.js';
export type { CheckpointStats } from './dialect/dialect.js';
