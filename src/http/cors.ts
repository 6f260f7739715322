// Browsers (SPEC 13): CORS for the origins MARGINALIA_CORS_ORIGINS lists, and nothing for any other.
// Registered only when origins are configured; without them the service answers exactly as before.
//
// The preflight is answered in a root onRequest hook (@fastify/cors), ahead of routing's 404/405 and of
// the auth hook, which lives in the operations' own scope: a preflight carries no credentials, is never
// refused for it and never counts against a key's rate limit.
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_KEY_HEADER, AUTH_TOKEN_HEADER } from './auth.js';

export interface CorsSettings {
  /** Exact origins (scheme://host[:port], as a browser sends them in Origin). */
  origins: readonly string[];
  /** Further credential header names (MARGINALIA_API_KEY_HEADERS, MARGINALIA_AUTH_TOKEN_HEADERS). */
  apiKeyHeaders?: readonly string[];
  authTokenHeaders?: readonly string[];
}

/** How long a browser may keep a preflight's answer, in seconds (browsers cap it lower themselves). */
export const PREFLIGHT_MAX_AGE_S = 600;

/** Answer headers a page may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];

/** The request headers a browser may send: the body's type, the credentials under every accepted name. */
export function allowedRequestHeaders(settings: CorsSettings): string[] {
  return [
    ...new Set([
      'content-type',
      API_KEY_HEADER,
      AUTH_TOKEN_HEADER,
      ...(settings.apiKeyHeaders ?? []),
      ...(settings.authTokenHeaders ?? []),
      'authorization',
      'last-event-id',
    ]),
  ];
}

export async function registerCors(app: FastifyInstance, settings: CorsSettings): Promise<void> {
  if (settings.origins.length === 0) return;
  const origins = new Set(settings.origins);
  const allowed: FastifyCorsOptions = {
    origin: true, // echo the request's Origin, which the delegator has checked
    methods: ['GET', 'POST'],
    allowedHeaders: allowedRequestHeaders(settings),
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
    strictPreflight: false,
  };
  const refused: FastifyCorsOptions = { origin: false };
  // Another origin, or an OPTIONS that is not a preflight (no Access-Control-Request-Method), gets no
  // CORS headers and goes on to routing like any request: the usual 404 or 405 envelope.
  const optionsFor = (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
    if (origin === undefined || !origins.has(origin)) return refused;
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] === undefined) return refused;
    return allowed;
  };
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (request, callback) => callback(null, optionsFor(request)),
  });
}
