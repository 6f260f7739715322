// Document migrations (docs/api.md, "Document migration"): a job that moves a document's rows to a new id.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import { performance } from 'node:perf_hooks';
import type { ClaimedMigration, MigrationRecord, MigrationRunEnd } from '../../domain/document-migrations.js';
import type { Maybe } from '../../maybe.js';
import { BatchSizer, turn } from '../batches.js';
import type { StoreCore } from '../core.js';
import * as migrations from './document-migrations.js';
import { MOVERS } from './movers.js';

export type { MigrationStart } from './document-migrations.js';

/** How a worker runs a job it holds. */
export interface MigrationRun {
  /** This worker's name in the job's lease. */
  owner: string;
  /** How long a lease lasts past each batch (MARGINALIA_MIGRATION_LEASE_MS). */
  leaseMs: number;
  /** The most rows a batch moves (MARGINALIA_MIGRATION_BATCH_SIZE); below it, batches are sized to the write budget. */
  mostRows: number;
  now(): number;
  /** Whether the worker is stopping: the job is then handed back between two batches. */
  stopping(): boolean;
}

export const documentMigrationsStore = (core: StoreCore) => ({
  /**
   * organizations/documents/migrate: checks, reserves the new id, disables both ids, records the job (pending);
   * 'too_many' (nothing written) when the tenant has `most` jobs open already.
   */
  startDocumentMigration(start: migrations.MigrationStart, most: number, now: number): Maybe<'started' | 'too_many'> {
    return core.write('startDocumentMigration', () => migrations.start(start, most, now));
  },

  /** migrate/status: the job, or null when the tenant has none of that id in that organization. */
  documentMigration(tenantId: string, organizationId: string, migrationId: string): Maybe<MigrationRecord | null> {
    return core.read('documentMigration', () => migrations.byId(tenantId, organizationId, migrationId));
  },

  /** A worker's claim of an open job that no worker holds (any tenant's), under a lease in `owner`'s name. */
  async claimDocumentMigration(owner: string, now: number, leaseMs: number): Promise<ClaimedMigration | null> {
    return core.write('claimDocumentMigration', () => migrations.claim(owner, now, now + leaseMs));
  },

  /**
   * Runs a claimed job to its end in batches, each its own short transaction (the batch sizer of
   * store/batches.ts, under `mostRows`), with a turn of the event loop between two: another tenant's
   * write waits at most one batch (MARGINALIA_WRITE_BUDGET_MS). A fault rejects, the job left as its
   * last batch committed it (held until its lease ends, then taken up again).
   */
  async runDocumentMigration(job: ClaimedMigration, r: MigrationRun): Promise<MigrationRunEnd> {
    let sizer = new BatchSizer(core.options.writeBudgetMs, r.mostRows);
    let step = job.step;
    for (;;) {
      const now = r.now();
      const holding = { tenantId: job.tenantId, migrationId: job.migrationId, owner: r.owner, until: now + r.leaseMs };
      if (r.stopping()) {
        await core.write('releaseDocumentMigration', () => migrations.release(holding));
        return 'stopped';
      }
      if (step >= MOVERS.length)
        return (await core.write('finishDocumentMigration', () => migrations.finish(job, holding, now))) ?? 'lost';
      const limit = sizer.next;
      const started = performance.now();
      const out = await core.write('migrateDocumentBatch', () => migrations.batch(job, holding, limit, now));
      if (!out.held) return 'lost';
      // Each table's rows cost their own time: a new mover starts from the first batch size again.
      if (out.step !== step) sizer = new BatchSizer(core.options.writeBudgetMs, r.mostRows);
      else sizer.took(performance.now() - started);
      step = out.step;
      await turn();
    }
  },

  /** Ends a held job as failed, saying why; both ids take the source's own disabled flag back. */
  async failDocumentMigration(job: ClaimedMigration, owner: string, error: string, now: number): Promise<boolean> {
    const holding = { tenantId: job.tenantId, migrationId: job.migrationId, owner, until: now };
    return core.write('failDocumentMigration', () => migrations.fail(job, holding, error, now));
  },
});

export type DocumentMigrationsStore = ReturnType<typeof documentMigrationsStore>;
