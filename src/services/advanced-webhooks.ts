// Advanced webhooks (docs/api.md, "Advanced webhooks"): the endpoint pages and the two configuration pages, on
// the one webhook engine. An endpoint is a webhook (services/webhooks.ts) with more members; its id is the
// webhook's. The endpoint pages answer only once the tenant has enabled advanced webhooks, as the pages say.
import type { Static } from 'typebox';
import { ApiError, invalid } from '../errors.js';
import { then, type Maybe } from '../maybe.js';
import {
  type AdvancedConfig,
  type AdvancedConfigUpdateData,
  type Endpoint,
  type EndpointCreateData,
  type EndpointIdData,
  type EndpointsGetData,
  type EndpointUpdateData,
  EVENT_TYPE_ALIASES,
} from '../schemas/advanced-webhooks.js';
import type { EndpointChange, WebhookRecord } from '../store/store.js';
import type { Caller } from './context.js';
import { decodeKeyToken, encodeKeyToken, filterDigest, keyTuple, tupleKey } from './page-token.js';
import {
  guardUrl,
  MAX_WEBHOOKS_PER_TENANT,
  newWebhookId,
  newWebhookSecret,
  type WebhookServices,
  webhookUrl,
} from './webhooks.js';

const ENABLE = 'POST /v2/workspace/advancedwebhookconfig/update with { "isEnabled": true }';
export const NOT_CONFIGURED = `Advanced webhooks are not configured for this workspace. Enable them first via ${ENABLE}.`;
export const DISABLED = `Advanced webhooks are disabled for this workspace. Enable them via ${ENABLE}.`;
/** The pages' own message for an endpoint that does not exist. */
export const NO_ENDPOINT = 'Advanced webhook provider request failed.';

export const ADVANCED_DEFAULTS: Static<typeof AdvancedConfig> = {
  isEnabled: false,
  encryptData: false,
  encodeData: false,
  publicKey: '',
  enableDataProtection: false,
};

/** The uid of the endpoint the basic service delivers through (services/webhook-config.ts): not one a caller may take. */
export const BASIC_SERVICE_UID = 'webhookconfig';

const noEndpoint = () => new ApiError('NOT_FOUND', NO_ENDPOINT);

/** The stored configuration over the defaults (a member stored of another type is ignored). */
function advancedOf(stored: Record<string, unknown> | null): Static<typeof AdvancedConfig> {
  const out = { ...ADVANCED_DEFAULTS };
  if (!stored) return out;
  for (const k of ['isEnabled', 'encryptData', 'encodeData', 'enableDataProtection'] as const)
    if (typeof stored[k] === 'boolean') out[k] = stored[k];
  if (typeof stored.publicKey === 'string') out.publicKey = stored.publicKey;
  return out;
}

/** The endpoint pages' precondition: advanced webhooks configured and enabled for the tenant. */
function enabled<T>({ store }: Pick<WebhookServices, 'store'>, caller: Caller, next: () => Maybe<T>): Maybe<T> {
  return then(store.getWebhookSettings(caller.id), (settings) => {
    if (settings.advanced === null) throw new ApiError('FAILED_PRECONDITION', NOT_CONFIGURED);
    if (!advancedOf(settings.advanced).isEnabled) throw new ApiError('FAILED_PRECONDITION', DISABLED);
    return next();
  });
}

/** filterTypes as this server's event types (docs/events.md, "Event type names"), each once. */
export const engineTypes = (filterTypes: readonly string[]): string[] => [
  ...new Set(filterTypes.map((t) => EVENT_TYPE_ALIASES[t] ?? t)),
];

const iso = (ms: number) => new Date(ms).toISOString();

export function endpointShown(w: WebhookRecord): Static<typeof Endpoint> {
  return {
    id: w.webhookId,
    url: w.url,
    description: w.description,
    // An endpoint made by webhooks/add has its events, in this server's names.
    filterTypes: w.filterTypes ? [...w.filterTypes] : w.eventTypes,
    channels: w.channels ? [...w.channels] : null,
    disabled: w.disabled || w.autoDisabled !== null,
    ...(w.autoDisabled ? { disabledReason: `${w.autoDisabled.reason} (switched off ${iso(w.autoDisabled.at)})` } : {}),
    rateLimit: w.rateLimit,
    uid: w.uid,
    ...(w.metadata ? { metadata: { ...w.metadata } } : {}),
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
  };
}

/** The URL as the pages check it: their own message for one that is not http(s); the SSRF guard's for an internal one. */
async function checkedUrl(services: WebhookServices, text: string): Promise<string> {
  let url: URL;
  try {
    url = webhookUrl(text);
  } catch (err) {
    // A user name or password keeps its own message; anything else is not a URL the pages take.
    if (err instanceof ApiError && err.message.includes('user name')) throw err;
    throw invalid('url must be a valid http(s) URL.');
  }
  await guardUrl(services, url);
  return text;
}

const unique = <T>(list: readonly T[] | null | undefined): T[] | null => (list ? [...new Set(list)] : null);

/** endpoints/create: a webhook with the endpoint's members; answers it as endpoints/get shows it. */
export function createEndpoint(
  services: WebhookServices,
  caller: Caller,
  input: EndpointCreateData,
): Maybe<Static<typeof Endpoint>> {
  return enabled(services, caller, async () => {
    if (input.uid === BASIC_SERVICE_UID)
      throw invalid(`uid "${BASIC_SERVICE_UID}" is the webhook service's own endpoint (workspace/webhookconfig).`);
    const url = await checkedUrl(services, input.url);
    const filterTypes = unique(input.filterTypes);
    const webhookId = newWebhookId();
    const added = await services.store.addWebhook(
      caller.id,
      {
        webhookId,
        url,
        description: input.description ?? null,
        eventTypes: filterTypes ? engineTypes(filterTypes) : null,
        secret: newWebhookSecret(),
        createdAt: services.clock(),
        advanced: {
          filterTypes,
          channels: unique(input.channels),
          disabled: input.disabled ?? false,
          rateLimit: input.rateLimit ?? null,
          metadata: input.metadata ?? null,
          uid: input.uid ?? null,
        },
      },
      MAX_WEBHOOKS_PER_TENANT,
    );
    if (added === 'too_many')
      throw new ApiError(
        'RESOURCE_EXHAUSTED',
        `The tenant has ${MAX_WEBHOOKS_PER_TENANT} webhook endpoints, the most it may have; delete one before adding another.`,
      );
    if (added === 'uid_taken') throw new ApiError('ALREADY_EXISTS', `Another endpoint has the uid ${JSON.stringify(input.uid)}.`);
    const made = await services.store.getWebhook(caller.id, webhookId);
    if (!made) throw noEndpoint();
    return endpointShown(made);
  });
}

export interface EndpointPage {
  endpoints: Static<typeof Endpoint>[];
  iterator: string | null;
  prevIterator: string | null;
  done: boolean;
}

/** endpoints/get's default page size. */
export const DEFAULT_ENDPOINTS_PAGE = 50;

/**
 * endpoints/get: in the order they were made, `limit` a page. An iterator names the (createdAt, id) a page
 * starts at, so a page deleted from meanwhile starts at the next endpoint. A tenant has at most
 * MAX_WEBHOOKS_PER_TENANT endpoints: the page is cut from the whole list.
 */
export function getEndpoints(services: WebhookServices, caller: Caller, input: EndpointsGetData): Maybe<EndpointPage> {
  const digest = filterDigest(['advancedwebhook/endpoints/get']);
  let from: readonly [number, string] | null = null;
  if (input.iterator != null) {
    try {
      from = keyTuple(decodeKeyToken(input.iterator, digest), ['integer', 'id'] as const);
    } catch {
      throw invalid('iterator is malformed: pass the iterator or prevIterator of an earlier answer.');
    }
  }
  const limit = input.limit ?? DEFAULT_ENDPOINTS_PAGE;
  return enabled(services, caller, () =>
    then(services.store.getWebhooks(caller.id), (all) => {
      const keyOf = (w: WebhookRecord) => tupleKey([w.createdAt, w.webhookId]);
      const at = (w: WebhookRecord) => encodeKeyToken(keyOf(w), digest);
      const start = from === null ? 0 : firstAtOrAfter(all, from);
      const page = all.slice(start, start + limit);
      const next = all[start + limit];
      return {
        endpoints: page.map(endpointShown),
        iterator: next ? at(next) : null,
        prevIterator: start > 0 ? at(all[Math.max(0, start - limit)]!) : null,
        done: next === undefined,
      };
    }),
  );
}

function firstAtOrAfter(all: readonly WebhookRecord[], [createdAt, id]: readonly [number, string]): number {
  const i = all.findIndex((w) => w.createdAt > createdAt || (w.createdAt === createdAt && w.webhookId >= id));
  return i === -1 ? all.length : i;
}

/** endpoints/update: only the members sent change; at least one besides endpointId (the page's message). */
export function updateEndpoint(
  services: WebhookServices,
  caller: Caller,
  input: EndpointUpdateData,
): Maybe<Static<typeof Endpoint>> {
  const { endpointId, ...members } = input;
  const sent = Object.entries(members).filter(([k, v]) => v !== undefined && (v !== null || k === 'description'));
  if (sent.length === 0) throw invalid('At least one endpoint field besides endpointId must be provided.');
  return enabled(services, caller, async () => {
    const change: EndpointChange = {};
    if (input.url != null) change.url = await checkedUrl(services, input.url);
    if (input.description !== undefined) change.description = input.description;
    if (input.filterTypes != null) {
      const filterTypes = [...new Set(input.filterTypes)];
      change.filter = { filterTypes, eventTypes: engineTypes(filterTypes) };
    }
    if (input.channels != null) change.channels = [...new Set(input.channels)];
    if (input.disabled != null) change.disabled = input.disabled;
    if (input.rateLimit != null) change.rateLimit = input.rateLimit;
    if (input.metadata != null) change.metadata = input.metadata;
    const updated = await services.store.updateWebhook(caller.id, endpointId, change, services.clock());
    if (!updated) throw noEndpoint();
    return endpointShown(updated);
  });
}

export function deleteEndpoint(
  services: WebhookServices,
  caller: Caller,
  input: EndpointIdData,
): Maybe<{ endpointId: string; deleted: true }> {
  return enabled(services, caller, () =>
    then(services.store.deleteWebhook(caller.id, input.endpointId), (deleted) => {
      if (!deleted) throw noEndpoint();
      return { endpointId: input.endpointId, deleted: true as const };
    }),
  );
}

/** endpoints/secret/get: the secret in use (after a rotation, the new one). */
export function getEndpointSecret(
  services: WebhookServices,
  caller: Caller,
  input: EndpointIdData,
): Maybe<{ endpointId: string; secret: string }> {
  return enabled(services, caller, () =>
    then(services.store.getWebhookSecret(caller.id, input.endpointId), (secret) => {
      if (secret === null) throw noEndpoint();
      return { endpointId: input.endpointId, secret };
    }),
  );
}

export function getAdvancedConfig(services: WebhookServices, caller: Caller): Maybe<Static<typeof AdvancedConfig>> {
  return then(services.store.getWebhookSettings(caller.id), (s) => advancedOf(s.advanced));
}

const ADVANCED_MEMBERS = ['isEnabled', 'encryptData', 'encodeData', 'publicKey', 'enableDataProtection'] as const;

/**
 * advancedwebhookconfig/update: the members sent over the stored ones. The first must enable (the page's
 * rule); isEnabled false holds every endpoint's deliveries until it is true again (docs/events.md).
 */
export function updateAdvancedConfig(
  services: WebhookServices,
  caller: Caller,
  input: AdvancedConfigUpdateData,
): Maybe<Static<typeof AdvancedConfig>> {
  const sent = ADVANCED_MEMBERS.filter((k) => input[k] != null);
  if (sent.length === 0)
    throw invalid('At least one of isEnabled, encryptData, encodeData, publicKey or enableDataProtection must be provided.');
  // Merged under the settings row's lock (store: changeWebhookSettings), so two updates at once keep both.
  const change = (stored: Record<string, unknown> | null) => {
    if (stored === null && input.isEnabled !== true) throw new ApiError('FAILED_PRECONDITION', NOT_CONFIGURED);
    const next: Record<string, unknown> = { ...advancedOf(stored) };
    for (const k of sent) next[k] = input[k];
    return next;
  };
  return then(services.store.changeWebhookSettings(caller.id, 'advanced', change, services.clock()), advancedOf);
}
