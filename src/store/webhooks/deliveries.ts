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
import { TypeFilter } from '../events/type-filter.js';
import { all, arrays, batch, first, list, run, type Work } from '../sql.js';
import { DELIVERIES_SQL as SQL } from './sql.js';
import type { ClaimedDelivery, DeliveryOutcome, DispatchLimits, WebhookQueueKey } from './types.js';

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
  for (const [tenantId, webhookId, cursor, types, lastId] of behind) {
    // null: every type.
    const wanted = types == null ? null : new TypeFilter(JSON.parse(types as string) as string[]);
    const events = yield* arrays(SQL.eventsAfter, { tenantId, after: Number(cursor), limit: limits.events });
    // None after the cursor though the counter is ahead: they were pruned (retention) before dispatch.
    const next = events.length > 0 ? Number(events[events.length - 1]![0]) : Number(lastId);
    if (events.length === limits.events) more = true;
    const chosen = wanted ? events.filter((e) => wanted.matches(e[1] as string)) : events;
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

/**
 * Claims up to `limit` due queues for `claimer` until `until` (the lease) and answers the oldest
 * pending delivery of each. A queue left with no delivery (its webhook deleted meanwhile) goes.
 */
export function* claim(claimer: string, now: number, until: number, limit: number): Work<ClaimedDelivery[]> {
  const due = yield* arrays(SQL.lockDue, { now, limit });
  const claimed: ClaimedDelivery[] = [];
  for (const [tenantId, webhookId, organizationId] of due) {
    const key = { tenantId: tenantId as string, webhookId: webhookId as string, organizationId: organizationId as string };
    const head = yield* first(SQL.head, key);
    if (!head) {
      yield* run(SQL.deleteQueue, key);
      continue;
    }
    yield* run(SQL.lease, { ...key, until, claimer });
    claimed.push({
      ...key,
      eventId: Number(head.event_id),
      eventType: head.event_type as string,
      body: head.body as string,
      url: head.url as string,
      secret: head.secret as string,
      attempt: Number(head.attempts) + 1,
    });
  }
  return claimed;
}

/**
 * Logs an attempt and, while the queue is still this claimer's, ends the delivery (delivered, or
 * failed for good) or schedules its retry; a queue whose lease was lost to another instance is left
 * to that one. A queue with nothing left pending goes.
 */
export function* finish(claimer: string, delivery: ClaimedDelivery, outcome: DeliveryOutcome): Work<void> {
  const key = { tenantId: delivery.tenantId, webhookId: delivery.webhookId, organizationId: delivery.organizationId };
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
