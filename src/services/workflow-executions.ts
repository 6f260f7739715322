// Approval workflow executions and their steps (docs/api.md, "Approval workflows"): dispatch (an
// idempotency key answers the same execution), get, list, cancel, the event log, and the step commands,
// each one transaction of the state machine (domain/workflow-machine.ts) over the stored execution.
import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import { ApiError, invalid } from '../errors.js';
import {
  cancelExecution,
  cancelStep,
  type DecisionAnswer,
  dispatch,
  type PinnedGraph,
  recordAgentResolution,
  recordReviewerDecision,
  resolveStep,
  type Step,
} from '../domain/workflow-machine.js';
import { type Maybe, then } from '../maybe.js';
import type { DataOf } from '../schemas/common.js';
import type {
  AgentResolutionBody,
  DispatchBody,
  ExecutionCancelBody,
  ExecutionEventsBody,
  ExecutionListBody,
  ExecutionRefBody,
  ExecutionView,
  ReviewerDecisionBody,
  StepCancelBody,
  StepResolveBody,
} from '../schemas/workflows.js';
import type { StoredExecution } from '../store/store.js';
import type { Caller, Services } from './context.js';
import type { DefinitionBody } from './workflow-definitions.js';
import { workflowLimitsOf } from './workflow-limits.js';
import { checkWebhookUrl } from './workflow-urls.js';

type ExecutionAnswer = Static<typeof ExecutionView>;

/** 8 random characters of [0-9a-z], as the pages' ids carry. */
const rand8 = (): string => [...randomBytes(8)].map((b) => '0123456789abcdefghijklmnopqrstuvwxyz'[b % 36]).join('');

export function executionView({ execution: x }: StoredExecution, steps: readonly Step[]): ExecutionAnswer {
  return {
    executionId: x.executionId,
    status: x.status,
    startedAt: x.startedAt,
    completedAt: x.completedAt,
    cancelledAt: x.cancelledAt,
    definitionId: x.definitionId,
    definitionVersion: x.definitionVersion,
    correlationId: x.correlationId,
    idempotencyKey: x.idempotencyKey,
    failureReason: x.failureReason,
    steps: steps.map((s) => ({
      stepId: s.stepId,
      nodeId: s.nodeId,
      nodeType: s.nodeType,
      status: s.status,
      groupId: null,
      startedAt: s.startedAt,
      completedAt: s.completedAt,
      output: s.output,
      error: s.error,
    })),
  };
}

const noExecution = (executionId: string) => new ApiError('NOT_FOUND', `Execution ${executionId} not found.`);

/** executions/dispatch: the definition's current version pinned, its root steps started; a known key answers its execution. */
export function dispatchExecution(
  services: Services,
  caller: Caller,
  data: DataOf<typeof DispatchBody>,
): Maybe<{ executionId: string; correlationId: string; deduplicated: boolean }> {
  if ((data.webhookUrl === undefined) !== (data.webhookSecret === undefined))
    throw invalid('webhookUrl and webhookSecret must be provided together');
  if (data.webhookUrl !== undefined) checkWebhookUrl('webhookUrl', data.webhookUrl);
  const now = services.clock();
  const rand = rand8();
  const executionId = `exec_${now}_${rand}`;
  const idempotencyKey = data.idempotencyKey ?? `dispatch_${executionId}`;
  const { maxStepsPerExecution } = workflowLimitsOf(services.workflows);
  return services.store.dispatchWorkflow(caller.id, data.definitionId, idempotencyKey, now, (d) => {
    const body = JSON.parse(d.body) as DefinitionBody;
    const graph = { nodes: body.nodes, edges: body.edges, compiled: body.compiled } as PinnedGraph;
    const input = {
      executionId,
      definitionId: d.definitionId,
      definitionVersion: d.version,
      correlationId: data.correlationId ?? `corr_${rand}`,
      idempotencyKey,
      triggerContext: data.triggerContext ?? null,
      rand,
    };
    const t = dispatch(input, graph, now, maxStepsPerExecution);
    const target = {
      organizationId: data.organizationId ?? null,
      documentId: data.documentId ?? null,
      folderId: data.folderId ?? null,
    };
    return { x: { execution: t.execution, graph, target }, t };
  });
}

export function getExecution(services: Services, caller: Caller, data: DataOf<typeof ExecutionRefBody>): Maybe<ExecutionAnswer> {
  return then(services.store.workflowExecution(caller.id, data.executionId, true), (found) => {
    if (!found) throw noExecution(data.executionId);
    return executionView(found.x, found.steps);
  });
}

/**
 * A page of executions, the most recently started first (steps: []); the cursor is the last one's startedAt, as text.
 * A full page runs on to the end of its last millisecond, by at most MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX items.
 */
export function listExecutions(
  services: Services,
  caller: Caller,
  data: DataOf<typeof ExecutionListBody>,
): Maybe<{ items: ExecutionAnswer[]; nextCursor: string | null }> {
  const pageSize = data.pageSize ?? 50;
  const before = data.cursor === undefined ? Number.MAX_SAFE_INTEGER : Number(data.cursor);
  const filter = { definitionId: data.definitionId ?? null, status: data.status ?? null };
  const { pageSameTimeMax } = workflowLimitsOf(services.workflows);
  return then(services.store.workflowExecutionsPage(caller.id, filter, before, pageSize, pageSameTimeMax), (rows) => ({
    items: rows.map((x) => executionView(x, [])),
    nextCursor: rows.length >= pageSize ? String(rows.at(-1)!.execution.startedAt) : null,
  }));
}

export function cancelWorkflowExecution(
  services: Services,
  caller: Caller,
  data: DataOf<typeof ExecutionCancelBody>,
): Maybe<{ cancelled: boolean; executionId: string }> {
  const now = services.clock();
  return then(
    services.store.workflowCommand(caller.id, data.executionId, now, (x, steps) =>
      cancelExecution(x.execution, steps, x.graph, data.reason ?? null, now),
    ),
    ({ cancelled }) => ({ cancelled, executionId: data.executionId }),
  );
}

/** executions/getEvents: the external events after sinceSeq; nextCursor is where the next page starts. */
export function executionEvents(services: Services, caller: Caller, data: DataOf<typeof ExecutionEventsBody>) {
  const since = data.sinceSeq ?? 0;
  const pageSize = Math.min(data.pageSize ?? 100, workflowLimitsOf(services.workflows).eventsPageMax);
  return then(services.store.workflowEvents(caller.id, data.executionId, since, pageSize + 1), (found) => {
    if (!found) throw noExecution(data.executionId);
    const { execution } = found.x;
    const hasMore = found.events.length > pageSize;
    const events = found.events.slice(0, pageSize).map((e) => ({
      eventId: e.eventId,
      seq: e.seq,
      type: e.type,
      stepId: e.stepId,
      timestamp: e.timestamp,
      correlationId: execution.correlationId,
      data: e.data,
    }));
    const last = events.at(-1)?.seq ?? 0;
    // Past the last page, the cursor moves over the internal events that follow too.
    const nextCursor = hasMore ? last : Math.max(since, last, execution.lastSeq);
    return { executionId: execution.executionId, events, nextCursor, hasMore };
  });
}

export function resolveWorkflowStep(services: Services, caller: Caller, data: DataOf<typeof StepResolveBody>) {
  const now = services.clock();
  const { maxStepsPerExecution } = workflowLimitsOf(services.workflows);
  const cmd = {
    stepId: data.stepId,
    action: data.action,
    actorId: data.actorId,
    output: data.output ?? null,
    reason: data.reason ?? null,
  };
  return then(
    services.store.workflowCommand(caller.id, data.executionId, now, (x, steps) =>
      resolveStep(x.execution, steps, x.graph, cmd, now, maxStepsPerExecution),
    ),
    () => ({ resolved: true as const, executionId: data.executionId, stepId: data.stepId, action: data.action }),
  );
}

export function recordWorkflowReviewerDecision(
  services: Services,
  caller: Caller,
  data: DataOf<typeof ReviewerDecisionBody>,
): Maybe<DecisionAnswer> {
  const now = services.clock();
  const { maxStepsPerExecution } = workflowLimitsOf(services.workflows);
  const cmd = { stepId: data.stepId, reviewerId: data.reviewerId, decision: data.decision, reason: data.reason ?? null };
  return services.store.workflowCommand(caller.id, data.executionId, now, (x, steps) =>
    recordReviewerDecision(x.execution, steps, x.graph, cmd, now, maxStepsPerExecution),
  );
}

export function cancelWorkflowStep(services: Services, caller: Caller, data: DataOf<typeof StepCancelBody>) {
  const now = services.clock();
  const cmd = { stepId: data.stepId, actorId: data.actorId, reason: data.reason ?? null };
  return then(
    services.store.workflowCommand(caller.id, data.executionId, now, (x, steps) =>
      cancelStep(x.execution, steps, x.graph, cmd, now),
    ),
    () => ({ cancelled: true as const, executionId: data.executionId, stepId: data.stepId }),
  );
}

export function recordWorkflowAgentResolution(
  services: Services,
  caller: Caller,
  data: DataOf<typeof AgentResolutionBody>,
): Maybe<DecisionAnswer> {
  const now = services.clock();
  const { maxStepsPerExecution } = workflowLimitsOf(services.workflows);
  const cmd = {
    stepId: data.stepId,
    responseId: data.responseId,
    resolution: data.resolution,
    actorId: data.actorId,
    reason: data.reason ?? null,
  };
  return services.store.workflowCommand(caller.id, data.executionId, now, (x, steps) =>
    recordAgentResolution(x.execution, steps, x.graph, cmd, now, maxStepsPerExecution),
  );
}
