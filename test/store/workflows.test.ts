// Approval workflows in the store, on the configured database: retention (jobs/workflow-pruner.ts) deletes the
// executions that ended (completed, failed or cancelled) before MARGINALIA_WORKFLOW_EXECUTION_RETENTION_DAYS, with
// their steps and event logs, every tenant's, in batches of a bounded number of rows, each its own transaction;
// running executions, however old, and those that ended since stay whole.
import { describe } from 'node:test';
import { pruneWorkflowExecutions } from '../../src/jobs/workflow-pruner.js';
import { type FreshDatabase, TEST_STORE } from '../helpers/test-database.js';
import { eq, nextTurn, storeTest, T0, TA, TB } from '../helpers/store-fixtures.js';

const DAY = 86_400_000;
const NOW = T0 + 100 * DAY;

/** An execution with `steps` steps and two events a step, started at `startedAt`; `endedAt` null: still running. */
async function execution(
  db: FreshDatabase,
  tenantId: string,
  executionId: string,
  startedAt: number,
  endedAt: number | null,
  steps: number,
): Promise<void> {
  const status = endedAt === null ? 'running' : 'completed';
  await db.exec(`INSERT INTO workflow_executions (tenant_id, execution_id, definition_id, definition_version, status,
      correlation_id, idempotency_key, started_at, completed_at, cancelled_at, failure_reason, trigger_context, target,
      graph, loops, last_seq)
    VALUES ('${tenantId}', '${executionId}', 'def', 1, '${status}', 'corr', 'key-${executionId}', ${startedAt},
      ${endedAt ?? 'NULL'}, NULL, NULL, NULL, '{}', '{}', '{}', ${2 * steps})`);
  for (let i = 1; i <= steps; i++) {
    await db.exec(`INSERT INTO workflow_steps (tenant_id, execution_id, step_id, ordinal, node_id, node_type, status,
        started_at, completed_at, output, error, aggregator)
      VALUES ('${tenantId}', '${executionId}', 'step-${i}', ${i}, 'n${i}', 'agent', 'completed', ${startedAt},
        ${endedAt ?? 'NULL'}, '{}', NULL, NULL)`);
    for (const seq of [2 * i - 1, 2 * i])
      await db.exec(`INSERT INTO workflow_events (tenant_id, execution_id, seq, event_id, type, step_id, external, at, data)
        VALUES ('${tenantId}', '${executionId}', ${seq}, 'evt-${seq}', 'step.completed', 'step-${i}', 1, ${startedAt}, NULL)`);
  }
}

/** What each table holds of the tenant's executions, as "execution: steps/events". */
async function held(db: FreshDatabase, tenantId: string): Promise<string[]> {
  const count = async (table: string, id: string) =>
    Number(
      (await db.query(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = '${tenantId}' AND execution_id = '${id}'`))[0]!.n,
    );
  const ids = (
    await db.query(`SELECT execution_id FROM workflow_executions WHERE tenant_id = '${tenantId}' ORDER BY execution_id`)
  ).map((r) => r.execution_id as string);
  return Promise.all(ids.map(async (id) => `${id}: ${await count('workflow_steps', id)}/${await count('workflow_events', id)}`));
}

describe(`${TEST_STORE} store: workflow executions' retention`, () => {
  storeTest(
    'executions that ended before the retention go with their steps and events, in bounded batches; the others stay',
    async (store, db) => {
      await execution(db, TA, 'old-1', T0, T0 + DAY, 4);
      await execution(db, TA, 'old-2', T0, T0 + 2 * DAY, 1);
      await execution(db, TA, 'old-3', T0, T0 + 3 * DAY, 0);
      await execution(db, TA, 'running', T0, null, 2);
      await execution(db, TA, 'recent', T0, NOW - DAY, 2);
      await execution(db, TB, 'old-b', T0, T0 + DAY, 1);
      await nextTurn();
      const transactions: string[] = [];
      store.observeTransactions!((method) => transactions.push(method));
      // 30 days' retention: everything that ended before NOW - 30 days goes; 5 rows a batch.
      const rows = await pruneWorkflowExecutions(store, NOW, 30, 5);
      store.observeTransactions!(null);
      // Each execution and its steps and events: old-1 1 + 4 + 8, old-2 1 + 1 + 2, old-3 1, old-b 1 + 1 + 2.
      eq(rows, 13 + 4 + 1 + 4, 'every row of the executions past retention');
      const batches = transactions.filter((m) => m === 'pruneWorkflowExecutions').length;
      eq(batches, 5, 'at most 5 rows a transaction: 5, 5, 5, 5 and the last 2');
      await nextTurn();
      eq(await held(db, TA), ['recent: 2/4', 'running: 2/4'], 'running and recently ended executions stay whole');
      eq(await held(db, TB), [], "every tenant's are pruned");
      eq(await pruneWorkflowExecutions(store, NOW, 30, 5), 0, 'nothing more');
      eq(await pruneWorkflowExecutions(store, NOW + 365 * DAY, 30, 5), 1 + 2 + 4, "'recent' too, once it is past retention");
      await nextTurn();
      eq(await held(db, TA), ['running: 2/4'], 'a running execution is never pruned');
    },
  );
});
