// A user's inbox beyond reading it (docs/api.md, "Notifications"): change and delete notifications, count them,
// mark them read.
import { answerOfSource } from '../domain/answers/notifications.js';
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type {
  NotificationsArchiveData,
  NotificationsCountData,
  NotificationsDeleteData,
  NotificationsReadData,
  NotificationsUnarchiveData,
  NotificationsUpdateData,
} from '../schemas/notifications.js';
import type { ChangeSource, NotificationChange } from '../domain/notifications.js';
import type { Caller, Services } from './context.js';
import { internalUserId } from '../domain/ids.js';
import { spell } from './member-path.js';
import { filterList, keyedOutcomes, orNull } from './rules.js';
import { verifiedMarks } from './verify-user-permissions.js';

const UPDATED = { success: true, message: 'Notification updated.' } as const;
const NOT_UPDATED = { success: false, message: 'Failed to update notification.' } as const;
const DELETED = { success: true, message: 'Notification deleted.' } as const;
const NOT_DELETED = { success: false, message: 'Failed to delete notification.' } as const;

/**
 * notifications/update (docs/api.md, "POST /v1/notifications/update"): content changes and read marks, all in one
 * transaction.
 */
export function updateNotifications(services: Services, caller: Caller, input: NotificationsUpdateData) {
  const { store, limits, clock } = services;
  const org = input.organizationId;
  const marks = input.notifications.reduce((n, x) => n + (x.readByUserIds?.length ?? 0) + (x.unreadByUserIds?.length ?? 0), 0);
  if (marks > limits.maxMarksPerRequest) {
    throw invalid(
      `The entries of ${spell(['notifications'])} name ${marks} read and unread user ids; one request marks at most ` +
        `${limits.maxMarksPerRequest} (MARGINALIA_MAX_MARKS_PER_REQUEST).`,
    );
  }
  const changes: NotificationChange[] = input.notifications.map((n, i) => {
    const readBy = [...new Set(n.readByUserIds ?? [])];
    const unreadBy = new Set(n.unreadByUserIds ?? []);
    const both = readBy.find((u) => unreadBy.has(u));
    if (both !== undefined) {
      const [read, unread] = (['readByUserIds', 'unreadByUserIds'] as const).map((m) => spell(['notifications', i, m]));
      throw invalid(`${read} and ${unread} both name ${JSON.stringify(both)}.`);
    }
    const content = {
      ...(n.actionUser != null && {
        actionUser: { userId: n.actionUser.userId, name: orNull(n.actionUser.name), email: orNull(n.actionUser.email) },
      }),
      ...(n.displayHeadlineMessageTemplate != null && { headlineTemplate: n.displayHeadlineMessageTemplate }),
      ...(n.displayHeadlineMessageTemplateData != null && { headlineData: n.displayHeadlineMessageTemplateData }),
      ...(n.displayBodyMessage != null && { bodyMessage: n.displayBodyMessage }),
      ...(n.notificationSourceData != null && { sourceData: n.notificationSourceData }),
    };
    return { id: n.id, readBy, unreadBy: [...unreadBy], content: Object.keys(content).length > 0 ? content : null };
  });
  const render = (row: ChangeSource, c: NotificationChange) => {
    const changed: ChangeSource = {
      ...row,
      actionUser: c.content?.actionUser ?? row.actionUser,
      headlineTemplate: c.content?.headlineTemplate ?? row.headlineTemplate,
      headlineData: c.content?.headlineData ? JSON.stringify(c.content.headlineData) : row.headlineData,
      bodyMessage: c.content?.bodyMessage ?? row.bodyMessage,
      sourceData: c.content?.sourceData ? JSON.stringify(c.content.sourceData) : row.sourceData,
    };
    return { answer: answerOfSource(changed), row: changed };
  };
  const verified = verifiedMarks(services, caller, org, changes, input.verifyUserPermissions);
  const written = then(verified, (kept) => store.changeNotifications(caller.id, org, kept, render, clock()));
  return then(written, (found) =>
    keyedOutcomes(
      changes.map((c) => c.id),
      [...found],
      (_id, success) => (success ? UPDATED : NOT_UPDATED),
    ),
  );
}

/** notifications/delete (docs/api.md, "POST /v1/notifications/delete"): what the filters match, for everyone. */
export function deleteNotifications({ store, clock }: Services, caller: Caller, input: NotificationsDeleteData) {
  const notificationIds = filterList(input.notificationIds);
  const filtered = input.documentId != null || input.locationId != null || input.userId != null;
  if (!filtered && notificationIds === null) {
    throw invalid(
      `At least one of ${['documentId', 'locationId', 'userId', 'notificationIds'].map((m) => spell([m])).join(', ')} is required.`,
    );
  }
  const deletion = {
    organizationId: input.organizationId,
    documentId: orNull(input.documentId),
    locationId: orNull(input.locationId),
    userId: orNull(input.userId),
    notificationIds,
  };
  return then(store.deleteNotifications(caller.id, deletion, clock()), (deleted) =>
    keyedOutcomes(notificationIds, deleted, (_id, success) => (success ? DELETED : NOT_DELETED)),
  );
}

/**
 * notifications/count/get (docs/api.md, "POST /v1/notifications/count/get"), from the counters the database keeps:
 * the user's inbox rows, and for a member the organization-wide notifications that do not list them.
 */
export function countNotifications({ store }: Services, caller: Caller, input: NotificationsCountData) {
  // Absent is false: what notifications/get shows by default (docs/api.md, "archived").
  const archived = input.archived === undefined ? false : input.archived;
  return then(store.countNotifications(caller.id, input.organizationId, input.userId, orNull(input.documentId)), (c) => {
    // Organization-wide notifications that do not list the user count only for a member.
    const wide = c.member ? c.wide - c.wideListed : 0;
    const wideUnread = c.member ? wide - c.wideRead : 0;
    const wideArchived = c.member ? c.wideArchived : 0;
    const wideArchivedUnread = c.member ? c.wideArchived - c.wideArchivedRead : 0;
    const all = { total: c.total + wide, unread: c.unread + wideUnread };
    const inArchive = { total: c.archived + wideArchived, unread: c.archivedUnread + wideArchivedUnread };
    const data =
      archived === null
        ? all
        : archived
          ? inArchive
          : { total: all.total - inArchive.total, unread: all.unread - inArchive.unread };
    return { data, credentialsVersion: c.credentialsVersion };
  });
}

/**
 * notifications/archive (docs/api.md, "POST /v1/notifications/archive"): hides notifications for the user alone,
 * those named or (allRead) every one they have read; answers how many were newly archived.
 */
export function archiveNotifications(
  { store, clock }: Services,
  caller: Caller,
  input: NotificationsArchiveData,
): Maybe<{ archived: number }> {
  const named = input.notificationIds != null;
  if (named === (input.allRead === true)) {
    throw invalid(`Exactly one of ${spell(['notificationIds'])} and ${spell(['allRead'])} (true) is required.`);
  }
  const ids = named ? [...new Set(input.notificationIds)] : null;
  return then(store.archiveNotifications(caller.id, input.organizationId, input.userId, ids, clock()), (archived) => ({
    archived,
  }));
}

/** notifications/unarchive (docs/api.md, "POST /v1/notifications/unarchive"): the notifications named, shown again. */
export function unarchiveNotifications(
  { store, clock }: Services,
  caller: Caller,
  input: NotificationsUnarchiveData,
): Maybe<{ unarchived: number }> {
  const ids = [...new Set(input.notificationIds)];
  return then(store.unarchiveNotifications(caller.id, input.organizationId, input.userId, ids, clock()), (unarchived) => ({
    unarchived,
  }));
}

/**
 * notifications/read (docs/api.md, "POST /v1/notifications/read"): marks what matches read by the user; answers how
 * many were newly marked.
 */
export function markNotificationsRead(
  { store, clock }: Services,
  caller: Caller,
  input: NotificationsReadData,
): Maybe<{ read: number }> {
  const user = { userId: input.userId, internalId: internalUserId(caller.id, input.organizationId, input.userId) };
  return then(
    store.markNotificationsRead(
      caller.id,
      input.organizationId,
      user,
      orNull(input.documentId),
      filterList(input.notificationIds),
      clock(),
    ),
    (read) => ({ read }),
  );
}
