// The outbox events of approval workflow executions (docs/events.md, "Approval workflows"): each
// external event of an execution's log, under its `workflow.` type, for the tenant's webhooks and
// streams. End-user streams never carry them (events/stream-access.ts knows no `workflow.` family).
import { NO_ORGANIZATION } from '../../schemas/common.js';
import type { EventType } from '../../schemas/event-types.js';
import type { ExecutionEvent, ExternalEventType } from '../../domain/workflow-machine.js';
import { draft, json } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';
import type { StoredExecution } from './workflows.js';

/**
 * An execution log's external type as an outbox type: `step.awaiting-approval` is
 * `workflow.step_awaiting_approval`. Written out, so the compiler checks both sides: every external type has
 * one, and each is an event type (schemas/event-types.ts; a unit test checks no `workflow.` type is left over).
 */
export const OUTBOX_TYPES: { readonly [T in ExternalEventType]: EventType } = {
  'execution.dispatched': 'workflow.execution_dispatched',
  'execution.completed': 'workflow.execution_completed',
  'execution.failed': 'workflow.execution_failed',
  'execution.cancelled': 'workflow.execution_cancelled',
  'step.awaiting-approval': 'workflow.step_awaiting_approval',
  'step.completed': 'workflow.step_completed',
  'step.failed': 'workflow.step_failed',
  'step.cancelled': 'workflow.step_cancelled',
  'loop.iteration-started': 'workflow.loop_iteration_started',
  'loop.exhausted': 'workflow.loop_exhausted',
};

const isExternal = (type: string): type is ExternalEventType => Object.hasOwn(OUTBOX_TYPES, type);

/** The external events of a command, each with the execution it belongs to and its place in the log. */
export function workflowEventDrafts(x: StoredExecution, events: readonly ExecutionEvent[]): EventDraft[] {
  const e = x.execution;
  return events.flatMap((event) =>
    !event.external || !isExternal(event.type)
      ? []
      : draft(
          OUTBOX_TYPES[event.type],
          x.target.organizationId ?? NO_ORGANIZATION,
          x.target.documentId,
          json({
            executionId: e.executionId,
            definitionId: e.definitionId,
            definitionVersion: e.definitionVersion,
            correlationId: e.correlationId,
            eventId: event.eventId,
            seq: event.seq,
            stepId: event.stepId,
            data: event.data,
          }),
        ),
  );
}
