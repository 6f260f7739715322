// Webhooks, and the delivery worker's queue (src/webhooks/worker.ts), across tenants: each row carries its own.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { Maybe } from '../../maybe.js';
import { turn } from '../batches.js';
import type { StoreCore } from '../core.js';
import * as deliveries from './deliveries.js';
import type {
  ServiceEndpoint,
  ClaimedDelivery,
  DeliveryOutcome,
  DispatchLimits,
  EndpointChange,
  HealthRule,
  NewWebhook,
  WebhookAttemptRecord,
  WebhookQueueKey,
  WebhookRecord,
  WebhookSettingsRecord,
} from './types.js';
import * as webhooks from './webhooks.js';

export const webhooksStore = (core: StoreCore) => ({
  /** webhooks/add: the cursor starts at the tenant's last event; 'too_many' when it has `most` already. */
  addWebhook(tenantId: string, webhook: NewWebhook, most: number): Maybe<'added' | 'too_many' | 'uid_taken'> {
    return core.write('addWebhook', () => webhooks.add(tenantId, webhook, most));
  },

  /** webhooks/get: the tenant's webhooks in the order they were made, without their secrets. */
  getWebhooks(tenantId: string): Maybe<WebhookRecord[]> {
    return core.read('getWebhooks', () => webhooks.list(tenantId));
  },

  /** endpoints/get's one endpoint; null when it does not exist. */
  getWebhook(tenantId: string, webhookId: string): Maybe<WebhookRecord | null> {
    return core.read('getWebhook', () => webhooks.one(tenantId, webhookId));
  },

  /** endpoints/secret/get; null when the webhook does not exist. */
  getWebhookSecret(tenantId: string, webhookId: string): Maybe<string | null> {
    return core.read('getWebhookSecret', () => webhooks.secret(tenantId, webhookId));
  },

  /** endpoints/update: the members sent; the endpoint as it is now, or null when it does not exist. */
  updateWebhook(tenantId: string, webhookId: string, change: EndpointChange, now: number): Maybe<WebhookRecord | null> {
    return core.write('updateWebhook', () => webhooks.update(tenantId, webhookId, change, now));
  },

  /** webhooks/secret/rotate: false when the webhook does not exist. */
  rotateWebhookSecret(tenantId: string, webhookId: string, secret: string, until: number, now: number): Maybe<boolean> {
    return core.write('rotateWebhookSecret', () => webhooks.rotate(tenantId, webhookId, secret, until, now));
  },

  /** webhooks/deliveries/replay. */
  replayWebhookDelivery(tenantId: string, webhookId: string, eventId: number, now: number): Maybe<'replayed' | 'pending' | null> {
    return core.write('replayWebhookDelivery', () => webhooks.replay(tenantId, webhookId, eventId, now));
  },

  /**
   * webhooks/recover: how many failed deliveries are pending again. A batch of at most `batch` per transaction
   * (MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE), with a turn of the event loop between them, so a webhook with a long
   * outage behind it holds no lock for long.
   */
  async recoverWebhookDeliveries(
    tenantId: string,
    webhookId: string,
    since: number,
    now: number,
    batch: number,
  ): Promise<number> {
    let total = 0;
    for (let after: webhooks.RecoverCursor | null = webhooks.RECOVER_START; after !== null; ) {
      const at: webhooks.RecoverCursor = after;
      const out = await core.write('recoverWebhookDeliveries', () =>
        webhooks.recoverSome(tenantId, webhookId, since, now, at, batch),
      );
      total += out.recovered;
      after = out.next;
      if (after !== null) await turn();
    }
    return total;
  },

  /** The two webhook configuration pages' settings of the tenant. */
  getWebhookSettings(tenantId: string): Maybe<WebhookSettingsRecord> {
    return core.read('getWebhookSettings', () => webhooks.settings(tenantId));
  },

  putWebhookSettings(tenantId: string, which: 'advanced' | 'basic', value: Record<string, unknown>, now: number): Maybe<void> {
    return core.write('putWebhookSettings', () => webhooks.putSettings(tenantId, which, value, now));
  },

  /** One settings object changed from the stored one under a lock (`change` may refuse by throwing); answers it. */
  changeWebhookSettings(
    tenantId: string,
    which: 'advanced' | 'basic',
    change: (stored: Record<string, unknown> | null) => Record<string, unknown>,
    now: number,
  ): Maybe<Record<string, unknown>> {
    return core.write('changeWebhookSettings', () => webhooks.changeSettings(tenantId, which, change, now));
  },

  /** webhookconfig/update: its settings and its endpoint, in one transaction (webhooks.ts changeBasicService). */
  changeBasicWebhookService(
    tenantId: string,
    change: (stored: Record<string, unknown> | null) => Record<string, unknown>,
    endpointOf: (settings: Record<string, unknown>) => ServiceEndpoint,
    most: number,
    full: () => Error,
    now: number,
  ): Maybe<Record<string, unknown>> {
    return core.write('changeBasicWebhookService', () =>
      webhooks.changeBasicService(tenantId, change, endpointOf, most, full, now),
    );
  },

  /** webhooks/delete: with its queues and pending deliveries; false when it does not exist. */
  deleteWebhook(tenantId: string, webhookId: string): Maybe<boolean> {
    return core.write('deleteWebhook', () => webhooks.remove(tenantId, webhookId));
  },

  /** webhooks/deliveries/get: attempts newest first, before the attempt id `before`; null when the webhook does not exist. */
  getWebhookAttempts(
    tenantId: string,
    webhookId: string,
    before: number | null,
    limit: number,
  ): Maybe<WebhookAttemptRecord[] | null> {
    return core.read('getWebhookAttempts', () => webhooks.attempts(tenantId, webhookId, before, limit));
  },

  // The delivery worker's (src/webhooks/worker.ts), across tenants: each row carries its own.
  /** Whether there are events to dispatch or deliveries due: a read. */
  webhookWork(now: number): Maybe<{ behind: boolean; due: boolean }> {
    return core.read('webhookWork', () => deliveries.work(now));
  },

  /** Turns new events into deliveries, within the limits; answers how many and whether more may wait. */
  dispatchWebhookEvents(now: number, limits: DispatchLimits): Maybe<{ made: number; more: boolean }> {
    return core.write('dispatchWebhookEvents', () => deliveries.dispatch(now, limits));
  },

  /** Claims up to `limit` deliveries (the oldest pending of their webhook and organization) until `until`. */
  claimWebhookDeliveries(claimer: string, now: number, until: number, limit: number): Maybe<ClaimedDelivery[]> {
    return core.write('claimWebhookDeliveries', () => deliveries.claim(claimer, now, until, limit));
  },

  /** Logs the attempt and ends or reschedules the delivery while its claim is still `claimer`'s. */
  finishWebhookDelivery(claimer: string, delivery: ClaimedDelivery, outcome: DeliveryOutcome, health: HealthRule): Maybe<void> {
    return core.write('finishWebhookDelivery', () => deliveries.finish(claimer, delivery, outcome, health));
  },

  /** Hands back claims of `claimer`, due at `at`. */
  releaseWebhookDeliveries(claimer: string, keys: readonly WebhookQueueKey[], at: number): Maybe<void> {
    return core.write('releaseWebhookDeliveries', () => deliveries.release(claimer, keys, at));
  },

  /** Deletes up to `limit` finished deliveries and attempts from before `before`; answers the larger count. */
  pruneWebhookDeliveries(before: number, limit: number): Maybe<number> {
    return core.write('pruneWebhookDeliveries', () => deliveries.prune(before, limit));
  },
});

export type WebhooksStore = ReturnType<typeof webhooksStore>;
