// Resolves the tenant from the two credential headers before the body is read (SPEC 1: an
// unauthenticated request gets 401 even when its body is garbage), then applies the rate limit.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError } from '../errors.js';
import type { Maybe } from '../maybe.js';
import { AuthCache, authenticate } from '../services/credentials.js';
import type { Store, Tenant } from '../store/store.js';
import type { RateDecision, RateLimit } from './rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    tenant: Tenant | null;
  }
}

export const API_KEY_HEADER = 'x-service-api-key';
export const AUTH_TOKEN_HEADER = 'x-service-auth-token';

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  if (typeof value !== 'string' || value === '') throw new ApiError('UNAUTHENTICATED', `Missing header ${name}.`);
  return value;
}

/** The authenticated tenant of a request that passed the auth hook. */
export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new Error('route registered outside the authenticated scope');
  return request.tenant;
}

/** How long, at the least, a 401 for a wrong key or token takes by default (MARGINALIA_AUTH_FAILURE_FLOOR_MS). */
export const DEFAULT_AUTH_FAILURE_FLOOR_MS = 5;

/**
 * `failureFloorMs`: a 401 for a key or token that does not check out is answered no sooner than this
 * after the check began. The check does the same work for an unknown key as for a wrong token, but
 * what is left (reading a row that exists) still shows at a few microseconds over thousands of tries;
 * a floor hides it, and slows guessing besides. A correct key and token never wait.
 */
export function registerAuth(
  app: FastifyInstance,
  store: Store,
  limiter: RateLimit | null,
  failureFloorMs = DEFAULT_AUTH_FAILURE_FLOOR_MS,
): void {
  app.decorateRequest('tenant', null);
  const cache = new AuthCache();

  const refused = (err: unknown, started: number, done: HookHandlerDoneFunction) => {
    const left = started + failureFloorMs - performance.now();
    // Timers run in whole milliseconds: round up, or the wait ends up to 1 ms short of the floor.
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED' && left > 0) setTimeout(done, Math.ceil(left), err);
    else done(err as Error);
  };

  const limited = (reply: FastifyReply, decision: RateDecision, done: HookHandlerDoneFunction) => {
    // Every answer to an identified key says where its budget stands (the IETF RateLimit fields).
    reply.header('ratelimit-limit', decision.limit);
    reply.header('ratelimit-remaining', decision.remaining);
    reply.header('ratelimit-reset', decision.resetSeconds);
    if (decision.allowed) return done();
    done(
      new ApiError('RESOURCE_EXHAUSTED', 'Rate limit exceeded for this API key; retry later.', {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      }),
    );
  };

  const admitted = (request: FastifyRequest, reply: FastifyReply, tenant: Tenant, done: HookHandlerDoneFunction) => {
    request.tenant = tenant;
    if (!limiter) return done();
    const decision = limiter.take(tenant.id);
    if (decision instanceof Promise) decision.then((d) => limited(reply, d, done), done);
    else limited(reply, decision, done);
  };

  // Callback style and synchronous on SQLite (a cached tenant is one version read): an async hook
  // would cost every request a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    let apiKey: string;
    let authToken: string;
    try {
      apiKey = header(request, API_KEY_HEADER);
      authToken = header(request, AUTH_TOKEN_HEADER);
    } catch (err) {
      return done(err as Error);
    }
    const started = performance.now();
    let tenant: Maybe<Tenant>;
    try {
      tenant = authenticate(store, apiKey, authToken, cache);
    } catch (err) {
      return refused(err, started, done);
    }
    if (tenant instanceof Promise) {
      tenant.then(
        (t) => admitted(request, reply, t, done),
        (err) => refused(err, started, done),
      );
    } else admitted(request, reply, tenant, done);
  });
}
