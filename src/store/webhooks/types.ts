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
  /** The advanced endpoint's members (docs/api.md, "Advanced webhooks"); absent for webhooks/add. */
  advanced?: EndpointMembers;
}

/**
 * What an advanced endpoint has beside a webhook's: its filter as the caller named it (the webhook's
 * eventTypes are the same mapped to this server's types), the organizations it is sent (channels), whether
 * its owner switched it off, the most deliveries a second, metadata and the caller's own id for it.
 */
export interface EndpointMembers {
  filterTypes: readonly string[] | null;
  channels: readonly string[] | null;
  disabled: boolean;
  rateLimit: number | null;
  metadata: Readonly<Record<string, string>> | null;
  uid: string | null;
}

/** An endpoints/update: the members sent (undefined: kept). */
export interface EndpointChange {
  url?: string;
  description?: string | null;
  /** With the matching eventTypes. */
  filter?: { filterTypes: readonly string[]; eventTypes: readonly string[] };
  channels?: readonly string[];
  disabled?: boolean;
  rateLimit?: number;
  metadata?: Readonly<Record<string, string>>;
}

/** A webhook as webhooks/get and endpoints/get read it: never its secret. */
export interface WebhookRecord extends EndpointMembers {
  webhookId: string;
  url: string;
  description: string | null;
  eventTypes: string[] | null;
  createdAt: number;
  updatedAt: number;
  /** Why the worker switched it off (it failed for too long), and when; null while it has not. */
  autoDisabled: { at: number; reason: string } | null;
}

/** The webhook settings of a tenant (the two configuration pages), as stored: JSON objects, null when never set. */
export interface WebhookSettingsRecord {
  advanced: Record<string, unknown> | null;
  basic: Record<string, unknown> | null;
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
  /** The secret before the last rotation, while its grace period lasts: it signs beside `secret`. */
  previousSecret: string | null;
  /** When the delivery was made from its event (ms): the lag a delivery is measured by. */
  createdAt: number;
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

/** What the worker's finish needs beside the outcome: after how long failing without a success it switches a webhook off. */
export interface HealthRule {
  disableAfterMs: number;
}

/** The worker's dispatch bounds: webhooks locked per transaction, events read per webhook. */
export interface DispatchLimits {
  webhooks: number;
  events: number;
}

/** What the basic webhook service's endpoint should be after a change of its settings (services/webhook-config.ts). */
export interface ServiceEndpoint {
  uid: string;
  /** Switched on: sent the events of `change.filter`. */
  wanted: boolean;
  /** The endpoint's members to set when it exists (its `disabled` is set from `wanted`). */
  change: EndpointChange;
  /** The endpoint to make when none has the uid and it is wanted. */
  made: () => NewWebhook;
}
