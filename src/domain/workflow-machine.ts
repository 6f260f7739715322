// The state machine of approval workflow executions (docs/api.md, "Approval workflows"), over the
// stored data of one execution: a command (dispatch, cancel, resolve, a reviewer's decision, an agent
// resolution) takes the execution and its steps as read and answers what changed: the execution, the
// steps made or moved, and the events appended to its log, numbered after its last. Pure: the store
// reads and writes around it in one transaction, so a refusal (a Refusal thrown here) writes nothing.
//
// Executions: running -> completed | failed | cancelled (pending is never stored: dispatch starts the
// run in its own transaction). Steps: running -> waiting -> completed | failed | cancelled, or running
// -> completed at once (notification steps, the __mock__ agent). Nothing here calls a model, mails or
// posts: agent steps wait for a recorded resolution, webhook steps for a resolve (docs/decisions.md).
import { Refusal } from './refusal.js';
import {
  type CompiledGraph,
  type EdgeEndpoint,
  type NodeType,
  rootsOf,
  type WorkflowEdge,
  type WorkflowNode,
} from './workflow-graph.js';
import { atPath, holds } from './workflow-predicate.js';

export type ExecutionStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type StepStatus = 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';
export type AggregatorStatus = 'pending' | 'resolved' | 'rejected';
export type Problem = { code: string; message: string };

/** What a waiting human or agent step has heard: reviewers' decisions, or agent resolutions. */
export interface Aggregator {
  status: AggregatorStatus;
  /** Human: who may decide, and whether their approval is needed. */
  reviewers: { userId: string; mandatory: boolean }[];
  /** Agent: the responses a resolution may name. */
  responseIds: string[];
  /** In the order recorded: a reviewer's decision or an agent response's resolution. */
  answers: { by: string; value: 'approve' | 'reject'; actorId: string; reason: string | null; at: number }[];
}

export interface Step {
  stepId: string;
  /** Its place in the execution (steps are listed in this order). */
  ordinal: number;
  nodeId: string;
  nodeType: NodeType;
  status: StepStatus;
  startedAt: number;
  completedAt: number | null;
  output: Record<string, unknown>;
  error: Problem | null;
  aggregator: Aggregator | null;
}

export interface Execution {
  executionId: string;
  definitionId: string;
  definitionVersion: number;
  status: ExecutionStatus;
  correlationId: string;
  idempotencyKey: string;
  startedAt: number;
  completedAt: number | null;
  cancelledAt: number | null;
  failureReason: Problem | null;
  triggerContext: Record<string, unknown> | null;
  /** Iterations started per loop region (1 until a loop-back fires). */
  loops: Record<string, number>;
  /** The seq of the last event of its log. */
  lastSeq: number;
}

/** The definition an execution runs, as pinned at dispatch. */
export interface PinnedGraph {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  compiled: CompiledGraph;
}

export interface ExecutionEvent {
  seq: number;
  eventId: string;
  type: string;
  stepId: string | null;
  timestamp: number;
  /** Delivered (getEvents, the outbox); internal events only take their seq (the pages' gaps). */
  external: boolean;
  data: Record<string, unknown> | null;
}

/** The event types getEvents shows and the outbox carries (the pages' external catalog). */
export const EXTERNAL_EVENT_TYPES = [
  'execution.dispatched',
  'execution.completed',
  'execution.failed',
  'execution.cancelled',
  'step.awaiting-approval',
  'step.completed',
  'step.failed',
  'step.cancelled',
  'loop.iteration-started',
  'loop.exhausted',
] as const;
export type ExternalEventType = (typeof EXTERNAL_EVENT_TYPES)[number];
const EXTERNAL = new Set<string>(EXTERNAL_EVENT_TYPES);

/** What a command did: its answer, and what the store writes. */
export interface Transition<A> {
  answer: A;
  execution: Execution;
  /** Steps made or changed, in the order they were. */
  steps: Step[];
  events: ExecutionEvent[];
}

export type ResolveAction =
  | 'force-approve'
  | 'force-reject'
  | 'force-complete'
  | 'force-fail'
  | 'reviewer-approve'
  | 'reviewer-reject';

export interface DecisionAnswer {
  recorded: boolean;
  aggregatorStatus: AggregatorStatus | null;
  resumeScheduled: boolean;
  rejectionReason?: 'idempotent' | 'already-terminal' | 'unknown-responder' | 'aggregator-missing';
}

export const failedPrecondition = (message: string) => new Refusal('FAILED_PRECONDITION', message);
const notFound = (message: string) => new Refusal('NOT_FOUND', message);

const ACTIVE: ReadonlySet<StepStatus> = new Set(['running', 'waiting']);
const isTerminal = (s: ExecutionStatus) => s === 'completed' || s === 'failed' || s === 'cancelled';

/** A bare node id, of an edge end (groups are refused when a definition is written). */
const nodeOf = (e: EdgeEndpoint): string => (typeof e === 'string' ? e : e.kind === 'node' ? e.nodeId : e.groupId);

/** One command's run over an execution: it changes copies and keeps what it changed, in order. */
class Run {
  readonly execution: Execution;
  private readonly steps: Map<string, Step>;
  private readonly changed = new Map<string, Step>();
  readonly events: ExecutionEvent[] = [];
  private failing: Problem | null = null;

  constructor(
    execution: Execution,
    steps: readonly Step[],
    private readonly graph: PinnedGraph,
    private readonly now: number,
    private readonly maxSteps: number,
  ) {
    this.execution = { ...execution, loops: { ...execution.loops } };
    this.steps = new Map(steps.map((s) => [s.stepId, s]));
  }

  step(stepId: string): Step | undefined {
    return this.changed.get(stepId) ?? this.steps.get(stepId);
  }

  /** Keeps a step as changed (a waiting aggregator that heard an answer stays waiting). */
  put(step: Step): Step {
    this.changed.set(step.stepId, step);
    this.steps.set(step.stepId, step);
    return step;
  }

  emit(type: string, stepId: string | null, data: Record<string, unknown> | null): void {
    const seq = ++this.execution.lastSeq;
    const eventId = `evt_${this.execution.executionId.replace(/^exec_/, '')}_${seq}`;
    this.events.push({ seq, eventId, type, stepId, timestamp: this.now, external: EXTERNAL.has(type), data });
  }

  /** Starts a step of `nodeId`; what it does next depends on its node (see the file's comment). */
  start(stepId: string, nodeId: string): void {
    if (this.steps.has(stepId)) return;
    if (this.steps.size >= this.maxSteps) {
      this.fail({ code: 'step-limit', message: `The execution reached the most steps an execution may run (${this.maxSteps}).` });
      return;
    }
    const node = this.graph.nodes.find((n) => n.nodeId === nodeId)!;
    const step = this.put({
      stepId,
      ordinal: this.steps.size + 1,
      nodeId,
      nodeType: node.type,
      status: 'running',
      startedAt: this.now,
      completedAt: null,
      output: {},
      error: null,
      aggregator: null,
    });
    this.emit('step.scheduled', stepId, { nodeId });
    const c = node.config;
    if (node.type === 'notification') {
      // Not sent: a self-hosted server has no mail or Slack delivery (docs/decisions.md).
      this.finish(step, 'completed', { channel: c.channel, delivered: false }, null);
    } else if (node.type === 'agent' && c.agentId === '__mock__') {
      this.finish(step, 'completed', { agentId: c.agentId, synthetic: true, decision: 'approve' }, null);
    } else if (node.type === 'agent') {
      const fromPath = typeof c.urlPath === 'string' ? atPath(this.execution.triggerContext, c.urlPath) : undefined;
      const responseIds = [`resp_${step.ordinal}`];
      this.wait(
        step,
        { agentId: c.agentId, resolvedUrl: c.url ?? (typeof fromPath === 'string' ? fromPath : null), responseIds },
        {
          status: 'pending',
          reviewers: [],
          responseIds,
          answers: [],
        },
      );
      this.emit('step.awaiting-approval', stepId, { agentId: c.agentId, responseIds });
    } else if (node.type === 'human') {
      const reviewers = reviewersOf(c);
      const mandatoryCount = reviewers.filter((r) => r.mandatory).length;
      this.wait(
        step,
        {
          reviewers,
          reviewerIds: reviewers.map((r) => r.userId),
          reviewerEmails: (c.reviewerEmails as string[] | undefined) ?? [],
          commentBody: (c.commentBody as string | undefined) ?? null,
        },
        { status: 'pending', reviewers, responseIds: [], answers: [] },
      );
      this.emit('step.awaiting-approval', stepId, {
        waitingForReviewers: reviewers.length,
        mandatoryCount,
        resumeKey: `human:${stepId}`,
      });
    } else {
      // A webhook step waits, as the pages' async mode does, for a resolve (it posts nothing here).
      this.wait(step, { url: c.url, mode: c.mode ?? 'sync', called: false }, null);
      this.emit('step.awaiting-approval', stepId, { nodeType: 'webhook' });
    }
  }

  private wait(step: Step, output: Record<string, unknown>, aggregator: Aggregator | null): void {
    this.put({ ...step, status: 'waiting', output, aggregator });
  }

  /** A step ends: its event, then the edges its end fires. */
  finish(step: Step, status: 'completed' | 'failed', output: Record<string, unknown>, error: Problem | null): void {
    const done = this.put({ ...step, status, output, error, completedAt: this.now });
    const decision = typeof output.decision === 'string' ? output.decision : null;
    if (status === 'completed')
      this.emit('step.completed', done.stepId, {
        nodeType: done.nodeType,
        decision,
        ...(done.aggregator ? { aggregatorStatus: done.aggregator.status } : {}),
      });
    else this.emit('step.failed', done.stepId, { reason: error?.code ?? 'failed' });
    this.route(done);
  }

  cancel(step: Step, actorId: string, reason: string | null): void {
    this.put({ ...step, status: 'cancelled', completedAt: this.now });
    this.emit('step.cancelled', step.stepId, { actorId, reason });
  }

  /** The edges a step's end fires: forward edges whose predicate holds, then its loop-back. */
  private route(step: Step): void {
    const scope = {
      output: step.output,
      step: { stepId: step.stepId, nodeId: step.nodeId, status: step.status, retryCount: 0 },
      execution: { input: this.execution.triggerContext ?? {} },
    };
    const fired = this.graph.compiled.forwardEdges.filter(
      (e) =>
        e.from === step.nodeId &&
        (step.status === 'completed' ? e.when === null || holds(e.when, scope) : e.role === 'custom' && holds(e.when!, scope)),
    );
    for (const e of fired) this.start(`${step.stepId}__to__${e.to}`, e.to);
    if (step.status === 'completed' && this.loopBack(step)) return;
    if (step.status === 'failed' && fired.length === 0)
      this.fail({ code: 'step-failed', message: `Step ${step.stepId} failed and no edge routes its failure.` });
  }

  /** A mandatory reviewer's rejection at a loop's source: the next iteration, or the loop's exhaustion. */
  private loopBack(step: Step): boolean {
    if (step.output.decision !== 'reject' || step.output.rejectorMandatory !== true) return false;
    const back = this.graph.edges.find((e) => e.loop !== undefined && nodeOf(e.from) === step.nodeId);
    if (!back) return false;
    const loop = this.graph.compiled.loops.find((l) => l.entryNodeId === nodeOf(back.to) && l.bodyNodeIds.includes(step.nodeId))!;
    const iteration = this.execution.loops[loop.loopId] ?? 1;
    if (iteration < loop.maxIterations) {
      this.execution.loops[loop.loopId] = iteration + 1;
      this.emit('loop.iteration-started', step.stepId, {
        loopId: loop.loopId,
        iteration: iteration + 1,
        triggeredBy: 'rejection',
      });
      this.start(`${step.stepId}__to__${loop.entryNodeId}`, loop.entryNodeId);
      return true;
    }
    this.emit('loop.exhausted', step.stepId, {
      loopId: loop.loopId,
      iteration,
      lastRejectedBy: step.output.rejectedBy ?? null,
      lastRejectionReason: step.output.rejectionReason ?? null,
    });
    if (loop.onExhausted) this.start(`${step.stepId}__to__${loop.onExhausted.routeToNodeId}`, loop.onExhausted.routeToNodeId);
    else this.fail({ code: 'loop-exhausted', message: `Loop ${loop.loopId} reached its ${loop.maxIterations} iterations.` });
    return true;
  }

  fail(problem: Problem): void {
    this.failing ??= problem;
  }

  /** After a command: a failure ends the run (its active steps cancelled); no active step left completes it. */
  settle(): void {
    const x = this.execution;
    if (x.status !== 'running') return;
    if (this.failing) {
      for (const s of [...this.steps.values()])
        if (ACTIVE.has(s.status)) this.cancel(s, 'system:execution-failed', this.failing.code);
      Object.assign(x, { status: 'failed', completedAt: this.now, failureReason: this.failing });
      this.emit('execution.failed', null, null);
    } else if (![...this.steps.values()].some((s) => ACTIVE.has(s.status))) {
      Object.assign(x, { status: 'completed', completedAt: this.now });
      this.emit('execution.completed', null, null);
    }
  }

  done<A>(answer: A): Transition<A> {
    return { answer, execution: this.execution, steps: [...this.changed.values()], events: this.events };
  }
}

/** A human node's reviewers: `reviewers[]`, or the legacy `reviewerIds[]` (each mandatory). */
function reviewersOf(config: Record<string, unknown>): { userId: string; mandatory: boolean }[] {
  const reviewers = config.reviewers as { userId: string; mandatory?: boolean }[] | undefined;
  if (reviewers) return reviewers.map((r) => ({ userId: r.userId, mandatory: r.mandatory === true }));
  return ((config.reviewerIds as string[] | undefined) ?? []).map((userId) => ({ userId, mandatory: true }));
}

export interface DispatchInput {
  executionId: string;
  definitionId: string;
  definitionVersion: number;
  correlationId: string;
  idempotencyKey: string;
  triggerContext: Record<string, unknown> | null;
  /** The random part of root step ids (the execution's own). */
  rand: string;
}

/** dispatch: a running execution, `execution.dispatched`, and its root steps started. */
export function dispatch(input: DispatchInput, graph: PinnedGraph, now: number, maxSteps: number): Transition<null> {
  const exhausted = graph.edges.filter((e) => e.on === 'exhausted').map((e) => ({ to: nodeOf(e.to) }));
  const roots = rootsOf(graph.nodes, [...graph.compiled.forwardEdges, ...exhausted]);
  if (roots.length === 0) throw failedPrecondition(`Definition ${input.definitionId} has no root nodes.`);
  const execution: Execution = {
    ...input,
    status: 'running',
    startedAt: now,
    completedAt: null,
    cancelledAt: null,
    failureReason: null,
    loops: {},
    lastSeq: 0,
  };
  delete (execution as Partial<DispatchInput>).rand;
  const run = new Run(execution, [], graph, now, maxSteps);
  const rootStepIds = roots.map((id) => `step_${id}_${now}_${input.rand}`);
  run.emit('execution.dispatched', null, {
    definitionId: input.definitionId,
    definitionVersion: input.definitionVersion,
    rootStepIds,
  });
  for (const [i, id] of roots.entries()) run.start(rootStepIds[i]!, id);
  run.settle();
  return run.done(null);
}

/** executions/cancel: a running execution and its active steps cancelled; a terminal one is left as it is. */
export function cancelExecution(
  execution: Execution,
  steps: readonly Step[],
  graph: PinnedGraph,
  reason: string | null,
  now: number,
): Transition<{ cancelled: boolean }> {
  const run = new Run(execution, steps, graph, now, Number.MAX_SAFE_INTEGER);
  if (isTerminal(execution.status)) return run.done({ cancelled: false });
  for (const s of steps) if (ACTIVE.has(s.status)) run.cancel(s, 'system:execution-cancel', reason);
  Object.assign(run.execution, { status: 'cancelled', cancelledAt: now, completedAt: now });
  run.emit('execution.cancelled', null, reason === null ? {} : { reason });
  return run.done({ cancelled: true });
}

/** The step of a step command, or NOT_FOUND. */
function stepOf(run: Run, stepId: string): Step {
  const step = run.step(stepId);
  if (!step) throw notFound(`Step ${stepId} not found in execution ${run.execution.executionId}.`);
  return step;
}

/** steps/cancel: an active step cancelled; no edge fires from it. */
export function cancelStep(
  execution: Execution,
  steps: readonly Step[],
  graph: PinnedGraph,
  cmd: { stepId: string; actorId: string; reason: string | null },
  now: number,
): Transition<null> {
  const run = new Run(execution, steps, graph, now, Number.MAX_SAFE_INTEGER);
  const step = stepOf(run, cmd.stepId);
  if (!ACTIVE.has(step.status)) throw failedPrecondition(`Step ${cmd.stepId} is already ${step.status}.`);
  run.cancel(step, cmd.actorId, cmd.reason);
  run.settle();
  return run.done(null);
}

/** steps/resolve: the action matrix of its page (force-* by an operator, reviewer-* by a declared reviewer). */
export function resolveStep(
  execution: Execution,
  steps: readonly Step[],
  graph: PinnedGraph,
  cmd: { stepId: string; action: ResolveAction; actorId: string; output: Record<string, unknown> | null; reason: string | null },
  now: number,
  maxSteps: number,
): Transition<null> {
  const run = new Run(execution, steps, graph, now, maxSteps);
  const step = run.step(cmd.stepId);
  const byReviewer = cmd.action.startsWith('reviewer-');
  if (!step) {
    if (byReviewer) throw notFound(`Step ${cmd.stepId} not found in execution ${execution.executionId}.`);
    throw failedPrecondition('resolveStep not applied: step-not-found');
  }
  if (byReviewer) {
    if (step.nodeType !== 'human')
      throw failedPrecondition(`${cmd.action} applies to human steps; step ${cmd.stepId} is ${step.nodeType}.`);
    if (!step.aggregator?.reviewers.some((r) => r.userId === cmd.actorId))
      throw new Refusal('PERMISSION_DENIED', `${cmd.actorId} is not a reviewer of step ${cmd.stepId}.`);
  }
  const allowed: readonly StepStatus[] =
    cmd.action === 'force-complete' || cmd.action === 'force-fail' ? ['running', 'waiting'] : ['waiting'];
  if (!allowed.includes(step.status)) throw failedPrecondition(`resolveStep not applied: step ${cmd.stepId} is ${step.status}.`);
  const decision = cmd.action.endsWith('approve') ? 'approve' : cmd.action.endsWith('reject') ? 'reject' : null;
  run.emit('step.overridden', step.stepId, { actorId: cmd.actorId, action: cmd.action, reason: cmd.reason, decision });
  const given = cmd.output ?? {};
  if (decision === null)
    run.finish(
      step,
      cmd.action === 'force-fail' ? 'failed' : 'completed',
      { overriddenAt: now, ...given },
      cmd.action === 'force-fail' ? { code: 'force-fail', message: cmd.reason ?? `Failed by ${cmd.actorId}.` } : null,
    );
  else
    run.finish(
      step,
      'completed',
      {
        ...step.output,
        ...given,
        decision,
        approved: decision === 'approve',
        approvalReply: { actorId: cmd.actorId, action: cmd.action, reason: cmd.reason },
        overriddenAt: now,
      },
      null,
    );
  run.settle();
  return run.done(null);
}

/** How a waiting aggregator takes an answer, or why it does not (the pages' "Not recorded" answers). */
function notRecorded(step: Step, by: string, known: boolean): DecisionAnswer | null {
  const agg = step.aggregator!;
  if (agg.answers.some((a) => a.by === by))
    return { recorded: false, aggregatorStatus: agg.status, resumeScheduled: false, rejectionReason: 'idempotent' };
  if (agg.status !== 'pending')
    return { recorded: false, aggregatorStatus: agg.status, resumeScheduled: false, rejectionReason: 'already-terminal' };
  if (step.status !== 'waiting') throw failedPrecondition(`Step ${step.stepId} is ${step.status}, not waiting.`);
  if (!known)
    return { recorded: false, aggregatorStatus: agg.status, resumeScheduled: false, rejectionReason: 'unknown-responder' };
  return null;
}

/**
 * steps/recordReviewerDecision: a reviewer's decision on a waiting human step. Any rejection rejects
 * it; it resolves once every mandatory reviewer approved. Either resumes the step (its edges fire).
 */
export function recordReviewerDecision(
  execution: Execution,
  steps: readonly Step[],
  graph: PinnedGraph,
  cmd: { stepId: string; reviewerId: string; decision: 'approve' | 'reject'; reason: string | null },
  now: number,
  maxSteps: number,
): Transition<DecisionAnswer> {
  const run = new Run(execution, steps, graph, now, maxSteps);
  const step = stepOf(run, cmd.stepId);
  if (step.nodeType !== 'human') throw failedPrecondition(`Step ${cmd.stepId} is not a human step.`);
  const agg = step.aggregator!;
  const reviewer = agg.reviewers.find((r) => r.userId === cmd.reviewerId);
  const refused = notRecorded(step, cmd.reviewerId, reviewer !== undefined);
  if (refused) return run.done(refused);
  const answers = [
    ...agg.answers,
    { by: cmd.reviewerId, value: cmd.decision, actorId: cmd.reviewerId, reason: cmd.reason, at: now },
  ];
  const approvedBy = new Set(answers.filter((a) => a.value === 'approve').map((a) => a.by));
  const mandatory = agg.reviewers.filter((r) => r.mandatory);
  const status: AggregatorStatus =
    cmd.decision === 'reject' ? 'rejected' : mandatory.every((r) => approvedBy.has(r.userId)) ? 'resolved' : 'pending';
  const moved = { ...step, aggregator: { ...agg, status, answers } };
  run.emit('step.response-recorded', step.stepId, { reviewerId: cmd.reviewerId, decision: cmd.decision });
  if (status === 'pending') {
    run.put(moved);
    return run.done({ recorded: true, aggregatorStatus: status, resumeScheduled: false });
  }
  const rejecting = status === 'rejected';
  run.finish(
    moved,
    'completed',
    {
      ...step.output,
      aggregatorStatus: status,
      approveCount: approvedBy.size,
      rejectCount: answers.filter((a) => a.value === 'reject').length,
      totalResponses: answers.length,
      mandatoryCount: mandatory.length,
      mandatoryApproveCount: mandatory.filter((r) => approvedBy.has(r.userId)).length,
      decision: rejecting ? 'reject' : 'approve',
      approved: !rejecting,
      ...(rejecting ? { rejectedBy: cmd.reviewerId, rejectorMandatory: reviewer!.mandatory, rejectionReason: cmd.reason } : {}),
      resumedAt: now,
      resumeKey: `human:${step.stepId}`,
    },
    null,
  );
  run.settle();
  return run.done({ recorded: true, aggregatorStatus: status, resumeScheduled: true });
}

/**
 * steps/recordAgentResolution: a resolution of one of a waiting agent step's responses, recorded as
 * data. A rejected response rejects the step; once every response is resolved it resolves. Either
 * completes the step with that decision (its approve or reject edges fire).
 */
export function recordAgentResolution(
  execution: Execution,
  steps: readonly Step[],
  graph: PinnedGraph,
  cmd: { stepId: string; responseId: string; resolution: 'resolved' | 'rejected'; actorId: string; reason: string | null },
  now: number,
  maxSteps: number,
): Transition<DecisionAnswer> {
  const run = new Run(execution, steps, graph, now, maxSteps);
  const step = stepOf(run, cmd.stepId);
  if (step.nodeType !== 'agent' || step.aggregator === null)
    throw failedPrecondition(`Step ${cmd.stepId} is not an agent step waiting for a resolution.`);
  const agg = step.aggregator;
  const refused = notRecorded(step, cmd.responseId, agg.responseIds.includes(cmd.responseId));
  if (refused) return run.done(refused);
  const value = cmd.resolution === 'resolved' ? 'approve' : 'reject';
  const answers = [...agg.answers, { by: cmd.responseId, value, actorId: cmd.actorId, reason: cmd.reason, at: now } as const];
  const status: AggregatorStatus =
    value === 'reject' ? 'rejected' : agg.responseIds.every((id) => answers.some((a) => a.by === id)) ? 'resolved' : 'pending';
  const moved = { ...step, aggregator: { ...agg, status, answers } };
  run.emit('step.response-recorded', step.stepId, {
    responseId: cmd.responseId,
    resolution: cmd.resolution,
    actorId: cmd.actorId,
  });
  if (status === 'pending') {
    run.put(moved);
    return run.done({ recorded: true, aggregatorStatus: status, resumeScheduled: false });
  }
  run.finish(
    moved,
    'completed',
    {
      ...step.output,
      resolutions: answers.map((a) => ({
        responseId: a.by,
        resolution: a.value === 'approve' ? 'resolved' : 'rejected',
        actorId: a.actorId,
        reason: a.reason,
      })),
      decision: value,
    },
    null,
  );
  run.settle();
  return run.done({ recorded: true, aggregatorStatus: status, resumeScheduled: true });
}
