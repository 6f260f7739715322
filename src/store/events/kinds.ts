// What each write announces (SPEC 13): its events' types and data, made from what the write knows
// (and, where a read would show more, from what it left, read in its own transaction). Data is the
// object as a read shows it, with users as their writer gave them and never an API key; a delete's
// data is its ids (docs/decisions.md, "Events of every write", lists every type and its data).
//
// Some writes make rows whose content only their own store code knows (a thread's stored answer, the
// createdAt of appended comments, the ids of fan-out notifications): `watched` passes a write's steps
// through and lets `Seen` keep the parameters of the statements that wrote those rows, so their events
// are rendered from exactly what was written, with no statement of their own.
import { eventCommentJson } from '../../answers/comments.js';
import { eventCommentsOf, eventThreadJson } from '../../answers/annotations.js';
import { eventLiveStateJson } from '../../answers/live-states.js';
import { eventNotificationJson } from '../../answers/notifications.js';
import { shownDocument, shownFolder, shownMember, shownOrganization } from '../../answers/objects.js';
import { comments as commentsRead } from '../comments/comments.js';
import { COMMENTS_SQL } from '../comments/sql.js';
import { THREADS_SQL } from '../comments/threads-sql.js';
import { annotations, filterParams } from '../comments/threads.js';
import { page as documentsPage } from '../documents/documents.js';
import { listAll as allFolders } from '../folders/folders.js';
import { FOLDERS_SQL } from '../folders/sql.js';
import { sourceFrom } from '../notifications/notifications.js';
import { NOTIFICATIONS_SQL } from '../notifications/sql.js';
import { page as organizationsPage } from '../organizations/organizations.js';
import { all, type ListParam, list, queried, type Step, type Work } from '../sql.js';
import type {
  ChangeSource,
  LiveStateRecord,
  NotificationChange,
  NotificationDeletion,
  NotificationSetting,
  Scope,
  ThreadFilters,
  ThreadRef,
  ThreadsUpdated,
  UserRef,
} from '../store.js';
import { profiles } from '../users/users.js';
import type { Audience, EventDraft } from './outbox.js';

/** Every event type a write records (docs/decisions.md, "Events of every write"). */
export const EVENT_TYPES = [
  'comment_annotation.add',
  'comment_annotation.update',
  'comment_annotation.status_change',
  'comment_annotation.delete',
  'comment_annotation.read',
  'comment.add',
  'comment.update',
  'comment.delete',
  'notification.add',
  'notification.update',
  'notification.delete',
  'notification.read',
  'notification.unread',
  'notification.config_set',
  'user.add',
  'user.update',
  'user.delete',
  'organization.add',
  'organization.update',
  'organization.delete',
  'organization.usergroup_add',
  'organization.usergroup_users_add',
  'organization.usergroup_users_delete',
  'document.add',
  'document.update',
  'document.delete',
  'folder.add',
  'folder.update',
  'folder.delete',
  'livestate.broadcast',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const json = JSON.stringify;

const draft = (
  type: EventType,
  organizationId: string,
  documentId: string | null,
  data: string,
  audience?: Audience,
): EventDraft => (audience ? { type, organizationId, documentId, data, audience } : { type, organizationId, documentId, data });

/** How many ids one read-back statement takes (a list parameter), as the writes' own chunks. */
const CHUNK = 1000;
const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};
/** Each id once, in the order first named. */
const once = (ids: readonly string[]): string[] => [...new Set(ids)];

// --- What a write's statements wrote ---

/** A notification as its insert wrote it: what its event is rendered from. */
interface WrittenNotification {
  documentId: string | null;
  answer: string;
  actionUser: UserRef;
  recipients: readonly { userId: string }[];
  notifyAll: boolean;
}

/**
 * What a write's statements wrote, kept as they pass (`watched`): new threads' stored answers, comments
 * appended to a thread, notifications added (the fan-out's among them), folders deleted.
 */
export class Seen {
  /** Threads added, in the order written: their stored answers. */
  readonly threads: { annotationId: string; head: string; comments: string }[] = [];
  /** comments/add: the new comments' stored answers (appended to the thread's). */
  appended: { annotationId: string; comments: string } | null = null;
  readonly notifications: WrittenNotification[] = [];
  readonly foldersRemoved: string[] = [];

  see(step: Step, result: unknown): void {
    if (step.op !== 'run') return;
    const p = step.params;
    if (step.statement === NOTIFICATIONS_SQL.insert && result === 1) {
      this.notifications.push({
        documentId: p.documentId as string | null,
        answer: p.answer as string,
        actionUser: {
          userId: p.actionUserId as string,
          name: p.actionUserName as string | null,
          email: p.actionUserEmail as string | null,
        },
        recipients: (JSON.parse(p.recipients as string) as [string, ...unknown[]][]).map(([userId]) => ({ userId })),
        notifyAll: Boolean(p.notifyAll),
      });
    } else if (step.statement === COMMENTS_SQL.insertAnnotation && result === 1) {
      this.threads.push({ annotationId: p.annotationId as string, head: p.head as string, comments: p.comments as string });
    } else if (step.statement === COMMENTS_SQL.afterAdd) {
      this.appended = { annotationId: p.annotationId as string, comments: p.comments as string };
    } else if (step.statement === FOLDERS_SQL.remove) {
      this.foldersRemoved.push(...((p.ids as ListParam).values as string[]));
    }
  }
}

/** Runs `work`, telling `seen` of each step and its result. */
export function* watched<T>(work: Work<T>, seen: Seen): Work<T> {
  let next = work.next();
  while (!next.done) {
    const result: unknown = yield next.value;
    seen.see(next.value, result);
    next = work.next(result);
  }
  return next.value;
}

// --- Notifications ---

/** A notification's addressees: its listed users, and the whole organization when it is organization-wide. */
const audienceOf = (n: Pick<WrittenNotification, 'recipients' | 'notifyAll'>): Audience => ({
  users: n.recipients.map((r) => r.userId),
  wide: n.notifyAll,
});

export function notificationAdded(organizationId: string, n: WrittenNotification): EventDraft {
  return draft('notification.add', organizationId, n.documentId, eventNotificationJson(n, organizationId), audienceOf(n));
}

/** The notifications a write added as it went (a comment write's fan-out, SPEC 11.7). */
export const notificationsSeen = (organizationId: string, seen: Seen): EventDraft[] =>
  seen.notifications.map((n) => notificationAdded(organizationId, n));

/** What notifications/update's render made of each notification whose content changed (the last, when named twice). */
export type RenderedChanges = Map<string, { answer: string; row: ChangeSource }>;

/**
 * notifications/update: `notification.update` for each notification whose content changed (its new
 * answer), then for each user the change marked read or unread, `notification.read` or
 * `notification.unread` with the notifications that exist among those it named for them.
 */
export function notificationsChanged(
  organizationId: string,
  changes: readonly NotificationChange[],
  rendered: RenderedChanges,
  found: ReadonlySet<string>,
): EventDraft[] {
  const events: EventDraft[] = [];
  for (const [, { answer, row }] of rendered) {
    const n = { ...row, answer };
    events.push(
      draft('notification.update', organizationId, row.documentId, eventNotificationJson(n, organizationId), audienceOf(n)),
    );
  }
  for (const [type, marksOf] of [
    ['notification.read', (c: NotificationChange) => c.readBy],
    ['notification.unread', (c: NotificationChange) => c.unreadBy],
  ] as const) {
    const byUser = new Map<string, Set<string>>();
    for (const c of changes) {
      if (!found.has(c.id)) continue;
      for (const userId of marksOf(c)) byUser.set(userId, (byUser.get(userId) ?? new Set()).add(c.id));
    }
    for (const [userId, ids] of byUser) {
      events.push(
        draft(type, organizationId, null, json({ userId, notificationIds: [...ids] }), { users: [userId], wide: false }),
      );
    }
  }
  return events;
}

/**
 * Before notifications/delete: the addressees of what it will delete (the delete leaves no row to read
 * them from), selected as notifications/remove selects (SPEC 14.4) and read with the rows locked.
 */
export function* deletionAudiences(tenantId: string, q: NotificationDeletion): Work<Map<string, Audience>> {
  const SQL = NOTIFICATIONS_SQL;
  const params = { tenantId, organizationId: q.organizationId, locationId: q.locationId, ids: list(q.notificationIds) };
  const rows =
    q.userId !== null
      ? yield* all(SQL.idsListing, { ...params, userId: q.userId, documentId: q.documentId })
      : q.documentId !== null
        ? yield* all(SQL.idsOfDocument, { ...params, documentId: q.documentId })
        : q.locationId !== null
          ? yield* all(SQL.idsAtLocation, params)
          : yield* all(SQL.idsNamed, params);
  const audiences = new Map<string, Audience>();
  const org = { tenantId, organizationId: q.organizationId };
  for (const ids of chunks(rows.map((r) => r.notification_id as string))) {
    for (const r of yield* all(SQL.lockForChange, { ...org, ids: list(ids) })) {
      const n = sourceFrom(r, tenantId, q.organizationId);
      audiences.set(n.notificationId, audienceOf(n));
    }
  }
  return audiences;
}

/** notifications/delete: one event per notification deleted, to those it was addressed to. */
export const notificationsDeleted = (
  organizationId: string,
  ids: readonly string[],
  audiences: ReadonlyMap<string, Audience>,
): EventDraft[] =>
  ids.map((notificationId) => {
    const audience = audiences.get(notificationId);
    return draft('notification.delete', organizationId, null, json({ notificationId }), audience);
  });

/** notifications/read: the user's read marks (the ids named, or all: every notification, of the document when named). */
export const notificationsRead = (
  organizationId: string,
  userId: string,
  documentId: string | null,
  notificationIds: readonly string[] | null,
): EventDraft =>
  draft(
    'notification.read',
    organizationId,
    documentId,
    json(notificationIds ? { userId, notificationIds } : { userId, all: true }),
    { users: [userId], wide: false },
  );

/** notifications/config/set: per document, the users and the channels set (those not named keep their value). */
export const settingsSet = (
  organizationId: string,
  documentIds: readonly string[],
  userIds: readonly string[],
  setting: Partial<NotificationSetting>,
): EventDraft[] => {
  const config = { ...(setting.inbox && { inbox: setting.inbox }), ...(setting.email && { email: setting.email }) };
  const users = once(userIds);
  return once(documentIds).map((documentId) =>
    draft('notification.config_set', organizationId, documentId, json({ userIds: users, config }), { users, wide: false }),
  );
};

// --- Threads and comments ---

/** commentannotations/add: each thread added, in the order the request listed them, from its stored answer. */
export function threadsAdded(organizationId: string, documentId: string, order: readonly string[], seen: Seen): EventDraft[] {
  const byId = new Map(seen.threads.map((t) => [t.annotationId, t]));
  return order.flatMap((annotationId) => {
    const t = byId.get(annotationId);
    return t ? [draft('comment_annotation.add', organizationId, documentId, eventThreadJson(t))] : [];
  });
}

/** The stored answers of a document's threads (at most CHUNK ids a call). */
function* storedThreads(tenantId: string, organizationId: string, documentId: string, ids: readonly string[]) {
  const filters = { organizationId, documentId, locationIds: null, userIds: null, statusIds: null };
  const found = new Map<string, { head: string; comments: string }>();
  for (const annotationIds of chunks(ids)) {
    const rows = yield* queried(annotations(tenantId, { ...filters, annotationIds, after: null, limit: CHUNK }));
    for (const r of rows) found.set(r.annotationId, r);
  }
  return found;
}

/** A thread's status as JSON text, from its stored answer. */
const statusOf = (t: { head: string }): string =>
  json((JSON.parse(eventThreadJson({ head: t.head, comments: '' })) as { status: unknown }).status);

/**
 * Before commentannotations/update names a status: the matching threads' statuses, locked (PostgreSQL)
 * so that none changes before the update, which then reports the threads whose status it changed.
 */
export function* threadStatuses(tenantId: string, f: ThreadFilters): Work<Map<string, string>> {
  const rows = yield* all(THREADS_SQL.matching, filterParams(tenantId, f));
  const ids = rows.map((r) => r.annotation_id as string);
  const stored = yield* storedThreads(tenantId, f.organizationId, f.documentId, ids);
  return new Map([...stored].map(([id, t]) => [id, statusOf(t)]));
}

/**
 * commentannotations/update: the profiles updateUsers wrote, as users/get shows them; each thread
 * changed, as it now reads, and its status change, when it had another; each comment given another author.
 */
export function* threadsUpdated(
  tenantId: string,
  f: ThreadFilters,
  { ids, reauthored, profiled }: ThreadsUpdated,
  statusesBefore: ReadonlyMap<string, string> | null,
): Work<EventDraft[]> {
  const users = yield* usersWritten('user.add', tenantId, f.organizationId, null, once(profiled));
  const stored = yield* storedThreads(tenantId, f.organizationId, f.documentId, ids);
  const comments: EventDraft[] = [];
  for (const [annotationId, commentIds] of reauthored)
    comments.push(...(yield* commentsUpdated(tenantId, { ...f, annotationId }, commentIds)));
  const threads = ids.flatMap((id) => {
    const t = stored.get(id);
    if (!t) return [];
    const data = eventThreadJson(t);
    const changed = statusesBefore !== null && statusesBefore.get(id) !== statusOf(t);
    return [
      draft('comment_annotation.update', f.organizationId, f.documentId, data),
      ...(changed ? [draft('comment_annotation.status_change', f.organizationId, f.documentId, data)] : []),
    ];
  });
  return [...users, ...threads, ...comments];
}

export const threadsDeleted = (organizationId: string, documentId: string, ids: readonly string[]): EventDraft[] =>
  ids.map((annotationId) => draft('comment_annotation.delete', organizationId, documentId, json({ annotationId })));

/** commentannotations/read: the user's read marks (the threads named, or all of the document's). */
export const threadsRead = (
  organizationId: string,
  documentId: string,
  userId: string,
  annotationIds: readonly string[] | null,
): EventDraft => ({
  ...draft(
    'comment_annotation.read',
    organizationId,
    documentId,
    json(annotationIds ? { userId, annotationIds: once(annotationIds) } : { userId, all: true }),
  ),
  // One user's read marks: an end-user stream carries them to that user only.
  audience: { users: [userId], wide: false },
});

/** comments/add: the comments appended, from their stored answers. */
export const commentsAdded = (organizationId: string, documentId: string, seen: Seen): EventDraft[] =>
  seen.appended
    ? eventCommentsOf(seen.appended.comments, seen.appended.annotationId).map((data) =>
        draft('comment.add', organizationId, documentId, data),
      )
    : [];

/** comments/update: each comment changed, read back as comments/get shows it. */
export function* commentsUpdated(tenantId: string, thread: ThreadRef, commentIds: readonly number[]): Work<EventDraft[]> {
  if (commentIds.length === 0) return [];
  const read = yield* queried(commentsRead(tenantId, { ...thread, userIds: null, commentIds: [...commentIds] }));
  return read.map((c) =>
    draft('comment.update', thread.organizationId, thread.documentId, eventCommentJson(c, thread.annotationId)),
  );
}

export const commentsDeleted = (thread: ThreadRef, commentIds: readonly number[]): EventDraft[] =>
  commentIds.map((commentId) =>
    draft('comment.delete', thread.organizationId, thread.documentId, json({ annotationId: thread.annotationId, commentId })),
  );

// --- Users and groups ---

/** users/add and users/update: each user named that has a profile, as users/get shows it. */
export function* usersWritten(
  type: 'user.add' | 'user.update',
  tenantId: string,
  organizationId: string,
  scope: Scope,
  userIds: readonly string[],
): Work<EventDraft[]> {
  if (userIds.length === 0) return [];
  const found = yield* profiles(tenantId, organizationId, [...userIds]);
  const documentId = scope?.kind === 'document' ? scope.id : null;
  return userIds.flatMap((userId) => {
    const p = found.get(userId);
    return p ? [draft(type, organizationId, documentId, json(shownMember(p)))] : [];
  });
}

/** users/delete: each user removed (with a document or folder, only from it: the data says which). */
export const usersDeleted = (organizationId: string, scope: Scope, userIds: Iterable<string>): EventDraft[] =>
  [...userIds].map((userId) =>
    draft(
      'user.delete',
      organizationId,
      scope?.kind === 'document' ? scope.id : null,
      json(scope ? { userId, [scope.kind === 'document' ? 'documentId' : 'folderId']: scope.id } : { userId }),
    ),
  );

export const groupsAdded = (organizationId: string, groups: readonly { groupId: string; name: string | null }[]): EventDraft[] =>
  groups.map((g) =>
    draft(
      'organization.usergroup_add',
      organizationId,
      null,
      json(g.name !== null ? { organizationUserGroupId: g.groupId, groupName: g.name } : { organizationUserGroupId: g.groupId }),
    ),
  );

export const groupMembersChanged = (
  type: 'organization.usergroup_users_add' | 'organization.usergroup_users_delete',
  organizationId: string,
  groupId: string,
  userIds: readonly string[],
): EventDraft[] =>
  userIds.length === 0
    ? []
    : [draft(type, organizationId, null, json({ organizationUserGroupId: groupId, userIds: once(userIds) }))];

// --- Organizations, documents, folders ---

/** Each organization named, as organizations/get shows it now. */
export function* organizationsWritten(
  type: 'organization.add' | 'organization.update',
  tenantId: string,
  ids: readonly string[],
): Work<EventDraft[]> {
  const events: EventDraft[] = [];
  for (const chunk of chunks(once(ids))) {
    const read = new Map((yield* organizationsPage(tenantId, chunk, null, CHUNK)).map((o) => [o.organizationId, o]));
    for (const id of chunk) {
      const o = read.get(id);
      if (o) events.push(draft(type, id, null, json(shownOrganization(o))));
    }
  }
  return events;
}

/** organizations/delete: recorded after the deletion, under the organization (whose events are kept). */
export const organizationsDeleted = (ids: Iterable<string>): EventDraft[] =>
  [...ids].map((organizationId) => draft('organization.delete', organizationId, null, json({ organizationId })));

/** Each document named, as organizations/documents/get shows it now. */
export function* documentsWritten(
  type: 'document.add' | 'document.update',
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
): Work<EventDraft[]> {
  const events: EventDraft[] = [];
  for (const chunk of chunks(once(ids))) {
    const query = { organizationId, documentIds: chunk, folder: undefined, after: null, limit: CHUNK };
    const read = new Map((yield* documentsPage(tenantId, query)).map((d) => [d.documentId, d]));
    for (const id of chunk) {
      const d = read.get(id);
      if (d) events.push(draft(type, organizationId, id, json(shownDocument(d))));
    }
  }
  return events;
}

export const documentsDeleted = (organizationId: string, ids: Iterable<string>): EventDraft[] =>
  [...ids].map((documentId) => draft('document.delete', organizationId, documentId, json({ documentId })));

/** Each folder named, as organizations/folders/get shows it in its flat list now. */
export function* foldersWritten(
  type: 'folder.add' | 'folder.update',
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
): Work<EventDraft[]> {
  if (ids.length === 0) return [];
  const read = new Map((yield* allFolders(tenantId, organizationId)).map((f) => [f.folderId, f]));
  return once(ids).flatMap((id) => {
    const f = read.get(id);
    return f ? [draft(type, organizationId, null, json(shownFolder(f, organizationId)))] : [];
  });
}

/** folders/delete: every folder that went, the subfolders of those named included. */
export const foldersDeleted = (organizationId: string, seen: Seen): EventDraft[] =>
  once(seen.foldersRemoved).map((folderId) => draft('folder.delete', organizationId, null, json({ folderId })));

// --- Live state ---

/** livestate/broadcast: the state after the change. Streams carry it by document access, as a thread's events. */
export const liveStateBroadcast = (
  organizationId: string,
  documentId: string,
  state: LiveStateRecord,
  merge: boolean,
): EventDraft => draft('livestate.broadcast', organizationId, documentId, eventLiveStateJson(state, merge));
