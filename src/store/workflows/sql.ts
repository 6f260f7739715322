// The statements of approval workflows (workflow/* on /v2), SQLite and PostgreSQL side by side:
// definitions and their prior versions, executions, their steps and their numbered event logs
// (migration 36). Every statement names the tenant first.
import { same, written } from '../sql.js';

const DEFINITION = 'definition_id, version, deleted, body, created_at, updated_at';
const EXECUTION = `execution_id, definition_id, definition_version, status, correlation_id, idempotency_key, started_at,
  completed_at, cancelled_at, failure_reason, trigger_context, target, graph, loops, last_seq`;
const STEP = 'step_id, ordinal, node_id, node_type, status, started_at, completed_at, output, error, aggregator';
/** The oldest @executions executions that ended (completed, failed or cancelled) before @before: one batch of retention. */
const ENDED = `SELECT tenant_id, execution_id FROM workflow_executions
  WHERE completed_at IS NOT NULL AND completed_at < @before ORDER BY completed_at LIMIT @executions`;

export const WORKFLOWS_SQL = {
  definition: same(
    'workflowDefinition',
    `SELECT ${DEFINITION} FROM workflow_definitions WHERE tenant_id = @tenantId AND definition_id = @definitionId`,
  ),
  /** A definition a write changes or deletes, locked so that its writes run one at a time (PostgreSQL). */
  lockDefinition: written(
    'lockWorkflowDefinition',
    (s) =>
      `SELECT ${DEFINITION} FROM workflow_definitions WHERE tenant_id = @tenantId AND definition_id = @definitionId${s.lock('UPDATE')}`,
  ),
  /** The definition a dispatch runs: shared, so that a delete waits for the dispatches under way. */
  shareDefinition: written(
    'shareWorkflowDefinition',
    (s) =>
      `SELECT ${DEFINITION} FROM workflow_definitions WHERE tenant_id = @tenantId AND definition_id = @definitionId${s.lock('SHARE')}`,
  ),
  /** Nothing when another write made it first: the create then answers ALREADY_EXISTS. */
  insertDefinition: same(
    'insertWorkflowDefinition',
    `INSERT INTO workflow_definitions (tenant_id, definition_id, version, deleted, body, created_at, updated_at)
     VALUES (@tenantId, @definitionId, 1, 0, @body, @now, @now) ON CONFLICT DO NOTHING`,
  ),
  updateDefinition: same(
    'updateWorkflowDefinition',
    `UPDATE workflow_definitions SET version = @version, body = @body, updated_at = @now
     WHERE tenant_id = @tenantId AND definition_id = @definitionId`,
  ),
  tombstoneDefinition: same(
    'tombstoneWorkflowDefinition',
    'UPDATE workflow_definitions SET deleted = 1, updated_at = @now WHERE tenant_id = @tenantId AND definition_id = @definitionId',
  ),
  deleteDefinition: same(
    'deleteWorkflowDefinition',
    'DELETE FROM workflow_definitions WHERE tenant_id = @tenantId AND definition_id = @definitionId',
  ),
  snapshotVersion: same(
    'snapshotWorkflowDefinition',
    `INSERT INTO workflow_definition_versions (tenant_id, definition_id, version, body, created_at)
     VALUES (@tenantId, @definitionId, @version, @body, @now)`,
  ),
  deleteVersions: same(
    'deleteWorkflowDefinitionVersions',
    'DELETE FROM workflow_definition_versions WHERE tenant_id = @tenantId AND definition_id = @definitionId',
  ),
  /** A page of active definitions, the most recently updated first (the index by update time). */
  definitionsPage: same(
    'workflowDefinitionsPage',
    `SELECT ${DEFINITION} FROM workflow_definitions WHERE tenant_id = @tenantId AND deleted = 0 AND updated_at < @before
     ORDER BY updated_at DESC, definition_id DESC LIMIT @limit`,
  ),
  /**
   * The rest of a page's last time, at most @limit (MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX): a page never ends
   * inside a time (its cursor is that time). Through the index by update time, which holds that time's rows in id
   * order (SQLite would otherwise walk the tenant's key, every definition before @after).
   */
  definitionsAt: written(
    'workflowDefinitionsAt',
    (s) => `SELECT ${DEFINITION} FROM workflow_definitions${s.indexedBy('workflow_definitions_by_update')}
     WHERE tenant_id = @tenantId AND deleted = 0 AND updated_at = @at
     AND definition_id < @after ORDER BY definition_id DESC LIMIT @limit`,
  ),
  inFlight: same(
    'workflowExecutionsInFlight',
    `SELECT 1 AS found FROM workflow_executions WHERE tenant_id = @tenantId AND definition_id = @definitionId
     AND status IN ('pending', 'running') LIMIT 1`,
  ),

  byKey: same(
    'workflowExecutionByKey',
    'SELECT execution_id, correlation_id FROM workflow_executions WHERE tenant_id = @tenantId AND idempotency_key = @idempotencyKey',
  ),
  execution: same(
    'workflowExecution',
    `SELECT ${EXECUTION} FROM workflow_executions WHERE tenant_id = @tenantId AND execution_id = @executionId`,
  ),
  lockExecution: written(
    'lockWorkflowExecution',
    (s) =>
      `SELECT ${EXECUTION} FROM workflow_executions WHERE tenant_id = @tenantId AND execution_id = @executionId${s.lock('UPDATE')}`,
  ),
  /** Nothing when the idempotency key is taken (a dispatch of the same key committed meanwhile). */
  insertExecution: same(
    'insertWorkflowExecution',
    `INSERT INTO workflow_executions (tenant_id, ${EXECUTION}) VALUES (@tenantId, @executionId, @definitionId, @definitionVersion,
     @status, @correlationId, @idempotencyKey, @startedAt, @completedAt, @cancelledAt, @failureReason, @triggerContext, @target,
     @graph, @loops, @lastSeq) ON CONFLICT DO NOTHING`,
  ),
  updateExecution: same(
    'updateWorkflowExecution',
    `UPDATE workflow_executions SET status = @status, completed_at = @completedAt, cancelled_at = @cancelledAt,
     failure_reason = @failureReason, loops = @loops, last_seq = @lastSeq WHERE tenant_id = @tenantId AND execution_id = @executionId`,
  ),
  /** A page of executions, the most recently started first; definitionId and status filter when given. */
  executionsPage: written(
    'workflowExecutionsPage',
    (s) => `SELECT ${EXECUTION} FROM workflow_executions WHERE tenant_id = @tenantId AND started_at < @before
     AND ${s.whenGiven('definition_id', 'definitionId', 'text')} AND ${s.whenGiven('status', 'status', 'text')}
     ORDER BY started_at DESC, execution_id DESC LIMIT @limit`,
  ),
  /** The rest of a page's last time, at most @limit, as definitionsAt (through the index by start time). */
  executionsAt: written(
    'workflowExecutionsAt',
    (s) => `SELECT ${EXECUTION} FROM workflow_executions${s.indexedBy('workflow_executions_by_start')}
     WHERE tenant_id = @tenantId AND started_at = @at AND execution_id < @after
     AND ${s.whenGiven('definition_id', 'definitionId', 'text')} AND ${s.whenGiven('status', 'status', 'text')}
     ORDER BY execution_id DESC LIMIT @limit`,
  ),

  steps: same(
    'workflowSteps',
    `SELECT ${STEP} FROM workflow_steps WHERE tenant_id = @tenantId AND execution_id = @executionId ORDER BY ordinal`,
  ),
  /** A step made or moved by a command. */
  putStep: same(
    'putWorkflowStep',
    `INSERT INTO workflow_steps (tenant_id, execution_id, ${STEP}) VALUES (@tenantId, @executionId, @stepId, @ordinal, @nodeId,
     @nodeType, @status, @startedAt, @completedAt, @output, @error, @aggregator)
     ON CONFLICT (tenant_id, execution_id, step_id) DO UPDATE SET status = excluded.status, completed_at = excluded.completed_at,
     output = excluded.output, error = excluded.error, aggregator = excluded.aggregator`,
  ),
  insertEvent: same(
    'insertWorkflowEvent',
    `INSERT INTO workflow_events (tenant_id, execution_id, seq, event_id, type, step_id, external, at, data)
     VALUES (@tenantId, @executionId, @seq, @eventId, @type, @stepId, @external, @at, @data)`,
  ),
  // --- Retention (jobs/workflow-pruner.ts): finished executions past it, through workflow_executions_finished ---
  /**
   * The three deletes of a batch of retention (workflows.ts prune), each of at most @limit rows, of the oldest
   * @executions executions that ended before @before (workflow_executions_finished, migration 38): their events,
   * then their steps, then those of them left with neither.
   */
  pruneEvents: written('pruneWorkflowEvents', (s) =>
    s.deleteSomeByKey('workflow_events', 'tenant_id, execution_id, seq', `(tenant_id, execution_id) IN (${ENDED})`),
  ),
  pruneSteps: written('pruneWorkflowSteps', (s) =>
    s.deleteSomeByKey('workflow_steps', 'tenant_id, execution_id, step_id', `(tenant_id, execution_id) IN (${ENDED})`),
  ),
  pruneExecutions: written('pruneWorkflowExecutions', (s) =>
    s.deleteSomeByKey(
      'workflow_executions',
      'tenant_id, execution_id',
      `(tenant_id, execution_id) IN (${ENDED})
       AND NOT EXISTS (SELECT 1 FROM workflow_events e WHERE e.tenant_id = workflow_executions.tenant_id
         AND e.execution_id = workflow_executions.execution_id)
       AND NOT EXISTS (SELECT 1 FROM workflow_steps t WHERE t.tenant_id = workflow_executions.tenant_id
         AND t.execution_id = workflow_executions.execution_id)`,
    ),
  ),

  /** A page of the external events after a seq. */
  events: same(
    'workflowEvents',
    `SELECT seq, event_id, type, step_id, at, data FROM workflow_events WHERE tenant_id = @tenantId AND execution_id = @executionId
     AND seq > @since AND external = 1 ORDER BY seq LIMIT @limit`,
  ),
};
