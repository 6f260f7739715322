// Every setting of the service, declared once in FIELDS (Config's type, the parsing and the reference
// row all come from that one entry) and read from an environment object in one place, validated at
// once: a bad deployment fails at start with every problem named, instead of at the first request.
// docs/configuration.md's table is written from the same declarations.
import { adminTokenProblem, DEFAULT_ADMIN_SESSION_HOURS, MIN_ADMIN_TOKEN_LENGTH } from '../admin/settings.js';
import {
  API_KEY_HEADER,
  AUTH_TOKEN_HEADER,
  DEFAULT_AUTH_FAILURE_FLOOR_MS,
  WORKSPACE_ID_HEADER,
  WORKSPACE_TOKEN_HEADER,
} from '../http/auth.js';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from '../http/connections.js';
import { DEFAULT_HEAP_GROWTH_PERCENT } from '../heap.js';
import { DEFAULT_LIMITS, type InputLimits } from '../schemas/common.js';
import {
  DEFAULT_MAX_REACTION_ICONS_PER_COMMENT,
  DEFAULT_MAX_REACTIONS_PER_COMMENT,
  DEFAULT_REACTION_ICON_MAX_LENGTH,
  MAX_REACTION_ICON_LENGTH,
  MAX_REACTION_ICONS_PER_COMMENT,
  MAX_REACTIONS_PER_COMMENT,
} from '../domain/reactions.js';
import { DEFAULT_MAX_FOLDER_DEPTH, MAX_FOLDER_DEPTH } from '../services/folders.js';
import { DEFAULT_FOLDER_DELETION_BATCH } from '../services/folder-deletion.js';
import { DEFAULT_ACTIVITIES_DELETE_MAX } from '../services/activities.js';
import { DEFAULT_MAX_OPEN_MIGRATIONS } from '../services/document-migrations.js';
import { DEFAULT_SEARCH_MAX_PAGE_SIZE, DEFAULT_SEARCH_MAX_QUERY_LENGTH } from '../services/search.js';
import { MAX_SEARCH_QUERY_LENGTH } from '../schemas/search.js';
import { DEFAULT_RECOVER_BATCH_SIZE } from '../services/webhooks.js';
import { DEFAULT_END_USER_TOKEN_CACHE } from '../services/end-user-tokens.js';
import { DEFAULT_WORKFLOW_RETENTION_DAYS } from '../jobs/workflow-pruner.js';
import { DEFAULT_RETENTION_BATCH_SIZE, DEFAULT_RETENTION_INTERVAL_SECONDS } from '../jobs/retention.js';
import { DEFAULT_PREFLIGHT_ANSWER_MS } from '../services/workspace-domains.js';
import {
  DEFAULT_IMPORT_ATTEMPTS,
  DEFAULT_IMPORT_CONCURRENCY,
  DEFAULT_IMPORT_RATE,
  DEFAULT_IMPORT_TIMEOUT_MS,
} from '../import/source.js';
import {
  DEFAULT_MAX_LIVE_STATE_BYTES,
  DEFAULT_MAX_LIVE_STATES_PER_DOCUMENT,
  LIVE_STATE_PAGE_STATES,
  MAX_LIVE_STATE_BYTES,
  MAX_LIVE_STATES_PER_DOCUMENT,
} from '../services/livestate.js';
import { DEFAULT_MOST_ROWS_PER_BATCH, DEFAULT_WRITE_BUDGET_MS } from '../store/batches.js';
import { DEFAULT_INBOX_ANSWER_COPIES } from '../store/notifications/notifications.js';
import { DEFAULT_PROFILE_CACHE_MB } from '../services/profiles.js';
import { DEFAULT_THREAD_PAGE_CACHE_MB } from '../services/thread-pages.js';
import { DEFAULT_REST_AFTER_MS } from '../http/at-rest.js';
import { DEFAULT_MAX_ALLOWED_DOMAINS } from '../services/workspace-domains.js';
import {
  DEFAULT_MIGRATION_BATCH_SIZE,
  DEFAULT_MIGRATION_LEASE_MS,
  DEFAULT_MIGRATION_POLL_MS,
} from '../jobs/document-migrations.js';
import {
  DEFAULT_DISABLE_AFTER_FAILING_HOURS,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  DEFAULT_SECRET_GRACE_HOURS,
} from '../webhooks/schedule.js';
import { DEFAULT_WORKFLOW_LIMITS, MAX_WORKFLOW_EVENTS_PAGE, MAX_WORKFLOW_NODES } from '../services/workflow-limits.js';
import {
  DEFAULT_MAX_PRESENCE_PER_DOCUMENT,
  DEFAULT_PRESENCE_TTL_SECONDS,
  MAX_PRESENCE_PER_DOCUMENT,
} from '../services/presence.js';
import { DEFAULT_PERMISSION_PROVIDER_TIMEOUT_MS } from '../services/service-settings.js';
import { isMailAddress } from '../domain/email.js';
import { converted, integer, oneOf, type Setting, text } from './setting.js';

/**
 * How many megabytes of log lines may wait for stdout unless MARGINALIA_LOG_BUFFER_MB says otherwise
 * (log-output.ts). Declared here, not there: the CLI reads the configuration and must not load pino.
 */
export const DEFAULT_LOG_BUFFER_MB = 16;

export { settingsTable } from './setting.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
import type { SqliteCheck, SqliteSecureDelete, SqliteSynchronous } from '../store/dialect/sqlite.js';
import type { DatabaseTarget } from '../store/open-store.js';

export type { DatabaseTarget, SqliteCheck, SqliteSecureDelete, SqliteSynchronous };

/** What a header value can carry safely and what we accept as a credential. */
const CREDENTIAL_SHAPE = /^[\x21-\x7e]{1,256}$/;
const MS_MAX = 3_600_000;

/** An HTTP header name (RFC 9110 token), lower-cased. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]{1,64}$/;

/**
 * A comma list (spaces around entries ignored, empty entries dropped); `item` returns an entry's value
 * or why it is refused. Every refused entry is named.
 */
function commaList(
  name: string,
  meaning: string,
  item: (entry: string) => { value: string } | { error: string },
): Setting<readonly string[]> {
  return {
    name,
    default: [],
    shownDefault: '(none)',
    meaning,
    parse: (raw) => {
      const values: string[] = [];
      const problems: string[] = [];
      for (const entry of raw.split(',').map((e) => e.trim())) {
        if (entry === '') continue;
        const parsed = item(entry);
        if ('error' in parsed) problems.push(parsed.error);
        else if (!values.includes(parsed.value)) values.push(parsed.value);
      }
      return problems.length > 0 ? { error: `${name}: ${problems.join(' ')}` } : { value: values };
    },
  };
}

/** A browser origin as the Origin header carries it: http(s)://host[:port], nothing after. */
function corsOrigin(entry: string): { value: string } | { error: string } {
  if (entry === '*' || entry === 'null')
    return { error: `"${entry}" is not allowed: list each origin (e.g. https://app.example.com).` };
  let url: URL | null = null;
  try {
    if (/^https?:\/\/[^/?#@\s]+$/i.test(entry)) url = new URL(entry);
  } catch {
    url = null;
  }
  if (url === null || url.origin === 'null')
    return { error: `"${entry}" is not an origin (http:// or https://, a host, an optional port, no path).` };
  return { value: url.origin };
}

/** A MIME type (`type/subtype`) or a family (`type/*`), lower-cased. */
function attachmentType(entry: string): { value: string } | { error: string } {
  const value = entry.toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/.test(value)
    ? { value }
    : { error: `"${entry}" is not a MIME type (type/subtype, or type/* for a family).` };
}

function headerName(entry: string): { value: string } | { error: string } {
  const value = entry.toLowerCase();
  return HEADER_NAME.test(value)
    ? { value }
    : { error: `"${entry}" is not a header name (letters, digits and !#$%&'*+-.^_\`|~; at most 64).` };
}

/** On or off: 1, true, yes, on / 0, false, no, off (any case). */
function flag(name: string, meaning: string): Setting<boolean> {
  return {
    name,
    default: false,
    shownDefault: '`0`',
    meaning,
    parse: (raw) => {
      const word = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(word)) return { value: true };
      if (['0', 'false', 'no', 'off'].includes(word)) return { value: false };
      return { error: `${name} must be 1 or 0 (or true/false, yes/no, on/off), got "${raw}".` };
    },
  };
}

/** A comma list of durations in seconds (decimals allowed), as milliseconds. */
function secondsList(name: string, fallback: readonly number[], most: number, meaning: string): Setting<readonly number[]> {
  return {
    name,
    default: fallback.map((s) => s * 1000),
    shownDefault: `\`${fallback.join(',')}\``,
    meaning,
    parse: (raw) => {
      const entries = raw.split(',').map((e) => e.trim());
      const bad = entries.filter((e) => !/^\d{1,7}(\.\d{1,3})?$/.test(e));
      if (bad.length > 0 || entries.length > most)
        return {
          error: `${name} must be a comma list of at most ${most} durations in seconds (e.g. 5,300,1800), got "${raw}".`,
        };
      return { value: entries.map((e) => Math.round(Number(e) * 1000)) };
    },
  };
}

/** A group whose fields are a type's own, each read from a setting: the type gains no field its settings miss. */
type SettingsOf<T> = { [K in keyof T]: Setting<T[K]> };

/**
 * Every field of Config and the setting it is read from, or a group of fields read from several settings
 * (a nested object), in the order the reference lists the settings. Config is derived from this object:
 * a new setting is one entry here, and nothing more.
 */
const FIELDS = {
  port: integer('PORT', 8080, 0, 65535, 'TCP port to listen on (0 picks a free one).'),
  host: text('HOST', '127.0.0.1', 'Interface to listen on; `0.0.0.0` for all.'),
  database: converted(
    text(
      'DATABASE_URL',
      'sqlite:./data/marginalia.db',
      '`sqlite:<path>`, `sqlite::memory:` (throwaway), or `postgres://...` / `postgresql://...` for PostgreSQL.',
      (raw) => databaseUrlProblem(raw),
    ),
    databaseTarget,
  ),
  logLevel: oneOf<LogLevel>(
    'LOG_LEVEL',
    'info',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    (raw) => raw.toLowerCase(),
    'fatal, error, warn, info, debug, trace or silent.',
  ),
  logBufferMb: integer(
    'MARGINALIA_LOG_BUFFER_MB',
    DEFAULT_LOG_BUFFER_MB,
    1,
    1024,
    'Megabytes of log lines each process keeps waiting while standard output is not read as fast as it is ' +
      'written (a stalled log shipper); past it, lines are dropped and a warning then says how many.',
  ),
  /** The credentials the server ensures at start (loadConfig refuses one without the other). */
  bootstrap: {
    apiKey: text(
      'MARGINALIA_API_KEY',
      null,
      'Bootstrap API key, ensured at start together with `MARGINALIA_AUTH_TOKEN`.',
      (raw) =>
        CREDENTIAL_SHAPE.test(raw) ? null : 'MARGINALIA_API_KEY must be 1 to 256 visible ASCII characters without spaces.',
    ),
    authToken: text(
      'MARGINALIA_AUTH_TOKEN',
      null,
      'Bootstrap auth token (at least 16 characters); stored only as a hash.',
      (raw) =>
        CREDENTIAL_SHAPE.test(raw) && raw.length >= 16
          ? null
          : 'MARGINALIA_AUTH_TOKEN must be 16 to 256 visible ASCII characters without spaces.',
    ),
  },
  bodyLimit: integer(
    'MARGINALIA_BODY_LIMIT',
    1_048_576,
    1024,
    1024 * 1024 * 1024,
    'Largest request body in bytes; larger bodies get 413.',
  ),
  maxJsonDepth: integer(
    'MARGINALIA_MAX_JSON_DEPTH',
    32,
    4,
    1000,
    'Deepest nesting of objects and arrays in a request body; deeper bodies get 400.',
  ),
  /** Bounds on request arrays and free text, which the request schemas are built with. */
  limits: {
    // Callers are promised 1000 entries (docs/api.md, "Identifiers and limits"): the setting can only widen that.
    maxBatch: integer(
      'MARGINALIA_MAX_BATCH',
      DEFAULT_LIMITS.maxBatch,
      DEFAULT_LIMITS.maxBatch,
      100_000,
      'Most entries in any array of a request (`users`, `commentAnnotations`, `commentData`, `notifyUsers` and the id ' +
        'filters); longer arrays get 400. At least 1000, which the API promises callers.',
    ),
    maxTextLength: integer(
      'MARGINALIA_MAX_TEXT_LENGTH',
      DEFAULT_LIMITS.maxTextLength,
      1,
      100_000_000,
      'Longest free text in code points (`commentText`, `commentHtml`, `displayHeadlineMessageTemplate`, ' +
        '`displayBodyMessage`); longer gets 400.',
    ),
    maxMarksPerRequest: integer(
      'MARGINALIA_MAX_MARKS_PER_REQUEST',
      DEFAULT_LIMITS.maxMarksPerRequest,
      1,
      10_000_000,
      'Most settings or read marks one request writes: `documentIds` times `userIds` in `notifications/config/set`, ' +
        'the read and unread user ids of all entries together in `notifications/update`; more gets 400, so one ' +
        'request cannot write a million rows.',
    ),
  } satisfies SettingsOf<InputLimits>,
  rateLimit: integer(
    'MARGINALIA_RATE_LIMIT',
    1000,
    0,
    1_000_000_000,
    'Requests per second per API key, burst twice that; 0 turns it off.',
  ),
  endUserRateLimit: integer(
    'MARGINALIA_END_USER_RATE_LIMIT',
    20,
    0,
    1_000_000_000,
    'Requests per second per end user (a token\'s user, docs/api.md "End users"), burst twice that, on top of ' +
      "the tenant's own budget; 0 turns it off.",
  ),
  endUserTokenCache: integer(
    'MARGINALIA_END_USER_TOKEN_CACHE',
    DEFAULT_END_USER_TOKEN_CACHE,
    0,
    10_000_000,
    'End-user tokens each process holds once verified (the oldest let go first), so a request with one it holds ' +
      'skips the signature check; the tenant is still read on every request, so a revoked or disabled tenant is ' +
      'refused at once, and expiry is checked each time. 0 verifies every request.',
  ),
  authFailureFloorMs: integer(
    'MARGINALIA_AUTH_FAILURE_FLOOR_MS',
    DEFAULT_AUTH_FAILURE_FLOOR_MS,
    0,
    10_000,
    'A 401 for an unknown key or a wrong token is answered no sooner than this after the check began, so its ' +
      'timing cannot tell which keys exist (and guessing is slower). Correct credentials never wait. 0 turns it off.',
  ),
  apiKeyHeaders: commaList(
    'MARGINALIA_API_KEY_HEADERS',
    'Comma list of further header names that carry the API key, for callers written against another service; ' +
      '`x-service-api-key` is read first, then these in order.',
    headerName,
  ),
  authTokenHeaders: commaList(
    'MARGINALIA_AUTH_TOKEN_HEADERS',
    'Comma list of further header names that carry the auth token; `x-service-auth-token` is read first, then ' +
      'these in order.',
    headerName,
  ),
  workspaceIdHeaders: commaList(
    'MARGINALIA_WORKSPACE_ID_HEADERS',
    'Comma list of further header names that carry the workspace id on the workspace pages (workspace/apikey/*, ' +
      'apikeys/get, authtokens/get, authtoken/reset); `x-service-workspace-id` is read first, then these in order.',
    headerName,
  ),
  workspaceTokenHeaders: commaList(
    'MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS',
    'Comma list of further header names that carry the workspace auth token on the workspace pages; ' +
      '`x-service-workspace-auth-token` is read first, then these in order.',
    headerName,
  ),
  corsOrigins: commaList(
    'MARGINALIA_CORS_ORIGINS',
    'Comma list of browser origins (`https://app.example.com`, `http://localhost:3000`) allowed to call the API: ' +
      'their CORS preflights are answered and their answers carry `Access-Control-Allow-Origin`. `*` is refused. ' +
      "Unset, only end-user requests get CORS headers, from their tenant's allowed domains (workspace/domains/add).",
    corsOrigin,
  ),
  preflightAnswerMs: integer(
    'MARGINALIA_PREFLIGHT_ANSWER_MS',
    DEFAULT_PREFLIGHT_ANSWER_MS,
    0,
    3_600_000,
    "How long each process holds whether any tenant's allowed domains allow an origin, for preflights from " +
      'origins MARGINALIA_CORS_ORIGINS does not list (a preflight carries no credentials and no rate limit, so ' +
      'each would otherwise read the database): a domain added or removed applies to preflights within it. 0: ' +
      'every preflight reads.',
  ),
  profileCacheMb: integer(
    'MARGINALIA_PROFILE_CACHE_MB',
    DEFAULT_PROFILE_CACHE_MB,
    0,
    1_000_000,
    'Megabytes of user profiles each process keeps in memory for showing authors and action users (about ' +
      '550 bytes a profile of common sizes, 4.4 kB one whose fields are all at their longest); once it has had ' +
      'to let one go, a new organization comes in at most once per 10 ms, in place of the one used longest ago, ' +
      "and the others' profiles are looked up for each read and not kept. A rename still shows at once. 0 reads " +
      'them on every read.',
  ),
  erasureBatchSize: integer(
    'MARGINALIA_ERASURE_BATCH_SIZE',
    DEFAULT_MOST_ROWS_PER_BATCH,
    1,
    1_000_000,
    'Most rows a batch of users/data/delete, organizations/delete or documents/delete takes in one transaction. Below ' +
      'it, each batch is sized to MARGINALIA_WRITE_BUDGET_MS from the time the last one took. The answer comes after the last batch.',
  ),
  writeBudgetMs: integer(
    'MARGINALIA_WRITE_BUDGET_MS',
    DEFAULT_WRITE_BUDGET_MS,
    1,
    10_000,
    'How long one transaction of a long operation (users/data/delete, organizations/delete, documents/delete) may hold ' +
      "the database's writer (SQLite) or its rows' locks (PostgreSQL): the operation runs in batches sized to it, with a " +
      "turn of the event loop between them, so another tenant's write waits at most about this long behind one. Lower: " +
      'shorter waits, more batches (the long operation takes longer).',
  ),
  maxFolderDepth: integer(
    'MARGINALIA_MAX_FOLDER_DEPTH',
    DEFAULT_MAX_FOLDER_DEPTH,
    1,
    MAX_FOLDER_DEPTH,
    'Deepest a folder may be (a folder at the top is 1 deep): a folders/add or update that would make one deeper, ' +
      `a moved folder's subtree included, gets 400. At most ${MAX_FOLDER_DEPTH}, so folders/get's nested subtree always serializes.`,
  ),
  folderDeletionBatchSize: integer(
    'MARGINALIA_FOLDER_DELETION_BATCH_SIZE',
    DEFAULT_FOLDER_DELETION_BATCH,
    1,
    100_000,
    "Most documents /v2's organizations/folders/delete reads and deletes at a time: it walks each folder of the tree a " +
      'page of this many document ids at a time, each page deleted before the next is read, so the ids it holds stay ' +
      'bounded however many documents the folders hold.',
  ),
  maxAllowedDomains: integer(
    'MARGINALIA_MAX_ALLOWED_DOMAINS',
    DEFAULT_MAX_ALLOWED_DOMAINS,
    1,
    1_000_000,
    'Most browser domains a tenant may allow (workspace/domains/add, whose pages may read its end-user answers): ' +
      'an add that would pass it gets 429 RESOURCE_EXHAUSTED and adds nothing. Lowering it removes no domain.',
  ),
  maxLiveStatesPerDocument: integer(
    'MARGINALIA_MAX_LIVE_STATES_PER_DOCUMENT',
    DEFAULT_MAX_LIVE_STATES_PER_DOCUMENT,
    1,
    MAX_LIVE_STATES_PER_DOCUMENT,
    'Most liveStateDataIds one document may hold: a livestate/broadcast of a new id past it gets 429 ' +
      `\`RESOURCE_EXHAUSTED\` and writes nothing. At most ${MAX_LIVE_STATES_PER_DOCUMENT}.`,
  ),
  maxLiveStateBytes: integer(
    'MARGINALIA_MAX_LIVE_STATE_BYTES',
    DEFAULT_MAX_LIVE_STATE_BYTES,
    1024,
    MAX_LIVE_STATE_BYTES,
    'Largest one live state may be, in bytes of JSON: a livestate/broadcast that would make it larger (a merge ' +
      'included) gets 429 `RESOURCE_EXHAUSTED` and writes nothing. A page of livestate/get stops once it holds ' +
      `${LIVE_STATE_PAGE_STATES} times this. At most ${MAX_LIVE_STATE_BYTES}.`,
  ),
  workflowMaxNodes: integer(
    'MARGINALIA_WORKFLOW_MAX_NODES',
    DEFAULT_WORKFLOW_LIMITS.maxNodes,
    1,
    MAX_WORKFLOW_NODES,
    'Most nodes one approval workflow definition may declare: a workflow/definitions/create or update with more gets 400 ' +
      `and writes nothing. At most ${MAX_WORKFLOW_NODES}, as the pages allow.`,
  ),
  workflowMaxDefinitionBytes: integer(
    'MARGINALIA_WORKFLOW_MAX_DEFINITION_BYTES',
    DEFAULT_WORKFLOW_LIMITS.maxDefinitionBytes,
    1024,
    16_777_216,
    'Largest an approval workflow definition may be, in bytes of JSON as stored (its compiled view included): a create or ' +
      'update past it gets 400 and writes nothing. Each execution keeps a copy of the definition it runs.',
  ),
  workflowMaxStepsPerExecution: integer(
    'MARGINALIA_WORKFLOW_MAX_STEPS_PER_EXECUTION',
    DEFAULT_WORKFLOW_LIMITS.maxStepsPerExecution,
    1,
    100_000,
    'Most steps one approval workflow execution may run, loop iterations and fan-outs included: the step that would pass ' +
      'it fails the execution (failureReason step-limit) instead of being started. Bounds what one command reads and writes.',
  ),
  workflowEventsPageMax: integer(
    'MARGINALIA_WORKFLOW_EVENTS_PAGE_MAX',
    DEFAULT_WORKFLOW_LIMITS.eventsPageMax,
    1,
    MAX_WORKFLOW_EVENTS_PAGE,
    'Most events one workflow/executions/getEvents page answers, whatever pageSize asks (hasMore says that more remain).',
  ),
  workflowPageSameTimeMax: integer(
    'MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX',
    DEFAULT_WORKFLOW_LIMITS.pageSameTimeMax,
    1,
    100_000,
    'Most items a full page of workflow/definitions/list or executions/list adds past pageSize to finish the millisecond ' +
      "of its last item (the pages' cursor is a time: a page never ends inside one). Items of one tenant updated or started " +
      'in one millisecond past this many are left out of the listing.',
  ),
  workflowExecutionRetentionDays: integer(
    'MARGINALIA_WORKFLOW_EXECUTION_RETENTION_DAYS',
    DEFAULT_WORKFLOW_RETENTION_DAYS,
    1,
    36_500,
    'Days a finished approval workflow execution (completed, failed or cancelled) is kept after it ended, with its steps ' +
      'and event log; older ones are deleted in the background, a batch at a time. Running executions are never deleted.',
  ),
  permissionProviderTimeoutMs: integer(
    'MARGINALIA_PERMISSION_PROVIDER_TIMEOUT_MS',
    DEFAULT_PERMISSION_PROVIDER_TIMEOUT_MS,
    100,
    60_000,
    "How long the check of a permission provider URL's host may take at workspace/permissionproviderconfig/update " +
      '(the SSRF guard resolves it); a host that does not answer in time is refused. Calls to the provider will be ' +
      'bounded by it too.',
  ),
  presenceTtlSeconds: integer(
    'MARGINALIA_PRESENCE_TTL_SECONDS',
    DEFAULT_PRESENCE_TTL_SECONDS,
    10,
    86_400,
    "How long a user's presence on a document lasts after its last presence/add or presence/update: then it is no " +
      "longer shown, and retention deletes it in the background. The default: the original service's 10 minutes to offline.",
  ),
  maxPresencePerDocument: integer(
    'MARGINALIA_MAX_PRESENCE_PER_DOCUMENT',
    DEFAULT_MAX_PRESENCE_PER_DOCUMENT,
    1,
    MAX_PRESENCE_PER_DOCUMENT,
    'Most users present on one document at once: a presence/add that would make more gets 429 `RESOURCE_EXHAUSTED` ' +
      `and writes nothing; presence/get answers them all. At most ${MAX_PRESENCE_PER_DOCUMENT}.`,
  ),
  reactionIconMaxLength: integer(
    'MARGINALIA_REACTION_ICON_MAX_LENGTH',
    DEFAULT_REACTION_ICON_MAX_LENGTH,
    1,
    MAX_REACTION_ICON_LENGTH,
    'Longest icon of a reaction (reactions/add), in UTF-16 code units: one emoji sequence (a family with skin tones ' +
      `is about 40) or an icon name such as RAISED_HANDS. Longer: 400 \`INVALID_ARGUMENT\`. At most ${MAX_REACTION_ICON_LENGTH}.`,
  ),
  maxReactionsPerComment: integer(
    'MARGINALIA_MAX_REACTIONS_PER_COMMENT',
    DEFAULT_MAX_REACTIONS_PER_COMMENT,
    1,
    MAX_REACTIONS_PER_COMMENT,
    'Most reactions one comment may hold (every user and icon): a reactions/add that would make more gets 429 ' +
      `\`RESOURCE_EXHAUSTED\` and writes nothing. At most ${MAX_REACTIONS_PER_COMMENT}.`,
  ),
  maxReactionIconsPerComment: integer(
    'MARGINALIA_MAX_REACTION_ICONS_PER_COMMENT',
    DEFAULT_MAX_REACTION_ICONS_PER_COMMENT,
    1,
    MAX_REACTION_ICONS_PER_COMMENT,
    'Most distinct icons among the reactions of one comment: a reactions/add with one more gets 429 ' +
      `\`RESOURCE_EXHAUSTED\` and writes nothing. At most ${MAX_REACTION_ICONS_PER_COMMENT}.`,
  ),
  eventRetentionHours: integer(
    'MARGINALIA_EVENT_RETENTION_HOURS',
    72,
    1,
    24 * 365,
    'Hours the event outbox keeps each event: a stream can resume with Last-Event-ID within it, and ' +
      'webhook deliveries and their attempts are kept as long. Older ones are deleted in the background, a batch at a time.',
  ),
  activitiesEnabled: flag(
    'MARGINALIA_ACTIVITIES_ENABLED',
    '`1`: tenants that never set their activity settings (workspace/activityconfig/update) keep activity logs: every ' +
      "write's events become activities and activities/add is taken. Off, as the original service, they keep none until " +
      'they enable them. A tenant that set `isEnabled` keeps to it either way.',
  ),
  activityRetentionDays: integer(
    'MARGINALIA_ACTIVITY_RETENTION_DAYS',
    90,
    1,
    36_500,
    'Days an activity is kept, for tenants whose activity settings name no `retentionDays`. Older ones are deleted in ' +
      'the background, a batch at a time.',
  ),
  retentionIntervalSeconds: integer(
    'MARGINALIA_RETENTION_INTERVAL_SECONDS',
    DEFAULT_RETENTION_INTERVAL_SECONDS,
    0,
    31_536_000,
    "Seconds between two rounds of the retention job, which applies every tenant's retention policies (retention/set) " +
      'in the background, a batch at a time (docs/operations.md, "Retention"); the first round runs at start. 0 runs no ' +
      'job: policies are then applied only by retention/run and `marginalia retention run`.',
  ),
  retentionBatchSize: integer(
    'MARGINALIA_RETENTION_BATCH_SIZE',
    DEFAULT_RETENTION_BATCH_SIZE,
    1,
    1_000_000,
    'Most rows a batch of retention (the job, retention/run) deletes in one transaction. Below it, each batch is sized ' +
      'to MARGINALIA_WRITE_BUDGET_MS from the time the last one took.',
  ),
  importConcurrency: integer(
    'MARGINALIA_IMPORT_CONCURRENCY',
    DEFAULT_IMPORT_CONCURRENCY,
    1,
    64,
    '`marginalia import`: most requests in flight toward the source at once, and documents copied side by side ' +
      '(`--concurrency` overrides it; docs/operations.md, "Importing").',
  ),
  importRate: integer(
    'MARGINALIA_IMPORT_RATE',
    DEFAULT_IMPORT_RATE,
    1,
    10_000,
    '`marginalia import`: most requests started toward the source per second, retries included (`--rate` overrides it).',
  ),
  importTimeoutMs: integer(
    'MARGINALIA_IMPORT_TIMEOUT_MS',
    DEFAULT_IMPORT_TIMEOUT_MS,
    1000,
    600_000,
    '`marginalia import`: how long one request to the source may take, its whole answer read, before it counts as failed.',
  ),
  importAttempts: integer(
    'MARGINALIA_IMPORT_ATTEMPTS',
    DEFAULT_IMPORT_ATTEMPTS,
    1,
    20,
    '`marginalia import`: tries of one request to the source answered 429 or 5xx or failed on the network, the first ' +
      'included, with a doubling backoff from half a second (a longer Retry-After is waited out).',
  ),
  activitiesDeleteMax: integer(
    'MARGINALIA_ACTIVITIES_DELETE_MAX',
    DEFAULT_ACTIVITIES_DELETE_MAX,
    1,
    1_000_000,
    'Most activities one activities/delete by documentId or targetEntityId deletes (its answer lists each id): past it ' +
      'the call deletes this many and answers them, and a call again deletes the next ones. By activityIds, ' +
      'MARGINALIA_MAX_BATCH bounds it.',
  ),
  eventPollMs: integer(
    'MARGINALIA_EVENT_POLL_MS',
    1000,
    50,
    60_000,
    'How often each process reads the outbox of the tenants it streams to, besides being told of new events ' +
      '(its own writes at once, other instances through PostgreSQL LISTEN/NOTIFY or Redis): the bound on how late an ' +
      'event reaches a stream if a notice is lost.',
  ),
  eventNumberingMs: integer(
    'MARGINALIA_EVENT_NUMBERING_MS',
    20,
    0,
    1000,
    "PostgreSQL: the least time between the starts of two numberings of one tenant's events in a process, while " +
      'writes keep coming (after a quiet spell the next starts at once). A write answers once it has committed and its ' +
      'events are numbered just after; writes that commit meanwhile share the next numbering. Higher: fewer numberings ' +
      'under load (more write throughput); events may reach streams and webhooks that much later.',
  ),
  eventHeartbeatMs: integer(
    'MARGINALIA_EVENT_HEARTBEAT_MS',
    15_000,
    100,
    600_000,
    'How often an idle event stream (GET /v1/events) gets a comment line, so proxies and clients know it is alive.',
  ),
  eventStreamBufferKb: integer(
    'MARGINALIA_EVENT_STREAM_BUFFER_KB',
    1024,
    16,
    1_048_576,
    'Kilobytes of events a stream may have waiting for a slow client; past it the stream is closed with a last ' +
      'message saying so, and the client resumes with Last-Event-ID. Bounds the memory a slow consumer can take.',
  ),
  eventStreamsMax: integer(
    'MARGINALIA_EVENT_STREAMS_MAX',
    10_000,
    0,
    1_000_000,
    'Event streams each process keeps open at once; past it a new one gets 503 with Retry-After. 0 turns streaming off.',
  ),
  webhookAllowPrivate: flag(
    'MARGINALIA_WEBHOOK_ALLOW_PRIVATE',
    '`1` lets webhooks go to loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local and ' +
      'other internal addresses, at webhooks/add and at every connection. Off, such URLs are refused (SSRF guard): ' +
      'turn it on only where every tenant may reach your internal network (tests, a single-tenant installation).',
  ),
  webhookTimeoutMs: integer(
    'MARGINALIA_WEBHOOK_TIMEOUT_MS',
    15_000,
    100,
    300_000,
    'A webhook delivery is made when its receiver answers 2xx within this; no answer in time is a failed attempt, retried.',
  ),
  webhookRetrySchedule: secondsList(
    'MARGINALIA_WEBHOOK_RETRY_SCHEDULE',
    DEFAULT_RETRY_SCHEDULE_SECONDS,
    100,
    'Seconds before each retry of a failed webhook delivery, a comma list: after the last, the delivery has failed ' +
      "and its organization's next delivery goes on. The default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.",
  ),
  webhookDisableAfterFailingHours: integer(
    'MARGINALIA_WEBHOOK_DISABLE_AFTER_FAILING_HOURS',
    DEFAULT_DISABLE_AFTER_FAILING_HOURS,
    1,
    87_600,
    'Hours a webhook may fail every delivery attempt, with no delivery between, before it is switched off: its ' +
      'listing then says `disabled` with the reason; endpoints/update `{"disabled": false}` switches it on again. ' +
      'The default is 5 days.',
  ),
  webhookSecretGraceHours: integer(
    'MARGINALIA_WEBHOOK_SECRET_GRACE_HOURS',
    DEFAULT_SECRET_GRACE_HOURS,
    0,
    8760,
    'Hours the secret before a rotation (webhooks/secret/rotate) still signs every delivery beside the new one ' +
      '(two signatures in webhook-signature), so receivers can switch to the new secret without losing a delivery.',
  ),
  webhookRecoverBatchSize: integer(
    'MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE',
    DEFAULT_RECOVER_BATCH_SIZE,
    1,
    100_000,
    'Most failed deliveries webhooks/recover makes pending again in one transaction: it runs a batch after another, a turn ' +
      "of the event loop between them, and answers the total once the last has committed. An organization's deliveries " +
      'go in one batch unless it alone has more.',
  ),
  webhookConcurrency: integer(
    'MARGINALIA_WEBHOOK_CONCURRENCY',
    16,
    1,
    10_000,
    'Webhook deliveries each process makes at once (one at a time per webhook and organization, in event order).',
  ),
  smtpUrl: text(
    'MARGINALIA_SMTP_URL',
    null,
    '`smtp://user:password@host:587` (STARTTLS when the server offers it) or `smtps://...:465` (TLS from the start): ' +
      'mail notifications to the users whose email setting says so, in digests (docs/operations.md, "Email"). ' +
      'Unset, email is off and nothing is queued. Needs MARGINALIA_EMAIL_FROM.',
    (raw) =>
      /^smtps?:\/\/[^/?#\s]+/.test(raw)
        ? null
        : `MARGINALIA_SMTP_URL must start with smtp:// or smtps://, got "${redactUrl(raw)}".`,
  ),
  emailFrom: text(
    'MARGINALIA_EMAIL_FROM',
    null,
    "The sender address of every mail (a plain address, e.g. `notifications@example.com`); a tenant's workspace email " +
      'settings may name its own (`emailServiceConfig.fromEmail`).',
    (raw) => (isMailAddress(raw) ? null : `MARGINALIA_EMAIL_FROM must be an email address, got "${raw}".`),
  ),
  emailRequireTls: flag(
    'MARGINALIA_EMAIL_REQUIRE_TLS',
    '`1`: an smtp:// connection must upgrade with STARTTLS, or the mail is not sent (retried later). Off, STARTTLS is ' +
      'used when the server offers it.',
  ),
  emailTlsRejectUnauthorized: converted(
    oneOf(
      'MARGINALIA_EMAIL_TLS_VERIFY',
      '1',
      ['1', '0'],
      (raw) => raw.trim(),
      '`0` accepts an SMTP server certificate that does not verify (a test server); `1` refuses it.',
    ),
    (v) => v === '1',
  ),
  emailDigestSeconds: integer(
    'MARGINALIA_EMAIL_DIGEST_SECONDS',
    300,
    0,
    86_400,
    "Each recipient's digest window: a notification waits this long, and every one that comes meanwhile goes in the " +
      'same mail (one mail per recipient per window). 0 mails each notification at once.',
  ),
  emailMentionsAtOnce: converted(
    oneOf(
      'MARGINALIA_EMAIL_MENTIONS_AT_ONCE',
      '1',
      ['1', '0'],
      (raw) => raw.trim(),
      '`1`: a mention is mailed without waiting for the digest window (with whatever else waits for that recipient); ' +
        '`0`: it waits like the rest.',
    ),
    (v) => v === '1',
  ),
  emailMaxAttempts: integer(
    'MARGINALIA_EMAIL_MAX_ATTEMPTS',
    10,
    1,
    100,
    'Attempts at one mail (an SMTP refusal, 4xx or 5xx, or a connection that fails) before its notifications are ' +
      'marked failed and not mailed.',
  ),
  emailRetryMinMs: integer(
    'MARGINALIA_EMAIL_RETRY_MIN_MS',
    30_000,
    10,
    MS_MAX,
    'The wait before the first retry of a mail; each retry waits twice the one before, up to MARGINALIA_EMAIL_RETRY_MAX_MS.',
  ),
  emailRetryMaxMs: integer(
    'MARGINALIA_EMAIL_RETRY_MAX_MS',
    3_600_000,
    10,
    86_400_000,
    'The longest wait between two attempts at a mail.',
  ),
  emailPollMs: integer(
    'MARGINALIA_EMAIL_POLL_MS',
    1000,
    10,
    60_000,
    'How often each process looks for mails that are due (an idle look is one small read).',
  ),
  emailLeaseMs: integer(
    'MARGINALIA_EMAIL_LEASE_MS',
    60_000,
    1000,
    MS_MAX,
    "How long a process's claim on a mail holds: past it, a process that stopped (or was killed) mid-mail has its " +
      'mail sent by another (or by itself after a restart). Longer than an SMTP exchange may take.',
  ),
  emailTemplatesDir: text(
    'MARGINALIA_EMAIL_TEMPLATES_DIR',
    null,
    'A folder of mail templates that replace the shipped ones (`digest.subject.txt`, `digest.txt`, `digest.html`, ' +
      '`unsubscribed.html`): a file missing there is taken from the package (docs/operations.md, "Email").',
    (raw) =>
      [...raw].some((c) => c.charCodeAt(0) < 0x20)
        ? 'MARGINALIA_EMAIL_TEMPLATES_DIR must be a folder path, without control characters.'
        : null,
  ),
  publicUrl: text(
    'MARGINALIA_PUBLIC_URL',
    null,
    'The address clients reach this service at (`https://comments.example.com`), for the unsubscribe links of mails. ' +
      'Unset, mails carry no unsubscribe link (and no List-Unsubscribe header).',
    (raw) =>
      /^https?:\/\/[^\s?#]+$/.test(raw) ? null : `MARGINALIA_PUBLIC_URL must be an http:// or https:// address, got "${raw}".`,
  ),
  /** Files attached to comments (docs/api.md, "Attachments"; docs/operations.md, "Attachments"). */
  attachments: {
    dir: text(
      'MARGINALIA_ATTACHMENTS_DIR',
      './data/attachments',
      'The folder uploaded files are kept in when no S3-compatible store is configured (created if missing; files 0600, ' +
        'named by the server, never by a caller).',
      (raw) =>
        [...raw].some((c) => c.charCodeAt(0) < 0x20)
          ? 'MARGINALIA_ATTACHMENTS_DIR must be a folder path, without control characters.'
          : null,
    ),
    maxBytes: integer(
      'MARGINALIA_ATTACHMENT_MAX_BYTES',
      25 * 1024 * 1024,
      1,
      5 * 1024 * 1024 * 1024,
      'The largest file attachments/upload takes, in bytes; a larger one is refused with 413 and nothing is kept.',
    ),
    types: commaList(
      'MARGINALIA_ATTACHMENT_TYPES',
      'Comma list of the MIME types attachments/upload takes (`image/png`, or `image/*` for a family); unset, ' +
        'images (PNG, JPEG, GIF, WebP), PDF, plain text, CSV, ZIP and `application/octet-stream`. HTML, SVG and ' +
        'JavaScript are refused whatever it says, and images and PDFs must start with their own magic bytes.',
      attachmentType,
    ),
    expiryHours: integer(
      'MARGINALIA_ATTACHMENT_EXPIRY_HOURS',
      24,
      1,
      24 * 365,
      'Hours an upload that no comment refers to is kept; then it and its file are deleted.',
    ),
    sweepSeconds: integer(
      'MARGINALIA_ATTACHMENT_SWEEP_SECONDS',
      30,
      0,
      86_400,
      'Seconds between two rounds of the removal worker, which deletes expired uploads and removes the files of ' +
        'deleted attachments from storage (retrying those that fail). 0: no worker in this process.',
    ),
    s3: {
      endpoint: text(
        'MARGINALIA_S3_ENDPOINT',
        null,
        'An S3-compatible store for uploaded files (`https://s3.eu-west-1.amazonaws.com`, `http://minio:9000`): set, ' +
          'files go there instead of MARGINALIA_ATTACHMENTS_DIR (with MARGINALIA_S3_BUCKET and the keys).',
        (raw) =>
          /^https?:\/\/[^\s?#]+$/.test(raw)
            ? null
            : `MARGINALIA_S3_ENDPOINT must be an http:// or https:// address, got "${raw}".`,
      ),
      bucket: text('MARGINALIA_S3_BUCKET', null, 'The bucket uploaded files are kept in (with MARGINALIA_S3_ENDPOINT).', (raw) =>
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(raw) ? null : `MARGINALIA_S3_BUCKET must be a bucket name, got "${raw}".`,
      ),
      region: text(
        'MARGINALIA_S3_REGION',
        'us-east-1',
        'The region requests to the S3-compatible store are signed for.',
        (raw) =>
          /^[a-z0-9-]{1,64}$/.test(raw) ? null : `MARGINALIA_S3_REGION must be a region name (a-z, 0-9, -), got "${raw}".`,
      ),
      accessKeyId: text('MARGINALIA_S3_ACCESS_KEY_ID', null, 'The access key id of the S3-compatible store.', (raw) =>
        /^[\x21-\x7e]{1,256}$/.test(raw) ? null : 'MARGINALIA_S3_ACCESS_KEY_ID must be printable ASCII without spaces.',
      ),
      secretAccessKey: text(
        'MARGINALIA_S3_SECRET_ACCESS_KEY',
        null,
        'The secret access key of the S3-compatible store.',
        (raw) =>
          /^[\x21-\x7e]{1,256}$/.test(raw) ? null : 'MARGINALIA_S3_SECRET_ACCESS_KEY must be printable ASCII without spaces.',
      ),
      pathStyle: flag(
        'MARGINALIA_S3_PATH_STYLE',
        'Address the bucket in the path (`http://host/bucket/key`, as MinIO and most self-hosted stores want) rather ' +
          'than as a subdomain.',
      ),
    },
  },
  webhookPollMs: integer(
    'MARGINALIA_WEBHOOK_POLL_MS',
    250,
    10,
    60_000,
    'How often each process looks for new events to deliver to webhooks and for deliveries due (an idle look is one ' +
      'small read); the most an event waits before its delivery starts.',
  ),
  migrationBatchSize: integer(
    'MARGINALIA_MIGRATION_BATCH_SIZE',
    DEFAULT_MIGRATION_BATCH_SIZE,
    1,
    100_000,
    'Most rows one batch of a document migration (organizations/documents/migrate) moves, each batch its own ' +
      'transaction; below it, batches are sized to MARGINALIA_WRITE_BUDGET_MS from the time the last one took, so ' +
      "other tenants' writes wait at most about that long behind one.",
  ),
  migrationLeaseMs: integer(
    'MARGINALIA_MIGRATION_LEASE_MS',
    DEFAULT_MIGRATION_LEASE_MS,
    1000,
    3_600_000,
    'How long a document migration stays with the process running it after its last batch: a job whose process ' +
      'died is taken up by another (or by the same after a restart) once this has passed, from its last batch.',
  ),
  migrationPollMs: integer(
    'MARGINALIA_MIGRATION_POLL_MS',
    DEFAULT_MIGRATION_POLL_MS,
    10,
    60_000,
    'How often each process looks for a document migration to run (an idle look is one small write); the most a ' +
      'started migration waits before its first batch.',
  ),
  maxOpenMigrationsPerTenant: integer(
    'MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT',
    DEFAULT_MAX_OPEN_MIGRATIONS,
    1,
    1_000_000,
    'Most document migrations (organizations/documents/migrate) a tenant may have pending or in progress at once: a ' +
      'start past it gets 429 `RESOURCE_EXHAUSTED` and records nothing; once one finishes, another may start.',
  ),
  searchMaxQueryLength: integer(
    'MARGINALIA_SEARCH_MAX_QUERY_LENGTH',
    DEFAULT_SEARCH_MAX_QUERY_LENGTH,
    1,
    MAX_SEARCH_QUERY_LENGTH,
    'Longest `query` search/get takes, in characters; a longer one gets 400 `INVALID_ARGUMENT`. A query has at most 16 ' +
      'words, each at most 128 characters.',
  ),
  searchMaxPageSize: integer(
    'MARGINALIA_SEARCH_MAX_PAGE_SIZE',
    DEFAULT_SEARCH_MAX_PAGE_SIZE,
    1,
    1000,
    'Most hits a page of search/get holds (its `pageSize`; 20 when none is named); a larger pageSize gets 400 ' +
      '`INVALID_ARGUMENT`. Each hit is ranked against every other match, so a page costs about the matches, not its size.',
  ),
  adminToken: text(
    'MARGINALIA_ADMIN_TOKEN',
    null,
    `The admin console at /admin (docs/operations.md, "Admin console"): its login token, at least ${MIN_ADMIN_TOKEN_LENGTH} ` +
      'visible ASCII characters (e.g. `openssl rand -hex 32`). Unset, /admin answers 404. Changing it ends every session.',
    (raw) => adminTokenProblem(raw),
  ),
  adminSessionHours: integer(
    'MARGINALIA_ADMIN_SESSION_HOURS',
    DEFAULT_ADMIN_SESSION_HOURS,
    1,
    24 * 30,
    'How long an admin console session lasts after its login; then the console asks for the token again.',
  ),
  restAfterMs: integer(
    'MARGINALIA_REST_AFTER_MS',
    DEFAULT_REST_AFTER_MS,
    0,
    86_400_000,
    'After this many milliseconds without a request, each process lets go of what it keeps in memory only for ' +
      "speed (MARGINALIA_THREAD_PAGE_CACHE_MB's pages, MARGINALIA_PROFILE_CACHE_MB's profiles, SQLite's page cache), " +
      'so that memory at rest falls back from its peak; the next requests read from the database again. 0: kept.',
  ),
  threadPageCacheMb: integer(
    'MARGINALIA_THREAD_PAGE_CACHE_MB',
    DEFAULT_THREAD_PAGE_CACHE_MB,
    0,
    1_000_000,
    'Megabytes of answered pages of threads (commentannotations/get) each process keeps, to answer them ' +
      "again while their document and its authors' profiles are unchanged (checked on every read); past it, " +
      'the pages used longest ago are let go, and a new page is kept at most once per 10 ms (the others are ' +
      'answered and not kept). 0 reads and renders every page.',
  ),
  redisUrl: text(
    'MARGINALIA_REDIS_URL',
    null,
    '`redis://...`: share the rate limit of each API key among all instances through this Redis, and tell every ' +
      "instance of each write's events at once (event streams). Unset, each process limits on its own, and instances " +
      'hear of events through PostgreSQL LISTEN/NOTIFY (or, on SQLite, within MARGINALIA_EVENT_POLL_MS).',
    (raw) =>
      /^rediss?:\/\/./.test(raw) ? null : `MARGINALIA_REDIS_URL must start with redis:// or rediss://, got "${redactUrl(raw)}".`,
  ),
  redisTimeoutMs: integer(
    'MARGINALIA_REDIS_TIMEOUT_MS',
    100,
    1,
    60_000,
    'How long a rate-limit check waits for Redis before counting the request locally instead (the service keeps ' +
      'serving without Redis).',
  ),
  shutdownTimeoutMs: integer(
    'MARGINALIA_SHUTDOWN_TIMEOUT_MS',
    10_000,
    0,
    MS_MAX,
    'On SIGTERM, how long in-flight requests may take before the process exits anyway.',
  ),
  /** How long a connection may take to send a request, or sit idle (http/connections.ts). */
  http: {
    headersTimeoutMs: integer(
      'MARGINALIA_HTTP_HEADERS_TIMEOUT_MS',
      DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs,
      100,
      MS_MAX,
      'How long a client has to send the request line and headers; past it the request gets 408 and the connection ' +
        'closes. Also closes connections that never send a request.',
    ),
    requestTimeoutMs: integer(
      'MARGINALIA_HTTP_REQUEST_TIMEOUT_MS',
      DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs,
      100,
      MS_MAX,
      'How long a client has to send the whole request, body included; past it the request gets 408 and the ' +
        'connection closes.',
    ),
    keepAliveTimeoutMs: integer(
      'MARGINALIA_HTTP_KEEP_ALIVE_TIMEOUT_MS',
      DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs,
      100,
      MS_MAX,
      'How long a kept-alive connection may wait for its next request. Keep it above the idle timeout of a load ' +
        'balancer in front (often 60 s).',
    ),
    idleTimeoutMs: integer(
      'MARGINALIA_HTTP_IDLE_TIMEOUT_MS',
      DEFAULT_HTTP_TIMEOUTS.idleTimeoutMs,
      100,
      MS_MAX,
      'A connection on which nothing moves in either direction for this long is closed, whatever its state.',
    ),
  } satisfies SettingsOf<HttpTimeouts>,
  sqliteBusyTimeoutMs: integer(
    'MARGINALIA_SQLITE_BUSY_TIMEOUT_MS',
    5000,
    0,
    600_000,
    'How long a SQLite write waits for another writer before failing with 503.',
  ),
  sqliteSynchronous: oneOf<SqliteSynchronous>(
    'MARGINALIA_SQLITE_SYNCHRONOUS',
    'NORMAL',
    ['NORMAL', 'FULL'],
    (raw) => raw.toUpperCase(),
    '`NORMAL` survives a process crash; `FULL` also survives power loss, at the cost of an fsync per write.',
  ),
  sqliteSecureDelete: oneOf<SqliteSecureDelete>(
    'MARGINALIA_SQLITE_SECURE_DELETE',
    'ON',
    ['ON', 'FAST', 'OFF'],
    (raw) => raw.toUpperCase(),
    "SQLite's secure_delete: `ON` overwrites deleted rows with zeros, freed pages included, so an erased user's data " +
      'leaves no bytes in the file (after an erasure the WAL is checkpointed into it and truncated); `FAST` zeroes them ' +
      'only where that costs no extra I/O, leaving whole freed pages as they were; `OFF` zeroes nothing (docs/operations.md).',
  ),
  sqliteCheckAtStart: oneOf<SqliteCheck>(
    'MARGINALIA_SQLITE_CHECK_AT_START',
    'quick',
    ['quick', 'full', 'off'],
    (raw) => raw.toLowerCase(),
    'How the SQLite file is checked for damage at start: `quick` (PRAGMA quick_check, about 2 s per GB), `full` ' +
      '(integrity_check, slower, also checks indexes against tables) or `off`. A file larger than ' +
      'MARGINALIA_SQLITE_CHECK_INLINE_MB is checked on a thread of its own while the server serves. Damage found ' +
      'makes /readyz fail and writes answer 503 (docs/operations.md).',
  ),
  inboxAnswerCopies: integer(
    'MARGINALIA_INBOX_ANSWER_COPIES',
    DEFAULT_INBOX_ANSWER_COPIES,
    0,
    1_000_000,
    "A notification to at most this many recipients keeps a copy of its answer in each recipient's inbox row, so a " +
      'page of an inbox is read in one range scan; one to more keeps its answer once, which a page reads from the ' +
      'notification (about 6 us a row). The answer names every recipient, so copies grow with the square of their ' +
      'number: at 50 recipients, 280 pages written a notification with copies against 60 without (docs/decisions.md).',
  ),
  sqliteCheckInlineMb: integer(
    'MARGINALIA_SQLITE_CHECK_INLINE_MB',
    16,
    0,
    1_048_576,
    'A SQLite file up to this size (MB, with its WAL) is checked before the server starts serving (about 30 ms for ' +
      "16 MB); a larger one after, on a thread of its own, so that a large file's check does not hold the start " +
      '(32 s for 6.4 GB). 0: always after.',
  ),
  sqliteReadyAfterCheck: flag(
    'MARGINALIA_SQLITE_READY_AFTER_CHECK',
    'With `1`, /readyz answers 503 "checking" while the check of a large file at start runs (requests are served ' +
      'meanwhile); by default the server is ready at once, and damage the check finds later makes /readyz fail then.',
  ),
  sqliteCheckpointMs: integer(
    'MARGINALIA_SQLITE_CHECKPOINT_MS',
    100,
    0,
    60_000,
    'How often a thread of its own copies the SQLite WAL into the file (a checkpoint), instead of the request whose ' +
      'commit crossed 1,000 pages doing it on the event loop. 0: SQLite checkpoints at commits, as it does by itself; ' +
      'so it does, at MARGINALIA_SQLITE_WAL_MAX_MB, where the process may run on one CPU only.',
  ),
  sqliteWalMaxMb: integer(
    'MARGINALIA_SQLITE_WAL_MAX_MB',
    16,
    1,
    1_048_576,
    'With the checkpoint thread: past this size of the WAL (MB), a commit checkpoints it itself, the bound should the ' +
      'thread fall behind (a reader holding an old snapshot, a slow disk).',
  ),
  sqlitePageSize: converted(
    oneOf(
      'MARGINALIA_SQLITE_PAGE_SIZE',
      '8192',
      ['512', '1024', '2048', '4096', '8192', '16384', '32768', '65536'],
      (raw) => raw,
      'The page size of a new SQLite file, a power of two (an existing file keeps its own until VACUUM). Measured: ' +
        'a page of notifications reads in about 30% less time with 8192 than with 4096, whose rows spill to overflow pages.',
    ),
    Number,
  ),
  sqliteCacheMb: integer(
    'MARGINALIA_SQLITE_CACHE_MB',
    64,
    1,
    65536,
    'Pages SQLite keeps in its own cache, per connection (each worker has one), in MB; the rest of the file is ' +
      "read through the operating system's cache. Counts toward the process's memory (docs/operations.md).",
  ),
  sqliteMmapMb: integer(
    'MARGINALIA_SQLITE_MMAP_MB',
    0,
    0,
    1_048_576,
    'How much of the SQLite file is read through memory mapping instead of read() calls, in MB (0: none). Mapped ' +
      'pages count toward resident memory; measured, it did not make requests faster over HTTP.',
  ),
  heapGrowthPercent: integer(
    'MARGINALIA_HEAP_GROWTH_PERCENT',
    DEFAULT_HEAP_GROWTH_PERCENT,
    0,
    300,
    'How far the JavaScript heap may grow past what the last full garbage collection kept before the next, in ' +
      'percent (V8 --heap-growing-percent); 0 leaves it to V8, which lets it reach 4 times. Lower: less memory at ' +
      'the peak of large requests, more time collecting (docs/decisions.md).',
  ),
  workers: integer(
    'MARGINALIA_WORKERS',
    1,
    1,
    64,
    'Worker processes serving the one port (node:cluster), e.g. one per core; 1 serves from the main process.',
  ),
  pgSchema: text('MARGINALIA_PG_SCHEMA', 'public', 'PostgreSQL schema holding the tables; created if missing.', (raw) =>
    /^[a-z_][a-z0-9_]{0,62}$/.test(raw)
      ? null
      : `MARGINALIA_PG_SCHEMA must be a lowercase identifier (a-z, 0-9, _; at most 63), got "${raw}".`,
  ),
  pgPoolSize: integer('MARGINALIA_PG_POOL_SIZE', 10, 1, 1000, 'PostgreSQL connections per process.'),
  pgEventPoolSize: integer(
    'MARGINALIA_PG_EVENT_POOL_SIZE',
    0,
    0,
    100,
    'PostgreSQL connections per process kept for numbering the events of committed writes, besides ' +
      'MARGINALIA_PG_POOL_SIZE; 0: numberings take their turn in that pool. Measured when writes waited for their ' +
      'numbering (before migration 21), with their own 2: notifications/add 5-11% more req/s, but with 1,000 open ' +
      'streams writes answered 3 to 7 times slower and their events reached the streams later (p99 76-85 ms against 44 ms).',
  ),
  pgConnectTimeoutMs: integer(
    'MARGINALIA_PG_CONNECT_TIMEOUT_MS',
    2000,
    1,
    600_000,
    'How long to wait for a PostgreSQL connection before answering 503.',
  ),
  databaseWaitSeconds: integer(
    'MARGINALIA_DATABASE_WAIT_SECONDS',
    30,
    0,
    3600,
    'At start, how long to keep trying a PostgreSQL that cannot be reached (not up yet, restarting, or out of ' +
      'connections) before exiting with code 1, trying again every second; with one worker /healthz answers ' +
      'meanwhile (docs/operations.md, "Start"). 0: exit at the first failure.',
  ),
  pgStatementTimeoutMs: integer(
    'MARGINALIA_PG_STATEMENT_TIMEOUT_MS',
    5000,
    1,
    MS_MAX,
    'Longest a PostgreSQL statement may run before it is cancelled and the request answered 503.',
  ),
};

/** Every setting, in the order the reference lists them (docs/configuration.md's table is made from it). */
export const SETTINGS: readonly Setting<unknown>[] = settingsIn(FIELDS);

/** Settings that were replaced, and what to set instead. */
const REPLACED: Readonly<Record<string, string>> = {
  MARGINALIA_PROFILE_CACHE_SIZE:
    'the profile cache is bounded in megabytes, by MARGINALIA_PROFILE_CACHE_MB (a count of profiles bounded no memory, ' +
    'since their fields may be long: docs/decisions.md).',
};

/** A field of Config: the setting it is read from, or a group of fields. */
type Declaration = Setting<unknown> | { readonly [field: string]: Declaration };

/** The value a declaration reads to: a setting's value, or an object of its group's values. */
type Value<D> = D extends Setting<infer T> ? T : { -readonly [K in keyof D]: Value<D[K]> };

/** The settings as read, field by field, before the values derived from several of them. */
type Settings = Value<typeof FIELDS>;

/** The configuration: the settings as FIELDS groups them, and values derived from several settings. */
export interface Config extends Omit<Settings, 'bootstrap'> {
  /** Both set or both absent: the credentials the server ensures at start. */
  bootstrap: { apiKey: string; authToken: string } | null;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Env): ConfigResult {
  const errors: string[] = [];
  const v = read(FIELDS, env, errors) as Settings;
  // A setting that was replaced: left unread, it would silently stop doing what it was set for.
  for (const [name, instead] of Object.entries(REPLACED)) {
    if (env[name] !== undefined && env[name] !== '') errors.push(`${name} is no longer read: ${instead}`);
  }
  // Checks that involve two settings.
  if ((v.bootstrap.apiKey === null) !== (v.bootstrap.authToken === null)) {
    errors.push('MARGINALIA_API_KEY and MARGINALIA_AUTH_TOKEN must be set together, or neither.');
  }
  if (v.http.headersTimeoutMs > v.http.requestTimeoutMs) {
    errors.push(
      'MARGINALIA_HTTP_HEADERS_TIMEOUT_MS must not be larger than MARGINALIA_HTTP_REQUEST_TIMEOUT_MS ' +
        '(the headers are part of the request).',
    );
  }
  // One header cannot carry both credentials.
  for (const clash of v.apiKeyHeaders.filter((h) => h === AUTH_TOKEN_HEADER || v.authTokenHeaders.includes(h))) {
    errors.push(`MARGINALIA_API_KEY_HEADERS names "${clash}", which carries the auth token.`);
  }
  if (v.authTokenHeaders.includes(API_KEY_HEADER)) {
    errors.push(`MARGINALIA_AUTH_TOKEN_HEADERS names "${API_KEY_HEADER}", which carries the API key.`);
  }
  // A workspace credential header is none of a tenant's, nor the other workspace credential's.
  const tenantHeaders = [API_KEY_HEADER, AUTH_TOKEN_HEADER, ...v.apiKeyHeaders, ...v.authTokenHeaders];
  for (const [setting, names, other] of [
    ['MARGINALIA_WORKSPACE_ID_HEADERS', v.workspaceIdHeaders, [WORKSPACE_TOKEN_HEADER, ...v.workspaceTokenHeaders]],
    ['MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS', v.workspaceTokenHeaders, [WORKSPACE_ID_HEADER, ...v.workspaceIdHeaders]],
  ] as const) {
    for (const clash of names.filter((h) => tenantHeaders.includes(h) || other.includes(h)))
      errors.push(`${setting} names "${clash}", which carries another credential.`);
  }
  if (v.smtpUrl !== null && v.emailFrom === null)
    errors.push('MARGINALIA_SMTP_URL needs MARGINALIA_EMAIL_FROM (the sender address).');
  if (v.emailRetryMinMs > v.emailRetryMaxMs)
    errors.push('MARGINALIA_EMAIL_RETRY_MIN_MS must not be larger than MARGINALIA_EMAIL_RETRY_MAX_MS.');
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, config: { ...v, bootstrap: bootstrapPair(v.bootstrap) } };
}

/** The bootstrap credentials when both are set; loadConfig has refused one without the other. */
function bootstrapPair({ apiKey, authToken }: Settings['bootstrap']): Config['bootstrap'] {
  return apiKey !== null && authToken !== null ? { apiKey, authToken } : null;
}

function isSetting(d: Declaration): d is Setting<unknown> {
  return typeof d.parse === 'function';
}

/** The settings of a declaration, in declaration order. */
function settingsIn(d: Declaration): Setting<unknown>[] {
  return isSetting(d) ? [d] : Object.values(d).flatMap(settingsIn);
}

/**
 * Reads a declaration from the environment: a setting's value (its default when unset or empty, or
 * refused), or a group's object of values. Refusals are added to `errors`, in declaration order.
 */
function read(d: Declaration, env: Env, errors: string[]): unknown {
  if (!isSetting(d)) return Object.fromEntries(Object.entries(d).map(([field, inner]) => [field, read(inner, env, errors)]));
  const raw = env[d.name];
  if (raw === undefined || raw === '') return d.default;
  const parsed = d.parse(raw);
  if ('error' in parsed) {
    errors.push(parsed.error);
    return d.default;
  }
  return parsed.value;
}

function databaseUrlProblem(url: string): string | null {
  if (url === 'sqlite:') return 'DATABASE_URL "sqlite:" needs a path, e.g. sqlite:./data/marginalia.db or sqlite::memory:.';
  if (url.startsWith('sqlite:') || url.startsWith('postgres://') || url.startsWith('postgresql://')) return null;
  return `DATABASE_URL must start with sqlite:, postgres:// or postgresql://, got "${redactUrl(url)}".`;
}

function databaseTarget(url: string): DatabaseTarget {
  return url.startsWith('sqlite:') ? { kind: 'sqlite', path: url.slice('sqlite:'.length) } : { kind: 'postgres', url };
}

/** Hides a password in a database URL before it reaches a log or an error message. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}
