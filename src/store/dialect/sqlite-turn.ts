// The writes of one turn of the event loop, committed together (group commit; docs/decisions.md, "Writes
// of a turn in one commit"). A COMMIT costs a SQLite write about as much as its statements: it appends
// every page the transaction touched to the WAL, updates the WAL-index, and now and then checkpoints. Writes
// of the same turn touch many pages alike (the last leaf of each table that grows at its end, the outbox's
// counter, their parents, the file's header), so one COMMIT for all of them writes each of those pages
// once. Under load a turn serves several requests; alone, a write commits at the end of its own turn.
//
// Each write runs in a savepoint of the turn's transaction: one that fails is rolled back alone and
// fails alone. None is answered before the COMMIT: a write's promise settles after it, with the write's
// result, or with the COMMIT's error (then none of the turn's writes happened). A read of the same
// connection while the turn is open reads in its transaction, so it sees the turn's writes, and is
// answered after the COMMIT too (`after`): no answer reflects a write that did not commit. (Every
// write request reads first, its credentials: were reads to commit the turn, no turn would hold more
// than one write.) A migration or a checkpoint commits the turn first (`flush`), as does any other
// connection of the process before it reads or writes (`commitOpenTurns`).
import type Database from 'better-sqlite3';

/**
 * The turns open in this process. Two connections of one process to one file (the tests' two stores, a
 * tool that opens a second) would otherwise wait on each other: one's open turn holds the writer until
 * the end of the turn, and the other's BEGIN waits for it on the same event loop, which cannot reach
 * that end while it waits. So before a connection begins a write, and before it reads, the process's
 * other turns commit (`commitOpenTurns`). Processes of their own (the workers) commit at the end of their
 * own turns; another's BEGIN waits at most that long (MARGINALIA_SQLITE_BUSY_TIMEOUT_MS bounds it).
 */
const openTurns = new Set<TurnCommit>();

/** Commits every turn open in this process but `except`'s. */
export function commitOpenTurns(except?: TurnCommit): void {
  if (openTurns.size === 0) return;
  for (const turn of openTurns) if (turn !== except) turn.flush();
}

interface Turn {
  writes: number;
  done: Promise<void>;
  settle: (err?: unknown) => void;
}

export interface TurnHooks {
  /** Before the turn's BEGIN (the WAL's page count: sqlite-wal.ts). */
  beforeBegin(): void;
  /** After its COMMIT, whether or not it succeeded; `seconds` it held the writer. */
  afterCommit(seconds: number, committed: boolean): void;
  /** What an error of the database becomes for its callers (the dialect's classification). */
  classify(err: unknown): unknown;
}

export class TurnCommit {
  private open: Turn | undefined;
  private started = 0;
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly endOfTurn = () => this.flush();

  /**
   * @param inSavepoint runs a write inside the open transaction (better-sqlite3's nested transaction: a
   *   savepoint, rolled back alone when the write throws).
   * @param most the writes one COMMIT takes at most (MARGINALIA_SQLITE_WRITES_PER_COMMIT): past it the
   *   turn commits and the next write begins another, so no turn holds the writer for long.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly inSavepoint: (fn: () => unknown) => unknown,
    private readonly most: number,
    private readonly hooks: TurnHooks,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
  }

  /** Runs fn in this turn's transaction; its result once the turn has committed. Throws at once if fn does. */
  run<T>(fn: () => T): Promise<T> {
    let turn = this.open;
    // SQLite rolls a whole transaction back on some errors (a full disk, an I/O error): the turn's earlier
    // writes are gone, and are answered so before this write begins another.
    if (turn && !this.db.inTransaction) this.end(turn, new Error('the transaction of this turn was rolled back'));
    if (!this.open) commitOpenTurns(this);
    turn = this.open ?? this.start();
    let value: T;
    try {
      value = this.inSavepoint(fn) as T;
    } catch (err) {
      if (!this.db.inTransaction && this.open === turn) this.end(turn, err);
      throw err;
    }
    turn.writes++;
    const answered = turn.done.then(() => value);
    if (turn.writes >= this.most) this.flush();
    return answered;
  }

  /** A read's result: at once outside a turn, or once the turn it read in has committed (its error if not). */
  after<T>(value: T): T | Promise<T> {
    return this.open ? this.open.done.then(() => value) : value;
  }

  /** After a statement failed: if SQLite rolled the whole transaction back with it, the turn's writes fail. */
  failedWith(err: unknown): void {
    const turn = this.open;
    if (turn && !this.db.inTransaction) this.end(turn, err);
  }

  /** Commits the turn's writes now, if any are open (before a migration, a checkpoint, closing). */
  flush(): void {
    const turn = this.open;
    if (!turn) return;
    try {
      if (!this.db.inTransaction) throw new Error('the transaction of this turn was rolled back');
      this.commit.run();
      this.end(turn);
    } catch (err) {
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // The connection's next statement meets the same fault and reports it to its caller.
      }
      this.end(turn, err);
    }
  }

  private start(): Turn {
    this.hooks.beforeBegin();
    this.begin.run(); // may throw (busy past the timeout): then this write fails, and no turn is open
    let settle!: (err?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => {
      settle = (err) => (err === undefined ? resolve() : reject(err));
    });
    // A turn whose writes all failed has no one waiting on it.
    done.catch(() => {});
    const turn: Turn = { writes: 0, done, settle };
    this.open = turn;
    openTurns.add(this);
    this.started = performance.now();
    setImmediate(this.endOfTurn);
    return turn;
  }

  private end(turn: Turn, err?: unknown): void {
    if (this.open === turn) {
      this.open = undefined;
      openTurns.delete(this);
    }
    this.hooks.afterCommit((performance.now() - this.started) / 1000, err === undefined);
    turn.settle(err === undefined ? undefined : this.hooks.classify(err));
  }
}
