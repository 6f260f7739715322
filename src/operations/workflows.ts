// Approval workflows, on /v2 only: definitions, executions and their steps. Each answers `{"result": ...}`
// as its page prints it, without the status/message envelope (the contract's result is that answer).
import { bare } from '../http/envelope.js';
import { CONTRACT } from '../schemas/operations/index.js';
import {
  createDefinition,
  deleteDefinition,
  getDefinition,
  listDefinitions,
  updateDefinition,
} from '../services/workflow-definitions.js';
import {
  cancelWorkflowExecution,
  cancelWorkflowStep,
  dispatchExecution,
  executionEvents,
  getExecution,
  listExecutions,
  recordWorkflowAgentResolution,
  recordWorkflowReviewerDecision,
  resolveWorkflowStep,
} from '../services/workflow-executions.js';
import { operation } from './operation.js';

export const workflows = [
  operation(CONTRACT.workflowDefinitionsCreate, { run: createDefinition, answer: bare }),
  operation(CONTRACT.workflowDefinitionsGet, { run: getDefinition, answer: bare }),
  operation(CONTRACT.workflowDefinitionsList, { run: listDefinitions, answer: bare }),
  operation(CONTRACT.workflowDefinitionsUpdate, { run: updateDefinition, answer: bare }),
  operation(CONTRACT.workflowDefinitionsDelete, { run: deleteDefinition, answer: bare }),
  operation(CONTRACT.workflowExecutionsDispatch, { run: dispatchExecution, answer: bare }),
  operation(CONTRACT.workflowExecutionsGet, { run: getExecution, answer: bare }),
  operation(CONTRACT.workflowExecutionsList, { run: listExecutions, answer: bare }),
  operation(CONTRACT.workflowExecutionsCancel, { run: cancelWorkflowExecution, answer: bare }),
  operation(CONTRACT.workflowExecutionsGetEvents, { run: executionEvents, answer: bare }),
  operation(CONTRACT.workflowStepsResolve, { run: resolveWorkflowStep, answer: bare }),
  operation(CONTRACT.workflowStepsRecordReviewerDecision, { run: recordWorkflowReviewerDecision, answer: bare }),
  operation(CONTRACT.workflowStepsCancel, { run: cancelWorkflowStep, answer: bare }),
  operation(CONTRACT.workflowStepsRecordAgentResolution, { run: recordWorkflowAgentResolution, answer: bare }),
];
