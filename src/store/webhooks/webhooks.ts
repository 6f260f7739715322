// Store code of webhooks/add, get, delete and deliveries/get (docs/events.md, "Webhooks"). A new webhook's cursor
// starts at its tenant's last event: it is sent what happens after it was made, not the outbox's history.
import { lastId } from '../events/outbox.js';
import { arrays, first, run, type Work } from '../sql.js';
import { WEBHOOKS_SQL as SQL } from './sql.js';
import type { NewWebhook, WebhookAttemptRecord, WebhookAttemptStatus, WebhookRecord } from './types.js';

/** Adds the webhook unless the tenant has `most` already (a bound checked inside the transaction). */
export function* add(tenantId: string, webhook: NewWebhook, most: number): Work<'added' | 'too_many'> {
  const count = Number((yield* first<{ n: unknown }>(SQL.countOfTenant, { tenantId }))?.n ?? 0);
  if (count >= most) return 'too_many';
  const cursor = yield* lastId(tenantId);
  yield* run(SQL.insert, {
    tenantId,
    webhookId: webhook.webhookId,
    url: webhook.url,
    description: webhook.description,
    eventTypes: webhook.eventTypes === null ? null : JSON.stringify(webhook.eventTypes),
    secret: webhook.secret,
    createdAt: webhook.createdAt,
    cursor,
  });
  return 'added';
}

export function* list(tenantId: string): Work<WebhookRecord[]> {
  const rows = yield* arrays(SQL.ofTenant, { tenantId });
  return rows.map((r) => ({
    webhookId: r[0] as string,
    url: r[1] as string,
    description: (r[2] as string | null) ?? null,
    eventTypes: r[3] == null ? null : (JSON.parse(r[3] as string) as string[]),
    createdAt: Number(r[4]),
  }));
}

/** Deletes the webhook, its queues and its pending deliveries; false when it does not exist. */
export function* remove(tenantId: string, webhookId: string): Work<boolean> {
  if ((yield* run(SQL.delete, { tenantId, webhookId })) === 0) return false;
  yield* run(SQL.deleteQueues, { tenantId, webhookId });
  yield* run(SQL.deletePending, { tenantId, webhookId });
  return true;
}

/** The webhook's attempts newest first, before the attempt id `before` (null: from the newest); null when it does not exist. */
export function* attempts(
  tenantId: string,
  webhookId: string,
  before: number | null,
  limit: number,
): Work<WebhookAttemptRecord[] | null> {
  if (!(yield* first(SQL.exists, { tenantId, webhookId }))) return null;
  const rows = yield* arrays(SQL.attempts, { tenantId, webhookId, before, limit });
  return rows.map((r) => ({
    id: Number(r[0]),
    eventId: Number(r[1]),
    eventType: r[2] as string,
    attempt: Number(r[3]),
    attemptedAt: Number(r[4]),
    status: r[5] as WebhookAttemptStatus,
    responseCode: r[6] == null ? null : Number(r[6]),
    error: (r[7] as string | null) ?? null,
    durationMs: Number(r[8]),
  }));
}
