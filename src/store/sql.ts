// How store code speaks to a database without knowing which one. A statement carries its SQLite and
// its PostgreSQL text side by side, both with @named parameters. Store code is a generator that
// yields steps (run this statement, read these rows) and receives their results: the SQLite dialect
// answers each step synchronously inside one IMMEDIATE transaction, the PostgreSQL dialect awaits
// each on one connection and can run the whole generator again after a serialization failure. So the
// control flow of an operation is written once, for both databases (see dialect/dialect.ts).

import { POSTGRES, SQLITE, type Syntax } from './dialect/syntax.js';
import type { EventDraft } from './events/outbox.js';

/** One statement's text for one database, and the name it is prepared under. */
export interface StatementText {
  name: string;
  text: string;
}

export interface Statement {
  sqlite: StatementText;
  postgres: StatementText;
}

/** A statement with the same name on both databases. */
export function sql(name: string, text: { sqlite: string; postgres: string }): Statement {
  return { sqlite: { name, text: text.sqlite }, postgres: { name, text: text.postgres } };
}

/** A statement whose text is the same on both databases. */
export const same = (name: string, text: string): Statement => sql(name, { sqlite: text, postgres: text });

/**
 * A statement one database alone runs, where the other does the work another way (the outbox's event
 * ids, dialect.ts). The other side's text names the table it lacks, so running it there fails at once.
 */
export const postgresOnly = (name: string, text: string): Statement =>
  sql(name, { sqlite: `SELECT '${name}' FROM runs_on_postgresql_only`, postgres: text });
export const sqliteOnly = (name: string, text: string): Statement =>
  sql(name, { sqlite: text, postgres: `SELECT '${name}' FROM runs_on_sqlite_only` });

/**
 * A statement written once: `make` spells what differs with each database's syntax (dialect/syntax.ts),
 * and runs once per database when the statement's module loads.
 */
export const written = (name: string, make: (s: Syntax) => string): Statement =>
  sql(name, { sqlite: make(SQLITE), postgres: make(POSTGRES) });

/**
 * Statements made on demand, by key (a read's filter set and page size): clients use a handful, and
 * at most `most` are held (all are dropped past it, and made again as they come).
 */
export function madeOnDemand<K>(keyOf: (k: K) => string, make: (k: K) => Statement, most = 256): (k: K) => Statement {
  const made = new Map<string, Statement>();
  return (k) => {
    const key = keyOf(k);
    let statement = made.get(key);
    if (!statement) {
      if (made.size >= most) made.clear();
      statement = make(k);
      made.set(key, statement);
    }
    return statement;
  };
}

/** Deletes at most @limit of a table's rows that `where` matches (a batch of a long operation: store/batches.ts). */
export const deleteSome = (name: string, table: string, where: string): Statement =>
  written(name, (s) => s.deleteSome(table, where));

/**
 * A list parameter (userIds, commentIds, ...). SQLite reads it with json_each(@x), PostgreSQL with
 * = ANY(@x::type[]): the dialect encodes it (dialect.ts names the difference). null: no filter.
 */
export class ListParam {
  constructor(readonly values: readonly unknown[] | null) {}
}
export const list = (values: readonly unknown[] | null | undefined): ListParam => new ListParam(values ?? null);

export type Params = Readonly<Record<string, unknown>>;
export type Row = Record<string, unknown>;

export type Step =
  /** Rows as objects keyed by column name. */
  | { op: 'all'; statement: Statement; params: Params }
  /** Rows as arrays in select-list order (the read paths: no object per row). */
  | { op: 'arrays'; statement: Statement; params: Params }
  /** A write; its result is the number of rows it changed. */
  | { op: 'run'; statement: Statement; params: Params }
  /**
   * A write whose answer the code does not need: inside a PostgreSQL transaction it goes out without
   * waiting for its answer (with the next statement, or the COMMIT), and the transaction fails with its
   * error if it had one. SQLite runs it at once. With `rows`, a batch (below). Its result is undefined.
   */
  | { op: 'send'; statement: Statement; params: Params; rows?: readonly Params[] }
  /**
   * One statement for many rows: SQLite runs it once per row; PostgreSQL runs it once, each column
   * an array (the statement reads them with unnest). Its result is the number of rows written.
   */
  | { op: 'batch'; statement: Statement; params: Params; rows: readonly Params[] }
  /** Several statements as one text, without parameters (a migration step's DDL). */
  | { op: 'exec'; text: string }
  /** Events the write announces (events/emit.ts): collected by the store, never sent to the database. */
  | { op: 'emit'; drafts: readonly EventDraft[] };

/** Store code: a generator of steps that returns the operation's result. */
export type Work<T> = Generator<Step, T, unknown>;

/**
 * A read that is one statement: what to run and how its rows become the result. The hot reads are
 * written so, and the dialect runs them directly, without the generator protocol, a transaction or
 * closures (measured in a served request: about 20 us less per call than the same read as Work).
 */
export interface Query<T> {
  statement: Statement;
  params: Params;
  /** Rows as arrays in select-list order (true) or as objects keyed by column name. */
  arrays: boolean;
  map(rows: unknown[]): T;
}

export const query = <T>(statement: Statement, params: Params, arrays: boolean, map: (rows: unknown[]) => T): Query<T> => ({
  statement,
  params,
  arrays,
  map,
});

/**
 * A write that is one statement over many rows, as one transaction: PostgreSQL runs it once with each
 * column an array (read with unnest) and without BEGIN/COMMIT, one round trip instead of three;
 * SQLite runs it once per row in one IMMEDIATE transaction. `map` receives every row it returned.
 */
export interface BatchQuery<T> {
  statement: Statement;
  params: Params;
  rows: readonly Params[];
  map(returned: Row[]): T;
  /**
   * SQLite runs these once each, with `params`, ahead of the rows in their transaction, and the rows
   * they return come first to `map` (which may throw: the transaction then writes nothing). PostgreSQL
   * runs the batch as one statement without a transaction, so there `statement` does the same itself
   * (CTEs) and returns those rows with its own.
   */
  sqliteBefore?: readonly Statement[];
}

export const batchQuery = <T>(
  statement: Statement,
  params: Params,
  rows: readonly Params[],
  map: (returned: Row[]) => T,
  sqliteBefore?: readonly Statement[],
): BatchQuery<T> => ({ statement, params, rows, map, sqliteBefore });

/** A Query as store code, for where it runs among other steps (PostgreSQL runs every read so). */
export function* queried<T>(q: Query<T>): Work<T> {
  return q.map((yield { op: q.arrays ? 'arrays' : 'all', statement: q.statement, params: q.params }) as unknown[]);
}

export function* all<R = Row>(statement: Statement, params: Params = {}): Work<R[]> {
  return (yield { op: 'all', statement, params }) as R[];
}

export function* first<R = Row>(statement: Statement, params: Params = {}): Work<R | undefined> {
  return (yield* all<R>(statement, params))[0];
}

export function* arrays(statement: Statement, params: Params = {}): Work<unknown[][]> {
  return (yield { op: 'arrays', statement, params }) as unknown[][];
}

export function* run(statement: Statement, params: Params = {}): Work<number> {
  return (yield { op: 'run', statement, params }) as number;
}

export function* send(statement: Statement, params: Params = {}): Work<void> {
  yield { op: 'send', statement, params };
}

/** A batch (below) sent as `send` is. */
export function* sendBatch(statement: Statement, params: Params, rows: readonly Params[]): Work<void> {
  if (rows.length > 0) yield { op: 'send', statement, params, rows };
}

export function* batch(statement: Statement, params: Params, rows: readonly Params[]): Work<number> {
  if (rows.length === 0) return 0;
  return (yield { op: 'batch', statement, params, rows }) as number;
}

export function* exec(text: string): Work<void> {
  yield { op: 'exec', text };
}

/** JSON text for a column that holds an object, or null. */
export const jsonOrNull = (value: object | null | undefined): string | null => (value == null ? null : JSON.stringify(value));

/**
 * A batch's rows in key order, so that two transactions writing the same keys lock them in the same
 * order and cannot deadlock each other (PostgreSQL; on SQLite it costs nothing). Results are keyed by
 * id, so the order they are written in does not show.
 */
export function inKeyOrder<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Ids each once, in key order (as inKeyOrder): what a loop that writes one row per id walks. */
export const idsInKeyOrder = (ids: readonly string[]): string[] => [...new Set(ids)].sort();
