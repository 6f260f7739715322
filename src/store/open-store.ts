// Picks the database that DATABASE_URL names, and brings its schema up to date.
import { dbStore } from './db-store.js';
import { byDatabase } from './dialect/databases.js';
import type { Dialect } from './dialect/dialect.js';
import { connectionFailed, PostgresDialect } from './dialect/postgres.js';
import { type SqliteCheck, SqliteDialect, type SqliteSecureDelete, type SqliteSynchronous } from './dialect/sqlite.js';
import { type FaultListener, StoreUnavailableError } from './health.js';
import type { MigrationOutcome } from './migrations/index.js';
import type { Store } from './store.js';

/** Which database, and where: a file (path ':memory:' is a throwaway database) or a PostgreSQL URL. */
export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** The settings the store takes (docs/configuration.md names each one's variable and default). */
export interface StoreConfig {
  database: DatabaseTarget;
  sqliteBusyTimeoutMs: number;
  sqliteSynchronous: SqliteSynchronous;
  sqliteSecureDelete: SqliteSecureDelete;
  sqliteCheckAtStart: SqliteCheck;
  sqliteCheckInlineMb: number;
  sqliteReadyAfterCheck: boolean;
  sqliteCheckpointMs: number;
  sqliteWalMaxMb: number;
  sqlitePageSize: number;
  sqliteCacheMb: number;
  sqliteMmapMb: number;
  pgSchema: string;
  pgPoolSize: number;
  pgEventPoolSize: number;
  pgConnectTimeoutMs: number;
  pgStatementTimeoutMs: number;
  eventNumberingMs: number;
  writeBudgetMs: number;
  erasureBatchSize: number;
  inboxAnswerCopies: number;
  /** Whether a tenant that never set its activity settings keeps activities (MARGINALIA_ACTIVITIES_ENABLED). */
  activitiesEnabled?: boolean;
  /** Email is on (MARGINALIA_SMTP_URL): notifications draft rows in the email outbox (store/email/). */
  smtpUrl?: string | null;
  /** The digest window (MARGINALIA_EMAIL_DIGEST_SECONDS) and whether mentions go at once (MARGINALIA_EMAIL_MENTIONS_AT_ONCE). */
  emailDigestSeconds?: number;
  emailMentionsAtOnce?: boolean;
}

/** What the store tells the process about its database as it runs (the server logs it). */
export interface StoreListeners {
  /** A connection was lost (PostgreSQL); it is replaced by a new one. */
  onConnectionLost?: (err: Error) => void;
  /** A lasting fault began or ended: storage full, read-only, damaged. */
  onFault?: FaultListener;
  /** The schema was brought up to date as the store opened: its level before, and the steps applied. */
  onMigrated?: (outcome: MigrationOutcome) => void;
  /** Every statement SQLite runs (tests and debugging). */
  trace?: (sql: string) => void;
}

export async function openStore(config: StoreConfig, listeners: StoreListeners = {}): Promise<Store> {
  const dialect = dialectFor(config, listeners);
  const store = dbStore(dialect, listeners.onFault, {
    numberingIntervalMs: config.eventNumberingMs,
    writeBudgetMs: config.writeBudgetMs,
    mostRowsPerBatch: config.erasureBatchSize,
    readyAfterCheck: config.sqliteReadyAfterCheck,
    inboxAnswerCopies: config.inboxAnswerCopies,
    activitiesByDefault: config.activitiesEnabled ?? false,
    emailDrafting: config.smtpUrl
      ? { digestMs: (config.emailDigestSeconds ?? 300) * 1000, mentionsAtOnce: config.emailMentionsAtOnce ?? true }
      : null,
  });
  try {
    const outcome = await store.migrate();
    if (outcome) listeners.onMigrated?.(outcome);
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}

/**
 * openStore, trying again every second while PostgreSQL cannot be reached, for at most `waitSeconds`
 * (MARGINALIA_DATABASE_WAIT_SECONDS): a server started beside its database, or just after another process
 * of it was killed, waits for it rather than exiting. Any other failure (a statement that timed out, a bad
 * schema, a SQLite file that cannot be opened or read, writes refused) ends the start at once: waiting
 * would not change it. `waiting` hears each failed attempt that is followed by another.
 */
export async function openStoreWhenReachable(
  config: StoreConfig,
  waitSeconds: number,
  listeners: StoreListeners = {},
  waiting?: (err: StoreUnavailableError, attempt: number) => void,
): Promise<Store> {
  const deadline = performance.now() + waitSeconds * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await openStore(config, listeners);
    } catch (err) {
      // connectionFailed knows PostgreSQL's connection failures only: a SQLite error is never one.
      const unreachable = err instanceof StoreUnavailableError && connectionFailed(err.cause);
      const left = deadline - performance.now();
      if (!unreachable || left <= 0) throw err;
      waiting?.(err, attempt);
      // The last attempt is made at the deadline.
      await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_EVERY_MS, left)));
    }
  }
}

const RETRY_EVERY_MS = 1000;

/** The database's dialect for a configuration, not yet opened (openStore's; tests drive one directly). */
export function dialectFor(config: StoreConfig, listeners: StoreListeners = {}): Dialect {
  return byDatabase(config.database, {
    postgres: (db): Dialect =>
      new PostgresDialect({
        url: db.url,
        schema: config.pgSchema,
        poolSize: config.pgPoolSize,
        eventPoolSize: config.pgEventPoolSize,
        connectTimeoutMs: config.pgConnectTimeoutMs,
        statementTimeoutMs: config.pgStatementTimeoutMs,
        onConnectionLost: listeners.onConnectionLost,
      }),
    sqlite: (db): Dialect =>
      new SqliteDialect({
        path: db.path,
        busyTimeoutMs: config.sqliteBusyTimeoutMs,
        synchronous: config.sqliteSynchronous,
        secureDelete: config.sqliteSecureDelete,
        checkAtStart: config.sqliteCheckAtStart,
        checkInlineMb: config.sqliteCheckInlineMb,
        checkpointEveryMs: config.sqliteCheckpointMs,
        walMaxMb: config.sqliteWalMaxMb,
        pageSize: config.sqlitePageSize,
        cacheMb: config.sqliteCacheMb,
        mmapMb: config.sqliteMmapMb,
        trace: listeners.trace,
      }),
  });
}
