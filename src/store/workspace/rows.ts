// Rows of API keys and the workspace's credentials as domain values.
import type { Row } from '../sql.js';
import {
  type ApiKeyListing,
  type ApiKeySettings,
  type DocumentAccessType,
  NO_SETTINGS,
  type ShownSettings,
  type WorkspaceRecord,
} from '../../domain/api-keys.js';
import { tenantFrom } from '../credentials/rows.js';

/** The settings of a row that joined api_key_settings (no row: the defaults). */
export function settingsFrom(r: Row | undefined): ApiKeySettings {
  if (!r || r.shown === null || r.shown === undefined) return NO_SETTINGS;
  return {
    ownerEmail: (r.owner_email as string | null) ?? null,
    type: (r.key_type as string | null) ?? null,
    defaultDocumentAccessType: (r.default_access as DocumentAccessType | null) ?? null,
    shown: JSON.parse(r.shown as string) as ShownSettings,
  };
}

export const listingFrom = (r: Row): ApiKeyListing => ({ tenant: tenantFrom(r), settings: settingsFrom(r) });

export function workspaceFrom(r: Row | undefined): WorkspaceRecord | null {
  if (!r) return null;
  return {
    workspaceId: r.workspace_id as string,
    tokenHash: r.token_hash as string,
    prefix: r.prefix as string,
    createdAt: Number(r.created_at),
    rotatedAt: r.rotated_at === null ? null : Number(r.rotated_at),
  };
}

/** The parameters a settings row is written with. */
export const settingsParams = (tenantId: string, s: ApiKeySettings, now: number) => ({
  tenantId,
  ownerEmail: s.ownerEmail,
  type: s.type,
  defaultAccess: s.defaultDocumentAccessType,
  shown: JSON.stringify(s.shown),
  now,
});
