// `marginalia backup <file>` and `marginalia restore <file>` (docs/operations.md, "Backup and restore"):
// the database DATABASE_URL names, without opening it as the server does (no migration, no check).
import { BackupError, type BackupTarget, backupDatabase, restoreDatabase } from '../store/backup.js';
import { CliError, type Io } from './commands.js';

export const BACKUP_USAGE = 'backup <file>';
export const RESTORE_USAGE = 'restore <file>';

/** Prints {"file","bytes","migration"}: where the backup is, its size, and the migration level it holds. */
export async function backup(config: BackupTarget, io: Io, file: string): Promise<void> {
  io.out(JSON.stringify(await said(backupDatabase(config, file)), null, 2));
}

/** Prints {"file","kept","migration"}: what was replaced, where the database it replaced is kept, the level restored. */
export async function restore(config: BackupTarget, io: Io, file: string): Promise<void> {
  io.out(JSON.stringify(await said(restoreDatabase(config, file)), null, 2));
}

/** A refusal the operator can act on is said as it is (exit code 1), without a stack. */
async function said<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw err instanceof BackupError ? new CliError(err.message) : err;
  }
}
