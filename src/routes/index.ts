// Every /v1 operation, one module each; app.ts registers them inside the authenticated scope.
import type { App } from '../http/types.js';
import type { Services } from '../services/context.js';
import * as commentAnnotationsAdd from './v1_commentannotations_add.js';
import * as annotationsCount from './v1_commentannotations_count_get.js';
import * as annotationsDelete from './v1_commentannotations_delete.js';
import * as annotationsGet from './v1_commentannotations_get.js';
import * as annotationsRead from './v1_commentannotations_read.js';
import * as annotationsUpdate from './v1_commentannotations_update.js';
import * as commentsAdd from './v1_commentannotations_comments_add.js';
import * as commentsDelete from './v1_commentannotations_comments_delete.js';
import * as commentsGet from './v1_commentannotations_comments_get.js';
import * as commentsUpdate from './v1_commentannotations_comments_update.js';
import * as notificationsAdd from './v1_notifications_add.js';
import * as notificationsGet from './v1_notifications_get.js';
import * as notificationsUpdate from './v1_notifications_update.js';
import * as notificationsDelete from './v1_notifications_delete.js';
import * as notificationsCount from './v1_notifications_count_get.js';
import * as notificationsRead from './v1_notifications_read.js';
import * as notificationConfigGet from './v1_notifications_config_get.js';
import * as notificationConfigSet from './v1_notifications_config_set.js';
import * as organizationsAdd from './v1_organizations_add.js';
import * as organizationsGet from './v1_organizations_get.js';
import * as organizationsUpdate from './v1_organizations_update.js';
import * as usersAdd from './v1_users_add.js';
import * as usersUpdate from './v1_users_update.js';

export interface Operation {
  path: string;
  register(app: App, services: Services): void;
}

export const OPERATIONS: readonly Operation[] = [
  usersAdd,
  usersUpdate,
  commentAnnotationsAdd,
  annotationsGet,
  annotationsUpdate,
  annotationsDelete,
  annotationsCount,
  annotationsRead,
  commentsAdd,
  commentsGet,
  commentsUpdate,
  commentsDelete,
  notificationsAdd,
  notificationsGet,
  notificationsUpdate,
  notificationsDelete,
  notificationsCount,
  notificationsRead,
  notificationConfigGet,
  notificationConfigSet,
  organizationsAdd,
  organizationsGet,
  organizationsUpdate,
];
