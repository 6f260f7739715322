// What every operation needs besides its input: the store and the clock, passed in (no globals).
import type { Clock } from '../clock.js';
import type { InputLimits } from '../schemas/common.js';
import type { Store } from '../store/store.js';
import type { Resolver } from '../webhooks/ssrf.js';
import type { Tenant } from '../domain/credentials.js';
import type { ProfileCache } from './profiles.js';
import type { ThreadPageCache } from './thread-pages.js';
import type { WorkflowLimits } from './workflow-limits.js';
import type { AttachmentSettings } from './attachments.js';

export interface Services {
  store: Store;
  clock: Clock;
  /** The configured input limits the request schemas are built with. */
  limits: InputLimits;
  /** The most bytes a request body may hold (MARGINALIA_BODY_LIMIT): what a merge may grow a location to. */
  bodyLimit: number;
  /** Profiles for showing authors and action users, held per organization and version. */
  profiles: ProfileCache;
  /** Pages of threads as last answered, held per document and version. */
  threadPages: ThreadPageCache;
  /** Rows users/data/delete erases per transaction; absent: DEFAULT_MOST_ROWS_PER_BATCH (store/batches.ts). */
  erasureBatchSize?: number | undefined;
  /** How deep folders may be (MARGINALIA_MAX_FOLDER_DEPTH); absent: DEFAULT_MAX_FOLDER_DEPTH (services/folders.ts). */
  maxFolderDepth?: number | undefined;
  /** Most browser domains a tenant may allow (MARGINALIA_MAX_ALLOWED_DOMAINS); absent: the default of workspace-domains.ts. */
  maxAllowedDomains?: number | undefined;
  /** Most liveStateDataIds a document may hold (MARGINALIA_MAX_LIVE_STATES_PER_DOCUMENT); absent: the default (services/livestate.ts). */
  maxLiveStatesPerDocument?: number | undefined;
  /** Largest a live state may be, in bytes (MARGINALIA_MAX_LIVE_STATE_BYTES); absent: the default (services/livestate.ts). */
  maxLiveStateBytes?: number | undefined;
  /** MARGINALIA_WEBHOOK_ALLOW_PRIVATE: webhooks/add takes URLs on internal addresses; absent: refused (services/webhooks.ts). */
  webhookAllowPrivate?: boolean | undefined;
  /** MARGINALIA_WEBHOOK_SECRET_GRACE_HOURS: how long the secret before a rotation signs too (services/webhooks.ts). */
  webhookSecretGraceHours?: number | undefined;
  /** The MARGINALIA_WORKFLOW_* limits; absent: the defaults of workflow-limits.ts. */
  workflows?: Partial<WorkflowLimits> | undefined;
  /** How host names are resolved for the SSRF guard (tests); absent: the system's (services/service-settings.ts). */
  resolveHost?: Resolver | undefined;
  /** MARGINALIA_PERMISSION_PROVIDER_TIMEOUT_MS; absent: the default (services/service-settings.ts). */
  permissionProviderTimeoutMs?: number | undefined;
  /** MARGINALIA_PRESENCE_TTL_SECONDS; absent: the default (services/presence.ts). */
  presenceTtlSeconds?: number | undefined;
  /** MARGINALIA_MAX_PRESENCE_PER_DOCUMENT; absent: the default (services/presence.ts). */
  maxPresencePerDocument?: number | undefined;
  /** MARGINALIA_FOLDER_DELETION_BATCH_SIZE; absent: the default (services/folder-deletion.ts). */
  folderDeletionBatchSize?: number | undefined;
  /** MARGINALIA_ACTIVITIES_DELETE_MAX; absent: the default (services/activities.ts). */
  activitiesDeleteMax?: number | undefined;
  /** MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT; absent: the default (services/document-migrations.ts). */
  maxOpenMigrationsPerTenant?: number | undefined;
  /** MARGINALIA_SEARCH_MAX_QUERY_LENGTH and MARGINALIA_SEARCH_MAX_PAGE_SIZE; absent: the defaults (services/search.ts). */
  search?: { maxQueryLength?: number | undefined; maxPageSize?: number | undefined } | undefined;
  /** MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE; absent: the default (services/webhooks.ts). */
  webhookRecoverBatchSize?: number | undefined;
  /** MARGINALIA_RETENTION_BATCH_SIZE; absent: the default (jobs/retention.ts). */
  retentionBatchSize?: number | undefined;
  /** MARGINALIA_REACTION_ICON_MAX_LENGTH, MARGINALIA_MAX_REACTIONS_PER_COMMENT, _ICONS_PER_COMMENT (domain/reactions.ts). */
  reactions?:
    | { iconMaxLength?: number | undefined; perComment?: number | undefined; iconsPerComment?: number | undefined }
    | undefined;
  /** MARGINALIA_END_USER_TOKEN_CACHE; absent: the default (services/end-user-tokens.ts). */
  endUserTokenCache?: number | undefined;
  /** Where uploads go and their limits (MARGINALIA_ATTACHMENT_*); absent: uploads and downloads answer 503. */
  attachments?: AttachmentSettings | undefined;
}

export type Caller = Pick<Tenant, 'id' | 'apiKey'>;
