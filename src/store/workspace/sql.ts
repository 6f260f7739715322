// The statements of the workspace's credentials and of API keys as the workspace pages manage them,
// SQLite and PostgreSQL side by side.
import { same, written } from '../sql.js';

/**
 * The access a document the tenant's write brings into being starts with (docs/api.md, "Workspace keys and
 * tokens": apikeyconfig/update's defaultDocumentAccessType), else the table's own default. A probe of the
 * settings' primary key, in the statement that inserts the document (store/organizations, store/documents).
 */
export const NEW_DOCUMENT_ACCESS = `coalesce((SELECT default_access FROM api_key_settings WHERE tenant_id = @tenantId),
  'organizationPrivate')`;

const KEY_COLUMNS = `t.id, t.api_key, t.name, t.disabled, t.revoked_at, t.created_at,
  s.owner_email, s.key_type, s.default_access, s.shown`;

export const WORKSPACE_SQL = {
  workspace: same(
    'workspaceCredentials',
    'SELECT workspace_id, token_hash, prefix, created_at, rotated_at FROM workspace_credentials WHERE id = 1',
  ),
  /** Makes the one row, or rotates its token: the id made first stays the workspace's. */
  setWorkspaceToken: same(
    'setWorkspaceToken',
    `INSERT INTO workspace_credentials (id, workspace_id, token_hash, prefix, created_at, rotated_at)
     VALUES (1, @workspaceId, @hash, @prefix, @now, NULL)
     ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, prefix = excluded.prefix, rotated_at = excluded.created_at
     RETURNING workspace_id, rotated_at`,
  ),
  renameKey: same('renameApiKey', 'UPDATE tenants SET name = @name WHERE api_key = @apiKey'),
  /**
   * A page of keys in api_key order, those of @apiKeys when given, after @after ('' for the first page: every
   * key is longer): a range of the tenants' unique index on api_key.
   */
  keys: written(
    'apiKeysPage',
    (s) => `SELECT ${KEY_COLUMNS} FROM tenants t LEFT JOIN api_key_settings s ON s.tenant_id = t.id
     WHERE t.api_key > @after AND ${s.inList('t.api_key', 'apiKeys')}
     ORDER BY t.api_key LIMIT @limit`,
  ),
  keyByApiKey: same(
    'apiKeyByKey',
    `SELECT ${KEY_COLUMNS} FROM tenants t LEFT JOIN api_key_settings s ON s.tenant_id = t.id WHERE t.api_key = @apiKey`,
  ),
  revokeTokens: same(
    'revokeTokensOfKey',
    'UPDATE auth_tokens SET revoked_at = @at WHERE tenant_id = @tenantId AND revoked_at IS NULL',
  ),
  /** A key's settings are changed one writer at a time: the tenant's row is the lock (as for its domains). */
  lockTenant: written('lockTenantForSettings', (s) => `SELECT id FROM tenants WHERE id = @tenantId${s.lock('NO KEY UPDATE')}`),
  settings: same(
    'apiKeySettings',
    'SELECT owner_email, key_type, default_access, shown FROM api_key_settings WHERE tenant_id = @tenantId',
  ),
  putSettings: same(
    'putApiKeySettings',
    `INSERT INTO api_key_settings (tenant_id, owner_email, key_type, default_access, shown, updated_at)
     VALUES (@tenantId, @ownerEmail, @type, @defaultAccess, @shown, @now)
     ON CONFLICT (tenant_id) DO UPDATE SET owner_email = excluded.owner_email, key_type = excluded.key_type,
       default_access = excluded.default_access, shown = excluded.shown, updated_at = excluded.updated_at`,
  ),
};
