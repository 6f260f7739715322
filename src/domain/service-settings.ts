// The workspace's service settings (docs/api.md, "Workspace service settings"): what each page answers
// when a tenant never set it, what enabling a service seeds, how a change is merged into what is
// stored, and the one setting the service acts on today: which comment writes the notification
// service's triggers let fan out (docs/decisions.md, "Workspace service settings").
import { maskSecret } from './api-keys.js';

/** The services whose settings are kept, as their rows name them (migration 37). */
export type ServiceName = 'email' | 'notification' | 'permission_provider';

/** A JSON object as stored and shown. */
export type JsonObject = { [key: string]: unknown };

/** A service's stored setting: its switch and its configuration (the JSON object every change was merged into). */
export interface ServiceSetting {
  enabled: boolean;
  config: JsonObject;
}

/** A change as an update page takes it: the switch, the configuration to merge, either or both. */
export interface ServiceChange {
  enabled?: boolean | undefined;
  config?: JsonObject | undefined;
}

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `over` merged into `base`: objects member by member, at every depth; anything else (a string, a
 * number, an array) replaces what was there. Members are defined, never assigned, so a member named
 * `__proto__` is data like any other.
 */
export function deepMerged(base: JsonObject, over: JsonObject): JsonObject {
  const merged = new Map<string, unknown>(Object.entries(base));
  for (const [key, value] of Object.entries(over)) {
    const held = merged.get(key);
    merged.set(key, isObject(held) && isObject(value) ? deepMerged(held, value) : value);
  }
  return Object.fromEntries(merged);
}

/**
 * The comment triggers enabling a service turns on: every one the original's trigger model lists but
 * the opt-in suggestion ones, which stay off until enabled explicitly (its webhook settings page).
 */
export const STANDARD_COMMENT_TRIGGERS: Readonly<Record<string, boolean>> = {
  newlyAdded: true,
  added: true,
  updated: true,
  deleted: true,
  approved: true,
  assigned: true,
  reactionAdded: true,
  reactionDeleted: true,
  statusChanged: true,
  priorityChanged: true,
  accessModeChanged: true,
  accepted: true,
  rejected: true,
  customListChanged: true,
  subscribed: true,
  unsubscribed: true,
};
/** Every huddle trigger: enabling turns them all on. */
export const HUDDLE_TRIGGERS: Readonly<Record<string, boolean>> = { created: true, join: true };

/**
 * The email triggers enabling the email service turns on: its page keys them by event type. The
 * standard comment events of the original's webhook list (not the opt-in suggestion ones) and its huddles.
 */
export const STANDARD_EMAIL_TRIGGERS: Readonly<Record<string, boolean>> = {
  'comment_annotation.add': true,
  'comment_annotation.assign': true,
  'comment_annotation.status_change': true,
  'comment_annotation.priority_change': true,
  'comment_annotation.custom_list_change': true,
  'comment_annotation.subscribe': true,
  'comment_annotation.unsubscribe': true,
  'comment_annotation.accept': true,
  'comment_annotation.reject': true,
  'comment_annotation.approve': true,
  'comment.add': true,
  'comment.update': true,
  'comment.delete': true,
  'comment.reaction_add': true,
  'comment.reaction_delete': true,
  'huddle.create': true,
  'huddle.join': true,
};

/** The email service's configuration as its get page shows a workspace that never set one. */
export const EMAIL_DEFAULTS: JsonObject = {
  type: 'default',
  apiKey: '',
  fromEmail: '',
  fromCompany: '',
  commentTemplateId: '',
  tagTemplateId: '',
};

const batchLevel = () => ({ isEnabled: false, batchWindowSeconds: 10, maxActivities: 2 });
/** The notification service's configuration as its get page shows a workspace that never set one. */
export const NOTIFICATION_DEFAULTS: JsonObject = {
  triggers: { comment: {}, huddle: {} },
  delayConfig: { isEnabled: false, delaySeconds: 10 },
  batchConfig: { document: batchLevel(), user: batchLevel() },
};

/** The permission provider's configuration as its get page shows a workspace that never set one. */
export const PERMISSION_PROVIDER_DEFAULTS: JsonObject = { permissionProviderUrl: '', authToken: '' };

/** What the get pages show of a service never set: off, with its defaults. */
export const DEFAULTS: Readonly<Record<ServiceName, JsonObject>> = {
  email: EMAIL_DEFAULTS,
  notification: NOTIFICATION_DEFAULTS,
  permission_provider: PERMISSION_PROVIDER_DEFAULTS,
};

/**
 * The members that hold a credential of the customer's (a provider's API key, a token the server sends on):
 * kept whole, as the server must send them, and shown masked (docs/decisions.md, "Secrets in settings").
 */
export const SECRET_MEMBERS: Readonly<Record<ServiceName, readonly string[]>> = {
  email: ['apiKey'],
  notification: [],
  permission_provider: ['authToken'],
};

/**
 * What a get page (and its update's answer) shows: the stored setting over the defaults, or the defaults.
 * A secret is masked but where `echoed` (an update's sent members) holds the same value: the answer to the
 * request that sent it shows it as sent, as the pages print, and tells the caller nothing it did not know.
 */
export function shownSetting(service: ServiceName, stored: ServiceSetting | null, echoed?: JsonObject): ServiceSetting {
  const config = deepMerged(DEFAULTS[service], stored?.config ?? {});
  for (const member of SECRET_MEMBERS[service]) {
    const value = config[member];
    if (typeof value === 'string' && value !== '' && echoed?.[member] !== value) config[member] = maskSecret(value);
  }
  return { enabled: stored?.enabled ?? false, config };
}

/**
 * The setting after a change, as each update page says: enabling a service whose stored configuration
 * has no triggers yet seeds its defaults first (none for the permission provider but its empty
 * configuration); what the request sends is merged on top, its switch last.
 */
export function changedSetting(service: ServiceName, stored: ServiceSetting | null, change: ServiceChange): ServiceSetting {
  let enabled = stored?.enabled ?? false;
  let config: JsonObject = stored?.config ?? {};
  const sent = change.config ?? {};
  if (service === 'notification' && change.enabled === true && !isObject(config.triggers)) {
    config = deepMerged(config, { triggers: { comment: { ...STANDARD_COMMENT_TRIGGERS }, huddle: { ...HUDDLE_TRIGGERS } } });
  }
  // The email page: enabling is `useEmailService: true`, or sending `type: "custom"`.
  if (service === 'email' && (change.enabled === true || sent.type === 'custom') && !isObject(config.triggers)) {
    config = deepMerged(config, { type: 'custom', triggers: { ...STANDARD_EMAIL_TRIGGERS } });
    enabled = true;
  }
  if (service === 'permission_provider' && change.enabled === true && stored === null) {
    config = { ...PERMISSION_PROVIDER_DEFAULTS };
  }
  config = deepMerged(config, sent);
  if (change.enabled !== undefined) enabled = change.enabled;
  return { enabled, config };
}

/** The comment writes that fan out notifications, as the notification service's comment triggers name them. */
export type CommentTrigger = 'newlyAdded' | 'added' | 'updated';

/**
 * Whether a comment write of this kind fans out notifications: always while the notification service
 * is off (never set, or switched off: Marginalia's own rules, docs/api.md "Notifications from comments"),
 * and while it is on only when its comment trigger for the kind is true (a trigger it does not list is off).
 */
export function commentTriggerAllows(stored: ServiceSetting | null, trigger: CommentTrigger): boolean {
  if (!stored?.enabled) return true;
  const triggers = stored.config.triggers;
  const comment = isObject(triggers) ? triggers.comment : undefined;
  return isObject(comment) && comment[trigger] === true;
}
