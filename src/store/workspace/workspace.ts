// Store code of the workspace's credentials and of API keys as the workspace pages manage them (docs/api.md,
// "Workspace keys and tokens"). A key is a tenant: its changes go through the credentials' own code and
// bump the credentials version, so a process caching authentication sees them on the next request.
import { all, first, list, run, type Work } from '../sql.js';
import {
  type ApiKeyListing,
  type ApiKeySettings,
  mergeSettings,
  type SettingsChange,
  type WorkspaceRecord,
} from '../../domain/api-keys.js';
import type { TokenRecord } from '../../domain/credentials.js';
import { changing, insertTenant, type NewTenant } from '../credentials/credentials.js';
import { add as addDomains } from '../domains/domains.js';
import { listingFrom, settingsFrom, settingsParams, workspaceFrom } from './rows.js';
import { CREDENTIALS_SQL } from '../credentials/sql.js';
import { WORKSPACE_SQL as SQL } from './sql.js';

export function* workspace(): Work<WorkspaceRecord | null> {
  return workspaceFrom(yield* first(SQL.workspace));
}

/** Makes the workspace's credentials (under `workspaceId`) or rotates its token; answers its id and which it did. */
export function* setWorkspaceToken(workspaceId: string, token: TokenRecord): Work<{ workspaceId: string; rotated: boolean }> {
  const row = (yield* first(SQL.setWorkspaceToken, {
    workspaceId,
    hash: token.hash,
    prefix: token.prefix,
    now: token.createdAt,
  }))!;
  return { workspaceId: row.workspace_id as string, rotated: row.rotated_at !== null };
}

/** workspace/apikey/create: the tenant, its first token (if any), its settings and its allowed domains, together. */
export const createApiKey = (
  tenant: NewTenant,
  token: TokenRecord | null,
  settings: ApiKeySettings,
  domains: readonly string[],
): Work<void> =>
  changing(
    (function* () {
      yield* insertTenant(tenant, token);
      yield* run(SQL.putSettings, settingsParams(tenant.id, settings, tenant.createdAt));
      // A new tenant allows no domain yet: the service has checked the list against the limit.
      if (domains.length > 0) yield* addDomains(tenant.id, domains, domains.length, tenant.createdAt);
    })(),
  );

export const renameApiKey = (apiKey: string, name: string): Work<boolean> =>
  changing(
    (function* () {
      return (yield* run(SQL.renameKey, { apiKey, name })) > 0;
    })(),
  );

export function* apiKeys(after: string | null, apiKeys: readonly string[] | null, limit: number): Work<ApiKeyListing[]> {
  return (yield* all(SQL.keys, { after: after ?? '', apiKeys: list(apiKeys), limit })).map(listingFrom);
}

export function* apiKey(apiKey: string): Work<ApiKeyListing | null> {
  const row = yield* first(SQL.keyByApiKey, { apiKey });
  return row ? listingFrom(row) : null;
}

/** workspace/authtoken/reset: every active token of the tenant revoked, and the new one added. */
export const resetToken = (tenantId: string, token: TokenRecord): Work<void> =>
  changing(
    (function* () {
      yield* run(SQL.revokeTokens, { tenantId, at: token.createdAt });
      yield* run(CREDENTIALS_SQL.insertToken, { tenantId, ...token });
    })(),
  );

export function* settings(tenantId: string): Work<ApiKeySettings> {
  return settingsFrom(yield* first(SQL.settings, { tenantId }));
}

/** apikeyconfig/update: the change merged into the key's settings (field by field), which are answered. */
export function* updateSettings(tenantId: string, change: SettingsChange, now: number): Work<ApiKeySettings> {
  yield* first(SQL.lockTenant, { tenantId });
  const merged = mergeSettings(settingsFrom(yield* first(SQL.settings, { tenantId })), change);
  yield* run(SQL.putSettings, settingsParams(tenantId, merged, now));
  return merged;
}
