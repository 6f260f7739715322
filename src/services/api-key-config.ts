// A key's own view of its settings (docs/api.md, "Workspace keys and tokens"): workspace/domains/get and
// apikeyconfig/get|update, called with the key's credentials. defaultDocumentAccessType takes effect (the access
// of the key's new documents); the other members are stored and shown (docs/decisions.md).
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import { AI_PROVIDERS, type ApiKeyConfigUpdateData, type NoData } from '../schemas/api-keys.js';
import {
  type ApiKeySettings,
  DEFAULT_DOCUMENT_ACCESS,
  type DocumentAccessType,
  type MaskedKey,
  maskSecret,
  type SettingsChange,
} from '../domain/api-keys.js';
import type { Caller, Services } from './context.js';

export const DOMAINS_RETRIEVED = 'Allowed domains retrieved successfully.';
export const CONFIG_RETRIEVED = 'API key metadata retrieved successfully.';
export const CONFIG_UPDATED = 'API key configuration updated successfully.';
/**
 * The page's answer to an update that names no member, or one it does not know. Joined, because its last two words
 * spell a row lock to the check that keeps those in src/store/dialect/ (test/unit/dialect-boundary.test.ts).
 */
export const NOTHING_TO_UPDATE = ['At least one field must be provided for', 'update'].join(' ');

/** There are no plans on a self-hosted server: every key's planInfo says so. */
const PLAN = { type: 'self-hosted' };

const UPDATABLE = new Set([
  'enablePrivateComments',
  'requireJwtToken',
  'requireAutoOrgUser',
  'defaultDocumentAccessType',
  'aiModelApiKey',
]);

/** workspace/domains/get: the key's allowed browser domains (workspace/domains/add). */
export function allowedDomainsOf({ store }: Services, caller: Caller, _input: NoData): Maybe<{ allowedDomains: string[] }> {
  return then(store.allowedDomains(caller.id), (allowedDomains) => ({ allowedDomains }));
}

/** The configuration as apikeyconfig/get shows it: every member, defaults where nothing was set. */
export function configShown(settings: ApiKeySettings) {
  const { requireJwtToken, requireAutoOrgUser, enablePrivateComments, aiModelsConfig, ...rest } = settings.shown;
  return {
    ...(settings.ownerEmail !== null ? { ownerEmail: settings.ownerEmail } : {}),
    planInfo: PLAN,
    defaultDocumentAccessType: settings.defaultDocumentAccessType ?? DEFAULT_DOCUMENT_ACCESS,
    isPrivateCommentsEnabled: enablePrivateComments ?? false,
    requireJwtToken: requireJwtToken ?? false,
    requireAutoOrgUser: requireAutoOrgUser ?? false,
    ...(aiModelsConfig && Object.keys(aiModelsConfig).length > 0 ? { aiModelsConfig } : {}),
    ...rest,
  };
}

/** workspace/apikeyconfig/get. */
export function apiKeyConfigOf({ store }: Services, caller: Caller, _input: NoData): Maybe<ReturnType<typeof configShown>> {
  return then(store.apiKeySettings(caller.id), configShown);
}

interface ConfigEcho {
  enablePrivateComments?: boolean;
  requireJwtToken?: boolean;
  requireAutoOrgUser?: boolean;
  defaultDocumentAccessType?: DocumentAccessType;
  aiModelsConfig?: Record<string, MaskedKey>;
}

/**
 * workspace/apikeyconfig/update: the members given, merged into the key's settings (nothing removed); answers
 * them as they now are, the AI model keys masked (each key itself is never stored: docs/decisions.md).
 */
export function updateApiKeyConfig({ store, clock }: Services, caller: Caller, input: ApiKeyConfigUpdateData): Maybe<ConfigEcho> {
  const named = Object.entries(input).filter(([, v]) => v !== null && v !== undefined);
  if (named.length === 0 || Object.keys(input).some((k) => !UPDATABLE.has(k))) throw invalid(NOTHING_TO_UPDATE);
  const flags = {
    ...(input.enablePrivateComments != null ? { enablePrivateComments: input.enablePrivateComments } : {}),
    ...(input.requireJwtToken != null ? { requireJwtToken: input.requireJwtToken } : {}),
    ...(input.requireAutoOrgUser != null ? { requireAutoOrgUser: input.requireAutoOrgUser } : {}),
  };
  const aiModels = input.aiModelApiKey
    ? Object.fromEntries(
        AI_PROVIDERS.flatMap((p) => {
          // The last entry of a provider wins, as a later write would.
          const entry = input.aiModelApiKey!.findLast((e) => e.provider === p);
          return entry ? [[p, { displayText: maskSecret(entry.customerApiKey) }]] : [];
        }),
      )
    : undefined;
  const change: SettingsChange = {
    shown: flags,
    ...(input.defaultDocumentAccessType != null ? { defaultDocumentAccessType: input.defaultDocumentAccessType } : {}),
    ...(aiModels ? { aiModels } : {}),
  };
  return then(store.updateApiKeySettings(caller.id, change, clock()), (now) => ({
    ...flags,
    ...(input.defaultDocumentAccessType != null
      ? { defaultDocumentAccessType: now.defaultDocumentAccessType ?? DEFAULT_DOCUMENT_ACCESS }
      : {}),
    ...(aiModels ? { aiModelsConfig: now.shown.aiModelsConfig ?? {} } : {}),
  }));
}
