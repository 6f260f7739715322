// `marginalia webhooks ...`: webhooks/add, get, delete and deliveries/get from the command line
// (docs/events.md, "Webhooks"), through the same services as the HTTP operations, for the tenant --tenant names.
import { systemClock } from '../clock.js';
import { ApiError } from '../errors.js';
import { MAX_ID_LENGTH } from '../schemas/common.js';
import {
  EVENT_CATEGORIES,
  EVENT_TYPE_PATTERN,
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_EVENT_TYPES,
  MAX_WEBHOOK_URL_LENGTH,
} from '../schemas/webhooks.js';
import {
  addWebhook,
  deleteWebhook,
  enableWebhook,
  getWebhookDeliveries,
  getWebhooks,
  recoverWebhookDeliveries,
  replayWebhookDelivery,
  rotateWebhookSecret,
} from '../services/webhooks.js';
import type { Store } from '../store/store.js';
import { CliError, chosenTenant, type Io } from './commands.js';

export const WEBHOOKS_ADD_USAGE = 'webhooks add --url <url> [--events <type,...>] [--description <text>] [--tenant <tenant>]';
export const WEBHOOKS_LIST_USAGE = 'webhooks list [--tenant <tenant>]';
export const WEBHOOKS_DELETE_USAGE = 'webhooks delete --id <webhookId> [--tenant <tenant>]';
export const WEBHOOKS_DELIVERIES_USAGE = 'webhooks deliveries --id <webhookId> [--tenant <tenant>]';
export const WEBHOOKS_REPLAY_USAGE = 'webhooks replay --id <webhookId> --event <eventId> [--tenant <tenant>]';
export const WEBHOOKS_RECOVER_USAGE = 'webhooks recover --id <webhookId> --since <ISO time or ms> [--tenant <tenant>]';
export const WEBHOOKS_ROTATE_USAGE = 'webhooks rotate --id <webhookId> [--tenant <tenant>]';
export const WEBHOOKS_ENABLE_USAGE = 'webhooks enable --id <webhookId> [--tenant <tenant>]';

/** Attempts `webhooks deliveries` prints: the newest. */
const ATTEMPTS_SHOWN = 100;

const json = (io: Io, value: unknown) => io.out(JSON.stringify(value, null, 2));
const iso = (ms: number) => new Date(ms).toISOString();

export interface WebhookAddRequest {
  tenant: string | undefined;
  url: string;
  events: string[] | null;
  description: string | null;
}

/** webhooks add's options, checked as webhooks/add's body is (the URL and its host are checked when it runs). */
export function webhookAddRequest(options: {
  tenant?: string;
  url?: string;
  events?: string;
  description?: string;
}): WebhookAddRequest {
  if (options.url === undefined) throw new CliError(`usage: marginalia ${WEBHOOKS_ADD_USAGE}`, 2);
  if (options.url.length > MAX_WEBHOOK_URL_LENGTH)
    throw new CliError(`--url takes at most ${MAX_WEBHOOK_URL_LENGTH} characters.`, 2);
  const events =
    options.events === undefined
      ? null
      : options.events
          .split(',')
          .map((e) => e.trim())
          .filter((e) => e !== '');
  const pattern = new RegExp(EVENT_TYPE_PATTERN);
  const bad = events?.find((e) => !pattern.test(e));
  if (bad !== undefined)
    throw new CliError(
      `--events: "${bad}" is not an event type (comment.add) or every type of a kind (comment.*); kinds: ${EVENT_CATEGORIES.join(', ')}.`,
      2,
    );
  if (events && events.length > MAX_WEBHOOK_EVENT_TYPES)
    throw new CliError(`--events takes at most ${MAX_WEBHOOK_EVENT_TYPES} types.`, 2);
  if (options.description !== undefined && options.description.length > MAX_WEBHOOK_DESCRIPTION_LENGTH)
    throw new CliError(`--description takes at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters.`, 2);
  return {
    tenant: options.tenant,
    url: options.url,
    events: events && events.length > 0 ? events : null,
    description: options.description ?? null,
  };
}

/** An --id, or the usage. */
export function webhookIdOption(options: { id?: string }, usage: string): string {
  if (options.id === undefined || options.id.length < 1 || options.id.length > MAX_ID_LENGTH)
    throw new CliError(`usage: marginalia ${usage}`, 2);
  return options.id;
}

/** What an operation refused, as the CLI says it: the message, exit code 1 (2 for a refused argument). */
async function speaking<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError)
      throw new CliError(err.message.replace(/^data\./, '--'), err.code === 'INVALID_ARGUMENT' ? 2 : 1);
    throw err;
  }
}

/** Prints {"webhookId","secret"} (webhooks list never shows the secret; /v2 endpoints/secret/get does). */
export async function webhooksAdd(store: Store, io: Io, request: WebhookAddRequest, allowPrivate: boolean): Promise<void> {
  const tenant = await chosenTenant(store, request.tenant);
  const added = await speaking(() =>
    addWebhook({ store, clock: systemClock, webhookAllowPrivate: allowPrivate }, tenant, {
      url: request.url,
      events: request.events,
      description: request.description,
    }),
  );
  io.out(JSON.stringify(added));
}

export async function webhooksList(store: Store, io: Io, tenant: string | undefined): Promise<void> {
  const caller = await chosenTenant(store, tenant);
  const list = await getWebhooks({ store }, caller);
  json(
    io,
    list.map((w) => ({ ...w, createdAt: iso(w.createdAt) })),
  );
}

export async function webhooksDelete(store: Store, io: Io, tenant: string | undefined, webhookId: string): Promise<void> {
  const caller = await chosenTenant(store, tenant);
  await speaking(() => deleteWebhook({ store }, caller, { webhookId }));
  json(io, { webhookId, deleted: true });
}

/** Prints the webhook as `webhooks list` shows it, switched on again (its failures forgotten, its deliveries due). */
export async function webhooksEnable(store: Store, io: Io, tenant: string | undefined, webhookId: string): Promise<void> {
  const caller = await chosenTenant(store, tenant);
  const on = await speaking(() => enableWebhook({ store, clock: systemClock }, caller, { webhookId }));
  json(io, { ...on, createdAt: iso(on.createdAt) });
}

/** The webhook's last attempts, newest first. */
export async function webhooksDeliveries(store: Store, io: Io, tenant: string | undefined, webhookId: string): Promise<void> {
  const caller = await chosenTenant(store, tenant);
  const page = await speaking(() => getWebhookDeliveries({ store }, caller, { webhookId, pageSize: ATTEMPTS_SHOWN }));
  json(
    io,
    page.attempts.map((a) => ({ ...a, attemptedAt: iso(a.attemptedAt) })),
  );
}

/** webhooks replay's options: the webhook and the event (an id webhooks deliveries shows). */
export function replayRequest(options: { id?: string; event?: string }): { webhookId: string; eventId: number } {
  const webhookId = webhookIdOption(options, WEBHOOKS_REPLAY_USAGE);
  const eventId = Number(options.event);
  if (options.event === undefined || !/^[1-9]\d{0,15}$/.test(options.event) || !Number.isSafeInteger(eventId))
    throw new CliError(`usage: marginalia ${WEBHOOKS_REPLAY_USAGE} (--event: a positive integer)`, 2);
  return { webhookId, eventId };
}

/** webhooks recover's options: --since an ISO 8601 time (2026-11-27T09:00:00Z) or milliseconds since the epoch. */
export function recoverRequest(options: { id?: string; since?: string }): { webhookId: string; since: number } {
  const webhookId = webhookIdOption(options, WEBHOOKS_RECOVER_USAGE);
  const text = options.since ?? '';
  const since = /^\d{1,16}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isSafeInteger(since) || since < 0)
    throw new CliError(`usage: marginalia ${WEBHOOKS_RECOVER_USAGE} (--since: an ISO 8601 time or ms since the epoch)`, 2);
  return { webhookId, since };
}

/** Prints {"webhookId","eventId","status"}: replayed (pending again), or pending (not sent yet). */
export async function webhooksReplay(
  store: Store,
  io: Io,
  tenant: string | undefined,
  request: { webhookId: string; eventId: number },
): Promise<void> {
  const caller = await chosenTenant(store, tenant);
  json(io, await speaking(() => replayWebhookDelivery({ store, clock: systemClock }, caller, request)));
}

/** Prints {"webhookId","recovered"}: the failed deliveries made since --since, pending again; the server sends them. */
export async function webhooksRecover(
  store: Store,
  io: Io,
  tenant: string | undefined,
  request: { webhookId: string; since: number },
  batchSize: number,
): Promise<void> {
  const caller = await chosenTenant(store, tenant);
  const services = { store, clock: systemClock, webhookRecoverBatchSize: batchSize };
  json(io, await speaking(() => recoverWebhookDeliveries(services, caller, request)));
}

/** Prints {"webhookId","secret","previousSecretValidUntil"}: the old secret signs too until then. */
export async function webhooksRotate(
  store: Store,
  io: Io,
  tenant: string | undefined,
  webhookId: string,
  graceHours: number,
): Promise<void> {
  const caller = await chosenTenant(store, tenant);
  const rotated = await speaking(() =>
    rotateWebhookSecret({ store, clock: systemClock, webhookSecretGraceHours: graceHours }, caller, { webhookId }),
  );
  json(io, { ...rotated, previousSecretValidUntil: iso(rotated.previousSecretValidUntil) });
}
