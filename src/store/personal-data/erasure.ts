// Store code of users/data/delete (SPEC 12): one user's data in one organization, erased in bounded
// batches. Each step below is one batch: db-store runs it as its own transaction, again and again
// until it says it is done, so erasing a user with 100,000 comments never holds a write transaction
// (SQLite) or row locks (PostgreSQL) for long. Order matters: comments and notifications first (their
// triggers move the user's counters), the profile and the counters last.
import { storedNotificationAnswer } from '../../answers/notifications.js';
import { renderThreads } from '../comments/threads.js';
import { THREADS_SQL } from '../comments/threads-sql.js';
import { recipientsFrom, recipientsJson } from '../notifications/notifications.js';
import { NOTIFICATIONS_SQL } from '../notifications/sql.js';
import { all, batch, list, type Row, run, type Work } from '../sql.js';
import { USERS_SQL } from '../users/sql.js';
import { PERSONAL_DATA_SQL as SQL } from './sql.js';

/** Whose data, where. */
export interface ErasureScope {
  tenantId: string;
  organizationId: string;
  userId: string;
}

/** A step's answer: done, or the position its next batch starts from (null for steps that need none). */
export type StepResult = { done: true } | { done: false; cursor: unknown };

export interface ErasureStep {
  name: string;
  run(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult>;
}

const next = (done: boolean, cursor: unknown = null): StepResult => (done ? { done: true } : { done: false, cursor });

/** Renders the threads again (grouped by document): their comments changed. */
function* rendered(scope: ErasureScope, threads: readonly [string, string][]): Work<void> {
  const byDocument = new Map<string, string[]>();
  for (const [documentId, annotationId] of threads) {
    const ids = byDocument.get(documentId) ?? [];
    if (!ids.includes(annotationId)) ids.push(annotationId);
    byDocument.set(documentId, ids);
  }
  for (const [documentId, annotationIds] of byDocument) {
    yield* renderThreads(scope.tenantId, scope.organizationId, documentId, annotationIds);
  }
}

const threadKey = (r: Row): [string, string] => [r.document_id as string, r.annotation_id as string];

/**
 * The user's comments, a batch at a time in key order. A thread left without comments goes, with its
 * read marks (it would show nothing but an empty list); the others are rendered again. A batch can end
 * inside a thread: that one is rendered by the batch that deletes its last comment by the user, so a
 * thread of 100,000 comments is rendered once, not once per batch.
 */
function* authoredComments(scope: ErasureScope, _cursor: unknown, limit: number): Work<StepResult> {
  const keys = yield* all(SQL.nextAuthored, { ...scope, limit });
  const [first, end] = [keys[0], keys[keys.length - 1]];
  if (!first || !end) return next(true);
  const range = {
    ...scope,
    firstDocument: first.document_id,
    firstAnnotation: first.annotation_id,
    lastDocument: end.document_id,
    lastAnnotation: end.annotation_id,
    lastComment: Number(end.comment_id),
  };
  yield* all(SQL.lockThreadRange, range);
  const deleted = (yield* all(SQL.deleteAuthored, range)).map(threadKey);
  if (deleted.length === 0) return next(true);
  const last = deleted.reduce((a, b) => (a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]) ? b : a));
  const lastUnfinished = (yield* all(SQL.authoredIn, { ...scope, documentId: last[0], annotationId: last[1] })).length > 0;
  const touched = deleted.filter(([d, a]) => !(lastUnfinished && d === last[0] && a === last[1]));
  const byDocument = new Map<string, Set<string>>();
  for (const [d, a] of touched) byDocument.set(d, (byDocument.get(d) ?? new Set()).add(a));
  const toRender: [string, string][] = [];
  for (const [documentId, ids] of byDocument) {
    const thread = { tenantId: scope.tenantId, organizationId: scope.organizationId, documentId };
    const empty = (yield* all(SQL.emptyThreads, { ...thread, annotationIds: list([...ids]) })).map(
      (r) => r.annotation_id as string,
    );
    if (empty.length > 0) {
      yield* run(THREADS_SQL.cascadeReads, { ...thread, annotationIds: list(empty) });
      yield* run(THREADS_SQL.deleteThreads, { ...thread, annotationIds: list(empty) });
    }
    for (const a of ids) if (!empty.includes(a)) toRender.push([documentId, a]);
  }
  yield* rendered(scope, toRender);
  return next(keys.length < limit);
}

/** Deletes notifications for everyone, with their inbox rows and read marks (as notifications/delete does). */
function* deleteNotifications(scope: ErasureScope, ids: string[]): Work<void> {
  if (ids.length === 0) return;
  const params = { tenantId: scope.tenantId, organizationId: scope.organizationId, ids: list(ids) };
  // The notifications first: on PostgreSQL that locks them before their read rows go (notifications/sql.ts).
  yield* all(NOTIFICATIONS_SQL.deleteNotifications, params);
  yield* run(NOTIFICATIONS_SQL.deleteInbox, params);
  yield* run(NOTIFICATIONS_SQL.deleteReads, params);
}

/** The notifications the user acted in: gone for everyone. */
function* actedIn(scope: ErasureScope, _cursor: unknown, limit: number): Work<StepResult> {
  const ids = (yield* all(SQL.actedIn, { ...scope, limit })).map((r) => r.notification_id as string);
  yield* deleteNotifications(scope, ids);
  return next(ids.length < limit);
}

/**
 * The notifications that list the user: their entry goes from the recipients and from the stored
 * answers (their own inbox row and every other recipient's). One that listed nobody else, and is not
 * organization-wide, was addressed to the user alone and goes.
 */
function* listedIn(scope: ErasureScope, _cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId, organizationId, userId } = scope;
  const ids = (yield* all(SQL.listing, { ...scope, limit })).map((r) => r.notification_id as string);
  if (ids.length === 0) return next(true);
  const org = { tenantId, organizationId };
  const rows = yield* all(NOTIFICATIONS_SQL.lockForChange, { ...org, ids: list(ids) });
  const alone: string[] = [];
  const changed: Record<string, unknown>[] = [];
  for (const r of rows) {
    const recipients = recipientsFrom(r.recipients as string, tenantId, organizationId)
      .filter((x) => x.userId !== userId)
      .map(({ userId: u, internalId }) => ({ userId: u, internalId }));
    if (recipients.length === 0 && !r.notify_all) {
      alone.push(r.notification_id as string);
      continue;
    }
    const answer = storedNotificationAnswer({
      notificationId: r.notification_id as string,
      documentId: r.document_id as string | null,
      locationId: r.location_id as string | null,
      headlineTemplate: r.headline_template as string,
      headlineData: r.headline_data as string,
      sourceData: r.source_data as string,
      bodyMessage: r.body_message as string,
      timestamp: Number(r.timestamp),
      // Stored answers keep every listed recipient unread; reads lay the marks over them.
      recipients: recipients.map((x) => ({ ...x, unread: true })),
      source: r.source as string,
    });
    changed.push({ notificationId: r.notification_id, recipients: recipientsJson(recipients), answer });
  }
  yield* run(SQL.deleteOwnInbox, { ...scope, ids: list(ids) });
  yield* deleteNotifications(scope, alone);
  yield* batch(SQL.changeRecipients, org, changed);
  yield* batch(
    SQL.changeInboxAnswers,
    org,
    changed.map(({ notificationId, answer }) => ({ notificationId, answer })),
  );
  return next(ids.length < limit);
}

/** SPEC 7: a template value that is an object with the user's userId shows the user. */
function namesUser(headlineData: string, userId: string): boolean {
  if (!headlineData.includes('"userId"')) return false;
  const data = JSON.parse(headlineData) as Record<string, unknown>;
  return Object.values(data).some((v) => typeof v === 'object' && v !== null && (v as { userId?: unknown }).userId === userId);
}

/** Notifications whose template data shows the user (about them, as the ones they acted in): gone for everyone. */
function* namedInTemplates(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult> {
  const after = (cursor as string | null) ?? '';
  const rows = yield* all(SQL.notificationWindow, { ...scope, after_notification_id: after, limit });
  const named = rows.filter((r) => namesUser(r.headline_data as string, scope.userId)).map((r) => r.notification_id as string);
  yield* deleteNotifications(scope, named);
  return next(rows.length < limit, rows[rows.length - 1]?.notification_id);
}

/** Threads assigned to the user: unassigned, and rendered again. */
function* assignedThreads(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult> {
  const [d, a] = (cursor as [string, string] | null) ?? ['', ''];
  const rows = yield* all(SQL.threadWindow, { ...scope, after_document_id: d, after_annotation_id: a, limit });
  const assigned = rows
    .filter(
      (r) => r.assigned_to !== null && (JSON.parse(r.assigned_to as string) as { userId?: unknown }).userId === scope.userId,
    )
    .map(threadKey);
  for (const [documentId, annotationId] of assigned) yield* run(SQL.unassign, { ...scope, documentId, annotationId });
  yield* rendered(scope, assigned);
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? threadKey(last) : null);
}

interface Tag {
  userId: string;
  contact?: { userId?: unknown };
}

/** Other users' comments that tag the user: the tag goes (with its text and contact), and the threads are rendered again. */
function* taggedComments(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult> {
  const [d, a, c] = (cursor as [string, string, number] | null) ?? ['', '', 0];
  const rows = yield* all(SQL.commentWindow, {
    ...scope,
    after_document_id: d,
    after_annotation_id: a,
    after_comment_id: c,
    limit,
  });
  const touched: [string, string][] = [];
  for (const r of rows) {
    if (r.tagged_user_contacts === null || !(r.tagged_user_contacts as string).includes(JSON.stringify(scope.userId))) continue;
    const tags = JSON.parse(r.tagged_user_contacts as string) as Tag[];
    const kept = tags.filter((t) => t.userId !== scope.userId && t.contact?.userId !== scope.userId);
    if (kept.length === tags.length) continue;
    const key = { documentId: r.document_id, annotationId: r.annotation_id, commentId: Number(r.comment_id) };
    // None left reads as never set (SPEC 14.1: shown only when set).
    yield* run(SQL.retag, { ...scope, ...key, tags: kept.length > 0 ? JSON.stringify(kept) : null });
    touched.push(threadKey(r));
  }
  yield* rendered(scope, touched);
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? [last.document_id, last.annotation_id, Number(last.comment_id)] : null);
}

/** A table's rows of the user, a batch at a time. */
const rowsOf = (statement: (typeof SQL)['annotationReads']) =>
  function* (scope: ErasureScope, _cursor: unknown, limit: number): Work<StepResult> {
    return next((yield* run(statement, { ...scope, limit })) < limit);
  };

/** The profile, last: first in its transaction the version bump, as in every write to users. */
function* profile(scope: ErasureScope): Work<StepResult> {
  yield* run(USERS_SQL.bumpProfileVersion, { tenantId: scope.tenantId, organizationId: scope.organizationId });
  yield* run(SQL.profile, { ...scope });
  return next(true);
}

/** Every step of one user's erasure in one organization, in the order they run. */
export const ERASURE_STEPS: readonly ErasureStep[] = [
  { name: 'comments', run: authoredComments },
  { name: 'notifications acted in', run: actedIn },
  { name: 'recipient entries', run: listedIn },
  { name: 'notifications naming the user', run: namedInTemplates },
  { name: 'assigned threads', run: assignedThreads },
  { name: 'tags', run: taggedComments },
  { name: 'thread read marks', run: rowsOf(SQL.annotationReads) },
  { name: 'notification read marks', run: rowsOf(SQL.notificationReads) },
  { name: 'settings', run: rowsOf(SQL.settings) },
  { name: 'memberships', run: rowsOf(SQL.memberships) },
  { name: 'group entries', run: rowsOf(SQL.groupEntries) },
  // After every inbox and read row of the user went (their triggers write these counters).
  { name: 'counters', run: rowsOf(SQL.counts) },
  { name: 'profile', run: profile },
];

/** The organizations of the tenant (users/data/delete without organizationIds). */
export function* organizationsOf(tenantId: string): Work<string[]> {
  return (yield* all(SQL.organizations, { tenantId })).map((r) => r.organization_id as string);
}

export function* recordJob(tenantId: string, jobId: string, tasksCount: number, completedAt: number): Work<void> {
  yield* run(SQL.recordJob, { tenantId, jobId, tasksCount, completedAt });
}
