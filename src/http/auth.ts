// Resolves the tenant from the two credential headers before the body is read (SPEC 1: an
// unauthenticated request gets 401 even when its body is garbage), then applies the rate limit.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { AuthCache, authenticate } from '../services/credentials.js';
import type { Store, Tenant } from '../store/store.js';
import type { RateLimit } from './rate-limiter.js';

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

export function registerAuth(app: FastifyInstance, store: Store, limiter: RateLimit | null): void {
  app.decorateRequest('tenant', null);
  const cache = new AuthCache();
  app.addHook('onRequest', async (request, reply) => {
    const apiKey = header(request, API_KEY_HEADER);
    const authToken = header(request, AUTH_TOKEN_HEADER);
    request.tenant = await authenticate(store, apiKey, authToken, cache);
    if (limiter) {
      const decision = await limiter.take(request.tenant.id);
      // Every answer to an identified key says where its budget stands (the IETF RateLimit fields).
      reply.header('ratelimit-limit', decision.limit);
      reply.header('ratelimit-remaining', decision.remaining);
      reply.header('ratelimit-reset', decision.resetSeconds);
      if (!decision.allowed) {
        throw new ApiError('RESOURCE_EXHAUSTED', 'Rate limit exceeded for this API key; retry later.', {
          headers: { 'retry-after': String(decision.retryAfterSeconds) },
        });
      }
    }
  });
}
