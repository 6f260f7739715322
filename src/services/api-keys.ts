// API keys as the workspace manages them (docs/api.md, "Workspace keys and tokens"): a key is a tenant, made,
// renamed, listed and given a new auth token by the workspace pages, which the workspace's credentials call.
// Tokens are kept hashed, so only a new one is ever shown whole; a listing shows their first characters.
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { ApiKeyCreateData, ApiKeyData, ApiKeysGetData, ApiKeyUpdateData } from '../schemas/api-keys.js';
import { MAX_API_KEYS_PAGE } from '../schemas/api-keys.js';
import { type ApiKeySettings, maskSecret, type ShownSettings, tokenName, type Workspace } from '../domain/api-keys.js';
import { newApiKey, newAuthToken, newTenantId } from '../domain/ids.js';
import { recordOperatorAction } from './activities.js';
import type { Services } from './context.js';
import { tokenRecord } from './credentials.js';
import { asSet, decodeKeyToken, encodeKeyToken, filterDigest } from './page-token.js';
import { DEFAULT_MAX_ALLOWED_DOMAINS, normalizedDomains } from './workspace-domains.js';

export const API_KEY_CREATED = 'API key created successfully.';
export const API_KEY_UPDATED = 'API key updated successfully.';
export const API_KEYS_RETRIEVED = 'API keys retrieved successfully.';
export const AUTH_TOKENS_RETRIEVED = 'Auth tokens retrieved successfully.';
export const AUTH_TOKEN_RESET = 'Auth token reset successfully.';
/** The pages' answer to a key that does not exist. */
export const API_KEY_NOT_FOUND = 'API key not found.';

const notFound = () => new ApiError('NOT_FOUND', API_KEY_NOT_FOUND);

/** A plausible address: one @, something on each side, a dot in the domain, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Null members left out, so a stored setting is one the caller gave. */
const given = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;

/** The create page's members this server stores and shows, secrets masked (docs/decisions.md). */
function shownOf(input: ApiKeyCreateData): ShownSettings {
  const email = input.emailServiceConfig ? given(input.emailServiceConfig) : null;
  const webhook = input.webhookServiceConfig ? given(input.webhookServiceConfig) : null;
  return given({
    requireAutoOrgUser: input.requireAutoOrgUser,
    enablePrivateComments: input.enablePrivateComments,
    persistenceDBRegion: input.persistenceDBRegion,
    realtimeDBRegion: input.realtimeDBRegion,
    useEmailService: input.useEmailService,
    useWebhookService: input.useWebhookService,
    useNotificationService: input.useNotificationService,
    setDefaultNotificationTriggers: input.setDefaultNotificationTriggers,
    setDefaultEmailTriggers: input.setDefaultEmailTriggers,
    emailServiceConfig: email ? { ...email, ...(email.apiKey ? { apiKey: maskSecret(email.apiKey) } : {}) } : undefined,
    webhookServiceConfig: webhook
      ? { ...webhook, ...(webhook.authToken ? { authToken: maskSecret(webhook.authToken) } : {}) }
      : undefined,
  }) as ShownSettings;
}

/** workspace/apikey/create: a new tenant, with its settings, allowed domains and (createAuthToken) first token. */
export function createApiKey(
  { store, clock, maxAllowedDomains = DEFAULT_MAX_ALLOWED_DOMAINS }: Services,
  _workspace: Workspace,
  input: ApiKeyCreateData,
): Maybe<{ apiKey: string; authToken?: string }> {
  if (!EMAIL.test(input.ownerEmail)) throw invalid('ownerEmail must be a valid email.');
  const listed = [...(input.allowedDomains ?? []), ...(input.addLocalHostToAllowedDomains ? ['localhost'] : [])];
  const domains = normalizedDomains(listed, 'allowedDomains');
  if (domains.length > maxAllowedDomains)
    throw new ApiError(
      'RESOURCE_EXHAUSTED',
      `A tenant may allow at most ${maxAllowedDomains} domains (MARGINALIA_MAX_ALLOWED_DOMAINS); nothing was created.`,
    );
  const now = clock();
  const apiKey = newApiKey();
  const authToken = input.createAuthToken ? newAuthToken() : null;
  const settings: ApiKeySettings = {
    ownerEmail: input.ownerEmail,
    type: input.type,
    defaultDocumentAccessType: null,
    shown: shownOf(input),
  };
  const name = input.apiKeyName ?? (input.type === 'production' ? 'Production Key' : 'Testing Key');
  const tenant = { id: newTenantId(), apiKey, name, createdAt: now };
  return then(store.createApiKey(tenant, authToken ? tokenRecord(authToken, now) : null, settings, domains), async () => {
    await recordOperatorAction(store, clock, tenant.id, 'operator.key_create', apiKey, { name });
    return authToken ? { apiKey, authToken } : { apiKey };
  });
}

/** workspace/apikey/update: the key's new name. */
export function updateApiKey({ store, clock }: Services, _workspace: Workspace, input: ApiKeyUpdateData): Maybe<null> {
  return then(store.apiKey(input.apiKey), (found) => {
    if (!found) throw notFound();
    return then(store.renameApiKey(input.apiKey, input.apiKeyName), async (done) => {
      if (!done) throw notFound();
      await recordOperatorAction(store, clock, found.tenant.id, 'operator.key_rename', input.apiKey, { name: input.apiKeyName });
      return null;
    });
  });
}

export interface ApiKeyShown {
  id: string;
  apiKeyName: string;
  type: string;
  ownerEmail?: string;
  createdAt: number;
  disabled: boolean;
  revoked: boolean;
}

/** workspace/apikeys/get: every key of the installation (or those named), in API key order, a page at a time. */
export function listApiKeys(
  { store }: Services,
  _workspace: Workspace,
  input: ApiKeysGetData,
): Maybe<{ data: ApiKeyShown[]; nextPageToken: string | null }> {
  const only = asSet(input.apiKeys ?? null);
  const digest = filterDigest(['apikeys/get', only]);
  const after = input.pageToken != null ? decodeKeyToken(input.pageToken, digest) : null;
  const size = input.pageSize ?? MAX_API_KEYS_PAGE;
  return then(store.apiKeys(after, only, size + 1), (rows) => {
    const page = rows.slice(0, size);
    const data = page.map(({ tenant, settings }) => ({
      id: tenant.apiKey,
      apiKeyName: tenant.name,
      // A key made by the CLI has no type: it is the installation's own key, listed as production (docs/decisions.md).
      type: settings.type ?? 'production',
      ...(settings.ownerEmail !== null ? { ownerEmail: settings.ownerEmail } : {}),
      createdAt: tenant.createdAt,
      disabled: tenant.disabled,
      revoked: tenant.revoked,
    }));
    const last = page[page.length - 1];
    return { data, nextPageToken: rows.length > size && last ? encodeKeyToken(last.tenant.apiKey, digest) : null };
  });
}

export interface TokenShown {
  token: string;
  name: string;
  domains: string[];
  createdAt: number;
}

/** workspace/authtokens/get: the key's active tokens, oldest first, by their first characters (docs/decisions.md). */
export function authTokensOf(
  { store }: Services,
  _workspace: Workspace,
  input: ApiKeyData,
): Maybe<{ apiKey: string; authTokens: TokenShown[] }> {
  return then(store.apiKey(input.apiKey), (found) => {
    if (!found) throw notFound();
    return then(store.listTokens(found.tenant.id), (tokens) => ({
      apiKey: input.apiKey,
      authTokens: tokens
        .filter((t) => !t.revoked)
        .map((t, i) => ({ token: t.prefix, name: tokenName(i), domains: [], createdAt: t.createdAt })),
    }));
  });
}

/** workspace/authtoken/reset: a new token for the key, shown only here; every other token of it is revoked. */
export function resetAuthToken(
  { store, clock }: Services,
  _workspace: Workspace,
  input: ApiKeyData,
): Maybe<{ apiKey: string; newAuthToken: TokenShown }> {
  return then(store.apiKey(input.apiKey), (found) => {
    if (!found) throw notFound();
    if (found.tenant.revoked) throw invalid('This API key is revoked; it cannot take new auth tokens.');
    const token = newAuthToken();
    const record = tokenRecord(token, clock());
    return then(store.resetApiKeyToken(found.tenant.id, record), async () => {
      await recordOperatorAction(store, clock, found.tenant.id, 'operator.token_reset', input.apiKey, { prefix: record.prefix });
      return { apiKey: input.apiKey, newAuthToken: { token, name: tokenName(0), domains: [], createdAt: record.createdAt } };
    });
  });
}
