// Configuration (docs/configuration.md): defaults, every variable validated, every problem reported at once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig, redactUrl, SETTINGS, settingsTable } from '../../src/config/index.js';
import { TABLE_END, TABLE_START } from '../../src/config/setting.js';

describe('loadConfig', () => {
  test('an empty environment gives the documented defaults', () => {
    const r = loadConfig({});
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.config, {
      port: 8080,
      host: '127.0.0.1',
      database: { kind: 'sqlite', path: './data/marginalia.db' },
      logLevel: 'info',
      logBufferMb: 16,
      bootstrap: null,
      bodyLimit: 1_048_576,
      maxJsonDepth: 32,
      limits: { maxBatch: 1000, maxTextLength: 100_000, maxMarksPerRequest: 10_000 },
      rateLimit: 1000,
      authFailureFloorMs: 5,
      apiKeyHeaders: [],
      authTokenHeaders: [],
      workspaceIdHeaders: [],
      workspaceTokenHeaders: [],
      corsOrigins: [],
      profileCacheMb: 32,
      threadPageCacheMb: 64,
      restAfterMs: 30_000,
      redisUrl: null,
      redisTimeoutMs: 100,
      shutdownTimeoutMs: 10_000,
      sqliteBusyTimeoutMs: 5000,
      http: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000, idleTimeoutMs: 120_000 },
      sqliteSynchronous: 'NORMAL',
      sqliteSecureDelete: 'ON',
      sqliteCheckAtStart: 'quick',
      importAttempts: 5,
      importConcurrency: 4,
      importRate: 20,
      importTimeoutMs: 30000,
      inboxAnswerCopies: 5,
      sqliteCheckInlineMb: 16,
      sqliteReadyAfterCheck: false,
      sqliteCheckpointMs: 100,
      sqliteWalMaxMb: 16,
      sqlitePageSize: 8192,
      sqliteCacheMb: 64,
      sqliteMmapMb: 0,
      pgSchema: 'public',
      pgPoolSize: 10,
      pgEventPoolSize: 0,
      pgConnectTimeoutMs: 2000,
      databaseWaitSeconds: 30,
      endUserRateLimit: 20,
      endUserTokenCache: 10000,
      pgStatementTimeoutMs: 5000,
      heapGrowthPercent: 50,
      workers: 1,
      erasureBatchSize: 1000,
      writeBudgetMs: 50,
      maxFolderDepth: 1000,
      maxAllowedDomains: 1000,
      maxLiveStatesPerDocument: 1000,
      maxLiveStateBytes: 1_048_576,
      workflowMaxNodes: 100,
      workflowMaxDefinitionBytes: 262_144,
      workflowMaxStepsPerExecution: 1000,
      workflowEventsPageMax: 500,
      preflightAnswerMs: 5000,
      eventRetentionHours: 72,
      activitiesEnabled: false,
      activityRetentionDays: 90,
      eventPollMs: 1000,
      eventNumberingMs: 20,
      eventHeartbeatMs: 15_000,
      eventStreamBufferKb: 1024,
      eventStreamsMax: 10_000,
      webhookAllowPrivate: false,
      webhookTimeoutMs: 15_000,
      permissionProviderTimeoutMs: 5000,
      presenceTtlSeconds: 600,
      maxPresencePerDocument: 1000,
      reactionIconMaxLength: 64,
      maxReactionsPerComment: 1000,
      maxReactionIconsPerComment: 50,
      webhookRetrySchedule: [5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      webhookDisableAfterFailingHours: 120,
      webhookSecretGraceHours: 24,
      webhookConcurrency: 16,
      webhookPollMs: 250,
      migrationBatchSize: 500,
      migrationLeaseMs: 30_000,
      migrationPollMs: 1000,
      folderDeletionBatchSize: 1000,
      activitiesDeleteMax: 10_000,
      maxOpenMigrationsPerTenant: 100,
      searchMaxQueryLength: 256,
      searchMaxPageSize: 100,
      adminToken: null,
      adminSessionHours: 12,
      webhookRecoverBatchSize: 1000,
      workflowPageSameTimeMax: 1000,
      workflowExecutionRetentionDays: 90,
      retentionIntervalSeconds: 3600,
      retentionBatchSize: 1000,
      smtpUrl: null,
      emailFrom: null,
      emailRequireTls: false,
      emailTlsRejectUnauthorized: true,
      emailDigestSeconds: 300,
      emailMentionsAtOnce: true,
      emailMaxAttempts: 10,
      emailRetryMinMs: 30_000,
      emailRetryMaxMs: 3_600_000,
      emailPollMs: 1000,
      emailLeaseMs: 60_000,
      emailTemplatesDir: null,
      publicUrl: null,
      attachments: {
        dir: './data/attachments',
        maxBytes: 26_214_400,
        types: [],
        expiryHours: 24,
        sweepSeconds: 30,
        s3: { endpoint: null, bucket: null, region: 'us-east-1', accessKeyId: null, secretAccessKey: null, pathStyle: false },
      },
    });
  });

  test('every variable is read', () => {
    const r = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'DEBUG',
      MARGINALIA_API_KEY: 'key',
      MARGINALIA_AUTH_TOKEN: 'a-token-of-16-chars',
      MARGINALIA_BODY_LIMIT: '2048',
      MARGINALIA_MAX_JSON_DEPTH: '8',
      MARGINALIA_RATE_LIMIT: '0',
      MARGINALIA_SHUTDOWN_TIMEOUT_MS: '500',
      MARGINALIA_SQLITE_BUSY_TIMEOUT_MS: '10',
      MARGINALIA_SQLITE_SYNCHRONOUS: 'full',
      MARGINALIA_SQLITE_SECURE_DELETE: 'fast',
      MARGINALIA_SQLITE_CHECK_AT_START: 'FULL',
      MARGINALIA_INBOX_ANSWER_COPIES: '0',
      MARGINALIA_IMPORT_ATTEMPTS: '3',
      MARGINALIA_IMPORT_CONCURRENCY: '2',
      MARGINALIA_IMPORT_RATE: '50',
      MARGINALIA_IMPORT_TIMEOUT_MS: '5000',
      MARGINALIA_SQLITE_CHECK_INLINE_MB: '0',
      MARGINALIA_SQLITE_READY_AFTER_CHECK: '1',
      MARGINALIA_SQLITE_CHECKPOINT_MS: '0',
      MARGINALIA_SQLITE_WAL_MAX_MB: '8',
      MARGINALIA_SQLITE_PAGE_SIZE: '16384',
      MARGINALIA_SQLITE_CACHE_MB: '8',
      MARGINALIA_SQLITE_MMAP_MB: '256',
      MARGINALIA_PG_SCHEMA: 'tenant_data',
      MARGINALIA_PG_POOL_SIZE: '4',
      MARGINALIA_PG_EVENT_POOL_SIZE: '3',
      MARGINALIA_PG_CONNECT_TIMEOUT_MS: '300',
      MARGINALIA_DATABASE_WAIT_SECONDS: '5',
      MARGINALIA_END_USER_RATE_LIMIT: '7',
      MARGINALIA_END_USER_TOKEN_CACHE: '50',
      MARGINALIA_PG_STATEMENT_TIMEOUT_MS: '700',
      MARGINALIA_WORKERS: '2',
      MARGINALIA_HEAP_GROWTH_PERCENT: '0',
      MARGINALIA_MAX_BATCH: '5000',
      MARGINALIA_MAX_TEXT_LENGTH: '2000',
      MARGINALIA_AUTH_FAILURE_FLOOR_MS: '0',
      MARGINALIA_PROFILE_CACHE_MB: '5',
      MARGINALIA_LOG_BUFFER_MB: '2',
      MARGINALIA_THREAD_PAGE_CACHE_MB: '3',
      MARGINALIA_REST_AFTER_MS: '0',
      MARGINALIA_REDIS_URL: 'redis://:pw@cache:6379/2',
      MARGINALIA_REDIS_TIMEOUT_MS: '25',
      MARGINALIA_HTTP_HEADERS_TIMEOUT_MS: '1000',
      MARGINALIA_HTTP_REQUEST_TIMEOUT_MS: '2000',
      MARGINALIA_HTTP_KEEP_ALIVE_TIMEOUT_MS: '3000',
      MARGINALIA_HTTP_IDLE_TIMEOUT_MS: '4000',
      MARGINALIA_ERASURE_BATCH_SIZE: '50',
      MARGINALIA_WRITE_BUDGET_MS: '20',
      MARGINALIA_MAX_FOLDER_DEPTH: '20',
      MARGINALIA_MAX_ALLOWED_DOMAINS: '50',
      MARGINALIA_MAX_LIVE_STATES_PER_DOCUMENT: '50',
      MARGINALIA_MAX_LIVE_STATE_BYTES: '4096',
      MARGINALIA_WORKFLOW_MAX_NODES: '20',
      MARGINALIA_WORKFLOW_MAX_DEFINITION_BYTES: '4096',
      MARGINALIA_WORKFLOW_MAX_STEPS_PER_EXECUTION: '50',
      MARGINALIA_WORKFLOW_EVENTS_PAGE_MAX: '25',
      MARGINALIA_PREFLIGHT_ANSWER_MS: '250',
      MARGINALIA_EVENT_RETENTION_HOURS: '24',
      MARGINALIA_ACTIVITIES_ENABLED: '1',
      MARGINALIA_ACTIVITY_RETENTION_DAYS: '30',
      MARGINALIA_EVENT_POLL_MS: '500',
      MARGINALIA_EVENT_NUMBERING_MS: '5',
      MARGINALIA_EVENT_HEARTBEAT_MS: '5000',
      MARGINALIA_EVENT_STREAM_BUFFER_KB: '64',
      MARGINALIA_EVENT_STREAMS_MAX: '100',
      MARGINALIA_API_KEY_HEADERS: 'X-Api-Key, apikey,',
      MARGINALIA_AUTH_TOKEN_HEADERS: 'x-auth-token',
      MARGINALIA_WORKSPACE_ID_HEADERS: 'X-Velt-Workspace-Id',
      MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS: 'x-velt-workspace-auth-token, x-ws-token',
      MARGINALIA_CORS_ORIGINS: 'https://App.Example.com:443, http://localhost:3000,https://app.example.com',
      MARGINALIA_WEBHOOK_ALLOW_PRIVATE: '1',
      MARGINALIA_WEBHOOK_TIMEOUT_MS: '2000',
      MARGINALIA_PERMISSION_PROVIDER_TIMEOUT_MS: '1500',
      MARGINALIA_PRESENCE_TTL_SECONDS: '30',
      MARGINALIA_MAX_PRESENCE_PER_DOCUMENT: '20',
      MARGINALIA_REACTION_ICON_MAX_LENGTH: '32',
      MARGINALIA_MAX_REACTIONS_PER_COMMENT: '500',
      MARGINALIA_MAX_REACTION_ICONS_PER_COMMENT: '20',
      MARGINALIA_WEBHOOK_RETRY_SCHEDULE: '0.5, 1,30',
      MARGINALIA_WEBHOOK_CONCURRENCY: '4',
      MARGINALIA_WEBHOOK_POLL_MS: '50',
      MARGINALIA_SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
      MARGINALIA_EMAIL_FROM: 'notify@example.com',
      MARGINALIA_EMAIL_REQUIRE_TLS: '1',
      MARGINALIA_EMAIL_TLS_VERIFY: '0',
      MARGINALIA_EMAIL_DIGEST_SECONDS: '60',
      MARGINALIA_EMAIL_MENTIONS_AT_ONCE: '0',
      MARGINALIA_EMAIL_MAX_ATTEMPTS: '3',
      MARGINALIA_EMAIL_RETRY_MIN_MS: '1000',
      MARGINALIA_EMAIL_RETRY_MAX_MS: '5000',
      MARGINALIA_EMAIL_POLL_MS: '200',
      MARGINALIA_EMAIL_LEASE_MS: '10000',
      MARGINALIA_EMAIL_TEMPLATES_DIR: '/etc/marginalia/mail',
      MARGINALIA_PUBLIC_URL: 'https://comments.example.com',
      MARGINALIA_ATTACHMENTS_DIR: '/var/lib/marginalia/files',
      MARGINALIA_ATTACHMENT_MAX_BYTES: '1048576',
      MARGINALIA_ATTACHMENT_TYPES: 'image/*, Application/PDF',
      MARGINALIA_ATTACHMENT_EXPIRY_HOURS: '2',
      MARGINALIA_ATTACHMENT_SWEEP_SECONDS: '0',
      MARGINALIA_S3_ENDPOINT: 'http://minio:9000',
      MARGINALIA_S3_BUCKET: 'files',
      MARGINALIA_S3_REGION: 'eu-west-1',
      MARGINALIA_S3_ACCESS_KEY_ID: 'AKID',
      MARGINALIA_S3_SECRET_ACCESS_KEY: 'secret',
      MARGINALIA_S3_PATH_STYLE: '1',
      MARGINALIA_MIGRATION_BATCH_SIZE: '200',
      MARGINALIA_MIGRATION_LEASE_MS: '5000',
      MARGINALIA_MIGRATION_POLL_MS: '100',
      MARGINALIA_WEBHOOK_DISABLE_AFTER_FAILING_HOURS: '48',
      MARGINALIA_WEBHOOK_SECRET_GRACE_HOURS: '2',
      MARGINALIA_FOLDER_DELETION_BATCH_SIZE: '10',
      MARGINALIA_ACTIVITIES_DELETE_MAX: '20',
      MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT: '3',
      MARGINALIA_SEARCH_MAX_QUERY_LENGTH: '64',
      MARGINALIA_SEARCH_MAX_PAGE_SIZE: '10',
      MARGINALIA_ADMIN_TOKEN: 'an-admin-token-of-32-characters!',
      MARGINALIA_ADMIN_SESSION_HOURS: '2',
      MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE: '40',
      MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX: '50',
      MARGINALIA_WORKFLOW_EXECUTION_RETENTION_DAYS: '7',
      MARGINALIA_RETENTION_INTERVAL_SECONDS: '0',
      MARGINALIA_RETENTION_BATCH_SIZE: '200',
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.config, {
      port: 9000,
      host: '0.0.0.0',
      database: { kind: 'sqlite', path: ':memory:' },
      logLevel: 'debug',
      logBufferMb: 2,
      bootstrap: { apiKey: 'key', authToken: 'a-token-of-16-chars' },
      bodyLimit: 2048,
      maxJsonDepth: 8,
      limits: { maxBatch: 5000, maxTextLength: 2000, maxMarksPerRequest: 10_000 },
      rateLimit: 0,
      authFailureFloorMs: 0,
      apiKeyHeaders: ['x-api-key', 'apikey'],
      authTokenHeaders: ['x-auth-token'],
      workspaceIdHeaders: ['x-velt-workspace-id'],
      workspaceTokenHeaders: ['x-velt-workspace-auth-token', 'x-ws-token'],
      corsOrigins: ['https://app.example.com', 'http://localhost:3000'],
      profileCacheMb: 5,
      restAfterMs: 0,
      threadPageCacheMb: 3,
      redisUrl: 'redis://:pw@cache:6379/2',
      redisTimeoutMs: 25,
      shutdownTimeoutMs: 500,
      http: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 3000, idleTimeoutMs: 4000 },
      sqliteBusyTimeoutMs: 10,
      sqliteSynchronous: 'FULL',
      sqliteSecureDelete: 'FAST',
      sqliteCheckAtStart: 'full',
      importAttempts: 3,
      importConcurrency: 2,
      importRate: 50,
      importTimeoutMs: 5000,
      inboxAnswerCopies: 0,
      sqliteCheckInlineMb: 0,
      sqliteReadyAfterCheck: true,
      sqliteCheckpointMs: 0,
      sqliteWalMaxMb: 8,
      sqlitePageSize: 16384,
      sqliteCacheMb: 8,
      sqliteMmapMb: 256,
      pgSchema: 'tenant_data',
      pgPoolSize: 4,
      pgEventPoolSize: 3,
      pgConnectTimeoutMs: 300,
      databaseWaitSeconds: 5,
      endUserRateLimit: 7,
      endUserTokenCache: 50,
      pgStatementTimeoutMs: 700,
      heapGrowthPercent: 0,
      workers: 2,
      erasureBatchSize: 50,
      writeBudgetMs: 20,
      maxFolderDepth: 20,
      maxAllowedDomains: 50,
      maxLiveStatesPerDocument: 50,
      maxLiveStateBytes: 4096,
      workflowMaxNodes: 20,
      workflowMaxDefinitionBytes: 4096,
      workflowMaxStepsPerExecution: 50,
      workflowEventsPageMax: 25,
      preflightAnswerMs: 250,
      eventRetentionHours: 24,
      activitiesEnabled: true,
      activityRetentionDays: 30,
      eventPollMs: 500,
      eventNumberingMs: 5,
      eventHeartbeatMs: 5000,
      eventStreamBufferKb: 64,
      eventStreamsMax: 100,
      webhookAllowPrivate: true,
      webhookTimeoutMs: 2000,
      permissionProviderTimeoutMs: 1500,
      presenceTtlSeconds: 30,
      maxPresencePerDocument: 20,
      reactionIconMaxLength: 32,
      maxReactionsPerComment: 500,
      maxReactionIconsPerComment: 20,
      webhookRetrySchedule: [500, 1000, 30_000],
      webhookDisableAfterFailingHours: 48,
      webhookSecretGraceHours: 2,
      webhookConcurrency: 4,
      webhookPollMs: 50,
      smtpUrl: 'smtps://mailer:pw@smtp.example.com:465',
      emailFrom: 'notify@example.com',
      emailRequireTls: true,
      emailTlsRejectUnauthorized: false,
      emailDigestSeconds: 60,
      emailMentionsAtOnce: false,
      emailMaxAttempts: 3,
      emailRetryMinMs: 1000,
      emailRetryMaxMs: 5000,
      emailPollMs: 200,
      emailLeaseMs: 10_000,
      emailTemplatesDir: '/etc/marginalia/mail',
      publicUrl: 'https://comments.example.com',
      attachments: {
        dir: '/var/lib/marginalia/files',
        maxBytes: 1_048_576,
        types: ['image/*', 'application/pdf'],
        expiryHours: 2,
        sweepSeconds: 0,
        s3: {
          endpoint: 'http://minio:9000',
          bucket: 'files',
          region: 'eu-west-1',
          accessKeyId: 'AKID',
          secretAccessKey: 'secret',
          pathStyle: true,
        },
      },
      migrationBatchSize: 200,
      migrationLeaseMs: 5000,
      migrationPollMs: 100,
      folderDeletionBatchSize: 10,
      activitiesDeleteMax: 20,
      maxOpenMigrationsPerTenant: 3,
      searchMaxQueryLength: 64,
      searchMaxPageSize: 10,
      adminToken: 'an-admin-token-of-32-characters!',
      adminSessionHours: 2,
      webhookRecoverBatchSize: 40,
      workflowPageSameTimeMax: 50,
      workflowExecutionRetentionDays: 7,
      retentionIntervalSeconds: 0,
      retentionBatchSize: 200,
    });
  });

  test('postgres and postgresql URLs select PostgreSQL', () => {
    for (const url of ['postgres://u@h/db', 'postgresql://u@h/db']) {
      const r = loadConfig({ DATABASE_URL: url });
      assert.ok(r.ok);
      assert.deepEqual(r.config.database, { kind: 'postgres', url });
    }
  });

  test('every bad variable is reported, not just the first', () => {
    const r = loadConfig({
      PORT: '70000',
      LOG_LEVEL: 'chatty',
      DATABASE_URL: 'mysql://x',
      MARGINALIA_BODY_LIMIT: '1k',
      MARGINALIA_RATE_LIMIT: '-5',
      MARGINALIA_END_USER_RATE_LIMIT: '-1',
      MARGINALIA_END_USER_TOKEN_CACHE: '-1',
      MARGINALIA_SHUTDOWN_TIMEOUT_MS: 'soon',
      MARGINALIA_SQLITE_BUSY_TIMEOUT_MS: '1.5',
      MARGINALIA_SQLITE_SYNCHRONOUS: 'OFF',
      MARGINALIA_API_KEY: 'key',
      MARGINALIA_PG_SCHEMA: 'Bad-Name',
      MARGINALIA_PG_POOL_SIZE: '0',
      MARGINALIA_PG_CONNECT_TIMEOUT_MS: 'x',
      MARGINALIA_DATABASE_WAIT_SECONDS: '3601',
      MARGINALIA_PG_STATEMENT_TIMEOUT_MS: '-1',
      MARGINALIA_WORKERS: '0',
      MARGINALIA_MAX_BATCH: '999',
      MARGINALIA_MAX_TEXT_LENGTH: 'long',
      MARGINALIA_REDIS_URL: 'http://user:hunter2@cache',
      MARGINALIA_REDIS_TIMEOUT_MS: '0',
      MARGINALIA_HTTP_HEADERS_TIMEOUT_MS: '99',
      MARGINALIA_HTTP_REQUEST_TIMEOUT_MS: 'x',
      MARGINALIA_HTTP_KEEP_ALIVE_TIMEOUT_MS: '-1',
      MARGINALIA_HTTP_IDLE_TIMEOUT_MS: '1e3',
      MARGINALIA_SQLITE_CHECK_AT_START: 'sometimes',
      MARGINALIA_AUTH_FAILURE_FLOOR_MS: '10001',
      MARGINALIA_CORS_ORIGINS: '*',
      MARGINALIA_API_KEY_HEADERS: 'x key',
      MARGINALIA_AUTH_TOKEN_HEADERS: 'x:token',
      MARGINALIA_WORKSPACE_ID_HEADERS: 'x ws',
      MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS: 'x;ws',
      MARGINALIA_WEBHOOK_ALLOW_PRIVATE: 'maybe',
      MARGINALIA_WEBHOOK_TIMEOUT_MS: '50',
      MARGINALIA_WEBHOOK_RETRY_SCHEDULE: '5,5m',
      MARGINALIA_WEBHOOK_CONCURRENCY: '0',
      MARGINALIA_WEBHOOK_POLL_MS: 'often',
      MARGINALIA_SMTP_URL: 'http://mail.example.com',
      MARGINALIA_EMAIL_FROM: 'not an address',
      MARGINALIA_EMAIL_REQUIRE_TLS: 'perhaps',
      MARGINALIA_EMAIL_TLS_VERIFY: 'no',
      MARGINALIA_EMAIL_DIGEST_SECONDS: '86401',
      MARGINALIA_EMAIL_MENTIONS_AT_ONCE: 'yes please',
      MARGINALIA_EMAIL_MAX_ATTEMPTS: '0',
      MARGINALIA_EMAIL_RETRY_MIN_MS: '1',
      MARGINALIA_EMAIL_RETRY_MAX_MS: 'long',
      MARGINALIA_EMAIL_POLL_MS: '5',
      MARGINALIA_EMAIL_LEASE_MS: '10',
      MARGINALIA_PUBLIC_URL: 'comments.example.com',
      MARGINALIA_MIGRATION_BATCH_SIZE: '0',
      MARGINALIA_MIGRATION_LEASE_MS: '10',
      MARGINALIA_MIGRATION_POLL_MS: 'soon',
      MARGINALIA_WEBHOOK_DISABLE_AFTER_FAILING_HOURS: '0',
      MARGINALIA_WEBHOOK_SECRET_GRACE_HOURS: '1.5',
      MARGINALIA_FOLDER_DELETION_BATCH_SIZE: '0',
      MARGINALIA_ACTIVITIES_DELETE_MAX: 'all',
      MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT: '0',
      MARGINALIA_SEARCH_MAX_QUERY_LENGTH: '1001',
      MARGINALIA_SEARCH_MAX_PAGE_SIZE: '0',
      MARGINALIA_ADMIN_TOKEN: 'too short',
      MARGINALIA_ADMIN_SESSION_HOURS: '0',
      MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE: '100001',
      MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX: '-1',
      MARGINALIA_WORKFLOW_EXECUTION_RETENTION_DAYS: '0',
      MARGINALIA_RETENTION_INTERVAL_SECONDS: '-1',
      MARGINALIA_RETENTION_BATCH_SIZE: '0',
    });
    assert.ok(!r.ok);
    const names = [
      'PORT',
      'LOG_LEVEL',
      'DATABASE_URL',
      'MARGINALIA_BODY_LIMIT',
      'MARGINALIA_RATE_LIMIT',
      'MARGINALIA_END_USER_RATE_LIMIT',
      'MARGINALIA_END_USER_TOKEN_CACHE',
      'MARGINALIA_SHUTDOWN_TIMEOUT_MS',
      'MARGINALIA_SQLITE_BUSY_TIMEOUT_MS',
      'MARGINALIA_SQLITE_SYNCHRONOUS',
      'MARGINALIA_API_KEY',
      'MARGINALIA_PG_SCHEMA',
      'MARGINALIA_PG_POOL_SIZE',
      'MARGINALIA_PG_CONNECT_TIMEOUT_MS',
      'MARGINALIA_DATABASE_WAIT_SECONDS',
      'MARGINALIA_PG_STATEMENT_TIMEOUT_MS',
      'MARGINALIA_WORKERS',
      'MARGINALIA_MAX_BATCH',
      'MARGINALIA_MAX_TEXT_LENGTH',
      'MARGINALIA_REDIS_URL',
      'MARGINALIA_REDIS_TIMEOUT_MS',
      'MARGINALIA_HTTP_HEADERS_TIMEOUT_MS',
      'MARGINALIA_HTTP_REQUEST_TIMEOUT_MS',
      'MARGINALIA_HTTP_KEEP_ALIVE_TIMEOUT_MS',
      'MARGINALIA_HTTP_IDLE_TIMEOUT_MS',
      'MARGINALIA_SQLITE_CHECK_AT_START',
      'MARGINALIA_AUTH_FAILURE_FLOOR_MS',
      'MARGINALIA_CORS_ORIGINS',
      'MARGINALIA_API_KEY_HEADERS',
      'MARGINALIA_AUTH_TOKEN_HEADERS',
      'MARGINALIA_WORKSPACE_ID_HEADERS',
      'MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS',
      'MARGINALIA_WEBHOOK_ALLOW_PRIVATE',
      'MARGINALIA_WEBHOOK_TIMEOUT_MS',
      'MARGINALIA_WEBHOOK_RETRY_SCHEDULE',
      'MARGINALIA_WEBHOOK_CONCURRENCY',
      'MARGINALIA_WEBHOOK_POLL_MS',
      'MARGINALIA_SMTP_URL',
      'MARGINALIA_EMAIL_FROM',
      'MARGINALIA_EMAIL_REQUIRE_TLS',
      'MARGINALIA_EMAIL_TLS_VERIFY',
      'MARGINALIA_EMAIL_DIGEST_SECONDS',
      'MARGINALIA_EMAIL_MENTIONS_AT_ONCE',
      'MARGINALIA_EMAIL_MAX_ATTEMPTS',
      'MARGINALIA_EMAIL_RETRY_MIN_MS',
      'MARGINALIA_EMAIL_RETRY_MAX_MS',
      'MARGINALIA_EMAIL_POLL_MS',
      'MARGINALIA_EMAIL_LEASE_MS',
      'MARGINALIA_PUBLIC_URL',
      'MARGINALIA_MIGRATION_LEASE_MS',
      'MARGINALIA_MIGRATION_POLL_MS',
      'MARGINALIA_WEBHOOK_DISABLE_AFTER_FAILING_HOURS',
      'MARGINALIA_WEBHOOK_SECRET_GRACE_HOURS',
      'MARGINALIA_FOLDER_DELETION_BATCH_SIZE',
      'MARGINALIA_ACTIVITIES_DELETE_MAX',
      'MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT',
      'MARGINALIA_SEARCH_MAX_QUERY_LENGTH',
      'MARGINALIA_SEARCH_MAX_PAGE_SIZE',
      'MARGINALIA_ADMIN_TOKEN',
      'MARGINALIA_ADMIN_SESSION_HOURS',
      'MARGINALIA_WEBHOOK_RECOVER_BATCH_SIZE',
      'MARGINALIA_WORKFLOW_PAGE_SAME_TIME_MAX',
      'MARGINALIA_WORKFLOW_EXECUTION_RETENTION_DAYS',
      'MARGINALIA_RETENTION_INTERVAL_SECONDS',
      'MARGINALIA_RETENTION_BATCH_SIZE',
    ];
    for (const name of names)
      assert.ok(
        r.errors.some((e) => e.includes(name)),
        `${name} missing from ${JSON.stringify(r.errors)}`,
      );
    assert.ok(!r.errors.join().includes('hunter2'), 'a Redis password never appears in an error');
  });

  test('CORS origins are http(s) origins listed one by one; every bad entry is named', () => {
    for (const bad of [
      '*',
      'null',
      'app.example.com',
      'https://app.example.com/',
      'https://app.example.com/path',
      'ftp://x.org',
      'https://u:p@x.org',
      'https://x.org?q',
      'https://x.org:99999',
    ]) {
      const r = loadConfig({ MARGINALIA_CORS_ORIGINS: `https://ok.example.com, ${bad}` });
      assert.ok(
        !r.ok && r.errors.length === 1 && r.errors[0]!.includes('MARGINALIA_CORS_ORIGINS'),
        `${bad}: ${JSON.stringify(r)}`,
      );
      assert.ok(r.errors[0]!.includes(`"${bad}"`), `${bad} is named: ${r.errors[0]}`);
    }
    const two = loadConfig({ MARGINALIA_CORS_ORIGINS: '*,https://a.org/x' });
    assert.ok(!two.ok && two.errors[0]!.includes('"*"') && two.errors[0]!.includes('"https://a.org/x"'), JSON.stringify(two));
    const some = loadConfig({ MARGINALIA_CORS_ORIGINS: ' , ' });
    assert.ok(some.ok && some.config.corsOrigins.length === 0);
  });

  test('credential header aliases are header names, and one header cannot carry both credentials', () => {
    for (const bad of ['x api key', 'x-key:', 'ключ', '(x)', 'x'.repeat(65)]) {
      const r = loadConfig({ MARGINALIA_API_KEY_HEADERS: bad, MARGINALIA_AUTH_TOKEN_HEADERS: `ok,${bad}` });
      assert.ok(!r.ok && r.errors.length === 2, `${bad}: ${JSON.stringify(r)}`);
      assert.ok(
        r.errors.some((e) => e.includes('MARGINALIA_API_KEY_HEADERS')) &&
          r.errors.some((e) => e.includes('MARGINALIA_AUTH_TOKEN_HEADERS')),
      );
    }
    for (const env of [
      { MARGINALIA_API_KEY_HEADERS: 'x-both', MARGINALIA_AUTH_TOKEN_HEADERS: 'X-Both' },
      { MARGINALIA_API_KEY_HEADERS: 'x-service-auth-token' },
      { MARGINALIA_AUTH_TOKEN_HEADERS: 'x-service-api-key' },
    ]) {
      const r = loadConfig(env);
      assert.ok(!r.ok && r.errors.length === 1, `${JSON.stringify(env)}: ${JSON.stringify(r)}`);
    }
  });

  test("workspace header aliases: header names, none a tenant credential's or the other workspace credential's", () => {
    for (const env of [
      { MARGINALIA_WORKSPACE_ID_HEADERS: 'x-service-api-key' },
      { MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS: 'x-service-auth-token' },
      { MARGINALIA_API_KEY_HEADERS: 'x-velt-api-key', MARGINALIA_WORKSPACE_ID_HEADERS: 'x-velt-api-key' },
      { MARGINALIA_WORKSPACE_ID_HEADERS: 'x-service-workspace-auth-token' },
      { MARGINALIA_WORKSPACE_ID_HEADERS: 'x-ws', MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS: 'X-WS' },
    ]) {
      const r = loadConfig(env);
      assert.ok(
        !r.ok && r.errors.some((e) => e.includes('MARGINALIA_WORKSPACE_')),
        `${JSON.stringify(env)}: ${JSON.stringify(r)}`,
      );
    }
    const fine = loadConfig({ MARGINALIA_WORKSPACE_ID_HEADERS: 'x-velt-workspace-id' });
    assert.ok(
      fine.ok && fine.config.workspaceIdHeaders[0] === 'x-velt-workspace-id' && fine.config.workspaceTokenHeaders.length === 0,
    );
  });

  test('webhook settings: the guard is a flag, the retry schedule a comma list of seconds', () => {
    for (const on of ['1', 'true', 'YES', 'on'])
      assert.equal((loadConfig({ MARGINALIA_WEBHOOK_ALLOW_PRIVATE: on }) as any).config.webhookAllowPrivate, true, on);
    for (const off of ['0', 'false', 'No', 'off'])
      assert.equal((loadConfig({ MARGINALIA_WEBHOOK_ALLOW_PRIVATE: off }) as any).config.webhookAllowPrivate, false, off);
    const one = loadConfig({ MARGINALIA_WEBHOOK_RETRY_SCHEDULE: '0.25' });
    assert.ok(one.ok && one.config.webhookRetrySchedule.length === 1 && one.config.webhookRetrySchedule[0] === 250);
    for (const bad of ['5,,5', '-1', '1e3', '5;6', Array(101).fill('1').join(',')]) {
      const r = loadConfig({ MARGINALIA_WEBHOOK_RETRY_SCHEDULE: bad });
      assert.ok(!r.ok && r.errors.length === 1 && r.errors[0]!.includes('MARGINALIA_WEBHOOK_RETRY_SCHEDULE'), bad);
    }
  });

  test('the headers timeout cannot be longer than the request timeout it is part of', () => {
    const r = loadConfig({ MARGINALIA_HTTP_HEADERS_TIMEOUT_MS: '5000', MARGINALIA_HTTP_REQUEST_TIMEOUT_MS: '4000' });
    assert.ok(!r.ok && r.errors.some((e) => e.includes('MARGINALIA_HTTP_HEADERS_TIMEOUT_MS')), JSON.stringify(r));
  });

  test('bootstrap credentials come in pairs and the token is not weak', () => {
    assert.ok(!loadConfig({ MARGINALIA_AUTH_TOKEN: 'a-token-of-16-chars' }).ok);
    const short = loadConfig({ MARGINALIA_API_KEY: 'k', MARGINALIA_AUTH_TOKEN: 'short' });
    assert.ok(!short.ok && short.errors.some((e) => e.includes('MARGINALIA_AUTH_TOKEN')));
    const spaced = loadConfig({ MARGINALIA_API_KEY: 'a key', MARGINALIA_AUTH_TOKEN: 'a-token-of-16-chars' });
    assert.ok(!spaced.ok && spaced.errors.some((e) => e.includes('MARGINALIA_API_KEY')));
  });

  test('a replaced setting is refused at start, naming what to set instead', () => {
    const r = loadConfig({ MARGINALIA_PROFILE_CACHE_SIZE: '500' });
    assert.ok(
      !r.ok && r.errors.some((e) => e.includes('MARGINALIA_PROFILE_CACHE_SIZE') && e.includes('MARGINALIA_PROFILE_CACHE_MB')),
    );
    assert.ok(loadConfig({ MARGINALIA_PROFILE_CACHE_SIZE: '' }).ok, 'set to nothing, it is as if unset');
  });

  test('a database password never appears in an error', () => {
    assert.equal(redactUrl('postgres://user:secret@host:5432/db'), 'postgres://user:***@host:5432/db');
    const r = loadConfig({ DATABASE_URL: 'mysql://user:secret@host/db' });
    assert.ok(!r.ok && !r.errors.join().includes('secret'), JSON.stringify(r));
  });

  test('docs/configuration.md holds exactly the table the declarations make (npm run docs:config writes it)', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    assert.ok(start >= 0 && end > start, 'docs/configuration.md has the table markers');
    assert.equal(doc.slice(start + TABLE_START.length, end).trim(), settingsTable(Object.values(SETTINGS)));
  });

  test('every declared setting is read: a bad value is reported by name (HOST takes any text)', () => {
    for (const s of Object.values(SETTINGS).filter((x) => x.name !== 'HOST')) {
      const r = loadConfig({ [s.name]: '\u0001 not a value' });
      assert.ok(!r.ok && r.errors.some((e) => e.includes(s.name)), `${s.name}: ${JSON.stringify(r)}`);
    }
  });
});
