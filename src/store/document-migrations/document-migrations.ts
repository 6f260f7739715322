// Store code of document migrations (docs/api.md, "Document migration"): the start (one transaction that
// checks, reserves the new id and disables both), the status read, and the worker's steps: the claim, one
// batch of one mover (with the job's progress, in the same transaction), the end, and the hand-back.
import type { ClaimedMigration, MigrationRecord, MigrationStatus } from '../../domain/document-migrations.js';
import { Refusal } from '../../domain/refusal.js';
import { enter } from '../organizations/organizations.js';
import { all, first, run, type Work } from '../sql.js';
import { MOVERS, type MoveScope } from './movers.js';
import { MIGRATIONS_SQL as SQL } from './sql.js';

export type MigrationStart = MoveScope & { migrationId: string };

/**
 * organizations/documents/migrate: 'too_many' when the tenant has `most` jobs open already (counted under its
 * tenant row's lock, so two starts cannot both pass the bound); refuses a source that does not exist (or is being
 * deleted), one that a job moves already or is moving to, and a new id that exists; else the new id's row is made
 * (disabled), the source is disabled, and the job is recorded, pending. One transaction: a refusal writes nothing.
 */
export function* start(s: MigrationStart, most: number, now: number): Work<'started' | 'too_many'> {
  yield* first(SQL.lockTenant, s);
  const open = Number((yield* first<{ n: unknown }>(SQL.openOfTenant, { tenantId: s.tenantId, most }))?.n ?? 0);
  if (open >= most) return 'too_many';
  yield* enter(s.tenantId, s.organizationId, null, false);
  const source = yield* first(SQL.source, s);
  if (!source || source.deleting) throw new Refusal('NOT_FOUND', `Document ${s.documentId} does not exist.`);
  if ((yield* all(SQL.openOn, s)).length > 0)
    throw new Refusal('ALREADY_EXISTS', `Document ${s.documentId} is being migrated already.`);
  if (!(yield* first(SQL.makeTarget, { ...s, now })))
    throw new Refusal('ALREADY_EXISTS', `Document ${s.newDocumentId} already exists.`);
  yield* run(SQL.disableSource, s);
  yield* run(SQL.insert, { ...s, sourceDisabled: Boolean(source.disabled), now });
  return 'started';
}

/** migrate/status: the tenant's job in that organization, or none. */
export function* byId(tenantId: string, organizationId: string, migrationId: string): Work<MigrationRecord | null> {
  const r = yield* first(SQL.byId, { tenantId, organizationId, migrationId });
  if (!r) return null;
  return {
    migrationId: String(r.migration_id),
    organizationId: String(r.organization_id),
    documentId: String(r.document_id),
    newDocumentId: String(r.new_document_id),
    status: String(r.status) as MigrationStatus,
    moved: Number(r.moved),
    error: r.error == null ? null : String(r.error),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The worker's claim: an open job no one holds, now this owner's until `until`. */
export function* claim(owner: string, now: number, until: number): Work<ClaimedMigration | null> {
  const due = yield* first(SQL.due, { now });
  if (!due) return null;
  const key = { tenantId: String(due.tenant_id), migrationId: String(due.migration_id) };
  const r = yield* first(SQL.claim, { ...key, owner, until, now });
  if (!r) return null;
  return {
    ...key,
    organizationId: String(r.organization_id),
    documentId: String(r.document_id),
    newDocumentId: String(r.new_document_id),
    step: Number(r.step),
  };
}

/** A held job's key and its owner's lease. */
export type Holding = {
  tenantId: string;
  migrationId: string;
  owner: string;
  /** The lease's end if this batch holds it. */
  until: number;
};

/** What one batch did: nothing (the job is not this worker's any more), or the step it leaves the job at. */
export type BatchOutcome = { held: false } | { held: true; step: number; rows: number };

/**
 * One batch: the job is still this worker's (its lease renewed), at most `limit` rows of its current
 * mover move, and the job records where it is, all in one transaction, so a batch that does not commit
 * leaves no trace and the next worker starts where the last commit left the job.
 */
export function* batch(job: ClaimedMigration, h: Holding, limit: number, now: number): Work<BatchOutcome> {
  const held = yield* first(SQL.hold, h);
  if (!held) return { held: false };
  const step = Number(held.step);
  const mover = MOVERS[step];
  if (!mover) return { held: true, step, rows: 0 };
  const moved = yield* mover.move(job, limit);
  const next = moved.done ? step + 1 : step;
  yield* run(SQL.progress, { ...h, step: next, moved: moved.rows, now });
  return { held: true, step: next, rows: moved.rows };
}

/**
 * The end: whatever a mover left (nothing, unless a write got in while the job ran: a documents'
 * disable-state update may enable either id) moves, the source's row goes, and the new id takes the
 * source's own disabled flag. A source deleted meanwhile (documents/delete) fails the job: what moved
 * stays under the new id. Answers how the job ended, or null when it is not this worker's any more.
 */
export function* finish(job: ClaimedMigration, h: Holding, now: number): Work<'completed' | 'failed' | null> {
  if (!(yield* first(SQL.hold, h))) return null;
  let rows = 0;
  for (const mover of MOVERS) rows += (yield* mover.move(job, Number.MAX_SAFE_INTEGER)).rows;
  if (rows > 0) yield* run(SQL.progress, { ...h, step: MOVERS.length, moved: rows, now });
  const disabled = Boolean((yield* first(SQL.sourceDisabled, h))?.source_disabled);
  if (!(yield* first(SQL.removeSource, job))) {
    yield* endAsFailed(job, h, disabled, `Document ${job.documentId} was deleted during the migration.`, now);
    return 'failed';
  }
  yield* run(SQL.enable, { ...job, disabled, now });
  yield* run(SQL.finish, { ...h, status: 'completed', error: null, now });
  return 'completed';
}

/** A job that cannot go on: both ids take the source's own flag back, and the job says why. */
export function* fail(job: ClaimedMigration, h: Holding, error: string, now: number): Work<boolean> {
  if (!(yield* first(SQL.hold, h))) return false;
  const disabled = Boolean((yield* first(SQL.sourceDisabled, h))?.source_disabled);
  yield* endAsFailed(job, h, disabled, error, now);
  return true;
}

function* endAsFailed(job: ClaimedMigration, h: Holding, disabled: boolean, error: string, now: number): Work<void> {
  yield* run(SQL.enableBoth, { ...job, disabled, now });
  yield* run(SQL.finish, { ...h, status: 'failed', error, now });
}

/** A stopping worker hands the job back (due at once), unless it is not its own any more. */
export function* release(h: Holding): Work<void> {
  yield* run(SQL.release, h);
}
