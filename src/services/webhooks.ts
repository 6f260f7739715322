// Webhooks (docs/events.md, "Webhooks"): webhooks/add, get, delete and deliveries/get, and the same for the CLI.
// The delivery itself is src/webhooks/worker.ts.
import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { Clock } from '../clock.js';
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { Webhook, WebhookAttempt } from '../schemas/responses.js';
import type { WebhookDeliveriesGetData, WebhookIdData, WebhooksAddData } from '../schemas/webhooks.js';
import type { Store, WebhookAttemptRecord, WebhookRecord } from '../store/store.js';
import { DEFAULT_SECRET_GRACE_HOURS, HOUR_MS } from '../webhooks/schedule.js';
import { refusedHost, type Resolver } from '../webhooks/ssrf.js';
import type { RecoverData, ReplayData } from '../schemas/advanced-webhooks.js';
import type { Caller } from './context.js';
import { spell } from './member-path.js';
import { decodeKeyToken, filterDigest, keyPaged } from './page-token.js';
import { filterList, orNull } from './rules.js';

/** Most webhooks a tenant may have: each one multiplies the deliveries of every event. */
export const MAX_WEBHOOKS_PER_TENANT = 100;

/** What the webhook operations need: the HTTP services and the CLI both give it. */
export interface WebhookServices {
  store: Store;
  clock: Clock;
  /** MARGINALIA_WEBHOOK_ALLOW_PRIVATE: URLs on loopback, private and link-local addresses are allowed. Absent: refused. */
  webhookAllowPrivate?: boolean | undefined;
  /** How host names are resolved for the SSRF guard (tests); absent: the system's resolver. */
  resolveHost?: Resolver | undefined;
  /** MARGINALIA_WEBHOOK_SECRET_GRACE_HOURS; absent: the default (webhooks/schedule.ts). */
  webhookSecretGraceHours?: number | undefined;
  /** MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE; absent: DEFAULT_RECOVER_BATCH_SIZE. */
  webhookRecoverBatchSize?: number | undefined;
}

export const newWebhookId = (): string => `wh_${randomBytes(16).toString('hex')}`;
/** Standard Webhooks: `whsec_` and the key in base64; 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const notFound = (webhookId: string) => new ApiError('NOT_FOUND', `Webhook ${webhookId} does not exist.`);

/** The URL, checked: http or https, a host, no user name or password (webhooks/get shows the URL). */
export function webhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`${spell(['url'])} must be an http:// or https:// URL.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw invalid(`${spell(['url'])} must be an http:// or https:// URL.`);
  if (url.username !== '' || url.password !== '')
    throw invalid(`${spell(['url'])} must not carry a user name or password; put a token in its path or query instead.`);
  return url;
}

/** Refuses a URL whose host is (or resolves to) a loopback, private, link-local or other internal address, unless allowed. */
export async function guardUrl(services: Pick<WebhookServices, 'webhookAllowPrivate' | 'resolveHost'>, url: URL): Promise<void> {
  if (services.webhookAllowPrivate) return;
  const refused = await refusedHost(url, services.resolveHost);
  if (refused)
    throw invalid(
      `${spell(['url'])}: ${refused}. Webhooks are not sent to loopback, private, link-local or other internal ` +
        'addresses (the server setting MARGINALIA_WEBHOOK_ALLOW_PRIVATE=1 allows them).',
    );
}

/** webhooks/add: answers the new webhook's id and its secret, which is shown only here. */
export async function addWebhook(
  services: WebhookServices,
  caller: Caller,
  input: WebhooksAddData,
): Promise<{ webhookId: string; secret: string }> {
  const url = webhookUrl(input.url);
  await guardUrl(services, url);
  const types = filterList(input.events);
  const webhook = {
    webhookId: newWebhookId(),
    url: input.url,
    description: orNull(input.description),
    eventTypes: types === null ? null : [...new Set(types)],
    secret: newWebhookSecret(),
    createdAt: services.clock(),
  };
  if ((await services.store.addWebhook(caller.id, webhook, MAX_WEBHOOKS_PER_TENANT)) === 'too_many')
    throw new ApiError(
      'RESOURCE_EXHAUSTED',
      `The tenant has ${MAX_WEBHOOKS_PER_TENANT} webhooks, the most it may have; delete one before adding another.`,
    );
  return { webhookId: webhook.webhookId, secret: webhook.secret };
}

const shown = (w: WebhookRecord): Static<typeof Webhook> => ({
  webhookId: w.webhookId,
  url: w.url,
  ...(w.eventTypes !== null ? { events: w.eventTypes } : {}),
  ...(w.description !== null ? { description: w.description } : {}),
  createdAt: w.createdAt,
  ...(w.disabled || w.autoDisabled !== null ? { disabled: true as const } : {}),
  ...(w.autoDisabled !== null ? { disabledReason: w.autoDisabled.reason } : {}),
});

/** webhooks/enable: switched on, its failures forgotten and its parked deliveries due; an unknown webhook is NOT_FOUND. */
export function enableWebhook(services: WebhookServices, caller: Caller, input: WebhookIdData): Maybe<Static<typeof Webhook>> {
  return then(services.store.updateWebhook(caller.id, input.webhookId, { disabled: false }, services.clock()), (w) => {
    if (!w) throw notFound(input.webhookId);
    return shown(w);
  });
}

/** webhooks/get: every webhook of the tenant, never a secret. */
export function getWebhooks({ store }: Pick<WebhookServices, 'store'>, caller: Caller): Maybe<Static<typeof Webhook>[]> {
  return then(store.getWebhooks(caller.id), (list) => list.map(shown));
}

/** webhooks/delete: its pending deliveries go with it; an unknown webhook is NOT_FOUND. */
export function deleteWebhook({ store }: Pick<WebhookServices, 'store'>, caller: Caller, input: WebhookIdData): Maybe<null> {
  return then(store.deleteWebhook(caller.id, input.webhookId), (deleted) => {
    if (!deleted) throw notFound(input.webhookId);
    return null;
  });
}

const attemptShown = (a: WebhookAttemptRecord): Static<typeof WebhookAttempt> => ({
  eventId: a.eventId,
  eventType: a.eventType,
  attempt: a.attempt,
  status: a.status,
  ...(a.responseCode !== null ? { responseCode: a.responseCode } : {}),
  ...(a.error !== null ? { error: a.error } : {}),
  durationMs: a.durationMs,
  attemptedAt: a.attemptedAt,
});

export interface WebhookAttemptPage {
  attempts: Static<typeof WebhookAttempt>[];
  nextPageToken: string | null;
}

/** The attempt id a page token names: a positive integer, or the token is malformed. */
function attemptKey(key: string): number {
  const id = Number(key);
  if (!/^[1-9]\d{0,15}$/.test(key) || !Number.isSafeInteger(id)) throw invalid(`${spell(['pageToken'])} is malformed.`);
  return id;
}

/** webhooks/deliveries/get: the webhook's last attempts, newest first, paged; an unknown webhook is NOT_FOUND. */
export function getWebhookDeliveries(
  { store }: Pick<WebhookServices, 'store'>,
  caller: Caller,
  input: WebhookDeliveriesGetData,
): Maybe<WebhookAttemptPage> {
  const digest = filterDigest(['webhooks/deliveries/get', input.webhookId]);
  // The token is read here first, so a malformed one is refused before the webhook is looked up.
  if (input.pageToken != null) attemptKey(decodeKeyToken(input.pageToken, digest));
  const read = (after: string | null, limit: number) =>
    then(store.getWebhookAttempts(caller.id, input.webhookId, after === null ? null : attemptKey(after), limit), (rows) => {
      if (rows === null) throw notFound(input.webhookId);
      return rows;
    });
  return then(
    keyPaged(input, digest, read, (a) => String(a.id)),
    ({ page, nextPageToken }) => ({ attempts: page.map(attemptShown), nextPageToken }),
  );
}

/**
 * webhooks/deliveries/replay: one event sent again to the webhook: its delivery (delivered or failed) is
 * pending again with its attempts counted anew, next in its organization's order; one whose row retention
 * removed is made again from the event while the outbox keeps it. NOT_FOUND when neither is left.
 */
export function replayWebhookDelivery(
  services: Pick<WebhookServices, 'store' | 'clock'>,
  caller: Caller,
  input: ReplayData,
): Maybe<{ webhookId: string; eventId: number; status: 'replayed' | 'pending' }> {
  return then(services.store.replayWebhookDelivery(caller.id, input.webhookId, input.eventId, services.clock()), (status) => {
    if (status === null)
      return then(services.store.getWebhook(caller.id, input.webhookId), (w) => {
        if (!w) throw notFound(input.webhookId);
        throw new ApiError(
          'NOT_FOUND',
          `Webhook ${input.webhookId} has no delivery of event ${input.eventId}, and the event is not kept (or came before the webhook).`,
        );
      });
    return { webhookId: input.webhookId, eventId: input.eventId, status };
  });
}

/** MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE unless set: the most deliveries one transaction of webhooks/recover makes pending. */
export const DEFAULT_RECOVER_BATCH_SIZE = 1000;

/**
 * webhooks/recover: every delivery of the webhook that failed for good and was made at or after `since`,
 * pending again, each organization's in event order (docs/events.md, "Recovering after an outage"), a batch
 * of at most MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE per transaction; answers once the last batch committed.
 */
export function recoverWebhookDeliveries(
  services: Pick<WebhookServices, 'store' | 'clock' | 'webhookRecoverBatchSize'>,
  caller: Caller,
  input: RecoverData,
): Maybe<{ webhookId: string; recovered: number }> {
  const batch = services.webhookRecoverBatchSize ?? DEFAULT_RECOVER_BATCH_SIZE;
  return then(services.store.getWebhook(caller.id, input.webhookId), (w) => {
    if (!w) throw notFound(input.webhookId);
    return then(
      services.store.recoverWebhookDeliveries(caller.id, input.webhookId, input.since, services.clock(), batch),
      (n) => ({
        webhookId: input.webhookId,
        recovered: n,
      }),
    );
  });
}

/**
 * webhooks/secret/rotate: a new secret; the one before signs every delivery beside it for the grace period,
 * so deliveries pending at the rotation verify with either (docs/events.md, "Rotating a secret").
 */
export function rotateWebhookSecret(
  services: Pick<WebhookServices, 'store' | 'clock' | 'webhookSecretGraceHours'>,
  caller: Caller,
  input: WebhookIdData,
): Maybe<{ webhookId: string; secret: string; previousSecretValidUntil: number }> {
  const now = services.clock();
  const until = now + (services.webhookSecretGraceHours ?? DEFAULT_SECRET_GRACE_HOURS) * HOUR_MS;
  const secret = newWebhookSecret();
  return then(services.store.rotateWebhookSecret(caller.id, input.webhookId, secret, until, now), (rotated) => {
    if (!rotated) throw notFound(input.webhookId);
    return { webhookId: input.webhookId, secret, previousSecretValidUntil: until };
  });
}
