// The request data and answers of the advanced webhook pages (docs/api.md, "Advanced webhooks"): endpoints
// create, get, update, delete and secret/get, the two configuration pages, and the operators' extensions
// webhooks/deliveries/replay, webhooks/recover and webhooks/secret/rotate.
import Type from 'typebox';
import { Id, Millis, Nullable, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';
import { Success } from './responses.js';
import { EventTypeName, MAX_WEBHOOK_DESCRIPTION_LENGTH, MAX_WEBHOOK_EVENT_TYPES } from './webhooks.js';

/** Most channels (organization ids) one endpoint names, and metadata entries it carries. */
export const MAX_ENDPOINT_CHANNELS = 100;
export const MAX_ENDPOINT_METADATA = 50;
/** The most deliveries a second an endpoint may ask for. */
export const MAX_ENDPOINT_RATE = 10_000;
/** endpoints/get's page: the page's bounds. */
export const MAX_ENDPOINTS_PAGE = 250;

const FilterTypes = Type.Array(EventTypeName, {
  minItems: 1,
  maxItems: MAX_WEBHOOK_EVENT_TYPES,
  description:
    "Event types (comment.add, comment.*), the original service's names too " +
    '(comment_annotation.assign: docs/events.md, "Event type names"); ' +
    'absent: every type',
});
const Channels = Type.Array(Id, {
  minItems: 1,
  maxItems: MAX_ENDPOINT_CHANNELS,
  description: 'Organization ids: only their events are sent; absent: every organization',
});
const RateLimit = Type.Integer({ minimum: 1, maximum: MAX_ENDPOINT_RATE, description: 'Most deliveries a second, enforced' });
const Metadata = Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 1024 }), {
  maxProperties: MAX_ENDPOINT_METADATA,
  description: 'Key-value pairs (string values), kept and shown as sent',
});
const Description = Type.String({ maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH });

export const EndpointCreateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      // The page's own message for a URL that is not one (its failure example): checked by the service.
      url: Type.String({ maxLength: 2048 }),
      description: Opt(Description),
      filterTypes: Opt(FilterTypes),
      channels: Opt(Channels),
      disabled: Opt(Type.Boolean()),
      rateLimit: Opt(RateLimit),
      uid: Opt(Id),
      metadata: Opt(Metadata),
    }),
  );
export type EndpointCreateData = DataOf<typeof EndpointCreateBody>;

export const EndpointUpdateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      endpointId: Id,
      url: Opt(Type.String({ maxLength: 2048 })),
      description: Opt(Description),
      filterTypes: Opt(FilterTypes),
      channels: Opt(Channels),
      disabled: Opt(Type.Boolean()),
      rateLimit: Opt(RateLimit),
      metadata: Opt(Metadata),
    }),
  );
export type EndpointUpdateData = DataOf<typeof EndpointUpdateBody>;

export const EndpointIdBody = (_limits: InputLimits) => RequestBody(Type.Object({ endpointId: Id }));
export type EndpointIdData = DataOf<typeof EndpointIdBody>;

export const EndpointsGetBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      limit: Opt(Type.Integer({ minimum: 1, maximum: MAX_ENDPOINTS_PAGE })),
      iterator: Opt(Type.String({ maxLength: 1024 })),
    }),
  );
export type EndpointsGetData = DataOf<typeof EndpointsGetBody>;

export const NoData = (_limits: InputLimits) => RequestBody(Type.Object({}));

export const AdvancedConfigUpdateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      isEnabled: Opt(Type.Boolean()),
      encryptData: Opt(Type.Boolean()),
      encodeData: Opt(Type.Boolean()),
      publicKey: Opt(Type.String({ maxLength: 16_384 })),
      enableDataProtection: Opt(Type.Boolean()),
    }),
  );
export type AdvancedConfigUpdateData = DataOf<typeof AdvancedConfigUpdateBody>;

const ServiceConfigIn = Type.Object({
  authToken: Opt(Type.String({ maxLength: 1024 })),
  rawNotificationUrl: Opt(Type.String({ maxLength: 2048 })),
  processedNotificationUrl: Opt(Type.String({ maxLength: 2048 })),
  encodeData: Opt(Type.Boolean()),
  encryptData: Opt(Type.Boolean()),
  publicKey: Opt(Type.String({ maxLength: 16_384 })),
  triggers: Opt(Type.Record(EventTypeName, Type.Boolean(), { maxProperties: MAX_WEBHOOK_EVENT_TYPES })),
});

export const WebhookConfigUpdateBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ useWebhookService: Opt(Type.Boolean()), webhookServiceConfig: Opt(ServiceConfigIn) }));
export type WebhookConfigUpdateData = DataOf<typeof WebhookConfigUpdateBody>;

export const ReplayBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({ webhookId: Id, eventId: Type.Integer({ minimum: 1, description: 'The event id (webhooks/deliveries/get)' }) }),
  );
export type ReplayData = DataOf<typeof ReplayBody>;

export const RecoverBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({ webhookId: Id, since: { ...Millis, description: 'Deliveries made from this time on (ms since the epoch)' } }),
  );
export type RecoverData = DataOf<typeof RecoverBody>;

// --- Answers ---

const Iso = Type.String({ description: 'ISO 8601, UTC' });

export const Endpoint = Type.Object({
  id: Type.String({ description: 'The webhook id (wh_...): the same as webhooks/get shows' }),
  url: Type.String(),
  description: Nullable(Type.String()),
  filterTypes: Nullable(Type.Array(Type.String(), { description: 'As sent; null: every type' })),
  channels: Nullable(Type.Array(Type.String(), { description: 'null: every organization' })),
  disabled: Type.Boolean({
    description: 'Switched off by its owner, or by the server after failing for too long (disabledReason)',
  }),
  disabledReason: Type.Optional(Type.String({ description: 'Present when the server switched it off: why and since when' })),
  rateLimit: Nullable(Type.Integer()),
  uid: Nullable(Type.String()),
  metadata: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Present when set' })),
  createdAt: Iso,
  updatedAt: Iso,
});

export const EndpointResult = Success(Endpoint);
export const EndpointListResult = Success(
  Type.Object({
    endpoints: Type.Array(Endpoint, { description: 'In the order they were made' }),
    iterator: Nullable(Type.String({ description: 'The next page; null on the last' })),
    prevIterator: Nullable(Type.String({ description: 'The page before; null on the first' })),
    done: Type.Boolean(),
  }),
);
export const EndpointDeletedResult = Success(Type.Object({ endpointId: Type.String(), deleted: Type.Literal(true) }));
export const EndpointSecretResult = Success(Type.Object({ endpointId: Type.String(), secret: Type.String() }));

export const AdvancedConfig = Type.Object({
  isEnabled: Type.Boolean(),
  encryptData: Type.Boolean(),
  encodeData: Type.Boolean(),
  publicKey: Type.String(),
  enableDataProtection: Type.Boolean(),
});
export const AdvancedConfigResult = Success(AdvancedConfig);

export const WebhookConfig = Type.Object({
  useWebhookService: Type.Boolean(),
  webhookServiceConfig: Type.Object(
    {
      authToken: Type.String(),
      rawNotificationUrl: Type.String(),
      processedNotificationUrl: Type.String(),
      encodeData: Type.Optional(Type.Boolean()),
      encryptData: Type.Optional(Type.Boolean()),
      publicKey: Type.Optional(Type.String()),
      enableDataProtection: Type.Optional(Type.Boolean({ description: 'Seeded false on the first enable' })),
      triggers: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    },
    { description: 'The three members always; the others once set' },
  ),
});
export const WebhookConfigResult = Success(WebhookConfig);

export const ReplayResult = Success(
  Type.Object({
    webhookId: Type.String(),
    eventId: Type.Integer(),
    status: Type.Union([Type.Literal('replayed'), Type.Literal('pending')], {
      description: 'replayed: pending again, sent next in its organization; pending: not sent yet, left as it was',
    }),
  }),
);
export const RecoverResult = Success(
  Type.Object({ webhookId: Type.String(), recovered: Type.Integer({ description: 'Failed deliveries pending again' }) }),
);
export const RotatedResult = Success(
  Type.Object({
    webhookId: Type.String(),
    secret: Type.String({ description: 'The new secret (whsec_...)' }),
    previousSecretValidUntil: Type.Integer({ description: 'Until when (ms) the secret before it signs too' }),
  }),
);

/**
 * The original service's event type names that differ from this server's (docs/events.md, "Event type
 * names"), each to the type that carries the same change here: a thread's assignment and priority are
 * thread updates; a suggestion accepted or rejected is a status change. (Reactions have their own events, issue 41.)
 */
export const EVENT_TYPE_ALIASES: Readonly<Record<string, string>> = {
  'comment_annotation.assign': 'comment_annotation.update',
  'comment_annotation.priority_change': 'comment_annotation.update',
  'comment_annotation.suggestion_accept': 'comment_annotation.status_change',
  'comment_annotation.suggestion_reject': 'comment_annotation.status_change',
};
