// Builds the HTTP application around a store. No I/O of its own: tests build it around any store and
// drive it with inject; src/server.ts owns listening, signals and shutdown.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config/index.js';
import { ApiError } from './errors.js';
import { registerApiDocs } from './http/api-docs.js';
import { registerAuth } from './http/auth.js';
import { collectGarbage, returnFreeMemory } from './heap.js';
import { registerAtRest } from './http/at-rest.js';
import { buildLazyValidator } from './http/validators.js';
import { registerCors } from './http/cors.js';
import { Connections, DEFAULT_HTTP_TIMEOUTS, serverTimeoutOptions } from './http/connections.js';
import { createMetrics, type Metrics, registerMetrics, registerMetricsRoute } from './http/metrics.js';
import { errorBody, errorHandler } from './http/error-handler.js';
import { jsonBodyParser, requireUtf8 } from './http/json-body.js';
import { lazyChildLogger } from './http/lazy-logger.js';
import { LocalRateLimiter, type RateLimit } from './http/rate-limiter.js';
import { requestIdOf } from './http/request-id.js';
import type { App } from './http/types.js';
import { registerAdmin } from './admin/console.js';
import { DEFAULT_ADMIN_SESSION_HOURS } from './admin/settings.js';
import { registerHome } from './routes/home.js';
import { registerEmail } from './routes/email.js';
import { registerOperational } from './routes/operational.js';
import { OPERATIONS } from './operations/index.js';
import { pathsOf, registerOperations } from './operations/operation.js';
import { registerUnavailable, UNAVAILABLE_PATHS } from './operations/unavailable.js';
import * as events_ from './routes/v1_events.js';
import * as attachments_ from './routes/v1_attachments.js';
import type { AttachmentStorage } from './attachments/storage.js';
import type { AttachmentSettings } from './services/attachments.js';
import { CredentialWatch } from './events/credential-watch.js';
import { EventHub } from './events/hub.js';
import { ProfileCache } from './services/profiles.js';
import { ThreadPageCache } from './services/thread-pages.js';
import type { Services } from './services/context.js';
import type { Store } from './store/store.js';

export interface AppOptions {
  config: Pick<Config, 'bodyLimit' | 'rateLimit' | 'maxJsonDepth' | 'limits'> &
    Partial<
      Pick<
        Config,
        | 'http'
        | 'authFailureFloorMs'
        | 'endUserRateLimit'
        | 'endUserTokenCache'
        | 'profileCacheMb'
        | 'threadPageCacheMb'
        | 'restAfterMs'
        | 'erasureBatchSize'
        | 'retentionBatchSize'
        | 'maxFolderDepth'
        | 'maxAllowedDomains'
        | 'maxLiveStatesPerDocument'
        | 'maxLiveStateBytes'
        | 'corsOrigins'
        | 'preflightAnswerMs'
        | 'apiKeyHeaders'
        | 'authTokenHeaders'
        | 'workspaceIdHeaders'
        | 'workspaceTokenHeaders'
        | 'emailTemplatesDir'
        | 'eventPollMs'
        | 'eventHeartbeatMs'
        | 'eventStreamBufferKb'
        | 'eventStreamsMax'
        | 'webhookAllowPrivate'
        | 'webhookSecretGraceHours'
        | 'workflowMaxNodes'
        | 'workflowMaxDefinitionBytes'
        | 'workflowMaxStepsPerExecution'
        | 'workflowEventsPageMax'
        | 'permissionProviderTimeoutMs'
        | 'presenceTtlSeconds'
        | 'maxPresencePerDocument'
        | 'reactionIconMaxLength'
        | 'maxReactionsPerComment'
        | 'maxReactionIconsPerComment'
        | 'folderDeletionBatchSize'
        | 'activitiesDeleteMax'
        | 'maxOpenMigrationsPerTenant'
        | 'webhookRecoverBatchSize'
        | 'workflowPageSameTimeMax'
        | 'searchMaxQueryLength'
        | 'searchMaxPageSize'
        | 'adminToken'
        | 'adminSessionHours'
      >
    >;
  store: Store;
  clock?: Clock;
  /** A pino logger; without one the app logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** The rate limiter (server.ts passes the Redis-shared one); by default one in this process. */
  rateLimiter?: RateLimit | null;
  /** The end users' rate limiter (docs/api.md, "End users"), likewise. */
  endUserRateLimiter?: RateLimit | null;
  /**
   * The process's event tails (server.ts passes one that other instances' notices also wake); by default
   * one that this store's own writes wake.
   */
  events?: EventHub;
  /** The /metrics registry (server.ts makes it, to give the webhook worker its meter); by default one of the app's own. */
  metrics?: Metrics;
  /**
   * Bench only (bench/operations-server.ts): every operation registered again under each of these path
   * prefixes, so the bench can measure what more operations cost a request when no code on its path changed.
   */
  extraOperationPrefixes?: readonly string[];
  /** The server the app answers on, already listening (server.ts: the early listener); by default Fastify makes one. */
  serverFactory?: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server;
  /** Where uploads go and their limits (attachmentSettingsOf); absent: uploads and downloads answer 503. */
  attachments?: AttachmentSettings;
}

/** The attachments' settings from the configuration, around the storage it names (attachments/open.ts). */
export const attachmentSettingsOf = (
  config: Pick<Config, 'attachments' | 'publicUrl'>,
  storage: AttachmentStorage,
): AttachmentSettings => ({
  storage,
  maxBytes: config.attachments.maxBytes,
  types: config.attachments.types,
  expiryHours: config.attachments.expiryHours,
  publicUrl: config.publicUrl,
});

const asJson = (data: unknown): string => JSON.stringify(data);

/** What every operation's service is given, from the configuration (the app's; the bench's floor server's too). */
export function servicesOf(config: AppOptions['config'], store: Store, clock: Clock): Services {
  return {
    store,
    clock,
    limits: config.limits,
    bodyLimit: config.bodyLimit,
    profiles: new ProfileCache(store, config.profileCacheMb),
    threadPages: new ThreadPageCache(config.threadPageCacheMb),
    erasureBatchSize: config.erasureBatchSize,
    retentionBatchSize: config.retentionBatchSize,
    maxFolderDepth: config.maxFolderDepth,
    maxAllowedDomains: config.maxAllowedDomains,
    maxLiveStatesPerDocument: config.maxLiveStatesPerDocument,
    maxLiveStateBytes: config.maxLiveStateBytes,
    webhookAllowPrivate: config.webhookAllowPrivate,
    webhookSecretGraceHours: config.webhookSecretGraceHours,
    workflows: {
      maxNodes: config.workflowMaxNodes,
      maxDefinitionBytes: config.workflowMaxDefinitionBytes,
      maxStepsPerExecution: config.workflowMaxStepsPerExecution,
      eventsPageMax: config.workflowEventsPageMax,
      pageSameTimeMax: config.workflowPageSameTimeMax,
    },
    permissionProviderTimeoutMs: config.permissionProviderTimeoutMs,
    presenceTtlSeconds: config.presenceTtlSeconds,
    maxPresencePerDocument: config.maxPresencePerDocument,
    reactions: {
      iconMaxLength: config.reactionIconMaxLength,
      perComment: config.maxReactionsPerComment,
      iconsPerComment: config.maxReactionIconsPerComment,
    },
    folderDeletionBatchSize: config.folderDeletionBatchSize,
    activitiesDeleteMax: config.activitiesDeleteMax,
    maxOpenMigrationsPerTenant: config.maxOpenMigrationsPerTenant,
    webhookRecoverBatchSize: config.webhookRecoverBatchSize,
    endUserTokenCache: config.endUserTokenCache,
    search: { maxQueryLength: config.searchMaxQueryLength, maxPageSize: config.searchMaxPageSize },
  };
}

export async function buildApp({
  config,
  store,
  clock = systemClock,
  logger,
  rateLimiter,
  endUserRateLimiter,
  events,
  metrics: given,
  extraOperationPrefixes = [],
  serverFactory,
  attachments,
}: AppOptions): Promise<App> {
  // The open streams are read at each scrape, from the hub made below.
  let hub: EventHub | undefined;
  const metrics = given ?? createMetrics(store, { openStreams: () => hub?.size ?? 0 });
  const timeouts = config.http ?? DEFAULT_HTTP_TIMEOUTS;
  const connections = new Connections(timeouts.requestTimeoutMs);
  const app: App = Fastify({
    ...serverTimeoutOptions(timeouts),
    // Shutdown closes connections itself (Connections.drain): idle ones at once, busy ones after their answer.
    forceCloseConnections: false,
    ...(logger ? { loggerInstance: logger, childLoggerFactory: lazyChildLogger } : { logger: false }),
    // metrics.ts logs one line per request, with the operation and tenant, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    genReqId: requestIdOf,
    requestIdHeader: false,
    // We answer requests that arrive while draining ourselves, in the envelope of docs/api.md "Wire format".
    return503OnClosing: false,
    exposeHeadRoutes: false,
    // docs/api.md "Wire format": no type coercion ("1" is not an integer), keep unknown members out of the way but
    // untouched.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false, verbose: true } },
    // Each route's validator is compiled on its first request, once per process (http/validators.ts).
    schemaController: { compilersFactory: { buildValidator: buildLazyValidator } },
    clientErrorHandler: connections.onClientError,
    ...(serverFactory ? { serverFactory } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Response schemas type the handlers and describe the API; answers are written as they are, never
  // filtered or coerced by a compiled serializer: one function for every route and status, not one each.
  app.setSerializerCompiler(() => asJson);
  // Only JSON bodies are accepted, through our parser (depth bound); Fastify's text/plain parser is gone.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser(config.maxJsonDepth));
  app.addHook('preParsing', requireUtf8);

  connections.attach(app.server);
  app.addHook('preClose', async () => connections.drain());
  app.setErrorHandler(errorHandler(config.bodyLimit));
  // docs/api.md "Wire format": path (404) and method (405) are decided before credentials and before any body is
  // read, so both answer from onRequest, which runs ahead of body parsing and size checks. Every hook on the
  // request path is callback style: an async one costs each request a promise and a microtask.
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply.code(404).send(errorBody(new ApiError('NOT_FOUND', `No operation at ${request.method} ${request.url.split('?')[0]}.`)));
  app.addHook('onRequest', (request, reply, done) => {
    // Before anything reads for it: the request sees what other processes committed before they sent it
    // (a key `marginalia keys create` has just made is admitted at once).
    store.requestArrived?.();
    reply.header('x-request-id', request.id);
    if (connections.isDraining)
      return done(new ApiError('UNAVAILABLE', 'The server is shutting down; retry on another instance.'));
    if (request.is404) return notFound(request, reply);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (connections.closesAfter(request.raw.socket)) reply.header('connection', 'close');
    done(null, payload);
  });
  app.setNotFoundHandler(notFound);

  // First: its onRoute hook gives every route added after it its metrics.
  registerMetrics(app, metrics);
  // Browsers: a root onRequest hook that answers preflights ahead of routing and of auth.
  const aliases = { apiKey: config.apiKeyHeaders ?? [], authToken: config.authTokenHeaders ?? [] };
  registerCors(app, store, {
    origins: config.corsOrigins ?? [],
    preflightAnswerMs: config.preflightAnswerMs,
    apiKeyHeaders: aliases.apiKey,
    authTokenHeaders: aliases.authToken,
  });
  await registerApiDocs(app);
  registerMetricsRoute(app, metrics);
  registerOperational(app, store);
  registerHome(app);
  registerEmail(app, store, { templatesDir: config.emailTemplatesDir ?? null, clock });

  const services = { ...servicesOf(config, store, clock), attachments };
  // docs/operations.md, "Admin console": off (its paths are the plain 404) unless its token is set.
  if (config.adminToken) {
    await registerAdmin(app, {
      token: config.adminToken,
      sessionHours: config.adminSessionHours ?? DEFAULT_ADMIN_SESSION_HOURS,
      services,
      metrics,
      clock,
    });
  }
  const { profiles, threadPages } = services;
  const limiter =
    rateLimiter !== undefined ? rateLimiter : config.rateLimit > 0 ? new LocalRateLimiter(config.rateLimit, clock) : null;
  const endUserRate = config.endUserRateLimit ?? 0;
  const endUserLimiter =
    endUserRateLimiter !== undefined ? endUserRateLimiter : endUserRate > 0 ? new LocalRateLimiter(endUserRate, clock) : null;
  hub = events ?? new EventHub(store, { pollMs: config.eventPollMs ?? 1000 });
  if (!events) store.onEvents?.((tenantId, lastId) => (tenantId === null ? hub.wakeAll() : hub.wake(tenantId, lastId)));
  const credentials = new CredentialWatch(store, {
    everyMs: config.eventPollMs ?? 1000,
    onError: (err) => app.log.warn({ err }, 'event streams: checking their credentials failed; trying again later'),
  });
  // Streams never finish by themselves: shutdown ends them, and each client resumes elsewhere.
  app.addHook('preClose', (done) => {
    credentials.stop();
    hub.close('The server is shutting down; reconnect with Last-Event-ID to resume.');
    if (!events) store.onEvents?.(null);
    done();
  });
  const streams = {
    hub,
    credentials,
    heartbeatMs: config.eventHeartbeatMs ?? 15_000,
    bufferBytes: (config.eventStreamBufferKb ?? 1024) * 1024,
    maxStreams: config.eventStreamsMax ?? 10_000,
  };
  await app.register(async (scope: App) => {
    // API requests only: probes and scrapes of /healthz, /readyz and /metrics come at rest too.
    registerAtRest(scope, {
      afterMs: config.restAfterMs ?? 0,
      release: () => {
        threadPages.clear();
        profiles.clear();
        store.releaseMemory?.();
        collectGarbage();
        returnFreeMemory();
      },
    });
    registerAuth(
      scope,
      store,
      limiter,
      config.authFailureFloorMs,
      {
        ...aliases,
        workspaceId: config.workspaceIdHeaders ?? [],
        workspaceToken: config.workspaceTokenHeaders ?? [],
      },
      { services, limiter: endUserLimiter },
    );
    registerOperations(scope, services, OPERATIONS);
    registerUnavailable(scope);
    events_.register(scope, services, streams);
    // Its own scope: it takes bodies other than JSON (docs/api.md, "Attachments").
    await scope.register(async (files: App) => attachments_.register(files, services, attachments?.maxBytes ?? 1));
    for (const prefix of extraOperationPrefixes) registerOperations(scope, services, OPERATIONS, prefix);
  });

  // Any other method on an operation path is 405 with Allow: POST.
  const otherMethods = app.supportedMethods.filter((m) => m !== 'POST');
  const methodNotAllowed = async (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send(
        errorBody(new ApiError('INVALID_ARGUMENT', `${request.method} is not allowed on ${request.routeOptions.url}; use POST.`)),
      );
  app.route({
    method: app.supportedMethods.filter((m) => m !== 'GET'),
    url: events_.path,
    schema: { hide: true },
    onRequest: async (request, reply) =>
      reply
        .code(405)
        .header('allow', 'GET')
        .send(errorBody(new ApiError('INVALID_ARGUMENT', `${request.method} is not allowed on ${events_.path}; use GET.`))),
    handler: async () => {},
  });
  const operationPaths = ['', ...extraOperationPrefixes].flatMap((prefix) => OPERATIONS.flatMap(pathsOf).map((p) => prefix + p));
  for (const url of [...operationPaths, ...UNAVAILABLE_PATHS]) {
    app.route({
      method: otherMethods,
      url,
      schema: { hide: true },
      onRequest: methodNotAllowed,
      handler: methodNotAllowed,
    });
  }
  return app;
}
