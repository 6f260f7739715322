// The events of notification writes (events/drafts.ts): rendered from what the write wrote.
import { eventNotificationJson } from '../../domain/answers/notifications.js';
import {
  type ChangeSource,
  type NotificationChange,
  type NotificationDeletion,
  type NotificationSetting,
  ORGANIZATION_LEVEL,
} from '../../domain/notifications.js';
import type { UserRef } from '../../domain/users.js';
import { chunks, draft, json, once } from '../events/drafts.js';
import type { Audience, EventDraft } from '../events/outbox.js';
import { all, list, type Work } from '../sql.js';
import { sourceFrom } from './notifications.js';
import { NOTIFICATIONS_SQL } from './sql.js';

/** A notification as its insert wrote it: what its event is rendered from. */
export interface WrittenNotification {
  documentId: string | null;
  answer: string;
  actionUser: UserRef;
  recipients: readonly { userId: string }[];
  notifyAll: boolean;
}

/** A notification's addressees: its listed users, and the whole organization when it is organization-wide. */
export const audienceOf = (n: Pick<WrittenNotification, 'recipients' | 'notifyAll'>): Audience => ({
  users: n.recipients.map((r) => r.userId),
  wide: n.notifyAll,
});

export function notificationAdded(organizationId: string, n: WrittenNotification): EventDraft {
  return draft('notification.add', organizationId, n.documentId, eventNotificationJson(n, organizationId), audienceOf(n));
}

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
 * them from), selected as notifications/remove selects (docs/api.md, "POST /v1/notifications/delete") and read with
 * the rows locked.
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

/**
 * notifications/archive and unarchive (docs/events.md): the user's own, like a read mark: the ids named, or
 * `{userId, allRead: true}` for an archive of everything read.
 */
export const notificationsArchived = (
  organizationId: string,
  userId: string,
  notificationIds: readonly string[] | null,
  archived: boolean,
): EventDraft =>
  draft(
    archived ? 'notification.archive' : 'notification.unarchive',
    organizationId,
    null,
    json(notificationIds ? { userId, notificationIds } : { userId, allRead: true }),
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
    draft(
      'notification.config_set',
      organizationId,
      // The organization-level setting is of no document.
      documentId === ORGANIZATION_LEVEL ? null : documentId,
      json({ userIds: users, config }),
      { users, wide: false },
    ),
  );
};
