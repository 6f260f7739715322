// The replay's plans for the approval workflow pages (workflow/* on /v2): each example runs after the
// definition and the execution it names are made, with the page's placeholder ids (exec_..., step_...,
// resp_42) replaced by the ones made; answers are `{"result": ...}` as the pages print them, compared
// member by member (exact), the ids and times the server makes by kind (loose).
import type { Context, Plan } from '../../helpers/vendor-plan.js';

const DEF = 'marketing-copy-approval';
const EXEC = 'exec_1777374504255_xzy43k9q';
const MADE = ['executionId', 'stepId', 'eventId', 'timestamp', 'createdAt', 'updatedAt', 'startedAt', 'completedAt', 'resumeKey'];

const agent = (nodeId: string, agentId: string) => ({ nodeId, type: 'agent', config: { agentId, urlPath: 'documentUrl' } });
/** The pages' marketing example, its reviewer as `reviewerId` (the steps pages name u_legal_01). */
const marketing = (reviewerId = 'u_reviewer_01', review = 'human-review') => ({
  definitionId: DEF,
  name: 'Marketing copy approval',
  scope: { level: 'apiKey' },
  nodes: [
    agent('agent-draft', 'copy-agent-v1'),
    { nodeId: review, type: 'human', config: { reviewers: [{ userId: reviewerId, mandatory: true }] } },
    agent('agent-publish', 'publish-agent-v1'),
    agent('agent-rework', 'rework-agent-v1'),
  ],
  edges: [
    { from: 'agent-draft', to: review },
    { from: review, to: 'agent-publish', on: 'approve' },
    { from: review, to: 'agent-rework', on: 'reject' },
  ],
});

/** The steps of an execution, as executions/get answers them. */
const stepsOf = async (ctx: Context, executionId: string): Promise<any[]> =>
  (await ctx.call('/v2/workflow/executions/get', { executionId })).steps;

/**
 * The pages' run: the definition, dispatched with the dispatch page's key and correlation id; with
 * `reviewed`, the draft's resolution recorded so that the review waits. Answers the execution and its
 * waiting step; the page's execution id stands for it.
 */
async function run(ctx: Context, definition = marketing(), reviewed = false): Promise<{ executionId: string; waiting: any }> {
  await ctx.call('/v2/workflow/definitions/create', definition);
  const { executionId } = await ctx.call('/v2/workflow/executions/dispatch', {
    definitionId: DEF,
    idempotencyKey: 'campaign-42-dispatch',
    correlationId: 'corr_campaign_42',
    triggerContext: { assetId: 'asset_8f3', campaign: 'Q2 launch' },
  });
  ctx.replace(EXEC, executionId, "the page's execution id stands for the one the setup dispatched");
  let waiting = (await stepsOf(ctx, executionId))[0];
  if (reviewed) {
    await ctx.call('/v2/workflow/steps/recordAgentResolution', {
      executionId,
      stepId: waiting.stepId,
      responseId: waiting.output.responseIds[0],
      resolution: 'resolved',
      actorId: 'user-1',
    });
    waiting = (await stepsOf(ctx, executionId)).find((s) => s.status === 'waiting');
  }
  return { executionId, waiting };
}

/** The page's step id stands for the waiting step the setup made. */
const stepIs = (ctx: Context, placeholder: string, step: any) =>
  ctx.replace(placeholder, step.stepId, "the page's step id stands for the waiting step the setup made");

const exact = (note?: string, more: string[] = []) => ({ exact: true, loose: [...MADE, ...more], ...(note ? { note } : {}) });

export const WORKFLOW_PLANS: Record<string, Plan> = {
  '/v2/workflow/definitions/create': {
    expect: (_ex, i) =>
      i === 0
        ? exact()
        : {
            responseExample: 0,
            unshown: ['result.nodes[].config.urlPath', 'result.triggers'],
            note:
              "the page prints marketing-copy-approval's answer only: the nightly audit's is compared with its one-node " +
              'panel answer by shape (its node names a url, not a urlPath; its triggers are shown, as stored)',
          },
  },
  '/v2/workflow/definitions/get': {
    setup: async (ctx) => ctx.call('/v2/workflow/definitions/create', marketing()),
    expect: () => exact(),
  },
  '/v2/workflow/definitions/list': {
    // The page's item: the one-node definition its answer shows.
    setup: async (ctx, _ex, i) => {
      if (i === 0)
        await ctx.call('/v2/workflow/definitions/create', {
          ...marketing(),
          nodes: [agent('agent-draft', 'copy-agent-v1')],
          edges: [],
        });
    },
    expect: (_ex, i) =>
      i === 0
        ? exact()
        : {
            ...exact("the page's cursor is a time before any definition here: its panel answer, an empty last page"),
            responseExample: 0,
          },
  },
  '/v2/workflow/definitions/update': {
    setup: async (ctx) => ctx.call('/v2/workflow/definitions/create', marketing()),
    expect: () => exact(),
  },
  '/v2/workflow/definitions/delete': {
    setup: async (ctx) => ctx.call('/v2/workflow/definitions/create', marketing()),
    expect: (_ex, i) =>
      i === 0 ? exact() : exact('purge: true answers purged: true, as the page says (its answer shows false)', ['purged']),
  },
  '/v2/workflow/executions/dispatch': {
    setup: async (ctx) => ctx.call('/v2/workflow/definitions/create', marketing()),
    expect: () => exact(),
  },
  '/v2/workflow/executions/get': {
    // The page's execution: one publish step, completed with the output it shows (forced, as no agent runs here).
    setup: async (ctx) => {
      const { executionId, waiting } = await run(ctx, {
        ...marketing(),
        nodes: [agent('agent-publish', 'publish-agent-v1')],
        edges: [],
      });
      await ctx.call('/v2/workflow/steps/resolve', {
        executionId,
        stepId: waiting.stepId,
        action: 'force-complete',
        actorId: 'ops',
        output: { agentId: 'publish-agent-v1', summary: '...', generatedAt: 1777374841939 },
      });
    },
    expect: () =>
      exact(
        "the page's run, made with one publish step force-completed with the output it shows (no agent runs here: " +
          'docs/decisions.md); the engine adds overriddenAt to it',
      ),
  },
  '/v2/workflow/executions/list': {
    // A full page of running executions, so that the answer has a next cursor as the page's does.
    setup: async (ctx, _ex, i) => {
      if (i > 0) return;
      await ctx.call('/v2/workflow/definitions/create', marketing());
      for (let n = 0; n < 50; n++) await ctx.call('/v2/workflow/executions/dispatch', { definitionId: DEF });
    },
    expect: (_ex, i) =>
      i === 0
        ? { note: 'fifty running executions make a full page, which has a next cursor as the page shows (its items are elided)' }
        : {
            ...exact("the page's cursor is a time before any execution here: its panel answer, an empty last page"),
            responseExample: 0,
          },
  },
  '/v2/workflow/executions/cancel': {
    setup: async (ctx) => {
      await run(ctx);
    },
    expect: () => exact(),
  },
  '/v2/workflow/executions/getEvents': {
    // Seq 7 is the review's step.awaiting-approval once the draft is resolved, as on the page.
    setup: async (ctx) => {
      await run(ctx, marketing(), true);
    },
    expect: (_ex, i) =>
      i === 0
        ? exact(undefined, ['nextCursor'])
        : {
            unshown: ['result.events[].data', 'result.events[].stepId'],
            note: "from seq 0 the log starts with execution.dispatched: each event is compared with the page's by shape, its data by kind",
          },
  },
  '/v2/workflow/steps/resolve': {
    setup: async (ctx, _ex, i) => {
      const { waiting } = await run(ctx, marketing('u_legal_01', 'human-legal'), i === 0);
      const placeholders = [
        'step_agent-draft_..._lwofay__to__human-legal',
        'step_blocking-agent_...',
        'step_agent-draft_..._lwofay__to__human-brand',
      ];
      stepIs(ctx, placeholders[i]!, waiting);
    },
    expect: (_ex, i) =>
      i === 1
        ? exact()
        : exact("the page's answer names force-complete for every example; ours names the action asked", ['action']),
  },
  '/v2/workflow/steps/recordReviewerDecision': {
    setup: async (ctx) => {
      const { waiting } = await run(ctx, marketing('u_legal_01', 'human-legal'), true);
      stepIs(ctx, 'step_agent-draft_..._lwofay__to__human-legal', waiting);
    },
    expect: (_ex, i) =>
      i === 0
        ? exact()
        : exact('a rejection leaves the aggregator rejected; the page prints one success answer for both examples', [
            'aggregatorStatus',
          ]),
  },
  '/v2/workflow/steps/cancel': {
    setup: async (ctx) => {
      const { waiting } = await run(ctx);
      stepIs(ctx, 'step_agent-draft_..._lwofay__to__human-brand', waiting);
    },
    expect: () => exact(),
  },
  '/v2/workflow/steps/recordAgentResolution': {
    // The draft's agent step waits for a resolution of its response (no agent runs here: docs/decisions.md).
    setup: async (ctx) => {
      const { waiting } = await run(ctx);
      stepIs(ctx, 'step_blocking-agent_...', waiting);
      ctx.replace('resp_42', waiting.output.responseIds[0], "the page's response id stands for the waiting agent step's");
    },
    expect: () => exact(),
  },
};
