// Store code of webhooks/add, get, delete and deliveries/get (docs/events.md, "Webhooks"). A new webhook's cursor
// starts at its tenant's last event: it is sent what happens after it was made, not the outbox's history.
import { lastId } from '../events/outbox.js';
import { all, arrays, batch, first, jsonOrNull, run, type Work } from '../sql.js';
import { DELIVERIES_SQL, WEBHOOKS_SQL as SQL } from './sql.js';
import type {
  EndpointChange,
  ServiceEndpoint,
  NewWebhook,
  WebhookAttemptRecord,
  WebhookAttemptStatus,
  WebhookRecord,
  WebhookSettingsRecord,
} from './types.js';

/**
 * Adds the webhook unless the tenant has `most` already (a bound checked inside the transaction), or
 * another endpoint has its uid (webhooks_by_uid makes the check hold under concurrent adds).
 */
export function* add(tenantId: string, webhook: NewWebhook, most: number): Work<'added' | 'too_many' | 'uid_taken'> {
  // The tenant's settings row, locked (PostgreSQL), orders its adds: the count and the uid are read exactly.
  yield* run(SQL.ensureSettings, { tenantId, now: webhook.createdAt });
  yield* first(SQL.lockSettings, { tenantId });
  const count = Number((yield* first<{ n: unknown }>(SQL.countOfTenant, { tenantId }))?.n ?? 0);
  if (count >= most) return 'too_many';
  const uid = webhook.advanced?.uid;
  if (uid != null && (yield* first(SQL.byUid, { tenantId, uid }))) return 'uid_taken';
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
    filterTypes: jsonOrNull(webhook.advanced?.filterTypes),
    channels: jsonOrNull(webhook.advanced?.channels),
    disabled: webhook.advanced?.disabled ?? false,
    rateLimit: webhook.advanced?.rateLimit ?? null,
    metadata: jsonOrNull(webhook.advanced?.metadata),
    uid: webhook.advanced?.uid ?? null,
    advanced: webhook.advanced !== undefined,
  });
  return 'added';
}

const parsed = <T>(v: unknown): T | null => (v == null ? null : (JSON.parse(v as string) as T));

/** A row of SHOWN (sql.ts). */
function record(r: unknown[]): WebhookRecord {
  return {
    webhookId: r[0] as string,
    url: r[1] as string,
    description: (r[2] as string | null) ?? null,
    eventTypes: parsed<string[]>(r[3]),
    createdAt: Number(r[4]),
    filterTypes: parsed<string[]>(r[5]),
    channels: parsed<string[]>(r[6]),
    disabled: Boolean(r[7]),
    rateLimit: r[8] == null ? null : Number(r[8]),
    metadata: parsed<Record<string, string>>(r[9]),
    uid: (r[10] as string | null) ?? null,
    updatedAt: Number(r[11] ?? r[4]),
    autoDisabled: r[12] == null ? null : { at: Number(r[12]), reason: String(r[13] ?? '') },
  };
}

export function* list(tenantId: string): Work<WebhookRecord[]> {
  return (yield* arrays(SQL.ofTenant, { tenantId })).map(record);
}

export function* one(tenantId: string, webhookId: string): Work<WebhookRecord | null> {
  const rows = yield* arrays(SQL.one, { tenantId, webhookId });
  return rows.length === 0 ? null : record(rows[0]!);
}

export function* secret(tenantId: string, webhookId: string): Work<string | null> {
  const row = yield* first<{ secret: unknown }>(SQL.secret, { tenantId, webhookId });
  return row ? (row.secret as string) : null;
}

/**
 * endpoints/update: the members sent; answers the endpoint as it is now, or null when it does not exist.
 * Switching it on (disabled: false) also ends the worker's own switch and wakes its parked queues.
 * Locks in the order every writer of webhooks takes them: the webhook, its queues, its state.
 */
export function* update(tenantId: string, webhookId: string, change: EndpointChange, now: number): Work<WebhookRecord | null> {
  const changed = yield* run(SQL.update, {
    tenantId,
    webhookId,
    now,
    url: change.url ?? null,
    setDescription: change.description === undefined ? 0 : 1,
    description: change.description ?? null,
    filterTypes: jsonOrNull(change.filter?.filterTypes),
    eventTypes: jsonOrNull(change.filter?.eventTypes),
    channels: jsonOrNull(change.channels),
    disabled: change.disabled ?? null,
    rateLimit: change.rateLimit ?? null,
    metadata: jsonOrNull(change.metadata),
  });
  if (changed === 0) return null;
  if (change.disabled === false) {
    yield* run(SQL.wakeQueues, { tenantId, webhookId, now });
    yield* run(SQL.clearHealth, { tenantId, webhookId });
  }
  return yield* one(tenantId, webhookId);
}

/** A new secret; the one in use signs beside it until `until`. False when the webhook does not exist. */
export function* rotate(tenantId: string, webhookId: string, newSecret: string, until: number, now: number): Work<boolean> {
  return (yield* run(SQL.rotate, { tenantId, webhookId, secret: newSecret, until, now })) > 0;
}

/**
 * Makes one delivery pending again: a finished one, or (its row gone to retention) one made anew from its
 * event while the outbox keeps it. 'pending' when it is pending already; null when there is nothing to replay.
 */
export function* replay(tenantId: string, webhookId: string, eventId: number, now: number): Work<'replayed' | 'pending' | null> {
  const found = yield* first<{ status: unknown; organization_id: unknown }>(SQL.delivery, { tenantId, webhookId, eventId });
  let organizationId: string;
  if (found) {
    if (found.status === 'pending') return 'pending';
    yield* run(SQL.replay, { tenantId, webhookId, eventId });
    organizationId = found.organization_id as string;
  } else {
    const made = yield* first<{ organization_id: unknown }>(SQL.replayEvent, { tenantId, webhookId, eventId, now });
    if (!made) return null;
    organizationId = made.organization_id as string;
  }
  yield* queued(tenantId, webhookId, [organizationId], now);
  return 'replayed';
}

/** Where webhooks/recover's next batch starts: after this organization's event (the first starts before every one). */
export interface RecoverCursor {
  organizationId: string;
  eventId: number;
}

export const RECOVER_START: RecoverCursor = { organizationId: '', eventId: 0 };

/**
 * One batch of webhooks/recover: the failed deliveries made since `since` after the cursor, at most `limit`, pending
 * again, each organization's in event order; answers how many and where the next batch starts (null: none left).
 * A full batch ends before its last organization unless that is its only one, so an organization's deliveries are
 * made pending together unless it alone has more than `limit` (docs/events.md, "Recovering after an outage").
 */
export function* recoverSome(
  tenantId: string,
  webhookId: string,
  since: number,
  now: number,
  after: RecoverCursor,
  limit: number,
): Work<{ recovered: number; next: RecoverCursor | null }> {
  const cursor = { tenantId, webhookId, since, afterOrganization: after.organizationId, afterEvent: after.eventId };
  const rows = yield* all<{ organization_id: unknown; event_id: unknown }>(SQL.recoverNext, { ...cursor, limit });
  if (rows.length === 0) return { recovered: 0, next: null };
  const full = rows.length >= limit;
  const lastOrganization = rows.at(-1)!.organization_id;
  const cut = full ? rows.findIndex((r) => r.organization_id === lastOrganization) : 0;
  const last = rows[(cut > 0 ? cut : rows.length) - 1]!;
  const next = { organizationId: last.organization_id as string, eventId: Number(last.event_id) };
  const made = yield* all<{ organization_id: unknown }>(SQL.recoverRange, {
    ...cursor,
    lastOrganization: next.organizationId,
    lastEvent: next.eventId,
  });
  const organizations = [...new Set(made.map((r) => r.organization_id as string))].sort();
  yield* queued(tenantId, webhookId, organizations, now);
  return { recovered: made.length, next: full ? next : null };
}

/**
 * The organizations' queues, made or (on PostgreSQL) locked as dispatch does (sql.ts upsertQueues): a finishing
 * delivery that found no successor deletes its queue either before this (and this makes it again) or after
 * this commits (and sees the deliveries made pending), so no replayed or recovered delivery is left unqueued.
 */
function* queued(tenantId: string, webhookId: string, organizations: readonly string[], now: number): Work<void> {
  yield* batch(
    DELIVERIES_SQL.upsertQueues,
    { tenantId, webhookId, now },
    organizations.map((organizationId) => ({ organizationId })),
  );
}

export function* settings(tenantId: string): Work<WebhookSettingsRecord> {
  const row = yield* first<{ advanced: unknown; basic: unknown }>(SQL.settings, { tenantId });
  return { advanced: parsed(row?.advanced), basic: parsed(row?.basic) };
}

/**
 * Stores one of the two settings objects. The advanced one switched on again wakes the queues it parked
 * (isEnabled false turns every endpoint of the tenant off: deliveries.ts).
 */
export function* putSettings(
  tenantId: string,
  which: 'advanced' | 'basic',
  value: Record<string, unknown>,
  now: number,
): Work<void> {
  yield* run(which === 'advanced' ? SQL.putAdvanced : SQL.putBasic, { tenantId, value: JSON.stringify(value), now });
  if (which === 'advanced' && value.isEnabled === true) yield* run(SQL.wakeTenantQueues, { tenantId, now });
}

/**
 * One of the two settings objects changed by `change` (given the stored one, null when never set; it may
 * refuse by throwing) under the settings row's lock, so that two changes at once each see the other's
 * members; answers the object stored.
 */
export function* changeSettings(
  tenantId: string,
  which: 'advanced' | 'basic',
  change: (stored: Record<string, unknown> | null) => Record<string, unknown>,
  now: number,
): Work<Record<string, unknown>> {
  yield* run(SQL.ensureSettings, { tenantId, now });
  const row = yield* first<{ advanced: unknown; basic: unknown }>(SQL.lockSettings, { tenantId });
  const next = change(parsed(row?.[which]));
  yield* putSettings(tenantId, which, next, now);
  return next;
}

/**
 * The basic service's settings changed (as changeSettings) and its endpoint made, changed or switched off to
 * match, in one transaction: the settings row's lock orders two changes at once, and the endpoint is found
 * by its uid (unique: webhooks_by_uid), so there is never a second one. Answers the settings stored; when
 * the endpoint is wanted but the tenant has `most` webhooks, `full` is thrown and nothing is written.
 */
export function* changeBasicService(
  tenantId: string,
  change: (stored: Record<string, unknown> | null) => Record<string, unknown>,
  endpointOf: (settings: Record<string, unknown>) => ServiceEndpoint,
  most: number,
  full: () => Error,
  now: number,
): Work<Record<string, unknown>> {
  const settings = yield* changeSettings(tenantId, 'basic', change, now);
  const endpoint = endpointOf(settings);
  const found = yield* first<{ id: unknown }>(SQL.byUid, { tenantId, uid: endpoint.uid });
  if (found) {
    yield* update(tenantId, found.id as string, { ...endpoint.change, disabled: !endpoint.wanted }, now);
  } else if (endpoint.wanted && (yield* add(tenantId, endpoint.made(), most)) === 'too_many') {
    throw full();
  }
  return settings;
}

/** Deletes the webhook, its queues and its pending deliveries; false when it does not exist. */
export function* remove(tenantId: string, webhookId: string): Work<boolean> {
  if ((yield* run(SQL.delete, { tenantId, webhookId })) === 0) return false;
  yield* run(SQL.deleteQueues, { tenantId, webhookId });
  yield* run(SQL.deletePending, { tenantId, webhookId });
  yield* run(SQL.deleteState, { tenantId, webhookId });
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
