// What every part of the store shares (store.ts): the dialect, each call run as a read or as a
// write (one transaction), a write's events recorded in its transaction, long operations in batches,
// and the storage's health: an error that means the disk is full, the database read-only or the file
// damaged begins a fault; readiness's probe write getting through ends a "writes refused" one (a
// caller's write may change no row, and so prove nothing); and a damaged file takes no more writes,
// not even migrations (writing to it can spread the damage).
import { guarded, type Maybe, then } from '../maybe.js';
import { BatchSizer, DEFAULT_MOST_ROWS_PER_BATCH, DEFAULT_WRITE_BUDGET_MS, type StepResult, turn } from './batches.js';
import * as activities from './activities/activities.js';
import * as emailOutbox from './email/outbox.js';
import type { EmailDrafting } from './email/types.js';
import * as credentials from './credentials/credentials.js';
import type { CallListener, CheckpointStats, Dialect, TransactionListener } from './dialect/dialect.js';
import { collecting } from './events/emit.js';
import { EventNumbering } from './events/numbering.js';
import * as outbox from './events/outbox.js';
import type { EventDraft } from './events/outbox.js';
import { EVENTS_CHANNEL } from './events/sql.js';
import { type CheckState, type FaultListener, type LastingFault, StorageHealth, StoreUnavailableError } from './health.js';
import { migrate, type MigrationOutcome } from './migrations/index.js';
import { all, type BatchQuery, type Query, type Row, run, type Work } from './sql.js';
import type { EventListener } from './store.js';

const isList = (made: readonly EventDraft[] | Work<readonly EventDraft[]>): made is readonly EventDraft[] => Array.isArray(made);

export interface StoreOptions {
  /** PostgreSQL: the least time between two numberings of a tenant's events here (MARGINALIA_EVENT_NUMBERING_MS). */
  numberingIntervalMs: number;
  /** The time a long operation's batch may hold the writer (MARGINALIA_WRITE_BUDGET_MS; batches.ts). */
  writeBudgetMs: number;
  /** The most rows a batch of a long operation takes (MARGINALIA_ERASURE_BATCH_SIZE; batches.ts). */
  mostRowsPerBatch: number;
  /** Whether readiness waits for the check of the file at start when it runs after it (MARGINALIA_SQLITE_READY_AFTER_CHECK). */
  readyAfterCheck?: boolean;
  /** The most recipients whose inbox rows each keep a copy of a notification's answer (MARGINALIA_INBOX_ANSWER_COPIES). */
  inboxAnswerCopies?: number;
  /** Whether a tenant that never set its activity settings keeps activities (MARGINALIA_ACTIVITIES_ENABLED). */
  activitiesByDefault?: boolean;
  /** How notifications draft mails (store/email/); absent or null: email is off and nothing is drafted. */
  emailDrafting?: EmailDrafting | null;
}

export class StoreCore {
  private readonly health: StorageHealth;

  readonly numbering: EventNumbering;

  constructor(
    readonly dialect: Dialect,
    onFault?: FaultListener,
    readonly options: StoreOptions = {
      numberingIntervalMs: 20,
      writeBudgetMs: DEFAULT_WRITE_BUDGET_MS,
      mostRowsPerBatch: DEFAULT_MOST_ROWS_PER_BATCH,
    },
  ) {
    this.health = new StorageHealth(onFault);
    this.numbering = new EventNumbering(dialect, this.failed, options.numberingIntervalMs);
  }

  get kind(): 'sqlite' | 'postgres' {
    return this.dialect.kind;
  }

  readonly failed = (err: unknown): never => {
    throw this.health.failed(err);
  };

  read<T>(method: string, work: () => Work<T>): Maybe<T> {
    return guarded(() => this.dialect.read(method, work), this.failed);
  }

  /** A read that sees every commit made before it, by any process (dialect.ts: readLatest). */
  readLatest<T>(method: string, work: () => Work<T>): Maybe<T> {
    return guarded(() => this.dialect.readLatest(method, work), this.failed);
  }

  /** A one-statement read (the hot ones): no closures on the way, for a synchronous answer. */
  query<T>(method: string, q: Query<T>): Maybe<T> {
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

  batchWrite<T>(method: string, q: BatchQuery<T>): Maybe<T> {
    this.refuseIfDamaged();
    if (q.rows.length === 0) return q.map([]);
    return guarded(() => this.dialect.batchWrite(method, q), this.failed);
  }

  write<T>(method: string, work: () => Work<T>): Maybe<T> {
    this.refuseIfDamaged();
    return guarded(() => this.dialect.write(method, work), this.failed);
  }

  /**
   * A write and its events, in one transaction (the outbox, docs/decisions.md "Events of every write"):
   * the write's store code emits them where it writes (events/emit.ts), and `events`, when given, makes
   * more from its result (and may read what the write left, in the same transaction). SQLite numbers
   * the events in the transaction; PostgreSQL leaves them as drafts, and once the write has committed
   * this process numbers the tenant's drafts (events/numbering.ts) while the write answers. Then the
   * listener hears of the tenant's new last id (the process's live streams). The events become the
   * tenant's activities in the same transaction, one insert each, sent without waiting for an answer
   * (activities/, docs/decisions.md "Activities").
   */
  emitting<T>(
    method: string,
    tenantId: string,
    now: number,
    work: () => Work<T>,
    events?: (result: T) => readonly EventDraft[] | Work<readonly EventDraft[]>,
  ): Maybe<T> {
    let last = 0;
    let drafted = 0;
    const numbersInWrite = !this.dialect.writesSideBySide;
    const activitiesByDefault = this.options.activitiesByDefault ?? false;
    const emailDrafting = this.options.emailDrafting ?? null;
    const written = this.write(method, function* () {
      // A new list for every run: PostgreSQL runs the write again after a serialization failure.
      const drafts: EventDraft[] = [];
      const result = yield* collecting(work(), drafts);
      const made = events?.(result) ?? [];
      // Events made from the result alone come as a list; those that read first, as store code.
      for (const d of isList(made) ? made : yield* made) drafts.push(d);
      if (numbersInWrite) last = yield* outbox.record(tenantId, drafts, now);
      else drafted = yield* outbox.draft(tenantId, drafts, now);
      yield* activities.fromEvents(tenantId, drafts, now, activitiesByDefault);
      // The mails its notifications call for, in the same transaction (the email outbox, store/email/).
      if (emailDrafting) yield* emailOutbox.fromEvents(tenantId, drafts, now, emailDrafting);
      return result;
    });
    return then(written, (result) => {
      if (drafted > 0) void this.numbering.numbered(tenantId);
      if (last > 0) this.numbering.listener?.(tenantId, last);
      return result;
    });
  }

  /**
   * A batch write (sql.ts: BatchQuery) as store code, for a transaction that does more: on SQLite its
   * `sqliteBefore` statements and then the statement once per row, as batchWrite runs them; on
   * PostgreSQL the one statement with each column an array.
   */
  batched<T>(q: BatchQuery<T>): Work<T> {
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

  /**
   * A long operation's step, a batch at a time: each batch its own transaction, sized to the write
   * budget from the time the last one took, with a turn of the event loop after it (batches.ts), so
   * other writers, and this process's other requests, go on meanwhile. Answers how many batches ran.
   */
  async inBatches(method: string, most: number, step: (cursor: unknown, limit: number) => Work<StepResult>): Promise<number> {
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
   * The dialect's scrub. On PostgreSQL a VACUUM that fails (a statement timeout on a large table) leaves
   * the dead row versions to autovacuum, as before the erasure: the erasure itself is done, and is answered so.
   */
  async scrub(tables: readonly string[]): Promise<void> {
    try {
      await this.dialect.scrub(tables);
    } catch (err) {
      if (!this.dialect.scrubMayFail) throw this.health.failed(err);
    }
  }

  // --- The store's own life: schema, health, events heard, closing ---

  private listening = false;

  onEvents(listener: EventListener | null): void {
    this.numbering.listener = listener;
    // PostgreSQL: every instance's commits too (the NOTIFY of sequence_events), on a connection of its own.
    if (listener && !this.listening && this.dialect.listen) {
      this.listening = true;
      this.dialect.listen(EVENTS_CHANNEL, (payload) => {
        if (payload === null) return this.numbering.listener?.(null, 0);
        const space = payload.indexOf(' ');
        if (space > 0) this.numbering.listener?.(payload.slice(0, space), Number(payload.slice(space + 1)));
      });
    }
  }

  /** See numbering.ts: answers once the tenant's events written so far in this process are numbered. */
  eventsNumbered(tenantId: string): Promise<void> {
    return this.numbering.eventsNumbered(tenantId);
  }

  /**
   * Numbers drafts written before `before` that their writers left (a process stopped between commit and
   * numbering, numberings that failed): each tenant's next numbering. Fails if one of them failed.
   */
  async numberLeftDrafts(before: number): Promise<number> {
    if (!this.dialect.writesSideBySide) return 0;
    const tenants = await this.read('draftedTenants', () => outbox.draftedTenants(before));
    const failed = (await Promise.allSettled(tenants.map((t) => this.numbering.numbered(t)))).find(
      (r) => r.status === 'rejected',
    );
    if (failed) throw failed.reason;
    return tenants.length;
  }

  observeCalls(listener: CallListener | null): void {
    this.dialect.onCall = listener;
  }

  observeTransactions(listener: TransactionListener | null): void {
    this.dialect.onTransaction = listener;
  }

  private checkState: CheckState = 'off';

  /**
   * Checks the file for damage (now, or on a thread while the store serves), then brings the schema up
   * to date. A file found damaged is not migrated: it serves 503s until an operator restores it; a
   * migration that meets damage the check did not reach yet ends the same way.
   */
  async migrate(): Promise<MigrationOutcome | null> {
    const started = this.dialect.checkAtOpen((checked) => {
      if ('failed' in checked) this.checkState = 'failed';
      else if (checked.damage.length === 0) this.checkState = 'passed';
      else {
        this.checkState = 'damaged';
        const cause = new Error(checked.damage.join('; '));
        this.health.failed(new StoreUnavailableError('The database file is damaged.', { reason: 'damaged', cause }));
      }
    });
    if (started === 'checking') this.checkState = 'checking';
    if (this.health.damaged) return null;
    try {
      return await migrate(this.dialect);
    } catch (err) {
      if (!(err instanceof StoreUnavailableError && err.reason === 'damaged')) throw err;
      this.health.failed(err);
      return null;
    }
  }

  /** The check of the file at start: not made, still running, or its outcome. */
  check(): CheckState {
    return this.checkState;
  }

  checkpointStats(): CheckpointStats | undefined {
    return this.dialect.checkpointStats?.();
  }

  fault(): LastingFault | null {
    return this.health.fault;
  }

  async ping(): Promise<void> {
    this.refuseIfDamaged();
    if (this.checkState === 'checking' && this.options.readyAfterCheck)
      throw new StoreUnavailableError('The database file is being checked for damage.', { reason: 'checking' });
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

  releaseMemory(): void {
    this.dialect.releaseMemory?.();
  }

  requestArrived(): void {
    this.dialect.requestArrived?.();
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.numbering.numberings.keys()].map((t) => this.numbering.eventsNumbered(t)));
    return this.dialect.close();
  }
}
