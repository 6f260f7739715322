// SQLite through better-sqlite3, in WAL mode. Store code runs synchronously: a write is one IMMEDIATE
// transaction (concurrent processes queue for the write lock, up to the busy timeout, instead of
// deadlocking), a read is its statements one after the other. See dialect.ts for what differs.
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { availableParallelism } from 'node:os';
import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../health.js';
import { createPrivateFile } from './private-file.js';
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
import {
  type CallListener,
  type CheckAtOpen,
  type Checked,
  type CheckpointStats,
  type Dialect,
  since,
  type TransactionListener,
  timed,
} from './dialect.js';
import { addSqlFunctions } from './sqlite-functions.js';
import { startUpkeep, type UpkeepThread } from './sqlite-upkeep.js';
import { WalUpkeep } from './sqlite-wal.js';

export type SqliteSynchronous = 'NORMAL' | 'FULL';
export type SqliteSecureDelete = 'ON' | 'FAST' | 'OFF';
/** How a SQLite file is checked for damage when opened: PRAGMA quick_check, integrity_check, or not at all. */
export type SqliteCheck = 'quick' | 'full' | 'off';

export interface SqliteOptions {
  path: string;
  busyTimeoutMs: number;
  synchronous: SqliteSynchronous;
  /** Whether deleted content is overwritten with zeros (default ON: docs/operations.md). */
  secureDelete?: SqliteSecureDelete;
  /** How the file is checked for damage when it is opened (default quick). */
  checkAtStart?: SqliteCheck;
  /** A file up to this size (MB) is checked before the store opens; a larger one on a thread of its own, after (default 16). */
  checkInlineMb?: number;
  /** How often the checkpoint thread copies the WAL into the file, ms; 0: SQLite's own checkpoints, at a commit (default 0). */
  checkpointEveryMs?: number;
  /** With the checkpoint thread: the WAL's size (MB) past which this connection copies the rest itself, its bound (default 16). */
  walMaxMb?: number;
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
 * Write transactions before the checkpoint thread starts. Until then SQLite's own checkpoints (every
 * 1,000 pages) have little to do; a thread costs a few milliseconds to start (a quarter of a second
 * as TypeScript, in tests), which a store that writes a little need not pay.
 */
const CHECKPOINT_THREAD_AFTER_WRITES = 64;

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

/** One parameter as better-sqlite3 binds it: lists as JSON text (read with json_each), booleans as 0/1. */
function encodeValue(v: unknown): unknown {
  if (v instanceof ListParam) return v.values === null ? null : JSON.stringify(v.values);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v === undefined ? null : v;
}

/**
 * A statement prepared with its named parameters made positional. Store code names its parameters
 * (`@tenantId`); better-sqlite3 binds a named one by looking it up on the object (two property reads
 * per parameter) and hands each row back as an object built key by key, which on the bench cost more
 * than the statement's own lookups. Each `@name` becomes a `?`, and `order` says which value goes
 * where, so a call binds one array.
 */
interface Prepared {
  stmt: Database.Statement;
  order: readonly string[];
}

/**
 * The text with each `@name` outside quotes and comments replaced by `?`, and the names in the order
 * they occur (a name used twice is bound twice). Quoted text ('...', "...") and comments are copied as
 * they are.
 */
export function positional(text: string): { text: string; order: string[] } {
  const order: string[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const closer = c === "'" || c === '"' ? c : text.startsWith('--', i) ? '\n' : text.startsWith('/*', i) ? '*/' : null;
    if (closer) {
      const end = text.indexOf(closer, i + (closer === c ? 1 : 2));
      const stop = end < 0 ? text.length : end + closer.length;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === '@' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < text.length && /\w/.test(text[j]!)) j++;
      order.push(text.slice(i + 1, j));
      out += '?';
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, order };
}

/** The values of `params` in the statement's order; a name the caller did not give is a bug, as it is for better-sqlite3. */
function bind(order: readonly string[], params: Params): unknown[] {
  const values = new Array<unknown>(order.length);
  for (let i = 0; i < order.length; i++) {
    const name = order[i]!;
    if (!(name in params)) throw new RangeError(`Missing named parameter "${name}"`);
    values[i] = encodeValue(params[name]);
  }
  return values;
}

export class SqliteDialect implements Dialect {
  readonly kind = 'sqlite' as const;
  readonly writesSideBySide = false;
  readonly batchesAsArrays = false;
  readonly scrubMayFail = false;
  onCall: CallListener | null = null;
  onTransaction: TransactionListener | null = null;
  private readonly db: Database.Database;
  /** Prepared statements by name: rows as objects, and rows as arrays (raw mode). */
  private readonly prepared = new Map<string, Prepared>();
  private readonly preparedRaw = new Map<string, Prepared>();
  /** Runs fn in a transaction; made once (better-sqlite3 builds a wrapper per call of transaction()). */
  private readonly inTransaction: Database.Transaction<(fn: () => unknown) => unknown>;
  private readonly snapshot: ReadSnapshot;
  private writes = 0;
  private wal: WalUpkeep | undefined;
  private checker: UpkeepThread | undefined;

  constructor(private readonly options: SqliteOptions) {
    // The file holds secrets (webhook secrets, token-signing keys): a new one, its folder and the WAL and
    // shared-memory files SQLite makes beside it (they take the file's mode) are for the owner only.
    if (options.path !== ':memory:') {
      mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
      createPrivateFile(options.path);
    }
    const trace = options.trace;
    this.db = new Database(options.path, trace ? { verbose: (s) => trace(String(s)) } : {});
    // Before WAL: a new file takes its page size when its first page is written, WAL or not.
    if (options.pageSize) this.db.pragma(`page_size = ${options.pageSize}`);
    this.db.pragma('journal_mode = WAL');
    if (options.cacheMb) this.db.pragma(`cache_size = ${-options.cacheMb * 1024}`);
    this.db.pragma(`mmap_size = ${(options.mmapMb ?? 0) * 1024 * 1024}`);
    this.db.pragma(`synchronous = ${options.synchronous}`);
    this.db.pragma(`secure_delete = ${options.secureDelete ?? 'ON'}`);
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    this.db.pragma('foreign_keys = ON');
    addSqlFunctions(this.db);
    this.inTransaction = this.db.transaction((fn: () => unknown) => fn());
    this.snapshot = new ReadSnapshot(this.db);
  }

  private statement(t: StatementText, raw: boolean): Prepared {
    const cache = raw ? this.preparedRaw : this.prepared;
    let stmt = cache.get(t.name);
    if (!stmt) {
      const { text, order } = positional(t.text);
      stmt = { stmt: this.db.prepare(text), order };
      if (raw) stmt.stmt.raw(true);
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
      case 'arrays': {
        const { stmt, order } = this.statement(text(s.statement), s.op === 'arrays');
        return stmt.all(bind(order, s.params));
      }
      case 'run': {
        const { stmt, order } = this.statement(text(s.statement), false);
        return stmt.run(bind(order, s.params)).changes;
      }
      case 'batch': {
        const { stmt, order } = this.statement(text(s.statement), false);
        let changed = 0;
        for (const row of s.rows) changed += stmt.run(bind(order, { ...s.params, ...row })).changes;
        return changed;
      }
      case 'send':
        // One writer, in process: nothing to send ahead; run as a write (or a batch) is.
        this.step(s.rows ? { ...s, op: 'batch', rows: s.rows } : { ...s, op: 'run' });
        return undefined;
      case 'exec':
        this.db.exec(s.text);
        return undefined;
      case 'emit':
        // Events are the store's (core.ts collects them); one reaching the database is a write run outside emitting().
        throw new Error('events emitted outside a write that records them');
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

  /** No pool to queue behind: a read. */
  aside<T>(method: string, work: () => Work<T>): T {
    return this.read(method, work);
  }

  readLatest<T>(method: string, work: () => Work<T>): T {
    // Ends the turn's read transaction, if one is open: the read begins a new one, at the latest commit.
    this.snapshot.end();
    return this.read(method, work);
  }

  read<T>(method: string, work: () => Work<T>): T {
    return timed(this.onCall, method, () =>
      this.guard(() => {
        this.snapshot.enter();
        return this.drive(work());
      }),
    ) as T;
  }

  query<T>(method: string, q: Query<T>): T {
    const listener = this.onCall;
    const started = listener ? performance.now() : 0;
    let rows: unknown[];
    try {
      this.snapshot.enter();
      const { stmt, order } = this.statement(q.statement.sqlite, q.arrays);
      rows = stmt.all(bind(order, q.params));
    } catch (err) {
      listener?.(method, (performance.now() - started) / 1000, 'error');
      throw classifySqlite(err);
    }
    listener?.(method, (performance.now() - started) / 1000, 'ok');
    return q.map(rows);
  }

  batchWrite<T>(method: string, q: BatchQuery<T>): T {
    this.snapshot.end();
    const run = () => {
      const before = (q.sqliteBefore ?? []).flatMap((s) => {
        const { stmt, order } = this.statement(s.sqlite, false);
        if (stmt.reader) return stmt.all(bind(order, q.params)) as Row[];
        stmt.run(bind(order, q.params));
        return [];
      });
      const { stmt, order } = this.statement(q.statement.sqlite, false);
      return q.map([...before, ...q.rows.flatMap((row) => stmt.all(bind(order, { ...q.params, ...row })) as Row[])]);
    };
    return timed(this.onCall, method, () => this.guard(() => this.transaction(method, run))) as T;
  }

  write<T>(method: string, work: () => Work<T>): T {
    this.snapshot.end();
    return timed(this.onCall, method, () => this.guard(() => this.transaction(method, () => this.drive(work())))) as T;
  }

  /** fn in one IMMEDIATE transaction (the writer), its time told to onTransaction whether it committed or not. */
  private transaction<T>(method: string, fn: () => T): T {
    if (++this.writes === CHECKPOINT_THREAD_AFTER_WRITES) this.startCheckpoints();
    const wal = this.wal;
    wal?.beforeWrite();
    const listener = this.onTransaction;
    const started = listener ? performance.now() : 0;
    try {
      const done = this.inTransaction.immediate(fn) as T;
      wal?.afterCommit();
      return done;
    } finally {
      listener?.(method, since(started));
    }
  }

  async migrate<T>(work: () => Work<T>): Promise<T> {
    this.snapshot.end();
    // The IMMEDIATE transaction is the migration lock between processes.
    return this.guard(() =>
      this.db
        .transaction(() => {
          this.db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
          return this.drive(work());
        })
        .immediate(),
    );
  }

  /**
   * PRAGMA quick_check (or integrity_check) when the store opens: damage found here is reported at once,
   * instead of by the first request that reads the damaged page. A small file is checked here and now;
   * a larger one on a thread of its own, while the server starts and serves (a check reads the whole
   * file: half a minute for 6 GB), its finding told to `onChecked` when it has one.
   */
  checkAtOpen(onChecked: (checked: Checked) => void): CheckAtOpen {
    const check = this.options.checkAtStart ?? 'quick';
    if (check === 'off' || this.options.path === ':memory:') return 'off';
    const size = (suffix: string) => statSync(this.options.path + suffix, { throwIfNoEntry: false })?.size ?? 0;
    if (size('') + size('-wal') <= (this.options.checkInlineMb ?? 16) * 1024 * 1024) {
      onChecked({ damage: this.damageNow(check) });
      return 'checked';
    }
    this.checker = startUpkeep({ path: this.options.path, job: `${check}-check` }, (report) => {
      if ('checkpoint' in report) return;
      this.checker = undefined;
      onChecked('checked' in report ? { damage: report.checked } : { failed: report.failed });
    });
    return 'checking';
  }

  private damageNow(check: 'quick' | 'full'): string[] {
    const pragma = check === 'full' ? 'integrity_check(20)' : 'quick_check(20)';
    try {
      return (this.db.pragma(pragma) as Record<string, string>[]).map((row) => Object.values(row)[0]!).filter((v) => v !== 'ok');
    } catch (err) {
      const classified = classifySqlite(err);
      if (!(classified instanceof StoreUnavailableError) || classified.reason !== 'damaged') throw err;
      return [(err as Error).message];
    }
  }

  /**
   * Checkpoints move to a thread of their own (docs/decisions.md, "Upkeep off the request path"): a
   * checkpoint at a commit copies the WAL into the file and syncs it inside the request that happened
   * to cross SQLite's 1,000 pages, on the event loop, while every other request waits. This connection
   * keeps the count of pages written, starts the WAL over, and checkpoints itself only past
   * MARGINALIA_SQLITE_WAL_MAX_MB (sqlite-wal.ts).
   */
  private startCheckpoints(): void {
    const everyMs = this.options.checkpointEveryMs ?? 0;
    if (everyMs <= 0 || this.options.path === ':memory:' || this.wal) return;
    try {
      this.wal = new WalUpkeep(this.db, this.options.path, everyMs, this.options.walMaxMb ?? 16, availableParallelism() > 1);
    } catch {
      // No WAL-index to read (a file system that refuses it): SQLite's own checkpoints go on, at commits.
    }
  }

  checkpointStats(): CheckpointStats | undefined {
    return this.wal?.counted();
  }

  /**
   * After rows were deleted for good (an erasure): the WAL, which still holds the pages as they were
   * before, is copied into the file and truncated, so the erased bytes are in neither (secure_delete has
   * zeroed them in the pages written). A checkpoint already running (the upkeep thread's, every
   * MARGINALIA_SQLITE_CHECKPOINT_MS) makes SQLite answer busy at once, without waiting: the truncation is
   * tried again until it is done. A reader of another process can hold the WAL back: then it gives up after the
   * busy timeout, and whatever it could not copy is copied by the next checkpoint.
   */
  async scrub(_tables: readonly string[]): Promise<void> {
    const deadline = Date.now() + this.options.busyTimeoutMs;
    for (;;) {
      this.snapshot.end();
      const [done] = this.guard(() => this.db.pragma('wal_checkpoint(TRUNCATE)')) as { busy: number }[];
      if (done?.busy === 0 || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  requestArrived(): void {
    this.snapshot.arrival();
  }

  async ping(): Promise<void> {
    this.guard(() => this.db.prepare('SELECT 1').get());
  }

  /** shrink_memory: the page cache's pages freed (those of an open transaction stay; none is open between turns). */
  releaseMemory(): void {
    if (this.db.open) this.guard(() => this.db.pragma('shrink_memory'));
  }

  async close(): Promise<void> {
    await Promise.all([this.wal?.stop(), this.checker?.stop()]);
    this.wal = undefined;
    this.checker = undefined;
    this.snapshot.end();
    if (this.db.open) this.db.close();
  }
}

/**
 * The reads of one turn of the event loop share one read transaction. Outside a transaction every
 * statement is its own: it takes the WAL read lock and the file's shared lock, and gives them back
 * (four fcntl calls, about a third of a count/get's statement on the bench). Under load a turn
 * serves several requests; they now take the locks once. What a read sees is unchanged for this
 * process: every write first ends the shared transaction, so a read after it (in the same turn or
 * not) starts a new one and sees the write.
 *
 * A request must see every write another process (a second worker, the CLI) committed before it sent
 * it. The requests of a turn are read from their sockets in its poll phase, so a transaction begun in
 * that poll phase, after a request came in, is no older than any of them. One begun elsewhere is not:
 * a timer's read (the webhook worker's look, the streams' credential check) or an immediate's (the
 * event streams' reads) begins before the poll phase that follows, and a request read there would be
 * answered as of before its sender's write (a key just made answered 401). So the HTTP layer says when
 * a request comes in (arrival), which ends a transaction begun before any request of the turn; the end
 * of the turn (setImmediate, the check phase right after the poll) ends every one (docs/decisions.md).
 */
export class ReadSnapshot {
  private open = false;
  /** The open transaction began after a request of this turn came in: the turn's later requests may join it. */
  private fresh = false;
  /** A request has come in since the last end of a turn. */
  private arrived = false;
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly endOfTurn = () => {
    this.arrived = false;
    this.end();
  };

  constructor(private readonly db: Database.Database) {
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
  }

  /** Before a read: joins this turn's read transaction, or begins it (or reads in the transaction already open). */
  enter(): void {
    if (this.open || this.db.inTransaction) return;
    this.begin.run();
    this.open = true;
    this.fresh = this.arrived;
    setImmediate(this.endOfTurn);
  }

  /**
   * A request has come in: its reads see every write committed before it, by any process. A
   * transaction begun before the first request of the turn ends; one begun after it is kept.
   */
  arrival(): void {
    if (this.open && !this.fresh) this.end();
    if (this.arrived) return;
    this.arrived = true;
    setImmediate(this.endOfTurn);
  }

  /**
   * At the end of the turn, and before any write: ends the read transaction, if one is open. Never
   * throws: at the end of a turn nobody would catch it, and a read transaction has nothing to keep.
   * A read that failed has answered its request already (a damaged page, say); SQLite may have rolled
   * the transaction back itself, or may refuse the COMMIT, in which case it is rolled back here.
   */
  end(): void {
    if (!this.open) return;
    this.open = false;
    this.fresh = false;
    try {
      if (this.db.inTransaction) this.commit.run();
    } catch {
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // The connection's next statement meets the same fault and reports it to its caller.
      }
    }
  }
}
