// Approval workflows (workflow/* on /v2) on the configured database: the pages' examples answered as
// printed (`{"result": ...}`, no status/message), definitions versioned with ifVersion, a run driven
// from dispatch to completion through agent resolutions, reviewers' decisions and overrides, its event
// log paged, idempotent dispatch, loops, cancels, deletes; refusals with the pages' codes and messages;
// and tenants kept apart: another tenant sees and moves nothing of a tenant's workflows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type Caller, type Reply, type TestApp } from '../helpers/app.js';
import { expectMissingCredentials } from '../helpers/security.js';

let t: TestApp;
let now = Date.UTC(2024, 10, 12, 17, 20);
before(async () => {
  t = await makeTestApp({ clock: () => now });
});
after(async () => t.close());

const P = PATHS;
/** A workflow call that must succeed: its answer's `result`, checked to carry no status/message envelope. */
async function ok(c: Caller, path: string, data: unknown): Promise<any> {
  const r = await c.post(path, data);
  assert.equal(r.status, 200, `${path}: ${r.body.slice(0, 600)}`);
  assert.equal(r.json.result.status === 'success' && typeof r.json.result.message === 'string', false, r.body);
  return r.json.result;
}

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;

/** The pages' marketing-copy approval: a draft agent, a human review, and a publish or a rework agent. */
const marketing = (definitionId: string) => ({
  definitionId,
  name: 'Marketing copy approval',
  scope: { level: 'apiKey' },
  nodes: [
    { nodeId: 'agent-draft', type: 'agent', config: { agentId: 'copy-agent-v1', urlPath: 'documentUrl' } },
    { nodeId: 'human-review', type: 'human', config: { reviewers: [{ userId: 'u_reviewer_01', mandatory: true }] } },
    { nodeId: 'agent-publish', type: 'agent', config: { agentId: 'publish-agent-v1', urlPath: 'documentUrl' } },
    { nodeId: 'agent-rework', type: 'agent', config: { agentId: 'rework-agent-v1', urlPath: 'documentUrl' } },
  ],
  edges: [
    { from: 'agent-draft', to: 'human-review' },
    { from: 'human-review', to: 'agent-publish', on: 'approve' },
    { from: 'human-review', to: 'agent-rework', on: 'reject' },
  ],
});

/** A review loop: a draft, two reviewers (one optional), re-drafted on a mandatory rejection at most twice, then escalated. */
const looping = (definitionId: string) => ({
  definitionId,
  name: 'Review loop',
  nodes: [
    { nodeId: 'draft', type: 'agent', config: { agentId: 'writer', url: 'https://acme.example/doc' } },
    {
      nodeId: 'review',
      type: 'human',
      config: {
        reviewers: [
          { userId: 'lead', mandatory: true },
          { userId: 'peer', mandatory: false },
        ],
      },
    },
    {
      nodeId: 'notify',
      type: 'notification',
      config: { channel: 'email', recipients: ['a@acme.example'], bodyTemplate: 'Done' },
    },
    { nodeId: 'escalate', type: 'webhook', config: { url: 'https://hooks.acme.example/escalate', mode: 'async' } },
  ],
  edges: [
    { from: 'draft', to: 'review' },
    { from: 'review', to: 'notify', on: 'approve' },
    { from: 'review', to: 'draft', on: 'reject', loop: { maxIterations: 2 } },
    { from: 'review', to: 'escalate', on: 'exhausted' },
  ],
});

const COMPILED_MARKETING = {
  forwardEdges: [
    { from: 'agent-draft', to: 'human-review', role: 'always', when: null },
    {
      from: 'human-review',
      to: 'agent-publish',
      role: 'approve',
      when: { op: 'eq', args: [{ var: 'output.decision' }, 'approve'] },
    },
    {
      from: 'human-review',
      to: 'agent-rework',
      role: 'reject',
      when: { op: 'eq', args: [{ var: 'output.decision' }, 'reject'] },
    },
  ],
  loops: [],
};

const execution = (c: Caller, executionId: string) => ok(c, P.workflowExecutionsGet, { executionId });
const waitingStep = (x: any, nodeId: string) => x.steps.find((s: any) => s.nodeId === nodeId && s.status === 'waiting');
const allEvents = async (c: Caller, executionId: string) =>
  (await ok(c, P.workflowExecutionsGetEvents, { executionId, pageSize: 500 })).events as any[];

describe('workflow definitions', () => {
  test("create: the page's example, answered as printed (compiled edges, every unset member null)", async () => {
    const id = uniq('marketing-copy-approval');
    const r = await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    const { nodes, edges } = marketing(id);
    assert.deepEqual(r, {
      definitionId: id,
      name: 'Marketing copy approval',
      description: null,
      version: 1,
      scope: { level: 'apiKey', organizationId: null, documentId: null },
      nodes,
      edges,
      groups: null,
      compiled: COMPILED_MARKETING,
      triggers: null,
      tags: null,
      custom: null,
      createdAt: now,
      updatedAt: now,
      status: 'active',
    });
    assert.deepEqual(await ok(t.a, P.workflowDefinitionsGet, { definitionId: id }), r);
    expectError(await t.a.post(P.workflowDefinitionsCreate, marketing(id)), 409, 'ALREADY_EXISTS');
  });

  test('update: the next version when ifVersion is the stored one; a stale ifVersion is a version conflict', async () => {
    const id = uniq('upd');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    now += 1000;
    const v2 = await ok(t.a, P.workflowDefinitionsUpdate, { ...marketing(id), ifVersion: 1, name: 'Q2 revision' });
    assert.equal(v2.version, 2);
    assert.equal(v2.name, 'Q2 revision');
    assert.equal(v2.updatedAt, now);
    assert.equal(v2.createdAt, now - 1000);
    const stale = await t.a.post(P.workflowDefinitionsUpdate, { ...marketing(id), ifVersion: 1, name: 'Lost edit' });
    assert.equal(expectError(stale, 400, 'FAILED_PRECONDITION'), 'Version conflict: expected 1, current 2');
    assert.equal((await ok(t.a, P.workflowDefinitionsGet, { definitionId: id })).name, 'Q2 revision');
    const missing = await t.a.post(P.workflowDefinitionsUpdate, { ...marketing('nope-none'), ifVersion: 1 });
    expectError(missing, 404, 'NOT_FOUND');
    // A read sent back as is (its nulls and server-owned members) is refused, as the page warns.
    const read = await ok(t.a, P.workflowDefinitionsGet, { definitionId: id });
    expectError(await t.a.post(P.workflowDefinitionsUpdate, { ...read, ifVersion: 2 }), 400, 'INVALID_ARGUMENT');
  });

  test('scope: an organization or a document scope needs its ids (from scope or from data), and echoes them', async () => {
    const id = uniq('scoped');
    const r = await ok(t.a, P.workflowDefinitionsCreate, {
      ...marketing(id),
      scope: { level: 'document', organizationId: 'org-1' },
      documentId: 'doc-1',
    });
    assert.deepEqual(r.scope, { level: 'document', organizationId: 'org-1', documentId: 'doc-1' });
    const bad = await t.a.post(P.workflowDefinitionsCreate, { ...marketing(uniq('scoped')), scope: { level: 'organization' } });
    assert.match(expectError(bad, 400, 'INVALID_ARGUMENT'), /scope\.organizationId is required/);
  });

  test('list: the most recently updated first, paged by updatedAt, a page never split inside one time', async () => {
    const fresh = await makeTestApp({ clock: () => now });
    try {
      now += 1000;
      for (const id of ['aaa-1', 'bbb-2', 'ccc-3']) await ok(fresh.a, P.workflowDefinitionsCreate, marketing(id));
      now += 1000;
      await ok(fresh.a, P.workflowDefinitionsCreate, marketing('ddd-4'));
      const first = await ok(fresh.a, P.workflowDefinitionsList, { pageSize: 2 });
      assert.deepEqual(
        first.items.map((d: any) => d.definitionId),
        ['ddd-4', 'ccc-3', 'bbb-2', 'aaa-1'],
        'the page ends with every definition of its last time',
      );
      assert.equal(first.nextCursor, now - 1000);
      const next = await ok(fresh.a, P.workflowDefinitionsList, { pageSize: 2, cursor: first.nextCursor });
      assert.deepEqual(next, { items: [], nextCursor: null });
      await ok(fresh.a, P.workflowDefinitionsDelete, { definitionId: 'bbb-2' });
      const after = await ok(fresh.a, P.workflowDefinitionsList, {});
      assert.deepEqual(
        after.items.map((d: any) => d.definitionId),
        ['ddd-4', 'ccc-3', 'aaa-1'],
      );
      assert.equal(after.nextCursor, null);
    } finally {
      await fresh.close();
    }
  });

  test('delete: refused while executions run; a tombstone then hides it and refuses dispatch; purge; re-create is version 1', async () => {
    const id = uniq('del');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    await ok(t.a, P.workflowDefinitionsUpdate, { ...marketing(id), ifVersion: 1 });
    const { executionId } = await ok(t.a, P.workflowExecutionsDispatch, { definitionId: id });
    expectError(await t.a.post(P.workflowDefinitionsDelete, { definitionId: id }), 400, 'FAILED_PRECONDITION');
    await ok(t.a, P.workflowExecutionsCancel, { executionId });
    assert.deepEqual(await ok(t.a, P.workflowDefinitionsDelete, { definitionId: id }), {
      deleted: true,
      purged: false,
      definitionId: id,
    });
    expectError(await t.a.post(P.workflowDefinitionsGet, { definitionId: id }), 404, 'NOT_FOUND');
    expectError(await t.a.post(P.workflowExecutionsDispatch, { definitionId: id }), 400, 'FAILED_PRECONDITION');
    expectError(await t.a.post(P.workflowDefinitionsDelete, { definitionId: id }), 404, 'NOT_FOUND');
    assert.equal((await ok(t.a, P.workflowDefinitionsCreate, marketing(id))).version, 1);
    assert.deepEqual(await ok(t.a, P.workflowDefinitionsDelete, { definitionId: id, purge: true }), {
      deleted: true,
      purged: true,
      definitionId: id,
    });
    const left = await t.db.query(`SELECT count(*) AS n FROM workflow_definition_versions WHERE definition_id = '${id}'`);
    assert.equal(Number(left[0]!.n), 0, 'purge takes the snapshots too');
    // The execution keeps the definition it ran.
    assert.equal((await execution(t.a, executionId)).definitionVersion, 2);
  });
});

describe('workflow executions', () => {
  test('a run: agent resolution, reviewer approval, a forced completion; its log paged; the outbox carries it', async () => {
    const id = uniq('run');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    const d = await ok(t.a, P.workflowExecutionsDispatch, {
      definitionId: id,
      idempotencyKey: `key-${id}`,
      correlationId: 'corr_campaign_42',
      triggerContext: { documentUrl: 'https://acme.example/copy' },
      organizationId: 'org-w',
    });
    assert.deepEqual(d, { executionId: d.executionId, correlationId: 'corr_campaign_42', deduplicated: false });
    assert.match(d.executionId, /^exec_\d+_[0-9a-z]{8}$/);
    const again = await ok(t.a, P.workflowExecutionsDispatch, { definitionId: id, idempotencyKey: `key-${id}` });
    assert.deepEqual(again, { ...d, deduplicated: true }, 'the same key answers the same execution');

    let x = await execution(t.a, d.executionId);
    assert.equal(x.status, 'running');
    assert.equal(x.idempotencyKey, `key-${id}`);
    const draft = waitingStep(x, 'agent-draft');
    assert.equal(draft.output.resolvedUrl, 'https://acme.example/copy');
    const resolution = await ok(t.a, P.workflowStepsRecordAgentResolution, {
      executionId: d.executionId,
      stepId: draft.stepId,
      responseId: draft.output.responseIds[0],
      resolution: 'resolved',
      actorId: 'user-1',
    });
    assert.deepEqual(resolution, { recorded: true, aggregatorStatus: 'resolved', resumeScheduled: true });
    const replay = await ok(t.a, P.workflowStepsRecordAgentResolution, {
      executionId: d.executionId,
      stepId: draft.stepId,
      responseId: draft.output.responseIds[0],
      resolution: 'rejected',
      actorId: 'user-1',
    });
    assert.deepEqual(replay, {
      recorded: false,
      aggregatorStatus: 'resolved',
      resumeScheduled: false,
      rejectionReason: 'idempotent',
    });

    x = await execution(t.a, d.executionId);
    const review = waitingStep(x, 'human-review');
    assert.equal(review.stepId, `${draft.stepId}__to__human-review`);
    const stranger = await ok(t.a, P.workflowStepsRecordReviewerDecision, {
      executionId: d.executionId,
      stepId: review.stepId,
      reviewerId: 'someone',
      decision: 'reject',
    });
    assert.deepEqual(stranger, {
      recorded: false,
      aggregatorStatus: 'pending',
      resumeScheduled: false,
      rejectionReason: 'unknown-responder',
    });
    const approve = {
      executionId: d.executionId,
      stepId: review.stepId,
      reviewerId: 'u_reviewer_01',
      decision: 'approve',
      reason: 'ok',
    };
    assert.deepEqual(await ok(t.a, P.workflowStepsRecordReviewerDecision, approve), {
      recorded: true,
      aggregatorStatus: 'resolved',
      resumeScheduled: true,
    });
    x = await execution(t.a, d.executionId);
    const reviewed = x.steps.find((s: any) => s.stepId === review.stepId);
    assert.equal(reviewed.status, 'completed');
    assert.equal(reviewed.output.decision, 'approve');
    assert.equal(reviewed.output.approved, true);
    assert.equal(
      x.steps.some((s: any) => s.nodeId === 'agent-rework'),
      false,
      'the reject edge did not fire',
    );
    const publish = waitingStep(x, 'agent-publish');
    const resolved = await ok(t.a, P.workflowStepsResolve, {
      executionId: d.executionId,
      stepId: publish.stepId,
      action: 'force-complete',
      actorId: 'ops_jane',
      output: { summary: 'Manually closed' },
    });
    assert.deepEqual(resolved, { resolved: true, executionId: d.executionId, stepId: publish.stepId, action: 'force-complete' });
    x = await execution(t.a, d.executionId);
    assert.equal(x.status, 'completed');
    assert.equal(x.completedAt, now);
    assert.deepEqual(x.steps.find((s: any) => s.stepId === publish.stepId).output, {
      overriddenAt: now,
      summary: 'Manually closed',
    });

    const events = await allEvents(t.a, d.executionId);
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'execution.dispatched',
        'step.awaiting-approval',
        'step.completed',
        'step.awaiting-approval',
        'step.completed',
        'step.awaiting-approval',
        'step.completed',
        'execution.completed',
      ],
    );
    for (const e of events) assert.equal(e.correlationId, 'corr_campaign_42');
    assert.ok(
      events.every((e, i) => i === 0 || e.seq > events[i - 1].seq),
      'seq increases',
    );
    assert.ok(events.at(-1).seq > events.length, 'internal events take seq numbers too (gaps)');
    // Paged two at a time, the pages make the same list.
    const paged: any[] = [];
    for (let since = 0, more = true; more; ) {
      const page = await ok(t.a, P.workflowExecutionsGetEvents, { executionId: d.executionId, sinceSeq: since, pageSize: 2 });
      paged.push(...page.events);
      since = page.nextCursor;
      more = page.hasMore;
    }
    assert.deepEqual(paged, events);
    const tail = await ok(t.a, P.workflowExecutionsGetEvents, { executionId: d.executionId, sinceSeq: events.at(-1).seq });
    assert.deepEqual(tail, { executionId: d.executionId, events: [], nextCursor: events.at(-1).seq, hasMore: false });

    const outbox = await t.db.query(
      `SELECT type, organization_id FROM events WHERE type LIKE 'workflow.%' AND body LIKE '%${d.executionId}%' ORDER BY id`,
    );
    assert.deepEqual(
      outbox.map((r) => r.type),
      events.map((e) => `workflow.${e.type.replace(/[.-]/g, '_')}`),
    );
    assert.ok(outbox.every((r) => r.organization_id === 'org-w'));
  });

  test('dispatches of one idempotency key at once make one execution, and all answer it', async () => {
    const id = uniq('race');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => ok(t.a, P.workflowExecutionsDispatch, { definitionId: id, idempotencyKey: `race-${id}` })),
    );
    assert.equal(new Set(answers.map((a) => a.executionId)).size, 1, JSON.stringify(answers));
    assert.equal(answers.filter((a) => !a.deduplicated).length, 1, 'one made it, the others were its replays');
    const listed = await ok(t.a, P.workflowExecutionsList, { definitionId: id });
    assert.equal(listed.items.length, 1);
  });

  test('a loop: a mandatory rejection re-drafts until its cap, then the exhausted route; optional approvals do not resolve', async () => {
    const id = uniq('loop');
    const def = await ok(t.a, P.workflowDefinitionsCreate, looping(id));
    assert.deepEqual(def.compiled.loops, [
      {
        loopId: 'loop_draft__review',
        entryNodeId: 'draft',
        bodyNodeIds: ['draft', 'review'],
        maxIterations: 2,
        onExhausted: { routeToNodeId: 'escalate' },
      },
    ]);
    const { executionId } = await ok(t.a, P.workflowExecutionsDispatch, { definitionId: id });
    for (let round = 1; round <= 2; round++) {
      let x = await execution(t.a, executionId);
      const draft = waitingStep(x, 'draft');
      await ok(t.a, P.workflowStepsRecordAgentResolution, {
        executionId,
        stepId: draft.stepId,
        responseId: draft.output.responseIds[0],
        resolution: 'resolved',
        actorId: 'writer',
      });
      x = await execution(t.a, executionId);
      const review = waitingStep(x, 'review');
      const peer = await ok(t.a, P.workflowStepsRecordReviewerDecision, {
        executionId,
        stepId: review.stepId,
        reviewerId: 'peer',
        decision: 'approve',
      });
      assert.deepEqual(peer, { recorded: true, aggregatorStatus: 'pending', resumeScheduled: false });
      const lead = await ok(t.a, P.workflowStepsRecordReviewerDecision, {
        executionId,
        stepId: review.stepId,
        reviewerId: 'lead',
        decision: 'reject',
        reason: `round ${round}`,
      });
      assert.deepEqual(lead, { recorded: true, aggregatorStatus: 'rejected', resumeScheduled: true });
      const late = await ok(t.a, P.workflowStepsRecordReviewerDecision, {
        executionId,
        stepId: review.stepId,
        reviewerId: 'peer',
        decision: 'reject',
      });
      assert.equal(late.rejectionReason, 'idempotent');
    }
    const x = await execution(t.a, executionId);
    const types = (await allEvents(t.a, executionId)).map((e) => e.type);
    assert.equal(types.filter((e) => e === 'loop.iteration-started').length, 1);
    assert.equal(types.filter((e) => e === 'loop.exhausted').length, 1);
    const escalate = waitingStep(x, 'escalate');
    assert.ok(escalate, 'the exhausted route started the escalation');
    assert.equal(x.status, 'running');
    const failed = await ok(t.a, P.workflowStepsResolve, {
      executionId,
      stepId: escalate.stepId,
      action: 'force-fail',
      actorId: 'ops',
    });
    assert.equal(failed.resolved, true);
    const end = await execution(t.a, executionId);
    assert.equal(end.status, 'failed');
    assert.equal(end.failureReason.code, 'step-failed');
  });

  test('an approval completes through a notification, which is recorded and not sent', async () => {
    const id = uniq('notify');
    await ok(t.a, P.workflowDefinitionsCreate, {
      ...looping(id),
      nodes: looping(id).nodes.map((n) =>
        n.nodeId === 'draft' ? { ...n, config: { agentId: '__mock__', url: 'https://x.example' } } : n,
      ),
    });
    const { executionId } = await ok(t.a, P.workflowExecutionsDispatch, { definitionId: id });
    let x = await execution(t.a, executionId);
    assert.deepEqual(x.steps[0].output, { agentId: '__mock__', synthetic: true, decision: 'approve' });
    const review = waitingStep(x, 'review');
    await ok(t.a, P.workflowStepsResolve, { executionId, stepId: review.stepId, action: 'reviewer-approve', actorId: 'peer' });
    x = await execution(t.a, executionId);
    assert.equal(x.status, 'completed', JSON.stringify(x));
    assert.deepEqual(x.steps.at(-1).output, { channel: 'email', delivered: false });
  });

  test('cancel: active steps cancelled, then a no-op; a step of it can no longer move', async () => {
    const id = uniq('cancel');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    const { executionId } = await ok(t.a, P.workflowExecutionsDispatch, { definitionId: id });
    const step = (await execution(t.a, executionId)).steps[0];
    assert.deepEqual(await ok(t.a, P.workflowExecutionsCancel, { executionId, reason: 'Campaign postponed' }), {
      cancelled: true,
      executionId,
    });
    assert.deepEqual(await ok(t.a, P.workflowExecutionsCancel, { executionId }), { cancelled: false, executionId });
    const x = await execution(t.a, executionId);
    assert.equal(x.status, 'cancelled');
    assert.equal(x.cancelledAt, now);
    assert.equal(x.steps[0].status, 'cancelled');
    const events = await allEvents(t.a, executionId);
    assert.deepEqual(events.at(-1).data, { reason: 'Campaign postponed' });
    const r = await t.a.post(P.workflowStepsCancel, { executionId, stepId: step.stepId, actorId: 'admin' });
    expectError(r, 400, 'FAILED_PRECONDITION');
  });

  test('steps/cancel: the step ends, no edge fires; the run completes without it', async () => {
    const id = uniq('stepcancel');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    const { executionId } = await ok(t.a, P.workflowExecutionsDispatch, { definitionId: id });
    const step = (await execution(t.a, executionId)).steps[0];
    const r = await ok(t.a, P.workflowStepsCancel, {
      executionId,
      stepId: step.stepId,
      actorId: 'admin_jane',
      reason: 'Reviewer unavailable',
    });
    assert.deepEqual(r, { cancelled: true, executionId, stepId: step.stepId });
    const x = await execution(t.a, executionId);
    assert.equal(x.status, 'completed');
    assert.equal(x.steps.length, 1);
    const cancelled = (await allEvents(t.a, executionId)).find((e) => e.type === 'step.cancelled');
    assert.deepEqual(cancelled.data, { actorId: 'admin_jane', reason: 'Reviewer unavailable' });
  });

  test('list: newest first, filtered by definition and status, paged by startedAt as text', async () => {
    const fresh = await makeTestApp({ clock: () => now });
    try {
      await ok(fresh.a, P.workflowDefinitionsCreate, marketing('list-a'));
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        now += 10;
        ids.push((await ok(fresh.a, P.workflowExecutionsDispatch, { definitionId: 'list-a' })).executionId);
      }
      await ok(fresh.a, P.workflowExecutionsCancel, { executionId: ids[0] });
      const first = await ok(fresh.a, P.workflowExecutionsList, { definitionId: 'list-a', pageSize: 2 });
      assert.deepEqual(
        first.items.map((x: any) => x.executionId),
        [ids[2], ids[1]],
      );
      assert.ok(first.items.every((x: any) => Array.isArray(x.steps) && x.steps.length === 0));
      assert.equal(first.nextCursor, String(now - 10));
      const next = await ok(fresh.a, P.workflowExecutionsList, { definitionId: 'list-a', pageSize: 2, cursor: first.nextCursor });
      assert.deepEqual(
        next.items.map((x: any) => x.executionId),
        [ids[0]],
      );
      assert.equal(next.nextCursor, null);
      const running = await ok(fresh.a, P.workflowExecutionsList, { status: 'running' });
      assert.deepEqual(
        running.items.map((x: any) => x.executionId),
        [ids[2], ids[1]],
      );
      assert.deepEqual(await ok(fresh.a, P.workflowExecutionsList, { definitionId: 'none-such' }), {
        items: [],
        nextCursor: null,
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('workflow lists: bounds', () => {
  test('a full page runs past pageSize to finish its last millisecond by at most MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX', async () => {
    const fresh = await makeTestApp({ clock: () => now, config: { workflowPageSameTimeMax: 2 } });
    try {
      now += 1000;
      const ids = ['aaa-1', 'bbb-2', 'ccc-3', 'ddd-4', 'eee-5'];
      for (const id of ids) await ok(fresh.a, P.workflowDefinitionsCreate, marketing(id));
      const page = await ok(fresh.a, P.workflowDefinitionsList, { pageSize: 1 });
      assert.deepEqual(
        page.items.map((d: any) => d.definitionId),
        ['eee-5', 'ddd-4', 'ccc-3'],
        'the page and two more of its time, not all five',
      );
      assert.equal(page.nextCursor, now);
      const dispatched: string[] = [];
      for (let i = 0; i < 5; i++)
        dispatched.push((await ok(fresh.a, P.workflowExecutionsDispatch, { definitionId: 'aaa-1' })).executionId);
      const runs = await ok(fresh.a, P.workflowExecutionsList, { pageSize: 1 });
      assert.equal(runs.items.length, 3, 'the page and two more of its time, not all five');
      assert.deepEqual(
        runs.items.map((x: any) => x.executionId),
        [...dispatched].sort().reverse().slice(0, 3),
      );
      assert.equal(runs.nextCursor, String(now));
    } finally {
      await fresh.close();
    }
  });
});

describe('workflow refusals', () => {
  const refuse = async (path: string, data: unknown, status: number, code: string, message?: RegExp | string) => {
    const r: Reply = await t.a.post(path, data);
    const got = expectError(r, status, code, path);
    if (typeof message === 'string') assert.equal(got, message);
    else if (message) assert.match(got, message);
  };

  test("definitions the pages' linter refuses name their rule, and write nothing", async () => {
    const base = marketing('lint-x');
    const cases: [unknown, RegExp][] = [
      [{ ...base, definitionId: 'X' }, /definitionId/],
      [{ ...base, description: null }, /description/],
      [{ ...base, edges: base.edges.filter((e) => e.on !== 'reject') }, /APPROVAL_HUMAN_NODE_REQUIRES_REJECT_PATH/],
      [
        { ...base, nodes: [{ nodeId: 'a', type: 'agent', config: { agentId: 'x' } }], edges: [] },
        /APPROVAL_AGENT_NODE_REQUIRES_URL_OR_URLPATH/,
      ],
      [{ ...base, edges: [...base.edges, { from: 'agent-publish', to: 'agent-draft' }] }, /cycle-detected/],
      [{ ...base, edges: [...base.edges, { from: 'agent-publish', to: 'ghost' }] }, /dangling-edge/],
      [
        { ...base, edges: [...base.edges, { from: 'agent-publish', to: 'agent-rework', when: '{}' }] },
        /APPROVAL_EDGE_WHEN_ONLY_FOR_CUSTOM/,
      ],
      [{ ...base, groups: [{ groupId: 'g' }] }, /parallel groups/],
      [
        { ...base, nodes: [...base.nodes, { nodeId: 'agent-draft', type: 'agent', config: { agentId: 'x', url: 'u' } }] },
        /duplicate-node-id/,
      ],
      [
        {
          ...base,
          nodes: [...base.nodes, { nodeId: 'lonely', type: 'agent', config: { agentId: 'x', url: 'u' } }],
          edges: [...base.edges, { from: 'lonely', to: 'lonely' }],
        },
        /cycle-detected/,
      ],
      [
        { ...base, nodes: [{ ...base.nodes[1], config: { reviewers: [{ userId: 'u', mandatory: false }] } }] },
        /at least one mandatory reviewer/,
      ],
      [{ ...base, nodes: [{ ...base.nodes[0], config: { agentId: 'x', url: 'u', surprise: 1 } }] }, /surprise|additional/i],
    ];
    for (const [data, message] of cases) await refuse(P.workflowDefinitionsCreate, data, 400, 'INVALID_ARGUMENT', message);
    await refuse(P.workflowDefinitionsGet, { definitionId: 'lint-x' }, 404, 'NOT_FOUND');
  });

  test('dispatch: the webhook pair and its URL as the pages say; an unknown definition is NOT_FOUND', async () => {
    const id = uniq('hooks');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    const secret = 'whsec_0123456789abcdef';
    await refuse(
      P.workflowExecutionsDispatch,
      { definitionId: id, webhookUrl: 'https://x.example/h' },
      400,
      'INVALID_ARGUMENT',
      'webhookUrl and webhookSecret must be provided together',
    );
    await refuse(
      P.workflowExecutionsDispatch,
      { definitionId: id, webhookUrl: 'http://x.example/h', webhookSecret: secret },
      400,
      'INVALID_ARGUMENT',
      'webhookUrl must use https scheme',
    );
    for (const host of ['127.0.0.1', '10.1.2.3', 'localhost', 'metadata.google.internal', '[::1]'])
      await refuse(
        P.workflowExecutionsDispatch,
        { definitionId: id, webhookUrl: `https://${host}/h`, webhookSecret: secret },
        400,
        'INVALID_ARGUMENT',
        'webhookUrl host resolves to a private, loopback, or link-local address',
      );
    await refuse(P.workflowExecutionsDispatch, { definitionId: 'no-such-def' }, 404, 'NOT_FOUND');
    await refuse(P.workflowExecutionsDispatch, { definitionId: id, idempotencyKey: 'bad key!' }, 400, 'INVALID_ARGUMENT');
    const listed = await ok(t.a, P.workflowExecutionsList, { definitionId: id });
    assert.deepEqual(listed.items, [], 'nothing was dispatched');
  });

  test('steps: the resolve action matrix, reviewer gates, and missing executions and steps', async () => {
    const id = uniq('matrix');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    const { executionId } = await ok(t.a, P.workflowExecutionsDispatch, { definitionId: id });
    const agent = (await execution(t.a, executionId)).steps[0];
    const resolve = (extra: object) => ({ executionId, stepId: agent.stepId, actorId: 'ops', ...extra });
    await refuse(P.workflowStepsResolve, resolve({ action: 'reviewer-approve' }), 400, 'FAILED_PRECONDITION', /human/);
    await refuse(
      P.workflowStepsResolve,
      resolve({ stepId: 'step_none', action: 'force-approve' }),
      400,
      'FAILED_PRECONDITION',
      'resolveStep not applied: step-not-found',
    );
    await refuse(P.workflowStepsResolve, resolve({ stepId: 'step_none', action: 'reviewer-approve' }), 404, 'NOT_FOUND');
    await refuse(P.workflowStepsResolve, resolve({ action: 'force-approve', executionId: 'exec_none' }), 404, 'NOT_FOUND');
    await refuse(
      P.workflowStepsRecordReviewerDecision,
      { executionId, stepId: agent.stepId, reviewerId: 'u', decision: 'approve' },
      400,
      'FAILED_PRECONDITION',
    );
    await refuse(
      P.workflowStepsRecordAgentResolution,
      { executionId, stepId: agent.stepId, responseId: 'resp_1', resolution: 'maybe', actorId: 'a' },
      400,
      'INVALID_ARGUMENT',
    );
    // force-approve routes the agent's approve edges (here: its always edge to the review).
    await ok(t.a, P.workflowStepsResolve, resolve({ action: 'force-approve', output: { decision: 'reject', note: 'kept' } }));
    const x = await execution(t.a, executionId);
    assert.equal(x.steps[0].output.decision, 'approve', 'the action decides, not the output');
    assert.equal(x.steps[0].output.note, 'kept');
    const review = waitingStep(x, 'human-review');
    await refuse(
      P.workflowStepsResolve,
      resolve({ stepId: review.stepId, action: 'reviewer-reject', actorId: 'not-a-reviewer' }),
      403,
      'PERMISSION_DENIED',
    );
    await refuse(P.workflowStepsResolve, resolve({ action: 'force-complete' }), 400, 'FAILED_PRECONDITION');
    await refuse(
      P.workflowStepsRecordAgentResolution,
      { executionId, stepId: review.stepId, responseId: 'r', resolution: 'resolved', actorId: 'a' },
      400,
      'FAILED_PRECONDITION',
    );
    await ok(
      t.a,
      P.workflowStepsResolve,
      resolve({ stepId: review.stepId, action: 'reviewer-reject', actorId: 'u_reviewer_01' }),
    );
    const late = { executionId, stepId: review.stepId, reviewerId: 'u_reviewer_01', decision: 'approve' };
    await refuse(P.workflowStepsRecordReviewerDecision, late, 400, 'FAILED_PRECONDITION', /not waiting/);
    assert.ok(waitingStep(await execution(t.a, executionId), 'agent-rework'), 'reviewer-reject routed the reject edge');
    await refuse(P.workflowExecutionsGetEvents, { executionId: 'exec_none' }, 404, 'NOT_FOUND');
    await refuse(P.workflowExecutionsGetEvents, { executionId, pageSize: 501 }, 400, 'INVALID_ARGUMENT');
  });
});

describe('workflow security', () => {
  test("another tenant sees none of a tenant's definitions and executions, and moves none of them", async () => {
    const id = uniq('mine');
    await ok(t.a, P.workflowDefinitionsCreate, marketing(id));
    const { executionId } = await ok(t.a, P.workflowExecutionsDispatch, { definitionId: id, idempotencyKey: `shared-${id}` });
    const step = (await execution(t.a, executionId)).steps[0];
    const b = t.b;
    expectError(await b.post(P.workflowDefinitionsGet, { definitionId: id }), 404, 'NOT_FOUND');
    expectError(await b.post(P.workflowDefinitionsUpdate, { ...marketing(id), ifVersion: 1 }), 404, 'NOT_FOUND');
    expectError(await b.post(P.workflowDefinitionsDelete, { definitionId: id }), 404, 'NOT_FOUND');
    expectError(await b.post(P.workflowExecutionsDispatch, { definitionId: id }), 404, 'NOT_FOUND');
    expectError(await b.post(P.workflowExecutionsGet, { executionId }), 404, 'NOT_FOUND');
    expectError(await b.post(P.workflowExecutionsCancel, { executionId }), 404, 'NOT_FOUND');
    expectError(await b.post(P.workflowExecutionsGetEvents, { executionId }), 404, 'NOT_FOUND');
    const stepData = { executionId, stepId: step.stepId, actorId: 'x' };
    expectError(await b.post(P.workflowStepsResolve, { ...stepData, action: 'force-complete' }), 404, 'NOT_FOUND');
    expectError(await b.post(P.workflowStepsCancel, stepData), 404, 'NOT_FOUND');
    const resolution = { ...stepData, responseId: step.output.responseIds[0], resolution: 'resolved' };
    expectError(await b.post(P.workflowStepsRecordAgentResolution, resolution), 404, 'NOT_FOUND');
    const decision = { executionId, stepId: step.stepId, reviewerId: 'u', decision: 'approve' };
    expectError(await b.post(P.workflowStepsRecordReviewerDecision, decision), 404, 'NOT_FOUND');
    assert.equal(
      (await ok(b, P.workflowDefinitionsList, {})).items.some((d: any) => d.definitionId === id),
      false,
    );
    assert.equal(
      (await ok(b, P.workflowExecutionsList, {})).items.some((x: any) => x.executionId === executionId),
      false,
    );
    // The same definitionId and idempotency key are the other tenant's own: its own definition, its own execution.
    await ok(b, P.workflowDefinitionsCreate, marketing(id));
    const theirs = await ok(b, P.workflowExecutionsDispatch, { definitionId: id, idempotencyKey: `shared-${id}` });
    assert.equal(theirs.deduplicated, false);
    assert.notEqual(theirs.executionId, executionId);
    const mine = await execution(t.a, executionId);
    assert.equal(mine.status, 'running');
    assert.equal(mine.steps[0].status, 'waiting');
  });

  test('every workflow page asks for both credentials before it reads the body', async () => {
    for (const path of Object.entries(P)
      .filter(([name]) => name.startsWith('workflow'))
      .map(([, p]) => p))
      await expectMissingCredentials(t, path, { data: {} });
  });
});
