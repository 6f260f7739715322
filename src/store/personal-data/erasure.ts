// Store code of users/data/delete (docs/api.md, "POST /v1/users/data/delete"): the data of every user of a request
// in one organization, erased in bounded batches. Each step below is one batch for all the users at once: db-store
// runs it as its own transaction, again and again until it says it is done, so erasing a user with 100,000
// comments never holds a write transaction (SQLite) or row locks (PostgreSQL) for long, and erasing
// 1,000 users costs about as many batches as their rows fill, not 1,000 times the steps. Order
// matters: comments and notifications first (their triggers move the users' counters), the profiles
// and the counters last. On PostgreSQL every step that changes a thread or its comments locks the
// threads first, in key order, as every comment write does.
import { answerOfSource } from '../../domain/answers/notifications.js';
import { internalUserId } from '../../domain/ids.js';
import { NO_ORGANIZATION } from '../../schemas/common.js';
import { ACCESS_ROLES_SQL } from '../access-roles/sql.js';
import { revoke as revokeRoles } from '../access-roles/roles.js';
import { ACTIVITIES_SQL } from '../activities/sql.js';
import type { ResourceKind } from '../../domain/access.js';
import { renderThreads } from '../comments/threads.js';
import { THREADS_SQL } from '../comments/threads-sql.js';
import { sequence as sequenceEvents } from '../events/outbox.js';
import { recipientsJson, sourceFrom } from '../notifications/notifications.js';
import { NOTIFICATIONS_SQL } from '../notifications/sql.js';
import { ORGANIZATION_TABLES } from '../organizations/sql.js';
import { deletedSome, type StepResult, stepDone as next } from '../batches.js';
import { all, batch, inKeyOrder, list, type Row, run, type Work } from '../sql.js';
import { USERS_SQL } from '../users/sql.js';
import { PERSONAL_DATA_SQL as SQL } from './sql.js';
import { eraseUsers as erasePresence } from '../presence/presence.js';

/** Whose data, where: the users erased (for a step by user, those with a row of their own there). */
export interface ErasureScope {
  tenantId: string;
  organizationId: string;
  userIds: readonly string[];
}

export interface ErasureStep {
  name: string;
  /**
   * Finds its rows through the users' own rows (by-user indexes), so it has nothing to do in an
   * organization where none of the users has a row. The others scan the organization's rows that may
   * name a user in their JSON, which a user can be named in without a row of their own there.
   */
  byUser: boolean;
  run(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult>;
}

const orgOf = ({ tenantId, organizationId }: ErasureScope) => ({ tenantId, organizationId });

/** Threads grouped by document, each list without repeats, documents and threads in key order. */
function byDocument(threads: readonly [string, string][]): [string, string[]][] {
  const grouped = new Map<string, Set<string>>();
  for (const [documentId, annotationId] of threads)
    grouped.set(documentId, (grouped.get(documentId) ?? new Set()).add(annotationId));
  return inKeyOrder([...grouped], ([d]) => d).map(([d, ids]) => [d, inKeyOrder([...ids], (a) => a)]);
}

/** Locks the threads on PostgreSQL, in key order, before their comments or columns change (a no-op on SQLite). */
function* lockThreads(scope: ErasureScope, threads: readonly [string, string][]): Work<void> {
  for (const [documentId, annotationIds] of byDocument(threads)) {
    yield* all(SQL.lockThreads, { ...orgOf(scope), documentId, annotationIds: list(annotationIds) });
  }
}

/** Renders the threads again (grouped by document): their comments changed. */
function* rendered(scope: ErasureScope, threads: readonly [string, string][]): Work<void> {
  for (const [documentId, annotationIds] of byDocument(threads)) {
    yield* renderThreads(scope.tenantId, scope.organizationId, documentId, annotationIds);
  }
}

const threadKey = (r: Row): [string, string] => [r.document_id as string, r.annotation_id as string];

/** Where the walk of the users' comments is: the authors still to erase, and the first one's last key erased. */
interface AuthoredCursor {
  authors: string[];
  after: [documentId: string, annotationId: string, commentId: number];
}
const FROM_THE_FIRST: AuthoredCursor['after'] = ['', '', -1];

/**
 * The users' comments, a batch at a time: each user's in key order (comments_by_author), user after
 * user until the batch is full. The authors are found once, by the first batch, and every batch starts
 * after the last one's key (sql.ts: nextAuthored). A thread left without comments goes, with its read
 * marks (it would show nothing but an empty list); the others are rendered again. A batch can end
 * inside a thread: that one is rendered by the batch that deletes its last comment by the user, so a
 * thread of 100,000 comments is rendered once, not once per batch.
 */
function* authoredComments(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult> {
  const org = orgOf(scope);
  const at: AuthoredCursor = (cursor as AuthoredCursor | null) ?? {
    authors: inKeyOrder(
      (yield* all(SQL.authors, { ...org, userIds: list(scope.userIds) })).map((r) => r.user_id as string),
      (u) => u,
    ),
    after: FROM_THE_FIRST,
  };
  // Each user's share of the batch: the keys of their next comments, up to what the batch has left.
  const ranges: { userId: string; keys: Row[]; wanted: number }[] = [];
  const authors = [...at.authors];
  let after = at.after;
  let taken = 0;
  while (authors.length > 0 && taken < limit) {
    const userId = authors[0]!;
    const wanted = limit - taken;
    const [afterDocument, afterAnnotation, afterComment] = after;
    const keys = yield* all(SQL.nextAuthored, { ...org, userId, afterDocument, afterAnnotation, afterComment, limit: wanted });
    if (keys.length > 0) ranges.push({ userId, keys, wanted });
    taken += keys.length;
    if (keys.length < wanted) {
      authors.shift();
      after = FROM_THE_FIRST;
    } else {
      const end = keys[keys.length - 1]!;
      after = [end.document_id as string, end.annotation_id as string, Number(end.comment_id)];
    }
  }
  if (taken === 0) return next(true);
  // Only the threads the users' comments of the batch are in, all of them before any comment goes.
  yield* lockThreads(
    scope,
    ranges.flatMap((r) => r.keys.map(threadKey)),
  );
  const touched: [string, string][] = [];
  const unfinished = new Set<string>();
  for (const { userId, keys, wanted } of ranges) {
    const end = keys[keys.length - 1]!;
    // The keys are the user's next ones in key order, so between a document's first and last of them
    // there is no other comment of the user's: a range per document deletes exactly these.
    for (let i = 0; i < keys.length; ) {
      let j = i;
      while (j + 1 < keys.length && keys[j + 1]!.document_id === keys[i]!.document_id) j++;
      const range = {
        ...org,
        userId,
        documentId: keys[i]!.document_id,
        firstAnnotation: keys[i]!.annotation_id,
        firstComment: Number(keys[i]!.comment_id),
        lastAnnotation: keys[j]!.annotation_id,
        lastComment: Number(keys[j]!.comment_id),
      };
      touched.push(...(yield* all(SQL.deleteAuthored, range)).map(threadKey));
      i = j + 1;
    }
    // The thread of the user's last comment of the batch (its last row, in the database's key order)
    // is left for a later batch to render if the user still has comments in it.
    if (keys.length === wanted) {
      const [documentId, annotationId] = threadKey(end);
      if ((yield* all(SQL.authoredIn, { ...org, userId, documentId, annotationId })).length > 0) {
        unfinished.add(JSON.stringify([documentId, annotationId]));
      }
    }
  }
  const toRender: [string, string][] = [];
  for (const [documentId, ids] of byDocument(touched.filter((t) => !unfinished.has(JSON.stringify(t))))) {
    const thread = { ...org, documentId };
    const empty = new Set(
      (yield* all(SQL.emptyThreads, { ...thread, annotationIds: list(ids) })).map((r) => r.annotation_id as string),
    );
    if (empty.size > 0) {
      yield* run(THREADS_SQL.cascadeReads, { ...thread, annotationIds: list([...empty]) });
      yield* run(THREADS_SQL.deleteThreads, { ...thread, annotationIds: list([...empty]) });
    }
    for (const a of ids) if (!empty.has(a)) toRender.push([documentId, a]);
  }
  yield* rendered(scope, toRender);
  return authors.length === 0 ? next(true) : next(false, { authors, after } satisfies AuthoredCursor);
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

/** The notifications the users acted in: gone for everyone. */
function* actedIn(scope: ErasureScope, _cursor: unknown, limit: number): Work<StepResult> {
  const found = yield* all(SQL.actedIn, { ...orgOf(scope), userIds: list(scope.userIds), limit });
  yield* deleteNotifications(
    scope,
    inKeyOrder(
      found.map((r) => r.notification_id as string),
      (id) => id,
    ),
  );
  return next(found.length < limit);
}

/**
 * The notifications that list the users: their entries go from the recipients and from the stored
 * answers (their own inbox rows and every other recipient's). One that listed nobody else, and is not
 * organization-wide, was addressed to them alone and goes.
 */
function* listedIn(scope: ErasureScope, _cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId, organizationId } = scope;
  const org = { tenantId, organizationId };
  const users = { ...org, userIds: list(scope.userIds) };
  const found = yield* all(SQL.listing, { ...users, limit });
  if (found.length === 0) return next(true);
  // A notification listing several of the users is found once per user: its ids once each.
  const ids = inKeyOrder([...new Set(found.map((r) => r.notification_id as string))], (id) => id);
  const erased = new Set(scope.userIds);
  const rows = yield* all(NOTIFICATIONS_SQL.lockForChange, { ...org, ids: list(ids) });
  const alone: string[] = [];
  const changed: Record<string, unknown>[] = [];
  for (const r of rows) {
    const notification = sourceFrom(r, tenantId, organizationId);
    const recipients = notification.recipients.filter((x) => !erased.has(x.userId));
    if (recipients.length === 0 && !notification.notifyAll) {
      alone.push(notification.notificationId);
      continue;
    }
    const answer = answerOfSource({ ...notification, recipients });
    changed.push({ notificationId: notification.notificationId, recipients: recipientsJson(recipients), answer });
  }
  yield* run(SQL.deleteOwnInbox, { ...users, ids: list(ids) });
  yield* deleteNotifications(scope, alone);
  yield* batch(SQL.changeRecipients, org, changed);
  yield* batch(
    SQL.changeInboxAnswers,
    org,
    changed.map(({ notificationId, answer }) => ({ notificationId, answer })),
  );
  return next(found.length < limit);
}

/**
 * A template value that is an object with a user's userId shows the user (docs/api.md,
 * "User objects in a notification").
 */
function namesAny(headlineData: string, userIds: ReadonlySet<string>): boolean {
  if (!headlineData.includes('"userId"')) return false;
  const data = JSON.parse(headlineData) as Record<string, unknown>;
  return Object.values(data).some((v) => {
    const userId = typeof v === 'object' && v !== null ? (v as { userId?: unknown }).userId : undefined;
    return typeof userId === 'string' && userIds.has(userId);
  });
}

/**
 * Notifications whose template data shows one of the users (about them, as the ones they acted in):
 * gone for everyone. One walk of the organization's notifications for all the users.
 */
function* namedInTemplates(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult> {
  const after = (cursor as string | null) ?? '';
  const erased = new Set(scope.userIds);
  const rows = yield* all(SQL.notificationWindow, { ...orgOf(scope), after_notification_id: after, limit });
  const named = rows.filter((r) => namesAny(r.headline_data as string, erased)).map((r) => r.notification_id as string);
  yield* deleteNotifications(scope, named);
  return next(rows.length < limit, rows[rows.length - 1]?.notification_id);
}

/** Threads assigned to one of the users: unassigned (their threads locked first), and rendered again. */
function* assignedThreads(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult> {
  const [d, a] = (cursor as [string, string] | null) ?? ['', ''];
  const org = orgOf(scope);
  const erased = new Set(scope.userIds);
  const rows = yield* all(SQL.threadWindow, { ...org, after_document_id: d, after_annotation_id: a, limit });
  const assigned = rows
    .filter((r) => {
      if (r.assigned_to === null) return false;
      const userId = (JSON.parse(r.assigned_to as string) as { userId?: unknown }).userId;
      return typeof userId === 'string' && erased.has(userId);
    })
    .map(threadKey);
  yield* lockThreads(scope, assigned);
  for (const [documentId, annotationId] of assigned) yield* run(SQL.unassign, { ...org, documentId, annotationId });
  yield* rendered(scope, assigned);
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? threadKey(last) : null);
}

interface Tag {
  userId: string;
  contact?: { userId?: unknown };
}

/**
 * Other users' comments that tag one of the users: the tag goes (with its text and contact), and the
 * threads are rendered again; the threads are locked before any of their comments changes.
 */
function* taggedComments(scope: ErasureScope, cursor: unknown, limit: number): Work<StepResult> {
  const [d, a, c] = (cursor as [string, string, number] | null) ?? ['', '', 0];
  const org = orgOf(scope);
  const erased = new Set(scope.userIds);
  const rows = yield* all(SQL.commentWindow, {
    ...org,
    after_document_id: d,
    after_annotation_id: a,
    after_comment_id: c,
    limit,
  });
  const retagged: { row: Row; kept: Tag[] }[] = [];
  for (const r of rows) {
    if (r.tagged_user_contacts === null || !(r.tagged_user_contacts as string).includes('"userId"')) continue;
    const tags = JSON.parse(r.tagged_user_contacts as string) as Tag[];
    const kept = tags.filter(
      (t) => !erased.has(t.userId) && !(typeof t.contact?.userId === 'string' && erased.has(t.contact.userId)),
    );
    if (kept.length < tags.length) retagged.push({ row: r, kept });
  }
  const touched = retagged.map(({ row }) => threadKey(row));
  yield* lockThreads(scope, touched);
  for (const { row, kept } of retagged) {
    const key = { documentId: row.document_id, annotationId: row.annotation_id, commentId: Number(row.comment_id) };
    // None left reads as never set (docs/api.md, "Members shown only when set").
    yield* run(SQL.retag, { ...org, ...key, tags: kept.length > 0 ? JSON.stringify(kept) : null });
  }
  yield* rendered(scope, touched);
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? [last.document_id, last.annotation_id, Number(last.comment_id)] : null);
}

/** A table's rows of the users, a batch at a time. */
const rowsOf = (statement: (typeof SQL)['annotationReads']) =>
  function* (scope: ErasureScope, _cursor: unknown, limit: number): Work<StepResult> {
    return yield* deletedSome(statement, { ...orgOf(scope), userIds: list(scope.userIds) }, limit);
  };

/** The profiles, last: first in each transaction the version bump, as in every write to users. */
function* profiles(scope: ErasureScope, _cursor: unknown, limit: number): Work<StepResult> {
  yield* run(USERS_SQL.bumpProfileVersion, orgOf(scope));
  return yield* deletedSome(SQL.profiles, { ...orgOf(scope), userIds: list(scope.userIds) }, limit);
}

/** Every step of the users' erasure in one organization, in the order they run. */
export const ERASURE_STEPS: readonly ErasureStep[] = [
  { name: 'comments', byUser: true, run: authoredComments },
  { name: 'notifications acted in', byUser: true, run: actedIn },
  { name: 'recipient entries', byUser: true, run: listedIn },
  { name: 'notifications naming the users', byUser: false, run: namedInTemplates },
  { name: 'assigned threads', byUser: false, run: assignedThreads },
  { name: 'tags', byUser: false, run: taggedComments },
  { name: 'thread read marks', byUser: true, run: rowsOf(SQL.annotationReads) },
  { name: 'notification read marks', byUser: true, run: rowsOf(SQL.notificationReads) },
  // Added with migration 41: an erasure under way when it came re-runs one earlier step (each only deletes), skips none.
  { name: 'notification archives', byUser: true, run: rowsOf(SQL.notificationArchives) },
  // Added with migration 43: the user's mails, waiting or sent (ids only, but the user's ids).
  { name: 'mails', byUser: true, run: rowsOf(SQL.mails) },
  // Added with migration 45: the user's reactions (those on their own comments went with the comments).
  { name: 'reactions', byUser: true, run: rowsOf(SQL.reactions) },
  { name: 'settings', byUser: true, run: rowsOf(SQL.settings) },
  { name: 'memberships', byUser: true, run: rowsOf(SQL.memberships) },
  { name: 'group entries', byUser: true, run: rowsOf(SQL.groupEntries) },
  // After every inbox and read row of the users went (their triggers write these counters).
  { name: 'counters', byUser: true, run: rowsOf(SQL.counts) },
  { name: 'profiles', byUser: true, run: profiles },
];

/** Whose history, where: the users erased, in the organizations named (null: every one of the tenant's). */
export interface HistoryScope {
  tenantId: string;
  organizationIds: ReadonlySet<string> | null;
  userIds: readonly string[];
  /** The organizations the erasure visited, with the users it found there (whose internal ids an event there may show). */
  visited: ReadonlyMap<string, readonly string[]>;
  /** Set when a step found something of the users' to delete (the tables then get scrubbed: ERASED_TABLES). */
  found: boolean;
}

/**
 * A step over the tenant's history (migration 17: the events and the webhook deliveries that carry
 * them), run once per erasure for every organization at once: those tables are walked by tenant, so a
 * walk per organization would read the tenant's history once per organization.
 */
export interface HistoryStep {
  name: string;
  run(scope: HistoryScope, cursor: unknown, limit: number): Work<StepResult>;
}

/** What names a user in an event's JSON text, by organization: their userId and their internal id, as JSON strings. */
const needlesOf = new WeakMap<HistoryScope, { everywhere: Set<string>; byOrganization: Map<string, Set<string>> }>();

/** A JSON text's strings, as written in it (quotes and escapes included): what a needle is compared with. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/**
 * Whether an event of the organization (its body, its audience) names one of the users. Every user an
 * event shows is an object with its userId, or a userId in a list or a map (notifyUsersByUserId, beside
 * the internal ids of notifyUsers), so an event that shows their name or email shows their userId too;
 * their internal ids are looked for too where they had rows. Each string of the text is looked up once,
 * so the cost is the text's length, whatever the number of users.
 */
function names(scope: HistoryScope, organizationId: string, texts: readonly unknown[]): boolean {
  if (scope.organizationIds && !scope.organizationIds.has(organizationId)) return false;
  let needles = needlesOf.get(scope);
  if (!needles) {
    needles = { everywhere: new Set(scope.userIds.map((u) => JSON.stringify(u))), byOrganization: new Map() };
    needlesOf.set(scope, needles);
  }
  let here = needles.byOrganization.get(organizationId);
  if (!here) {
    const internal = (scope.visited.get(organizationId) ?? []).map((u) =>
      JSON.stringify(internalUserId(scope.tenantId, organizationId, u)),
    );
    here = internal.length > 0 ? new Set([...needles.everywhere, ...internal]) : needles.everywhere;
    needles.byOrganization.set(organizationId, here);
  }
  for (const t of texts) {
    if (typeof t !== 'string') continue;
    for (const [literal] of t.matchAll(JSON_STRING)) if (here.has(literal)) return true;
  }
  return false;
}

/** Events that name one of the users: they go whole (an erasure leaves no trace, docs/decisions.md). */
function* namingEvents(scope: HistoryScope, cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId } = scope;
  // PostgreSQL: drafts committed before the erasure are numbered first, so the walk sees them (migration 18).
  if (cursor == null) yield* sequenceEvents(tenantId);
  const rows = yield* all(SQL.eventWindow, { tenantId, after: (cursor as number | null) ?? 0, limit });
  const named = rows.filter((r) => names(scope, r.organization_id as string, [r.body, r.audience])).map((r) => Number(r.id));
  if (named.length > 0) {
    scope.found = true;
    yield* run(SQL.deleteEvents, { tenantId, ids: list(named) });
  }
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? Number(last.id) : null);
}

/** Webhook deliveries whose event names one of the users, whatever their state: none is sent again, none is listed. */
function* namingDeliveries(scope: HistoryScope, cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId } = scope;
  const [afterWebhook, afterEvent] = (cursor as [string, number] | null) ?? ['', 0];
  const rows = yield* all(SQL.deliveryWindow, { tenantId, afterWebhook, afterEvent, limit });
  const named = rows
    .filter((r) => names(scope, r.organization_id as string, [r.body]))
    .map((r) => ({ webhookId: r.webhook_id as string, eventId: Number(r.event_id) }));
  if (named.length > 0) scope.found = true;
  yield* batch(SQL.deleteDeliveries, { tenantId }, named);
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? [last.webhook_id, Number(last.event_id)] : null);
}

/**
 * Live states that name one of the users (a cursor, a presence list: docs/decisions.md, "Live state"):
 * a state is whatever its broadcaster sent, so one that names a user goes whole, as an event does.
 */
function* namingLiveStates(scope: HistoryScope, cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId } = scope;
  const [afterOrganization, afterDocument, afterId] = (cursor as [string, string, string] | null) ?? ['', '', ''];
  const rows = yield* all(SQL.liveStateWindow, { tenantId, afterOrganization, afterDocument, afterId, limit });
  for (const r of rows) {
    if (!names(scope, r.organization_id as string, [r.data])) continue;
    scope.found = true;
    const key = { organizationId: r.organization_id, documentId: r.document_id, liveStateDataId: r.live_state_data_id };
    yield* run(SQL.deleteLiveState, { tenantId, ...key });
  }
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? [last.organization_id, last.document_id, last.live_state_data_id] : null);
}

/**
 * Activities that name one of the users (docs/decisions.md, "Activities"): those they did (their actionUser)
 * and those whose snapshots, changes or template data show them go whole, as events do.
 */
function* namingActivities(scope: HistoryScope, cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId } = scope;
  const [afterOrganization, afterId] = (cursor as [string, string] | null) ?? ['', ''];
  const rows = yield* all(ACTIVITIES_SQL.window, { tenantId, afterOrganization, afterId, limit });
  const named = rows
    .filter((r) => names(scope, r.organization_id as string, [r.body]))
    .map((r) => ({ organizationId: r.organization_id as string, activityId: r.activity_id as string }));
  if (named.length > 0) scope.found = true;
  yield* batch(ACTIVITIES_SQL.deleteByKey, { tenantId }, named);
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? [last.organization_id, last.activity_id] : null);
}

/**
 * The users' presence on any document (docs/api.md, "Presence"): it names them with their name and email,
 * and is found by user (presence_by_user), not by the organizations visited, as a presence alone leaves
 * no row those visits look for.
 */
function* presenceOfUsers(scope: HistoryScope, _cursor: unknown, limit: number): Work<StepResult> {
  const organizations = scope.organizationIds === null ? null : [...scope.organizationIds];
  const n = yield* erasePresence(scope.tenantId, scope.userIds, organizations, limit);
  if (n > 0) scope.found = true;
  return next(n < limit);
}

/**
 * The users' roles (docs/decisions.md, "Permissions"), found by user (access_roles_by_user) in the
 * organizations named, as a role alone leaves no row the organizations' visits look for.
 */
function* rolesOfUsers(scope: HistoryScope, _cursor: unknown, limit: number): Work<StepResult> {
  const organizations = scope.organizationIds === null ? null : [...scope.organizationIds];
  const rows = yield* all(ACCESS_ROLES_SQL.ofUsersAnywhere, {
    tenantId: scope.tenantId,
    userIds: list(scope.userIds),
    organizationIds: list(organizations),
    limit,
  });
  if (rows.length > 0) scope.found = true;
  yield* revokeRoles(
    scope.tenantId,
    rows.map((r) => ({
      organizationId: r.organization_id as string,
      userId: r.user_id as string,
      kind: r.resource_kind as ResourceKind,
      resourceId: r.resource_id as string,
    })),
  );
  return next(rows.length < limit);
}

/** The organization a workflow execution targets (its `target` JSON), as the erasure's scope names it. */
function targetOrganization(target: unknown): string {
  const organizationId = (JSON.parse(String(target)) as { organizationId?: string | null }).organizationId;
  return organizationId ?? NO_ORGANIZATION;
}

/** Deletes workflow executions whole: their log, their steps, then the executions. */
function* deleteExecutions(scope: HistoryScope, executionIds: readonly string[]): Work<void> {
  if (executionIds.length === 0) return;
  scope.found = true;
  const key = { tenantId: scope.tenantId, executionIds: list([...new Set(executionIds)]) };
  yield* run(SQL.deleteWorkflowEvents, key);
  yield* run(SQL.deleteWorkflowSteps, key);
  yield* run(SQL.deleteWorkflowExecutions, key);
}

/**
 * Approval workflow executions that name one of the users (docs/decisions.md, "Approval workflows"): in
 * their trigger context or target, a step's output, error or reviewers, or their log. They go whole, as
 * events do. Three walks, one per table; a walk of steps or log that deletes an execution passes its
 * other rows, now gone, by key.
 */
function* namingWorkflowExecutions(scope: HistoryScope, cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId } = scope;
  const rows = yield* all(SQL.workflowExecutionWindow, { tenantId, after: (cursor as string | null) ?? '', limit });
  const named = rows.filter((r) => names(scope, targetOrganization(r.target), [r.target, r.trigger_context]));
  yield* deleteExecutions(
    scope,
    named.map((r) => r.execution_id as string),
  );
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? (last.execution_id as string) : null);
}

function* namingWorkflowSteps(scope: HistoryScope, cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId } = scope;
  const [afterExecution, afterStep] = (cursor as [string, string] | null) ?? ['', ''];
  const rows = yield* all(SQL.workflowStepWindow, { tenantId, afterExecution, afterStep, limit });
  const named = rows.filter((r) => names(scope, targetOrganization(r.target), [r.output, r.error, r.aggregator]));
  yield* deleteExecutions(
    scope,
    named.map((r) => r.execution_id as string),
  );
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? [last.execution_id, last.step_id] : null);
}

function* namingWorkflowLogs(scope: HistoryScope, cursor: unknown, limit: number): Work<StepResult> {
  const { tenantId } = scope;
  const [afterExecution, afterSeq] = (cursor as [string, number] | null) ?? ['', 0];
  const rows = yield* all(SQL.workflowEventWindow, { tenantId, afterExecution, afterSeq, limit });
  const named = rows.filter((r) => names(scope, targetOrganization(r.target), [r.data]));
  yield* deleteExecutions(
    scope,
    named.map((r) => r.execution_id as string),
  );
  const last = rows[rows.length - 1];
  return next(rows.length < limit, last ? [last.execution_id, Number(last.seq)] : null);
}

/**
 * Every table an erasure may delete from or rewrite: the organizations' tables (the counters move by
 * trigger) and the history's. What is scrubbed after it (dialect.ts, scrub), so the erased values are
 * left in no free page, WAL or dead row version; a table it did not change costs the scrub next to
 * nothing (PostgreSQL's VACUUM skips pages with no dead rows).
 */
export const ERASED_TABLES: readonly string[] = [
  ...ORGANIZATION_TABLES,
  'events',
  'webhook_deliveries',
  'activities',
  'workflow_executions',
  'workflow_steps',
  'workflow_events',
  'access_roles',
];

/** The steps over the tenant's history, after every organization's steps. */
export const HISTORY_STEPS: readonly HistoryStep[] = [
  { name: 'events', run: namingEvents },
  { name: 'webhook deliveries', run: namingDeliveries },
  { name: 'live states', run: namingLiveStates },
  { name: 'activities', run: namingActivities },
  { name: 'presence', run: presenceOfUsers },
  { name: 'roles', run: rolesOfUsers },
  { name: 'workflow executions', run: namingWorkflowExecutions },
  { name: 'workflow steps', run: namingWorkflowSteps },
  { name: 'workflow logs', run: namingWorkflowLogs },
];

/** Of the users, those with a row of their own in the organization (one probe per user and table). */
export function* usersWithRows(tenantId: string, organizationId: string, userIds: readonly string[]): Work<string[]> {
  const rows = yield* all(SQL.usersWithRows, { tenantId, organizationId, userIds: list(userIds) });
  return inKeyOrder(
    rows.map((r) => r.user_id as string),
    (u) => u,
  );
}

/** An organization an erasure visits: the users with an entry there (migration 27), and those of them named in its JSON. */
export interface Visit {
  organizationId: string;
  userIds: string[];
  named: string[];
}

/** Where the users have rows or are named, in key order, among `organizationIds` when given (null: anywhere). */
export function* organizationsOf(
  tenantId: string,
  userIds: readonly string[],
  organizationIds: readonly string[] | null,
): Work<Visit[]> {
  const rows = yield* all(SQL.organizations, { tenantId, userIds: list(userIds), organizationIds: list(organizationIds) });
  const visits = new Map<string, Visit>();
  for (const r of rows) {
    const organizationId = r.organization_id as string;
    let visit = visits.get(organizationId);
    if (!visit) {
      visit = { organizationId, userIds: [], named: [] };
      visits.set(organizationId, visit);
    }
    const userId = r.user_id as string;
    if (visit.userIds[visit.userIds.length - 1] !== userId) visit.userIds.push(userId);
    if (r.named) visit.named.push(userId);
  }
  return [...visits.values()];
}

/** Last in each organization: the users' entries in the index of where they have rows (migration 27). */
export const forgetVisit = rowsOf(SQL.entries);

export function* recordJob(tenantId: string, jobId: string, tasksCount: number, completedAt: number): Work<void> {
  yield* run(SQL.recordJob, { tenantId, jobId, tasksCount, completedAt });
}
