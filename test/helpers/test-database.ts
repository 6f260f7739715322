// Which database a test run speaks to, and a fresh empty one per test. `npm test` runs the suite on
// SQLite, then again with MARGINALIA_TEST_STORE=postgres when TEST_DATABASE_URL names a PostgreSQL;
// every PostgreSQL test database is a schema of its own, dropped afterwards, so runs cannot collide.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../../src/config/index.js';
import { dbStore } from '../../src/store/db-store.js';
import { SqliteDialect } from '../../src/store/dialect/sqlite.js';
import { addSqlFunctions } from '../../src/store/dialect/sqlite-functions.js';
import { openStore, type StoreConfig } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';

export type StoreKind = 'sqlite' | 'postgres';

export const PG_URL = process.env.TEST_DATABASE_URL || undefined;
/** The database this run's route and end-to-end tests use. */
export const TEST_STORE: StoreKind = process.env.MARGINALIA_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
if (TEST_STORE === 'postgres' && !PG_URL) throw new Error('MARGINALIA_TEST_STORE=postgres needs TEST_DATABASE_URL');

/** The databases there are to test against: system tests, which run once, cover each of them. */
export const STORE_KINDS: readonly StoreKind[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** A skip reason for tests that need PostgreSQL, or false when it is there. */
export const NEEDS_POSTGRES: string | false = PG_URL
  ? false
  : 'TEST_DATABASE_URL is not set, so there is no PostgreSQL to test against';

export interface FreshDatabase {
  kind: StoreKind;
  /** What a server or CLI process needs in its environment to use this database. */
  env: Record<string, string>;
  config: StoreConfig;
  open(): Promise<Store>;
  /** Runs SQL on this database directly, around the store: for states no operation produces. */
  exec(sql: string): Promise<void>;
  /** Reads rows directly, around the store: for checking what a table holds. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** Every table of the schema and its text columns (migrations' bookkeeping left out). */
  textColumns(): Promise<Map<string, string[]>>;
  drop(): Promise<void>;
}

export function freshDatabase(kind: StoreKind = TEST_STORE, overrides: Record<string, string> = {}): FreshDatabase {
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let exec: (sql: string) => Promise<void>;
  let query: (sql: string) => Promise<Record<string, unknown>[]>;
  let textColumns: () => Promise<Map<string, string[]>>;
  if (kind === 'postgres') {
    if (!PG_URL) throw new Error('no TEST_DATABASE_URL');
    const schema = `test_${process.pid}_${randomBytes(5).toString('hex')}`;
    env = { DATABASE_URL: PG_URL, MARGINALIA_PG_SCHEMA: schema };
    // One connection of the test's own for its direct SQL, opened on first use (a test may run hundreds of
    // statements: a connection each cost more than the statements), and closed after a moment unused, so
    // a test that never drops its database cannot hold its file's process open.
    let session: Promise<pg.Client> | null = null;
    let idle: NodeJS.Timeout | undefined;
    const close = async () => {
      clearTimeout(idle);
      const closing = session;
      session = null;
      if (closing) await closing.then((c) => c.end()).catch(() => {});
    };
    let active = 0;
    const onSession = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
      clearTimeout(idle);
      active++;
      if (!session) {
        const c = new pg.Client({ connectionString: PG_URL });
        const opening: Promise<pg.Client> = c
          .connect()
          .then(() => c.query(`SET search_path = "${schema}"`))
          .then(() => c)
          .catch((err) => {
            if (session === opening) session = null;
            throw err;
          });
        // A connection cut under it (a test may terminate backends): the next statement opens another.
        c.on('error', () => {
          if (session === opening) void close();
        });
        session = opening;
      }
      const opened = session;
      try {
        return await fn(await opened);
      } finally {
        if (--active === 0 && session === opened) idle = setTimeout(() => void close(), 1000);
      }
    };
    drop = async () => {
      await close();
      await withPg((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    };
    exec = (sql) => onSession(async (c) => void (await c.query(sql)));
    query = (sql) => onSession(async (c) => (await c.query(sql)).rows);
    textColumns = async () =>
      columnsByTable(
        await query(`SELECT table_name AS t, column_name AS c FROM information_schema.columns
          WHERE table_schema = '${schema}' AND data_type IN ('text', 'character varying', 'jsonb', 'json')`),
      );
  } else {
    const path = join(mkdtempSync(join(tmpdir(), 'marginalia-test-')), 'marginalia.db');
    env = { DATABASE_URL: `sqlite:${path}` };
    drop = async () => rmSync(dirname(path), { recursive: true, force: true });
    exec = async (sql) => {
      const db = new Database(path);
      addSqlFunctions(db);
      try {
        db.exec(sql);
      } finally {
        db.close();
      }
    };
    query = async (sql) => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare(sql).all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    };
    textColumns = async () =>
      columnsByTable(
        await query(`SELECT m.name AS t, p.name AS c FROM sqlite_master m JOIN pragma_table_info(m.name) p
          WHERE m.type = 'table' AND p.type IN ('TEXT', '')`),
      );
  }
  // One recipient's inbox row keeps a copy of the answer, more recipients' do not (MARGINALIA_INBOX_ANSWER_COPIES,
  // 5 by default): so every test of notifications reads both kinds of row, and the two must answer alike.
  env = { ...env, MARGINALIA_INBOX_ANSWER_COPIES: '1', ...overrides };
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return { kind, env, config: loaded.config, open: () => openStore(loaded.config), exec, query, textColumns, drop };
}

/** SQL selecting the integers 0..n-1 as column `i`, for filling a table with many rows in one statement. */
export const rowSeries = (kind: StoreKind, n: number): string =>
  kind === 'sqlite'
    ? `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1}) SELECT i FROM s`
    : `SELECT i FROM generate_series(0, ${n - 1}) AS i`;

/** A table's column names, in their order. */
export async function columnNames(db: FreshDatabase, table: string): Promise<string[]> {
  const rows = await db.query(
    db.kind === 'sqlite'
      ? `SELECT name FROM pragma_table_info('${table}') ORDER BY cid`
      : `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema()
         AND table_name = '${table}' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
  );
  return rows.map((r) => r.name as string);
}

function columnsByTable(rows: Record<string, unknown>[]): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const { t, c } of rows) {
    if (t === 'schema_migrations') continue;
    tables.set(String(t), [...(tables.get(String(t)) ?? []), String(c)]);
  }
  return tables;
}

/** A short-lived direct connection to the test PostgreSQL, for setup and inspection. */
export async function withPg<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A store on a SQLite file of the test's own (not yet migrated), optionally tracing every statement. */
export function sqliteStore(path: string, options: { busyTimeoutMs?: number; trace?: (sql: string) => void } = {}): Store {
  return dbStore(
    new SqliteDialect({ path, busyTimeoutMs: options.busyTimeoutMs ?? 1000, synchronous: 'NORMAL', trace: options.trace }),
  );
}
