// The Store over either database: each method runs one feature's store code through the dialect, as
// a read or as a write (one transaction), and keeps the storage's health: an error that means the
// disk is full, the database read-only or the file damaged begins a fault; readiness's probe write
// getting through ends a "writes refused" one (a caller's write may change no row, and so prove
// nothing); and a damaged file takes no more writes, not even migrations (writing to it can spread
// the damage).
import { guarded, type Maybe, then } from '../maybe.js';
import { BatchSizer, DEFAULT_MOST_ROWS_PER_BATCH, DEFAULT_WRITE_BUDGET_MS, type StepResult, turn } from './batches.js';
import * as comments from './comments/comments.js';
import * as threads from './comments/threads.js';
import * as credentials from './credentials/credentials.js';
import type { CallListener, Dialect, TransactionListener } from './dialect/dialect.js';
import { type FaultListener, type LastingFault, StorageHealth, StoreUnavailableError } from './health.js';
import * as outbox from './events/outbox.js';
import { EVENTS_CHANNEL } from './events/sql.js';
import * as access from './events/access.js';
import type { Audience, EventDraft } from './events/outbox.js';
import * as events from './events/kinds.js';
import { migrate } from './migrations.js';
import * as notifications from './notifications/notifications.js';
import * as organizations from './organizations/organizations.js';
import * as signingKeys from './signing-keys/signing-keys.js';
import * as documents from './documents/documents.js';
import * as domains from './domains/domains.js';
import * as folders from './folders/folders.js';
import * as liveStates from './livestate/livestate.js';
import * as locations from './locations/locations.js';
import { all, type BatchQuery, idsInKeyOrder, type Query, type Row, run, type Work } from './sql.js';
import { ORGANIZATION_TABLES } from './organizations/sql.js';
import type {
  AddCommentsResult,
  AnnotationQuery,
  CommentChange,
  StoredThreadAnswer,
  ThreadChange,
  ThreadCounts,
  DocumentVersions,
  ThreadFilters,
  ThreadRef,
  ThreadsUpdated,
  LocationMove,
  CommentDraft,
  CommentQuery,
  Credentials,
  NewAnnotation,
  ChangeSource,
  InboxCount,
  NewNotification,
  NotificationChange,
  NotificationDeletion,
  NotificationQuery,
  NotificationSetting,
  OrganizationRecord,
  OrganizationWrite,
  ErasureJob,
  MemberQuery,
  UserDataCursor,
  UserDataPage,
  UserGroupWrite,
  AccessType,
  DocumentQuery,
  DocumentRecord,
  DocumentWrite,
  DomainsAdded,
  FolderRecord,
  FolderWrite,
  LiveStateBounds,
  LiveStateBroadcast,
  LiveStateRecord,
  Recipient,
  Profile,
  Scope,
  Store,
  EventListener,
  StoredEvent,
  StreamAccess,
  StoredComment,
  StoredNotification,
  Tenant,
  TenantListing,
  TokenRecord,
  SigningKey,
  UserWrite,
} from './store.js';
import * as users from './users/users.js';
import * as members from './users/members.js';
import * as groups from './groups/groups.js';
import * as personalData from './personal-data/export.js';
import * as erasure from './personal-data/erasure.js';
import * as webhooks from './webhooks/webhooks.js';
import * as deliveries from './webhooks/deliveries.js';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  DispatchLimits,
  NewWebhook,
  WebhookAttemptRecord,
  WebhookQueueKey,
  WebhookRecord,
} from './webhooks/types.js';

const isList = (made: readonly EventDraft[] | Work<readonly EventDraft[]>): made is readonly EventDraft[] => Array.isArray(made);

/** One numbering of a tenant's drafts: settles when it has run (rejects when it failed, after one retry). */
interface Turn {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function newTurn(): Turn {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A failed turn nobody waits for (a write's) is not an unhandled rejection; those who wait still see it.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** A tenant's numberings in this process: the one under way, and the next (wanted since it began). */
interface Numbering {
  running: Turn | null;
  next: Turn | null;
}

export interface DbStoreOptions {
  /** PostgreSQL: the least time between two numberings of a tenant's events here (MARGINALIA_EVENT_NUMBERING_MS). */
  numberingIntervalMs: number;
  /** The time a long operation's batch may hold the writer (MARGINALIA_WRITE_BUDGET_MS; batches.ts). */
  writeBudgetMs: number;
  /** The most rows a batch of a long operation takes (MARGINALIA_ERASURE_BATCH_SIZE; batches.ts). */
  mostRowsPerBatch: number;
}

export class DbStore implements Store {
  private readonly health: StorageHealth;

  constructor(
    private readonly dialect: Dialect,
    onFault?: FaultListener,
    private readonly options: DbStoreOptions = {
      numberingIntervalMs: 20,
      writeBudgetMs: DEFAULT_WRITE_BUDGET_MS,
      mostRowsPerBatch: DEFAULT_MOST_ROWS_PER_BATCH,
    },
  ) {
    this.health = new StorageHealth(onFault);
  }

  get kind(): 'sqlite' | 'postgres' {
    return this.dialect.kind;
  }

  private readonly failed = (err: unknown): never => {
    throw this.health.failed(err);
  };

  private read<T>(method: string, work: () => Work<T>): Maybe<T> {
    return guarded(() => this.dialect.read(method, work), this.failed);
  }

  /** A one-statement read (the hot ones): no closures on the way, for a synchronous answer. */
  private query<T>(method: string, q: Query<T>): Maybe<T> {
    let result: Maybe<T>;
    try {
      result = this.dialect.query(method, q);
    } catch (err) {
      throw this.health.failed(err);
    }
    return result instanceof Promise ? result.catch(this.failed) : result;
  }

  /** A damaged database takes no writes (writing to it can spread the damage) and is not ready. */
  private refuseIfDamaged(): void {
    const damage = this.health.damaged;
    if (damage) throw damage;
  }

  private batchWrite<T>(method: string, q: BatchQuery<T>): Maybe<T> {
    this.refuseIfDamaged();
    if (q.rows.length === 0) return q.map([]);
    return guarded(() => this.dialect.batchWrite(method, q), this.failed);
  }

  private write<T>(method: string, work: () => Work<T>): Maybe<T> {
    this.refuseIfDamaged();
    return guarded(() => this.dialect.write(method, work), this.failed);
  }

  private eventListener: EventListener | null = null;

  /**
   * A write and its events, in one transaction (the outbox, SPEC 13): `events` sees the write's
   * result (and may read what the write left, in the same transaction). SQLite numbers the events in
   * the transaction; PostgreSQL leaves them as drafts, and once the write has committed this process
   * numbers the tenant's drafts (numbered(), migration 21) while the write answers. Then the listener
   * hears of the tenant's new last id (the process's live streams).
   */
  private emitting<T>(
    method: string,
    tenantId: string,
    now: number,
    work: () => Work<T>,
    events: (result: T) => readonly EventDraft[] | Work<readonly EventDraft[]>,
  ): Maybe<T> {
    let last = 0;
    let drafted = 0;
    const numbersInWrite = !this.dialect.writesSideBySide;
    const written = this.write(method, function* () {
      const result = yield* work();
      const made = events(result);
      // Events made from the result alone come as a list; those that read first, as store code.
      const drafts = isList(made) ? made : yield* made;
      if (numbersInWrite) last = yield* outbox.record(tenantId, drafts, now);
      else drafted = yield* outbox.draft(tenantId, drafts, now);
      return result;
    });
    return then(written, (result) => {
      if (drafted > 0) void this.numbered(tenantId);
      if (last > 0) this.eventListener?.(tenantId, last);
      return result;
    });
  }

  /**
   * emitting, for a write whose events are made from what its store code saw (events.Seen): a new
   * Seen for every run of the work, as PostgreSQL runs it again after a serialization failure (a
   * Seen kept from the failed run would record its events twice).
   */
  private emittingSeen<T>(
    method: string,
    tenantId: string,
    now: number,
    work: () => Work<T>,
    describe: (result: T, seen: events.Seen) => readonly EventDraft[] | Work<readonly EventDraft[]>,
  ): Maybe<T> {
    let seen = new events.Seen();
    return this.emitting(
      method,
      tenantId,
      now,
      () => {
        seen = new events.Seen();
        return events.watched(work(), seen);
      },
      (result) => describe(result, seen),
    );
  }

  /**
   * PostgreSQL: numbers every committed draft of the tenant, one numbering at a time per tenant in this
   * process: writes that commit while one runs or waits share the next, which starts at most
   * numberingIntervalMs after the one before (at once when none was under way or wanted), so under load
   * a numbering serves many writes. Answers that next numbering: it settles once it has run, and
   * rejects if it failed twice (its drafts are then left to the tenant's next numbering, or the sweep's).
   */
  private readonly numberings = new Map<string, Numbering>();

  private numbered(tenantId: string): Promise<void> {
    const numbering = this.numberings.get(tenantId);
    if (numbering?.next) return numbering.next.promise;
    const turn = newTurn();
    if (numbering) numbering.next = turn;
    else {
      const started: Numbering = { running: null, next: turn };
      this.numberings.set(tenantId, started);
      void this.numberInTurn(tenantId, started);
    }
    return turn.promise;
  }

  private async numberInTurn(tenantId: string, numbering: Numbering): Promise<void> {
    const interval = this.options.numberingIntervalMs;
    const sequence = () =>
      Promise.resolve(guarded(() => this.dialect.aside('sequenceEvents', () => outbox.sequence(tenantId)), this.failed));
    let startedAt = Number.NEGATIVE_INFINITY;
    try {
      while (numbering.next) {
        // A monotonic clock, the wait capped: a step of the wall clock must not hold numberings back.
        const wait = Math.min(startedAt + interval - performance.now(), interval);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const turn = numbering.next;
        numbering.running = turn;
        numbering.next = null;
        startedAt = performance.now();
        try {
          const last = await sequence().catch(() => sequence());
          turn.resolve();
          if (last > 0) this.heard(tenantId, last);
        } catch (err) {
          turn.reject(err);
        }
        numbering.running = null;
      }
    } finally {
      this.numberings.delete(tenantId);
      numbering.next?.reject(new Error('numbering stopped'));
    }
  }

  /** Tells the listener of a tenant's new last id; a listener that throws must not stop the numberings. */
  private heard(tenantId: string, last: number): void {
    try {
      this.eventListener?.(tenantId, last);
    } catch {
      // The listener's own fault (the hub logs its failures); the events are numbered all the same.
    }
  }

  eventsNumbered(tenantId: string): Promise<void> {
    const numbering = this.numberings.get(tenantId);
    return (numbering?.next ?? numbering?.running)?.promise ?? Promise.resolve();
  }

  /**
   * Numbers drafts written before `before` that their writers left (a process stopped between commit and
   * numbering, numberings that failed): each tenant's next numbering. Fails if one of them failed.
   */
  async numberLeftDrafts(before: number): Promise<number> {
    if (!this.dialect.writesSideBySide) return 0;
    const tenants = await this.read('draftedTenants', () => outbox.draftedTenants(before));
    const failed = (await Promise.allSettled(tenants.map((t) => this.numbered(t)))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return tenants.length;
  }

  private listening = false;

  onEvents(listener: EventListener | null): void {
    this.eventListener = listener;
    // PostgreSQL: every instance's commits too (the NOTIFY of sequence_events), on a connection of its own.
    if (listener && !this.listening && this.dialect.listen) {
      this.listening = true;
      this.dialect.listen(EVENTS_CHANNEL, (payload) => {
        if (payload === null) return this.eventListener?.(null, 0);
        const space = payload.indexOf(' ');
        if (space > 0) this.eventListener?.(payload.slice(0, space), Number(payload.slice(space + 1)));
      });
    }
  }

  eventsAfter(tenantId: string, afterId: number, limit: number): Maybe<StoredEvent[]> {
    return this.read('eventsAfter', () => outbox.after(tenantId, afterId, limit));
  }

  lastEventId(tenantId: string): Maybe<number> {
    return this.read('lastEventId', () => outbox.lastId(tenantId));
  }

  pruneEvents(before: number, limit: number): Maybe<number> {
    return this.write('pruneEvents', () => outbox.prune(before, limit));
  }

  streamAccess(tenantId: string, organizationId: string, documentId: string, userId: string): Maybe<StreamAccess> {
    return this.read('streamAccess', () => access.streamAccess(tenantId, organizationId, documentId, userId));
  }

  observeCalls(listener: CallListener | null): void {
    this.dialect.onCall = listener;
  }

  observeTransactions(listener: TransactionListener | null): void {
    this.dialect.onTransaction = listener;
  }

  async migrate(): Promise<void> {
    const damage = this.dialect.damageAtOpen();
    if (damage.length > 0) {
      this.health.failed(
        new StoreUnavailableError('The database file is damaged.', { reason: 'damaged', cause: new Error(damage.join('; ')) }),
      );
      return;
    }
    await migrate(this.dialect);
  }

  fault(): LastingFault | null {
    return this.health.fault;
  }

  async ping(): Promise<void> {
    this.refuseIfDamaged();
    // While writes are refused, readiness waits for a write to get through (the probe row).
    if (this.health.writesRefused) {
      await this.write('probeWrite', () => credentials.probeWrite());
      this.health.wrote();
    }
    try {
      await this.dialect.ping();
    } catch (err) {
      throw err instanceof StoreUnavailableError
        ? err
        : new StoreUnavailableError('The database does not answer.', { cause: err });
    }
  }

  poolStats(): { total: number; idle: number; waiting: number } | undefined {
    return this.dialect.poolStats?.();
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.numberings.keys()].map((t) => this.eventsNumbered(t)));
    return this.dialect.close();
  }

  // --- Tenants and credentials ---

  credentialsVersion(): Maybe<number> {
    return this.query('credentialsVersion', credentials.version());
  }

  countTenants(): Maybe<number> {
    return this.read('countTenants', () => credentials.countTenants());
  }

  createTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Maybe<void> {
    return this.write('createTenant', () => credentials.createTenant(tenant, token));
  }

  createFirstTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Maybe<boolean> {
    return this.write('createFirstTenant', () => credentials.createFirstTenant(tenant, token));
  }

  findCredentials(apiKey: string): Maybe<Credentials | null> {
    return this.read('findCredentials', () => credentials.find(apiKey));
  }

  listTenants(): Maybe<TenantListing[]> {
    return this.read('listTenants', () => credentials.listTenants());
  }

  revokeTenant(apiKey: string, at: number): Maybe<boolean> {
    return this.write('revokeTenant', () => credentials.revokeTenant(apiKey, at));
  }

  setTenantDisabled(apiKey: string, disabled: boolean): Maybe<boolean> {
    return this.write('setTenantDisabled', () => credentials.setTenantDisabled(apiKey, disabled));
  }

  findSigningKey(tenantId: string): Maybe<SigningKey | null> {
    return this.read('findSigningKey', () => signingKeys.find(tenantId));
  }

  ensureSigningKey(tenantId: string, candidate: SigningKey): Maybe<SigningKey> {
    return this.write('ensureSigningKey', () => signingKeys.ensure(tenantId, candidate));
  }

  addToken(tenantId: string, token: TokenRecord): Maybe<void> {
    return this.write('addToken', () => credentials.addToken(tenantId, token));
  }

  listTokens(tenantId: string): Maybe<(TokenRecord & { revoked: boolean })[]> {
    return this.read('listTokens', () => credentials.listTokens(tenantId));
  }

  revokeToken(tenantId: string, tokenHash: string, at: number): Maybe<boolean> {
    return this.write('revokeToken', () => credentials.revokeToken(tenantId, tokenHash, at));
  }

  // --- Users ---

  upsertUsers(tenantId: string, organizationId: string, scope: Scope, list: UserWrite[], now: number): Maybe<void> {
    return this.emitting(
      'upsertUsers',
      tenantId,
      now,
      () => users.upsert(tenantId, organizationId, scope, list, now),
      () =>
        events.usersWritten(
          'user.add',
          tenantId,
          organizationId,
          scope,
          list.map((u) => u.userId),
        ),
    );
  }

  updateUsers(tenantId: string, organizationId: string, scope: Scope, list: UserWrite[], now: number): Maybe<Set<string>> {
    // One statement on PostgreSQL still, but now in a transaction with its events (batched, below).
    const q = users.update(tenantId, organizationId, scope, list, now);
    return this.emitting(
      'updateUsers',
      tenantId,
      now,
      () => this.batched(q),
      (updated) =>
        events.usersWritten(
          'user.update',
          tenantId,
          organizationId,
          scope,
          list.map((u) => u.userId).filter((id) => updated.has(id)),
        ),
    );
  }

  /**
   * A batch write (sql.ts: BatchQuery) as store code, for a transaction that does more: on SQLite its
   * `sqliteBefore` statements and then the statement once per row, as batchWrite runs them; on
   * PostgreSQL the one statement with each column an array.
   */
  private batched<T>(q: BatchQuery<T>): Work<T> {
    const asArrays = this.dialect.batchesAsArrays;
    return (function* () {
      if (asArrays) {
        const columns = Object.fromEntries(Object.keys(q.rows[0] ?? {}).map((k) => [k, q.rows.map((row) => row[k] ?? null)]));
        return q.map(yield* all(q.statement, { ...q.params, ...columns }));
      }
      const returned: Row[] = [];
      for (const s of q.sqliteBefore ?? []) {
        if (/\bRETURNING\b/i.test(s.sqlite.text)) returned.push(...(yield* all(s, q.params)));
        else yield* run(s, q.params);
      }
      for (const row of q.rows) returned.push(...(yield* all(q.statement, { ...q.params, ...row })));
      return q.map(returned);
    })();
  }

  findProfiles(tenantId: string, organizationId: string, userIds: string[]): Maybe<Map<string, Profile>> {
    return this.read('findProfiles', () => users.profiles(tenantId, organizationId, userIds));
  }

  organizationProfiles(tenantId: string, organizationId: string, limit: number): Maybe<Profile[]> {
    return this.query('organizationProfiles', users.organizationProfiles(tenantId, organizationId, limit));
  }

  // --- Comment annotations ---

  addAnnotations(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotations: NewAnnotation[],
    now: number,
    notify = false,
  ): Maybe<Set<string>> {
    return this.emittingSeen(
      'addAnnotations',
      tenantId,
      now,
      () => comments.addAnnotations(tenantId, organizationId, documentId, annotations, now, notify),
      (_, seen) => [
        ...events.threadsAdded(
          organizationId,
          documentId,
          annotations.map((a) => a.annotationId),
          seen,
        ),
        ...events.notificationsSeen(organizationId, seen),
      ],
    );
  }

  addComments(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotationId: string,
    drafts: CommentDraft[],
    now: number,
    notify = false,
  ): Maybe<AddCommentsResult> {
    const thread = { tenantId, organizationId, documentId, annotationId };
    return this.emittingSeen(
      'addComments',
      tenantId,
      now,
      () => comments.addComments(thread, drafts, now, notify),
      (result, seen) =>
        result.kind === 'added'
          ? [...events.commentsAdded(organizationId, documentId, seen), ...events.notificationsSeen(organizationId, seen)]
          : [],
    );
  }

  getComments(tenantId: string, query: CommentQuery): Maybe<StoredComment[]> {
    return this.query('getComments', comments.comments(tenantId, query));
  }

  getAnnotations(tenantId: string, q: AnnotationQuery): Maybe<StoredThreadAnswer[]> {
    return this.query('getAnnotations', threads.annotations(tenantId, q));
  }

  updateAnnotations(tenantId: string, filters: ThreadFilters, change: ThreadChange, now: number): Maybe<ThreadsUpdated> {
    // A status named: the threads' statuses before, so that a status_change is told only where it changed.
    let before: Map<string, string> | null = null;
    return this.emitting(
      'updateAnnotations',
      tenantId,
      now,
      function* () {
        before = change.status ? yield* events.threadStatuses(tenantId, filters) : null;
        return yield* threads.updateAnnotations(tenantId, filters, change, now);
      },
      (updated) => events.threadsUpdated(tenantId, filters, updated, before),
    );
  }

  deleteAnnotations(tenantId: string, filters: ThreadFilters, now: number): Maybe<string[]> {
    return this.emitting(
      'deleteAnnotations',
      tenantId,
      now,
      () => threads.deleteAnnotations(tenantId, filters),
      (ids) => events.threadsDeleted(filters.organizationId, filters.documentId, ids),
    );
  }

  documentVersions(tenantId: string, organizationId: string, documentId: string): Maybe<DocumentVersions> {
    return this.query('documentVersions', threads.documentVersions(tenantId, organizationId, documentId));
  }

  countAnnotations(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    userId: string,
    statusIds: string[] | null,
  ): Maybe<ThreadCounts> {
    return this.query('countAnnotations', threads.countAnnotations(tenantId, organizationId, documentIds, userId, statusIds));
  }

  markAnnotationsRead(
    tenantId: string,
    organizationId: string,
    documentId: string,
    userId: string,
    annotationIds: string[] | null,
    now: number,
  ): Maybe<number> {
    return this.emitting(
      'markAnnotationsRead',
      tenantId,
      now,
      () => threads.markRead(tenantId, organizationId, documentId, userId, annotationIds, now),
      (read) => (read > 0 ? [events.threadsRead(organizationId, documentId, userId, annotationIds)] : []),
    );
  }

  updateComments(
    tenantId: string,
    thread: ThreadRef,
    commentIds: number[],
    change: CommentChange,
    now: number,
  ): Maybe<number[] | null> {
    return this.emittingSeen(
      'updateComments',
      tenantId,
      now,
      () => threads.updateComments(tenantId, thread, commentIds, change, now),
      function* (changed, seen) {
        if (!changed) return [];
        return [
          ...(yield* events.commentsUpdated(tenantId, thread, changed)),
          ...events.notificationsSeen(thread.organizationId, seen),
        ];
      },
    );
  }

  moveLocation(tenantId: string, organizationId: string, documentId: string, move: LocationMove, now: number) {
    const document = { tenantId, organizationId, documentId };
    const f = { organizationId, documentId, annotationIds: null, locationIds: null, userIds: null, statusIds: null };
    return this.emitting(
      'moveLocation',
      tenantId,
      now,
      () => locations.move(document, move, now),
      function* (moved) {
        const threads = yield* events.threadsUpdated(
          tenantId,
          f,
          { ids: moved.threads, reauthored: new Map(), profiled: [] },
          null,
        );
        return [...threads, ...events.notificationsChanged(organizationId, [], moved.notifications, new Set())];
      },
    );
  }

  deleteLocationData(tenantId: string, organizationId: string, documentId: string, locationId: string, now: number) {
    const document = { tenantId, organizationId, documentId };
    // Whom each notification was addressed to, read first (after the threads are locked, in the lock
    // order of locations/update): the delete leaves nothing to read it from.
    const audiences = new Map<string, Audience>();
    return this.emitting(
      'deleteLocationData',
      tenantId,
      now,
      function* () {
        const located = yield* locations.locate(document, locationId);
        for (const q of located.notifications)
          for (const [id, audience] of yield* events.deletionAudiences(tenantId, q)) audiences.set(id, audience);
        return yield* locations.removeData(document, located);
      },
      (deleted) => [
        ...events.threadsDeleted(organizationId, documentId, deleted.threads),
        ...events.notificationsDeleted(organizationId, deleted.notifications, audiences),
      ],
    );
  }

  deleteComments(tenantId: string, thread: ThreadRef, commentIds: number[] | null, now: number): Maybe<number[] | null> {
    return this.emitting(
      'deleteComments',
      tenantId,
      now,
      () => threads.deleteComments(tenantId, thread, commentIds, now),
      (deleted) => (deleted ? events.commentsDeleted(thread, deleted) : []),
    );
  }

  // --- Notifications ---

  addNotification(tenantId: string, organizationId: string, notification: NewNotification): Maybe<boolean> {
    return this.emitting(
      'addNotification',
      tenantId,
      notification.timestamp,
      () => notifications.add(tenantId, organizationId, notification),
      (added) => (added ? [events.notificationAdded(organizationId, notification)] : []),
    );
  }

  getNotifications(tenantId: string, query: NotificationQuery): Maybe<StoredNotification[]> {
    return this.query('getNotifications', notifications.read(tenantId, query));
  }

  changeNotifications(
    tenantId: string,
    organizationId: string,
    changes: readonly NotificationChange[],
    render: (row: ChangeSource, change: NotificationChange) => { answer: string; row: ChangeSource },
    now: number,
  ): Maybe<Set<string>> {
    // What render made of each notification whose content changed: their events carry the new answer.
    let rendered: events.RenderedChanges = new Map();
    return this.emitting(
      'changeNotifications',
      tenantId,
      now,
      () => {
        const made: events.RenderedChanges = new Map();
        rendered = made;
        return notifications.change(tenantId, organizationId, changes, (row, change) => {
          const out = render(row, change);
          made.set(change.id, out);
          return out;
        });
      },
      (found) => events.notificationsChanged(organizationId, changes, rendered, found),
    );
  }

  deleteNotifications(tenantId: string, query: NotificationDeletion, now: number): Maybe<string[]> {
    // Whom each was addressed to, read first: the delete leaves nothing to read it from.
    let audiences = new Map<string, Audience>();
    return this.emitting(
      'deleteNotifications',
      tenantId,
      now,
      function* () {
        audiences = yield* events.deletionAudiences(tenantId, query);
        return yield* notifications.remove(tenantId, query);
      },
      (deleted) => events.notificationsDeleted(query.organizationId, deleted, audiences),
    );
  }

  countNotifications(tenantId: string, organizationId: string, userId: string, documentId: string | null): Maybe<InboxCount> {
    return this.query('countNotifications', notifications.count(tenantId, organizationId, userId, documentId));
  }

  markNotificationsRead(
    tenantId: string,
    organizationId: string,
    user: Recipient,
    documentId: string | null,
    notificationIds: string[] | null,
    now: number,
  ): Maybe<number> {
    return this.emitting(
      'markNotificationsRead',
      tenantId,
      now,
      () => notifications.markRead(tenantId, organizationId, user, documentId, notificationIds),
      (read) => (read > 0 ? [events.notificationsRead(organizationId, user.userId, documentId, notificationIds)] : []),
    );
  }

  notificationSettings(
    tenantId: string,
    organizationId: string,
    userId: string,
    documentIds: readonly string[],
  ): Maybe<Map<string, NotificationSetting>> {
    return this.read('notificationSettings', () => notifications.settingsOf(tenantId, organizationId, userId, documentIds));
  }

  setNotificationSettings(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    userIds: readonly string[],
    setting: Partial<NotificationSetting>,
    now: number,
  ): Maybe<void> {
    return this.emitting(
      'setNotificationSettings',
      tenantId,
      now,
      () => notifications.setSettings(tenantId, organizationId, documentIds, userIds, setting),
      () => events.settingsSet(organizationId, documentIds, userIds, setting),
    );
  }

  // --- Organizations ---

  addOrganizations(tenantId: string, entries: readonly OrganizationWrite[], now: number): Maybe<void> {
    const ids = entries.map((e) => e.organizationId);
    return this.emitting(
      'addOrganizations',
      tenantId,
      now,
      () => organizations.add(tenantId, entries, now),
      () => events.organizationsWritten('organization.add', tenantId, ids),
    );
  }

  updateOrganizations(tenantId: string, entries: readonly OrganizationWrite[], now: number): Maybe<Set<string>> {
    const ids = entries.map((e) => e.organizationId);
    return this.emitting(
      'updateOrganizations',
      tenantId,
      now,
      () => organizations.update(tenantId, entries, now),
      (updated) =>
        events.organizationsWritten(
          'organization.update',
          tenantId,
          ids.filter((id) => updated.has(id)),
        ),
    );
  }
  setOrganizationsDisabled(
    tenantId: string,
    organizationIds: readonly string[],
    disabled: boolean,
    now: number,
  ): Maybe<Set<string>> {
    return this.emitting(
      'setOrganizationsDisabled',
      tenantId,
      now,
      () => organizations.setDisabled(tenantId, organizationIds, disabled, now),
      (found) =>
        events.organizationsWritten(
          'organization.update',
          tenantId,
          organizationIds.filter((id) => found.has(id)),
        ),
    );
  }

  /**
   * Each organization in three parts (organizations.ts): marked deleting, its rows a batch at a time
   * (inBatches), then the row with its organization.delete event. Answers those that existed.
   */
  async deleteOrganizations(tenantId: string, organizationIds: readonly string[], now: number): Promise<Set<string>> {
    const deleted = new Set<string>();
    for (const organizationId of idsInKeyOrder(organizationIds)) {
      if (!(await this.write('markOrganizationDeleting', () => organizations.markDeleting(tenantId, organizationId)))) continue;
      deleted.add(organizationId);
      for (const table of ORGANIZATION_TABLES) {
        await this.inBatches('deleteOrganizations', this.options.mostRowsPerBatch, (_, limit) =>
          organizations.deleteSome(table, tenantId, organizationId, limit),
        );
      }
      await this.emitting(
        'deleteOrganizations',
        tenantId,
        now,
        () => organizations.finishDeletion(tenantId, organizationId),
        // A deletion beside this one may have deleted the row (and told of it) first.
        (gone) => (gone ? events.organizationsDeleted([organizationId]) : []),
      );
    }
    return deleted;
  }

  getOrganizations(tenantId: string, ids: string[] | null, after: string | null, limit: number): Maybe<OrganizationRecord[]> {
    return this.read('getOrganizations', () => organizations.page(tenantId, ids, after, limit));
  }

  // --- Members, user groups and personal data ---

  getMembers(tenantId: string, q: MemberQuery): Maybe<Profile[]> {
    return this.read('getMembers', () => members.members(tenantId, q));
  }

  deleteMembers(tenantId: string, organizationId: string, scope: Scope, userIds: string[], now: number): Maybe<Set<string>> {
    return this.emitting(
      'deleteMembers',
      tenantId,
      now,
      () => members.removeMembers(tenantId, organizationId, scope, userIds),
      (removed) =>
        events.usersDeleted(
          organizationId,
          scope,
          [...new Set(userIds)].filter((id) => removed.has(id)),
        ),
    );
  }

  addUserGroups(tenantId: string, organizationId: string, list: readonly UserGroupWrite[], now: number): Maybe<void> {
    return this.emitting(
      'addUserGroups',
      tenantId,
      now,
      () => groups.addGroups(tenantId, organizationId, list, now),
      () => events.groupsAdded(organizationId, list),
    );
  }

  addGroupMembers(tenantId: string, organizationId: string, groupId: string, userIds: string[], now: number): Maybe<boolean> {
    return this.emitting(
      'addGroupMembers',
      tenantId,
      now,
      () => groups.addGroupMembers(tenantId, organizationId, groupId, userIds),
      (found) => (found ? events.groupMembersChanged('organization.usergroup_users_add', organizationId, groupId, userIds) : []),
    );
  }

  deleteGroupMembers(
    tenantId: string,
    organizationId: string,
    groupId: string,
    userIds: string[] | null,
    now: number,
  ): Maybe<string[] | null> {
    return this.emitting(
      'deleteGroupMembers',
      tenantId,
      now,
      () => groups.deleteGroupMembers(tenantId, organizationId, groupId, userIds),
      (removed) =>
        removed ? events.groupMembersChanged('organization.usergroup_users_delete', organizationId, groupId, removed) : [],
    );
  }

  getUserData(
    tenantId: string,
    organizationId: string,
    userId: string,
    cursor: UserDataCursor,
    limit: number,
  ): Maybe<UserDataPage> {
    return this.read('getUserData', () => personalData.userData(tenantId, organizationId, userId, cursor, limit));
  }

  /**
   * A long operation's step, a batch at a time: each batch its own transaction, sized to the write
   * budget from the time the last one took, with a turn of the event loop after it (batches.ts), so
   * other writers, and this process's other requests, go on meanwhile. Answers how many batches ran.
   */
  private async inBatches(
    method: string,
    most: number,
    step: (cursor: unknown, limit: number) => Work<StepResult>,
  ): Promise<number> {
    const sizer = new BatchSizer(this.options.writeBudgetMs, most);
    let cursor: unknown = null;
    for (let batches = 1; ; batches++) {
      const at = cursor;
      const limit = sizer.next;
      const started = performance.now();
      const result = await this.write(method, () => step(at, limit));
      sizer.took(performance.now() - started);
      await turn();
      if (result.done) return batches;
      cursor = result.cursor;
    }
  }

  /**
   * Only where the users have rows or are named (the index by user of migration 27): users found
   * nowhere cost one read. In each organization every step runs once for all the users together, a
   * batch at a time (inBatches): the steps that find rows by user for the users with a row of their own
   * there, the scans of what may name a user in its JSON only where one is named (personal-data/erasure.ts).
   */
  async eraseUserData(
    tenantId: string,
    organizationIds: string[] | null,
    userIds: string[],
    batchSize: number,
    job: { jobId: string; now: () => number },
  ): Promise<number> {
    const visits = await this.read('erasureOrganizations', () => erasure.organizationsOf(tenantId, userIds, organizationIds));
    if (visits.length > 0) await this.dialect.freshenStatistics?.(erasure.ERASED_TABLES);
    let tasks = 0;
    const steps = (step: (cursor: unknown, limit: number) => Work<StepResult>) =>
      this.inBatches('eraseUserData', batchSize, step);
    for (const { organizationId, userIds: here, named } of visits) {
      const present = await this.read('erasureUsersWithRows', () => erasure.usersWithRows(tenantId, organizationId, here));
      await turn();
      for (const step of erasure.ERASURE_STEPS) {
        const users = step.byUser ? present : named;
        if (users.length === 0) continue;
        const scope = { tenantId, organizationId, userIds: users };
        tasks += await steps((at, limit) => step.run(scope, at, limit));
      }
      tasks += await steps((at, limit) => erasure.forgetVisit({ tenantId, organizationId, userIds: here }, at, limit));
    }
    // Then the tenant's history, once for every organization: the events and deliveries naming the users
    // go, and the erasure records none of its own (an erasure leaves no trace, docs/decisions.md).
    const history = {
      tenantId,
      organizationIds: organizationIds ? new Set(organizationIds) : null,
      userIds,
      visited: new Map(visits.map((v) => [v.organizationId, v.userIds])),
      found: false,
    };
    for (const step of erasure.HISTORY_STEPS) tasks += await steps((at, limit) => step.run(history, at, limit));
    await this.write('recordErasureJob', () => erasure.recordJob(tenantId, job.jobId, tasks, job.now()));
    // The erased values are in no row now, but still in the WAL (SQLite), or in dead row versions
    // (PostgreSQL) until vacuumed: scrubbed before the answer, when anything was erased.
    if (visits.length > 0 || history.found) await this.scrub(erasure.ERASED_TABLES);
    return tasks;
  }

  /**
   * The dialect's scrub. On PostgreSQL a VACUUM that fails (a statement timeout on a large table) leaves
   * the dead row versions to autovacuum, as before the erasure: the erasure itself is done, and is answered so.
   */
  private async scrub(tables: readonly string[]): Promise<void> {
    try {
      await this.dialect.scrub(tables);
    } catch (err) {
      if (!this.dialect.scrubMayFail) throw this.health.failed(err);
    }
  }

  erasureJob(tenantId: string, jobId: string): Maybe<ErasureJob | null> {
    return this.read('erasureJob', () => personalData.erasureJob(tenantId, jobId));
  }

  // --- Documents and folders ---

  addDocuments(
    tenantId: string,
    organizationId: string,
    folderId: string | null,
    entries: readonly DocumentWrite[],
    now: number,
  ): Maybe<void> {
    return this.emitting(
      'addDocuments',
      tenantId,
      now,
      () => documents.add(tenantId, organizationId, folderId, entries, now),
      () =>
        events.documentsWritten(
          'document.add',
          tenantId,
          organizationId,
          entries.map((e) => e.documentId),
        ),
    );
  }

  updateDocuments(tenantId: string, organizationId: string, entries: readonly DocumentWrite[], now: number): Maybe<Set<string>> {
    return this.emitting(
      'updateDocuments',
      tenantId,
      now,
      () => documents.update(tenantId, organizationId, entries, now),
      (updated) =>
        events.documentsWritten(
          'document.update',
          tenantId,
          organizationId,
          entries.map((e) => e.documentId).filter((id) => updated.has(id)),
        ),
    );
  }

  getDocuments(tenantId: string, query: DocumentQuery): Maybe<DocumentRecord[]> {
    return this.read('getDocuments', () => documents.page(tenantId, query));
  }

  /** Each document as organizations are deleted (deleteOrganizations), its parts in documents.ts. */
  async deleteDocuments(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    now: number,
  ): Promise<Set<string>> {
    const deleted = new Set<string>();
    for (const documentId of idsInKeyOrder(documentIds)) {
      if (!(await this.write('markDocumentDeleting', () => documents.markDeleting(tenantId, organizationId, documentId))))
        continue;
      deleted.add(documentId);
      const at = { tenantId, organizationId, documentId };
      for (const part of documents.DOCUMENT_PARTS) {
        await this.inBatches('deleteDocuments', this.options.mostRowsPerBatch, (_, limit) => part(at, limit));
      }
      await this.emitting(
        'deleteDocuments',
        tenantId,
        now,
        () => documents.finishDeletion(tenantId, organizationId, documentId),
        (gone) => (gone ? events.documentsDeleted(organizationId, [documentId]) : []),
      );
    }
    return deleted;
  }

  moveDocuments(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    folderId: string | null,
    now: number,
  ): Maybe<void> {
    return this.emitting(
      'moveDocuments',
      tenantId,
      now,
      () => documents.move(tenantId, organizationId, documentIds, folderId, now),
      () => events.documentsWritten('document.update', tenantId, organizationId, documentIds),
    );
  }

  setDocumentAccess(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    accessType: AccessType,
    now: number,
  ): Maybe<void> {
    return this.emitting(
      'setDocumentAccess',
      tenantId,
      now,
      () => documents.setAccess(tenantId, organizationId, documentIds, accessType, now),
      () => events.documentsWritten('document.update', tenantId, organizationId, documentIds),
    );
  }

  setDocumentsDisabled(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    disabled: boolean,
    now: number,
  ): Maybe<void> {
    return this.emitting(
      'setDocumentsDisabled',
      tenantId,
      now,
      () => documents.setDisabled(tenantId, organizationId, documentIds, disabled, now),
      () => events.documentsWritten('document.update', tenantId, organizationId, documentIds),
    );
  }

  addFolders(
    tenantId: string,
    organizationId: string,
    entries: readonly FolderWrite[],
    now: number,
    maxDepth?: number,
  ): Maybe<void> {
    return this.emitting(
      'addFolders',
      tenantId,
      now,
      () => folders.add(tenantId, organizationId, entries, now, maxDepth),
      () =>
        events.foldersWritten(
          'folder.add',
          tenantId,
          organizationId,
          entries.map((e) => e.folderId),
        ),
    );
  }

  updateFolders(
    tenantId: string,
    organizationId: string,
    entries: readonly FolderWrite[],
    now: number,
    maxDepth?: number,
  ): Maybe<Set<string>> {
    return this.emitting(
      'updateFolders',
      tenantId,
      now,
      () => folders.update(tenantId, organizationId, entries, now, maxDepth),
      (updated) =>
        events.foldersWritten(
          'folder.update',
          tenantId,
          organizationId,
          entries.map((e) => e.folderId).filter((id) => updated.has(id)),
        ),
    );
  }

  deleteFolders(tenantId: string, organizationId: string, folderIds: readonly string[], now: number): Maybe<Set<string>> {
    // Every folder that goes, the subfolders of those named included, as the delete's statement names them.
    return this.emittingSeen(
      'deleteFolders',
      tenantId,
      now,
      () => folders.remove(tenantId, organizationId, folderIds, now),
      (_, seen) => events.foldersDeleted(organizationId, seen),
    );
  }

  setFolderAccess(
    tenantId: string,
    organizationId: string,
    folderIds: readonly string[],
    accessType: AccessType,
    now: number,
  ): Maybe<Set<string>> {
    return this.emitting(
      'setFolderAccess',
      tenantId,
      now,
      () => folders.setAccess(tenantId, organizationId, folderIds, accessType, now),
      (done) =>
        events.foldersWritten(
          'folder.update',
          tenantId,
          organizationId,
          folderIds.filter((id) => done.has(id)),
        ),
    );
  }

  getFolders(tenantId: string, organizationId: string): Maybe<FolderRecord[]> {
    return this.read('getFolders', () => folders.listAll(tenantId, organizationId));
  }

  // --- Allowed browser domains ---
  // Tenant settings, like webhooks: no event (docs/decisions.md, allowed browser domains).

  addAllowedDomains(tenantId: string, list: readonly string[], most: number, now: number): Maybe<DomainsAdded> {
    return this.write('addAllowedDomains', () => domains.add(tenantId, list, most, now));
  }

  deleteAllowedDomains(tenantId: string, list: readonly string[]): Maybe<string[]> {
    return this.write('deleteAllowedDomains', () => domains.remove(tenantId, list));
  }

  allowedDomains(tenantId: string): Maybe<string[]> {
    return this.read('allowedDomains', () => domains.ofTenant(tenantId));
  }

  tenantAllowsDomain(tenantId: string, candidates: readonly string[]): Maybe<boolean> {
    return this.read('tenantAllowsDomain', () => domains.allowsAny(tenantId, candidates));
  }

  anyTenantAllowsDomain(candidates: readonly string[]): Maybe<boolean> {
    return this.read('anyTenantAllowsDomain', () => domains.allowsAny(null, candidates));
  }

  // --- Documents' live state ---

  broadcastLiveState(
    tenantId: string,
    broadcast: LiveStateBroadcast,
    bounds: LiveStateBounds,
    now: number,
  ): Maybe<LiveStateRecord> {
    return this.emitting(
      'broadcastLiveState',
      tenantId,
      now,
      () => liveStates.broadcast(tenantId, broadcast, bounds, now),
      (state) => [events.liveStateBroadcast(broadcast.organizationId, broadcast.documentId, state, broadcast.merge)],
    );
  }

  getLiveStates(
    tenantId: string,
    organizationId: string,
    documentId: string,
    ids: readonly string[] | null,
    after: string | null,
    limit: number,
  ): Maybe<LiveStateRecord[]> {
    return this.query('getLiveStates', liveStates.states(tenantId, { organizationId, documentId, ids, after, limit }));
  }

  // --- Webhooks ---

  addWebhook(tenantId: string, webhook: NewWebhook, most: number): Maybe<'added' | 'too_many'> {
    return this.write('addWebhook', () => webhooks.add(tenantId, webhook, most));
  }

  getWebhooks(tenantId: string): Maybe<WebhookRecord[]> {
    return this.read('getWebhooks', () => webhooks.list(tenantId));
  }

  deleteWebhook(tenantId: string, webhookId: string): Maybe<boolean> {
    return this.write('deleteWebhook', () => webhooks.remove(tenantId, webhookId));
  }

  getWebhookAttempts(
    tenantId: string,
    webhookId: string,
    before: number | null,
    limit: number,
  ): Maybe<WebhookAttemptRecord[] | null> {
    return this.read('getWebhookAttempts', () => webhooks.attempts(tenantId, webhookId, before, limit));
  }

  webhookWork(now: number): Maybe<{ behind: boolean; due: boolean }> {
    return this.read('webhookWork', () => deliveries.work(now));
  }

  dispatchWebhookEvents(now: number, limits: DispatchLimits): Maybe<{ made: number; more: boolean }> {
    return this.write('dispatchWebhookEvents', () => deliveries.dispatch(now, limits));
  }

  claimWebhookDeliveries(claimer: string, now: number, until: number, limit: number): Maybe<ClaimedDelivery[]> {
    return this.write('claimWebhookDeliveries', () => deliveries.claim(claimer, now, until, limit));
  }

  finishWebhookDelivery(claimer: string, delivery: ClaimedDelivery, outcome: DeliveryOutcome): Maybe<void> {
    return this.write('finishWebhookDelivery', () => deliveries.finish(claimer, delivery, outcome));
  }

  releaseWebhookDeliveries(claimer: string, keys: readonly WebhookQueueKey[], at: number): Maybe<void> {
    return this.write('releaseWebhookDeliveries', () => deliveries.release(claimer, keys, at));
  }

  pruneWebhookDeliveries(before: number, limit: number): Maybe<number> {
    return this.write('pruneWebhookDeliveries', () => deliveries.prune(before, limit));
  }
}
