// Approval workflow definitions (docs/api.md, "Approval workflows"): create, get, list, update with
// ifVersion, delete. A definition is checked and compiled before it is written (domain/workflow-graph.ts),
// stored with its compiled view, and answered as the pages' DefinitionView.
import { ApiError, invalid } from '../errors.js';
import { compile, type CompiledGraph } from '../domain/workflow-graph.js';
import { type Maybe, then } from '../maybe.js';
import type { Static } from 'typebox';
import type {
  DefinitionCreateBody,
  DefinitionDeleteBody,
  DefinitionGetBody,
  DefinitionListBody,
  DefinitionUpdateBody,
  DefinitionView,
} from '../schemas/workflows.js';
import type { DataOf } from '../schemas/common.js';
import type { StoredDefinition } from '../store/store.js';
import type { Caller, Services } from './context.js';
import { workflowLimitsOf } from './workflow-limits.js';
import { checkWebhookUrl } from './workflow-urls.js';

type CreateData = DataOf<typeof DefinitionCreateBody>;
type UpdateData = DataOf<typeof DefinitionUpdateBody>;
export type DefinitionAnswer = Static<typeof DefinitionView>;

/** What is stored of a definition: its members as written (scope made whole), and its compiled view. */
export interface DefinitionBody {
  name: string;
  description?: string;
  scope: { level: 'apiKey' | 'organization' | 'document'; organizationId?: string; documentId?: string };
  nodes: CreateData['nodes'];
  edges: CreateData['edges'];
  triggers?: CreateData['triggers'];
  tags?: string[];
  custom?: Record<string, unknown>;
  compiled: CompiledGraph;
}

/** The scope a definition is bound to: its organizationId and documentId from scope, else from data. */
function scopeOf(data: CreateData): DefinitionBody['scope'] {
  const level = data.scope?.level ?? 'apiKey';
  const organizationId = data.scope?.organizationId ?? data.organizationId;
  const documentId = data.scope?.documentId ?? data.documentId;
  if (level === 'apiKey') return { level };
  if (organizationId === undefined) throw invalid(`scope.organizationId is required when scope.level is "${level}"`);
  if (level === 'organization') return { level, organizationId };
  if (documentId === undefined) throw invalid('scope.documentId is required when scope.level is "document"');
  return { level, organizationId, documentId };
}

/** A trigger entry declares at most one mechanism, and a schedule a 5-field cron. */
function checkTriggers(triggers: CreateData['triggers']): void {
  for (const [i, t] of (triggers ?? []).entries()) {
    const mechanisms = [t.inboundWebhook, t.schedule, t.appTrigger].filter((m) => m !== undefined).length;
    if (mechanisms > 1)
      throw invalid(
        `APPROVAL_APP_TRIGGER_EXCLUSIVE: triggers/${i} declares more than one of inboundWebhook, schedule, appTrigger`,
      );
    if (t.schedule && t.schedule.cron.trim().split(/\s+/).length !== 5)
      throw invalid('schedule.cron must be a valid 5-field cron expression');
  }
}

/** A definition as written, checked against the pages' rules and the limits, with its compiled view. */
function bodyOf(services: Services, data: CreateData): string {
  const limits = workflowLimitsOf(services.workflows);
  if (data.groups !== undefined && data.groups.length > 0)
    throw invalid('groups: parallel groups are not supported on a self-hosted server; declare none');
  if (data.nodes.length > limits.maxNodes)
    throw invalid(`nodes: at most ${limits.maxNodes} (MARGINALIA_WORKFLOW_MAX_NODES), not ${data.nodes.length}`);
  checkTriggers(data.triggers);
  if (data.webhookConfig) checkWebhookUrl('webhookConfig.url', data.webhookConfig.url);
  const body: DefinitionBody = {
    name: data.name,
    ...(data.description !== undefined ? { description: data.description } : {}),
    scope: scopeOf(data),
    nodes: data.nodes,
    edges: data.edges,
    ...(data.triggers !== undefined ? { triggers: data.triggers } : {}),
    ...(data.tags !== undefined ? { tags: data.tags } : {}),
    ...(data.custom !== undefined ? { custom: data.custom } : {}),
    compiled: compile({ nodes: data.nodes as never, edges: data.edges as never }),
  };
  const text = JSON.stringify(body);
  if (Buffer.byteLength(text) > limits.maxDefinitionBytes)
    throw invalid(`The definition is over ${limits.maxDefinitionBytes} bytes of JSON (MARGINALIA_WORKFLOW_MAX_DEFINITION_BYTES)`);
  return text;
}

/** The pages' DefinitionView: every optional member it was not given as null. */
export function definitionView(d: StoredDefinition): DefinitionAnswer {
  const b = JSON.parse(d.body) as DefinitionBody;
  return {
    definitionId: d.definitionId,
    name: b.name,
    description: b.description ?? null,
    version: d.version,
    scope: { level: b.scope.level, organizationId: b.scope.organizationId ?? null, documentId: b.scope.documentId ?? null },
    nodes: b.nodes as DefinitionAnswer['nodes'],
    edges: b.edges,
    groups: null,
    compiled: b.compiled as DefinitionAnswer['compiled'],
    triggers: (b.triggers as DefinitionAnswer['triggers']) ?? null,
    tags: b.tags ?? null,
    custom: b.custom ?? null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    status: 'active',
  };
}

const missing = (definitionId: string) => new ApiError('NOT_FOUND', `Definition ${definitionId} not found.`);

export function createDefinition(services: Services, caller: Caller, data: CreateData): Maybe<DefinitionAnswer> {
  const body = bodyOf(services, data);
  return then(services.store.createWorkflowDefinition(caller.id, data.definitionId, body, services.clock()), definitionView);
}

export function updateDefinition(services: Services, caller: Caller, data: UpdateData): Maybe<DefinitionAnswer> {
  const { ifVersion, ...rest } = data;
  const body = bodyOf(services, rest);
  return then(
    services.store.updateWorkflowDefinition(caller.id, data.definitionId, ifVersion, body, services.clock()),
    definitionView,
  );
}

export function getDefinition(
  services: Services,
  caller: Caller,
  data: DataOf<typeof DefinitionGetBody>,
): Maybe<DefinitionAnswer> {
  return then(services.store.workflowDefinition(caller.id, data.definitionId), (d) => {
    if (!d || d.deleted) throw missing(data.definitionId);
    return definitionView(d);
  });
}

/**
 * A page of active definitions, the most recently updated first; the cursor is the last one's updatedAt. A full page
 * runs on to the end of its last millisecond, by at most MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX items.
 */
export function listDefinitions(
  services: Services,
  caller: Caller,
  data: DataOf<typeof DefinitionListBody>,
): Maybe<{ items: DefinitionAnswer[]; nextCursor: number | null }> {
  const pageSize = data.pageSize ?? 50;
  const { pageSameTimeMax } = workflowLimitsOf(services.workflows);
  const before = data.cursor ?? Number.MAX_SAFE_INTEGER;
  return then(services.store.workflowDefinitionsPage(caller.id, before, pageSize, pageSameTimeMax), (rows) => ({
    items: rows.map(definitionView),
    nextCursor: rows.length >= pageSize ? rows.at(-1)!.updatedAt : null,
  }));
}

export function deleteDefinition(
  services: Services,
  caller: Caller,
  data: DataOf<typeof DefinitionDeleteBody>,
): Maybe<{ deleted: true; purged: boolean; definitionId: string }> {
  const purged = data.purge === true;
  return then(services.store.deleteWorkflowDefinition(caller.id, data.definitionId, purged, services.clock()), () => ({
    deleted: true as const,
    purged,
    definitionId: data.definitionId,
  }));
}
