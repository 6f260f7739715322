// Store code of retention (docs/api.md, "Retention"): the policies, what they would delete (a dry run's
// counts) and one batch of each kind's deletion. A batch deletes as the operations that delete the same
// rows do, so their triggers keep the counters (inbox_counts, wide_counts, the documents' thread versions)
// and it emits their events: notifications as notifications/delete (notification.delete to their
// addressees), threads as commentannotations/delete (comment_annotation.delete). Every batch finds what is
// due again, so two instances running retention at once delete each row once (docs/decisions.md,
// "Retention (issue 40)").
import type { Audience } from '../events/outbox.js';
import { emit } from '../events/emit.js';
import { EVENTS_SQL } from '../events/sql.js';
import { ACTIVITIES_SQL } from '../activities/sql.js';
import { THREADS_SQL } from '../comments/threads-sql.js';
import { threadsDeleted } from '../comments/events.js';
import { audienceOf, notificationsDeleted } from '../notifications/events.js';
import { sourceFrom } from '../notifications/notifications.js';
import { NOTIFICATIONS_SQL } from '../notifications/sql.js';
import { all, first, inKeyOrder, list, type Row, run, type Work } from '../sql.js';
import { NO_ORGANIZATION } from '../../schemas/common.js';
import type { NotificationsScope, RetentionPolicy, StoredPolicy } from '../../domain/retention.js';
import { RETENTION_SQL as SQL } from './sql.js';

const daysOf = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const policyOf = (r: Row): StoredPolicy => ({
  organizationId: r.organization_id as string,
  notificationsDays: daysOf(r.notifications_days),
  notificationsScope: r.notifications_scope === 'all' ? 'all' : 'read',
  resolvedThreadsDays: daysOf(r.resolved_threads_days),
  eventsDays: daysOf(r.events_days),
  activitiesDays: daysOf(r.activities_days),
});

/** Every policy of the tenant, its own first (organizationId ''), then its organizations' in key order. */
export function* policies(tenantId: string): Work<StoredPolicy[]> {
  return (yield* all(SQL.policies, { tenantId })).map(policyOf);
}

export function* setPolicy(tenantId: string, organizationId: string, p: RetentionPolicy, now: number): Work<void> {
  yield* run(SQL.writePolicy, { tenantId, organizationId, ...p, now });
}

/** Removes an organization's policy: the tenant's applies there again. */
export function* removePolicy(tenantId: string, organizationId: string): Work<void> {
  yield* run(SQL.deletePolicy, { tenantId, organizationId });
}

export function* tenants(): Work<string[]> {
  return (yield* all(SQL.tenants)).map((r) => r.tenant_id as string);
}

/**
 * The tenant's organizations, and its documents without one (NO_ORGANIZATION, which no organization's policy
 * can name: the tenant's applies there), whether or not that has a row.
 */
export function* organizations(tenantId: string): Work<string[]> {
  const named = (yield* all(SQL.organizations, { tenantId })).map((r) => r.organization_id as string);
  return named.includes(NO_ORGANIZATION) ? named : [NO_ORGANIZATION, ...named];
}

const counted = (row: Row | undefined): number => Number(row?.n ?? 0);

// --- What a run would delete (the dry run) ---

export function* countNotifications(
  tenantId: string,
  organizationId: string,
  before: number,
  scope: NotificationsScope,
): Work<number> {
  return counted(yield* first(SQL.countNotifications[scope], { tenantId, organizationId, before }));
}

export function* countThreads(tenantId: string, organizationId: string, before: number): Work<number> {
  return counted(yield* first(SQL.countThreads, { tenantId, organizationId, before }));
}

export function* countEvents(tenantId: string, before: number): Work<number> {
  return counted(yield* first(SQL.countEvents, { tenantId, before }));
}

export function* countActivities(tenantId: string, before: number): Work<number> {
  return counted(yield* first(SQL.countActivities, { tenantId, before }));
}

// --- One batch of each kind: its own transaction (store/retention/index.ts) ---

/** What a batch did: how many it found due (fewer than its limit: the last batch) and how many it deleted. */
export interface Batch {
  found: number;
  deleted: number;
}

/**
 * The oldest `limit` notifications due, for everyone: their addressees read with the rows locked (the delete
 * leaves none to read them from), then the notifications still due, their inbox rows and read marks, in
 * that order (notifications/delete's), and a notification.delete event for each.
 */
export function* deleteNotifications(
  tenantId: string,
  organizationId: string,
  before: number,
  scope: NotificationsScope,
  limit: number,
): Work<Batch> {
  const org = { tenantId, organizationId };
  const due = (yield* all(SQL.notifications[scope], { ...org, before, limit })).map((r) => r.notification_id as string);
  if (due.length === 0) return { found: 0, deleted: 0 };
  const ids = list(inKeyOrder(due, (id) => id));
  const audiences = new Map<string, Audience>();
  for (const r of yield* all(NOTIFICATIONS_SQL.lockForChange, { ...org, ids })) {
    const n = sourceFrom(r, tenantId, organizationId);
    audiences.set(n.notificationId, audienceOf(n));
  }
  const deleted = (yield* all(SQL.deleteNotifications[scope], { ...org, before, ids })).map((r) => r.notification_id as string);
  if (deleted.length > 0) {
    const gone = list(deleted);
    yield* run(NOTIFICATIONS_SQL.deleteInbox, { ...org, ids: gone });
    yield* run(NOTIFICATIONS_SQL.deleteReads, { ...org, ids: gone });
    yield* emit(
      notificationsDeleted(
        organizationId,
        inKeyOrder(deleted, (id) => id),
        audiences,
      ),
    );
  }
  return { found: due.length, deleted: deleted.length };
}

/**
 * The oldest `limit` resolved threads due, document by document in key order: those still due, locked, go
 * with their comments and read marks (commentannotations/delete's order), and a comment_annotation.delete
 * event for each. The triggers on annotations move each document's thread version (migration 11), so the
 * pages held in memory (services/thread-pages.ts) are read again.
 */
export function* deleteThreads(tenantId: string, organizationId: string, before: number, limit: number): Work<Batch> {
  const org = { tenantId, organizationId };
  const due = yield* all(SQL.threads, { ...org, before, limit });
  const byDocument = new Map<string, string[]>();
  for (const r of due) {
    const documentId = r.document_id as string;
    byDocument.set(documentId, [...(byDocument.get(documentId) ?? []), r.annotation_id as string]);
  }
  let deleted = 0;
  for (const documentId of inKeyOrder([...byDocument.keys()], (d) => d)) {
    const candidates = inKeyOrder(byDocument.get(documentId)!, (a) => a);
    const still = (yield* all(SQL.lockThreads, { ...org, before, documentId, annotationIds: list(candidates) })).map(
      (r) => r.annotation_id as string,
    );
    if (still.length === 0) continue;
    const these = { ...org, documentId, annotationIds: list(still) };
    yield* run(THREADS_SQL.cascadeComments, these);
    yield* run(THREADS_SQL.cascadeReads, these);
    deleted += yield* run(THREADS_SQL.deleteThreads, these);
    yield* emit(threadsDeleted(organizationId, documentId, still));
  }
  return { found: due.length, deleted };
}

/** The tenant's oldest `limit` events recorded before `before` (the outbox pruner's statement, for one tenant). */
export function* deleteEvents(tenantId: string, before: number, limit: number): Work<Batch> {
  const deleted = yield* run(EVENTS_SQL.pruneTenant, { tenantId, before, limit });
  return { found: deleted, deleted };
}

/** At most `limit` of the tenant's activities made before `before` (the activity pruner's statement). */
export function* deleteActivities(tenantId: string, before: number, limit: number): Work<Batch> {
  const deleted = yield* run(ACTIVITIES_SQL.pruneTenant, { tenantId, before, limit });
  return { found: deleted, deleted };
}
