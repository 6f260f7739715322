// Notifications, their read state, counts and settings.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type {
  ChangeSource,
  InboxCount,
  NewNotification,
  NotificationChange,
  NotificationDeletion,
  NotificationQuery,
  NotificationSetting,
  Recipient,
  StoredNotification,
} from '../../domain/notifications.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { emit } from '../events/emit.js';
import {
  deletionAudiences,
  notificationsArchived,
  notificationsChanged,
  notificationsDeleted,
  notificationsRead,
  settingsSet,
  type RenderedChanges,
} from './events.js';
import * as notifications from './notifications.js';

export const notificationsStore = (core: StoreCore) => ({
  /** Returns false when the notificationId is taken in the organization. */
  addNotification(tenantId: string, organizationId: string, notification: NewNotification): Maybe<boolean> {
    return core.emitting('addNotification', tenantId, notification.timestamp, () =>
      notifications.add(
        tenantId,
        organizationId,
        notification,
        core.options.inboxAnswerCopies ?? notifications.DEFAULT_INBOX_ANSWER_COPIES,
      ),
    );
  },

  getNotifications(tenantId: string, query: NotificationQuery): Maybe<StoredNotification[]> {
    return core.query('getNotifications', notifications.read(tenantId, query));
  },

  /** notifications/update in one transaction; answers the ids that exist. */
  changeNotifications(
    tenantId: string,
    organizationId: string,
    changes: readonly NotificationChange[],
    render: (row: ChangeSource, change: NotificationChange) => { answer: string; row: ChangeSource },
    now: number,
  ): Maybe<Set<string>> {
    return core.emitting('changeNotifications', tenantId, now, function* () {
      // What render made of each notification whose content changed: their events carry the new answer.
      const rendered: RenderedChanges = new Map();
      const found = yield* notifications.change(tenantId, organizationId, changes, (row, change) => {
        const out = render(row, change);
        rendered.set(change.id, out);
        return out;
      });
      yield* emit(notificationsChanged(organizationId, changes, rendered, found));
      return found;
    });
  },

  /** The document of each notification named that exists (null: the organization's), by notificationId. */
  notificationDocuments(tenantId: string, organizationId: string, ids: readonly string[]): Maybe<Map<string, string | null>> {
    return core.read('notificationDocuments', () => notifications.documentsOf(tenantId, organizationId, ids));
  },

  /** Deletes the notifications named or matched, for everyone; answers the ids deleted. */
  deleteNotifications(tenantId: string, query: NotificationDeletion, now: number): Maybe<string[]> {
    return core.emitting('deleteNotifications', tenantId, now, function* () {
      // Whom each was addressed to, read first: the delete leaves nothing to read it from.
      const audiences = yield* deletionAudiences(tenantId, query);
      const deleted = yield* notifications.remove(tenantId, query);
      yield* emit(notificationsDeleted(query.organizationId, deleted, audiences));
      return deleted;
    });
  },

  countNotifications(tenantId: string, organizationId: string, userId: string, documentId: string | null): Maybe<InboxCount> {
    return core.query('countNotifications', notifications.count(tenantId, organizationId, userId, documentId));
  },

  /** notifications/read: answers how many were newly marked read. */
  markNotificationsRead(
    tenantId: string,
    organizationId: string,
    user: Recipient,
    documentId: string | null,
    notificationIds: string[] | null,
    now: number,
  ): Maybe<number> {
    return core.emitting(
      'markNotificationsRead',
      tenantId,
      now,
      () => notifications.markRead(tenantId, organizationId, user, documentId, notificationIds),
      (read) => (read > 0 ? [notificationsRead(organizationId, user.userId, documentId, notificationIds)] : []),
    );
  },

  /** notifications/archive: the ids named, or null for everything the user has read; answers how many changed. */
  archiveNotifications(
    tenantId: string,
    organizationId: string,
    userId: string,
    notificationIds: string[] | null,
    now: number,
  ): Maybe<number> {
    return core.emitting(
      'archiveNotifications',
      tenantId,
      now,
      () => notifications.archive(tenantId, organizationId, userId, notificationIds),
      (n) => (n > 0 ? [notificationsArchived(organizationId, userId, notificationIds, true)] : []),
    );
  },

  /** notifications/unarchive: answers how many of the ids named changed. */
  unarchiveNotifications(
    tenantId: string,
    organizationId: string,
    userId: string,
    notificationIds: string[],
    now: number,
  ): Maybe<number> {
    return core.emitting(
      'unarchiveNotifications',
      tenantId,
      now,
      () => notifications.unarchive(tenantId, organizationId, userId, notificationIds),
      (n) => (n > 0 ? [notificationsArchived(organizationId, userId, notificationIds, false)] : []),
    );
  },

  notificationSettings(
    tenantId: string,
    organizationId: string,
    userId: string,
    documentIds: readonly string[],
  ): Maybe<Map<string, NotificationSetting>> {
    return core.read('notificationSettings', () => notifications.settingsOf(tenantId, organizationId, userId, documentIds));
  },

  setNotificationSettings(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    userIds: readonly string[],
    setting: Partial<NotificationSetting>,
    now: number,
  ): Maybe<void> {
    return core.emitting(
      'setNotificationSettings',
      tenantId,
      now,
      () => notifications.setSettings(tenantId, organizationId, documentIds, userIds, setting),
      () => settingsSet(organizationId, documentIds, userIds, setting),
    );
  },
});

export type NotificationsStore = ReturnType<typeof notificationsStore>;
