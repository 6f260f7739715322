// Workspace keys and tokens (docs/api.md, "Workspace keys and tokens"): the requests and answers of the API-key
// pages, those the workspace's credentials call (apikey/create|update, apikeys/get, authtokens/get,
// authtoken/reset) and those a key's own credentials call (domains/get, apikeyconfig/get|update).
import Type from 'typebox';
import { Email, Id, Opt, RequestBody, type DataOf, type InputLimits } from './common.js';
import { AccessTypeIn } from './documents.js';
import { Success } from './responses.js';
import { MAX_DOMAIN_ENTRY_LENGTH, MAX_DOMAINS_PER_CALL } from './workspace.js';

/** Most keys apikeys/get answers at once, and what it answers without pageSize (the page's). */
export const MAX_API_KEYS_PAGE = 100;
/** The longest secret a settings member takes (an AI model key, an email provider's key): kept masked only. */
export const MAX_SECRET_LENGTH = 1024;
const SHORT_TEXT = 1024;

const KeyType = Type.Union([Type.Literal('testing'), Type.Literal('production')], {
  description: 'testing or production: stored and shown; both kinds are the same here',
});
const Region = Type.String({
  pattern: '^[a-z][a-z0-9-]{0,62}[a-z0-9]$',
  description: "A region name (us-central1, europe-west1, eur3): stored and shown; this server's database is where it runs",
});
const Flag = (description: string) => Opt(Type.Boolean({ description }));
const Shown = 'Stored and shown (apikeyconfig/get); nothing here acts on it';

const EmailServiceConfig = Type.Object(
  {
    type: Opt(Type.Union([Type.Literal('default'), Type.Literal('sendgrid')])),
    apiKey: Opt(Type.String({ maxLength: MAX_SECRET_LENGTH, description: 'Kept masked only' })),
    fromEmail: Opt(Email),
    fromCompany: Opt(Type.String({ maxLength: SHORT_TEXT })),
    commentTemplateId: Opt(Type.String({ maxLength: SHORT_TEXT })),
    tagTemplateId: Opt(Type.String({ maxLength: SHORT_TEXT })),
  },
  { additionalProperties: false, description: Shown },
);
const WebhookServiceConfig = Type.Object(
  {
    authToken: Opt(Type.String({ maxLength: MAX_SECRET_LENGTH, description: 'Kept masked only' })),
    rawNotificationUrl: Opt(Type.String({ maxLength: 2048 })),
    processedNotificationUrl: Opt(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false, description: Shown },
);

/** workspace/apikey/create. */
export const ApiKeyCreateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      ownerEmail: Email,
      type: KeyType,
      persistenceDBRegion: Opt(Region),
      realtimeDBRegion: Opt(Region),
      createAuthToken: Flag('Make the key its first auth token, shown once in the answer (authToken)'),
      apiKeyName: Opt(Type.String({ minLength: 1, maxLength: 256, description: 'Default: "Production Key" or "Testing Key"' })),
      allowedDomains: Opt(
        Type.Array(Type.String({ minLength: 1, maxLength: MAX_DOMAIN_ENTRY_LENGTH }), { maxItems: MAX_DOMAINS_PER_CALL }),
      ),
      addLocalHostToAllowedDomains: Flag('Allow localhost too'),
      useEmailService: Flag(Shown),
      useWebhookService: Flag(Shown),
      useNotificationService: Flag(Shown),
      setDefaultNotificationTriggers: Flag(Shown),
      setDefaultEmailTriggers: Flag(Shown),
      requireAutoOrgUser: Flag(Shown),
      enablePrivateComments: Flag(Shown),
      emailServiceConfig: Opt(EmailServiceConfig),
      webhookServiceConfig: Opt(WebhookServiceConfig),
    }),
  );
export type ApiKeyCreateData = DataOf<typeof ApiKeyCreateBody>;

/** workspace/apikey/update. */
export const ApiKeyUpdateBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ apiKey: Id, apiKeyName: Type.String({ minLength: 1, maxLength: 256 }) }));
export type ApiKeyUpdateData = DataOf<typeof ApiKeyUpdateBody>;

/** workspace/apikeys/get. */
export const ApiKeysGetBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      apiKeys: Opt(Type.Array(Id, { maxItems: MAX_API_KEYS_PAGE, description: 'Only these keys' })),
      pageSize: Opt(Type.Integer({ minimum: 1, maximum: MAX_API_KEYS_PAGE, description: `Default ${MAX_API_KEYS_PAGE}` })),
      pageToken: Opt(Type.String({ minLength: 1, maxLength: 1024 })),
    }),
  );
export type ApiKeysGetData = DataOf<typeof ApiKeysGetBody>;

/** workspace/authtokens/get and workspace/authtoken/reset. */
export const ApiKeyBody = (_limits: InputLimits) => RequestBody(Type.Object({ apiKey: Id }));
export type ApiKeyData = DataOf<typeof ApiKeyBody>;

/** workspace/domains/get and apikeyconfig/get: nothing to name (the key is the caller's). */
export const NoDataBody = (_limits: InputLimits) => RequestBody(Type.Object({}));
export type NoData = DataOf<typeof NoDataBody>;

export const AI_PROVIDERS = ['openai', 'anthropic', 'gemini'] as const;

/** workspace/apikeyconfig/update: at least one member; any other member is refused (checked by the service). */
export const ApiKeyConfigUpdateBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object(
      {
        enablePrivateComments: Flag(Shown),
        requireJwtToken: Flag(Shown),
        requireAutoOrgUser: Flag(Shown),
        defaultDocumentAccessType: Opt(AccessTypeIn),
        aiModelApiKey: Opt(
          Type.Array(
            Type.Object({
              provider: Type.Union(AI_PROVIDERS.map((p) => Type.Literal(p))),
              customerApiKey: Type.String({ minLength: 1, maxLength: MAX_SECRET_LENGTH }),
            }),
            { minItems: 1, maxItems: 16, description: 'Each key is kept masked only: never stored whole, never answered' },
          ),
        ),
      },
      { description: 'At least one member; another member is refused' },
    ),
  );
export type ApiKeyConfigUpdateData = DataOf<typeof ApiKeyConfigUpdateBody>;

const AccessType = Type.Union([Type.Literal('organizationPrivate'), Type.Literal('restricted'), Type.Literal('public')]);
const Masked = Type.Record(Type.String(), Type.Object({ displayText: Type.String() }), {
  description: 'provider -> its key masked; absent when none was given',
});

export const ApiKeyCreatedResult = Success(
  Type.Object({
    apiKey: Type.String(),
    authToken: Type.Optional(Type.String({ description: 'With createAuthToken: the new auth token, shown only here' })),
  }),
);
export const ApiKeyUpdatedResult = Success(Type.Null());

export const ApiKeyItem = Type.Object({
  id: Type.String({ description: 'The API key' }),
  apiKeyName: Type.String(),
  type: Type.Union([Type.Literal('testing'), Type.Literal('production')], {
    description: 'As created; production for a key made by the CLI',
  }),
  ownerEmail: Type.Optional(Type.String({ description: 'Absent for a key made by the CLI' })),
  createdAt: Type.Integer({ description: 'ms since the epoch' }),
  disabled: Type.Boolean(),
  revoked: Type.Boolean(),
});
export const ApiKeysResult = Success(Type.Array(ApiKeyItem, { description: 'In API key order, paged' }), {
  nextPageToken: Type.Optional(Type.String({ description: 'Present when more keys remain' })),
});

const AuthTokenShown = Type.Object({
  token: Type.String({
    description: 'authtokens/get: the first characters only (tokens are kept hashed); reset: the whole new token',
  }),
  name: Type.String({ description: '"Default Auth Token" for the oldest active token, then "Auth Token 2", ...' }),
  domains: Type.Array(Type.String(), { description: "Always empty: a token has no domains of its own (the key's: domains/get)" }),
  createdAt: Type.Integer({ description: 'ms since the epoch' }),
});
export const AuthTokensResult = Success(
  Type.Object({ apiKey: Type.String(), authTokens: Type.Array(AuthTokenShown, { description: 'Active tokens, oldest first' }) }),
);
export const AuthTokenResetResult = Success(Type.Object({ apiKey: Type.String(), newAuthToken: AuthTokenShown }));

export const AllowedDomainsResult = Success(
  Type.Object({ allowedDomains: Type.Array(Type.String(), { description: 'Normalized hosts, in code-unit order' }) }),
);

const ShownMembers = {
  persistenceDBRegion: Type.Optional(Type.String()),
  realtimeDBRegion: Type.Optional(Type.String()),
  useEmailService: Type.Optional(Type.Boolean()),
  useWebhookService: Type.Optional(Type.Boolean()),
  useNotificationService: Type.Optional(Type.Boolean()),
  setDefaultNotificationTriggers: Type.Optional(Type.Boolean()),
  setDefaultEmailTriggers: Type.Optional(Type.Boolean()),
  emailServiceConfig: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Its apiKey masked' })),
  webhookServiceConfig: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Its authToken masked' })),
};

export const ApiKeyConfigResult = Success(
  Type.Object({
    ownerEmail: Type.Optional(Type.String({ description: 'Absent for a key made by the CLI' })),
    planInfo: Type.Object({ type: Type.String({ description: '"self-hosted": there are no plans here' }) }),
    defaultDocumentAccessType: AccessType,
    isPrivateCommentsEnabled: Type.Boolean(),
    requireJwtToken: Type.Boolean(),
    requireAutoOrgUser: Type.Boolean(),
    aiModelsConfig: Type.Optional(Masked),
    ...ShownMembers,
  }),
);
export const ApiKeyConfigUpdatedResult = Success(
  Type.Object(
    {
      enablePrivateComments: Type.Optional(Type.Boolean()),
      requireJwtToken: Type.Optional(Type.Boolean()),
      requireAutoOrgUser: Type.Optional(Type.Boolean()),
      defaultDocumentAccessType: Type.Optional(AccessType),
      aiModelsConfig: Type.Optional(Masked),
    },
    { description: 'The members given, as they now are (the AI keys masked, all of them)' },
  ),
);
