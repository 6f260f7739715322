// The basic webhook service's configuration (workspace/webhookconfig/get and update; docs/api.md, "Advanced
// webhooks"). Stored per tenant as sent, and acted on through the engine: while `useWebhookService` is
// true and a `rawNotificationUrl` is set, an endpoint of the engine (uid `webhookconfig`, listed with the
// others) is sent the events its enabled `triggers` name; switched off, that endpoint is disabled.
import type { Static } from 'typebox';
import { invalid } from '../errors.js';
import type { WebhookConfig, WebhookConfigUpdateData } from '../schemas/advanced-webhooks.js';
import { MAX_WEBHOOK_EVENT_TYPES } from '../schemas/webhooks.js';
import { maskSecret } from '../domain/api-keys.js';
import type { ServiceEndpoint } from '../store/store.js';
import type { Caller } from './context.js';
import { BASIC_SERVICE_UID, engineTypes } from './advanced-webhooks.js';

export { BASIC_SERVICE_UID };
import {
  guardUrl,
  MAX_WEBHOOKS_PER_TENANT,
  newWebhookId,
  newWebhookSecret,
  type WebhookServices,
  webhookUrl,
} from './webhooks.js';

const INVALID = 'Invalid webhook service configuration.';

/**
 * The triggers seeded on the first enable (the page's rule): the standard comment triggers on, the opt-in
 * suggestion triggers off. The original's huddle, crdt and recorder triggers name products this server has not.
 */
export const DEFAULT_TRIGGERS: Readonly<Record<string, boolean>> = {
  'comment_annotation.add': true,
  'comment.add': true,
  'comment.update': true,
  'comment.delete': true,
  'comment_annotation.status_change': true,
  'comment_annotation.assign': true,
  'comment_annotation.priority_change': true,
  'comment.reaction_add': true,
  'comment.reaction_delete': true,
  'comment_annotation.suggestion_accept': false,
  'comment_annotation.suggestion_reject': false,
};

type Config = Static<typeof WebhookConfig>;

function configOf(stored: Record<string, unknown> | null): Config {
  const service = (stored?.webhookServiceConfig ?? {}) as Record<string, unknown>;
  return {
    useWebhookService: stored?.useWebhookService === true,
    webhookServiceConfig: {
      authToken: '',
      rawNotificationUrl: '',
      processedNotificationUrl: '',
      ...service,
    } as Config['webhookServiceConfig'],
  };
}

/** A token as kept: masked (one a release before kept whole is masked when shown). */
const MASKED = /\.\.\.x+$/;

export function getWebhookConfig(services: WebhookServices, caller: Caller): Promise<Config> {
  return Promise.resolve(services.store.getWebhookSettings(caller.id)).then((s) => {
    const config = configOf(s.basic);
    const token = config.webhookServiceConfig.authToken;
    if (token && !MASKED.test(token)) config.webhookServiceConfig.authToken = maskSecret(token);
    return config;
  });
}

/** A URL member: empty, or an http(s) URL the SSRF guard takes. */
async function checkUrl(services: WebhookServices, text: string | undefined): Promise<void> {
  if (text === undefined || text === '') return;
  let url: URL;
  try {
    url = webhookUrl(text);
  } catch {
    throw invalid(INVALID);
  }
  await guardUrl(services, url);
}

/**
 * webhookconfig/update: the members sent merged over the stored ones, and the service's endpoint made or
 * changed to match, in one transaction (store: changeBasicWebhookService). Answers the configuration as
 * stored; `authToken` is kept masked (nothing here sends it: docs/decisions.md, "Secrets in settings"), and the
 * answer shows it as sent.
 */
export async function updateWebhookConfig(
  services: WebhookServices,
  caller: Caller,
  input: WebhookConfigUpdateData,
): Promise<Config> {
  if (input.useWebhookService == null && input.webhookServiceConfig == null)
    throw invalid('At least one of useWebhookService or webhookServiceConfig must be provided.');
  const sent = Object.fromEntries(Object.entries(input.webhookServiceConfig ?? {}).filter(([, v]) => v != null));
  await checkUrl(services, sent.rawNotificationUrl as string | undefined);
  await checkUrl(services, sent.processedNotificationUrl as string | undefined);
  const token = typeof sent.authToken === 'string' ? sent.authToken : undefined;
  const change = (stored: Record<string, unknown> | null): Record<string, unknown> => {
    const current = configOf(stored);
    const use = input.useWebhookService ?? current.useWebhookService;
    const service: Record<string, unknown> = { ...current.webhookServiceConfig };
    // Defaults on the first enable: triggers seeded, then the members sent merged on top.
    if (use && service.triggers === undefined) {
      service.triggers = { ...DEFAULT_TRIGGERS };
      service.enableDataProtection = false;
    }
    for (const [k, v] of Object.entries(sent))
      service[k] = k === 'triggers' ? { ...((service.triggers as object | undefined) ?? {}), ...(v as object) } : v;
    // Merged across updates, the map is bounded as one request's is.
    if (Object.keys(service.triggers ?? {}).length > MAX_WEBHOOK_EVENT_TYPES)
      throw invalid(`${INVALID} triggers would name more than ${MAX_WEBHOOK_EVENT_TYPES} event types.`);
    if (token) service.authToken = maskSecret(token);
    return { useWebhookService: use, webhookServiceConfig: service };
  };
  const stored = await services.store.changeBasicWebhookService(
    caller.id,
    change,
    (settings) => endpointOf(services, configOf(settings)),
    MAX_WEBHOOKS_PER_TENANT,
    () => invalid(`${INVALID} The tenant has ${MAX_WEBHOOKS_PER_TENANT} webhooks already.`),
    services.clock(),
  );
  const shown = configOf(stored);
  if (token !== undefined) shown.webhookServiceConfig.authToken = token;
  return shown;
}

/** What the basic service's endpoint should be for a configuration (made only when wanted). */
function endpointOf(services: WebhookServices, config: Config): ServiceEndpoint {
  const url = config.webhookServiceConfig.rawNotificationUrl;
  const triggers = config.webhookServiceConfig.triggers ?? {};
  const on = Object.keys(triggers).filter((t) => triggers[t]);
  const filter = { filterTypes: on, eventTypes: engineTypes(on) };
  return {
    uid: BASIC_SERVICE_UID,
    // Every trigger off: nothing to send.
    wanted: config.useWebhookService && url !== '' && on.length > 0,
    change: { ...(url !== '' ? { url } : {}), ...(on.length > 0 ? { filter } : {}) },
    made: () => ({
      webhookId: newWebhookId(),
      url,
      description: 'The webhook service (workspace/webhookconfig)',
      eventTypes: on.length > 0 ? filter.eventTypes : null,
      secret: newWebhookSecret(),
      createdAt: services.clock(),
      advanced: {
        filterTypes: on.length > 0 ? on : null,
        channels: null,
        disabled: false,
        rateLimit: null,
        metadata: null,
        uid: BASIC_SERVICE_UID,
      },
    }),
  };
}
