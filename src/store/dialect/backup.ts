// What a backup or a restore of either database says it did, and the refusals both make
// (docs/operations.md, "Backup and restore"). sqlite-backup.ts and postgres-backup.ts do the work.

/** A backup or restore refused or failed for a reason the operator can act on; said as it is. */
export class BackupError extends Error {}

export interface BackupDone {
  /** Where the backup is (a file's absolute path). */
  file: string;
  bytes: number;
  /** The database's migration level in the backup. */
  migration: number;
}

export interface RestoreDone {
  /** What was replaced: the SQLite file's absolute path, or the PostgreSQL schema. */
  file: string;
  /** Where the database it replaced is kept (a file, or a schema), null when there was none. */
  kept: string | null;
  migration: number;
}

/**
 * A backup's level against the newest this build knows: a backup that a newer release wrote cannot be
 * served by this one (the server would refuse it at start), so it is refused before anything is replaced.
 */
export function checkLevel(what: string, level: number, latest: number): number {
  if (level > latest)
    throw new BackupError(
      `${what} is at migration ${level}, newer than this build knows (${latest}): restore it with that release.`,
    );
  return level;
}

/** 20261128T221500Z: a name part that sorts by time and holds no character a file or schema name minds. */
export const backupStamp = (at: Date): string =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
