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
import { verifiedRecipients } from './verify-user-permissions.js';

// /v2's: the template may be absent with isNotificationResolverUsed (v1's schema requires it).
type AddNotificationInput = NotificationsAddV2Data;
type GetNotificationsInput = NotificationsGetData;

export function addNotification(services: Services, caller: Caller, input: AddNotificationInput) {
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
  // A user listed twice is notified once.
  const listed = [...new Set((input.notifyUsers ?? []).map((u) => u.userId))];
  return then(verifiedRecipients(services, caller, input, listed), (verified) =>
    addTo(services, caller, input, resolverUsed, verified ?? listed, verified !== null),
  );
}

/** The notification written, to `userIds`; `verified`: they are all it reaches, whatever notifyAll says. */
function addTo(
  { store, clock }: Services,
  caller: Caller,
  input: AddNotificationInput,
  resolverUsed: boolean,
  userIds: readonly string[],
  verified: boolean,
) {
  const notificationId = input.notificationId ?? newNotificationId();
  // Internal ids are derived here, once, so reads need not hash.
  const recipients = userIds.map((userId) => ({ userId, internalId: internalUserId(caller.id, input.organizationId, userId) }));
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
    // listed. With verifyUserPermissions, the recipients found are everyone it reaches: never the whole organization.
    notifyAll: verified ? false : (input.notifyAll ?? recipients.length === 0),
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
  if (input.archived != null && input.userId == null) throw invalid(`${spell(['archived'])} needs ${spell(['userId'])}.`);
  const filters = {
    organizationId: input.organizationId,
    documentId: orNull(input.documentId),
    userId: orNull(input.userId),
    locationId: orNull(input.locationId),
    notificationIds: filterList(input.notificationIds),
    unread: orNull(input.unread),
    // Absent is false: a user's reads hide what they archived (docs/api.md, "archived"); null shows both.
    archived: input.archived === undefined ? false : input.archived,
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
      ...(filters.archived === false ? [] : [`archived:${filters.archived}`]),
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
