// Backup and restore of Marginalia's PostgreSQL schema with PostgreSQL's own tools (docs/operations.md,
// "Backup and restore"): pg_dump's custom format, one consistent snapshot of the schema, read back with
// pg_restore in one transaction. The tools come with PostgreSQL's client package (postgresql-client).
import { spawn } from 'node:child_process';
import { renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { type BackupDone, BackupError, type RestoreDone, backupStamp, checkLevel } from './backup.js';
import { createPrivateFile } from './private-file.js';
import { applicationName, quoteIdent } from './postgres.js';

export interface PostgresTarget {
  url: string;
  schema: string;
}

/**
 * pg_dump of the schema into `file` (custom format: compressed, and pg_restore can pick from it), under
 * a temporary name renamed over `file` once whole. Owners, grants and comments are left out: the
 * restoring role owns what it restores.
 */
export async function backupPostgres(target: PostgresTarget, file: string): Promise<BackupDone> {
  const partial = join(dirname(file), `.${basename(file)}.${process.pid}.partial`);
  try {
    rmSync(partial, { force: true });
    createPrivateFile(partial);
    await tool('pg_dump', target.url, [
      '--format=custom',
      `--schema=${target.schema}`,
      '--no-owner',
      '--no-privileges',
      '--no-comments',
      `--file=${partial}`,
    ]);
    const migration = await levelIn(partial, target.schema);
    renameSync(partial, file);
    return { file: resolve(file), bytes: statSync(file).size, migration };
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Replaces the schema with the one in `file`: refused while a server is connected to it, or when the
 * backup holds another schema or a newer migration level. The schema it replaces is renamed aside
 * (kept), and pg_restore recreates it in one transaction; if that fails, the schema is renamed back.
 */
export async function restorePostgres(file: string, target: PostgresTarget, latest: number): Promise<RestoreDone> {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new BackupError(`No backup file ${file}.`);
  const listing = await tool('pg_restore', null, ['--list', file]).catch((err: Error) => {
    throw err.message.startsWith('pg_restore failed')
      ? new BackupError(`${file} is not a backup pg_dump made in its custom format.`)
      : err;
  });
  if (!new RegExp(`^\\d+; \\d+ \\d+ TABLE ${literally(target.schema)} schema_migrations `, 'm').test(listing))
    throw new BackupError(`${file} holds no Marginalia tables in the schema ${target.schema} (MARGINALIA_PG_SCHEMA).`);
  const migration = checkLevel(file, await levelIn(file, target.schema), latest);

  const client = new pg.Client({ connectionString: target.url, application_name: 'marginalia-restore' });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
      [applicationName(target.schema)],
    );
    if (rows[0]!.n > 0)
      throw new BackupError(
        `${rows[0]!.n} connections of a running server use the schema ${target.schema}: stop it, then restore.`,
      );
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [target.schema]);
    const kept = exists.rowCount ? `${target.schema}_before_restore_${backupStamp(new Date()).toLowerCase()}` : null;
    if (kept) await client.query(`ALTER SCHEMA ${quoteIdent(target.schema)} RENAME TO ${quoteIdent(kept)}`);
    try {
      await tool('pg_restore', target.url, ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', file]);
    } catch (err) {
      if (kept) await client.query(`ALTER SCHEMA ${quoteIdent(kept)} RENAME TO ${quoteIdent(target.schema)}`);
      throw err;
    }
    return { file: target.schema, kept, migration };
  } finally {
    await client.end();
  }
}

/** The highest migration recorded in a dump's schema_migrations (read back from the file, not the database). */
async function levelIn(file: string, schema: string): Promise<number> {
  const rows = await tool('pg_restore', null, [
    '--data-only',
    `--schema=${schema}`,
    '--table=schema_migrations',
    '--file=-',
    file,
  ]);
  const copy = rows.split(/^COPY [^\n]*FROM stdin;\n/m)[1]?.split(/^\\\.$/m)[0] ?? '';
  return Math.max(
    0,
    ...copy
      .split('\n')
      .filter(Boolean)
      .map((line) => Number(line.split('\t')[0])),
  );
}

const literally = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Runs one of PostgreSQL's tools, its stdout as the answer. The URL's password goes in PGPASSWORD, not on
 * the command line, where any user of the machine could read it.
 */
function tool(name: string, url: string | null, args: string[]): Promise<string> {
  const env = { ...process.env };
  const extra: string[] = [];
  if (url) {
    const parsed = new URL(url);
    if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
    parsed.password = '';
    extra.push(`--dbname=${parsed.toString()}`);
  }
  return new Promise((done, fail) => {
    const child = spawn(name, [...args, ...extra], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', (e: NodeJS.ErrnoException) =>
      fail(
        e.code === 'ENOENT'
          ? new BackupError(`${name} is not installed: it comes with PostgreSQL's client tools (Debian: postgresql-client).`)
          : e,
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? done(out)
        : fail(new BackupError(`${name} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`)),
    );
  });
}
