// Browsers (docs/api.md, Credentials: Browsers): CORS for the origins MARGINALIA_CORS_ORIGINS lists, on
// every request; and, on a tenant's end-user requests (GET /v1/events with an end-user token), for the
// origins its allowed domains match (workspace/domains/add). Any other origin gets no CORS headers.
//
// One root onRequest hook, callback style, ahead of routing's 404/405 and of the auth hook (which lives
// in the operations' own scope): a preflight carries no credentials, is never refused for it and never
// counts against a key's rate limit. Since a preflight names no tenant, one from an origin that is not
// listed is answered when any tenant's domains allow it; the request that follows gets its CORS headers
// only if its own tenant's do (allowTenantOrigin, from the end-user route). A request without Origin
// reads nothing and, while no origins are listed, is answered exactly as without this hook.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Maybe, then } from '../maybe.js';
import { PreflightAnswers, tenantAllowsOrigin } from '../services/workspace-domains.js';
import type { Store } from '../store/store.js';
import { API_KEY_HEADER, AUTH_TOKEN_HEADER } from './auth.js';

export interface CorsSettings {
  /** Exact origins (scheme://host[:port], as a browser sends them in Origin). */
  origins: readonly string[];
  /** How long a preflight's answer about another origin is held (MARGINALIA_PREFLIGHT_ANSWER_MS). */
  preflightAnswerMs?: number | undefined;
  /** Further credential header names (MARGINALIA_API_KEY_HEADERS, MARGINALIA_AUTH_TOKEN_HEADERS). */
  apiKeyHeaders?: readonly string[];
  authTokenHeaders?: readonly string[];
}

/** How long a browser may keep a preflight's answer, in seconds (browsers cap it lower themselves). */
export const PREFLIGHT_MAX_AGE_S = 600;

const ALLOWED_METHODS = 'GET, POST';

/** Answer headers a page may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'].join(', ');

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

/**
 * What an end-user request sends, where a tenant's domains allowed the preflight: its token, the
 * stream's resume point, a body's type. Not the server credentials: those domains open nothing to them.
 */
const END_USER_REQUEST_HEADERS = 'content-type, authorization, last-event-id';

/** The answer depends on the Origin header: a cache must keep answers to different origins apart. */
function varyOnOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'Origin');
  else if (!/(^|,)\s*origin\s*(,|$)/i.test(String(vary))) reply.header('vary', `${vary}, Origin`);
}

/** Lets a page on `origin` read the answer. */
function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
}

/** A preflight's answer: 204, empty (with Content-Length 0, or Safari waits for a body), and what may follow. */
function answerPreflight(reply: FastifyReply, allowedHeaders: string): void {
  reply
    .code(204)
    .header('access-control-allow-methods', ALLOWED_METHODS)
    .header('access-control-allow-headers', allowedHeaders)
    .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S))
    .header('content-length', '0')
    .send();
}

export function registerCors(app: FastifyInstance, store: Store, settings: CorsSettings): void {
  const listed = new Set(settings.origins);
  const serverHeaders = allowedRequestHeaders(settings).join(', ');
  const preflights = new PreflightAnswers(store, settings.preflightAnswerMs);
  app.addHook('onRequest', (request, reply, done) => {
    // While origins are listed, every answer depends on Origin, whether a request has one or not.
    if (listed.size > 0) varyOnOrigin(reply);
    const origin = request.headers.origin;
    if (origin === undefined) return done();
    const preflight = request.method === 'OPTIONS';
    // An OPTIONS that is no preflight (no Access-Control-Request-Method) is routed as usual, to the 404
    // or 405 envelope, with no CORS headers.
    if (preflight && request.headers['access-control-request-method'] === undefined) return done();
    if (listed.has(origin)) {
      allowOrigin(reply, origin);
      return preflight ? answerPreflight(reply, serverHeaders) : done();
    }
    // Any other request goes on without CORS headers: an end-user route may still allow its origin.
    if (!preflight) return done();
    varyOnOrigin(reply);
    let allowed: Maybe<boolean>;
    try {
      allowed = preflights.allows(origin);
    } catch (err) {
      return done(err as Error);
    }
    const decide = (yes: boolean) => {
      if (!yes) return done();
      allowOrigin(reply, origin);
      answerPreflight(reply, END_USER_REQUEST_HEADERS);
    };
    if (allowed instanceof Promise) allowed.then(decide, done);
    else decide(allowed);
  });
}

/**
 * Whether an end-user request of the tenant may come from its Origin (docs/api.md, "End users"): one listed in
 * MARGINALIA_CORS_ORIGINS, or one the tenant's domains allow, whose answer then gets the CORS headers. A request
 * with no Origin is not a browser's cross-origin one: it may. A server-credential request never comes here: it
 * needs a listed origin.
 */
export function allowTenantOrigin(store: Store, tenantId: string, request: FastifyRequest, reply: FastifyReply): Maybe<boolean> {
  const origin = request.headers.origin;
  // Allowed already, by MARGINALIA_CORS_ORIGINS (the hook above).
  if (origin === undefined || reply.hasHeader('access-control-allow-origin')) return true;
  varyOnOrigin(reply);
  return then(tenantAllowsOrigin(store, tenantId, origin), (yes) => {
    if (yes) allowOrigin(reply, origin);
    return yes;
  });
}

/** The refusal of an end-user request from an origin that may not use the tenant's tokens. */
export const originRefused = (origin: string | undefined): string =>
  `Origin ${String(origin).slice(0, 200)} may not use this tenant's end-user tokens: list it in MARGINALIA_CORS_ORIGINS ` +
  "or in the tenant's allowed domains (workspace/domains/add).";
