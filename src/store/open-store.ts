// Picks the database that DATABASE_URL names, and brings its schema up to date.
import type { Config } from '../config/index.js';
import { DbStore } from './db-store.js';
import { byDatabase } from './dialect/databases.js';
import type { Dialect } from './dialect/dialect.js';
import { PostgresDialect } from './dialect/postgres.js';
import { SqliteDialect } from './dialect/sqlite.js';
import type { FaultListener } from './health.js';
import type { Store } from './store.js';

export type StoreConfig = Pick<
  Config,
  | 'database'
  | 'sqliteBusyTimeoutMs'
  | 'sqliteSynchronous'
  | 'sqliteSecureDelete'
  | 'sqliteCheckAtStart'
  | 'sqlitePageSize'
  | 'sqliteCacheMb'
  | 'sqliteMmapMb'
  | 'pgSchema'
  | 'pgPoolSize'
  | 'pgEventPoolSize'
  | 'pgConnectTimeoutMs'
  | 'pgStatementTimeoutMs'
  | 'eventNumberingMs'
  | 'writeBudgetMs'
  | 'erasureBatchSize'
>;

/** What the store tells the process about its database as it runs (the server logs it). */
export interface StoreListeners {
  /** A connection was lost (PostgreSQL); it is replaced by a new one. */
  onConnectionLost?: (err: Error) => void;
  /** A lasting fault began or ended: storage full, read-only, damaged. */
  onFault?: FaultListener;
  /** Every statement SQLite runs (tests and debugging). */
  trace?: (sql: string) => void;
}

export async function openStore(config: StoreConfig, listeners: StoreListeners = {}): Promise<Store> {
  const dialect = dialectFor(config, listeners);
  const store = new DbStore(dialect, listeners.onFault, {
    numberingIntervalMs: config.eventNumberingMs,
    writeBudgetMs: config.writeBudgetMs,
    mostRowsPerBatch: config.erasureBatchSize,
  });
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}

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
        pageSize: config.sqlitePageSize,
        cacheMb: config.sqliteCacheMb,
        mmapMb: config.sqliteMmapMb,
        trace: listeners.trace,
      }),
  });
}
