// The basic webhook service's configuration (workspace/webhookconfig/get and update; docs/api.md, "Advanced
// webhooks"). Stored per tenant as sent, and acted on through the engine: while `useWebhookService` is
// true and a `rawNotificationUrl` is set, an endpoint of the engine (uid `webhookconfig`, listed with the
// others) is sent the events its enabled `triggers` name; switched off, that endpoint is disabled.
import type { Static } from 'typebox';
import { invalid } from '../errors.js';
import type { WebhookConfig, WebhookConfigUpdateData } from '../schemas/advanced-webhooks.js';
import type { Caller } from './context.js';
import { engineTypes } from './advanced-webhooks.js';
import {
  guardUrl,
  MAX_WEBHOOKS_PER_TENANT,
  newWebhookId,
  newWebhookSecret,
  type WebhookServices,
  webhookUrl,
} from './webhooks.js';

/** The uid of the endpoint the basic service delivers through. */
export const BASIC_SERVICE_UID = 'webhookconfig';

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

export function getWebhookConfig(services: WebhookServices, caller: Caller): Promise<Config> {
  return Promise.resolve(services.store.getWebhookSettings(caller.id)).then((s) => configOf(s.basic));
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

/** webhookconfig/update: the members sent merged over the stored ones; answers the configuration as stored. */
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
  const stored = (await services.store.getWebhookSettings(caller.id)).basic;
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
  const next = { useWebhookService: use, webhookServiceConfig: service };
  await services.store.putWebhookSettings(caller.id, 'basic', next, services.clock());
  await applyToEngine(services, caller, configOf(next));
  return configOf(next);
}

/** The basic service's endpoint made, changed or switched off to match the configuration. */
async function applyToEngine(services: WebhookServices, caller: Caller, config: Config): Promise<void> {
  const { store } = services;
  const now = services.clock();
  const url = config.webhookServiceConfig.rawNotificationUrl;
  const triggers = config.webhookServiceConfig.triggers ?? {};
  const on = Object.keys(triggers).filter((t) => triggers[t]);
  const filter = { filterTypes: on, eventTypes: engineTypes(on) };
  const existing = (await store.getWebhooks(caller.id)).find((w) => w.uid === BASIC_SERVICE_UID);
  // Every trigger off: nothing to send.
  const wanted = config.useWebhookService && url !== '' && on.length > 0;
  if (existing) {
    await store.updateWebhook(
      caller.id,
      existing.webhookId,
      { disabled: !wanted, ...(url !== '' ? { url } : {}), ...(on.length > 0 ? { filter } : {}) },
      now,
    );
    return;
  }
  if (!wanted) return;
  const added = await store.addWebhook(
    caller.id,
    {
      webhookId: newWebhookId(),
      url,
      description: 'The webhook service (workspace/webhookconfig)',
      eventTypes: on.length > 0 ? filter.eventTypes : null,
      secret: newWebhookSecret(),
      createdAt: now,
      advanced: {
        filterTypes: on.length > 0 ? on : null,
        channels: null,
        disabled: false,
        rateLimit: null,
        metadata: null,
        uid: BASIC_SERVICE_UID,
      },
    },
    MAX_WEBHOOKS_PER_TENANT,
  );
  if (added === 'too_many') throw invalid(`${INVALID} The tenant has ${MAX_WEBHOOKS_PER_TENANT} webhooks already.`);
}
