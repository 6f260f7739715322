// Runs the service: open and migrate the store, make sure credentials exist, listen, and stop
// gracefully on SIGTERM/SIGINT (finish in-flight requests, then exit 0).
import cluster from 'node:cluster';
import { pino, type DestinationStream, type Logger } from 'pino';
import { attachmentSettingsOf, buildApp } from './app.js';
import { limitHeapGrowth } from './heap.js';
import { boundedStdout } from './log-output.js';
import { systemClock } from './clock.js';
import { DEFAULT_LOG_BUFFER_MB, redactUrl, type Config } from './config/index.js';
import { API_KEY_HEADER, AUTH_TOKEN_HEADER, WORKSPACE_ID_HEADER, WORKSPACE_TOKEN_HEADER } from './http/auth.js';
import type { EarlyListener } from './http/early-listener.js';
import { SharedRateLimiter } from './http/shared-rate-limiter.js';
import { EventHub } from './events/hub.js';
import { connectNotices, relayNotices } from './events/notices.js';
import { startActivityPruner } from './events/activity-pruner.js';
import { startRetention } from './jobs/retention.js';
import { openAttachmentStorage } from './attachments/open.js';
import { startAttachmentRemovals } from './attachments/removals.js';
import { startPruner } from './events/pruner.js';
import { startWorkflowPruner } from './jobs/workflow-pruner.js';
import { startDraftSweep } from './events/sweep.js';
import { WebhookWorker } from './webhooks/worker.js';
import { startEmailSender } from './email/start.js';
import { MigrationWorker } from './jobs/document-migrations.js';
import { HOUR_MS } from './webhooks/schedule.js';
import { createMetrics } from './http/metrics.js';
import { createFirstTenant, ensureBootstrapCredentials } from './services/credentials.js';
import { byDatabase } from './store/dialect/databases.js';
import { describeMigration } from './store/migrations/index.js';
import { openStoreWhenReachable, type StoreListeners } from './store/open-store.js';
import type { LastingFault, Store } from './store/store.js';

/** The service's JSON logger; `destination` is for tests (stdout otherwise). */
export function makeLogger(
  config: Pick<Config, 'logLevel'> &
    Partial<Pick<Config, 'apiKeyHeaders' | 'authTokenHeaders' | 'workspaceIdHeaders' | 'workspaceTokenHeaders' | 'logBufferMb'>>,
  destination?: DestinationStream,
): Logger {
  // Their aliases carry credentials too (MARGINALIA_API_KEY_HEADERS, MARGINALIA_AUTH_TOKEN_HEADERS, and the
  // workspace's: MARGINALIA_WORKSPACE_ID_HEADERS, MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS).
  const aliases = [
    WORKSPACE_ID_HEADER,
    WORKSPACE_TOKEN_HEADER,
    ...(config.apiKeyHeaders ?? []),
    ...(config.authTokenHeaders ?? []),
    ...(config.workspaceIdHeaders ?? []),
    ...(config.workspaceTokenHeaders ?? []),
  ];
  const stdout = destination ? null : boundedStdout(config.logBufferMb ?? DEFAULT_LOG_BUFFER_MB);
  const logger = pino(
    {
      level: config.logLevel,
      // Credentials never reach a log line, even if a serializer starts logging headers.
      redact: {
        paths: [
          `req.headers["${API_KEY_HEADER}"]`,
          `req.headers["${AUTH_TOKEN_HEADER}"]`,
          `headers["${API_KEY_HEADER}"]`,
          `headers["${AUTH_TOKEN_HEADER}"]`,
          ...aliases.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`]),
        ],
        censor: '[redacted]',
      },
    },
    destination ?? stdout!,
  );
  if (stdout) {
    // Lines dropped while the buffer was full are told of once it has been written out.
    let dropped = 0;
    stdout.on('drop', () => dropped++);
    stdout.on('drain', () => {
      if (dropped === 0) return;
      const lines = dropped;
      dropped = 0;
      logger.warn(
        { droppedLines: lines },
        'the log was not read as fast as it was written: lines were dropped (MARGINALIA_LOG_BUFFER_MB)',
      );
    });
  }
  return logger;
}

/** Runs the service; on `early`'s port when given (it answers /healthz while the rest starts), else on config.port. */
export async function serve(config: Config, stderr: NodeJS.WritableStream, early: EarlyListener | null = null): Promise<void> {
  limitHeapGrowth(config.heapGrowthPercent);
  const logger = makeLogger(config);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger, stderr);
  const where = databaseName(config);
  const store = await openWaiting(config, logger);
  logger.info({ database: where }, 'database ready');
  // With workers, the primary has made sure of the credentials before forking.
  if (cluster.isPrimary) await ensureCredentials(store, config, logger, stderr);

  // A limit shared through Redis when it is configured (and the limit is on); else the app keeps one in this process.
  const sharedLimiter = (perSecond: number) =>
    config.redisUrl && perSecond > 0
      ? new SharedRateLimiter({ url: config.redisUrl, perSecond, timeoutMs: config.redisTimeoutMs, clock: systemClock, logger })
      : undefined;
  const rateLimiter = sharedLimiter(config.rateLimit);
  if (rateLimiter) {
    const redis = redactUrl(config.redisUrl!);
    if (await rateLimiter.connect()) logger.info({ redis }, 'rate limit shared through Redis');
    else logger.warn({ redis }, 'rate limit: Redis does not answer; each instance applies the limit on its own until it does');
  }
  // End users' budgets (docs/api.md, "End users") are shared the same way, at their own rate.
  const endUserRateLimiter = sharedLimiter(config.endUserRateLimit);
  await endUserRateLimiter?.connect();
  const events = new EventHub(store, {
    pollMs: config.eventPollMs,
    onError: (err) => logger.warn({ err }, 'event streams: reading the outbox failed; trying again at the next notice'),
  });
  const notices = connectNotices(store, events, { redisUrl: config.redisUrl, logger });
  const pruner = startPruner(store, {
    retentionHours: config.eventRetentionHours,
    onError: (err) => logger.warn({ err }, 'event outbox: pruning failed; trying again later'),
  });
  const activityPruner = startActivityPruner(store, {
    retentionDays: config.activityRetentionDays,
    onError: (err) => logger.warn({ err }, 'activities: pruning failed; trying again later'),
  });
  const workflowPruner = startWorkflowPruner(store, {
    retentionDays: config.workflowExecutionRetentionDays,
    onError: (err) => logger.warn({ err }, 'workflow executions: pruning failed; trying again later'),
  });
  // Retention policies (docs/operations.md, "Retention"): every instance runs the job; batches find what is still due.
  const retention =
    config.retentionIntervalSeconds > 0
      ? startRetention(store, {
          intervalSeconds: config.retentionIntervalSeconds,
          batchSize: config.retentionBatchSize,
          onError: (err) => logger.warn({ err }, 'retention: applying policies failed; trying again at the next round'),
        })
      : null;
  const sweep = startDraftSweep(store, {
    everyMs: config.eventPollMs,
    onError: (err) => logger.warn({ err }, 'event outbox: numbering left drafts failed; trying again later'),
  });
  // Attachments (docs/operations.md, "Attachments"): every instance runs the removal worker; a removal is idempotent.
  const attachmentStorage = openAttachmentStorage(config.attachments);
  const removals =
    config.attachments.sweepSeconds > 0
      ? startAttachmentRemovals(store, attachmentStorage, {
          everySeconds: config.attachments.sweepSeconds,
          onError: (err) => logger.warn({ err }, 'attachments: removing deleted files failed; trying again at the next round'),
        })
      : null;
  const metrics = createMetrics(store, { openStreams: () => events.size });
  const app = await buildApp({
    config,
    store,
    logger,
    rateLimiter,
    endUserRateLimiter,
    events,
    metrics,
    serverFactory: early?.factory,
    attachments: attachmentSettingsOf(config, attachmentStorage),
  });
  // Webhook deliveries (docs/events.md, "Webhooks"): every serving process runs the worker; claims keep them apart.
  const webhooks = new WebhookWorker({
    store,
    log: logger,
    allowPrivate: config.webhookAllowPrivate,
    timeoutMs: config.webhookTimeoutMs,
    retryScheduleMs: config.webhookRetrySchedule,
    concurrency: config.webhookConcurrency,
    pollMs: config.webhookPollMs,
    disableAfterMs: config.webhookDisableAfterFailingHours * HOUR_MS,
    meter: metrics.webhooks,
  });
  // Document migrations (docs/api.md, "Document migration"): every serving process runs the worker; leases keep them apart.
  const migrations = new MigrationWorker({
    store,
    log: logger,
    batchSize: config.migrationBatchSize,
    leaseMs: config.migrationLeaseMs,
    pollMs: config.migrationPollMs,
  });
  // Email (docs/operations.md, "Email"): every serving process runs a sender while MARGINALIA_SMTP_URL is set; claims keep them apart.
  const email = startEmailSender(config, store, logger, metrics.email);
  onStopSignal(logger, config.shutdownTimeoutMs, async () => {
    // Fastify closes a server it listened on; the early listener's is closed here, once its connections are drained.
    const closed = early ? new Promise((resolve) => early.server.close(resolve)) : null;
    await Promise.all([app.close(), webhooks.stop(), migrations.stop(), email?.stop()]);
    await closed;
    await notices.close();
    await Promise.all([
      pruner.stop(),
      activityPruner.stop(),
      workflowPruner.stop(),
      retention?.stop(),
      sweep.stop(),
      removals?.stop(),
    ]);
    await rateLimiter?.close();
    await endUserRateLimiter?.close();
    await store.close();
  });
  if (early) {
    await app.ready();
    logger.info(`Server listening at ${early.open()}`);
  } else await app.listen({ port: config.port, host: config.host });
  webhooks.start();
  migrations.start();
  email?.start();
}

/** The database as logs name it: the SQLite path, or the PostgreSQL URL without its password. */
function databaseName(config: Config): string {
  return byDatabase(config.database, { sqlite: (db) => `sqlite:${db.path}`, postgres: (db) => redactUrl(db.url) });
}

/** What an operator should do about each lasting fault: said once, when it begins. */
const FAULT_ADVICE: Readonly<Record<LastingFault, string>> = {
  storage_full:
    'the database storage is full: writes are answered 503 and /readyz fails until space is freed; reads go on. ' +
    'Free disk space (or grow the volume); the service notices by itself.',
  read_only:
    'the database refuses writes (read-only: a standby after a failover, or a file without write permission): writes are ' +
    'answered 503 and /readyz fails until it takes writes again; reads go on. Point DATABASE_URL at the primary, or fix the permissions.',
  damaged:
    'the database file is damaged: writes and the reads that meet the damage are answered 503, and /readyz fails until a restart. ' +
    'Stop the service, keep a copy of the file, and restore the last good backup, or recover what is readable with ' +
    '`sqlite3 damaged.db .recover | sqlite3 recovered.db`, then start again on the repaired file.',
};

function storeListeners(logger: Logger, database: string): StoreListeners {
  return {
    onConnectionLost: (err) => logger.warn({ err }, 'a database connection was lost; it is replaced by a new one'),
    onMigrated: (outcome) => {
      if (outcome.applied.length > 0) logger.info({ database, migrations: outcome.applied }, describeMigration(outcome));
    },
    onFault: ({ fault, state, cause }) => {
      if (state === 'began') logger.error({ database, fault, err: cause }, `database fault: ${FAULT_ADVICE[fault]}`);
      else logger.info({ database, fault }, 'database fault ended: writes get through again');
    },
  };
}

/**
 * SIGTERM/SIGINT: log, run `stop`, exit 0 — or exit 1 if it takes longer than the shutdown timeout.
 */
function onStopSignal(logger: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      logger.error({ timeoutMs }, 'in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, timeoutMs).unref();
    await stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void handle('SIGTERM'));
  process.once('SIGINT', () => void handle('SIGINT'));
}

/** The serving store, once its database can be reached (MARGINALIA_DATABASE_WAIT_SECONDS). */
function openWaiting(config: Config, logger: Logger): Promise<Store> {
  const where = databaseName(config);
  return openStoreWhenReachable(config, config.databaseWaitSeconds, storeListeners(logger, where), (err, attempt) =>
    logger.warn({ err, attempt, database: where }, 'the database cannot be reached; trying again in a second'),
  );
}

/**
 * MARGINALIA_WORKERS > 1: migrate and make sure of credentials once, then fork the workers, which
 * share the listening port (the primary hands connections out in turn). A worker that dies is
 * replaced; on SIGTERM every worker drains its requests and the primary exits when all have.
 */
async function runPrimary(config: Config, logger: Logger, stderr: NodeJS.WritableStream): Promise<void> {
  const store = await openWaiting(config, logger);
  await ensureCredentials(store, config, logger, stderr);
  // The primary has checked the SQLite file: a worker checks it again only where damage was found, so
  // that each worker starts in the same state (the check reads the whole file).
  const workerEnv = store.fault() === 'damaged' ? {} : { MARGINALIA_SQLITE_CHECK_AT_START: 'off' };
  await store.close();
  let stopping = false;
  const fork = () => cluster.fork(workerEnv);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting another');
    fork();
  });
  // Sibling workers on one SQLite file hear of each other's events through here (events/notices.ts).
  relayNotices();
  for (let i = 0; i < config.workers; i++) fork();
  logger.info({ workers: config.workers }, 'workers started');
  onStopSignal(logger, config.shutdownTimeoutMs, async () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve) => {
            w.once('exit', resolve);
            w.process.kill('SIGTERM');
          }),
      ),
    );
  });
}

async function ensureCredentials(store: Store, config: Config, logger: Logger, stderr: NodeJS.WritableStream): Promise<void> {
  if (config.bootstrap) {
    const outcome = await ensureBootstrapCredentials(store, systemClock, config.bootstrap);
    const level = outcome === 'revoked' || outcome === 'disabled' || outcome === 'token_revoked' ? 'warn' : 'info';
    logger[level]({ outcome }, `bootstrap API key from MARGINALIA_API_KEY: ${outcome}`);
    return;
  }
  const creds = await createFirstTenant(store, systemClock);
  if (!creds) return;
  stderr.write(
    '\n==================== Marginalia: first start ====================\n' +
      'The database had no tenants, so one was created. Keep these\n' +
      'credentials now: the token is stored only as a hash and is not shown again.\n\n' +
      `  x-service-api-key:    ${creds.apiKey}\n` +
      `  x-service-auth-token: ${creds.authToken}\n` +
      '=================================================================\n\n',
  );
}
