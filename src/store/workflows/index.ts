// Approval workflows (workflow/* on /v2): definitions, executions, their steps and event logs.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { Step, Transition } from '../../domain/workflow-machine.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import * as workflows from './workflows.js';
import type { ExecutionFilter, StoredDefinition, StoredExecution } from './workflows.js';

export const workflowsStore = (core: StoreCore) => ({
  /** definitions/create: version 1 of a new definitionId (a tombstone under it replaced); ALREADY_EXISTS when live. */
  createWorkflowDefinition(tenantId: string, definitionId: string, body: string, now: number): Maybe<StoredDefinition> {
    return core.write('createWorkflowDefinition', () => workflows.create(tenantId, definitionId, body, now));
  },

  /** definitions/update: the next version, when the stored one is `ifVersion` (else FAILED_PRECONDITION). */
  updateWorkflowDefinition(
    tenantId: string,
    definitionId: string,
    ifVersion: number,
    body: string,
    now: number,
  ): Maybe<StoredDefinition> {
    return core.write('updateWorkflowDefinition', () => workflows.update(tenantId, definitionId, ifVersion, body, now));
  },

  /** definitions/delete: a tombstone, or with `purge` nothing left; FAILED_PRECONDITION while executions run. */
  deleteWorkflowDefinition(tenantId: string, definitionId: string, purge: boolean, now: number): Maybe<void> {
    return core.write('deleteWorkflowDefinition', () => workflows.remove(tenantId, definitionId, purge, now));
  },

  /** A definition, tombstoned or not. */
  workflowDefinition(tenantId: string, definitionId: string): Maybe<StoredDefinition | undefined> {
    return core.read('workflowDefinition', () => workflows.definition(tenantId, definitionId));
  },

  /** definitions/list: a page, and at most `sameTime` more of its last item's millisecond. */
  workflowDefinitionsPage(tenantId: string, before: number, limit: number, sameTime: number): Maybe<StoredDefinition[]> {
    return core.read('workflowDefinitionsPage', () => workflows.definitionsPage(tenantId, before, limit, sameTime));
  },

  /**
   * executions/dispatch: the execution of an idempotency key if there is one (deduplicated); else the
   * definition (NOT_FOUND, or FAILED_PRECONDITION when deleted) is dispatched as `start` says, in one
   * transaction with its steps, its log and their events.
   */
  dispatchWorkflow(
    tenantId: string,
    definitionId: string,
    idempotencyKey: string,
    now: number,
    start: (d: StoredDefinition) => { x: StoredExecution; t: Transition<unknown> },
  ): Maybe<{ executionId: string; correlationId: string; deduplicated: boolean }> {
    return core.emitting('dispatchWorkflow', tenantId, now, function* () {
      const prior = yield* workflows.byKey(tenantId, idempotencyKey);
      if (prior) return { ...prior, deduplicated: true };
      const { x, t } = start(yield* workflows.dispatchable(tenantId, definitionId));
      if (yield* workflows.insertExecution(tenantId, x, t))
        return { executionId: x.execution.executionId, correlationId: x.execution.correlationId, deduplicated: false };
      return { ...(yield* workflows.byKey(tenantId, idempotencyKey))!, deduplicated: true };
    });
  },

  /** A command of the state machine on an execution (NOT_FOUND when there is none), in one transaction. */
  workflowCommand<A>(
    tenantId: string,
    executionId: string,
    now: number,
    apply: (x: StoredExecution, steps: Step[]) => Transition<A>,
  ): Maybe<A> {
    return core.emitting('workflowCommand', tenantId, now, () => workflows.command(tenantId, executionId, apply));
  },

  workflowExecution(
    tenantId: string,
    executionId: string,
    withSteps: boolean,
  ): Maybe<{ x: StoredExecution; steps: Step[] } | undefined> {
    return core.read('workflowExecution', () => workflows.execution(tenantId, executionId, withSteps));
  },

  /** executions/list: a page, and at most `sameTime` more of its last item's millisecond. */
  workflowExecutionsPage(
    tenantId: string,
    filter: ExecutionFilter,
    before: number,
    limit: number,
    sameTime: number,
  ): Maybe<StoredExecution[]> {
    return core.read('workflowExecutionsPage', () => workflows.executionsPage(tenantId, filter, before, limit, sameTime));
  },

  workflowEvents(tenantId: string, executionId: string, since: number, limit: number) {
    return core.read('workflowEvents', () => workflows.events(tenantId, executionId, since, limit));
  },

  /**
   * Retention (jobs/workflow-pruner.ts), every tenant's: deletes at most `limit` rows of executions that ended before
   * `before` (their events, then steps, then the executions); answers how many went.
   */
  pruneWorkflowExecutions(before: number, limit: number): Maybe<number> {
    return core.write('pruneWorkflowExecutions', () => workflows.prune(before, limit));
  },
});

export type WorkflowsStore = ReturnType<typeof workflowsStore>;
