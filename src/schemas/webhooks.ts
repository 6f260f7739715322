// The request data of webhooks (docs/events.md, "Webhooks"): webhooks/add, get, delete and deliveries/get.
import Type from 'typebox';
import { Id, PAGING, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';

/**
 * What an event's type starts with (docs/events.md, "Webhooks"): a webhook may name a type, or every type of one of these
 * (`comment.*`).
 */
export const EVENT_CATEGORIES = [
  'comment_annotation',
  'comment',
  'notification',
  'user',
  'organization',
  'document',
  'folder',
  'livestate',
  'workflow',
  'presence',
] as const;

export const EVENT_TYPE_PATTERN = `^(${EVENT_CATEGORIES.join('|')})\\.([a-z_]{1,64}|\\*)$`;

/** Most event types and patterns one webhook names. */
export const MAX_WEBHOOK_EVENT_TYPES = 100;

/** The longest webhook URL, and description (webhooks/add and `marginalia webhooks add`). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 1024;

export const WebhookUrl = Type.String({
  minLength: 1,
  maxLength: MAX_WEBHOOK_URL_LENGTH,
  description: 'An http:// or https:// URL',
});

export const EventTypeName = Type.String({
  pattern: EVENT_TYPE_PATTERN,
  description: `an event type (comment.add) or every type of a kind (comment.*); kinds: ${EVENT_CATEGORIES.join(', ')}`,
});

export const WebhooksAddBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      url: WebhookUrl,
      // None or empty: every event (docs/api.md, "Wire format", an empty filter is no filter).
      events: Opt(Type.Array(EventTypeName, { maxItems: MAX_WEBHOOK_EVENT_TYPES })),
      description: Opt(Type.String({ maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH })),
    }),
  );
export type WebhooksAddData = DataOf<typeof WebhooksAddBody>;

/** webhooks/get: the tenant's webhooks (no members; `data` may be empty). */
export const WebhooksGetBody = (_limits: InputLimits) => RequestBody(Type.Object({}));
export type WebhooksGetData = DataOf<typeof WebhooksGetBody>;

export const WebhookIdBody = (_limits: InputLimits) => RequestBody(Type.Object({ webhookId: Id }));
export type WebhookIdData = DataOf<typeof WebhookIdBody>;

export const WebhookDeliveriesGetBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      webhookId: Id,
      ...PAGING,
    }),
  );
export type WebhookDeliveriesGetData = DataOf<typeof WebhookDeliveriesGetBody>;
