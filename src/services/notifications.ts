// notifications/add and notifications/get (docs/api.md, "Notifications").
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { NotificationsAddV2Data, NotificationsGetData } from '../schemas/notifications.js';
import type { Caller, Services } from './context.js';
import { internalUserId, newNotificationId } from '../domain/ids.js';
import { newNotificationAnswer, pageAnswer } from '../domain/answers/notifications.js';
import { asSet, decodePageToken, DEFAULT_PAGE_SIZE, encodePageToken, filterDigest } from './page-token.js';
import { spell } from './member-path.js';
import type { Profiles } from './profiles.js';
import { filterList, orNull } from './rules.js';
import { usersWithAccess } from './verified-users.js';

// /v2's: the template may be absent with isNotificationResolverUsed (v1's schema requires it).
type AddNotificationInput = NotificationsAddV2Data;
type GetNotificationsInput = NotificationsGetData;

export function addNotification(services: Services, caller: Caller, input: AddNotificationInput): Maybe<NotificationAdded> {
  if (input.verifyUserPermissions && input.documentId != null) return addVerified(services, caller, input, input.documentId);
  const { store, clock } = services;
  if (input.notifyAll === false && (input.notifyUsers ?? []).length === 0) {
    throw invalid(
      `${spell(['notifyAll'])} is false and ${spell(['notifyUsers'])} lists nobody: the notification would reach no one.`,
    );
  }
  const resolverUsed = input.isNotificationResolverUsed === true;
  if (input.displayHeadlineMessageTemplate == null && !resolverUsed)
    throw invalid(
      `${spell(['displayHeadlineMessageTemplate'])} is required unless ${spell(['isNotificationResolverUsed'])} is true.`,
    );
  const notificationId = input.notificationId ?? newNotificationId();
  // A user listed twice is notified once. Internal ids are derived here, once, so reads need not hash.
  const listed = input.notifyUsers ?? [];
  const recipients = [...new Set(listed.map((u) => u.userId))].map((userId) => ({
    userId,
    internalId: internalUserId(caller.id, input.organizationId, userId),
  }));
  const notification = {
    notificationId,
    documentId: orNull(input.documentId),
    locationId: orNull(input.locationId),
    actionUser: { userId: input.actionUser.userId, name: orNull(input.actionUser.name), email: orNull(input.actionUser.email) },
    headlineTemplate: input.displayHeadlineMessageTemplate ?? '',
    headlineData: input.displayHeadlineMessageTemplateData ?? {},
    bodyMessage: input.displayBodyMessage ?? '',
    sourceData: input.notificationSourceData ?? {},
    timestamp: clock(),
    recipients,
    // docs/api.md "Addressing and read state": addressed to the whole organization when asked, or when nobody is
    // listed.
    notifyAll: input.notifyAll ?? recipients.length === 0,
    source: input.notificationSource ?? 'custom',
    context: input.context != null ? JSON.stringify(input.context) : null,
    resolverUsed,
  };
  // The answer is rendered once, here, rather than on every read.
  const adding = store.addNotification(caller.id, input.organizationId, {
    ...notification,
    answer: newNotificationAnswer(notification),
  });
  return then(adding, (added) => {
    if (!added) {
      throw new ApiError(
        'ALREADY_EXISTS',
        `Notification ${notificationId} already exists in organization ${input.organizationId}.`,
      );
    }
    return { success: true as const, id: notificationId, message: 'Notification added successfully.' as const };
  });
}

type NotificationAdded = { success: true; id: string; message: 'Notification added successfully.' };

/**
 * verifyUserPermissions (docs/decisions.md): the action user must be able to read the document (else 403, nothing
 * written), and the listed recipients who cannot are left out; when none is left, 403 rather than a notification
 * to nobody, or, worse, to the whole organization (no list means everyone).
 */
function addVerified(services: Services, caller: Caller, input: AddNotificationInput, documentId: string) {
  const listed = (input.notifyUsers ?? []).map((u) => u.userId);
  const asked = [input.actionUser.userId, ...listed];
  return then(usersWithAccess(services, caller, input.organizationId, documentId, asked, 'read'), (kept) => {
    if (!kept.has(input.actionUser.userId))
      throw new ApiError('PERMISSION_DENIED', `verifyUserPermissions: the action user may not read document ${documentId}.`, {
        details: { documentId, refused: [{ at: 'data.actionUser', userId: input.actionUser.userId }] },
      });
    const notifyUsers = (input.notifyUsers ?? []).filter((u) => kept.has(u.userId));
    if (listed.length > 0 && notifyUsers.length === 0)
      throw new ApiError('PERMISSION_DENIED', `verifyUserPermissions: no user listed may read document ${documentId}.`, {
        details: { documentId, refused: listed.map((userId) => ({ userId })) },
      });
    // What `notifyAll` meant as asked stays: the list left must not turn into "everyone".
    const notifyAll = input.notifyAll ?? listed.length === 0;
    return addNotification(services, caller, { ...input, notifyUsers, notifyAll, verifyUserPermissions: false });
  });
}

/**
 * notifications/get's data (the page, as JSON text), the token of the next page, if any, and the
 * credentials version the read saw (none when it found no notification).
 */
export function getNotifications(
  { store, profiles }: Services,
  caller: Caller,
  input: GetNotificationsInput,
): Maybe<{ notificationsJson: string; nextPageToken: string | null; credentialsVersion: number | undefined }> {
  if (input.documentId == null && input.userId == null)
    throw invalid(`${spell(['documentId'])} or ${spell(['userId'])} is required.`);
  if (input.unread != null && input.userId == null) throw invalid(`${spell(['unread'])} needs ${spell(['userId'])}.`);
  const filters = {
    organizationId: input.organizationId,
    documentId: orNull(input.documentId),
    userId: orNull(input.userId),
    locationId: orNull(input.locationId),
    notificationIds: filterList(input.notificationIds),
    unread: orNull(input.unread),
  };
  const ascending = input.order === 'asc';
  // The digest binds page tokens to their filters; most reads neither bring nor need a token.
  const digest = () =>
    filterDigest([
      filters.organizationId,
      filters.documentId,
      filters.userId,
      filters.locationId,
      asSet(filters.notificationIds),
      // Appended only when given, so the tokens of reads without them stay as they were.
      ...(filters.unread === null ? [] : [filters.unread]),
      ...(ascending ? ['asc'] : []),
    ]);
  const after = input.pageToken != null ? decodePageToken(input.pageToken, digest()) : null;
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  return then(store.getNotifications(caller.id, { ...filters, ascending, after, limit: pageSize + 1 }), (rows) => {
    const page = rows.length > pageSize ? rows.slice(0, pageSize) : rows;
    const last = page[page.length - 1];
    const nextPageToken =
      rows.length > pageSize && last
        ? encodePageToken({ timestamp: last.timestamp, notificationId: last.notificationId }, digest())
        : null;
    const answer = pageAnswer(caller, input.organizationId, page, (userId) =>
      internalUserId(caller.id, input.organizationId, userId),
    );
    const credentialsVersion = rows[0]?.credentialsVersion;
    const render = (shown: Profiles) => ({ notificationsJson: answer.render(shown), nextPageToken, credentialsVersion });
    // The action users and the users template data names, from the profiles held for the read's version.
    const users = page.map((n) => n.actionUser.userId).concat(answer.users);
    return then(profiles.forRows(caller.id, input.organizationId, page, users), render);
  });
}
