// The outbox events of approval workflow executions (docs/events.md, "Approval workflows"): each
// external event of an execution's log, under its `workflow.` type, for the tenant's webhooks and
// streams. End-user streams never carry them (events/stream-access.ts knows no `workflow.` family).
import { NO_ORGANIZATION } from '../../schemas/common.js';
import type { EventType } from '../../schemas/event-types.js';
import type { ExecutionEvent } from '../../domain/workflow-machine.js';
import { draft, json } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';
import type { StoredExecution } from './workflows.js';

/** An execution log's type as an outbox type: `step.awaiting-approval` is `workflow.step_awaiting_approval`. */
export const outboxType = (type: string): EventType => `workflow.${type.replace(/[.-]/g, '_')}` as EventType;

/** The external events of a command, each with the execution it belongs to and its place in the log. */
export function workflowEventDrafts(x: StoredExecution, events: readonly ExecutionEvent[]): EventDraft[] {
  const e = x.execution;
  return events
    .filter((event) => event.external)
    .map((event) =>
      draft(
        outboxType(event.type),
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
