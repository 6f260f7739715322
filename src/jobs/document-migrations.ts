// The document migration worker (docs/api.md, "Document migration"), one per serving process. Every
// MARGINALIA_MIGRATION_POLL_MS it claims an open job that no worker holds (any tenant's; a write of one
// row, nothing when there is none) under a lease in this process's name, and runs it to its end in
// batches (store/document-migrations/): each batch renews the lease, so a job is run by one worker at a
// time however many instances there are; a job whose worker died is taken up by another once its lease
// ends (MARGINALIA_MIGRATION_LEASE_MS), from where its last committed batch left it. On stop, the job
// under way is handed back between two batches, due at once to the next worker (after a restart, this one).
//
// A fault of the database (unreachable, busy) leaves the job held until its lease ends and then tried
// again; an error of the job itself (a row already under the new id) fails it, saying so.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Clock, systemClock } from '../clock.js';
import type { ClaimedMigration } from '../domain/document-migrations.js';
import { StoreUnavailableError, type Store } from '../store/store.js';

/** MARGINALIA_MIGRATION_BATCH_SIZE unless set: the most rows one batch of a migration moves. */
export const DEFAULT_MIGRATION_BATCH_SIZE = 500;
/** MARGINALIA_MIGRATION_LEASE_MS unless set. */
export const DEFAULT_MIGRATION_LEASE_MS = 30_000;
/** MARGINALIA_MIGRATION_POLL_MS unless set. */
export const DEFAULT_MIGRATION_POLL_MS = 1000;

/** What the worker logs through (a pino logger fits). */
export interface MigrationLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface MigrationWorkerOptions {
  store: Store;
  clock?: Clock;
  log?: MigrationLog;
  /** The most rows a batch moves (MARGINALIA_MIGRATION_BATCH_SIZE). */
  batchSize?: number;
  /** How long a claim lasts past each batch (MARGINALIA_MIGRATION_LEASE_MS). */
  leaseMs?: number;
  /** How often the store is asked for a job (MARGINALIA_MIGRATION_POLL_MS). */
  pollMs?: number;
}

const silent: MigrationLog = { info: () => {}, warn: () => {} };

export class MigrationWorker {
  /** This process's name in the leases it takes: the host, the process and a random part (a restart is another worker). */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly log: MigrationLog;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopping = false;

  constructor(o: MigrationWorkerOptions) {
    this.store = o.store;
    this.clock = o.clock ?? systemClock;
    this.log = o.log ?? silent;
    this.batchSize = o.batchSize ?? DEFAULT_MIGRATION_BATCH_SIZE;
    this.leaseMs = o.leaseMs ?? DEFAULT_MIGRATION_LEASE_MS;
    this.pollMs = o.pollMs ?? DEFAULT_MIGRATION_POLL_MS;
  }

  start(): this {
    this.timer = setInterval(() => this.poke(), this.pollMs);
    this.timer.unref();
    this.poke();
    return this;
  }

  /** Looks for a job now (a started migration of this process need not wait for the next poll). */
  poke(): void {
    if (this.running || this.stopping) return;
    this.running = this.drain().finally(() => (this.running = null));
  }

  /** Hands the job under way back (between two batches) and stops looking for more. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs jobs one after another while there are some to claim. */
  private async drain(): Promise<void> {
    while (!this.stopping) {
      let job: ClaimedMigration | null;
      try {
        job = await this.store.claimDocumentMigration(this.owner, this.clock(), this.leaseMs);
      } catch (err) {
        this.log.warn({ err }, 'document migrations: looking for a job failed; trying again at the next poll');
        return;
      }
      if (!job) return;
      await this.run(job);
    }
  }

  private async run(job: ClaimedMigration): Promise<void> {
    const about = { tenantId: job.tenantId, migrationId: job.migrationId };
    this.log.info({ ...about, step: job.step }, 'document migration: running');
    try {
      const end = await this.store.runDocumentMigration(job, {
        owner: this.owner,
        leaseMs: this.leaseMs,
        mostRows: this.batchSize,
        now: this.clock,
        stopping: () => this.stopping,
      });
      this.log.info({ ...about, end }, `document migration: ${end}`);
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        this.log.warn(
          { err, ...about },
          'document migration: the database failed; the job is taken up again when its lease ends',
        );
        return;
      }
      this.log.warn({ err, ...about }, 'document migration: failed');
      try {
        await this.store.failDocumentMigration(
          job,
          this.owner,
          'Moving the rows failed; what moved stays under the new id.',
          this.clock(),
        );
      } catch (failing) {
        this.log.warn({ err: failing, ...about }, 'document migration: recording the failure failed; it is tried again');
      }
    }
  }
}
