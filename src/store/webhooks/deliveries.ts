// Store code of the webhook worker (src/webhooks/worker.ts): events become deliveries, deliveries are
// claimed under a lease, and each attempt is finished, in event order per (webhook, organization).
//
// A queue (webhook_queues) is one row per (tenant, webhook, organization) that has deliveries pending;
// only its oldest pending delivery is ever tried, and only by the instance whose lease the queue is
// under, so the organization's events arrive in order and each delivery is made by one instance at a
// time. The row's next_attempt_at is when that delivery may be tried: now, a retry's time, or, while
// claimed, the lease's end (so a crashed claimer's queue is taken over then). Claims skip queues
// another instance holds (FOR UPDATE SKIP LOCKED on PostgreSQL); the dispatch and a finish both lock
// the queue's row, so a finish that finds no successor and deletes the queue cannot miss deliveries a
// concurrent dispatch adds (sql.ts, upsertQueues).
import { sentUnasked, TypeFilter } from '../events/type-filter.js';
import { all, arrays, batch, first, list, run, type Work } from '../sql.js';
import { DELIVERIES_SQL as SQL } from './sql.js';
import type { ClaimedDelivery, DeliveryOutcome, DispatchLimits, HealthRule, WebhookQueueKey } from './types.js';

/** Whether there is anything to dispatch or deliver now: a read, so an idle worker takes no lock. */
export function* work(now: number): Work<{ behind: boolean; due: boolean }> {
  const row = (yield* all<{ behind: unknown; due: unknown }>(SQL.work, { now }))[0];
  return { behind: Boolean(row?.behind), due: Boolean(row?.due) };
}

/**
 * Turns the events after each webhook's cursor into deliveries: at most `limits.webhooks` webhooks
 * (locked; others' skipped on PostgreSQL) and `limits.events` events each. Answers how many
 * deliveries were made and whether more may be waiting.
 */
export function* dispatch(now: number, limits: DispatchLimits): Work<{ made: number; more: boolean }> {
  const behind = yield* arrays(SQL.lockBehind, { limit: limits.webhooks });
  let made = 0;
  let more = behind.length === limits.webhooks;
  for (const [tenantId, webhookId, cursor, types, lastId, channels, ...off] of behind) {
    // A webhook that is off gets no deliveries of what happens meanwhile: its cursor moves past it
    // (docs/events.md, "Advanced webhooks"; `webhooks/recover` brings back only what failed).
    if (isOff(off)) {
      const skipped = yield* first<{ id: unknown; n: unknown }>(SQL.lastAfter, {
        tenantId,
        after: Number(cursor),
        limit: limits.events,
      });
      if (Number(skipped?.n ?? 0) === limits.events) more = true;
      const next = skipped?.id == null ? Number(lastId) : Number(skipped.id);
      yield* run(SQL.setCursor, { tenantId, webhookId, cursor: next });
      continue;
    }
    // null: every type (but presence's, sentUnasked); every organization.
    const wanted = types == null ? null : new TypeFilter(JSON.parse(types as string) as string[]);
    const inChannels = channels == null ? null : new Set(JSON.parse(channels as string) as string[]);
    const events = yield* arrays(SQL.eventsAfter, { tenantId, after: Number(cursor), limit: limits.events });
    // None after the cursor though the counter is ahead: they were pruned (retention) before dispatch.
    const next = events.length > 0 ? Number(events[events.length - 1]![0]) : Number(lastId);
    if (events.length === limits.events) more = true;
    const chosen = events.filter(
      (e) =>
        (wanted ? wanted.matches(e[1] as string) : sentUnasked(e[1] as string)) &&
        (!inChannels || inChannels.has(e[2] as string)),
    );
    if (chosen.length > 0) {
      made += yield* run(SQL.insertDeliveries, {
        tenantId,
        webhookId,
        now,
        eventIds: list(chosen.map((e) => Number(e[0]))),
      });
      const organizations = [...new Set(chosen.map((e) => e[2] as string))].sort();
      yield* batch(
        SQL.upsertQueues,
        { tenantId, webhookId, now },
        organizations.map((organizationId) => ({ organizationId })),
      );
    }
    yield* run(SQL.setCursor, { tenantId, webhookId, cursor: next });
  }
  return { made, more };
}

/** How long a queue of a webhook that is off waits before it is looked at again (switching it on makes it due at once). */
export const PARKED_MS = 3_600_000;

/** [disabled, auto_off, settings] as OFF (sql.ts) reads them: whether the webhook is off. */
function isOff([disabled, autoOff, settings]: unknown[]): boolean {
  if (disabled || autoOff != null) return true;
  if (settings == null) return false;
  return (JSON.parse(settings as string) as { isEnabled?: unknown }).isEnabled === false;
}

/**
 * Claims up to `limit` due queues for `claimer` until `until` (the lease) and answers the oldest
 * pending delivery of each. A queue left with no delivery (its webhook deleted meanwhile) goes; one whose
 * webhook is off is parked; one whose webhook has started its `rateLimit` deliveries this second waits
 * for the next second (the rate is counted in the database, so it holds across instances).
 */
export function* claim(claimer: string, now: number, until: number, limit: number): Work<ClaimedDelivery[]> {
  const due = yield* arrays(SQL.lockDue, { now, limit });
  const candidates: { delivery: ClaimedDelivery; rateLimit: number | null }[] = [];
  for (const [tenantId, webhookId, organizationId] of due) {
    const key = { tenantId: tenantId as string, webhookId: webhookId as string, organizationId: organizationId as string };
    const head = yield* first(SQL.head, key);
    if (!head) {
      yield* run(SQL.deleteQueue, key);
      continue;
    }
    if (isOff([head.disabled, head.auto_off, head.settings])) {
      yield* run(SQL.park, { ...key, at: now + PARKED_MS });
      continue;
    }
    const graceUntil = head.previous_secret_until == null ? 0 : Number(head.previous_secret_until);
    candidates.push({
      rateLimit: head.rate_limit == null ? null : Number(head.rate_limit),
      delivery: {
        ...key,
        eventId: Number(head.event_id),
        eventType: head.event_type as string,
        body: head.body as string,
        url: head.url as string,
        secret: head.secret as string,
        previousSecret: graceUntil > now ? (head.previous_secret as string) : null,
        createdAt: Number(head.created_at),
        attempt: Number(head.attempts) + 1,
      },
    });
  }
  const granted = yield* withinRates(candidates, now);
  for (const d of granted) yield* run(SQL.lease, { ...queueOf(d), until, claimer });
  return granted;
}

const queueOf = (d: WebhookQueueKey) => ({
  tenantId: d.tenantId,
  webhookId: d.webhookId,
  organizationId: d.organizationId,
});

/**
 * The candidates a webhook's rate lets start now; the others' queues wait for the next second. Rates are
 * locked in webhook order, so two claims never wait on each other's.
 */
function* withinRates(
  candidates: readonly { delivery: ClaimedDelivery; rateLimit: number | null }[],
  now: number,
): Work<ClaimedDelivery[]> {
  const granted = candidates.filter((c) => c.rateLimit === null).map((c) => c.delivery);
  const limited = new Map<string, { rateLimit: number; deliveries: ClaimedDelivery[] }>();
  for (const c of candidates) {
    if (c.rateLimit === null) continue;
    const k = `${c.delivery.tenantId}\u0000${c.delivery.webhookId}`;
    const group = limited.get(k) ?? { rateLimit: c.rateLimit, deliveries: [] };
    group.deliveries.push(c.delivery);
    limited.set(k, group);
  }
  const window = Math.floor(now / 1000) * 1000;
  for (const k of [...limited.keys()].sort()) {
    const { rateLimit, deliveries } = limited.get(k)!;
    const { tenantId, webhookId } = deliveries[0]!;
    yield* run(SQL.ensureState, { tenantId, webhookId });
    const row = yield* first<{ rate_window_at: unknown; rate_sent: unknown }>(SQL.rate, { tenantId, webhookId });
    const sent = Number(row?.rate_window_at) === window ? Number(row?.rate_sent ?? 0) : 0;
    const room = Math.max(0, rateLimit - sent);
    granted.push(...deliveries.slice(0, room));
    for (const d of deliveries.slice(room)) yield* run(SQL.release, { ...queueOf(d), at: window + 1000 });
    yield* run(SQL.setRate, { tenantId, webhookId, window, sent: sent + Math.min(room, deliveries.length) });
  }
  return granted;
}

/**
 * Logs an attempt and, while the queue is still this claimer's, ends the delivery (delivered, or
 * failed for good) or schedules its retry; a queue whose lease was lost to another instance is left
 * to that one. A queue with nothing left pending goes. A webhook whose attempts have failed without a
 * success for `health.disableAfterMs` is switched off, with why (webhook_states).
 */
export function* finish(claimer: string, delivery: ClaimedDelivery, outcome: DeliveryOutcome, health: HealthRule): Work<void> {
  const key = queueOf(delivery);
  const queue = yield* first<{ claimed_by: unknown }>(SQL.lockQueue, key);
  // No queue: the webhook was deleted while the attempt ran (webhooks/deliveries/get can no longer
  // read its log, so a row would only wait for retention), or another instance took the lease and
  // finished the queue.
  if (!queue) return;
  yield* run(SQL.logAttempt, {
    tenantId: delivery.tenantId,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    attempt: delivery.attempt,
    attemptedAt: outcome.attemptedAt,
    status: outcome.status,
    responseCode: outcome.responseCode,
    error: outcome.error,
    durationMs: outcome.durationMs,
  });
  yield* recordHealth(delivery, outcome, health);
  if (queue.claimed_by !== claimer) return;
  const row = { ...key, eventId: delivery.eventId, attempts: delivery.attempt };
  const finishedAt = outcome.attemptedAt + outcome.durationMs;
  if (outcome.status === 'retrying') {
    yield* run(SQL.countAttempt, row);
    yield* run(SQL.release, { ...key, at: outcome.retryAt ?? finishedAt });
    return;
  }
  yield* run(SQL.close, { ...row, status: outcome.status, at: finishedAt });
  if (yield* first(SQL.anyPending, key)) yield* run(SQL.release, { ...key, at: finishedAt });
  else yield* run(SQL.deleteQueue, key);
}

/** A delivery ends the webhook's run of failures; a failed attempt starts or continues it, and past the rule switches it off. */
function* recordHealth(delivery: ClaimedDelivery, outcome: DeliveryOutcome, health: HealthRule): Work<void> {
  const { tenantId, webhookId } = delivery;
  if (outcome.status === 'delivered') {
    yield* run(SQL.healthy, { tenantId, webhookId });
    return;
  }
  yield* run(SQL.ensureState, { tenantId, webhookId });
  const state = yield* first<{ failing_since: unknown; disabled_at: unknown }>(SQL.failing, {
    tenantId,
    webhookId,
    at: outcome.attemptedAt,
  });
  const since = Number(state?.failing_since ?? outcome.attemptedAt);
  if (state?.disabled_at != null || outcome.attemptedAt - since < health.disableAfterMs) return;
  const hours = Math.round(health.disableAfterMs / 3_600_000);
  yield* run(SQL.switchOff, {
    tenantId,
    webhookId,
    at: outcome.attemptedAt,
    reason:
      `Every delivery attempt failed for ${hours} hours (since ${new Date(since).toISOString()}; the last: ` +
      `${(outcome.error ?? 'failed').slice(0, 200)}). Switch it on again with endpoints/update {"disabled": false}.`,
  });
}

/** Hands back queues this claimer holds, due at `at` (a stopping instance's unfinished deliveries). */
export function* release(claimer: string, keys: readonly WebhookQueueKey[], at: number): Work<void> {
  for (const { tenantId, webhookId, organizationId } of keys)
    yield* run(SQL.releaseOwn, { tenantId, webhookId, organizationId, claimer, at });
}

/** Deletes up to `limit` finished deliveries and `limit` attempts from before `before`; answers how many went. */
export function* prune(before: number, limit: number): Work<number> {
  const deliveries = yield* run(SQL.pruneDeliveries, { before, limit });
  const attempts = yield* run(SQL.pruneAttempts, { before, limit });
  return Math.max(deliveries, attempts);
}
