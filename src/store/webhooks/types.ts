// What the store keeps of webhooks and their deliveries (docs/events.md, "Webhooks"), as the Store interface speaks
// of it.

/** A webhook as webhooks/add writes it. */
export interface NewWebhook {
  webhookId: string;
  url: string;
  description: string | null;
  /** Event types and type patterns (`comment.*`) it is sent; null: every event. */
  eventTypes: readonly string[] | null;
  /** `whsec_` and the key in base64 (Standard Webhooks). */
  secret: string;
  createdAt: number;
}

/** A webhook as webhooks/get reads it: never its secret. */
export interface WebhookRecord {
  webhookId: string;
  url: string;
  description: string | null;
  eventTypes: string[] | null;
  createdAt: number;
}

/** One attempt at a delivery, as webhook_attempts logs it. */
export interface WebhookAttemptRecord {
  /** Increases with each attempt logged: the page key of webhooks/deliveries/get. */
  id: number;
  eventId: number;
  eventType: string;
  /** 1 for the first attempt at the event's delivery. */
  attempt: number;
  attemptedAt: number;
  /** delivered; retrying (failed, to be tried again); failed (failed for the last time). */
  status: WebhookAttemptStatus;
  /** The receiver's HTTP status, when it answered. */
  responseCode: number | null;
  /** Why the attempt failed, when it did: the HTTP status, a timeout, a refused address, a network error. */
  error: string | null;
  durationMs: number;
}

export type WebhookAttemptStatus = 'delivered' | 'retrying' | 'failed';

/** The queue a delivery is the oldest pending one of: one per (tenant, webhook, organization). */
export interface WebhookQueueKey {
  tenantId: string;
  webhookId: string;
  organizationId: string;
}

/** A delivery an instance has claimed (under a lease), with what it needs to make it. */
export interface ClaimedDelivery extends WebhookQueueKey {
  eventId: number;
  eventType: string;
  /** The event as sent: JSON text. */
  body: string;
  url: string;
  secret: string;
  /** This attempt's number: 1 for the first. */
  attempt: number;
}

/** How an attempt went, and what comes of it. */
export interface DeliveryOutcome {
  status: WebhookAttemptStatus;
  attemptedAt: number;
  responseCode: number | null;
  error: string | null;
  durationMs: number;
  /** retrying: when the next attempt is due (ms). */
  retryAt: number | null;
}

/** The worker's dispatch bounds: webhooks locked per transaction, events read per webhook. */
export interface DispatchLimits {
  webhooks: number;
  events: number;
}
