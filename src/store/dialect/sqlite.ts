// SQLite through better-sqlite3, in WAL mode. Store code runs synchronously: a write is one IMMEDIATE
// transaction (concurrent processes queue for the write lock, up to the busy timeout, instead of
// deadlocking), a read is its statements one after the other. See dialect.ts for what differs.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SqliteCheck, SqliteSynchronous } from '../../config/index.js';
import { StoreUnavailableError } from '../health.js';
import {
  type BatchQuery,
  ListParam,
  type Params,
  type Query,
  type Row,
  type Statement,
  type StatementText,
  type Step,
  type Work,
} from '../sql.js';
import { type CallListener, type Dialect, timed } from './dialect.js';

export interface SqliteOptions {
  path: string;
  busyTimeoutMs: number;
  synchronous: SqliteSynchronous;
  /** How the file is checked for damage when it is opened (default quick). */
  checkAtStart?: SqliteCheck;
  /** Page size of a new file (bytes, a power of two); an existing file keeps its own. */
  pageSize?: number;
  /** SQLite's own page cache, MB; memory-mapped reads, MB (0: none). */
  cacheMb?: number;
  mmapMb?: number;
  /** Called with the text of every statement run (better-sqlite3's verbose): for tests and debugging. */
  trace?: (sql: string) => void;
}

/** Prepared statements kept: every static one, and the recent variants of the notification read. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * What a better-sqlite3 error means for the caller: the (extended) result code decides. Anything
 * else is a bug and stays as it is.
 */
function classifySqlite(err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return err;
  const unavailable = (reason: StoreUnavailableError['reason'], message: string) =>
    new StoreUnavailableError(message, { cause: err, reason });
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return unavailable('busy', 'The database is busy.');
  if (code === 'SQLITE_FULL') return unavailable('storage_full', 'The storage of the database is full.');
  if (code.startsWith('SQLITE_READONLY')) return unavailable('read_only', 'The database file cannot be written.');
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return unavailable('damaged', 'The database file is damaged.');
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')) {
    return unavailable('unreachable', 'The database file cannot be read or written.');
  }
  return err;
}

/** Parameters as better-sqlite3 binds them: lists as JSON text (read with json_each), booleans as 0/1. */
function encode(params: Params): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v instanceof ListParam) out[k] = v.values === null ? null : JSON.stringify(v.values);
    else if (typeof v === 'boolean') out[k] = v ? 1 : 0;
    else out[k] = v === undefined ? null : v;
  }
  return out;
}

export class SqliteDialect implements Dialect {
  readonly kind = 'sqlite' as const;
  onCall: CallListener | null = null;
  private readonly db: Database.Database;
  /** Prepared statements by name: rows as objects, and rows as arrays (raw mode). */
  private readonly prepared = new Map<string, Database.Statement>();
  private readonly preparedRaw = new Map<string, Database.Statement>();
  /** Runs fn in a transaction; made once (better-sqlite3 builds a wrapper per call of transaction()). */
  private readonly inTransaction: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(private readonly options: SqliteOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    const trace = options.trace;
    this.db = new Database(options.path, trace ? { verbose: (s) => trace(String(s)) } : {});
    // Before WAL: a new file takes its page size when its first page is written, WAL or not.
    if (options.pageSize) this.db.pragma(`page_size = ${options.pageSize}`);
    this.db.pragma('journal_mode = WAL');
    if (options.cacheMb) this.db.pragma(`cache_size = ${-options.cacheMb * 1024}`);
    this.db.pragma(`mmap_size = ${(options.mmapMb ?? 0) * 1024 * 1024}`);
    this.db.pragma(`synchronous = ${options.synchronous}`);
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    this.db.pragma('foreign_keys = ON');
    this.inTransaction = this.db.transaction((fn: () => unknown) => fn());
  }

  private statement(t: StatementText, raw: boolean): Database.Statement {
    const cache = raw ? this.preparedRaw : this.prepared;
    let stmt = cache.get(t.name);
    if (!stmt) {
      stmt = this.db.prepare(t.text);
      if (raw) stmt.raw(true);
      // Oldest first out: the static statements are made first and used constantly, so they are the
      // ones kept made again at the rare wrap; a hit costs one Map read, not a reordering.
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(t.name, stmt);
    }
    return stmt;
  }

  private step(s: Step): unknown {
    const text = (statement: Statement) => statement.sqlite;
    switch (s.op) {
      case 'all':
        return this.statement(text(s.statement), false).all(encode(s.params));
      case 'arrays':
        return this.statement(text(s.statement), true).all(encode(s.params));
      case 'run':
        return this.statement(text(s.statement), false).run(encode(s.params)).changes;
      case 'batch': {
        const stmt = this.statement(text(s.statement), false);
        let changed = 0;
        for (const row of s.rows) changed += stmt.run(encode({ ...s.params, ...row })).changes;
        return changed;
      }
      case 'exec':
        this.db.exec(s.text);
        return undefined;
    }
  }

  /** Runs store code to its end, answering each step at once. */
  private drive<T>(work: Work<T>): T {
    let next = work.next();
    while (!next.done) next = work.next(this.step(next.value));
    return next.value;
  }

  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw classifySqlite(err);
    }
  }

  read<T>(method: string, work: () => Work<T>): T {
    return timed(this.onCall, method, () => this.guard(() => this.drive(work()))) as T;
  }

  query<T>(method: string, q: Query<T>): T {
    const listener = this.onCall;
    const started = listener ? performance.now() : 0;
    let rows: unknown[];
    try {
      rows = this.statement(q.statement.sqlite, q.arrays).all(encode(q.params));
    } catch (err) {
      listener?.(method, (performance.now() - started) / 1000, 'error');
      throw classifySqlite(err);
    }
    listener?.(method, (performance.now() - started) / 1000, 'ok');
    return q.map(rows);
  }

  batchWrite<T>(method: string, q: BatchQuery<T>): T {
    const run = () => {
      if (q.sqliteBefore) this.statement(q.sqliteBefore.sqlite, false).run(encode(q.params));
      const stmt = this.statement(q.statement.sqlite, false);
      return q.map(q.rows.flatMap((row) => stmt.all(encode({ ...q.params, ...row })) as Row[]));
    };
    return timed(this.onCall, method, () => this.guard(() => this.inTransaction.immediate(run))) as T;
  }

  write<T>(method: string, work: () => Work<T>): T {
    return timed(this.onCall, method, () => this.guard(() => this.inTransaction.immediate(() => this.drive(work())))) as T;
  }

  async migrate(work: () => Work<void>): Promise<void> {
    // The IMMEDIATE transaction is the migration lock between processes.
    this.guard(() =>
      this.db
        .transaction(() => {
          this.db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
          this.drive(work());
        })
        .immediate(),
    );
  }

  /**
   * PRAGMA quick_check (or integrity_check) at open: damage found here is reported at once, instead
   * of by the first request that reads the damaged page.
   */
  damageAtOpen(): string[] {
    const check = this.options.checkAtStart ?? 'quick';
    if (check === 'off') return [];
    const pragma = check === 'full' ? 'integrity_check(20)' : 'quick_check(20)';
    try {
      return (this.db.pragma(pragma) as Record<string, string>[]).map((row) => Object.values(row)[0]!).filter((v) => v !== 'ok');
    } catch (err) {
      const classified = classifySqlite(err);
      if (!(classified instanceof StoreUnavailableError) || classified.reason !== 'damaged') throw err;
      return [(err as Error).message];
    }
  }

  async ping(): Promise<void> {
    this.guard(() => this.db.prepare('SELECT 1').get());
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
