// webhooks/recover in the store (docs/events.md, "Recovering after an outage"), on the configured database: the
// failed deliveries made since a time are made pending again a batch at a time (MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE),
// each batch its own transaction, walking them in (organization, event) order; a full batch ends before its last
// organization unless that is its only one, so an organization's deliveries go pending together; each organization
// recovered has its queue; what failed before the time, what did not fail, and other webhooks and tenants stay.
import { describe } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { type FreshDatabase, TEST_STORE } from '../helpers/test-database.js';
import { eq, nextTurn, storeTest, T0, TA, TB } from '../helpers/store-fixtures.js';

const SINCE = T0 + 100;

const webhook = (store: Store, tenantId: string, webhookId: string) =>
  store.addWebhook(
    tenantId,
    { webhookId, url: 'https://203.0.113.1/h', description: null, eventTypes: null, secret: 'whsec_x', createdAt: T0 },
    10,
  );

/** Deliveries as the worker leaves them: [organization, event id, status, made at]. */
async function deliveries(
  db: FreshDatabase,
  tenantId: string,
  webhookId: string,
  rows: readonly [string, number, 'failed' | 'delivered', number][],
): Promise<void> {
  const values = rows
    .map(
      ([org, id, status, at]) =>
        `('${tenantId}', '${webhookId}', ${id}, '${org}', 'notification.add', '{}', '${status}', 7, ${at}, ${at + 1})`,
    )
    .join(', ');
  await db.exec(`INSERT INTO webhook_deliveries
    (tenant_id, webhook_id, event_id, organization_id, event_type, body, status, attempts, created_at, finished_at)
    VALUES ${values}`);
}

const statuses = async (db: FreshDatabase, tenantId: string, webhookId: string) =>
  (
    await db.query(`SELECT event_id, status, attempts FROM webhook_deliveries
      WHERE tenant_id = '${tenantId}' AND webhook_id = '${webhookId}' ORDER BY event_id`)
  ).map((r) => `${r.event_id}:${r.status}:${r.attempts}`);

const queues = async (db: FreshDatabase, tenantId: string) =>
  (await db.query(`SELECT organization_id FROM webhook_queues WHERE tenant_id = '${tenantId}' ORDER BY organization_id`)).map(
    (r) => r.organization_id,
  );

describe(`${TEST_STORE} store: webhooks/recover`, () => {
  storeTest(
    'failed deliveries since a time go pending again in batches, each its own transaction, an organization in one',
    async (store, db) => {
      await webhook(store, TA, 'wh_1');
      await webhook(store, TA, 'wh_2');
      await webhook(store, TB, 'wh_1');
      await deliveries(db, TA, 'wh_1', [
        ['org-a', 1, 'failed', SINCE],
        ['org-b', 2, 'failed', SINCE + 1],
        ['org-a', 3, 'failed', SINCE + 2],
        ['org-b', 4, 'failed', SINCE + 3],
        ['org-a', 5, 'failed', SINCE + 4],
        ['org-b', 6, 'delivered', SINCE + 5],
        ['org-c', 7, 'failed', SINCE - 1],
      ]);
      await deliveries(db, TA, 'wh_2', [['org-a', 1, 'failed', SINCE]]);
      await deliveries(db, TB, 'wh_1', [['org-a', 1, 'failed', SINCE]]);
      await nextTurn();
      const transactions: string[] = [];
      store.observeTransactions!((method) => transactions.push(method));
      const recovered = await store.recoverWebhookDeliveries(TA, 'wh_1', SINCE, T0 + 1000, 2);
      store.observeTransactions!(null);
      eq(recovered, 5, 'every failed delivery made since the time');
      // Batches of 2 in (organization, event) order: org-a's 1, 3; org-a's 5 (the batch of 5 and org-b's 2 is cut
      // before org-b); org-b's 2, 4; and one that finds nothing more. One statement for all would be one transaction.
      eq(
        transactions.filter((m) => m === 'recoverWebhookDeliveries').length,
        4,
        'a transaction per batch, a full batch cut before its last organization',
      );
      await nextTurn();
      eq(
        await statuses(db, TA, 'wh_1'),
        ['1:pending:0', '2:pending:0', '3:pending:0', '4:pending:0', '5:pending:0', '6:delivered:7', '7:failed:7'],
        'pending again with their attempts counted anew; the delivered one and the one before the time stay',
      );
      eq(await queues(db, TA), ['org-a', 'org-b'], 'a queue for each organization recovered');
      eq(await statuses(db, TA, 'wh_2'), ['1:failed:7'], "another webhook's stay");
      eq(await statuses(db, TB, 'wh_1'), ['1:failed:7'], "another tenant's stay");
      eq(await store.recoverWebhookDeliveries(TA, 'wh_1', SINCE, T0 + 1000, 2), 0, 'a second recover finds nothing');
    },
  );

  storeTest(
    'an organization with more failed deliveries than a batch holds is recovered in several, in event order',
    async (store, db) => {
      await webhook(store, TA, 'wh_1');
      await deliveries(
        db,
        TA,
        'wh_1',
        Array.from({ length: 7 }, (_, i) => ['org-a', i + 1, 'failed', SINCE] as [string, number, 'failed', number]),
      );
      await nextTurn();
      const transactions: string[] = [];
      store.observeTransactions!((method) => transactions.push(method));
      eq(await store.recoverWebhookDeliveries(TA, 'wh_1', SINCE, T0 + 1000, 3), 7, 'all seven');
      store.observeTransactions!(null);
      eq(transactions.filter((m) => m === 'recoverWebhookDeliveries').length, 3, 'batches of 3, 3 and 1');
      await nextTurn();
      eq((await statuses(db, TA, 'wh_1')).filter((s) => s.includes('pending')).length, 7, 'all pending');
    },
  );
});
