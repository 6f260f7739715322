// Notifications, a user's inbox and its settings.
import { confirmedBy } from '../http/auth.js';
import { sendSuccessJson, success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import * as endUsers from '../services/end-user-rules.js';
import { addNotification, getNotifications } from '../services/notifications.js';
import {
  archiveNotifications,
  countNotifications,
  deleteNotifications,
  markNotificationsRead,
  unarchiveNotifications,
  updateNotifications,
} from '../services/inbox.js';
import { getNotificationConfig, setNotificationConfig } from '../services/notification-settings.js';

/** Notifications, a user's inbox and its settings. */
export const notifications = [
  operation(CONTRACT.notificationsAdd, {
    run: addNotification,
    answer: 'Notification added successfully.',
  }),
  operation(CONTRACT.notificationsGet, {
    config: { confirmsCredentials: true },
    run: getNotifications,
    endUser: endUsers.notificationsGet,
    answer: (got, request, reply) => {
      confirmedBy(request, got.credentialsVersion);
      return sendSuccessJson(
        reply,
        'Notification(s) retrieved successfully.',
        got.notificationsJson,
        pageTokenOf(got.nextPageToken),
      );
    },
  }),
  operation(CONTRACT.notificationsUpdate, {
    run: updateNotifications,
    endUser: endUsers.notificationsUpdate,
    answer: 'Notification(s) updated successfully.',
  }),
  operation(CONTRACT.notificationsDelete, {
    run: deleteNotifications,
    answer: 'Notification(s) deleted successfully.',
  }),
  operation(CONTRACT.notificationsCount, {
    config: { confirmsCredentials: true },
    run: countNotifications,
    endUser: endUsers.notificationsCount,
    answer: (got, request) => {
      confirmedBy(request, got.credentialsVersion);
      return success('Notification count retrieved successfully.', got.data);
    },
  }),
  operation(CONTRACT.notificationsRead, {
    run: markNotificationsRead,
    endUser: endUsers.notificationsRead,
    answer: 'Notification(s) marked read.',
  }),
  operation(CONTRACT.notificationsArchive, {
    run: archiveNotifications,
    endUser: endUsers.notificationsArchive,
    answer: 'Notification(s) archived.',
  }),
  operation(CONTRACT.notificationsUnarchive, {
    run: unarchiveNotifications,
    endUser: endUsers.notificationsUnarchive,
    answer: 'Notification(s) unarchived.',
  }),
  operation(CONTRACT.notificationsConfigGet, {
    run: getNotificationConfig,
    answer: 'User config fetched successfully.',
  }),
  operation(CONTRACT.notificationsConfigSet, {
    run: setNotificationConfig,
    answer: 'User config set successfully.',
  }),
];
