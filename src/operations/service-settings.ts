// The workspace's service settings (/v2 only): email, notification and permission provider, with the
// messages their pages document.
import { CONTRACT } from '../schemas/operations/index.js';
import {
  getEmailConfig,
  getNotificationServiceConfig,
  getPermissionProviderConfig,
  updateEmailConfig,
  updateNotificationServiceConfig,
  updatePermissionProviderConfig,
} from '../services/service-settings.js';
import { operation } from './operation.js';

/** The workspace's service settings. */
export const serviceSettings = [
  operation(CONTRACT.emailConfigGet, { run: getEmailConfig, answer: 'Email configuration retrieved successfully.' }),
  operation(CONTRACT.emailConfigUpdate, { run: updateEmailConfig, answer: 'Email configuration updated successfully.' }),
  operation(CONTRACT.notificationConfigGet, {
    run: getNotificationServiceConfig,
    answer: 'Notification configuration retrieved successfully.',
  }),
  operation(CONTRACT.notificationConfigUpdate, {
    run: updateNotificationServiceConfig,
    answer: 'Notification configuration updated successfully.',
  }),
  operation(CONTRACT.permissionProviderConfigGet, {
    run: getPermissionProviderConfig,
    answer: 'Permission provider configuration retrieved successfully.',
  }),
  // Its page prints the message alone: no data (get reads the setting back; docs/decisions.md).
  operation(CONTRACT.permissionProviderConfigUpdate, {
    run: updatePermissionProviderConfig,
    answer: () => ({ result: { status: 'success', message: 'Permission provider configuration updated successfully.' } }),
  }),
];
