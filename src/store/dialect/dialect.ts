// What differs between SQLite and PostgreSQL, named once. Store code (the feature folders) is written
// once against this interface; each database has one module that implements it:
//
// - Transactions: SQLite runs a write synchronously in one IMMEDIATE transaction (the database's one
//   write lock, so writers queue instead of deadlocking); PostgreSQL runs it on one connection and runs
//   it again, whole, after a serialization failure or deadlock (40001, 40P01).
// - Row locks: PostgreSQL's statements lock a thread with SELECT ... FOR UPDATE; SQLite needs none,
//   its write transaction already excludes every other writer. (Only the statement text differs:
//   syntax.ts names every construct spelled differently, row locks among them.)
// - List parameters: SQLite reads one JSON text with json_each, PostgreSQL one array with = ANY.
// - Batch inserts: SQLite runs the statement once per row (cheap: no round trip); PostgreSQL runs it
//   once with each column as an array, read back with unnest (one round trip).
// - Booleans: SQLite stores 0/1; the row mappers read both with Boolean().
// - Advisory and migration locks: PostgreSQL takes an advisory lock per schema; SQLite's IMMEDIATE
//   transaction is the lock.
// - Errors: each driver's codes become StoreUnavailableError with a reason (health.ts) here, and
//   nowhere else.
// - Statement preparation and caching: SQLite prepares each statement once and keeps it (a bounded
//   cache), its @names made positional; PostgreSQL runs named prepared statements, which each
//   connection plans once.
// - Read snapshots: SQLite's reads of one turn of the event loop share one read transaction, ended
//   before any write (sqlite.ts, ReadSnapshot); on PostgreSQL each statement reads committed data.
// - Event ids (the outbox, docs/events.md "Events"): SQLite runs one write at a time, so a write numbers its events
//   itself; PostgreSQL runs a tenant's writes side by side, so a write leaves drafts and a short call
//   after its commit numbers them (`writesSideBySide`; migrations 18, 21; `aside`).
// - Notices between processes: PostgreSQL has LISTEN/NOTIFY (a NOTIFY inside a transaction is sent
//   when it commits), SQLite has nothing of the kind: `listen` exists only on PostgreSQL.
// - Timing: every store call passes through read(), query(), write() or batchWrite(), which time it
//   for /metrics; the write transactions inside them are timed on their own (onTransaction).
import { type Maybe, guarded } from '../../maybe.js';
import type { BatchQuery, Query, Work } from '../sql.js';

export type DatabaseKind = 'sqlite' | 'postgres';

/** Told of every store call: its name, how long it took, and whether it failed. */
export type CallListener = (method: string, seconds: number, outcome: 'ok' | 'error') => void;

/**
 * Told of every write transaction (or one-statement write) that ended: how long it held SQLite's
 * writer or PostgreSQL's row locks, from its BEGIN to its COMMIT or ROLLBACK, each attempt on its own.
 */
export type TransactionListener = (method: string, seconds: number) => void;

/** The seconds since `started` (performance.now()), for a transaction's listener. */
export const since = (started: number): number => (performance.now() - started) / 1000;

/** A check's finding: the damage in the check's own words ([] when none), or why the check could not finish. */
export type Checked = { damage: string[] } | { failed: string };
/** The checkpoints since the store opened (metrics.ts): those that copied something, the WAL pages written meanwhile, their time. */
export interface CheckpointStats {
  checkpoints: number;
  pages: number;
  seconds: number;
}
/** Whether a check at open is done ('checked'), still running, or not made. */
export type CheckAtOpen = 'checked' | 'checking' | 'off';

export interface Dialect {
  readonly kind: DatabaseKind;
  /** Whether writes run side by side (PostgreSQL) rather than one at a time (SQLite's write lock). */
  readonly writesSideBySide: boolean;
  /**
   * How a batch (sql.ts: batch, BatchQuery) runs inside a write: once, with each column an array read
   * with unnest (PostgreSQL: one round trip), rather than once per row (SQLite: no round trip to save).
   */
  readonly batchesAsArrays: boolean;
  /**
   * Whether a failed scrub leaves the storage as it was (PostgreSQL: a VACUUM that failed, say on a
   * statement timeout, leaves the dead row versions to autovacuum), rather than failing (SQLite: a
   * checkpoint or truncation of the WAL that failed is the storage failing: health.ts).
   */
  readonly scrubMayFail: boolean;
  /**
   * A read: its steps outside a write transaction (PostgreSQL: each statement is its own consistent
   * snapshot; SQLite: the turn's shared one). SQLite answers synchronously, PostgreSQL with a promise
   * (see maybe.ts).
   */
  read<T>(method: string, work: () => Work<T>): Maybe<T>;
  /**
   * A read, or a call that commits on its own (the numbering of events after a write: migration 18),
   * on the connections MARGINALIA_PG_EVENT_POOL_SIZE keeps for it (PostgreSQL), else like read().
   */
  aside<T>(method: string, work: () => Work<T>): Maybe<T>;
  /**
   * A read that sees every commit made before it, by any process: on SQLite outside the turn's shared
   * snapshot (which another process's commit since the turn began does not reach), on PostgreSQL a read.
   * For the rare answer that must not be stale: a refusal of credentials another process may just have made.
   */
  readLatest<T>(method: string, work: () => Work<T>): Maybe<T>;
  /** A read of one statement (sql.ts: Query), run as directly as the database allows. */
  query<T>(method: string, q: Query<T>): Maybe<T>;
  /** A write of one statement over many rows (sql.ts: BatchQuery), atomic. */
  batchWrite<T>(method: string, q: BatchQuery<T>): Maybe<T>;
  /** A write: all its steps in one transaction. `work` may be run more than once (PostgreSQL retries). */
  write<T>(method: string, work: () => Work<T>): Maybe<T>;
  /**
   * Makes sure the schema and its schema_migrations table exist, then runs the migration runner's
   * work in one transaction under the migration lock; several processes may call it at once.
   */
  migrate<T>(work: () => Work<T>): Promise<T>;
  /**
   * Checks the database for damage as it opens (SQLite's quick_check): now, or on a thread of its own
   * for a large file; `onChecked` hears the finding either way. Says which (PostgreSQL: 'off').
   */
  checkAtOpen(onChecked: (checked: Checked) => void): CheckAtOpen;
  /** What the checkpoints have done, where a thread of the store's makes them (SQLite). */
  checkpointStats?(): CheckpointStats | undefined;
  /**
   * After an erasure deleted rows of `tables` for good: makes their bytes unreadable where the database
   * can (SQLite: checkpoints the WAL into the file and truncates it; PostgreSQL: VACUUMs the tables).
   */
  scrub(tables: readonly string[]): Promise<void>;
  /** Before a long operation over `tables`: the planner's statistics brought up to date where they are far behind (PostgreSQL). */
  freshenStatistics?(tables: readonly string[]): Promise<void>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Connection pool occupancy, where there is a pool (PostgreSQL). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * Lets go of the memory the database keeps in process for speed alone (SQLite's page cache), at rest:
   * the next reads take their pages from the operating system's cache again.
   */
  releaseMemory?(): void;
  /**
   * A request has come in: its reads see every write committed before it was sent, by any process
   * (SQLite: the read transaction a turn's reads share is not one begun before its poll of the sockets;
   * PostgreSQL: each statement sees every commit before it already).
   */
  requestArrived?(): void;
  /** Where every call's timing goes (the app's metrics); null until someone listens. */
  onCall: CallListener | null;
  /** Where every write transaction's time goes (the app's metrics); null until someone listens. */
  onTransaction: TransactionListener | null;
  /**
   * Hears the channel's notices (PostgreSQL LISTEN) on a connection of its own, kept open: after it is
   * lost and made again, `onNotice(null)` says notices may have been missed meanwhile.
   */
  listen?(channel: string, onNotice: (payload: string | null) => void): void;
}

/** Runs fn and tells the listener how long it took; synchronously when fn answers synchronously. */
export function timed<T>(listener: CallListener | null, method: string, fn: () => Maybe<T>): Maybe<T> {
  if (!listener) return fn();
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const result = guarded(fn, (err) => {
    listener(method, seconds(), 'error');
    throw err;
  });
  if (result instanceof Promise) {
    return result.then((value) => {
      listener(method, seconds(), 'ok');
      return value;
    });
  }
  listener(method, seconds(), 'ok');
  return result;
}
