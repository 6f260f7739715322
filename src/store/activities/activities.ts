// Store code of activity logs (docs/api.md, "Activities"): a write's events as activities (in the write's
// own transaction, core.ts), activities/add, get, update and delete, the settings, retention.
import {
  activityOfEvent,
  type ActivityRow,
  type ActivitySettings,
  loggedAsActivity,
  mutedActionTypes,
} from '../../domain/activities.js';
import { timeOrderedUuid } from '../../domain/ids.js';
import type { EventDraft } from '../events/outbox.js';
import { all, arrays, batch, first, inKeyOrder, list, run, sendBatch, type Work } from '../sql.js';
import { type ActivityFilterSet, ACTIVITIES_SQL as SQL, activityRead } from './sql.js';

/** An activity as a write gives it: the row without its time and immutability, which the insert sets. */
export type NewActivity = Omit<ActivityRow, 'createdAt' | 'immutable'>;

const columns = (a: NewActivity) => ({
  organizationId: a.organizationId,
  activityId: a.activityId,
  documentId: a.documentId,
  featureType: a.featureType,
  actionType: a.actionType,
  actorId: a.actorId,
  targetEntityId: a.targetEntityId,
  body: a.body,
});

/**
 * A write's events as activities, one insert each (PostgreSQL: one statement for all), sent without
 * waiting for an answer; the insert itself leaves out what the tenant's settings do not keep.
 */
export function* fromEvents(tenantId: string, drafts: readonly EventDraft[], now: number, byDefault: boolean): Work<void> {
  const logged = drafts.filter((d) => d.noActivity !== true && loggedAsActivity(d.type));
  if (logged.length === 0) return;
  const rows = logged.map((d) => columns({ ...activityOfEvent(d), activityId: timeOrderedUuid(now) }));
  yield* sendBatch(SQL.fromEvents, { tenantId, createdAt: now, byDefault }, rows);
}

/** Whether the tenant keeps activities now. */
export function* enabled(tenantId: string, byDefault: boolean): Work<boolean> {
  const row = yield* first<{ enabled: unknown }>(SQL.enabled, { tenantId, byDefault });
  return Boolean(row?.enabled);
}

/** activities/add, operators' activities: written (a stored immutable one of the same id is left as it is). */
export function* upsert(tenantId: string, activities: readonly NewActivity[], now: number): Work<number> {
  const rows = inKeyOrder(activities, (a) => `${a.organizationId}\u0000${a.activityId}`).map(columns);
  return yield* batch(SQL.upsert, { tenantId, createdAt: now }, rows);
}

/** An operator's or an erasure's activity, written when the tenant keeps activities; answers whether it was. */
export function* record(tenantId: string, activity: NewActivity, now: number, byDefault: boolean): Work<boolean> {
  if (!(yield* enabled(tenantId, byDefault))) return false;
  return (yield* upsert(tenantId, [activity], now)) > 0;
}

export interface ActivityQuery {
  organizationId: string;
  documentId: string | null;
  targetEntityId: string | null;
  featureTypes: readonly string[] | null;
  actionTypes: readonly string[] | null;
  userId: string | null;
  activityIds: readonly string[] | null;
  ascending: boolean;
  /** The last activity of the page before: its time and id. */
  after: readonly [number, string] | null;
  limit: number;
}

const rowOf = (r: unknown[]): ActivityRow => ({
  organizationId: r[0] as string,
  activityId: r[1] as string,
  documentId: (r[2] as string | null) ?? null,
  featureType: r[3] as string,
  actionType: r[4] as string,
  actorId: (r[5] as string | null) ?? null,
  targetEntityId: (r[6] as string | null) ?? null,
  createdAt: Number(r[7]),
  immutable: Boolean(r[8]),
  body: r[9] as string,
});

/** activities/get: a page, in time order (then id), after the cursor. */
export function* read(tenantId: string, q: ActivityQuery): Work<ActivityRow[]> {
  const f: ActivityFilterSet = {
    document: q.documentId !== null,
    target: q.targetEntityId !== null,
    featureTypes: q.featureTypes !== null,
    actionTypes: q.actionTypes !== null,
    user: q.userId !== null,
    ids: q.activityIds !== null,
    ascending: q.ascending,
    after: q.after !== null,
  };
  const rows = yield* arrays(activityRead(f), {
    tenantId,
    organizationId: q.organizationId,
    documentId: q.documentId,
    targetEntityId: q.targetEntityId,
    featureTypes: list(q.featureTypes),
    actionTypes: list(q.actionTypes),
    userId: q.userId,
    activityIds: list(q.activityIds),
    afterTime: q.after?.[0] ?? null,
    afterId: q.after?.[1] ?? null,
    limit: q.limit,
  });
  return rows.map(rowOf);
}

/** users/data/get: up to `limit` of the activities the user did, newest first, after the cursor. */
export function* ofActor(
  tenantId: string,
  organizationId: string,
  userId: string,
  after: { timestamp: number; activityId: string },
  limit: number,
): Work<ActivityRow[]> {
  const params = { tenantId, organizationId, userId, afterTime: after.timestamp, afterId: after.activityId, limit };
  return (yield* arrays(SQL.ofActor, params)).map(rowOf);
}

/** What an update or delete did to each activity named: done, or not (absent, or immutable). */
export type Outcomes = Map<string, boolean>;

/** activities/update: each activity's new body from its stored one (`change`); immutable and absent ones fail. */
export function* update(
  tenantId: string,
  organizationId: string,
  changes: ReadonlyMap<string, (stored: string) => string>,
): Work<Outcomes> {
  const ids = [...changes.keys()];
  const stored = yield* all<{ activity_id: string; immutable: unknown; body: string }>(SQL.byIds, {
    tenantId,
    organizationId,
    activityIds: list(ids),
  });
  const outcomes: Outcomes = new Map(ids.map((id) => [id, false]));
  const rows = stored
    .filter((r) => !r.immutable)
    .map((r) => ({ activityId: r.activity_id, body: changes.get(r.activity_id)!(r.body) }));
  yield* batch(SQL.updateBody, { tenantId, organizationId }, rows);
  for (const r of rows) outcomes.set(r.activityId, true);
  return outcomes;
}

/** activities/delete by ids: those that went (the immutable ones stay). */
export function* deleteByIds(tenantId: string, organizationId: string, ids: readonly string[]): Work<string[]> {
  const rows = yield* all<{ activity_id: string }>(SQL.deleteByIds, { tenantId, organizationId, activityIds: list(ids) });
  return rows.map((r) => r.activity_id);
}

/** activities/delete by document and/or entity: at most `limit` of them (a batch); answers the ids that went. */
export function* deleteSome(
  tenantId: string,
  organizationId: string,
  documentId: string | null,
  targetEntityId: string | null,
  limit: number,
): Work<string[]> {
  const statement =
    documentId !== null && targetEntityId !== null
      ? SQL.deleteOfDocumentAndTarget
      : documentId !== null
        ? SQL.deleteOfDocument
        : SQL.deleteOfTarget;
  const rows = yield* all<{ activity_id: string }>(statement, { tenantId, organizationId, documentId, targetEntityId, limit });
  return rows.map((r) => r.activity_id);
}

// --- Settings ---

export function* settings(tenantId: string): Work<ActivitySettings | null> {
  const r = yield* first(SQL.settings, { tenantId });
  if (!r) return null;
  const bool = (v: unknown) => (v == null ? null : Boolean(v));
  return {
    isEnabled: bool(r.is_enabled),
    immutable: bool(r.immutable),
    enabledTime: r.enabled_time == null ? null : Number(r.enabled_time),
    retentionDays: r.retention_days == null ? null : Number(r.retention_days),
    triggers: r.triggers == null ? null : (JSON.parse(r.triggers as string) as ActivitySettings['triggers']),
  };
}

/**
 * workspace/activityconfig/update: the stored settings (null: none yet) merged with the change by `merge`,
 * one update at a time per tenant; the action types the triggers turn off kept beside them. Answers them.
 */
export function* updateSettings(
  tenantId: string,
  merge: (stored: ActivitySettings | null) => ActivitySettings,
  now: number,
): Work<ActivitySettings> {
  yield* first(SQL.lockSettings, { tenantId });
  const merged = merge(yield* settings(tenantId));
  yield* run(SQL.putSettings, {
    tenantId,
    isEnabled: merged.isEnabled,
    immutable: merged.immutable,
    enabledTime: merged.enabledTime,
    retentionDays: merged.retentionDays,
    triggers: merged.triggers === null ? null : JSON.stringify(merged.triggers),
    now,
  });
  yield* run(SQL.clearMuted, { tenantId });
  const muted = mutedActionTypes(merged.triggers);
  if (muted.length > 0) yield* run(SQL.mute, { tenantId, types: list(muted) });
  return merged;
}

// --- Retention ---

/** Every tenant with the days its activities are kept. */
export function* retentions(defaultDays: number): Work<{ tenantId: string; days: number }[]> {
  const rows = yield* all<{ tenant_id: string; days: unknown }>(SQL.retentions, { defaultDays });
  return rows.map((r) => ({ tenantId: r.tenant_id, days: Number(r.days) }));
}

/** Deletes at most `limit` of the tenant's activities made before `before`; answers how many went. */
export function* prune(tenantId: string, before: number, limit: number): Work<number> {
  return yield* run(SQL.pruneTenant, { tenantId, before, limit });
}
