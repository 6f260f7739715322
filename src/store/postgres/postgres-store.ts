// The scale-out store: PostgreSQL through a pg Pool. Every statement is a named prepared statement;
// a batch is one transaction; a serialization failure or deadlock is retried; and anything that
// means "the database cannot answer" (refused, cut, timed out) becomes StoreUnavailableError, so
// callers get 503 within the connect and statement timeouts instead of a hang or a 500.
import pg from 'pg';
import {
  commentFrom,
  credentialsFrom,
  FROM_START,
  notBefore,
  jsonOrNull,
  notificationFrom,
  profileFrom,
  recipientsJson,
  tenantFrom,
  tokenFrom,
  tokenListingFrom,
  type Row,
} from '../rows.js';
import { StorageHealth, StoreUnavailableError, type FaultListener, type LastingFault } from '../health.js';
import type {
  AddCommentsResult,
  CommentDraft,
  CommentIdAssigner,
  CommentQuery,
  Credentials,
  NewAnnotation,
  NewComment,
  NewNotification,
  NotificationQuery,
  Profile,
  Scope,
  Store,
  StoredComment,
  StoredNotification,
  Tenant,
  TenantListing,
  TokenRecord,
  UserWrite,
} from '../store.js';
import { PG_MIGRATIONS } from './migrations.js';
import { PG_SQL, type PgStatementName } from './statements.js';

export interface PostgresOptions {
  url: string;
  schema: string;
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** Where errors of lost connections are reported (idle or checked out: they must not crash the process). */
  onConnectionLost?: (err: Error) => void;
  onFault?: FaultListener;
}

type Queryable = pg.Pool | pg.PoolClient;

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
/** Serialization failure and deadlock: the transaction is safe to run again. */
const RETRYABLE_CODES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 3;

function isUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return (
    (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) ||
    (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message))
  );
}

/** Writes refused by the server itself: its disk is full, or it is read-only (a standby after a failover). */
const WRITE_REFUSED: Readonly<Record<string, StoreUnavailableError['reason']>> = { 53100: 'storage_full', 25006: 'read_only' };

function translate(err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  const refused = typeof code === 'string' ? WRITE_REFUSED[code] : undefined;
  if (refused) return new StoreUnavailableError(`The database refuses writes (${refused}).`, { cause: err, reason: refused });
  return isUnavailable(err) ? new StoreUnavailableError('The database is unavailable.', { cause: err }) : err;
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly health: StorageHealth;

  constructor(private readonly options: PostgresOptions) {
    this.health = new StorageHealth(options.onFault);
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize,
      connectionTimeoutMillis: options.connectTimeoutMs,
      // The server cancels a statement past the timeout; the client gives up a little later on a
      // connection that went silent (a cut network sends no error at all).
      statement_timeout: options.statementTimeoutMs,
      query_timeout: options.statementTimeoutMs + options.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      options: `-c search_path=${quoteIdent(options.schema)}`,
      types,
    });
    this.pool.on('error', (err) => options.onConnectionLost?.(err));
  }

  private run(db: Queryable, name: PgStatementName, values: unknown[]): Promise<pg.QueryResult<Row>> {
    return db.query<Row>({ name, text: PG_SQL[name], values });
  }

  /** One statement outside a transaction. */
  private async one(name: PgStatementName, values: unknown[]): Promise<pg.QueryResult<Row>> {
    try {
      return await this.run(this.pool, name, values);
    } catch (err) {
      throw this.health.failed(translate(err));
    }
  }

  fault(): LastingFault | null {
    return this.health.fault;
  }

  poolStats(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  /** One read outside a transaction, its rows as arrays in select-list order (see rows.ts). */
  private async arrays(name: PgStatementName, values: unknown[]): Promise<unknown[][]> {
    try {
      return (await this.pool.query<unknown[]>({ name, text: PG_SQL[name], values, rowMode: 'array' })).rows;
    } catch (err) {
      throw this.health.failed(translate(err));
    }
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
        if (err || !client) return reject(translate(err));
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

  /** Runs fn in one transaction on one connection; retries serialization failures and deadlocks. */
  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const { client, release } = await this.checkout();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        this.health.wrote();
        return result;
      } catch (err) {
        if (isUnavailable(err)) broken = err as Error;
        else
          await client.query('ROLLBACK').catch((e: Error) => {
            broken = e;
          });
        const code = (err as { code?: string }).code;
        if (!broken && code && RETRYABLE_CODES.has(code) && attempt < MAX_ATTEMPTS) continue;
        throw this.health.failed(translate(err));
      } finally {
        // A connection that failed is destroyed rather than handed to the next request.
        release(broken);
      }
    }
  }

  async migrate(): Promise<void> {
    const { client, release } = await this.checkout();
    try {
      // One migrator per schema at a time: instances starting together wait here, then find nothing to do.
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [`marginalia:migrate:${this.options.schema}`]);
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.options.schema)}`);
        await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`);
        const applied = new Set(
          (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
        );
        for (const m of PG_MIGRATIONS) {
          if (applied.has(m.version)) continue;
          await client.query('BEGIN');
          try {
            await client.query(m.sql);
            await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
              m.version,
              m.name,
              Date.now(),
            ]);
            await client.query('COMMIT');
          } catch (err) {
            await client.query('ROLLBACK');
            throw err;
          }
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`marginalia:migrate:${this.options.schema}`]);
      }
    } catch (err) {
      throw translate(err);
    } finally {
      release();
    }
  }

  async ping(): Promise<void> {
    // While writes are refused, readiness waits for a write to get through (the probe row).
    if (this.health.writesRefused) await this.tx((c) => this.run(c, 'readinessProbe', []));
    try {
      await this.pool.query('SELECT 1');
    } catch (err) {
      throw new StoreUnavailableError('The database does not answer.', { cause: err });
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  // --- Tenants and credentials ---

  async credentialsVersion(): Promise<number> {
    return Number((await this.one('credentialsVersion', [])).rows[0]!.version);
  }

  /** A write to keys or tokens: one transaction that also bumps the credentials version. */
  private writeCredentials<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.tx(async (c) => {
      const result = await fn(c);
      await this.run(c, 'bumpCredentialsVersion', []);
      return result;
    });
  }

  async countTenants(): Promise<number> {
    return Number((await this.one('countTenants', [])).rows[0]!.n);
  }

  private async insertTenant(c: pg.PoolClient, tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Promise<void> {
    await this.run(c, 'insertTenant', [tenant.id, tenant.apiKey, tenant.name, tenant.createdAt]);
    await this.run(c, 'insertToken', [tenant.id, token.hash, token.prefix, token.createdAt]);
  }

  async createTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Promise<void> {
    await this.writeCredentials((c) => this.insertTenant(c, tenant, token));
  }

  async createFirstTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Promise<boolean> {
    return this.writeCredentials(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`marginalia:first-tenant:${this.options.schema}`]);
      if (Number((await this.run(c, 'countTenants', [])).rows[0]!.n) > 0) return false;
      await this.insertTenant(c, tenant, token);
      return true;
    });
  }

  async findCredentials(apiKey: string): Promise<Credentials | null> {
    return credentialsFrom((await this.one('credentialsByKey', [apiKey])).rows);
  }

  async listTenants(): Promise<TenantListing[]> {
    const tenants = (await this.one('allTenants', [])).rows.map((r) => ({
      ...tenantFrom(r),
      tokens: [] as TenantListing['tokens'],
    }));
    const byId = new Map(tenants.map((t) => [t.id, t]));
    for (const t of (await this.one('allTokens', [])).rows) byId.get(t.tenant_id as string)?.tokens.push(tokenListingFrom(t));
    return tenants;
  }

  async revokeTenant(apiKey: string, at: number): Promise<boolean> {
    return this.writeCredentials(async (c) => ((await this.run(c, 'revokeTenant', [apiKey, at])).rowCount ?? 0) > 0);
  }

  async setTenantDisabled(apiKey: string, disabled: boolean): Promise<boolean> {
    return this.writeCredentials(async (c) => ((await this.run(c, 'setDisabled', [apiKey, disabled])).rowCount ?? 0) > 0);
  }

  async addToken(tenantId: string, token: TokenRecord): Promise<void> {
    await this.writeCredentials((c) => this.run(c, 'insertToken', [tenantId, token.hash, token.prefix, token.createdAt]));
  }

  async listTokens(tenantId: string): Promise<(TokenRecord & { revoked: boolean })[]> {
    return (await this.one('tokensOf', [tenantId])).rows.map(tokenFrom);
  }

  async revokeToken(tenantId: string, tokenHash: string, at: number): Promise<boolean> {
    return this.writeCredentials(async (c) => ((await this.run(c, 'revokeToken', [tenantId, tokenHash, at])).rowCount ?? 0) > 0);
  }

  // --- Users ---

  async upsertUsers(tenantId: string, organizationId: string, scope: Scope, users: UserWrite[], now: number): Promise<void> {
    await this.tx(async (c) => {
      for (const u of inKeyOrder(users, (x) => x.userId)) {
        await this.run(c, 'upsertUser', [
          tenantId,
          organizationId,
          u.userId,
          u.name ?? null,
          u.email ?? null,
          u.photoUrl ?? null,
          now,
        ]);
        if (scope) await this.run(c, 'insertMembership', [tenantId, organizationId, scope.kind, scope.id, u.userId]);
      }
    });
  }

  async updateUsers(
    tenantId: string,
    organizationId: string,
    scope: Scope,
    users: UserWrite[],
    now: number,
  ): Promise<Set<string>> {
    return this.tx(async (c) => {
      const updated = new Set<string>();
      for (const u of inKeyOrder(users, (x) => x.userId)) {
        const fields = [tenantId, organizationId, u.userId, u.name ?? null, u.email ?? null, u.photoUrl ?? null, now];
        const r = scope
          ? await this.run(c, 'updateMember', [...fields, scope.kind, scope.id])
          : await this.run(c, 'updateUser', fields);
        if ((r.rowCount ?? 0) > 0) updated.add(u.userId);
      }
      return updated;
    });
  }

  async findProfiles(tenantId: string, organizationId: string, userIds: string[]): Promise<Map<string, Profile>> {
    const profiles = new Map<string, Profile>();
    if (userIds.length === 0) return profiles;
    for (const r of (await this.one('profiles', [tenantId, organizationId, userIds])).rows)
      profiles.set(r.user_id as string, profileFrom(r));
    return profiles;
  }

  // --- Comment annotations ---

  async addAnnotations(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotations: NewAnnotation[],
    now: number,
  ): Promise<Set<string>> {
    return this.tx(async (c) => {
      const taken = new Set<string>();
      for (const a of inKeyOrder(annotations, (x) => x.annotationId)) {
        const added = await this.run(c, 'insertAnnotation', [
          tenantId,
          organizationId,
          documentId,
          a.annotationId,
          jsonOrNull(a.location),
          a.locationId,
          jsonOrNull(a.context),
          JSON.stringify(a.status),
          now,
        ]);
        if (added.rowCount === 0) {
          taken.add(a.annotationId);
          continue;
        }
        await this.insertComments(c, [tenantId, organizationId, documentId, a.annotationId], a.comments, 0, now);
      }
      return taken;
    });
  }

  private async insertComments(
    c: pg.PoolClient,
    thread: string[],
    comments: NewComment[],
    afterSeq: number,
    now: number,
  ): Promise<void> {
    await this.run(c, 'insertComments', [
      ...thread,
      now,
      comments.map((x) => x.commentId),
      comments.map((_, i) => afterSeq + i + 1),
      comments.map((x) => x.html),
      comments.map((x) => x.text),
      comments.map((x) => x.from.userId),
      comments.map((x) => x.from.name),
      comments.map((x) => x.from.email),
    ]);
  }

  async addComments(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotationId: string,
    comments: CommentDraft[],
    assignIds: CommentIdAssigner,
    now: number,
  ): Promise<AddCommentsResult> {
    const thread = [tenantId, organizationId, documentId, annotationId];
    return this.tx(async (c): Promise<AddCommentsResult> => {
      if ((await this.run(c, 'lockAnnotation', thread)).rowCount === 0) return { kind: 'annotation_not_found' };
      const chosen = comments.flatMap((x) => (x.commentId === undefined ? [] : [x.commentId]));
      if (chosen.length > 0) {
        const taken = new Set((await this.run(c, 'takenCommentIds', [...thread, chosen])).rows.map((r) => Number(r.comment_id)));
        const first = chosen.find((id) => taken.has(id));
        if (first !== undefined) return { kind: 'comment_exists', commentId: first };
      }
      const tail = (await this.run(c, 'threadTail', thread)).rows[0]!;
      const assigned = assignIds(
        comments.map((x) => x.commentId),
        Number(tail.max_id),
      );
      if (assigned.kind === 'exhausted') return { kind: 'ids_exhausted' };
      if (assigned.kind === 'clash') return { kind: 'comment_exists', commentId: assigned.commentId };
      const placed = comments.map((x, i) => ({ ...x, commentId: assigned.commentIds[i]! }));
      await this.insertComments(c, thread, placed, Number(tail.max_seq), notBefore(now, Number(tail.last_created)));
      return { kind: 'added', commentIds: assigned.commentIds };
    });
  }

  async getComments(tenantId: string, q: CommentQuery): Promise<StoredComment[]> {
    const rows = await this.arrays('comments', [
      tenantId,
      q.organizationId,
      q.documentId,
      q.annotationId,
      q.userIds,
      q.commentIds,
    ]);
    return rows.map(commentFrom);
  }

  // --- Notifications ---

  async addNotification(tenantId: string, organizationId: string, n: NewNotification): Promise<boolean> {
    return this.tx(async (c) => {
      const inserted = await this.run(c, 'insertNotification', [
        tenantId,
        organizationId,
        n.notificationId,
        n.documentId,
        n.locationId,
        n.actionUser.userId,
        n.actionUser.name,
        n.actionUser.email,
        n.headlineTemplate,
        JSON.stringify(n.headlineData),
        n.bodyMessage,
        JSON.stringify(n.sourceData),
        n.timestamp,
        recipientsJson(n.recipients),
      ]);
      if (inserted.rowCount === 0) return false;
      await this.run(c, 'insertRecipients', [
        tenantId,
        organizationId,
        n.notificationId,
        n.timestamp,
        n.recipients.map((r) => r.userId),
      ]);
      return true;
    });
  }

  async getNotifications(tenantId: string, q: NotificationQuery): Promise<StoredNotification[]> {
    const after = q.after ?? FROM_START;
    const rows =
      q.userId !== null
        ? await this.arrays('notificationsByUser', [
            tenantId,
            q.organizationId,
            q.userId,
            q.documentId,
            q.locationId,
            q.notificationIds,
            after.timestamp,
            after.notificationId,
            q.limit,
          ])
        : await this.arrays('notificationsByDocument', [
            tenantId,
            q.organizationId,
            q.documentId,
            q.locationId,
            q.notificationIds,
            after.timestamp,
            after.notificationId,
            q.limit,
          ]);
    return rows.map(notificationFrom);
  }
}

/**
 * A batch's rows in key order, so that two transactions writing the same keys lock them in the same
 * order and cannot deadlock each other. Results are keyed by id, so the order they are written in
 * does not show.
 */
function inKeyOrder<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
