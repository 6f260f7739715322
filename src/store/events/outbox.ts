// Store code of the event outbox (docs/events.md, "Events"): a write's events are recorded in its own transaction,
// so nothing is announced that was not committed and nothing committed goes unannounced
// (docs/events.md). Ids increase per tenant and commit in order: SQLite takes them in the write
// (migration 17), PostgreSQL numbers a write's drafts right after its commit (migration 18).
import { organizationMember } from '../../domain/answers/annotations.js';
import { all, arrays, batch, first, list, run, send, type Work } from '../sql.js';
import { EVENTS_SQL as SQL } from './sql.js';

/** An event as a write describes it; the outbox gives it its id and time. */
export interface EventDraft {
  type: string;
  organizationId: string;
  documentId: string | null;
  /** The event's `data` as JSON text. */
  data: string;
  /** A notification's addressees (notification.* events): what an end-user token's stream may carry. */
  audience?: Audience;
  /** Not logged as an activity: the write asked so (/v2's `triggerActivities: false`; store/activities/). */
  noActivity?: boolean;
}

/** Who a notification is addressed to: the users it lists, and everyone of the organization when `wide`. */
export interface Audience {
  users: readonly string[];
  wide: boolean;
}

/** An event as the outbox holds it: `body` is the JSON text sent to streams and webhooks. */
export interface StoredEvent {
  id: number;
  type: string;
  organizationId: string;
  documentId: string | null;
  audience: Audience | null;
  body: string;
}

const json = JSON.stringify;

/**
 * The event as sent after its id: `,"type":..., "data":...}` (docs/events.md, "Events"); eventBody puts the id
 * before it.
 */
const bodyRest = (at: number, e: EventDraft): string =>
  `,"type":${json(e.type)},"timestamp":${at}${organizationMember(e.organizationId)}` +
  `${e.documentId !== null ? `,"documentId":${json(e.documentId)}` : ''},"data":${e.data}}`;

/** The event as sent: `{id, type, timestamp, organizationId?, documentId?, data}` (docs/events.md). */
export const eventBody = (id: number, at: number, e: EventDraft): string => `{"id":${id}${bodyRest(at, e)}`;

const audienceText = (e: EventDraft): string | null => (e.audience ? JSON.stringify(e.audience) : null);

/**
 * SQLite: records the events with their ids, inside the writing transaction (writes run one at a time,
 * so ids commit in order); answers the last id given (0 when there were none).
 */
export function* record(tenantId: string, drafts: readonly EventDraft[], now: number): Work<number> {
  if (drafts.length === 0) return 0;
  const taken = (yield* first<{ last_id: unknown }>(SQL.takeIds, { tenantId, count: drafts.length }))!;
  const last = Number(taken.last_id);
  const firstId = last - drafts.length + 1;
  const rows = drafts.map((e, i) => ({
    id: firstId + i,
    type: e.type,
    organizationId: e.organizationId,
    documentId: e.documentId,
    audience: audienceText(e),
    body: eventBody(firstId + i, now, e),
  }));
  yield* batch(SQL.insert, { tenantId, createdAt: now }, rows);
  return last;
}

/**
 * PostgreSQL: records the events as drafts, without ids and without taking the tenant's counter, so a
 * tenant's writes run side by side; sequence() numbers them after the commit (migrations 18, 21).
 * Answers how many it recorded.
 */
export function* draft(tenantId: string, drafts: readonly EventDraft[], now: number): Work<number> {
  if (drafts.length === 0) return 0;
  // Sent: it goes out with the COMMIT rather than taking a round trip of its own (a write's last step).
  yield* send(SQL.insertDrafts, {
    tenantId,
    createdAt: now,
    type: list(drafts.map((e) => e.type)),
    organizationId: list(drafts.map((e) => e.organizationId)),
    documentId: list(drafts.map((e) => e.documentId)),
    audience: list(drafts.map(audienceText)),
    bodyRest: list(drafts.map((e) => bodyRest(now, e))),
  });
  return drafts.length;
}

/**
 * Numbers every committed draft of the tenant, in the order of their writes' transactions, and answers
 * the tenant's last event id (migration 21).
 */
export function* sequence(tenantId: string): Work<number> {
  const row = (yield* first<{ last_id: unknown }>(SQL.sequence, { tenantId }))!;
  return Number(row.last_id);
}

/** PostgreSQL: the tenants with drafts written before `before`, which their writers did not number. */
export function* draftedTenants(before: number): Work<string[]> {
  return (yield* all<{ tenant_id: string }>(SQL.draftedTenants, { before })).map((r) => r.tenant_id);
}

export function* after(tenantId: string, afterId: number, limit: number): Work<StoredEvent[]> {
  const rows = yield* arrays(SQL.after, { tenantId, after: afterId, limit });
  return rows.map((r) => ({
    id: Number(r[0]),
    type: r[1] as string,
    organizationId: r[2] as string,
    documentId: (r[3] as string | null) ?? null,
    audience: r[4] == null ? null : (JSON.parse(r[4] as string) as Audience),
    body: r[5] as string,
  }));
}

export function* lastId(tenantId: string): Work<number> {
  const row = (yield* all<{ last_id: unknown }>(SQL.lastId, { tenantId }))[0];
  return row ? Number(row.last_id) : 0;
}

/** Deletes up to `limit` events older than `before`, each tenant's oldest first; answers how many went. */
export function* prune(before: number, limit: number): Work<number> {
  let left = limit;
  for (const { tenant_id: tenantId } of yield* all<{ tenant_id: string }>(SQL.agedTenants, { before, limit })) {
    left -= yield* run(SQL.pruneTenant, { tenantId, before, limit: left });
    if (left === 0) break;
  }
  return limit - left;
}
