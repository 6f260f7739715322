// Every SQL construct that is spelled differently on SQLite and PostgreSQL, named once, with one
// object per database (as kysely's query compilers and adapters do). Statements are written once
// against this interface (sql.ts: `written`) and made into each database's text when their module
// loads, so a statement costs nothing per call; they stay two texts only where their shape differs
// (a batch read from arrays with unnest, a CTE), and say why there. No other file asks which
// database it is on (test/unit/dialect-boundary.test.ts).
import type { DatabaseKind } from './dialect.js';

/**
 * A row lock's strength (PostgreSQL's names). NO KEY UPDATE and KEY SHARE are the weakest that two
 * writers of one row still wait on each other for while inserts under the row's key go on.
 */
export type LockStrength = 'UPDATE' | 'NO KEY UPDATE' | 'SHARE' | 'KEY SHARE';

export interface LockOptions {
  /** The table (alias) whose rows are locked, where the statement reads several. */
  of?: string;
  /** Rows another transaction holds are passed over instead of waited for (the webhook worker's claims). */
  skipLocked?: boolean;
}

export interface Syntax {
  readonly kind: DatabaseKind;

  // --- Parameters ---
  /** A cast PostgreSQL needs where a parameter may be null (it cannot infer a bare null's type); nothing on SQLite. */
  cast(type: string): string;
  /** A parameter with that cast: `@name::type`, or `@name`. */
  typed(param: string, type: string): string;
  /**
   * `column IN (the list parameter)`: SQLite reads the JSON text with json_each; PostgreSQL compares with
   * = ANY of the array, which is an index condition whatever the planner believes of the table. (A
   * subquery over unnest was planned, for a table just filled and not yet analyzed, as a walk of the
   * organization's rows on every call: 50 ms a batch of an erasure, docs/decisions.md.)
   */
  isIn(column: string, param: string, type?: string): string;
  /** A list parameter's filter on a column (sql.ts: ListParam): null passes every row. */
  inList(column: string, param: string, type?: string): string;
  /** An optional scalar filter: null passes every row. */
  whenGiven(column: string, param: string, type?: string): string;
  /** Sets a column to a parameter when the change names it (a boolean parameter), else leaves it. */
  setWhen(column: string, param: string, flag: string): string;
  /** A list parameter's values as rows, `alias.value` each (json_each, or unnest). */
  listRows(param: string, alias: string, type?: string): string;
  /** The same in the list's order: `alias.n` is each value's place on PostgreSQL, which orders by it. */
  listRowsInOrder(param: string, alias: string, type?: string): string;

  // --- Booleans (SQLite stores 0/1, and its partial indexes say `= 1` and `= 0`) ---
  readonly true: string;
  readonly false: string;
  /** A boolean column is true, as SQLite's partial indexes spell it (so they are used). */
  isTrue(expr: string): string;
  /** A boolean column is false, likewise. */
  isFalse(expr: string): string;

  // --- Functions ---
  /** The larger of two values: SQLite's scalar max, PostgreSQL's greatest. */
  greatest(a: string, b: string): string;
  /** The database's clock in integer milliseconds since the epoch. */
  readonly nowMs: string;
  /** A JSON array of the values, as text. */
  jsonArray(...items: string[]): string;
  /** A JSON text's quoted form of a text value. */
  jsonQuote(value: string): string;
  /** A member of the JSON object a text column holds, as text (null when absent): a thread status's `type`, say. */
  jsonMember(column: string, member: string): string;
  /**
   * The values of the rows aggregated into a JSON array, as text. SQLite yields them in the order its
   * walk finds them (the reads walk an index in `order`, so no sort is asked for); PostgreSQL is told
   * the order.
   */
  jsonAgg(value: string, order: string): string;
  /** Entries joined by `separator`, in the order of a list's rows (`listRowsInOrder`, as `alias`). */
  concatInListOrder(entry: string, separator: string, alias: string): string;
  /**
   * An aggregate (`list`) over the rows of `from` ('FROM ... WHERE ...'), null when there are none.
   * SQLite probes with EXISTS first, as it costs less than an aggregate over nothing (6 of 11 us a page
   * of notifications), and its json_group_array answers "[]" for nothing. PostgreSQL plans that EXISTS
   * as a hashed subplan over the organization's rows (8,550 read rows of one busy inbox), so there the
   * aggregate runs alone, once per row; its json_agg answers null for nothing.
   */
  aggregateOrNull(list: string, from: string): string;

  // --- The planner ---
  /** SQLite told which index to walk (` INDEXED BY name`), where with few statistics it chose badly; nothing on PostgreSQL. */
  indexedBy(index: string): string;

  // --- Row locks ---
  /**
   * Whether statements lock rows. PostgreSQL's writes run side by side and lock what they read with
   * SELECT ... FOR ...; SQLite runs one write at a time in an IMMEDIATE transaction, the database's one
   * write lock, so it has no row locks and a lock clause is empty there.
   */
  readonly locksRows: boolean;
  /** The lock clause at the end of a SELECT (with its leading space), or nothing. */
  lock(strength: LockStrength, options?: LockOptions): string;
  /**
   * Rows locked in key order (`ORDER BY order FOR ...`), so that two writers lock them in the same
   * order and cannot deadlock; nothing on SQLite, which needs neither the lock nor the order.
   */
  lockInOrder(order: string, strength: LockStrength, options?: LockOptions): string;

  // --- Deletes in batches ---
  /**
   * Deletes at most @limit of a table's rows that `where` matches, in no particular order (a batch of a
   * long operation: store/batches.ts). SQLite has DELETE ... LIMIT (better-sqlite3 builds it with
   * SQLITE_ENABLE_UPDATE_DELETE_LIMIT); PostgreSQL is given the rows' ctids, a TID scan.
   */
  deleteSome(table: string, where: string): string;
  /**
   * The same for a table keyed by `keys` (an erasure batch): SQLite probes the key of each row the
   * subquery names; PostgreSQL is given the rows' ctids (a TID scan), where a key list could be planned
   * as a scan of the table per row.
   */
  deleteSomeByKey(table: string, keys: string, where: string): string;
  /**
   * Updates at most @limit of a table's rows that `where` matches with `set` (a batch of a document
   * migration, which moves rows to another key): SQLite's UPDATE ... LIMIT (the same build option as
   * DELETE ... LIMIT); PostgreSQL is given the rows' ctids, a TID scan.
   */
  updateSome(table: string, set: string, where: string): string;

  /** What makes a text column compare bytewise, as the id columns do on PostgreSQL (COLLATE "C"); nothing on SQLite. */
  readonly bytewise: string;
}

const lockClause = (strength: LockStrength, options: LockOptions = {}): string =>
  `FOR ${strength}${options.of ? ` OF ${options.of}` : ''}${options.skipLocked ? ' SKIP LOCKED' : ''}`;

export const SQLITE: Syntax = {
  kind: 'sqlite',
  bytewise: '',
  cast: () => '',
  typed: (param) => `@${param}`,
  isIn: (column, param) => `${column} IN (SELECT value FROM json_each(@${param}))`,
  inList: (column, param) => `(@${param} IS NULL OR ${column} IN (SELECT value FROM json_each(@${param})))`,
  whenGiven: (column, param) => `(@${param} IS NULL OR ${column} = @${param})`,
  setWhen: (column, param, flag) => `${column} = CASE WHEN @${flag} THEN @${param} ELSE ${column} END`,
  listRows: (param, alias) => `json_each(@${param}) ${alias}`,
  // json_each walks the JSON array in its order.
  listRowsInOrder: (param, alias) => `json_each(@${param}) ${alias}`,
  true: '1',
  false: '0',
  isTrue: (expr) => `${expr} = 1`,
  isFalse: (expr) => `${expr} = 0`,
  greatest: (a, b) => `max(${a}, ${b})`,
  nowMs: "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
  jsonArray: (...items) => `json_array(${items.join(', ')})`,
  jsonQuote: (value) => `json_quote(${value})`,
  jsonMember: (column, member) => `json_extract(${column}, '$.${member}')`,
  jsonAgg: (value) => `json_group_array(${value})`,
  // group_concat concatenates in the order json_each walks the list, without the sort an ORDER BY adds.
  concatInListOrder: (entry, separator) => `group_concat(${entry}, ${separator})`,
  aggregateOrNull: (list, from) => `CASE WHEN EXISTS (SELECT 1 ${from}) THEN (SELECT ${list} ${from}) END`,
  indexedBy: (index) => ` INDEXED BY ${index}`,
  locksRows: false,
  lock: () => '',
  lockInOrder: () => '',
  deleteSome: (table, where) => `DELETE FROM ${table} WHERE ${where} LIMIT @limit`,
  deleteSomeByKey: (table, keys, where) =>
    `DELETE FROM ${table} WHERE (${keys}) IN (SELECT ${keys} FROM ${table} WHERE ${where} LIMIT @limit)`,
  updateSome: (table, set, where) => `UPDATE ${table} SET ${set} WHERE ${where} LIMIT @limit`,
};

export const POSTGRES: Syntax = {
  kind: 'postgres',
  bytewise: ' COLLATE "C"',
  cast: (type) => `::${type}`,
  typed: (param, type) => `@${param}::${type}`,
  isIn: (column, param, type = 'text') => `${column} = ANY(@${param}::${type}[])`,
  inList: (column, param, type = 'text') => `(@${param}::${type}[] IS NULL OR ${column} = ANY(@${param}::${type}[]))`,
  whenGiven: (column, param, type = 'text') => `(@${param}::${type} IS NULL OR ${column} = @${param})`,
  setWhen: (column, param, flag) => `${column} = CASE WHEN @${flag}::boolean THEN @${param}::text ELSE ${column} END`,
  listRows: (param, alias, type = 'text') => `unnest(@${param}::${type}[]) AS ${alias}(value)`,
  listRowsInOrder: (param, alias, type = 'text') => `unnest(@${param}::${type}[]) WITH ORDINALITY AS ${alias}(value, n)`,
  true: 'true',
  false: 'false',
  isTrue: (expr) => expr,
  isFalse: (expr) => `NOT ${expr}`,
  greatest: (a, b) => `greatest(${a}, ${b})`,
  nowMs: '(extract(epoch FROM clock_timestamp()) * 1000)::bigint',
  jsonArray: (...items) => `json_build_array(${items.join(', ')})`,
  jsonQuote: (value) => `to_json(${value})::text`,
  jsonMember: (column, member) => `(${column}::jsonb ->> '${member}')`,
  jsonAgg: (value, order) => `json_agg(${value} ORDER BY ${order})::text`,
  concatInListOrder: (entry, separator, alias) => `string_agg(${entry}, ${separator} ORDER BY ${alias}.n)`,
  aggregateOrNull: (list, from) => `(SELECT ${list} ${from})`,
  indexedBy: () => '',
  locksRows: true,
  lock: (strength, options) => ` ${lockClause(strength, options)}`,
  lockInOrder: (order, strength, options) => `ORDER BY ${order} ${lockClause(strength, options)}`,
  deleteSome: (table, where) =>
    `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT @limit))`,
  deleteSomeByKey: (table, _keys, where) =>
    `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${where} LIMIT @limit)`,
  updateSome: (table, set, where) =>
    `UPDATE ${table} SET ${set} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT @limit))`,
};

/** The syntax of a database kind: for the few values a store function spells per database (a search's match). */
export const syntaxOf = (kind: DatabaseKind): Syntax => (kind === 'sqlite' ? SQLITE : POSTGRES);
