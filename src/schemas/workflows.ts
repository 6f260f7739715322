// Approval workflows (docs/api.md, "Approval workflows"): the request data of the 14 workflow/* pages and
// their answers. The answers are `{"result": {...}}` with the page's members inside, without the
// status/message envelope the other operations answer (as the pages print them). Definition members
// take no null: a read's nulls sent back are refused, as the pages say.
import Type, { type TSchema } from 'typebox';
import { Id, type InputLimits, RequestBody } from './common.js';

const Free = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });
const Strict = { additionalProperties: false } as const;
const Str = (minLength: number, maxLength: number, description?: string) =>
  Type.String({ minLength, maxLength, ...(description ? { description } : {}) });
const OneOf = <T extends string>(...values: T[]) => Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));
const Https = Type.String({ maxLength: 2000, pattern: '^https://', description: 'An https URL' });
/** Keys the caller chooses (idempotency and correlation ids). */
const CallerKey = Type.String({ pattern: '^[A-Za-z0-9:_\\-.]{1,200}$', description: '1 to 200 of A-Z a-z 0-9 : _ - .' });
const Email = Type.String({ maxLength: 254 });

export const DefinitionIdPattern = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]{2,63}$',
  description: 'Lowercase letters, digits and dashes, 3 to 64, not starting with a dash',
});
/** An id a read or a command names: any definitionId, executionId or stepId there may be. */
const Ref = Str(1, 200);

const NodeCommon = {
  nodeId: Str(1, 64),
  slaMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 604_800_000, description: 'Stored; no breach is timed here' })),
  name: Type.Optional(Str(1, 200)),
  description: Type.Optional(Str(0, 2000)),
  requireNonEmptyOutput: Type.Optional(Type.Boolean()),
};

const AgentConfig = Type.Object(
  {
    agentId: Str(1, 128),
    url: Type.Optional(Str(1, 2000)),
    urlPath: Type.Optional(Str(1, 500)),
    crossPageExecute: Type.Optional(Type.Boolean()),
    maxUrlsToProcess: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    userContextMapping: Type.Optional(Type.Record(Type.String(), Type.String())),
    promptOverride: Type.Optional(Str(0, 8000)),
    inputMapping: Type.Optional(Free),
    pollIntervalMs: Type.Optional(Type.Integer({ minimum: 5000, maximum: 60_000 })),
    agentMaxRuntimeMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400_000 })),
    requireNonEmptyOutput: Type.Optional(Type.Boolean()),
    blocking: Type.Optional(Type.Boolean()),
    resolutionPolicy: Type.Optional(Free),
  },
  Strict,
);
const HumanConfig = Type.Object(
  {
    reviewers: Type.Optional(
      Type.Array(Type.Object({ userId: Id, mandatory: Type.Optional(Type.Boolean()) }, Strict), { maxItems: 100 }),
    ),
    reviewerIds: Type.Optional(Type.Array(Id, { maxItems: 100 })),
    reviewerEmails: Type.Optional(Type.Array(Email, { maxItems: 50 })),
    commentBody: Type.Optional(Str(0, 8000)),
  },
  Strict,
);
const NotificationConfig = Type.Object(
  {
    channel: OneOf('email', 'slack'),
    bodyTemplate: Str(1, 16_000),
    recipients: Type.Optional(Type.Array(Email, { minItems: 1, maxItems: 50 })),
    subjectTemplate: Type.Optional(Str(0, 2000)),
    slackTarget: Type.Optional(Str(1, 2000)),
    format: Type.Optional(OneOf('text', 'html', 'slack-blocks')),
  },
  Strict,
);
const WebhookNodeConfig = Type.Object(
  {
    url: Https,
    mode: Type.Optional(OneOf('sync', 'async')),
    method: Type.Optional(OneOf('GET', 'POST')),
    authMode: Type.Optional(OneOf('hmac', 'token', 'none')),
    authTokenHeader: Type.Optional(Str(1, 256)),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 60_000 })),
    expectedStatusCodes: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { maxItems: 20 })),
    bodyTemplate: Type.Optional(OneOf('envelope', 'pass-through', 'none')),
    requestHeaders: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  Strict,
);

const node = (type: string, config: TSchema) => Type.Object({ ...NodeCommon, type: Type.Literal(type), config }, Strict);
export const WorkflowNodeSchema = Type.Union([
  node('agent', AgentConfig),
  node('human', HumanConfig),
  node('notification', NotificationConfig),
  node('webhook', WebhookNodeConfig),
]);

const Endpoint = Type.Union([
  Str(1, 64),
  Type.Object({ kind: Type.Literal('node'), nodeId: Str(1, 64) }, Strict),
  Type.Object({ kind: Type.Literal('group'), groupId: Str(1, 64) }, Strict),
]);
const Edge = Type.Object(
  {
    from: Endpoint,
    to: Endpoint,
    on: Type.Optional(OneOf('approve', 'reject', 'always', 'exhausted', 'custom')),
    when: Type.Optional(Str(1, 1000, 'A JSON-AST predicate, as JSON text; only with on: "custom"')),
    loop: Type.Optional(Type.Object({ maxIterations: Type.Integer({ minimum: 1, maximum: 20 }) }, Strict)),
  },
  Strict,
);
const Trigger = Type.Object(
  {
    triggerId: Str(1, 128),
    eventName: Type.Optional(Str(0, 128)),
    filters: Type.Optional(Free),
    inboundWebhook: Type.Optional(Free),
    schedule: Type.Optional(
      Type.Object({ cron: Str(1, 200), timezone: Type.Optional(Str(1, 100)), enabled: Type.Optional(Type.Boolean()) }, Strict),
    ),
    appTrigger: Type.Optional(Free),
  },
  Strict,
);
const Scope = Type.Object(
  { level: OneOf('apiKey', 'organization', 'document'), organizationId: Type.Optional(Id), documentId: Type.Optional(Id) },
  Strict,
);

/** The members a definition is written with (create, and update beside ifVersion). */
const definitionMembers = {
  definitionId: DefinitionIdPattern,
  name: Str(1, 200),
  description: Type.Optional(Str(0, 2000)),
  scope: Type.Optional(Scope),
  nodes: Type.Array(WorkflowNodeSchema, { minItems: 1, maxItems: 100 }),
  edges: Type.Array(Edge, { maxItems: 500 }),
  groups: Type.Optional(
    Type.Array(Free, { maxItems: 100, description: 'Parallel groups: refused unless empty (docs/decisions.md)' }),
  ),
  triggers: Type.Optional(Type.Array(Trigger, { maxItems: 50, description: 'Stored and shown; nothing fires them here' })),
  webhookConfig: Type.Optional(
    Type.Object(
      { url: Https, secret: Str(16, 512), eventTypes: Type.Optional(Type.Array(Str(1, 128), { maxItems: 50 })) },
      { ...Strict, description: 'Checked, not kept: events reach the tenant webhooks (docs/events.md)' },
    ),
  ),
  tags: Type.Optional(Type.Array(Str(0, 64), { maxItems: 20 })),
  custom: Type.Optional(Free),
  organizationId: Type.Optional(Id),
  documentId: Type.Optional(Id),
};

export const DefinitionCreateBody = (_limits: InputLimits) => RequestBody(Type.Object(definitionMembers, Strict));
export const DefinitionUpdateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object(
      { ...definitionMembers, definitionId: Ref, ifVersion: Type.Integer({ minimum: 1, description: 'The version you read' }) },
      Strict,
    ),
  );
const Ignored = Type.Optional(Type.String({ maxLength: 256, description: 'Accepted and ignored' }));
export const DefinitionGetBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ definitionId: Ref, organizationId: Ignored, documentId: Ignored }));
export const DefinitionDeleteBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({ definitionId: Ref, purge: Type.Optional(Type.Boolean()), organizationId: Ignored, documentId: Ignored }),
  );
export const DefinitionListBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
      cursor: Type.Optional(Type.Integer({ minimum: 0, description: "The previous page's nextCursor" })),
    }),
  );

export const DispatchBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      definitionId: Ref,
      idempotencyKey: Type.Optional(CallerKey),
      correlationId: Type.Optional(CallerKey),
      triggerContext: Type.Optional(Free),
      organizationId: Type.Optional(Id),
      documentId: Type.Optional(Id),
      folderId: Type.Optional(Id),
      webhookUrl: Type.Optional(Str(1, 2000)),
      webhookSecret: Type.Optional(Str(16, 512)),
    }),
  );
export const ExecutionRefBody = (_limits: InputLimits) => RequestBody(Type.Object({ executionId: Ref }));
export const ExecutionCancelBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ executionId: Ref, reason: Type.Optional(Str(0, 500)) }));
export const ExecutionListBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      definitionId: Type.Optional(Ref),
      status: Type.Optional(OneOf('pending', 'running', 'completed', 'failed', 'cancelled')),
      pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
      cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,16}$', description: "The previous page's nextCursor, unchanged" })),
    }),
  );
export const ExecutionEventsBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      executionId: Ref,
      sinceSeq: Type.Optional(Type.Integer({ minimum: 0 })),
      pageSize: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 500, description: 'At most MARGINALIA_WORKFLOW_EVENTS_PAGE_MAX' }),
      ),
    }),
  );

export const StepResolveBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      executionId: Ref,
      stepId: Ref,
      action: OneOf('force-approve', 'force-reject', 'force-complete', 'force-fail', 'reviewer-approve', 'reviewer-reject'),
      actorId: Str(1, 256),
      output: Type.Optional(Free),
      reason: Type.Optional(Str(0, 2000)),
    }),
  );
export const ReviewerDecisionBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      executionId: Ref,
      stepId: Ref,
      reviewerId: Id,
      decision: OneOf('approve', 'reject'),
      reason: Type.Optional(Str(0, 2000)),
    }),
  );
export const StepCancelBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ executionId: Ref, stepId: Ref, reason: Type.Optional(Str(0, 500)), actorId: Str(1, 256) }));
export const AgentResolutionBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      executionId: Ref,
      stepId: Ref,
      responseId: Ref,
      resolution: OneOf('resolved', 'rejected'),
      actorId: Str(1, 256),
      reason: Type.Optional(Str(0, 2000)),
    }),
  );

// --- Answers ---

/** A workflow page's success: its members inside `result`, without the status/message envelope. */
const Bare = <T extends TSchema>(view: T) =>
  Type.Object({ result: view }, { description: 'Success: the result, as the page prints it' });
const NullOr = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Compiled = Type.Object({
  forwardEdges: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), role: Type.String(), when: NullOr(Free) }), {
    description: 'The runtime forward edges, `on` compiled to a predicate (null for always)',
  }),
  loops: Type.Array(
    Type.Object({
      loopId: Type.String(),
      entryNodeId: Type.String(),
      bodyNodeIds: Type.Array(Type.String()),
      maxIterations: Type.Integer(),
      onExhausted: NullOr(Type.Object({ routeToNodeId: Type.String() })),
    }),
  ),
});
export const DefinitionView = Type.Object({
  definitionId: Type.String(),
  name: Type.String(),
  description: NullOr(Type.String()),
  version: Type.Integer(),
  scope: Type.Object({ level: Type.String(), organizationId: NullOr(Type.String()), documentId: NullOr(Type.String()) }),
  nodes: Type.Array(Free, { description: 'As written' }),
  edges: Type.Array(Type.Unknown(), { description: 'As written' }),
  groups: Type.Null(),
  compiled: Compiled,
  triggers: NullOr(Type.Array(Free)),
  tags: NullOr(Type.Array(Type.String())),
  custom: NullOr(Free),
  createdAt: Type.Integer(),
  updatedAt: Type.Integer(),
  status: Type.Literal('active'),
});
const Problem = NullOr(Type.Object({ code: Type.String(), message: Type.String() }));
export const StepView = Type.Object({
  stepId: Type.String(),
  nodeId: Type.String(),
  nodeType: OneOf('agent', 'human', 'notification', 'webhook'),
  status: OneOf('running', 'waiting', 'completed', 'failed', 'cancelled'),
  groupId: Type.Null(),
  startedAt: Type.Integer(),
  completedAt: NullOr(Type.Integer()),
  output: Free,
  error: Problem,
});
export const ExecutionView = Type.Object({
  executionId: Type.String(),
  status: OneOf('pending', 'running', 'completed', 'failed', 'cancelled'),
  startedAt: Type.Integer(),
  completedAt: NullOr(Type.Integer()),
  cancelledAt: NullOr(Type.Integer()),
  definitionId: Type.String(),
  definitionVersion: Type.Integer(),
  correlationId: Type.String(),
  idempotencyKey: Type.String(),
  failureReason: Problem,
  steps: Type.Array(StepView, { description: 'Every step in the order started; [] in a list' }),
});
export const ExecutionEventView = Type.Object({
  eventId: Type.String(),
  seq: Type.Integer(),
  type: Type.String(),
  stepId: NullOr(Type.String()),
  timestamp: Type.Integer(),
  correlationId: Type.String(),
  data: NullOr(Free),
});

export const DefinitionResult = Bare(DefinitionView);
export const DefinitionListResult = Bare(Type.Object({ items: Type.Array(DefinitionView), nextCursor: NullOr(Type.Integer()) }));
export const DefinitionDeletedResult = Bare(
  Type.Object({ deleted: Type.Literal(true), purged: Type.Boolean(), definitionId: Type.String() }),
);
export const DispatchResult = Bare(
  Type.Object({ executionId: Type.String(), correlationId: Type.String(), deduplicated: Type.Boolean() }),
);
export const ExecutionResult = Bare(ExecutionView);
export const ExecutionListResult = Bare(Type.Object({ items: Type.Array(ExecutionView), nextCursor: NullOr(Type.String()) }));
export const ExecutionCancelledResult = Bare(
  Type.Object({
    cancelled: Type.Boolean({ description: 'false: the execution was terminal already' }),
    executionId: Type.String(),
  }),
);
export const ExecutionEventsResult = Bare(
  Type.Object({
    executionId: Type.String(),
    events: Type.Array(ExecutionEventView),
    nextCursor: Type.Integer({ description: 'The sinceSeq of the next page' }),
    hasMore: Type.Boolean(),
  }),
);
export const StepResolvedResult = Bare(
  Type.Object({ resolved: Type.Literal(true), executionId: Type.String(), stepId: Type.String(), action: Type.String() }),
);
export const StepCancelledResult = Bare(
  Type.Object({ cancelled: Type.Literal(true), executionId: Type.String(), stepId: Type.String() }),
);
export const DecisionResult = Bare(
  Type.Object({
    recorded: Type.Boolean(),
    aggregatorStatus: NullOr(OneOf('pending', 'resolved', 'rejected')),
    resumeScheduled: Type.Boolean(),
    rejectionReason: Type.Optional(OneOf('idempotent', 'already-terminal', 'unknown-responder', 'aggregator-missing')),
  }),
);
