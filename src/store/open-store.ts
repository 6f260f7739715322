// Picks the store that DATABASE_URL names, and brings its schema up to date.
import type { Config } from '../config/index.js';
import type { FaultListener } from './health.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export type StoreConfig = Pick<
  Config,
  | 'database'
  | 'sqliteBusyTimeoutMs'
  | 'sqliteSynchronous'
  | 'sqliteCheckAtStart'
  | 'pgSchema'
  | 'pgPoolSize'
  | 'pgConnectTimeoutMs'
  | 'pgStatementTimeoutMs'
>;

/** What the store tells the process about its database as it runs (the server logs it). */
export interface StoreListeners {
  /** A connection was lost (PostgreSQL); it is replaced by a new one. */
  onConnectionLost?: (err: Error) => void;
  /** A lasting fault began or ended: storage full, read-only, damaged. */
  onFault?: FaultListener;
}

export async function openStore(config: StoreConfig, listeners: StoreListeners = {}): Promise<Store> {
  const db = config.database;
  const store: Store =
    db.kind === 'postgres'
      ? new PostgresStore({
          url: db.url,
          schema: config.pgSchema,
          poolSize: config.pgPoolSize,
          connectTimeoutMs: config.pgConnectTimeoutMs,
          statementTimeoutMs: config.pgStatementTimeoutMs,
          ...listeners,
        })
      : new SqliteStore({
          path: db.path,
          busyTimeoutMs: config.sqliteBusyTimeoutMs,
          synchronous: config.sqliteSynchronous,
          checkAtStart: config.sqliteCheckAtStart,
          onFault: listeners.onFault,
        });
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}
