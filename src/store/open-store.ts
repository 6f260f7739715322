// Picks the store that DATABASE_URL names, and brings its schema up to date.
import type { Config } from '../config.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export type StoreConfig = Pick<
  Config, 'database' | 'sqliteBusyTimeoutMs' | 'sqliteSynchronous' | 'pgSchema' | 'pgPoolSize' | 'pgConnectTimeoutMs' | 'pgStatementTimeoutMs'
>;

export async function openStore(config: StoreConfig, onConnectionLost?: (err: Error) => void): Promise<Store> {
  const db = config.database;
  const store: Store = db.kind === 'postgres'
    ? new PostgresStore({
      url: db.url, schema: config.pgSchema, poolSize: config.pgPoolSize, connectTimeoutMs: config.pgConnectTimeoutMs,
      statementTimeoutMs: config.pgStatementTimeoutMs, onConnectionLost,
    })
    : new SqliteStore({ path: db.path, busyTimeoutMs: config.sqliteBusyTimeoutMs, synchronous: config.sqliteSynchronous });
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}
