// The embedded store: better-sqlite3 in WAL mode. Statements are prepared once at open. Each write
// method runs synchronously inside one IMMEDIATE transaction, so a batch is all-or-nothing and
// concurrent processes queue for the write lock (up to the busy timeout) instead of deadlocking;
// reads run as single statements, each its own consistent snapshot.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SqliteCheck, SqliteSynchronous } from '../../config/index.js';
import { StorageHealth, StoreUnavailableError, type FaultListener, type LastingFault } from '../health.js';
import type {
  AddCommentsResult,
  CommentDraft,
  CommentIdAssigner,
  CommentQuery,
  Credentials,
  NewAnnotation,
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
import { MIGRATIONS } from './migrations.js';
import { filterSetKey, notificationsSql, SQL, type NotificationFilterSet, type StatementName } from './statements.js';

/** How many prepared notification reads (filter set x page size) are kept. */
const NOTIFICATION_READ_CACHE_SIZE = 64;

export interface SqliteOptions {
  path: string;
  busyTimeoutMs: number;
  synchronous: SqliteSynchronous;
  /** How the file is checked for damage when it is opened (default quick). */
  checkAtStart?: SqliteCheck;
  onFault?: FaultListener;
  /** Called with the text of every statement run (better-sqlite3's verbose): for tests and debugging. */
  trace?: (sql: string) => void;
}

/**
 * What a better-sqlite3 error means for the caller: the (extended) result code decides. Anything
 * else is a bug and stays as it is.
 */
function classify(err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return err;
  const unavailable = (reason: StoreUnavailableError['reason'], message: string) =>
    new StoreUnavailableError(message, { cause: err, reason });
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return unavailable('busy', 'The database is busy.');
  if (code === 'SQLITE_FULL') return unavailable('storage_full', 'The storage of the database is full.');
  if (code.startsWith('SQLITE_READONLY')) return unavailable('read_only', 'The database file cannot be written.');
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return unavailable('damaged', 'The database file is damaged.');
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN'))
    return unavailable('unreachable', 'The database file cannot be read or written.');
  return err;
}

type Statements = Record<StatementName, Database.Statement>;

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private stmts: Statements | null = null;
  /** Prepared notification reads by filter set and limit, most recently used last. */
  private readonly notificationReads = new Map<string, Database.Statement>();
  private readonly health: StorageHealth;

  constructor(private readonly options: SqliteOptions) {
    this.health = new StorageHealth(options.onFault);
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path, options.trace ? { verbose: (sql) => options.trace!(String(sql)) } : {});
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous}`);
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    this.db.pragma('foreign_keys = ON');
  }

  /** A write to keys or tokens: one transaction that also bumps the credentials version. */
  private writeCredentials<T>(fn: () => T): T {
    return this.write(() => {
      const result = fn();
      this.s.bumpCredentialsVersion.run();
      return result;
    });
  }

  /**
   * Runs fn in one IMMEDIATE transaction; a write that commits tells the health that writes get
   * through. A damaged file takes no writes: writing to it can spread the damage.
   */
  private write<T>(fn: () => T): T {
    const damage = this.health.damaged;
    if (damage) throw damage;
    const result = this.guard(() => this.db.transaction(fn).immediate());
    this.health.wrote();
    return result;
  }

  /** Runs fn, turning what the database says about itself (busy, full, damaged) into StoreUnavailableError. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw this.health.failed(classify(err));
    }
  }

  fault(): LastingFault | null {
    return this.health.fault;
  }

  private get s(): Statements {
    if (!this.stmts) throw new Error('SqliteStore used before migrate()');
    return this.stmts;
  }

  async migrate(): Promise<void> {
    this.write(() => {
      this.db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
      const applied = new Set(
        (this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
      );
      const record = this.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
      for (const m of MIGRATIONS) {
        if (applied.has(m.version)) continue;
        this.db.exec(m.sql);
        record.run(m.version, m.name, Date.now());
      }
    });
    const stmts = {} as Statements;
    for (const [name, sql] of Object.entries(SQL)) stmts[name as StatementName] = this.db.prepare(sql);
    stmts.comments.raw(true); // rows as arrays, read by commentFrom
    this.stmts = stmts;
    this.checkForDamage();
  }

  /**
   * PRAGMA quick_check (or integrity_check) at open: damage found here is reported at once, instead
   * of by the first request that reads the damaged page. The store still opens: readiness fails and
   * writes are refused, but what can still be read can be (for instance, to be exported).
   */
  private checkForDamage(): void {
    const check = this.options.checkAtStart ?? 'quick';
    if (check === 'off') return;
    const pragma = check === 'full' ? 'integrity_check(20)' : 'quick_check(20)';
    let problems: string[];
    try {
      problems = (this.db.pragma(pragma) as Record<string, string>[])
        .map((row) => Object.values(row)[0]!)
        .filter((v) => v !== 'ok');
    } catch (err) {
      const classified = classify(err);
      if (!(classified instanceof StoreUnavailableError) || classified.reason !== 'damaged') throw err;
      problems = [(err as Error).message];
    }
    if (problems.length > 0) {
      this.health.failed(
        new StoreUnavailableError('The database file is damaged.', { reason: 'damaged', cause: new Error(problems.join('; ')) }),
      );
    }
  }

  async ping(): Promise<void> {
    const damage = this.health.damaged;
    if (damage) throw damage;
    try {
      // While writes are refused, readiness waits for a write to get through (the probe row).
      if (this.health.writesRefused) this.write(() => this.s.readinessProbe.run());
      this.guard(() => this.db.prepare('SELECT 1').get());
    } catch (err) {
      throw err instanceof StoreUnavailableError
        ? err
        : new StoreUnavailableError('The database does not answer.', { cause: err });
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  // --- Tenants and credentials ---

  async credentialsVersion(): Promise<number> {
    return this.guard(() => (this.s.credentialsVersion.get() as { version: number }).version);
  }

  async countTenants(): Promise<number> {
    return this.guard(() => (this.s.countTenants.get() as { n: number }).n);
  }

  private insertTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): void {
    this.s.insertTenant.run({ id: tenant.id, apiKey: tenant.apiKey, name: tenant.name, createdAt: tenant.createdAt });
    this.s.insertToken.run({ tenantId: tenant.id, ...token });
  }

  async createTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Promise<void> {
    this.writeCredentials(() => this.insertTenant(tenant, token));
  }

  async createFirstTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Promise<boolean> {
    return this.writeCredentials(() => {
      if ((this.s.countTenants.get() as { n: number }).n > 0) return false;
      this.insertTenant(tenant, token);
      return true;
    });
  }

  async findCredentials(apiKey: string): Promise<Credentials | null> {
    return this.guard(() => credentialsFrom(this.s.credentialsByKey.all(apiKey) as Row[]));
  }

  async listTenants(): Promise<TenantListing[]> {
    const tenants = (this.s.allTenants.all() as Row[]).map((r) => ({ ...tenantFrom(r), tokens: [] as TenantListing['tokens'] }));
    const byId = new Map(tenants.map((t) => [t.id, t]));
    for (const t of this.s.allTokens.all() as Row[]) byId.get(t.tenant_id as string)?.tokens.push(tokenListingFrom(t));
    return tenants;
  }

  async revokeTenant(apiKey: string, at: number): Promise<boolean> {
    return this.writeCredentials(() => this.s.revokeTenant.run({ apiKey, at }).changes > 0);
  }

  async setTenantDisabled(apiKey: string, disabled: boolean): Promise<boolean> {
    return this.writeCredentials(() => this.s.setDisabled.run({ apiKey, disabled: disabled ? 1 : 0 }).changes > 0);
  }

  async addToken(tenantId: string, token: TokenRecord): Promise<void> {
    this.writeCredentials(() => this.s.insertToken.run({ tenantId, ...token }));
  }

  async listTokens(tenantId: string): Promise<(TokenRecord & { revoked: boolean })[]> {
    return this.guard(() => (this.s.tokensOf.all(tenantId) as Row[]).map(tokenFrom));
  }

  async revokeToken(tenantId: string, tokenHash: string, at: number): Promise<boolean> {
    return this.writeCredentials(() => this.s.revokeToken.run({ tenantId, hash: tokenHash, at }).changes > 0);
  }

  // --- Users ---

  async upsertUsers(tenantId: string, organizationId: string, scope: Scope, users: UserWrite[], now: number): Promise<void> {
    this.write(() => {
      for (const u of users) {
        this.s.upsertUser.run({ tenantId, organizationId, now, ...profileParams(u) });
        if (scope)
          this.s.insertMembership.run({ tenantId, organizationId, kind: scope.kind, scopeId: scope.id, userId: u.userId });
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
    return this.write(() => {
      const updated = new Set<string>();
      for (const u of users) {
        const params = { tenantId, organizationId, now, ...profileParams(u) };
        const changed = scope
          ? this.s.updateMember.run({ ...params, kind: scope.kind, scopeId: scope.id }).changes
          : this.s.updateUser.run(params).changes;
        if (changed > 0) updated.add(u.userId);
      }
      return updated;
    });
  }

  async findProfiles(tenantId: string, organizationId: string, userIds: string[]): Promise<Map<string, Profile>> {
    const profiles = new Map<string, Profile>();
    if (userIds.length === 0) return profiles;
    return this.guard(() => {
      for (const r of this.s.profiles.all(tenantId, organizationId, JSON.stringify(userIds)) as Row[]) {
        profiles.set(r.user_id as string, profileFrom(r));
      }
      return profiles;
    });
  }

  // --- Comment annotations ---

  async addAnnotations(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotations: NewAnnotation[],
    now: number,
  ): Promise<Set<string>> {
    return this.write(() => {
      const taken = new Set<string>();
      for (const a of annotations) {
        if (this.s.annotationExists.get(tenantId, organizationId, documentId, a.annotationId)) {
          taken.add(a.annotationId);
          continue;
        }
        this.s.insertAnnotation.run({
          tenantId,
          organizationId,
          documentId,
          annotationId: a.annotationId,
          now,
          location: jsonOrNull(a.location),
          locationId: a.locationId,
          context: jsonOrNull(a.context),
          status: JSON.stringify(a.status),
        });
        const thread = { tenantId, organizationId, documentId, annotationId: a.annotationId };
        for (const [i, c] of a.comments.entries()) this.insertComment(thread, c, i + 1, now);
      }
      return taken;
    });
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
    return this.write((): AddCommentsResult => {
      if (!this.s.annotationExists.get(tenantId, organizationId, documentId, annotationId)) {
        return { kind: 'annotation_not_found' };
      }
      for (const c of comments) {
        if (
          c.commentId !== undefined &&
          this.s.commentExists.get(tenantId, organizationId, documentId, annotationId, c.commentId)
        ) {
          return { kind: 'comment_exists', commentId: c.commentId };
        }
      }
      const tail = this.s.threadTail.get({ tenantId, organizationId, documentId, annotationId }) as {
        maxId: number;
        maxSeq: number;
        lastCreated: number;
      };
      const assigned = assignIds(
        comments.map((c) => c.commentId),
        tail.maxId,
      );
      if (assigned.kind === 'exhausted') return { kind: 'ids_exhausted' };
      if (assigned.kind === 'clash') return { kind: 'comment_exists', commentId: assigned.commentId };
      const ids = assigned.commentIds;
      const thread = { tenantId, organizationId, documentId, annotationId };
      const createdAt = notBefore(now, tail.lastCreated);
      for (const [i, c] of comments.entries())
        this.insertComment(thread, { ...c, commentId: ids[i]! }, tail.maxSeq + i + 1, createdAt);
      return { kind: 'added', commentIds: ids };
    });
  }

  private insertComment(
    thread: { tenantId: string; organizationId: string; documentId: string; annotationId: string },
    c: { commentId: number; html: string; text: string; from: { userId: string; name: string | null; email: string | null } },
    seq: number,
    now: number,
  ): void {
    this.s.insertComment.run({
      ...thread,
      commentId: c.commentId,
      seq,
      html: c.html,
      text: c.text,
      fromUserId: c.from.userId,
      fromName: c.from.name,
      fromEmail: c.from.email,
      now,
    });
  }

  async getComments(tenantId: string, q: CommentQuery): Promise<StoredComment[]> {
    return this.guard(() => {
      const rows = this.s.comments.all({
        tenantId,
        organizationId: q.organizationId,
        documentId: q.documentId,
        annotationId: q.annotationId,
        userIds: q.userIds ? JSON.stringify(q.userIds) : null,
        commentIds: q.commentIds ? JSON.stringify(q.commentIds) : null,
      }) as unknown[][];
      return rows.map(commentFrom);
    });
  }

  // --- Notifications ---

  async addNotification(tenantId: string, organizationId: string, n: NewNotification): Promise<boolean> {
    return this.write(() => {
      const key = { tenantId, organizationId, notificationId: n.notificationId };
      const inserted = this.s.insertNotification.run({
        ...key,
        documentId: n.documentId,
        locationId: n.locationId,
        actionUserId: n.actionUser.userId,
        actionUserName: n.actionUser.name,
        actionUserEmail: n.actionUser.email,
        headlineTemplate: n.headlineTemplate,
        headlineData: JSON.stringify(n.headlineData),
        bodyMessage: n.bodyMessage,
        sourceData: JSON.stringify(n.sourceData),
        timestamp: n.timestamp,
        recipients: recipientsJson(n.recipients),
      });
      if (inserted.changes === 0) return false;
      for (const [position, { userId }] of n.recipients.entries())
        this.s.insertRecipient.run({ ...key, userId, position, timestamp: n.timestamp });
      return true;
    });
  }

  /**
   * The prepared read for a filter set and limit. Clients use a handful of page sizes, so the cache is
   * small; past its bound the least recently used statement is dropped.
   */
  private notificationRead(f: NotificationFilterSet, limit: number): Database.Statement {
    const key = `${filterSetKey(f)}:${limit}`;
    let stmt = this.notificationReads.get(key);
    if (stmt) {
      this.notificationReads.delete(key);
    } else {
      stmt = this.db.prepare(notificationsSql(f, limit)).raw(true);
      if (this.notificationReads.size >= NOTIFICATION_READ_CACHE_SIZE) {
        this.notificationReads.delete(this.notificationReads.keys().next().value!);
      }
    }
    this.notificationReads.set(key, stmt);
    return stmt;
  }

  async getNotifications(tenantId: string, q: NotificationQuery): Promise<StoredNotification[]> {
    return this.guard(() => {
      const after = q.after ?? FROM_START;
      const params = {
        tenantId,
        organizationId: q.organizationId,
        documentId: q.documentId,
        userId: q.userId,
        locationId: q.locationId,
        ids: q.notificationIds ? JSON.stringify(q.notificationIds) : null,
        afterTimestamp: after.timestamp,
        afterId: after.notificationId,
      };
      const stmt = this.notificationRead(
        {
          byUser: q.userId !== null,
          document: q.documentId !== null,
          location: q.locationId !== null,
          ids: q.notificationIds !== null,
        },
        q.limit,
      );
      return (stmt.all(params) as unknown[][]).map(notificationFrom);
    });
  }
}

function profileParams(u: UserWrite) {
  return { userId: u.userId, name: u.name ?? null, email: u.email ?? null, photoUrl: u.photoUrl ?? null };
}
