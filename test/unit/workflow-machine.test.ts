// The approval workflow state machine (src/domain/workflow-machine.ts), without a database: every
// transition of the pages' commands from a known state, as one table (what it answers or refuses, the
// statuses it leaves, the events it appends), then a property: whatever commands come in whatever
// order, the log is numbered without gaps, a running execution has a step to wait on, a terminal one
// has none and never moves again, and no execution runs more steps than its limit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Refusal } from '../../src/domain/refusal.js';
import { compile, type WorkflowEdge, type WorkflowNode } from '../../src/domain/workflow-graph.js';
import {
  cancelExecution,
  cancelStep,
  dispatch,
  type Execution,
  type ExecutionEvent,
  type PinnedGraph,
  recordAgentResolution,
  recordReviewerDecision,
  resolveStep,
  type Step,
  type Transition,
} from '../../src/domain/workflow-machine.js';

const agent = (nodeId: string, agentId = 'writer'): WorkflowNode => ({
  nodeId,
  type: 'agent',
  config: { agentId, url: 'https://x.example' },
});
const human = (nodeId: string, reviewers = [{ userId: 'lead', mandatory: true }]): WorkflowNode => ({
  nodeId,
  type: 'human',
  config: { reviewers },
});
const graphOf = (nodes: WorkflowNode[], edges: WorkflowEdge[]): PinnedGraph => ({
  nodes,
  edges,
  compiled: compile({ nodes, edges }),
});

/** draft -> review; approve -> publish, reject -> rework (the pages' marketing example). */
const MARKETING = graphOf(
  [
    agent('draft'),
    human('review', [
      { userId: 'lead', mandatory: true },
      { userId: 'peer', mandatory: false },
    ]),
    agent('publish'),
    agent('rework'),
  ],
  [
    { from: 'draft', to: 'review' },
    { from: 'review', to: 'publish', on: 'approve' },
    { from: 'review', to: 'rework', on: 'reject' },
  ],
);
/** draft -> review, re-drafted on a mandatory rejection (2 iterations), then escalate. */
const LOOP = (exhausted: boolean) =>
  graphOf(
    [agent('draft', '__mock__'), human('review'), agent('escalate')],
    [
      { from: 'draft', to: 'review' },
      { from: 'review', to: 'draft', on: 'reject', loop: { maxIterations: 2 } },
      ...(exhausted ? [{ from: 'review', to: 'escalate', on: 'exhausted' as const }] : []),
    ],
  );
/** A failure routed by a custom edge on the step's status. */
const ESCALATING = graphOf(
  [agent('draft'), agent('escalate')],
  [{ from: 'draft', to: 'escalate', on: 'custom', when: '{"op":"eq","args":[{"var":"step.status"},"failed"]}' }],
);
const CHAIN = graphOf(
  [agent('a', '__mock__'), agent('b', '__mock__'), agent('c', '__mock__')],
  [
    { from: 'a', to: 'b' },
    { from: 'b', to: 'c' },
  ],
);

interface State {
  execution: Execution;
  steps: Step[];
  graph: PinnedGraph;
  log: ExecutionEvent[];
  /** The execution's step limit, which every command is given. */
  max: number;
}

const T = 1_000;
const apply = (s: State, t: Transition<unknown>): State => {
  const steps = [...s.steps];
  for (const changed of t.steps) {
    const i = steps.findIndex((x) => x.stepId === changed.stepId);
    if (i >= 0) steps[i] = changed;
    else steps.push(changed);
  }
  return { ...s, execution: t.execution, steps, log: [...s.log, ...t.events] };
};
const started = (graph: PinnedGraph, maxSteps = 100): State => {
  const input = {
    executionId: 'exec_1_abc',
    definitionId: 'def',
    definitionVersion: 1,
    correlationId: 'corr',
    idempotencyKey: 'key',
    triggerContext: null,
    rand: 'abc',
  };
  const t = dispatch(input, graph, T, maxSteps);
  return apply({ execution: t.execution, steps: [], graph, log: [], max: maxSteps }, t);
};

type Command = (s: State) => Transition<unknown>;
const stepOf = (s: State, nodeId: string) => [...s.steps].reverse().find((x) => x.nodeId === nodeId)!;
const resolveAgent =
  (nodeId: string, resolution: 'resolved' | 'rejected' = 'resolved', responseId?: string): Command =>
  (s) => {
    const step = stepOf(s, nodeId);
    const id = responseId ?? (step.output.responseIds as string[])[0]!;
    return recordAgentResolution(
      s.execution,
      s.steps,
      s.graph,
      { stepId: step.stepId, responseId: id, resolution, actorId: 'a', reason: null },
      T,
      s.max,
    );
  };
const decide =
  (nodeId: string, reviewerId: string, decision: 'approve' | 'reject'): Command =>
  (s) =>
    recordReviewerDecision(
      s.execution,
      s.steps,
      s.graph,
      { stepId: stepOf(s, nodeId)?.stepId ?? 'none', reviewerId, decision, reason: 'why' },
      T,
      s.max,
    );
const resolve =
  (nodeId: string, action: Parameters<typeof resolveStep>[3]['action'], actorId = 'ops'): Command =>
  (s) =>
    resolveStep(
      s.execution,
      s.steps,
      s.graph,
      { stepId: stepOf(s, nodeId)?.stepId ?? 'none', action, actorId, output: null, reason: null },
      T,
      s.max,
    );
const cancelOne =
  (nodeId: string): Command =>
  (s) =>
    cancelStep(s.execution, s.steps, s.graph, { stepId: stepOf(s, nodeId).stepId, actorId: 'admin', reason: 'r' }, T);
const cancelAll: Command = (s) => cancelExecution(s.execution, s.steps, s.graph, 'stop', T);

interface Row {
  name: string;
  graph: PinnedGraph;
  before?: Command[];
  command?: Command;
  maxSteps?: number;
  answer?: unknown;
  refused?: [string, RegExp?];
  execution?: Execution['status'];
  /** The status of each node's latest step, for the nodes named. */
  steps?: Record<string, Step['status'] | undefined>;
  events?: string[];
}

const TABLE: Row[] = [
  {
    name: 'dispatch: running, the root agent waits for a resolution',
    graph: MARKETING,
    execution: 'running',
    steps: { draft: 'waiting', review: undefined },
    events: ['execution.dispatched', 'step.scheduled', 'step.awaiting-approval'],
  },
  {
    name: 'dispatch: a __mock__ agent completes at once and its successor starts',
    graph: LOOP(true),
    steps: { draft: 'completed', review: 'waiting' },
    events: ['execution.dispatched', 'step.scheduled', 'step.completed', 'step.scheduled', 'step.awaiting-approval'],
  },
  {
    name: 'dispatch: the chain past the step limit fails the execution',
    graph: CHAIN,
    maxSteps: 2,
    execution: 'failed',
    steps: { a: 'completed', b: 'completed', c: undefined },
  },
  {
    name: 'agent resolution resolved: the step completes (approve) and the review waits',
    graph: MARKETING,
    command: resolveAgent('draft'),
    answer: { recorded: true, aggregatorStatus: 'resolved', resumeScheduled: true },
    steps: { draft: 'completed', review: 'waiting' },
    events: ['step.response-recorded', 'step.completed', 'step.scheduled', 'step.awaiting-approval'],
  },
  {
    name: 'agent resolution rejected: completed with decision reject; its always edge fires',
    graph: MARKETING,
    command: resolveAgent('draft', 'rejected'),
    answer: { recorded: true, aggregatorStatus: 'rejected', resumeScheduled: true },
    steps: { draft: 'completed', review: 'waiting' },
  },
  {
    name: 'agent resolution of an unknown response: not recorded',
    graph: MARKETING,
    command: resolveAgent('draft', 'resolved', 'resp_99'),
    answer: { recorded: false, aggregatorStatus: 'pending', resumeScheduled: false, rejectionReason: 'unknown-responder' },
    steps: { draft: 'waiting' },
    events: [],
  },
  {
    name: 'agent resolution replayed: idempotent',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: resolveAgent('draft', 'rejected'),
    answer: { recorded: false, aggregatorStatus: 'resolved', resumeScheduled: false, rejectionReason: 'idempotent' },
  },
  {
    name: 'agent resolution on a human step: FAILED_PRECONDITION',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: (s) =>
      recordAgentResolution(
        s.execution,
        s.steps,
        s.graph,
        { stepId: stepOf(s, 'review').stepId, responseId: 'resp_1', resolution: 'resolved', actorId: 'a', reason: null },
        T,
        100,
      ),
    refused: ['FAILED_PRECONDITION'],
  },
  {
    name: 'a mandatory approval resolves the review: approve edge fires',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: decide('review', 'lead', 'approve'),
    answer: { recorded: true, aggregatorStatus: 'resolved', resumeScheduled: true },
    steps: { review: 'completed', publish: 'waiting', rework: undefined },
  },
  {
    name: 'an optional approval alone leaves the review pending',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: decide('review', 'peer', 'approve'),
    answer: { recorded: true, aggregatorStatus: 'pending', resumeScheduled: false },
    steps: { review: 'waiting' },
    events: ['step.response-recorded'],
  },
  {
    name: "any reviewer's rejection rejects the review: reject edge fires",
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: decide('review', 'peer', 'reject'),
    answer: { recorded: true, aggregatorStatus: 'rejected', resumeScheduled: true },
    steps: { review: 'completed', publish: undefined, rework: 'waiting' },
  },
  {
    name: 'a decision after the review is decided: already-terminal',
    graph: MARKETING,
    before: [resolveAgent('draft'), decide('review', 'peer', 'reject')],
    command: decide('review', 'lead', 'approve'),
    answer: { recorded: false, aggregatorStatus: 'rejected', resumeScheduled: false, rejectionReason: 'already-terminal' },
  },
  {
    name: 'a decision by someone not listed: unknown-responder',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: decide('review', 'mallory', 'reject'),
    answer: { recorded: false, aggregatorStatus: 'pending', resumeScheduled: false, rejectionReason: 'unknown-responder' },
    steps: { review: 'waiting' },
  },
  {
    name: 'a decision on an agent step: FAILED_PRECONDITION',
    graph: MARKETING,
    command: decide('draft', 'lead', 'approve'),
    refused: ['FAILED_PRECONDITION'],
  },
  {
    name: 'a decision on a missing step: NOT_FOUND',
    graph: MARKETING,
    command: decide('review', 'lead', 'approve'),
    refused: ['NOT_FOUND'],
  },
  {
    name: 'force-approve a waiting agent: completed, approve; overridden in the log',
    graph: MARKETING,
    command: resolve('draft', 'force-approve'),
    steps: { draft: 'completed', review: 'waiting' },
    events: ['step.overridden', 'step.completed', 'step.scheduled', 'step.awaiting-approval'],
  },
  {
    name: 'force-reject the review: its reject edge fires',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: resolve('review', 'force-reject'),
    steps: { review: 'completed', rework: 'waiting' },
  },
  {
    name: 'force-complete a completed step: FAILED_PRECONDITION',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: resolve('draft', 'force-complete'),
    refused: ['FAILED_PRECONDITION', /completed/],
  },
  {
    name: 'force-* on a missing step: FAILED_PRECONDITION step-not-found',
    graph: MARKETING,
    command: resolve('review', 'force-fail'),
    refused: ['FAILED_PRECONDITION', /step-not-found/],
  },
  {
    name: 'reviewer-* on a missing step: NOT_FOUND',
    graph: MARKETING,
    command: resolve('review', 'reviewer-approve'),
    refused: ['NOT_FOUND'],
  },
  {
    name: 'reviewer-* on an agent step: FAILED_PRECONDITION',
    graph: MARKETING,
    command: resolve('draft', 'reviewer-approve', 'lead'),
    refused: ['FAILED_PRECONDITION'],
  },
  {
    name: 'reviewer-* by someone not listed: PERMISSION_DENIED',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: resolve('review', 'reviewer-approve', 'mallory'),
    refused: ['PERMISSION_DENIED'],
  },
  {
    name: 'reviewer-approve by an optional reviewer: completed, approve',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: resolve('review', 'reviewer-approve', 'peer'),
    steps: { review: 'completed', publish: 'waiting' },
  },
  {
    name: 'force-fail with no edge for it: the execution fails, its other steps cancelled',
    graph: MARKETING,
    command: resolve('draft', 'force-fail'),
    execution: 'failed',
    steps: { draft: 'failed' },
    events: ['step.overridden', 'step.failed', 'execution.failed'],
  },
  {
    name: "force-fail routed by a custom edge on the step's status",
    graph: ESCALATING,
    command: resolve('draft', 'force-fail'),
    execution: 'running',
    steps: { draft: 'failed', escalate: 'waiting' },
  },
  {
    name: 'steps/cancel: the step ends, nothing fires, the run completes',
    graph: MARKETING,
    command: cancelOne('draft'),
    execution: 'completed',
    steps: { draft: 'cancelled', review: undefined },
    events: ['step.cancelled', 'execution.completed'],
  },
  {
    name: 'steps/cancel of a terminal step: FAILED_PRECONDITION',
    graph: MARKETING,
    before: [resolveAgent('draft')],
    command: cancelOne('draft'),
    refused: ['FAILED_PRECONDITION'],
  },
  {
    name: 'executions/cancel: cancelled with its active steps',
    graph: MARKETING,
    command: cancelAll,
    answer: { cancelled: true },
    execution: 'cancelled',
    steps: { draft: 'cancelled' },
    events: ['step.cancelled', 'execution.cancelled'],
  },
  {
    name: 'executions/cancel of a terminal execution: a no-op',
    graph: MARKETING,
    before: [cancelAll],
    command: cancelAll,
    answer: { cancelled: false },
    execution: 'cancelled',
    events: [],
  },
  {
    name: 'the last step completing completes the execution',
    graph: MARKETING,
    before: [resolveAgent('draft'), decide('review', 'lead', 'approve')],
    command: resolveAgent('publish'),
    execution: 'completed',
    events: ['step.response-recorded', 'step.completed', 'execution.completed'],
  },
  {
    name: 'a mandatory rejection in a loop: the next iteration',
    graph: LOOP(true),
    command: decide('review', 'lead', 'reject'),
    steps: { review: 'waiting' },
    events: [
      'step.response-recorded',
      'step.completed',
      'loop.iteration-started',
      'step.scheduled',
      'step.completed',
      'step.scheduled',
      'step.awaiting-approval',
    ],
  },
  {
    name: 'a rejection at the cap: exhausted, and the exhausted route',
    graph: LOOP(true),
    before: [decide('review', 'lead', 'reject')],
    command: decide('review', 'lead', 'reject'),
    steps: { review: 'completed', escalate: 'waiting' },
    events: ['step.response-recorded', 'step.completed', 'loop.exhausted', 'step.scheduled', 'step.awaiting-approval'],
  },
  {
    name: 'a rejection at the cap without an exhausted route: the execution fails',
    graph: LOOP(false),
    before: [decide('review', 'lead', 'reject')],
    command: decide('review', 'lead', 'reject'),
    execution: 'failed',
  },
  {
    name: 'force-reject in a loop is no mandatory rejection: no iteration, the run completes',
    graph: LOOP(true),
    command: resolve('review', 'force-reject'),
    execution: 'completed',
  },
];

describe('the workflow state machine, transition by transition', () => {
  for (const row of TABLE)
    test(row.name, () => {
      let s = started(row.graph, row.maxSteps);
      for (const c of row.before ?? []) s = apply(s, c(s));
      const logged = s.log.length;
      if (row.refused) {
        assert.throws(
          () => row.command!(s),
          (err: unknown) =>
            err instanceof Refusal && err.code === row.refused![0] && (row.refused![1]?.test(err.message) ?? true),
        );
        return;
      }
      if (row.command) {
        const t = row.command(s);
        if (row.answer !== undefined) assert.deepEqual(t.answer, row.answer);
        s = apply(s, t);
      }
      if (row.execution) assert.equal(s.execution.status, row.execution);
      for (const [nodeId, status] of Object.entries(row.steps ?? {})) assert.equal(stepOf(s, nodeId)?.status, status, nodeId);
      const appended = row.command ? s.log.slice(logged) : s.log;
      if (row.events)
        assert.deepEqual(
          appended.map((e) => e.type),
          row.events,
        );
    });
});

describe('the workflow state machine, whatever comes in', () => {
  test('the log is numbered without gaps; running has a step to wait on; terminal has none and stays; steps stay bounded', () => {
    const nodes = ['draft', 'review', 'publish', 'rework', 'escalate'];
    const command = fc.oneof(
      fc.record({ kind: fc.constant('agent' as const), node: fc.constantFrom(...nodes), ok: fc.boolean() }),
      fc.record({ kind: fc.constant('decide' as const), who: fc.constantFrom('lead', 'peer', 'mallory'), ok: fc.boolean() }),
      fc.record({
        kind: fc.constant('resolve' as const),
        node: fc.constantFrom(...nodes),
        action: fc.constantFrom(
          'force-approve',
          'force-reject',
          'force-complete',
          'force-fail',
          'reviewer-approve',
          'reviewer-reject',
        ),
      }),
      fc.record({ kind: fc.constant('cancelStep' as const), node: fc.constantFrom(...nodes) }),
      fc.record({ kind: fc.constant('cancel' as const) }),
    );
    const graphs = [MARKETING, LOOP(true), LOOP(false), ESCALATING];
    fc.assert(
      fc.property(
        fc.constantFrom(...graphs),
        fc.array(command, { maxLength: 25 }),
        fc.integer({ min: 1, max: 8 }),
        (graph, commands, maxSteps) => {
          let s = started(graph, maxSteps);
          for (const c of commands) {
            const before = s.execution.status;
            let t: Transition<unknown>;
            try {
              t =
                c.kind === 'agent'
                  ? resolveAgent(c.node, c.ok ? 'resolved' : 'rejected')(s)
                  : c.kind === 'decide'
                    ? decide('review', c.who, c.ok ? 'approve' : 'reject')(s)
                    : c.kind === 'resolve'
                      ? resolve(c.node, c.action, 'lead')(s)
                      : c.kind === 'cancelStep'
                        ? cancelOne(c.node)(s)
                        : cancelAll(s);
            } catch (err) {
              if (err instanceof Refusal || err instanceof TypeError) continue; // a refusal, or a node with no step yet
              throw err;
            }
            s = apply(s, t);
            if (before !== 'running') assert.equal(s.execution.status, before, 'a terminal execution never moves');
          }
          assert.deepEqual(
            s.log.map((e) => e.seq),
            s.log.map((_, i) => i + 1),
          );
          assert.equal(s.execution.lastSeq, s.log.length);
          const active = s.steps.filter((x) => x.status === 'running' || x.status === 'waiting');
          if (s.execution.status === 'running') assert.ok(active.length > 0, 'a running execution waits on a step');
          else assert.equal(active.length, 0, 'a terminal execution has no active step');
          assert.ok(s.steps.length <= maxSteps);
        },
      ),
      { numRuns: Number(process.env.RUNS ?? 300) },
    );
  });
});

test('every external log type has its outbox type, and every workflow event type is one of them', async () => {
  const { OUTBOX_TYPES } = await import('../../src/store/workflows/events.js');
  const { EVENT_TYPES } = await import('../../src/schemas/event-types.js');
  const { EXTERNAL_EVENT_TYPES } = await import('../../src/domain/workflow-machine.js');
  assert.deepEqual(Object.keys(OUTBOX_TYPES).sort(), [...EXTERNAL_EVENT_TYPES].sort());
  assert.deepEqual(
    Object.values(OUTBOX_TYPES).sort(),
    EVENT_TYPES.filter((t) => t.startsWith('workflow.')).sort(),
    'no workflow event type is declared that nothing sends',
  );
  for (const [log, outbox] of Object.entries(OUTBOX_TYPES)) assert.equal(outbox, `workflow.${log.replace(/[.-]/g, '_')}`);
});
