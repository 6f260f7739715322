// Picks the store that DATABASE_URL names.
import type { Config } from '../config.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export async function openStore(config: Pick<Config, 'database' | 'sqliteBusyTimeoutMs' | 'sqliteSynchronous'>): Promise<Store> {
  const db = config.database;
  if (db.kind === 'postgres') {
    throw new Error('DATABASE_URL names PostgreSQL, which this version cannot serve yet; use sqlite:<path>.');
  }
  const store = new SqliteStore({ path: db.path, busyTimeoutMs: config.sqliteBusyTimeoutMs, synchronous: config.sqliteSynchronous });
  await store.migrate();
  return store;
}
