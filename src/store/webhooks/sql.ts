// The statements of webhooks and their deliveries (docs/events.md, "Webhooks"), SQLite and PostgreSQL side by side.
// Every statement names the tenant, but the worker's, which take work from every tenant and carry
// each row's tenant on with it. Row locks are PostgreSQL's (FOR UPDATE, SKIP LOCKED where another
// instance's work is skipped rather than waited for); SQLite's write transaction already excludes
// every other writer (dialect.ts).
import { same, sql, written } from '../sql.js';

const WEBHOOK = 'tenant_id = @tenantId AND id = @webhookId';
const QUEUE = 'tenant_id = @tenantId AND webhook_id = @webhookId AND organization_id = @organizationId';

export const WEBHOOKS_SQL = {
  countOfTenant: same('countWebhooks', 'SELECT count(*) AS n FROM webhooks WHERE tenant_id = @tenantId'),
  insert: same(
    'insertWebhook',
    `INSERT INTO webhooks (tenant_id, id, url, description, event_types, secret, created_at, event_cursor)
     VALUES (@tenantId, @webhookId, @url, @description, @eventTypes, @secret, @createdAt, @cursor)`,
  ),
  /** webhooks/get: never the secret. */
  ofTenant: same(
    'webhooksOfTenant',
    `SELECT id, url, description, event_types, created_at FROM webhooks WHERE tenant_id = @tenantId ORDER BY created_at, id`,
  ),
  exists: same('webhookExists', `SELECT 1 AS found FROM webhooks WHERE ${WEBHOOK}`),
  /** First in webhooks/delete: on PostgreSQL it waits for a dispatch holding the row, which then finds it gone. */
  delete: same('deleteWebhook', `DELETE FROM webhooks WHERE ${WEBHOOK}`),
  deleteQueues: same('deleteWebhookQueues', 'DELETE FROM webhook_queues WHERE tenant_id = @tenantId AND webhook_id = @webhookId'),
  deletePending: same(
    'deletePendingDeliveries',
    `DELETE FROM webhook_deliveries WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND status = 'pending'`,
  ),
  /** webhooks/deliveries/get: the webhook's attempts newest first, before an attempt id (null: from the newest). */
  attempts: written(
    'webhookAttempts',
    (s) => `SELECT id, event_id, event_type, attempt, attempted_at, status, response_code, error, duration_ms
     FROM webhook_attempts WHERE tenant_id = @tenantId AND webhook_id = @webhookId
       AND (@before${s.cast('bigint')} IS NULL OR id < @before)
     ORDER BY id DESC LIMIT @limit`,
  ),
};

export const DELIVERIES_SQL = {
  /** Whether the worker has anything to do: events not yet dispatched, or a queue due. A read, so idle polls take no lock. */
  work: same(
    'webhookWork',
    `SELECT
       EXISTS (SELECT 1 FROM webhooks w JOIN event_counters c ON c.tenant_id = w.tenant_id
               WHERE c.last_id > w.event_cursor) AS behind,
       EXISTS (SELECT 1 FROM webhook_queues WHERE next_attempt_at <= @now) AS due`,
  ),
  /**
   * Webhooks whose cursor is behind their tenant's last event, locked for the dispatch: on PostgreSQL
   * one that another instance is dispatching (or that is being deleted) is skipped, not waited for.
   */
  lockBehind: written(
    'lockWebhooksBehind',
    (s) => `SELECT w.tenant_id, w.id, w.event_cursor, w.event_types, c.last_id
     FROM webhooks w JOIN event_counters c ON c.tenant_id = w.tenant_id
     WHERE c.last_id > w.event_cursor
     LIMIT @limit${s.lock('UPDATE', { of: 'w', skipLocked: true })}`,
  ),
  /** The events after the cursor, without their bodies: which to deliver is decided by type first. */
  eventsAfter: written(
    'webhookEventsAfter',
    (s) => `SELECT id, type, organization_id FROM events
     WHERE tenant_id = @tenantId AND id > @after${s.cast('bigint')} ORDER BY id LIMIT @limit`,
  ),
  /** The chosen events become pending deliveries, their bodies copied inside the database. */
  insertDeliveries: written(
    'insertWebhookDeliveries',
    (s) => `INSERT INTO webhook_deliveries
       (tenant_id, webhook_id, event_id, organization_id, event_type, body, status, attempts, created_at, finished_at)
     SELECT tenant_id, @webhookId${s.cast('text')}, id, organization_id, type, body, 'pending', 0, @now${s.cast('bigint')}, NULL
     FROM events
     WHERE tenant_id = @tenantId AND ${s.isIn('id', 'eventIds', 'bigint')}
     ON CONFLICT DO NOTHING`,
  ),
  /**
   * A queue for each organization the dispatch gave deliveries (a batch, one row per organization). A
   * queue that exists is left as it is, but on PostgreSQL its row is locked (DO UPDATE), so a finishing
   * delivery that found no successor and deletes it either waits for this commit (and then sees the new
   * deliveries) or has deleted it first (and this inserts it again): no delivery is left without a queue.
   */
  upsertQueues: sql('upsertWebhookQueues', {
    sqlite: `INSERT INTO webhook_queues (tenant_id, webhook_id, organization_id, next_attempt_at, claimed_by)
             VALUES (@tenantId, @webhookId, @organizationId, @now, NULL) ON CONFLICT DO NOTHING`,
    postgres: `INSERT INTO webhook_queues AS q (tenant_id, webhook_id, organization_id, next_attempt_at, claimed_by)
               SELECT @tenantId, @webhookId, o, @now::bigint, NULL FROM unnest(@organizationId::text[]) AS o ORDER BY o
               ON CONFLICT (tenant_id, webhook_id, organization_id) DO UPDATE SET next_attempt_at = q.next_attempt_at`,
  }),
  setCursor: same('setWebhookCursor', `UPDATE webhooks SET event_cursor = @cursor WHERE ${WEBHOOK}`),
  /** Queues due now, oldest due first; PostgreSQL skips those another instance is claiming or finishing. */
  lockDue: written(
    'lockDueWebhookQueues',
    (s) => `SELECT tenant_id, webhook_id, organization_id FROM webhook_queues
     WHERE next_attempt_at <= @now ORDER BY next_attempt_at LIMIT @limit${s.lock('UPDATE', { skipLocked: true })}`,
  ),
  /** The lease: the queue is not due again until it ends (a crashed claimer's queue comes back then). */
  lease: same('leaseWebhookQueue', `UPDATE webhook_queues SET next_attempt_at = @until, claimed_by = @claimer WHERE ${QUEUE}`),
  /** A queue's oldest pending delivery, with where it goes. */
  head: same(
    'webhookQueueHead',
    `SELECT d.event_id, d.event_type, d.body, d.attempts, w.url, w.secret
     FROM webhook_deliveries d JOIN webhooks w ON w.tenant_id = d.tenant_id AND w.id = d.webhook_id
     WHERE d.tenant_id = @tenantId AND d.webhook_id = @webhookId AND d.organization_id = @organizationId
       AND d.status = 'pending'
     ORDER BY d.event_id LIMIT 1`,
  ),
  /** First in a finish: the queue, locked on PostgreSQL until the finish commits (see upsertQueues). */
  lockQueue: written('lockWebhookQueue', (s) => `SELECT claimed_by FROM webhook_queues WHERE ${QUEUE}${s.lock('UPDATE')}`),
  deleteQueue: same('deleteWebhookQueue', `DELETE FROM webhook_queues WHERE ${QUEUE}`),
  /** A queue handed back: due at `at`, under no lease. */
  release: same('releaseWebhookQueue', `UPDATE webhook_queues SET next_attempt_at = @at, claimed_by = NULL WHERE ${QUEUE}`),
  /** Hands back a queue only while this claimer holds it (shutdown). */
  releaseOwn: same(
    'releaseOwnWebhookQueue',
    `UPDATE webhook_queues SET next_attempt_at = @at, claimed_by = NULL WHERE ${QUEUE} AND claimed_by = @claimer`,
  ),
  anyPending: same(
    'webhookQueueHasMore',
    `SELECT 1 AS found FROM webhook_deliveries
     WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND organization_id = @organizationId AND status = 'pending'
     LIMIT 1`,
  ),
  /** A delivery's end: delivered or failed for good. */
  close: same(
    'closeWebhookDelivery',
    `UPDATE webhook_deliveries SET status = @status, attempts = @attempts, finished_at = @at
     WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND event_id = @eventId AND status = 'pending'`,
  ),
  /** A failed attempt that will be tried again. */
  countAttempt: same(
    'countWebhookAttempt',
    `UPDATE webhook_deliveries SET attempts = @attempts
     WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND event_id = @eventId AND status = 'pending'`,
  ),
  logAttempt: same(
    'logWebhookAttempt',
    `INSERT INTO webhook_attempts
       (tenant_id, webhook_id, event_id, event_type, attempt, attempted_at, status, response_code, error, duration_ms)
     VALUES (@tenantId, @webhookId, @eventId, @eventType, @attempt, @attemptedAt, @status, @responseCode, @error, @durationMs)`,
  ),
  /** Retention: finished deliveries and attempts older than `before`, a batch at a time. */
  pruneDeliveries: same(
    'pruneWebhookDeliveries',
    `DELETE FROM webhook_deliveries WHERE (tenant_id, webhook_id, event_id) IN (
       SELECT tenant_id, webhook_id, event_id FROM webhook_deliveries
       WHERE status <> 'pending' AND finished_at < @before ORDER BY finished_at LIMIT @limit)`,
  ),
  pruneAttempts: same(
    'pruneWebhookAttempts',
    `DELETE FROM webhook_attempts WHERE id IN (
       SELECT id FROM webhook_attempts WHERE attempted_at < @before ORDER BY attempted_at LIMIT @limit)`,
  ),
};
