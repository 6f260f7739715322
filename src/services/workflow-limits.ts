// The limits of approval workflows (docs/configuration.md), each a setting: what one definition may
// hold, how many steps one execution may run, the largest page of an execution's events, and how far a
// list's page may run past pageSize to finish its last millisecond.

export interface WorkflowLimits {
  /** Most nodes one definition may declare (MARGINALIA_WORKFLOW_MAX_NODES; the pages allow 100). */
  maxNodes: number;
  /** Largest a definition may be, in bytes of JSON (MARGINALIA_WORKFLOW_MAX_DEFINITION_BYTES). */
  maxDefinitionBytes: number;
  /** Most steps one execution may run, loops included (MARGINALIA_WORKFLOW_MAX_STEPS_PER_EXECUTION). */
  maxStepsPerExecution: number;
  /** Most events one executions/getEvents page answers (MARGINALIA_WORKFLOW_EVENTS_PAGE_MAX; the page allows 500). */
  eventsPageMax: number;
  /**
   * Most items a full page of definitions/list or executions/list adds past pageSize to finish its last item's
   * millisecond (MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX).
   */
  pageSameTimeMax: number;
}

export const MAX_WORKFLOW_NODES = 100;
export const MAX_WORKFLOW_EVENTS_PAGE = 500;

export const DEFAULT_WORKFLOW_LIMITS: WorkflowLimits = {
  maxNodes: MAX_WORKFLOW_NODES,
  maxDefinitionBytes: 262_144,
  maxStepsPerExecution: 1000,
  eventsPageMax: MAX_WORKFLOW_EVENTS_PAGE,
  pageSameTimeMax: 1000,
};

/** The limits in force: the configured ones, else the defaults. */
export const workflowLimitsOf = (configured: Partial<WorkflowLimits> | undefined): WorkflowLimits => ({
  ...DEFAULT_WORKFLOW_LIMITS,
  ...Object.fromEntries(Object.entries(configured ?? {}).filter(([, v]) => v !== undefined)),
});
