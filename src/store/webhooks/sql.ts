// The statements of webhooks and their deliveries (docs/events.md, "Webhooks"), SQLite and PostgreSQL side by side.
// Every statement names the tenant, but the worker's, which take work from every tenant and carry
// each row's tenant on with it. Row locks are PostgreSQL's (FOR UPDATE, SKIP LOCKED where another
// instance's work is skipped rather than waited for); SQLite's write transaction already excludes
// every other writer (dialect.ts).
import { same, sql, written } from '../sql.js';

const WEBHOOK = 'tenant_id = @tenantId AND id = @webhookId';
const QUEUE = 'tenant_id = @tenantId AND webhook_id = @webhookId AND organization_id = @organizationId';
const STATE = 'tenant_id = @tenantId AND webhook_id = @webhookId';
/**
 * Whether a webhook is off, as the worker reads it beside the webhook: its owner's switch, the worker's own
 * (failing too long) and, for an endpoint of the advanced pages, its tenant's advanced webhook settings
 * (isEnabled false turns those endpoints off; a webhook made by webhooks/add goes on).
 */
const OFF = `w.disabled,
  (SELECT st.disabled_at FROM webhook_states st WHERE st.tenant_id = w.tenant_id AND st.webhook_id = w.id) AS auto_off,
  CASE WHEN w.advanced THEN (SELECT ws.advanced FROM webhook_settings ws WHERE ws.tenant_id = w.tenant_id) END AS settings`;
/** A webhook as listed (store/webhooks/webhooks.ts reads the columns in this order). */
const SHOWN = `w.id, w.url, w.description, w.event_types, w.created_at, w.filter_types, w.channels, w.disabled, w.rate_limit,
  w.metadata, w.uid, w.updated_at, st.disabled_at, st.disabled_reason`;

export const WEBHOOKS_SQL = {
  countOfTenant: same('countWebhooks', 'SELECT count(*) AS n FROM webhooks WHERE tenant_id = @tenantId'),
  insert: same(
    'insertWebhook',
    `INSERT INTO webhooks (tenant_id, id, url, description, event_types, secret, created_at, event_cursor,
       filter_types, channels, disabled, rate_limit, metadata, uid, updated_at, advanced)
     VALUES (@tenantId, @webhookId, @url, @description, @eventTypes, @secret, @createdAt, @cursor,
       @filterTypes, @channels, @disabled, @rateLimit, @metadata, @uid, @createdAt, @advanced)`,
  ),
  /** webhooks/get and endpoints/get: never the secret; with what the worker says of its health. */
  ofTenant: same(
    'webhooksOfTenant',
    `SELECT ${SHOWN} FROM webhooks w LEFT JOIN webhook_states st ON st.tenant_id = w.tenant_id AND st.webhook_id = w.id
     WHERE w.tenant_id = @tenantId ORDER BY w.created_at, w.id`,
  ),
  one: same(
    'webhookOfTenant',
    `SELECT ${SHOWN} FROM webhooks w LEFT JOIN webhook_states st ON st.tenant_id = w.tenant_id AND st.webhook_id = w.id
     WHERE w.tenant_id = @tenantId AND w.id = @webhookId`,
  ),
  secret: same('webhookSecret', `SELECT secret FROM webhooks WHERE ${WEBHOOK}`),
  /** endpoints/update: each member sent replaces the stored one (a null parameter keeps it). */
  update: written(
    'updateWebhook',
    (s) => `UPDATE webhooks SET
       url = COALESCE(@url, url),
       description = CASE WHEN @setDescription${s.cast('integer')} = 1 THEN @description ELSE description END,
       filter_types = COALESCE(@filterTypes, filter_types),
       event_types = COALESCE(@eventTypes, event_types),
       channels = COALESCE(@channels, channels),
       disabled = COALESCE(@disabled, disabled),
       rate_limit = COALESCE(@rateLimit${s.cast('integer')}, rate_limit),
       metadata = COALESCE(@metadata, metadata),
       updated_at = @now
     WHERE ${WEBHOOK}`,
  ),
  /** An endpoint switched on again (or its owner's switch changed): the worker's own switch and run of failures go. */
  clearHealth: same(
    'clearWebhookHealth',
    `UPDATE webhook_states SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE ${STATE}`,
  ),
  /** Queues parked while the webhook was off: due now. */
  wakeQueues: same(
    'wakeWebhookQueues',
    'UPDATE webhook_queues SET next_attempt_at = @now WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND claimed_by IS NULL',
  ),
  wakeTenantQueues: same(
    'wakeTenantWebhookQueues',
    'UPDATE webhook_queues SET next_attempt_at = @now WHERE tenant_id = @tenantId AND claimed_by IS NULL',
  ),
  /** A rotation: the secret in use signs beside the new one until @until. */
  rotate: same(
    'rotateWebhookSecret',
    `UPDATE webhooks SET previous_secret = secret, previous_secret_until = @until, secret = @secret, updated_at = @now
     WHERE ${WEBHOOK}`,
  ),
  deleteState: same('deleteWebhookState', `DELETE FROM webhook_states WHERE ${STATE}`),
  /** A finished delivery made pending again (replay), its attempts counted anew. */
  replay: same(
    'replayWebhookDelivery',
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, finished_at = NULL
     WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND event_id = @eventId AND status <> 'pending'`,
  ),
  delivery: same(
    'webhookDelivery',
    `SELECT status, organization_id FROM webhook_deliveries
     WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND event_id = @eventId`,
  ),
  /**
   * A replay of an event whose delivery retention removed (or that the webhook's filter left out), while the event is
   * kept: one recorded after the webhook was made, and dispatched already (a later one is on its way).
   */
  replayEvent: written(
    'replayWebhookEvent',
    (s) => `INSERT INTO webhook_deliveries
       (tenant_id, webhook_id, event_id, organization_id, event_type, body, status, attempts, created_at, finished_at)
     SELECT tenant_id, @webhookId${s.cast('text')}, id, organization_id, type, body, 'pending', 0, @now${s.cast('bigint')}, NULL
     FROM events e WHERE tenant_id = @tenantId AND id = @eventId${s.cast('bigint')} AND EXISTS (
       SELECT 1 FROM webhooks w WHERE w.tenant_id = @tenantId AND w.id = @webhookId
         AND e.id <= w.event_cursor AND e.created_at >= w.created_at)
     RETURNING organization_id`,
  ),
  /**
   * recover, one batch (webhooks.ts recoverSome): the next failed deliveries made since @since after the cursor, in
   * (organization, event) order, through webhook_deliveries_failed_in_order (migration 38); at most @limit.
   */
  recoverNext: written(
    'nextWebhookDeliveriesToRecover',
    (s) => `SELECT organization_id, event_id FROM webhook_deliveries
     WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND status = 'failed' AND created_at >= @since
       AND (organization_id, event_id) > (${s.typed('afterOrganization', 'text')}, ${s.typed('afterEvent', 'bigint')})
     ORDER BY organization_id, event_id LIMIT @limit`,
  ),
  /** recover, one batch: the failed deliveries made since @since after the cursor, up to the batch's last, pending again. */
  recoverRange: written(
    'recoverWebhookDeliveries',
    (s) => `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, finished_at = NULL
     WHERE tenant_id = @tenantId AND webhook_id = @webhookId AND status = 'failed' AND created_at >= @since
       AND (organization_id, event_id) > (${s.typed('afterOrganization', 'text')}, ${s.typed('afterEvent', 'bigint')})
       AND (organization_id, event_id) <= (${s.typed('lastOrganization', 'text')}, ${s.typed('lastEvent', 'bigint')})
     RETURNING organization_id`,
  ),
  settings: same('webhookSettings', 'SELECT advanced, basic FROM webhook_settings WHERE tenant_id = @tenantId'),
  /** The settings row made when missing (both settings null: never set), so a change can lock it. */
  ensureSettings: same(
    'ensureWebhookSettings',
    `INSERT INTO webhook_settings (tenant_id, advanced, basic, updated_at) VALUES (@tenantId, NULL, NULL, @now)
     ON CONFLICT (tenant_id) DO NOTHING`,
  ),
  /** A settings change reads under a row lock (PostgreSQL), so two changes at once each see the other's. */
  lockSettings: written(
    'lockWebhookSettings',
    (s) => `SELECT advanced, basic FROM webhook_settings WHERE tenant_id = @tenantId${s.lock('UPDATE')}`,
  ),
  /** The endpoint of a uid (webhooks_by_uid). */
  byUid: same('webhookByUid', 'SELECT id FROM webhooks WHERE tenant_id = @tenantId AND uid = @uid'),
  putAdvanced: same(
    'putAdvancedWebhookSettings',
    `INSERT INTO webhook_settings (tenant_id, advanced, basic, updated_at) VALUES (@tenantId, @value, NULL, @now)
     ON CONFLICT (tenant_id) DO UPDATE SET advanced = excluded.advanced, updated_at = excluded.updated_at`,
  ),
  putBasic: same(
    'putBasicWebhookSettings',
    `INSERT INTO webhook_settings (tenant_id, advanced, basic, updated_at) VALUES (@tenantId, NULL, @value, @now)
     ON CONFLICT (tenant_id) DO UPDATE SET basic = excluded.basic, updated_at = excluded.updated_at`,
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
    (s) => `SELECT w.tenant_id, w.id, w.event_cursor, w.event_types, c.last_id, w.channels, ${OFF}
     FROM webhooks w JOIN event_counters c ON c.tenant_id = w.tenant_id
     WHERE c.last_id > w.event_cursor
     LIMIT @limit${s.lock('UPDATE', { of: 'w', skipLocked: true })}`,
  ),
  /** Events after the cursor for a webhook that is off: only how far they go (none become deliveries). */
  lastAfter: written(
    'webhookLastEventAfter',
    (s) => `SELECT max(id) AS id, count(*) AS n FROM (SELECT id FROM events
     WHERE tenant_id = @tenantId AND id > @after${s.cast('bigint')} ORDER BY id LIMIT @limit) e`,
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
    `SELECT d.event_id, d.event_type, d.body, d.attempts, w.url, w.secret, d.created_at,
       w.previous_secret, w.previous_secret_until, w.rate_limit, ${OFF}
     FROM webhook_deliveries d JOIN webhooks w ON w.tenant_id = d.tenant_id AND w.id = d.webhook_id
     WHERE d.tenant_id = @tenantId AND d.webhook_id = @webhookId AND d.organization_id = @organizationId
       AND d.status = 'pending'
     ORDER BY d.event_id LIMIT 1`,
  ),
  /** A queue whose webhook is off: not tried until it is switched on again (which makes it due) or this time. */
  park: same('parkWebhookQueue', `UPDATE webhook_queues SET next_attempt_at = @at, claimed_by = NULL WHERE ${QUEUE}`),
  /** The row of the worker's own state of a webhook, made when first needed. */
  ensureState: same(
    'ensureWebhookState',
    `INSERT INTO webhook_states (tenant_id, webhook_id) VALUES (@tenantId, @webhookId) ON CONFLICT DO NOTHING`,
  ),
  /** The deliveries started in the webhook's current second, locked until the claim commits (its rate). */
  rate: written(
    'lockWebhookRate',
    (s) => `SELECT rate_window_at, rate_sent FROM webhook_states WHERE ${STATE}${s.lock('UPDATE')}`,
  ),
  setRate: same('setWebhookRate', `UPDATE webhook_states SET rate_window_at = @window, rate_sent = @sent WHERE ${STATE}`),
  /** A delivery made: the webhook's run of failures ends. */
  healthy: same('webhookHealthy', `UPDATE webhook_states SET failing_since = NULL WHERE ${STATE} AND failing_since IS NOT NULL`),
  /** A failed attempt: the run of failures starts (or goes on); answers when it started and whether the webhook is off. */
  failing: same(
    'webhookFailing',
    `UPDATE webhook_states SET failing_since = COALESCE(failing_since, @at) WHERE ${STATE}
     RETURNING failing_since, disabled_at`,
  ),
  switchOff: same(
    'switchWebhookOff',
    `UPDATE webhook_states SET disabled_at = @at, disabled_reason = @reason WHERE ${STATE} AND disabled_at IS NULL`,
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
