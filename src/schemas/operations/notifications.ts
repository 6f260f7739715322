// Notifications, a user's inbox and its settings.
import {
  NotificationConfigGetBody,
  NotificationConfigGetV2Body,
  NotificationConfigSetBody,
  NotificationConfigSetV2Body,
  NotificationsAddBody,
  NotificationsAddV2Body,
  NotificationsCountBody,
  NotificationsDeleteBody,
  NotificationsGetBody,
  NotificationsReadBody,
  NotificationsUpdateBody,
} from '../notifications.js';
import {
  NotificationAddedResult,
  NotificationChangesResult,
  NotificationConfigResult,
  NotificationConfigSetResult,
  NotificationCountResult,
  NotificationsMarkedResult,
  NotificationsResult,
} from '../responses.js';
import { contract } from './contract.js';

export const notifications = {
  notificationsAdd: contract({
    paths: { v1: 'notifications/add', v2: 'notifications/add' },
    summary: 'Add a notification for one or more recipients',
    tags: ['notifications'],
    body: NotificationsAddBody,
    v2: { body: NotificationsAddV2Body },
    result: NotificationAddedResult,
    also: [409],
  }),
  notificationsGet: contract({
    paths: { v1: 'notifications/get', v2: 'notifications/get' },
    summary: 'Get notifications by document or recipient, newest first, with paging',
    tags: ['notifications'],
    body: NotificationsGetBody,
    result: NotificationsResult,
  }),
  notificationsUpdate: contract({
    paths: { v1: 'notifications/update', v2: 'notifications/update' },
    summary: 'Change notifications: read and unread marks, and content',
    tags: ['notifications'],
    body: NotificationsUpdateBody,
    result: NotificationChangesResult,
  }),
  notificationsDelete: contract({
    paths: { v1: 'notifications/delete', v2: 'notifications/delete' },
    summary: 'Delete the notifications the filters match, for every recipient',
    tags: ['notifications'],
    body: NotificationsDeleteBody,
    result: NotificationChangesResult,
  }),
  notificationsCount: contract({
    paths: { v1: 'notifications/count/get', v2: 'notifications/count/get' },
    summary: "Count a user's notifications, and those unread",
    tags: ['notifications'],
    body: NotificationsCountBody,
    result: NotificationCountResult,
  }),
  notificationsRead: contract({
    paths: { v1: 'notifications/read', v2: 'notifications/read' },
    summary: "Mark a user's notifications read: all, a document's, or those named",
    tags: ['notifications'],
    body: NotificationsReadBody,
    result: NotificationsMarkedResult,
  }),
  notificationsConfigGet: contract({
    paths: { v1: 'notifications/config/get', v2: 'notifications/config/get' },
    summary: "A user's inbox and email settings per document",
    tags: ['notifications'],
    body: NotificationConfigGetBody,
    v2: { body: NotificationConfigGetV2Body },
    result: NotificationConfigResult,
  }),
  notificationsConfigSet: contract({
    paths: { v1: 'notifications/config/set', v2: 'notifications/config/set' },
    summary: "Set users' inbox and email settings for documents",
    tags: ['notifications'],
    body: NotificationConfigSetBody,
    v2: { body: NotificationConfigSetV2Body },
    result: NotificationConfigSetResult,
  }),
};
