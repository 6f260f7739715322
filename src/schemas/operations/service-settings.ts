// The workspace's service settings (/v2 only): email, notification and permission provider.
import {
  EmailConfigResult,
  EmailConfigUpdateBody,
  NotificationConfigResult,
  NotificationConfigUpdateBody,
  PermissionProviderConfigResult,
  PermissionProviderConfigUpdateBody,
  PermissionProviderConfigUpdateResult,
  ServiceSettingGetBody,
} from '../service-settings.js';
import { contract } from './contract.js';

const tags = ['workspace settings'] as const;

export const serviceSettings = {
  emailConfigGet: contract({
    paths: { v2: 'workspace/emailconfig/get' },
    summary: "The tenant's email service settings (defaults until set)",
    tags,
    body: ServiceSettingGetBody,
    example: {},
    result: EmailConfigResult,
  }),
  emailConfigUpdate: contract({
    paths: { v2: 'workspace/emailconfig/update' },
    summary: "Change the tenant's email service settings, merged into what is stored",
    description:
      'At least one of `useEmailService` and `emailServiceConfig`. Enabling the service (`useEmailService: true`, or ' +
      '`type: "custom"`) while no triggers are stored seeds the default triggers and `type: "custom"` first. Kept ' +
      'and shown; `useEmailService: false` stops the tenant\'s mail and `fromEmail` is its sender (docs/api.md, "Email").',
    tags,
    body: EmailConfigUpdateBody,
    example: {
      useEmailService: true,
      emailServiceConfig: { type: 'sendgrid', apiKey: 'SG.example-key', fromEmail: 'notify@acme.test', fromCompany: 'Acme' },
    },
    result: EmailConfigResult,
  }),
  notificationConfigGet: contract({
    paths: { v2: 'workspace/notificationconfig/get' },
    summary: "The tenant's notification service settings (defaults until set)",
    tags,
    body: ServiceSettingGetBody,
    example: {},
    result: NotificationConfigResult,
  }),
  notificationConfigUpdate: contract({
    paths: { v2: 'workspace/notificationconfig/update' },
    summary: "Change the tenant's notification service settings, deep-merged into what is stored",
    description:
      'At least one of `useNotificationService` and `notificationServiceConfig`. Enabling the service while no ' +
      'triggers are stored seeds the standard comment triggers and every huddle trigger. While it is on, a comment ' +
      'write with `triggerNotification` fans out notifications only when its trigger is on: `newlyAdded` ' +
      '(commentannotations/add), `added` (comments/add), `updated` (comments/update). Delay and batching are kept and shown.',
    tags,
    body: NotificationConfigUpdateBody,
    example: { useNotificationService: true, notificationServiceConfig: { delayConfig: { isEnabled: true, delaySeconds: 30 } } },
    result: NotificationConfigResult,
  }),
  permissionProviderConfigGet: contract({
    paths: { v2: 'workspace/permissionproviderconfig/get' },
    summary: "The tenant's permission provider settings (defaults until set)",
    tags,
    body: ServiceSettingGetBody,
    example: {},
    result: PermissionProviderConfigResult,
  }),
  permissionProviderConfigUpdate: contract({
    paths: { v2: 'workspace/permissionproviderconfig/update' },
    summary: "Change the tenant's permission provider settings, merged into what is stored",
    description:
      'At least one of `usePermissionProvider` and `permissionProviderConfig`. `permissionProviderUrl` is empty (clears ' +
      'it) or an http(s) URL whose host is a public address (the webhook SSRF guard, within ' +
      'MARGINALIA_PERMISSION_PROVIDER_TIMEOUT_MS). Answers the message alone, as its page prints it; get reads the ' +
      'setting back. Kept and shown; access decisions do not ask the provider yet.',
    tags,
    body: PermissionProviderConfigUpdateBody,
    example: {
      usePermissionProvider: true,
      permissionProviderConfig: { permissionProviderUrl: 'https://perms.acme.test/decide', authToken: 'tok_123' },
    },
    result: PermissionProviderConfigUpdateResult,
  }),
};
