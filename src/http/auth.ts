// Resolves the tenant from the two credential headers before the body is read (docs/api.md, "Wire format": an
// unauthenticated request gets 401 even when its body is garbage), then applies the rate limit.
//
// A read route may be admitted from the auth cache without asking the database which credentials
// version is current: its data statement returns that version (store/select.ts), and the read confirms
// the request with it (confirmedBy). Whatever answer would leave unconfirmed (an empty read, an error,
// a version that moved) is held in onSend until the database has checked the credentials: so a
// revocation still refuses the very next request, and a 401 still comes before a 400, while a read
// costs one statement, on PostgreSQL one round trip, instead of two. Writes are always checked first.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError } from '../errors.js';
import type { Maybe } from '../maybe.js';
import { AuthCache, authenticateHashed, hashToken } from '../services/credentials.js';
import type { Store } from '../store/store.js';
import type { Tenant } from '../domain/credentials.js';
import type { Workspace } from '../domain/api-keys.js';
import { authenticateWorkspace } from '../services/workspace-credentials.js';
import type { Services } from '../services/context.js';
import { authenticateEndUser } from '../services/end-user-tokens.js';
import { denied, type EndUser, endUserOf, SERVER_CREDENTIALS_ONLY } from '../services/end-users.js';
import { allowTenantOrigin, originRefused } from './cors.js';
import { errorPayload } from './error-handler.js';
import type { RateDecision, RateLimit } from './rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    tenant: Tenant | null;
    /** The workspace, on a route the workspace's credentials call (workspaceCredentials); null elsewhere. */
    workspace: Workspace | null;
    /**
     * The credentials version under which the auth cache admitted this request without asking the
     * database; null when the database has confirmed the request (or checked it to begin with).
     */
    unconfirmedVersion: number | null;
    /** The end user an end-user token's request acts as (docs/api.md, "End users"); null for the server credentials. */
    endUser: EndUser | null;
  }
  interface FastifyContextConfig {
    /**
     * The route only reads, with statements that return the credentials version, and passes it to
     * confirmedBy: it may be admitted from the auth cache.
     */
    confirmsCredentials?: boolean;
    /**
     * The route also takes the credentials as `data.apiKey` and `data.authToken` when both headers are
     * absent (auth/token/get and the location operations): checked in preValidation, once the body is parsed.
     */
    credentialsInBody?: boolean;
    /**
     * The route also admits an end-user token (docs/api.md, "POST /v1/auth/token/get", GET /v1/events) when both
     * credential headers are absent: it is let through here with no tenant, and the route verifies the token
     * itself.
     */
    endUserToken?: boolean;
    /**
     * The operation is open to end-user tokens (an `endUser` rule, operations/operation.ts): a request with
     * `Authorization: Bearer` and neither credential header is admitted as the token's user. Any other route
     * answers such a request PERMISSION_DENIED, once the token checked out.
     */
    endUsers?: boolean;
    /**
     * The route takes the workspace's credentials (docs/api.md, "Workspace keys and tokens"), under their own
     * headers, and no tenant's: each kind is refused where the other is taken.
     */
    workspaceCredentials?: boolean;
  }
}

/** The token of an `Authorization: Bearer <token>` header. */
export const bearerOf = (authorization: string | undefined): string | undefined => {
  const m = authorization === undefined ? null : /^Bearer\s+(\S+)$/i.exec(authorization);
  return m ? m[1] : undefined;
};

/**
 * The end-user token of a GET a browser may open without setting headers (the event stream, a download): the
 * `Authorization: Bearer` header, or else the `token` query parameter. Neither: 401, as for missing server headers.
 */
export function queryableTokenOf(request: { headers: { authorization?: string }; query: unknown }): string {
  const token = bearerOf(request.headers.authorization) ?? (request.query as { token?: unknown }).token;
  if (typeof token !== 'string') throw new ApiError('UNAUTHENTICATED', `Missing header ${API_KEY_HEADER}.`);
  return token;
}

/** What end-user requests need besides the tenant's: the services that verify a token, and their own rate limit. */
export interface EndUserAuth {
  services: Services;
  /** A budget per end user (MARGINALIA_END_USER_RATE_LIMIT), taken beside the tenant's. */
  limiter: RateLimit | null;
}

/** A read route's data statement saw credentials version `seen` (undefined: it read no row). */
export function confirmedBy(request: FastifyRequest, seen: number | undefined): void {
  if (seen !== undefined && seen === request.unconfirmedVersion) request.unconfirmedVersion = null;
}

export const API_KEY_HEADER = 'x-service-api-key';
export const AUTH_TOKEN_HEADER = 'x-service-auth-token';
export const WORKSPACE_ID_HEADER = 'x-service-workspace-id';
export const WORKSPACE_TOKEN_HEADER = 'x-service-workspace-auth-token';

/**
 * Further names a credential header may come under (MARGINALIA_API_KEY_HEADERS, MARGINALIA_AUTH_TOKEN_HEADERS,
 * MARGINALIA_WORKSPACE_ID_HEADERS, MARGINALIA_WORKSPACE_AUTH_TOKEN_HEADERS).
 */
export interface HeaderAliases {
  apiKey: readonly string[];
  authToken: readonly string[];
  workspaceId?: readonly string[];
  workspaceToken?: readonly string[];
}

/** The rate limiter's key for the workspace's requests: its own budget, apart from every tenant's (ids are UUIDs). */
export const WORKSPACE_RATE_KEY = 'workspace';

/**
 * The first non-empty of `names` (the x-service-* header, then its aliases); missing, the 401 names the x-service-*
 * one.
 */
/** The server credentials a request of an endUserToken route (a stream) came with, its token hashed. */
const streamCredentials = new WeakMap<FastifyRequest, { apiKey: string; tokenHash: string }>();
export const serverCredentialsOf = (request: FastifyRequest) => streamCredentials.get(request);

function header(request: FastifyRequest, names: readonly string[]): string {
  for (let i = 0; i < names.length; i++) {
    const value = request.headers[names[i]!];
    if (typeof value === 'string' && value !== '') return value;
  }
  throw new ApiError('UNAUTHENTICATED', `Missing header ${names[0]}.`);
}

/** No credential header is there under any of its names (an empty one counts as absent). */
function headersAbsent(request: FastifyRequest, names: readonly string[]): boolean {
  for (let i = 0; i < names.length; i++) if (request.headers[names[i]!]) return false;
  return true;
}

/** The answer to credentials in `data` that are unknown, wrong or revoked (a 401 for the headers). */
export const BODY_CREDENTIALS_REFUSED = 'Auth token not found.';

/** A credential taken from the body's `data` (credentialsInBody routes, both headers absent). */
function bodyMember(request: FastifyRequest, name: 'apiKey' | 'authToken', headerName: string): string {
  const data = (request.body as { data?: unknown } | null | undefined)?.data;
  const value =
    data !== null && typeof data === 'object' && Object.hasOwn(data, name) ? (data as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string' || value === '')
    throw new ApiError('UNAUTHENTICATED', `Missing header ${headerName} (or data.${name}).`);
  return value;
}

/** The authenticated workspace of a request to a workspaceCredentials route. */
export function workspaceOf(request: FastifyRequest): Workspace {
  if (!request.workspace) throw new Error('workspace route registered outside the authenticated scope');
  return request.workspace;
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
  aliases: HeaderAliases = { apiKey: [], authToken: [] },
  endUsers: EndUserAuth | null = null,
): void {
  // Built once: with no aliases each is one name, read as before.
  const apiKeyHeaders = [API_KEY_HEADER, ...aliases.apiKey];
  const authTokenHeaders = [AUTH_TOKEN_HEADER, ...aliases.authToken];
  const credentialHeaders = [...apiKeyHeaders, ...authTokenHeaders];
  const workspaceIdHeaders = [WORKSPACE_ID_HEADER, ...(aliases.workspaceId ?? [])];
  const workspaceTokenHeaders = [WORKSPACE_TOKEN_HEADER, ...(aliases.workspaceToken ?? [])];
  app.decorateRequest('tenant', null);
  app.decorateRequest('workspace', null);
  app.decorateRequest('unconfirmedVersion', null);
  app.decorateRequest('endUser', null);
  const cache = new AuthCache();

  /** `answer(err)` no sooner than the floor after `started` for a 401. */
  const afterFloor = (err: unknown, started: number, answer: (err: unknown) => void) => {
    const left = started + failureFloorMs - performance.now();
    // Timers run in whole milliseconds: round up, or the wait ends up to 1 ms short of the floor.
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED' && left > 0) setTimeout(answer, Math.ceil(left), err);
    else answer(err);
  };
  const refused = (err: unknown, started: number, done: HookHandlerDoneFunction) =>
    afterFloor(err, started, (e) => done(e as Error));

  const limited = (reply: FastifyReply, decision: RateDecision, done: HookHandlerDoneFunction, whose = 'this API key') => {
    // Every answer to an identified key says where its budget stands (the IETF RateLimit fields).
    reply.header('ratelimit-limit', decision.limit);
    reply.header('ratelimit-remaining', decision.remaining);
    reply.header('ratelimit-reset', decision.resetSeconds);
    if (decision.allowed) return done();
    done(
      new ApiError('RESOURCE_EXHAUSTED', `Rate limit exceeded for ${whose}; retry later.`, {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      }),
    );
  };

  const takeBudget = (reply: FastifyReply, key: string, done: HookHandlerDoneFunction, whose?: string) => {
    if (!limiter) return done();
    const decision = limiter.take(key);
    if (decision instanceof Promise) decision.then((d) => limited(reply, d, done, whose), done);
    else limited(reply, decision, done, whose);
  };

  const admitted = (request: FastifyRequest, reply: FastifyReply, tenant: Tenant, done: HookHandlerDoneFunction) => {
    request.tenant = tenant;
    takeBudget(reply, tenant.id, done);
  };

  /**
   * An end-user token's request (docs/api.md, "End users"): the token is verified first (a forged or expired one is
   * the 401 of any wrong credential, after the floor), then the route must be open to end users and the Origin
   * allowed (403), then the end user's budget and the tenant's are taken. The tenant is read with the token's key
   * on every request, so a revoked or disabled tenant is refused at once; the user's roles are read by the rule.
   */
  const checkEndUser = (request: FastifyRequest, reply: FastifyReply, token: string, done: HookHandlerDoneFunction) => {
    const started = performance.now();
    if (!endUsers) return done(new ApiError('UNAUTHENTICATED', `Missing header ${API_KEY_HEADER}.`));
    const open = request.routeOptions.config.endUsers === true;
    authenticateEndUser(endUsers.services, token)
      .then(
        async ({ tenant, claims }) => {
          if (!open) throw denied(SERVER_CREDENTIALS_ONLY);
          if (!(await allowTenantOrigin(store, tenant.id, request, reply))) throw denied(originRefused(request.headers.origin));
          request.tenant = tenant;
          request.endUser = endUserOf(claims);
          const { limiter: perUser } = endUsers;
          if (!perUser) return admitted(request, reply, tenant, done);
          const whose = 'this end user';
          const decision = await perUser.take(`user:${tenant.id}:${claims.userId}`);
          if (!decision.allowed) return limited(reply, decision, done, whose);
          admitted(request, reply, tenant, done);
        },
        (err) => refused(err, started, done),
      )
      .catch((err: unknown) => done(err as Error));
  };

  /**
   * A workspace route: the workspace's id and token, under their headers only (a tenant's credentials are
   * not looked at, so they get the 401 of missing headers). Read from the database each time: these are
   * operator calls, rare, and a rotation must hold on the very next one.
   */
  const checkWorkspace = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    let workspaceId: string;
    let token: string;
    try {
      workspaceId = header(request, workspaceIdHeaders);
      token = header(request, workspaceTokenHeaders);
    } catch (err) {
      return done(err as Error);
    }
    const started = performance.now();
    const admit = (workspace: Workspace) => {
      request.workspace = workspace;
      takeBudget(reply, WORKSPACE_RATE_KEY, done, "the workspace's credentials");
    };
    let workspace: Maybe<Workspace>;
    try {
      workspace = authenticateWorkspace(store, workspaceId, token);
    } catch (err) {
      return refused(err, started, done);
    }
    if (workspace instanceof Promise) workspace.then(admit, (err) => refused(err, started, done));
    else admit(workspace);
  };

  // Callback style and synchronous on SQLite (a cached tenant is one version read): an async hook
  // would cost every request a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    // routeOptions is a getter that builds an object: read once.
    const config = request.routeOptions.config;
    if (config.workspaceCredentials) return checkWorkspace(request, reply, done);
    if (config.endUserToken && headersAbsent(request, credentialHeaders)) return done();
    if (headersAbsent(request, credentialHeaders)) {
      // An end-user token's request, whatever the route (a closed one answers 403 once the token checks out).
      const token = bearerOf(request.headers.authorization);
      if (token !== undefined) return checkEndUser(request, reply, token, done);
    }
    if (config.credentialsInBody && headersAbsent(request, credentialHeaders)) {
      deferred.add(request);
      return done();
    }
    let apiKey: string;
    let authToken: string;
    try {
      apiKey = header(request, apiKeyHeaders);
      authToken = header(request, authTokenHeaders);
    } catch (err) {
      return done(err as Error);
    }
    // A stream checks its credentials again while it is open (events/credential-watch.ts).
    if (config.endUserToken) streamCredentials.set(request, { apiKey, tokenHash: hashToken(authToken) });
    check(request, reply, apiKey, authToken, done, config.confirmsCredentials);
  });

  // Requests of a credentialsInBody route that came without both headers: their check waits for the
  // body. Anything that fails before it (a body that does not parse, is too large, is not JSON) is
  // answered 401, as a request with no credentials: a 401 still comes before every other answer.
  const deferred = new WeakSet<FastifyRequest>();
  const fromBody = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (!deferred.delete(request)) return done();
    let apiKey: string;
    let authToken: string;
    try {
      apiKey = bodyMember(request, 'apiKey', API_KEY_HEADER);
      authToken = bodyMember(request, 'authToken', AUTH_TOKEN_HEADER);
    } catch (err) {
      return done(err as Error);
    }
    // Credentials sent in the body that do not check out are answered as the original service's pages
    // show (docs/decisions.md): 400 "Auth token not found.", after the same floor as a 401.
    const answered: HookHandlerDoneFunction = (err?: Error) =>
      done(
        err instanceof ApiError && err.code === 'UNAUTHENTICATED'
          ? new ApiError('INVALID_ARGUMENT', BODY_CREDENTIALS_REFUSED)
          : err,
      );
    check(request, reply, apiKey, authToken, answered, request.routeOptions.config.confirmsCredentials);
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.credentialsInBody) return;
    const before = route.preValidation;
    route.preValidation = [fromBody, ...(before === undefined ? [] : Array.isArray(before) ? before : [before])];
    const inherited = app.errorHandler;
    route.errorHandler = (err, request, reply) =>
      inherited(
        deferred.delete(request) ? new ApiError('UNAUTHENTICATED', `Missing header ${API_KEY_HEADER}.`) : err,
        request,
        reply,
      );
  });

  /** The check of a key and token, however they came; `done` once the request is admitted or refused. */
  const check = (
    request: FastifyRequest,
    reply: FastifyReply,
    apiKey: string,
    authToken: string,
    done: HookHandlerDoneFunction,
    confirmsCredentials: boolean | undefined,
  ) => {
    const tokenHash = hashToken(authToken);
    if (confirmsCredentials) {
      const held = cache.held(apiKey, tokenHash);
      if (held) {
        request.unconfirmedVersion = held.version;
        return admitted(request, reply, held.tenant, done);
      }
    }
    const started = performance.now();
    let tenant: Maybe<Tenant>;
    try {
      tenant = authenticateHashed(store, apiKey, tokenHash, cache);
    } catch (err) {
      return refused(err, started, done);
    }
    if (tenant instanceof Promise) {
      tenant.then(
        (t) => admitted(request, reply, t, done),
        (err) => refused(err, started, done),
      );
    } else admitted(request, reply, tenant, done);
  };
  // An answer made under credentials the database has not confirmed waits for it to check them; if they
  // no longer hold, the caller gets the 401 (or 403) instead, like any request after the change.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.unconfirmedVersion === null) return done(null, payload);
    request.unconfirmedVersion = null;
    const refuse = (err: unknown) => {
      request.tenant = null;
      for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) reply.removeHeader(name);
      done(null, errorPayload(err, request, reply));
    };
    const started = performance.now();
    const refuseAfterFloor = (err: unknown) => afterFloor(err, started, refuse);
    let checked: Maybe<Tenant>;
    try {
      checked = authenticateHashed(store, header(request, apiKeyHeaders), hashToken(header(request, authTokenHeaders)), cache);
    } catch (err) {
      return refuseAfterFloor(err);
    }
    if (checked instanceof Promise) checked.then(() => done(null, payload), refuseAfterFloor);
    else done(null, payload);
  });
}
