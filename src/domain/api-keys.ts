// API keys as the workspace pages see them (docs/api.md, "Workspace keys and tokens"): a key is a tenant,
// with the settings workspace/apikey/create and apikeyconfig/update keep beside it.
import type { Tenant } from './credentials.js';

export type DocumentAccessType = 'organizationPrivate' | 'restricted' | 'public';

/** The access a new document has when a key's settings name none (the documents table's own default). */
export const DEFAULT_DOCUMENT_ACCESS: DocumentAccessType = 'organizationPrivate';

/** An AI provider key as kept: only its masked text (the key itself is never stored, docs/decisions.md). */
export interface MaskedKey {
  displayText: string;
}

/**
 * What is stored and shown of a key but not acted on here (docs/decisions.md): the create page's other
 * members and the configuration's flags. Secrets among them (an email provider's API key, a webhook
 * auth token, AI model keys) are kept masked.
 */
export interface ShownSettings {
  requireJwtToken?: boolean;
  requireAutoOrgUser?: boolean;
  enablePrivateComments?: boolean;
  aiModelsConfig?: Record<string, MaskedKey>;
  persistenceDBRegion?: string;
  realtimeDBRegion?: string;
  useEmailService?: boolean;
  useWebhookService?: boolean;
  useNotificationService?: boolean;
  setDefaultNotificationTriggers?: boolean;
  setDefaultEmailTriggers?: boolean;
  emailServiceConfig?: Record<string, string>;
  webhookServiceConfig?: Record<string, string>;
}

export interface ApiKeySettings {
  ownerEmail: string | null;
  /** 'testing' or 'production'; null for a key made by the CLI. */
  type: string | null;
  /** The access of the key's new documents; null: DEFAULT_DOCUMENT_ACCESS. */
  defaultDocumentAccessType: DocumentAccessType | null;
  shown: ShownSettings;
}

export const NO_SETTINGS: ApiKeySettings = { ownerEmail: null, type: null, defaultDocumentAccessType: null, shown: {} };

/** A key as apikeys/get lists it: the tenant and its settings. */
export interface ApiKeyListing {
  tenant: Tenant;
  settings: ApiKeySettings;
}

/** The workspace's credentials as stored (migration 34): its id and its token's hash. */
export interface WorkspaceRecord {
  workspaceId: string;
  /** SHA-256 of the token, hex. */
  tokenHash: string;
  prefix: string;
  createdAt: number;
  rotatedAt: number | null;
}

/** Who a workspace page's request comes from: this installation's workspace. */
export interface Workspace {
  workspaceId: string;
}

/** What apikeyconfig/update changes: the access of new documents, and members only stored and shown. */
export interface SettingsChange {
  defaultDocumentAccessType?: DocumentAccessType;
  shown: Omit<ShownSettings, 'aiModelsConfig'>;
  /** Masked keys by provider: each replaces that provider's, the others stay. */
  aiModels?: Record<string, MaskedKey>;
}

/** The settings after a change: field by field, nothing removed (the page: "field-merge only"). */
export function mergeSettings(current: ApiKeySettings, change: SettingsChange): ApiKeySettings {
  const shown: ShownSettings = { ...current.shown, ...change.shown };
  if (change.aiModels) shown.aiModelsConfig = { ...current.shown.aiModelsConfig, ...change.aiModels };
  return {
    ...current,
    defaultDocumentAccessType: change.defaultDocumentAccessType ?? current.defaultDocumentAccessType,
    shown,
  };
}

/**
 * A secret as kept and shown (the pages' `displayText`): its first characters, at most a quarter of it and
 * never more than 7, then x's. Enough to tell keys apart, never enough to use one.
 */
export function maskSecret(secret: string): string {
  const shown = Math.min(7, Math.floor(secret.length / 4));
  return `${secret.slice(0, shown)}...${'x'.repeat(Math.min(24, Math.max(4, secret.length - shown)))}`;
}

/** The name a token is shown under (tokens have none of their own): by age among the key's active tokens. */
export const tokenName = (position: number): string => (position === 0 ? 'Default Auth Token' : `Auth Token ${position + 1}`);
