// GET /metrics in the Prometheus text format (docs/api.md, "Operational endpoints"), with prom-client: requests by
// operation and status, their latency, the time of every store call (SQLite and PostgreSQL alike), the PostgreSQL
// pool, and the process's own metrics. One registry per app, so apps built side by side (tests) keep
// their counts apart. With MARGINALIA_WORKERS > 1 each worker counts its own requests (a scrape is
// answered by one worker): scrape each instance as a whole, or run one worker per container.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import { HTTP_STATUS } from '../errors.js';
import { LASTING_FAULTS } from '../store/health.js';
import { answeredPartially } from './error-handler.js';
import { BoundCounter, BoundHistogram, type CounterSeries, type HistogramSeries } from './hot-metrics.js';
import type { CheckpointStats, Store } from '../store/store.js';
import type { App } from './types.js';
import type { EmailMeter } from '../email/sender.js';

export const METRICS_PATH = '/metrics';

export interface Metrics {
  registry: Registry;
  /** What the webhook worker reports of each attempt (webhooks/worker.ts DeliveryMeter). */
  webhooks: { attempted(status: 'delivered' | 'retrying' | 'failed', lagSeconds: number | null): void };
  /** What the email sender reports (email/sender.ts EmailMeter). */
  email: EmailMeter;
}

/** What /metrics reads of the process beside the store: its open event streams (events/hub.ts). */
export interface MetricSources {
  openStreams?: () => number;
}

/** The operation label of a route: its path without the /v1/ prefix. */
const operationOfRoute = (url: string): string => (url.startsWith('/v1/') ? url.slice(4) : url);
const UNKNOWN_OPERATION = 'unknown';

/** The process's own metrics (CPU, memory, event loop, GC): one collector per process, however many apps. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'marginalia_' });
  }
  return processRegistry;
}

export function createMetrics(store: Store, sources: MetricSources = {}): Metrics {
  const registry = new Registry();
  new Gauge({
    name: 'marginalia_event_streams_open',
    help: 'Event streams (GET /v1/events) this process holds open, live or catching up.',
    registers: [registry],
    collect() {
      if (sources.openStreams) this.set(sources.openStreams());
    },
  });
  const webhooks = webhookMetrics(registry);
  const email = emailMetrics(registry, store);
  const storeSeconds = new BoundHistogram(
    'marginalia_store_call_duration_seconds',
    'Time of each store call (one or a few statements, or one transaction), by database and method.',
    [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registry,
  );
  new Gauge({
    name: 'marginalia_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on SQLite.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = store.poolStats?.();
      if (!stats) return;
      for (const [state, n] of Object.entries(stats)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'marginalia_database_fault',
    help: 'A lasting database fault in force (1) or not (0): storage_full, read_only (writes refused), damaged (SQLite file).',
    labelNames: ['fault'],
    registers: [registry],
    collect() {
      const now = store.fault();
      for (const fault of LASTING_FAULTS) this.set({ fault }, now === fault ? 1 : 0);
    },
  });
  // The store times each call at its one choke point (the dialect's read and write) and reports here.
  // Series bound per method and outcome (a series shows in /metrics once it has counted something).
  const byMethod = new Map<string, Record<'ok' | 'error', HistogramSeries>>();
  store.observeCalls?.((method, seconds, outcome) => {
    let series = byMethod.get(method);
    if (!series) {
      const bound = (o: string) => storeSeconds.series({ database: store.kind, method, outcome: o });
      series = { ok: bound('ok'), error: bound('error') };
      byMethod.set(method, series);
    }
    series[outcome].observe(seconds);
  });
  // How long each write transaction held the writer (SQLite) or its row locks (PostgreSQL): what another
  // tenant's write may wait behind. A long operation's batches are sized to MARGINALIA_WRITE_BUDGET_MS.
  const transactionSeconds = new BoundHistogram(
    'marginalia_write_transaction_seconds',
    'Time each write transaction held the database writer (SQLite) or its row locks (PostgreSQL), by database and method.',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registry,
  );
  // The checkpoint thread's work (SQLite, once it runs): the pages the commits wrote to the WAL, which a
  // checkpoint copies into the file. Divided by the writes answered, the pages a write costs.
  const checkpointed = (name: string, help: string, of: (s: CheckpointStats) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = store.checkpointStats?.();
        if (!stats) return;
        // The thread keeps the totals; a counter is set to them by starting over (prom-client has no set for counters).
        this.reset();
        this.inc(of(stats));
      },
    });
  checkpointed(
    'marginalia_sqlite_wal_pages_written_total',
    'Pages written to the SQLite WAL since start, as the checkpoint thread found them (each one copied into the file after).',
    (s) => s.pages,
  );
  checkpointed(
    'marginalia_sqlite_checkpoints_total',
    'Checkpoints since start that copied pages into the SQLite file.',
    (s) => s.checkpoints,
  );
  checkpointed(
    'marginalia_sqlite_checkpoint_seconds_total',
    'Time the checkpoint thread spent copying the WAL into the file and syncing it, since start.',
    (s) => s.seconds,
  );
  const transactionsBy = new Map<string, HistogramSeries>();
  store.observeTransactions?.((method, seconds) => {
    let series = transactionsBy.get(method);
    if (!series) {
      series = transactionSeconds.series({ database: store.kind, method });
      transactionsBy.set(method, series);
    }
    series.observe(seconds);
  });
  return { registry, webhooks, email };
}

/**
 * The email sender's mails by outcome and the notifications it left out by reason; the outbox's rows waiting and
 * the age of the oldest, read from the database at each scrape (so every instance shows the same queue).
 */
function emailMetrics(registry: Registry, store: Store): EmailMeter {
  const mails = new Counter({
    name: 'marginalia_email_mails_total',
    help:
      'Digest mails this process handed to the SMTP server, by outcome: sent, retrying (refused, tried again later), ' +
      'failed (for good).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const notifications = new Counter({
    name: 'marginalia_email_notifications_total',
    help: 'Notifications this process dealt with, by outcome: sent (in a mail), failed, or skipped with its reason.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'marginalia_email_queued',
    help: 'Notifications waiting in the email outbox to be mailed (all instances), digest windows and retries included.',
    registers: [registry],
    async collect() {
      this.set((await store.emailQueueStats()).queued);
    },
  });
  new Gauge({
    name: 'marginalia_email_oldest_waiting_seconds',
    help: 'Age of the oldest notification waiting in the email outbox (0 when none waits).',
    registers: [registry],
    async collect() {
      const { oldestCreatedAt } = await store.emailQueueStats();
      this.set(oldestCreatedAt === null ? 0 : Math.max(0, Date.now() - oldestCreatedAt) / 1000);
    },
  });
  for (const outcome of ['sent', 'retrying', 'failed']) mails.inc({ outcome }, 0);
  return {
    mail(outcome, count) {
      mails.inc({ outcome });
      if (outcome !== 'retrying') notifications.inc({ outcome }, count);
    },
    skipped(reason, count) {
      notifications.inc({ outcome: `skipped_${reason}` }, count);
    },
  };
}

/**
 * The webhook worker's attempts by outcome (a failure is `retrying` or `failed`), and the lag of each
 * delivery: from its event's dispatch to the receiver's 2xx, retries and waits behind the organization's
 * earlier deliveries included (docs/events.md, "Webhooks").
 */
function webhookMetrics(registry: Registry): Metrics['webhooks'] {
  const attempts = new Counter({
    name: 'marginalia_webhook_attempts_total',
    help:
      'Webhook delivery attempts made by this process, by outcome: delivered, retrying (failed, tried again later), ' +
      'failed (for good).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const lag = new BoundHistogram(
    'marginalia_webhook_delivery_lag_seconds',
    'Time from an event becoming a webhook delivery to its receiver answering 2xx, retries included.',
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800, 3600, 21_600, 86_400],
    registry,
  );
  const lagSeries = lag.series({});
  for (const outcome of ['delivered', 'retrying', 'failed']) attempts.inc({ outcome }, 0);
  return {
    attempted(status, lagSeconds) {
      attempts.inc({ outcome: status });
      if (lagSeconds !== null) lagSeries.observe(lagSeconds);
    },
  };
}

/**
 * What an answer was, beside its status: `ok` (2xx), `refused` (4xx: the request was the caller's
 * problem; and 501, a page of the original service's other products, which this server does not have),
 * `partial` (a documented partial success, answered 500 INTERNAL as the original service's pages show:
 * errors.ts) and `fault` (any other 5xx: a bug, or the database unavailable).
 */
export type Outcome = 'ok' | 'refused' | 'partial' | 'fault';
const outcomeOf = (status: number): Outcome =>
  status < 400 ? 'ok' : status < 500 || status === HTTP_STATUS.UNIMPLEMENTED ? 'refused' : 'fault';

/**
 * What the log says of a tenant: the first 10 characters of its key (`mk_` and 7 random ones for a
 * generated key), but never more than half of a short one, so a log line never holds a whole key.
 */
export const keyPrefix = (apiKey: string): string => `${apiKey.slice(0, Math.min(10, Math.floor(apiKey.length / 2)))}…`;

/**
 * Counts and times every request and logs one line per request. Each route gets its own onResponse
 * hook with its operation's label (known when the route is added, instead of rebuilding
 * request.routeOptions per request); requests no route took (404) are counted by one more hook. Both
 * are synchronous.
 */
export function registerMetrics(app: App, metrics: Metrics): void {
  const requests = new BoundCounter(
    'marginalia_http_requests_total',
    'Requests answered, by operation, HTTP status and outcome (ok, refused, partial: a documented 500 with details, fault).',
    metrics.registry,
  );
  const seconds = new BoundHistogram(
    'marginalia_http_request_duration_seconds',
    'Time from the request arriving to the answer being written, by operation.',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    metrics.registry,
  );

  // Whether the per-request line is logged at all (LOG_LEVEL info or lower): decided once, not built and dropped per request.
  const logsRequests = (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false;
  const observer = (operation: string) => {
    // This operation's series, bound once: its duration, and its count per status as statuses occur
    // (the status decides the outcome, but for a partial success, which has a series of its own).
    const duration = seconds.series({ operation });
    const byStatus = new Map<number, CounterSeries>();
    let partial: CounterSeries | undefined;
    return (request: FastifyRequest, reply: FastifyReply) => {
      const status = reply.statusCode;
      const isPartial = status === 500 && answeredPartially(request);
      let counted = isPartial ? partial : byStatus.get(status);
      if (!counted) {
        const outcome: Outcome = isPartial ? 'partial' : outcomeOf(status);
        counted = requests.series({ operation, status: String(status), outcome });
        if (isPartial) partial = counted;
        else byStatus.set(status, counted);
      }
      counted.inc();
      const ms = reply.elapsedTime;
      duration.observe(ms / 1000);
      if (!logsRequests) return;
      // One line per request: its id (pino's reqId), operation, tenant (a key prefix, never the key or
      // the token), status, outcome when a 500 is no fault, and duration.
      const apiKey = request.tenant?.apiKey;
      request.log.info(
        {
          operation,
          status,
          ...(isPartial ? { outcome: 'partial' } : {}),
          durationMs: Math.round(ms * 100) / 100,
          ...(apiKey ? { tenant: keyPrefix(apiKey) } : {}),
        },
        'request completed',
      );
    };
  };

  app.addHook('onRoute', (route) => {
    const observe = observer(operationOfRoute(route.url));
    const hook: onResponseHookHandler = (request, reply, done) => {
      observe(request, reply);
      done();
    };
    route.onResponse = [...(route.onResponse ? [route.onResponse].flat() : []), hook];
  });
  const unrouted = observer(UNKNOWN_OPERATION);
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unrouted(request, reply);
    done();
  });
}

/** GET /metrics (added after the API docs, which describe only routes added after them). */
export function registerMetricsRoute(app: App, metrics: Metrics): void {
  app.get(
    METRICS_PATH,
    { schema: { summary: 'Prometheus metrics', tags: ['operational'], security: [] } },
    async (_request, reply) => {
      const all = Registry.merge([processMetrics(), metrics.registry]);
      reply.header('content-type', all.contentType);
      return all.metrics();
    },
  );
}
