// Backup and restore of a SQLite database file (docs/operations.md, "Backup and restore"). A copy of a
// live file with `cp` can miss committed writes still in its WAL, or copy a page mid-write; these use
// SQLite's own online backup, which reads the database as one transaction sees it.
import { closeSync, constants, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type BackupDone, BackupError, type RestoreDone, backupStamp, checkLevel } from './backup.js';
import { createPrivateFile } from './private-file.js';

/** Pages per backup step: all of them, so the copy is made in one read transaction (one snapshot). */
const ALL_PAGES = 0x7fffffff;

/** A new file beside `target` for the copy, renamed over it once complete; never left behind. */
const temporaryBeside = (target: string) => join(dirname(target), `.${basename(target)}.${process.pid}.partial`);

/**
 * Copies the database at `source` into `file`, consistent as of the moment the copy's read began: every
 * write committed before is in it, none that commits after. Writers go on meanwhile (WAL). The copy is
 * checked (quick_check) and written whole under a temporary name, then renamed over `file`.
 */
export async function backupSqlite(source: string, file: string, busyTimeoutMs: number): Promise<BackupDone> {
  if (!statSync(source, { throwIfNoEntry: false })?.isFile()) throw new BackupError(`No SQLite database at ${source}.`);
  if (sameFile(source, file)) throw new BackupError(`${file} is the database itself; give another file.`);
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  const partial = temporaryBeside(file);
  try {
    rmSync(partial, { force: true });
    createPrivateFile(partial);
    await db.backup(partial, { progress: () => ALL_PAGES });
    singleFile(partial);
    const level = verify(partial, 'quick_check', Number.POSITIVE_INFINITY);
    syncFile(partial);
    renameSync(partial, file);
    syncFile(dirname(file));
    return { file: resolve(file), bytes: statSync(file).size, migration: level };
  } finally {
    db.close();
    rmSync(partial, { force: true });
  }
}

/**
 * Replaces the database at `target` with the backup in `file`, after checking the backup whole
 * (integrity_check) and its migration level (checkLevel). Refused while any process has the target
 * open: a server writing on would keep its own file and lose every write after the swap. The database
 * replaced is kept beside it (RestoreDone.kept), whole, so a wrong restore can be undone.
 */
export async function restoreSqlite(file: string, target: string, latest: number): Promise<RestoreDone> {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new BackupError(`No backup file ${file}.`);
  if (sameFile(file, target)) throw new BackupError(`${file} is the database itself; give a backup file.`);
  const level = verify(file, 'integrity_check', latest);
  const partial = temporaryBeside(target);
  let held: Database.Database | null = null;
  try {
    // The copy is made (and checked) before the target is touched: a full disk stops here. A fresh
    // place gets its folder as the server would make it (private-file.ts).
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    const from = new Database(file, { readonly: true, fileMustExist: true });
    try {
      rmSync(partial, { force: true });
      rmSync(partial, { force: true });
      createPrivateFile(partial);
      await from.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      from.close();
    }
    syncFile(partial);
    let kept: string | null = null;
    if (statSync(target, { throwIfNoEntry: false })) {
      held = holdUnused(target);
      kept = `${target}.before-restore-${backupStamp(new Date())}`;
      linkSync(target, kept);
    } else if (statSync(`${target}-wal`, { throwIfNoEntry: false })) {
      throw new BackupError(`${target}-wal is there without its database; move it away first.`);
    }
    renameSync(partial, target);
    syncFile(dirname(target));
    return { file: resolve(target), kept: kept && resolve(kept), migration: level };
  } finally {
    held?.close();
    rmSync(partial, { force: true });
  }
}

/**
 * Opens `target` so that no other process may use it until closed: refused (BackupError) when one does.
 * Its WAL is copied into the file and removed first, so the file alone is the whole database (it is
 * kept as it is, under another name) and no WAL of the old database is left beside the new one.
 */
function holdUnused(target: string): Database.Database {
  const db = new Database(target, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    db.pragma('journal_mode = DELETE');
    return db;
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY'))
      throw new BackupError(`A process (a running server?) has ${target} open: stop it, then restore.`);
    throw err;
  }
}

/**
 * The copy as one self-contained file: its header, copied from the live database, says WAL, and any
 * reader would make -wal and -shm files beside it. The server makes the file WAL again when it opens it.
 */
function singleFile(path: string): void {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** Checks a database file and returns its migration level; BackupError when it is damaged or not ours. */
function verify(path: string, check: 'quick_check' | 'integrity_check', latest: number): number {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupError(`${path} cannot be opened: ${(err as Error).message}.`);
  }
  try {
    const found = (db.pragma(check) as Record<string, string>[]).map((row) => Object.values(row)[0]);
    if (found.length !== 1 || found[0] !== 'ok') throw new BackupError(`${path} is damaged: ${found.slice(0, 3).join('; ')}.`);
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!table) throw new BackupError(`${path} is not a Marginalia database (it has no schema_migrations).`);
    const { level } = db.prepare('SELECT coalesce(max(version), 0) AS level FROM schema_migrations').get() as { level: number };
    return checkLevel(path, level, latest);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${path} is not a readable SQLite database: ${(err as Error).message}.`);
  } finally {
    db.close();
  }
}

function sameFile(a: string, b: string): boolean {
  const [x, y] = [a, b].map((p) => statSync(p, { throwIfNoEntry: false }));
  return resolve(a) === resolve(b) || (!!x && !!y && x.dev === y.dev && x.ino === y.ino);
}

/** fsync: the rename that follows must not reach the disk before the data it names. */
function syncFile(path: string): void {
  const fd = openSync(path, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
