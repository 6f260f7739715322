// Store code of approval workflows: definitions written under their row's lock, and every execution
// command as one transaction around the state machine (domain/workflow-machine.ts): the execution
// locked and read with its steps, the command applied, and what it changed written back, with its
// events appended to the execution's log and announced on the outbox.
import { Refusal } from '../../domain/refusal.js';
import type { Execution, ExecutionEvent, PinnedGraph, Step, Transition } from '../../domain/workflow-machine.js';
import { first, all, run, send, type Row, type Work } from '../sql.js';
import { emit } from '../events/emit.js';
import { workflowEventDrafts } from './events.js';
import { WORKFLOWS_SQL as SQL } from './sql.js';

/** A definition as stored: `body` is its members as JSON text (what was written, and its compiled view). */
export interface StoredDefinition {
  definitionId: string;
  version: number;
  deleted: boolean;
  body: string;
  createdAt: number;
  updatedAt: number;
}

/** Where an execution runs (dispatch's organizationId, documentId, folderId): kept, never answered. */
export interface ExecutionTarget {
  organizationId: string | null;
  documentId: string | null;
  folderId: string | null;
}

export interface StoredExecution {
  execution: Execution;
  graph: PinnedGraph;
  target: ExecutionTarget;
}

const n = (v: unknown): number => Number(v);
const nOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const parsed = <T>(v: unknown): T => (v === null || v === undefined ? null : JSON.parse(v as string)) as T;

const definitionOf = (r: Row): StoredDefinition => ({
  definitionId: r.definition_id as string,
  version: n(r.version),
  deleted: n(r.deleted) === 1,
  body: r.body as string,
  createdAt: n(r.created_at),
  updatedAt: n(r.updated_at),
});

export const executionOf = (r: Row): StoredExecution => ({
  execution: {
    executionId: r.execution_id as string,
    definitionId: r.definition_id as string,
    definitionVersion: n(r.definition_version),
    status: r.status as Execution['status'],
    correlationId: r.correlation_id as string,
    idempotencyKey: r.idempotency_key as string,
    startedAt: n(r.started_at),
    completedAt: nOrNull(r.completed_at),
    cancelledAt: nOrNull(r.cancelled_at),
    failureReason: parsed(r.failure_reason),
    triggerContext: parsed(r.trigger_context),
    loops: parsed(r.loops),
    lastSeq: n(r.last_seq),
  },
  graph: parsed(r.graph),
  target: parsed(r.target),
});

export const stepOf = (r: Row): Step => ({
  stepId: r.step_id as string,
  ordinal: n(r.ordinal),
  nodeId: r.node_id as string,
  nodeType: r.node_type as Step['nodeType'],
  status: r.status as Step['status'],
  startedAt: n(r.started_at),
  completedAt: nOrNull(r.completed_at),
  output: parsed(r.output),
  error: parsed(r.error),
  aggregator: parsed(r.aggregator),
});

const notFound = (what: string) => new Refusal('NOT_FOUND', `${what} not found.`);
const precondition = (message: string) => new Refusal('FAILED_PRECONDITION', message);

export function* definition(tenantId: string, definitionId: string): Work<StoredDefinition | undefined> {
  const row = yield* first(SQL.definition, { tenantId, definitionId });
  return row && definitionOf(row);
}

/** Creates version 1; a tombstone under the id is replaced (its versions with it), a live definition refused. */
export function* create(tenantId: string, definitionId: string, body: string, now: number): Work<StoredDefinition> {
  const held = yield* first(SQL.lockDefinition, { tenantId, definitionId });
  if (held && n(held.deleted) === 0) throw new Refusal('ALREADY_EXISTS', `Definition ${definitionId} already exists.`);
  if (held) {
    yield* run(SQL.deleteVersions, { tenantId, definitionId });
    yield* run(SQL.deleteDefinition, { tenantId, definitionId });
  }
  // A create of the same id committed meanwhile (PostgreSQL) inserts nothing here.
  if ((yield* run(SQL.insertDefinition, { tenantId, definitionId, body, now })) === 0)
    throw new Refusal('ALREADY_EXISTS', `Definition ${definitionId} already exists.`);
  return { definitionId, version: 1, deleted: false, body, createdAt: now, updatedAt: now };
}

/** Replaces a definition at version `ifVersion` with the next version, its prior content kept as a snapshot. */
export function* update(
  tenantId: string,
  definitionId: string,
  ifVersion: number,
  body: string,
  now: number,
): Work<StoredDefinition> {
  const held = yield* first(SQL.lockDefinition, { tenantId, definitionId });
  if (!held || n(held.deleted) === 1) throw notFound(`Definition ${definitionId}`);
  const current = definitionOf(held);
  if (current.version !== ifVersion) throw precondition(`Version conflict: expected ${ifVersion}, current ${current.version}`);
  yield* send(SQL.snapshotVersion, { tenantId, definitionId, version: current.version, body: current.body, now });
  const version = current.version + 1;
  yield* run(SQL.updateDefinition, { tenantId, definitionId, version, body, now });
  return { ...current, version, body, updatedAt: now };
}

/** Tombstones a definition, or with `purge` removes it and its snapshots; refused while executions of it run. */
export function* remove(tenantId: string, definitionId: string, purge: boolean, now: number): Work<void> {
  const held = yield* first(SQL.lockDefinition, { tenantId, definitionId });
  if (!held || n(held.deleted) === 1) throw notFound(`Definition ${definitionId}`);
  if (yield* first(SQL.inFlight, { tenantId, definitionId }))
    throw precondition(`Definition ${definitionId} has in-flight executions; cancel them first.`);
  if (purge) {
    yield* run(SQL.deleteVersions, { tenantId, definitionId });
    yield* run(SQL.deleteDefinition, { tenantId, definitionId });
  } else yield* run(SQL.tombstoneDefinition, { tenantId, definitionId, now });
}

/**
 * A page of active definitions updated before `before`, the newest first, completed with at most `sameTime` of its
 * last time's others (MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX).
 */
export function* definitionsPage(tenantId: string, before: number, limit: number, sameTime: number): Work<StoredDefinition[]> {
  const rows = (yield* all(SQL.definitionsPage, { tenantId, before, limit })).map(definitionOf);
  const last = rows.at(-1);
  if (rows.length < limit || !last) return rows;
  const rest = yield* all(SQL.definitionsAt, { tenantId, at: last.updatedAt, after: last.definitionId, limit: sameTime });
  return [...rows, ...rest.map(definitionOf)];
}

/** An execution's replay: the one dispatched under this idempotency key, if any. */
export function* byKey(
  tenantId: string,
  idempotencyKey: string,
): Work<{ executionId: string; correlationId: string } | undefined> {
  const row = yield* first(SQL.byKey, { tenantId, idempotencyKey });
  return row && { executionId: row.execution_id as string, correlationId: row.correlation_id as string };
}

/** The definition a dispatch runs, shared until the dispatch commits; refused when missing or deleted. */
export function* dispatchable(tenantId: string, definitionId: string): Work<StoredDefinition> {
  const row = yield* first(SQL.shareDefinition, { tenantId, definitionId });
  if (!row) throw notFound(`Definition ${definitionId}`);
  const d = definitionOf(row);
  if (d.deleted) throw precondition(`Definition ${definitionId} is deleted.`);
  return d;
}

/** Writes a command's steps and events (and the events' outbox drafts). */
function* written(tenantId: string, x: StoredExecution, t: Transition<unknown>): Work<void> {
  const executionId = x.execution.executionId;
  for (const s of t.steps)
    yield* send(SQL.putStep, {
      tenantId,
      executionId,
      ...s,
      output: JSON.stringify(s.output),
      error: s.error && JSON.stringify(s.error),
      aggregator: s.aggregator && JSON.stringify(s.aggregator),
    });
  for (const e of t.events) yield* send(SQL.insertEvent, eventRow(tenantId, executionId, e));
  yield* emit(workflowEventDrafts({ ...x, execution: t.execution }, t.events));
}

const eventRow = (tenantId: string, executionId: string, e: ExecutionEvent) => ({
  tenantId,
  executionId,
  seq: e.seq,
  eventId: e.eventId,
  type: e.type,
  stepId: e.stepId,
  external: e.external ? 1 : 0,
  at: e.timestamp,
  data: e.data && JSON.stringify(e.data),
});

const executionRow = (tenantId: string, x: StoredExecution) => {
  const e = x.execution;
  return {
    tenantId,
    ...e,
    failureReason: e.failureReason && JSON.stringify(e.failureReason),
    triggerContext: e.triggerContext && JSON.stringify(e.triggerContext),
    loops: JSON.stringify(e.loops),
    target: JSON.stringify(x.target),
    graph: JSON.stringify(x.graph),
  };
};

/**
 * A new execution and what dispatching it did; null when a dispatch of the same idempotency key
 * committed first (PostgreSQL: the key's unique index held this insert until then).
 */
export function* insertExecution(tenantId: string, x: StoredExecution, t: Transition<unknown>): Work<boolean> {
  if ((yield* run(SQL.insertExecution, executionRow(tenantId, { ...x, execution: t.execution }))) === 0) return false;
  yield* written(tenantId, x, t);
  return true;
}

/** A command on an execution: locked and read with its steps, applied, and what it changed written. */
export function* command<A>(
  tenantId: string,
  executionId: string,
  apply: (x: StoredExecution, steps: Step[]) => Transition<A>,
): Work<A> {
  const row = yield* first(SQL.lockExecution, { tenantId, executionId });
  if (!row) throw notFound(`Execution ${executionId}`);
  const x = executionOf(row);
  const steps = (yield* all(SQL.steps, { tenantId, executionId })).map(stepOf);
  const t = apply(x, steps);
  if (t.events.length === 0 && t.steps.length === 0) return t.answer;
  yield* run(SQL.updateExecution, executionRow(tenantId, { ...x, execution: t.execution }));
  yield* written(tenantId, x, t);
  return t.answer;
}

/** An execution with its steps (`withSteps`), or undefined. */
export function* execution(
  tenantId: string,
  executionId: string,
  withSteps: boolean,
): Work<{ x: StoredExecution; steps: Step[] } | undefined> {
  const row = yield* first(SQL.execution, { tenantId, executionId });
  if (!row) return undefined;
  const steps = withSteps ? (yield* all(SQL.steps, { tenantId, executionId })).map(stepOf) : [];
  return { x: executionOf(row), steps };
}

export interface ExecutionFilter {
  definitionId: string | null;
  status: string | null;
}

/**
 * A page of executions started before `before`, the newest first, completed with at most `sameTime` of its last
 * time's others (MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX).
 */
export function* executionsPage(
  tenantId: string,
  filter: ExecutionFilter,
  before: number,
  limit: number,
  sameTime: number,
): Work<StoredExecution[]> {
  const rows = (yield* all(SQL.executionsPage, { tenantId, ...filter, before, limit })).map(executionOf);
  const last = rows.at(-1);
  if (rows.length < limit || !last) return rows;
  const rest = yield* all(SQL.executionsAt, {
    tenantId,
    ...filter,
    at: last.execution.startedAt,
    after: last.execution.executionId,
    limit: sameTime,
  });
  return [...rows, ...rest.map(executionOf)];
}

/**
 * One batch of retention: at most `limit` rows of the oldest `limit` executions that ended before `before`: their
 * events first, then their steps, then the executions left with neither. Answers how many rows went; fewer than
 * `limit` when every execution that ended before `before` is gone (so the pruner's turns stop: events/pruner.ts).
 */
export function* prune(before: number, limit: number): Work<number> {
  const ended = { before, executions: limit };
  let n = yield* run(SQL.pruneEvents, { ...ended, limit });
  if (n < limit) n += yield* run(SQL.pruneSteps, { ...ended, limit: limit - n });
  if (n < limit) n += yield* run(SQL.pruneExecutions, { ...ended, limit: limit - n });
  return n;
}

/** A page of an execution's external events after `since`; undefined when there is no such execution. */
export function* events(
  tenantId: string,
  executionId: string,
  since: number,
  limit: number,
): Work<{ x: StoredExecution; events: ExecutionEvent[] } | undefined> {
  const row = yield* first(SQL.execution, { tenantId, executionId });
  if (!row) return undefined;
  const rows = yield* all(SQL.events, { tenantId, executionId, since, limit });
  return {
    x: executionOf(row),
    events: rows.map((r) => ({
      seq: n(r.seq),
      eventId: r.event_id as string,
      type: r.type as string,
      stepId: (r.step_id as string | null) ?? null,
      timestamp: n(r.at),
      external: true,
      data: parsed(r.data),
    })),
  };
}
