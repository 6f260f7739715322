// Notifications, a user's inbox and its settings.
import { confirmedBy } from '../http/auth.js';
import { sendSuccessJson, success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import {
  NotificationConfigGetBody,
  NotificationConfigSetBody,
  NotificationsAddBody,
  NotificationsCountBody,
  NotificationsDeleteBody,
  NotificationsGetBody,
  NotificationsReadBody,
  NotificationsUpdateBody,
} from '../schemas/notifications.js';
import {
  NotificationAddedResult,
  NotificationChangesResult,
  NotificationConfigResult,
  NotificationConfigSetResult,
  NotificationCountResult,
  NotificationsMarkedResult,
  NotificationsResult,
  answers,
} from '../schemas/responses.js';
import { addNotification, getNotifications } from '../services/notifications.js';
import { countNotifications, deleteNotifications, markNotificationsRead, updateNotifications } from '../services/inbox.js';
import { getNotificationConfig, setNotificationConfig } from '../services/notification-settings.js';

/** Notifications, a user's inbox and its settings. */
export const notifications = [
  operation({
    paths: { v1: 'notifications/add' },
    summary: 'Add a notification for one or more recipients',
    tags: ['notifications'],
    body: NotificationsAddBody,
    response: answers(NotificationAddedResult, [409]),
    run: addNotification,
    answer: 'Notification added successfully.',
  }),
  operation({
    paths: { v1: 'notifications/get' },
    config: { confirmsCredentials: true },
    summary: 'Get notifications by document or recipient, newest first, with paging',
    tags: ['notifications'],
    body: NotificationsGetBody,
    response: answers(NotificationsResult),
    run: getNotifications,
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
  operation({
    paths: { v1: 'notifications/update' },
    summary: 'Change notifications: read and unread marks, and content (SPEC 11.3)',
    tags: ['notifications'],
    body: NotificationsUpdateBody,
    response: answers(NotificationChangesResult),
    run: updateNotifications,
    answer: 'Notification(s) updated successfully.',
  }),
  operation({
    paths: { v1: 'notifications/delete' },
    summary: 'Delete the notifications the filters match, for every recipient (SPEC 11.4)',
    tags: ['notifications'],
    body: NotificationsDeleteBody,
    response: answers(NotificationChangesResult),
    run: deleteNotifications,
    answer: 'Notification(s) deleted successfully.',
  }),
  operation({
    paths: { v1: 'notifications/count/get' },
    config: { confirmsCredentials: true },
    summary: "Count a user's notifications, and those unread (SPEC 11.5)",
    tags: ['notifications'],
    body: NotificationsCountBody,
    response: answers(NotificationCountResult),
    run: countNotifications,
    answer: (got, request) => {
      confirmedBy(request, got.credentialsVersion);
      return success('Notification count retrieved successfully.', got.data);
    },
  }),
  operation({
    paths: { v1: 'notifications/read' },
    summary: "Mark a user's notifications read: all, a document's, or those named (SPEC 11.5)",
    tags: ['notifications'],
    body: NotificationsReadBody,
    response: answers(NotificationsMarkedResult),
    run: markNotificationsRead,
    answer: 'Notification(s) marked read.',
  }),
  operation({
    paths: { v1: 'notifications/config/get' },
    summary: "A user's inbox and email settings per document (SPEC 11.6)",
    tags: ['notifications'],
    body: NotificationConfigGetBody,
    response: answers(NotificationConfigResult),
    run: getNotificationConfig,
    answer: 'User config fetched successfully.',
  }),
  operation({
    paths: { v1: 'notifications/config/set' },
    summary: "Set users' inbox and email settings for documents (SPEC 11.6)",
    tags: ['notifications'],
    body: NotificationConfigSetBody,
    response: answers(NotificationConfigSetResult),
    run: setNotificationConfig,
    answer: 'User config set successfully.',
  }),
];
