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
import * as organizationsDisable from './v1_organizations_access_disablestate_update.js';
import * as organizationsAdd from './v1_organizations_add.js';
import * as organizationsDelete from './v1_organizations_delete.js';
import * as organizationsGet from './v1_organizations_get.js';
import * as organizationsUpdate from './v1_organizations_update.js';
import * as documentsAdd from './v1_organizations_documents_add.js';
import * as documentsGet from './v1_organizations_documents_get.js';
import * as documentsUpdate from './v1_organizations_documents_update.js';
import * as documentsDelete from './v1_organizations_documents_delete.js';
import * as documentsMove from './v1_organizations_documents_move.js';
import * as documentsAccess from './v1_organizations_documents_access_update.js';
import * as documentsDisable from './v1_organizations_documents_access_disablestate_update.js';
import * as foldersAdd from './v1_organizations_folders_add.js';
import * as foldersGet from './v1_organizations_folders_get.js';
import * as foldersUpdate from './v1_organizations_folders_update.js';
import * as foldersDelete from './v1_organizations_folders_delete.js';
import * as foldersAccess from './v1_organizations_folders_access_update.js';
import * as usersAdd from './v1_users_add.js';
import * as usersUpdate from './v1_users_update.js';
import * as usersGet from './v1_users_get.js';
import * as usersDelete from './v1_users_delete.js';
import * as userGroupsAdd from './v1_organizations_usergroups_add.js';
import * as groupUsersAdd from './v1_organizations_usergroups_users_add.js';
import * as groupUsersDelete from './v1_organizations_usergroups_users_delete.js';
import * as userDataGet from './v1_users_data_get.js';
import * as userDataDelete from './v1_users_data_delete.js';
import * as userDataStatus from './v1_users_data_delete_status.js';
import * as locationsUpdate from './v1_organizations_documents_locations_update.js';
import * as locationDataDelete from './v1_organizations_documents_locations_data_delete.js';
import * as authTokenGet from './v1_auth_token_get.js';
import * as webhooksAdd from './v1_webhooks_add.js';
import * as webhooksGet from './v1_webhooks_get.js';
import * as webhooksDelete from './v1_webhooks_delete.js';
import * as webhookDeliveriesGet from './v1_webhooks_deliveries_get.js';
import * as domainsAdd from './v1_workspace_domains_add.js';
import * as domainsDelete from './v1_workspace_domains_delete.js';
import * as liveStateBroadcast from './v1_livestate_broadcast.js';
import * as liveStateGet from './v1_livestate_get.js';

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
  usersGet,
  usersDelete,
  userGroupsAdd,
  groupUsersAdd,
  groupUsersDelete,
  userDataGet,
  userDataDelete,
  userDataStatus,
  documentsAdd,
  documentsGet,
  documentsUpdate,
  documentsDelete,
  documentsMove,
  documentsAccess,
  documentsDisable,
  foldersAdd,
  foldersGet,
  foldersUpdate,
  foldersDelete,
  foldersAccess,
  organizationsDelete,
  organizationsDisable,
  locationsUpdate,
  locationDataDelete,
  authTokenGet,
  webhooksAdd,
  webhooksGet,
  webhooksDelete,
  webhookDeliveriesGet,
  domainsAdd,
  domainsDelete,
  liveStateBroadcast,
  liveStateGet,
];
