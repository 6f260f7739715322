// The workspace's service settings (docs/api.md, "Workspace service settings"): /v2's emailconfig,
// notificationconfig and permissionproviderconfig pages, get and update. What is stored, seeded and
// shown is domain/service-settings.ts; here each page's checks and its answer's shape. The notification
// service's triggers take effect in the comment fan-out (store/notifications/fan-out.ts); the email
// settings and the permission provider are kept and shown (docs/decisions.md).
import { lookup } from 'node:dns/promises';
import {
  type JsonObject,
  type ServiceChange,
  type ServiceName,
  type ServiceSetting,
  isObject,
  shownSetting,
} from '../domain/service-settings.js';
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type {
  EmailConfigUpdateData,
  NotificationConfigUpdateData,
  PermissionProviderConfigUpdateData,
} from '../schemas/service-settings.js';
import { refusedHost, type Resolver } from '../webhooks/ssrf.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';

/** How long a check of a permission provider's host (and, with issue 38, a call to it) may take unless the setting says otherwise. */
export const DEFAULT_PERMISSION_PROVIDER_TIMEOUT_MS = 5000;

/** The members a request sent: null (the wire's "absent") and undefined dropped, at every depth. */
function sentMembers(value: Readonly<Record<string, unknown>>): JsonObject {
  const kept = new Map<string, unknown>();
  for (const [key, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    kept.set(key, isObject(v) ? sentMembers(v) : v);
  }
  return Object.fromEntries(kept);
}

/** Only the members a page documents are kept (the wire lets unknown ones through, untouched and unread). */
function documented(value: Readonly<Record<string, unknown>> | null | undefined, members: readonly string[]): JsonObject {
  const sent = sentMembers(value ?? {});
  return Object.fromEntries(members.filter((m) => m in sent).map((m) => [m, sent[m]]));
}

function atLeastOne(switchName: string, configName: string, data: Readonly<Record<string, unknown>>): void {
  // The notification page's documented message, said the same way for the others.
  if (data[switchName] == null && data[configName] == null)
    throw invalid(`At least one of ${switchName} or ${configName} must be provided`);
}

const changeOf = (enabled: boolean | null | undefined, config: JsonObject | undefined): ServiceChange => ({
  ...(enabled != null ? { enabled } : {}),
  ...(config !== undefined ? { config } : {}),
});

function read(services: Services, caller: Caller, service: ServiceName): Maybe<ServiceSetting> {
  return then(services.store.serviceSetting(caller.id, service), (stored) => shownSetting(service, stored));
}

function change(services: Services, caller: Caller, service: ServiceName, sent: ServiceChange): Maybe<ServiceSetting> {
  return then(services.store.changeServiceSetting(caller.id, service, sent, services.clock()), (written) =>
    shownSetting(service, written, sent.config),
  );
}

// --- Email ---

const EMAIL_TYPES = new Set(['default', 'sendgrid', 'custom']);
/** An address as a sender's must look: something, an @, a host with a dot; no spaces. */
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MEMBERS = ['type', 'apiKey', 'fromEmail', 'fromCompany', 'commentTemplateId', 'tagTemplateId', 'triggers'];
/** The page's documented message, and why. */
const invalidEmail = (why: string) => invalid(`Invalid email service configuration. ${why}`);

const emailAnswer = (s: ServiceSetting) => ({ useEmailService: s.enabled, emailServiceConfig: s.config });
export type EmailConfigAnswer = ReturnType<typeof emailAnswer>;

export const getEmailConfig = (services: Services, caller: Caller): Maybe<EmailConfigAnswer> =>
  then(read(services, caller, 'email'), emailAnswer);

export function updateEmailConfig(services: Services, caller: Caller, data: EmailConfigUpdateData): Maybe<EmailConfigAnswer> {
  atLeastOne('useEmailService', 'emailServiceConfig', data);
  const config = data.emailServiceConfig != null ? documented(data.emailServiceConfig, EMAIL_MEMBERS) : undefined;
  if (config?.type !== undefined && !EMAIL_TYPES.has(config.type as string))
    throw invalidEmail(`${spell(['emailServiceConfig', 'type'])} is "default", "sendgrid" or "custom".`);
  if (config?.fromEmail !== undefined && config.fromEmail !== '' && !EMAIL_ADDRESS.test(config.fromEmail as string))
    throw invalidEmail(`${spell(['emailServiceConfig', 'fromEmail'])} is empty or an email address.`);
  return then(change(services, caller, 'email', changeOf(data.useEmailService, config)), emailAnswer);
}

// --- Notification ---

const notificationAnswer = (s: ServiceSetting) => ({ useNotificationService: s.enabled, notificationServiceConfig: s.config });
export type NotificationConfigAnswer = ReturnType<typeof notificationAnswer>;

export const getNotificationServiceConfig = (services: Services, caller: Caller): Maybe<NotificationConfigAnswer> =>
  then(read(services, caller, 'notification'), notificationAnswer);

export function updateNotificationServiceConfig(
  services: Services,
  caller: Caller,
  data: NotificationConfigUpdateData,
): Maybe<NotificationConfigAnswer> {
  atLeastOne('useNotificationService', 'notificationServiceConfig', data);
  const sent = data.notificationServiceConfig;
  let config: JsonObject | undefined;
  if (sent != null) {
    // Each level keeps its documented members only: the ranges were checked by the request's schema.
    const batch = sent.batchConfig != null ? sentMembers(sent.batchConfig) : undefined;
    const level = ['isEnabled', 'batchWindowSeconds', 'maxActivities'];
    config = {
      ...(sent.triggers != null ? { triggers: documented(sent.triggers, ['comment', 'huddle']) } : {}),
      ...(sent.delayConfig != null ? { delayConfig: documented(sent.delayConfig, ['isEnabled', 'delaySeconds']) } : {}),
      ...(batch !== undefined
        ? {
            batchConfig: {
              ...(isObject(batch.document) ? { document: documented(batch.document, level) } : {}),
              ...(isObject(batch.user) ? { user: documented(batch.user, level) } : {}),
            },
          }
        : {}),
    };
  }
  return then(change(services, caller, 'notification', changeOf(data.useNotificationService, config)), notificationAnswer);
}

// --- Permission provider ---

const permissionAnswer = (s: ServiceSetting) => ({ usePermissionProvider: s.enabled, permissionProviderConfig: s.config });
export type PermissionProviderConfigAnswer = ReturnType<typeof permissionAnswer>;

/** The page's documented message for a URL that is neither empty nor http(s). */
export const INVALID_PROVIDER_URL = 'Please enter a valid URL';

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** A resolver given up on after `ms` (the host then counts as not resolving). */
const within =
  (ms: number, resolve: Resolver): Resolver =>
  (host) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: `no answer within ${ms} ms` })), ms);
    });
    return Promise.race([resolve(host), late]).finally(() => clearTimeout(timer));
  };

/** The provider's URL, checked: http(s) with a host and no user name or password, whose host is a public address. */
async function checkProviderUrl(services: Services, text: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(INVALID_PROVIDER_URL);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.hostname === '' ||
    url.username !== '' ||
    url.password !== ''
  )
    throw invalid(INVALID_PROVIDER_URL);
  if (services.webhookAllowPrivate) return;
  const timeoutMs = services.permissionProviderTimeoutMs ?? DEFAULT_PERMISSION_PROVIDER_TIMEOUT_MS;
  const refused = await refusedHost(url, within(timeoutMs, services.resolveHost ?? systemResolver));
  if (refused)
    throw invalid(
      `${spell(['permissionProviderConfig', 'permissionProviderUrl'])}: ${refused}. A permission provider may not be on a ` +
        'loopback, private, link-local or other internal address (the server setting MARGINALIA_WEBHOOK_ALLOW_PRIVATE=1 allows them).',
    );
}

export const getPermissionProviderConfig = (services: Services, caller: Caller): Maybe<PermissionProviderConfigAnswer> =>
  then(read(services, caller, 'permission_provider'), permissionAnswer);

export async function updatePermissionProviderConfig(
  services: Services,
  caller: Caller,
  data: PermissionProviderConfigUpdateData,
): Promise<PermissionProviderConfigAnswer> {
  atLeastOne('usePermissionProvider', 'permissionProviderConfig', data);
  const config =
    data.permissionProviderConfig != null
      ? documented(data.permissionProviderConfig, ['permissionProviderUrl', 'authToken'])
      : undefined;
  const url = config?.permissionProviderUrl as string | undefined;
  if (url !== undefined && url !== '') await checkProviderUrl(services, url);
  return permissionAnswer(await change(services, caller, 'permission_provider', changeOf(data.usePermissionProvider, config)));
}
