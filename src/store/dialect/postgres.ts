// PostgreSQL through a pg Pool. Every statement runs as a named prepared statement; a write runs on
// one connection in one transaction and runs again after a serialization failure or deadlock. The
// connections run in pipeline mode, so a write's BEGIN goes out with its first statement, and a
// statement whose answer the write does not need (a `send` step) with the COMMIT (Sent, below). And
// anything that means "the database cannot answer" (refused, cut, timed out, read-only, out of disk)
// becomes StoreUnavailableError, so callers get 503 within the connect and statement timeouts
// instead of a hang or a 500. See dialect.ts for what differs from SQLite.
import pg from 'pg';
import { StoreUnavailableError } from '../health.js';
import {
  type BatchQuery,
  ListParam,
  type Params,
  type Query,
  queried,
  type StatementText,
  type Step,
  type Work,
} from '../sql.js';
import { type CallListener, type CheckAtOpen, type Dialect, since, type TransactionListener, timed } from './dialect.js';

export interface PostgresOptions {
  url: string;
  schema: string;
  poolSize: number;
  /** Connections kept for numbering events (MARGINALIA_PG_EVENT_POOL_SIZE). */
  eventPoolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** Where errors of lost connections are reported (idle or checked out: they must not crash the process). */
  onConnectionLost?: (err: Error) => void;
}

// bigint columns (timestamps) as numbers: they are epoch milliseconds, far below 2^53.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** SQLSTATEs and driver errors that mean the database cannot answer now; the request may be retried. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNAVAILABLE_MESSAGES = new RegExp(
  [
    'timeout exceeded when trying to connect',
    'Connection terminated',
    'Query read timeout',
    'connection timeout',
    'Client has encountered a connection error',
  ].join('|'),
  'i',
);
/** Writes refused by the server itself: its disk is full, or it is read-only (a standby after a failover). */
const WRITE_REFUSED: Readonly<Record<string, StoreUnavailableError['reason']>> = { 53100: 'storage_full', 25006: 'read_only' };
/** Serialization failure and deadlock: the transaction is safe to run again. */
const RETRYABLE_CODES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 3;

/** Whether a failed attempt at a write is run again: a serialization failure or deadlock, attempts left. */
const retries = (err: unknown, attempt: number): boolean =>
  RETRYABLE_CODES.has((err as { code?: string }).code ?? '') && attempt < MAX_ATTEMPTS;

function isUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return (
    (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) ||
    (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message))
  );
}

/**
 * A failure to reach the server at all (refused, reset, starting up, out of connections), as opposed to
 * a statement that ran too long (57014, a read timeout), which trying again at start would not change.
 */
export function connectionFailed(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return isUnavailable(err) && e.code !== '57014' && !(typeof e.message === 'string' && /Query read timeout/i.test(e.message));
}

function classifyPostgres(err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  const refused = typeof code === 'string' ? WRITE_REFUSED[code] : undefined;
  if (refused) return new StoreUnavailableError(`The database refuses writes (${refused}).`, { cause: err, reason: refused });
  return isUnavailable(err) ? new StoreUnavailableError('The database is unavailable.', { cause: err }) : err;
}

/** A statement's @names as $1, $2, ... and the names in that order; compiled once per statement text. */
interface Compiled {
  text: string;
  names: string[];
}
const compiled = new Map<string, Compiled>();

export function compile(t: StatementText): Compiled {
  let c = compiled.get(t.text);
  if (!c) {
    const names: string[] = [];
    const text = t.text.replace(/@([A-Za-z_]\w*)/g, (_, name: string) => {
      let i = names.indexOf(name);
      if (i < 0) i = names.push(name) - 1;
      return `$${i + 1}`;
    });
    c = { text, names };
    compiled.set(t.text, c);
  }
  return c;
}

const encodeValue = (v: unknown): unknown => (v instanceof ListParam ? v.values : v === undefined ? null : v);

function values(c: Compiled, params: Params): unknown[] {
  return c.names.map((name) => {
    if (!(name in params)) throw new Error(`statement parameter @${name} was not given`);
    return encodeValue(params[name]);
  });
}

type Queryable = pg.Pool | pg.PoolClient;

/** A batch's parameters: each column of the rows becomes one array parameter, read with unnest. */
function batchParams(params: Params, rows: readonly Params[]): Params {
  const columns: Record<string, unknown[]> = {};
  for (const key of Object.keys(rows[0] ?? {})) columns[key] = rows.map((r) => encodeValue(r[key]));
  return { ...params, ...columns };
}

/**
 * How the server's connections name themselves to PostgreSQL (pg_stat_activity): restore looks for them
 * to refuse while a server uses the schema; an operator sees whose they are. PostgreSQL keeps 63 bytes.
 */
export const applicationName = (schema: string): string => `marginalia/${schema}`.slice(0, 63);

function makePool(options: PostgresOptions, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max,
    connectionTimeoutMillis: options.connectTimeoutMs,
    // The server cancels a statement past the timeout; the client gives up a little later on a
    // connection that went silent (a cut network sends no error at all).
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + options.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    // A query is written to the connection at once, not after the answer of the one before: what lets a
    // transaction send BEGIN and its first statement, or a sent step and COMMIT, in one round trip.
    // Each query is still its own extended-protocol exchange (its own Sync), answered in order.
    pipeline: true,
    options: `-c search_path=${quoteIdent(options.schema)}`,
    application_name: applicationName(options.schema),
    types,
  });
  pool.on('error', (err) => options.onConnectionLost?.(err));
  return pool;
}

export class PostgresDialect implements Dialect {
  readonly kind = 'postgres' as const;
  readonly writesSideBySide = true;
  readonly batchesAsArrays = true;
  readonly scrubMayFail = true;
  onCall: CallListener | null = null;
  onTransaction: TransactionListener | null = null;
  private readonly pool: pg.Pool;

  /** Connections kept for numbering events (aside()); null (MARGINALIA_PG_EVENT_POOL_SIZE 0): the request pool's. */
  private readonly eventPool: pg.Pool | null;

  constructor(private readonly options: PostgresOptions) {
    this.pool = makePool(options, options.poolSize);
    this.eventPool = options.eventPoolSize > 0 ? makePool(options, options.eventPoolSize) : null;
  }

  private async step(db: Queryable, s: Step, sent?: Sent): Promise<unknown> {
    if (s.op === 'exec') {
      await db.query(s.text);
      return undefined;
    }
    // Events are the store's (core.ts collects them); one reaching the database is a write run outside emitting().
    if (s.op === 'emit') throw new Error('events emitted outside a write that records them');
    const t = s.statement.postgres;
    const c = compile(t);
    switch (s.op) {
      case 'send': {
        const params = s.rows ? batchParams(s.params, s.rows) : s.params;
        const q = db.query({ name: t.name, text: c.text, values: values(c, params) });
        // Outside a transaction (a read's pool) there is nothing to send it with: it is awaited.
        if (sent) sent.add(q);
        else await q;
        return undefined;
      }
      case 'all':
        return (await db.query({ name: t.name, text: c.text, values: values(c, s.params) })).rows;
      case 'arrays':
        return (await db.query<unknown[]>({ name: t.name, text: c.text, values: values(c, s.params), rowMode: 'array' })).rows;
      case 'run':
        return (await db.query({ name: t.name, text: c.text, values: values(c, s.params) })).rowCount ?? 0;
      case 'batch':
        return (await db.query({ name: t.name, text: c.text, values: values(c, batchParams(s.params, s.rows)) })).rowCount ?? 0;
    }
  }

  /** Runs store code to its end, awaiting each step (but `send` steps, in a transaction: `sent`). */
  private async drive<T>(db: Queryable, work: Work<T>, sent?: Sent): Promise<T> {
    let next = work.next();
    if (next.done) return next.value;
    const answer = await this.step(db, next.value, sent);
    // The BEGIN sent ahead was answered before the first step's statement: if it failed, nothing more
    // is sent outside a transaction. (A plain BEGIN fails with its connection, which fails the statement
    // sent with it too; only a cancel landing on BEGIN itself could leave that one statement to commit
    // alone.)
    await sent?.begun();
    next = work.next(answer);
    while (!next.done) next = work.next(await this.step(db, next.value, sent));
    return next.value;
  }

  read<T>(method: string, work: () => Work<T>): Promise<T> {
    return this.readOn(this.pool, method, work);
  }

  readLatest<T>(method: string, work: () => Work<T>): Promise<T> {
    return this.read(method, work);
  }

  aside<T>(method: string, work: () => Work<T>): Promise<T> {
    return this.readOn(this.eventPool ?? this.pool, method, work);
  }

  private readOn<T>(pool: pg.Pool, method: string, work: () => Work<T>): Promise<T> {
    return timed<T>(this.onCall, method, async () => {
      try {
        return await this.drive(pool, work());
      } catch (err) {
        throw classifyPostgres(err);
      }
    }) as Promise<T>;
  }

  query<T>(method: string, q: Query<T>): Promise<T> {
    return this.read(method, () => queried(q));
  }

  /** One statement, so no BEGIN/COMMIT: it is atomic on its own. Deadlocks are retried like a transaction's. */
  batchWrite<T>(method: string, q: BatchQuery<T>): Promise<T> {
    const t = q.statement.postgres;
    const c = compile(t);
    const text = { name: t.name, text: c.text, values: values(c, batchParams(q.params, q.rows)) };
    return timed<T>(this.onCall, method, async () => {
      for (let attempt = 1; ; attempt++) {
        const started = performance.now();
        try {
          return q.map((await this.pool.query(text)).rows);
        } catch (err) {
          if (!isUnavailable(err) && retries(err, attempt)) continue;
          throw classifyPostgres(err);
        } finally {
          this.onTransaction?.(method, since(started));
        }
      }
    }) as Promise<T>;
  }

  write<T>(method: string, work: () => Work<T>): Promise<T> {
    return timed(this.onCall, method, () => this.tx(method, (client, sent) => this.drive(client, work(), sent))) as Promise<T>;
  }

  /**
   * A connection of our own from the pool, with an 'error' listener for as long as it is out: a
   * backend that PostgreSQL terminates (failover, pg_terminate_backend, idle-session timeout) emits
   * 'error' on its client, and an EventEmitter with no listener would take the whole process down.
   * `release()` hands it back, or destroys it when it failed.
   */
  private checkout(): Promise<{ client: pg.PoolClient; release: (err?: Error) => void }> {
    return new Promise((resolve, reject) => {
      // The callback form, not the promise: the pool calls it synchronously as it hands the client
      // over, possibly from inside the parse loop of that client's last answer, and the same chunk
      // may already carry the FATAL of a terminated backend. A listener attached after an await
      // would come too late for it.
      this.pool.connect((err, client) => {
        if (err || !client) return reject(classifyPostgres(err));
        let failed: Error | undefined;
        const onError = (e: Error) => {
          failed = e;
          this.options.onConnectionLost?.(e);
        };
        client.on('error', onError);
        resolve({
          client,
          release: (e?: Error) => {
            client.off('error', onError);
            client.release(e ?? failed);
          },
        });
      });
    });
  }

  /**
   * Runs fn in one transaction on one connection; retries serialization failures and deadlocks. BEGIN
   * is sent, not awaited: it goes out with fn's first statement (pipeline mode), a round trip less.
   */
  private async tx<T>(method: string, fn: (c: pg.PoolClient, sent: Sent) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const { client, release } = await this.checkout();
      let broken: Error | undefined;
      const started = performance.now();
      const sent = new Sent(client.query('BEGIN'));
      try {
        const result = await fn(client, sent);
        sent.commit(client.query('COMMIT'));
        // COMMIT of a transaction that a sent statement failed answers ROLLBACK, not an error:
        // whether it committed is whether every sent statement (COMMIT too) succeeded.
        await sent.settled();
        return result;
      } catch (caught) {
        // A statement after a failed sent one fails as "transaction aborted": the sent one's error says why.
        const err = (await sent.failure()) ?? caught;
        // A sent statement that node-postgres refused before it reached PostgreSQL (a prepared
        // statement's name given another text, a value it cannot encode) aborts nothing, and the COMMIT
        // behind it commits the rest. No call site can do that today; if one ever does, it must not pass
        // for a rolled-back write.
        if (await sent.committed())
          throw new Error(`A write committed without a statement it had sent: ${(err as Error).message}`, { cause: err });
        if (isUnavailable(err)) broken = err as Error;
        else
          await client.query('ROLLBACK').catch((e: Error) => {
            broken = e;
          });
        if (!broken && retries(err, attempt)) continue;
        throw classifyPostgres(err);
      } finally {
        this.onTransaction?.(method, since(started));
        // A connection that failed is destroyed rather than handed to the next request.
        release(broken);
      }
    }
  }

  async migrate<T>(work: () => Work<T>): Promise<T> {
    const { client, release } = await this.checkout();
    const lock = `marginalia:migrate:${this.options.schema}`;
    try {
      refuseOldServer((await client.query('SHOW server_version_num')).rows[0].server_version_num);
      // One migrator per schema at a time: instances starting together wait here, then find nothing to do.
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.options.schema)}`);
        await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`);
        await client.query('BEGIN');
        try {
          const done = await this.drive(client, work());
          await client.query('COMMIT');
          return done;
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]);
      }
    } catch (err) {
      throw classifyPostgres(err);
    } finally {
      release();
    }
  }

  /** PostgreSQL checks its own pages: there is nothing to look for at open. */
  checkAtOpen(): CheckAtOpen {
    return 'off';
  }

  /**
   * Before a long operation: ANALYZE the tables that changed much since PostgreSQL last looked at them.
   * A prepared statement is planned once per connection, and a table filled since (a first import, a
   * busy hour) is planned as if it were nearly empty: a list of thread ids became a filter over every
   * thread of the document, 40 ms a batch of an erasure instead of 0.1 (docs/decisions.md, "Long
   * operations"). Autovacuum would get to them within a minute or so; the operation cannot wait.
   */
  async freshenStatistics(tables: readonly string[]): Promise<void> {
    try {
      const stale = await this.pool.query<{ relname: string }>(
        `SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = ANY($1::text[])
           AND n_mod_since_analyze > 1000 AND n_mod_since_analyze > 0.1 * n_live_tup`,
        [tables],
      );
      if (stale.rows.length > 0) await this.pool.query(`ANALYZE ${stale.rows.map((r) => quoteIdent(r.relname)).join(', ')}`);
    } catch (err) {
      throw classifyPostgres(err);
    }
  }

  /**
   * After rows were deleted for good (an erasure): VACUUM removes the dead row versions that still hold
   * the erased values, so no query, nor a reader of the table's pages, finds them past this point
   * (docs/operations.md says what PostgreSQL keeps beyond it: the WAL until recycled, free space until
   * reused). SKIP_LOCKED: a table another VACUUM holds (autovacuum, another erasure's) is left to it.
   */
  async scrub(tables: readonly string[]): Promise<void> {
    if (tables.length === 0) return;
    try {
      await this.pool.query(`VACUUM (SKIP_LOCKED) ${tables.map(quoteIdent).join(', ')}`);
    } catch (err) {
      throw classifyPostgres(err);
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  private listener: pg.Client | null = null;
  private closing = false;

  listen(channel: string, onNotice: (payload: string | null) => void): void {
    const connect = (again: boolean) => {
      if (this.closing) return;
      const client = new pg.Client({
        connectionString: this.options.url,
        connectionTimeoutMillis: this.options.connectTimeoutMs,
        keepAlive: true,
      });
      this.listener = client;
      let lost = false;
      const retry = (err?: Error) => {
        if (lost || this.closing) return;
        lost = true;
        if (err) this.options.onConnectionLost?.(err);
        client.end().catch(() => {});
        setTimeout(() => connect(true), 1000).unref();
      };
      client.on('error', retry);
      client.on('end', () => retry());
      client.on('notification', (n) => onNotice(n.payload ?? ''));
      client
        .connect()
        .then(() => client.query(`LISTEN ${quoteIdent(channel)}`))
        .then(() => {
          if (again) onNotice(null);
        }, retry);
    };
    connect(false);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listener?.end().catch(() => {});
    await Promise.all([this.pool.end(), this.eventPool?.end()]);
  }

  poolStats(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }
}

/**
 * The oldest PostgreSQL the migrations run on: 13 has the 64-bit transaction ids (xid8,
 * pg_current_xact_id, pg_snapshot_xmin) that event numbering orders drafts by (migration 21). lz4
 * compression (migration 20) needs 14; on 13 large answers stay compressed with pglz.
 */
export const MIN_POSTGRES_VERSION_NUM = 130000;

/** Fails the start with a message that names what is needed, not a missing function deep in a migration. */
export function refuseOldServer(serverVersionNum: string | number): void {
  const version = Number(serverVersionNum);
  if (version >= MIN_POSTGRES_VERSION_NUM) return;
  const major = Math.floor(version / 10000);
  throw new Error(
    `Marginalia needs PostgreSQL ${MIN_POSTGRES_VERSION_NUM / 10000} or later; this server is version ${major} ` +
      `(server_version_num ${serverVersionNum}).`,
  );
}

/**
 * The statements of a transaction sent without waiting for their answers (its BEGIN, `send` steps, its
 * COMMIT). Answers come in order, so by the time a later statement is answered, these are settled.
 */
class Sent {
  private readonly pending: Promise<unknown>[] = [];
  private readonly begin: Promise<unknown>;

  constructor(begin: Promise<unknown>) {
    this.begin = this.add(begin);
  }

  /** Keeps the query, and marks its failure handled: it is reported through settled() or failure(). */
  add<R>(query: Promise<R>): Promise<R> {
    query.catch(() => {});
    this.pending.push(query);
    return query;
  }

  begun(): Promise<unknown> {
    return this.begin;
  }

  private committing: Promise<pg.QueryResult> | null = null;

  commit(query: Promise<pg.QueryResult>): void {
    this.committing = this.add(query);
  }

  /** Whether the COMMIT was sent and answered COMMIT (a transaction a statement failed answers ROLLBACK). */
  async committed(): Promise<boolean> {
    return (await this.committing?.catch(() => null))?.command === 'COMMIT';
  }

  /** Resolves once every sent statement has succeeded; rejects with the first failure. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  /** The first sent statement's error, once all have been answered (undefined: none failed). */
  async failure(): Promise<unknown> {
    const results = await Promise.allSettled(this.pending);
    return results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason;
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
