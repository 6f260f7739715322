// The workspace's credentials and API keys as the workspace pages manage them (docs/api.md, "Workspace keys and
// tokens"). This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { ApiKeyListing, ApiKeySettings, SettingsChange, WorkspaceRecord } from '../../domain/api-keys.js';
import type { TokenRecord } from '../../domain/credentials.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import type { NewTenant } from '../credentials/credentials.js';
import * as workspace from './workspace.js';

export const workspaceStore = (core: StoreCore) => ({
  /** The workspace's credentials, or null before `marginalia workspace credentials` made them. */
  workspaceCredentials(): Maybe<WorkspaceRecord | null> {
    return core.read('workspaceCredentials', () => workspace.workspace());
  },

  /** workspaceCredentials, seeing every commit made before it by any process (a token the CLI just made). */
  latestWorkspaceCredentials(): Maybe<WorkspaceRecord | null> {
    return core.readLatest('latestWorkspaceCredentials', () => workspace.workspace());
  },

  /** Makes the workspace's credentials under `workspaceId`, or rotates the token of those there (their id stays). */
  setWorkspaceToken(workspaceId: string, token: TokenRecord): Maybe<{ workspaceId: string; rotated: boolean }> {
    return core.write('setWorkspaceToken', () => workspace.setWorkspaceToken(workspaceId, token));
  },

  /** workspace/apikey/create: a tenant with its first token (or none), settings and allowed domains, in one transaction. */
  createApiKey(tenant: NewTenant, token: TokenRecord | null, settings: ApiKeySettings, domains: readonly string[]): Maybe<void> {
    return core.write('createApiKey', () => workspace.createApiKey(tenant, token, settings, domains));
  },

  /** workspace/apikey/update: false when no such key exists. */
  renameApiKey(apiKey: string, name: string): Maybe<boolean> {
    return core.write('renameApiKey', () => workspace.renameApiKey(apiKey, name));
  },

  /** Up to `limit` keys in api_key order after `after`, only those of `apiKeys` when given. */
  apiKeys(after: string | null, apiKeys: readonly string[] | null, limit: number): Maybe<ApiKeyListing[]> {
    return core.read('apiKeys', () => workspace.apiKeys(after, apiKeys, limit));
  },

  apiKey(apiKey: string): Maybe<ApiKeyListing | null> {
    return core.read('apiKey', () => workspace.apiKey(apiKey));
  },

  /** workspace/authtoken/reset: the tenant's active tokens revoked and `token` added, together. */
  resetApiKeyToken(tenantId: string, token: TokenRecord): Maybe<void> {
    return core.write('resetApiKeyToken', () => workspace.resetToken(tenantId, token));
  },

  apiKeySettings(tenantId: string): Maybe<ApiKeySettings> {
    return core.read('apiKeySettings', () => workspace.settings(tenantId));
  },

  updateApiKeySettings(tenantId: string, change: SettingsChange, now: number): Maybe<ApiKeySettings> {
    return core.write('updateApiKeySettings', () => workspace.updateSettings(tenantId, change, now));
  },
});

export type WorkspaceStore = ReturnType<typeof workspaceStore>;
