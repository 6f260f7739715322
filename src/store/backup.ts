// `marginalia backup` and `restore` (docs/operations.md, "Backup and restore"): the database that
// DATABASE_URL names, copied whole or replaced whole. Neither migrates it: a backup taken by a new
// release before its first start is of the database as the old release left it.
import { type BackupDone, BackupError, type RestoreDone } from './dialect/backup.js';
import { byDatabase } from './dialect/databases.js';
import { backupPostgres, restorePostgres } from './dialect/postgres-backup.js';
import { backupSqlite, restoreSqlite } from './dialect/sqlite-backup.js';
import { LATEST_MIGRATION } from './migrations/index.js';
import type { StoreConfig } from './open-store.js';

export { BackupError, type BackupDone, type RestoreDone } from './dialect/backup.js';

/** The settings backup and restore read: which database, its schema, how long SQLite waits for a lock. */
export type BackupTarget = Pick<StoreConfig, 'database' | 'pgSchema' | 'sqliteBusyTimeoutMs'>;

const IN_MEMORY = ':memory:';

export async function backupDatabase(config: BackupTarget, file: string): Promise<BackupDone> {
  return byDatabase(config.database, {
    sqlite: (db) => {
      if (db.path === IN_MEMORY) throw new BackupError('An in-memory database (sqlite::memory:) has nothing to back up.');
      return backupSqlite(db.path, file, config.sqliteBusyTimeoutMs);
    },
    postgres: (db) => backupPostgres({ url: db.url, schema: config.pgSchema }, file),
  });
}

export async function restoreDatabase(config: BackupTarget, file: string): Promise<RestoreDone> {
  return byDatabase(config.database, {
    sqlite: (db) => {
      if (db.path === IN_MEMORY) throw new BackupError('An in-memory database (sqlite::memory:) cannot be restored into.');
      return restoreSqlite(file, db.path, LATEST_MIGRATION);
    },
    postgres: (db) => restorePostgres(file, { url: db.url, schema: config.pgSchema }, LATEST_MIGRATION),
  });
}
