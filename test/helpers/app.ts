// Shared test helpers: an app around a real database (a SQLite file, or a PostgreSQL schema in the
// PostgreSQL run) with two tenants, and small request helpers whose assertion messages carry the
// response, so a failure explains itself. Every answer the app gives is checked against its
// operation's response schema (answer-check.ts).
import { CONTRACT } from '../../src/schemas/operations/index.js';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { DEFAULT_LIMITS, type InputLimits } from '../../src/schemas/common.js';
import type { App } from '../../src/http/types.js';
import { createTenant, type IssuedCredentials } from '../../src/services/credentials.js';
import type { Store } from '../../src/store/store.js';
import { checkingAnswers } from './answer-check.js';
import { freshDatabase, type FreshDatabase } from './test-database.js';

export const HEX32 = /^[0-9a-f]{32}$/;
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Each operation's v1 path (its v2 one where it has no v1 path), by its contract's name (src/schemas/operations/):
 * what the route tests post to.
 */
export const PATHS = Object.fromEntries(
  Object.entries(CONTRACT).map(([name, c]) => {
    const paths = c.paths as Partial<Record<'v1' | 'v2', string>>;
    return [name, paths.v1 !== undefined ? `/v1/${paths.v1}` : `/v2/${paths.v2}`];
  }),
) as { readonly [K in keyof typeof CONTRACT]: string };

/** The /v2 path of an operation served under both versions by one name (docs/api.md, "Version 2"). */
export const v2 = (v1Path: string): string => v1Path.replace(/^\/v1\//, '/v2/');

export interface Reply {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: string;
  json: any;
}

export interface Caller {
  creds: IssuedCredentials;
  /** POST {data} with this tenant's credentials. */
  post(path: string, data: unknown, opts?: RequestOptions): Promise<Reply>;
  /** POST {data}, require the success envelope, return `result`. */
  ok(path: string, data: unknown): Promise<any>;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string | undefined>;
  /** A raw payload instead of `{data}`. */
  raw?: string;
}

export interface TestApp {
  app: App;
  store: Store;
  /** The database under the store, for direct SQL. */
  db: FreshDatabase;
  a: Caller;
  b: Caller;
  /** A tenant of its own (settings and counts start from nothing), named `name` (unique per app). */
  tenant(name: string): Promise<Caller>;
  /** Raw request with any headers (no credentials added). */
  request(path: string, opts?: RequestOptions & { body?: unknown }): Promise<Reply>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  rateLimit?: number;
  bodyLimit?: number;
  maxJsonDepth?: number;
  limits?: Partial<InputLimits>;
  authFailureFloorMs?: number;
  /** Rows users/data/delete erases per transaction. */
  erasureBatchSize?: number;
  /** How deep folders may be (MARGINALIA_MAX_FOLDER_DEPTH). */
  maxFolderDepth?: number;
  /** Any other settings of the app (e.g. corsOrigins, apiKeyHeaders), over the ones above. */
  config?: Partial<AppOptions['config']>;
  /** Where uploads go (docs/api.md, "Attachments"); absent: uploads answer 503. */
  attachments?: AppOptions['attachments'];
}

/** The seed's example moment, 2024-06-20T09:53:42.258Z: where test clocks start. */
export const T0 = Date.UTC(2024, 5, 20, 9, 53, 42, 258);

/** A fixed, advancing clock: each call returns a time 1 ms after the previous one. */
export function steppingClock(start = T0): Clock {
  let now = start - 1;
  return () => (now += 1);
}

export async function makeTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = freshDatabase();
  const store = await db.open();
  const clock = options.clock ?? (() => Date.now());
  const built = await buildApp({
    config: {
      bodyLimit: options.bodyLimit ?? 1_048_576,
      rateLimit: options.rateLimit ?? 0,
      maxJsonDepth: options.maxJsonDepth ?? 32,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      ...(options.authFailureFloorMs !== undefined ? { authFailureFloorMs: options.authFailureFloorMs } : {}),
      ...(options.erasureBatchSize !== undefined ? { erasureBatchSize: options.erasureBatchSize } : {}),
      ...(options.maxFolderDepth !== undefined ? { maxFolderDepth: options.maxFolderDepth } : {}),
      ...options.config,
    },
    store,
    clock,
    ...(options.attachments ? { attachments: options.attachments } : {}),
  });
  const app = checkingAnswers(built);
  await app.ready();

  async function request(path: string, opts: RequestOptions & { body?: unknown } = {}): Promise<Reply> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = v;
    let payload: string | undefined = opts.raw;
    if (payload === undefined && opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    const res = await app.inject({ method: (opts.method ?? 'POST') as 'POST', url: path, headers, payload });
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body: res.body, json };
  }

  const caller = (creds: IssuedCredentials): Caller => {
    const post = (path: string, data: unknown, opts: RequestOptions = {}) =>
      request(path, {
        ...opts,
        body: opts.raw === undefined ? { data } : undefined,
        headers: { 'x-service-api-key': creds.apiKey, 'x-service-auth-token': creds.authToken, ...opts.headers },
      });
    return {
      creds,
      post,
      async ok(path, data) {
        const r = await post(path, data);
        if (path === PATHS.userDataDelete) return accepted(r);
        assert.equal(r.status, 200, `${path} expected 200, got ${r.status}: ${r.body.slice(0, 500)}`);
        assert.equal(r.json?.result?.status, 'success', `${path}: ${r.body.slice(0, 500)}`);
        return r.json.result;
      },
    };
  };

  const a = caller(await createTenant(store, clock, 'tenant-a'));
  const b = caller(await createTenant(store, clock, 'tenant-b'));
  return {
    app,
    store,
    db,
    a,
    b,
    tenant: async (name) => caller(await createTenant(store, clock, name)),
    request,
    async close() {
      // The app's close fails when an answer drifted from its schema; the database goes all the same.
      try {
        await app.close();
      } finally {
        await store.close();
        await db.drop();
      }
    },
  };
}

/**
 * users/data/delete's success: HTTP 202 and the envelope's members at the top, no `result` wrapper
 * (docs/decisions.md). Returns the body, which reads like another operation's `result`.
 */
export function accepted(r: Reply): any {
  const what = `${PATHS.userDataDelete} expected 202`;
  assert.equal(r.status, 202, `${what}, got ${r.status}: ${r.body.slice(0, 500)}`);
  assert.equal(r.json?.status, 'success', `${what}: ${r.body.slice(0, 500)}`);
  assert.equal(r.json.statusCode, 202, `${what}: ${r.body.slice(0, 500)}`);
  assert.equal(r.json.result, undefined, `${what}: no result wrapper: ${r.body.slice(0, 500)}`);
  return r.json;
}

/** Asserts an error envelope with the HTTP status and code; returns the message. */
export function expectError(r: Reply, httpStatus: number, code: string, what = ''): string {
  assert.equal(r.status, httpStatus, `${what} expected HTTP ${httpStatus}, got ${r.status}: ${r.body.slice(0, 500)}`);
  assert.equal(typeof r.json?.error, 'object', `${what} expected an error envelope: ${r.body.slice(0, 500)}`);
  assert.equal(r.json.error.status, code, `${what} error.status: ${r.body.slice(0, 500)}`);
  assert.equal(typeof r.json.error.message, 'string');
  assert.ok(r.json.error.message.length > 0, `${what} empty error message`);
  assert.equal(r.json.result, undefined, `${what} an error has no result`);
  return r.json.error.message as string;
}

/** A user object as callers write it. */
export const user = (userId: string, extra: Record<string, unknown> = {}) => ({
  userId,
  name: `Name ${userId}`,
  email: `${userId}@example.com`,
  ...extra,
});

/** A valid notifications/add data object; `over` replaces members. */
export function notificationData(organizationId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    organizationId,
    documentId: 'doc-1',
    actionUser: user('actor'),
    displayHeadlineMessageTemplate: '{actionUser} mentioned {recipientUser}',
    notifyUsers: [user('r1')],
    ...over,
  };
}

/**
 * Another instance on a test app's database, as another process or host would be: its own store
 * (connection) and its own caches. `wrap` may stand between the app and its store (to count calls).
 */
export async function anotherInstance(
  db: FreshDatabase,
  config: Partial<AppOptions['config']> = {},
  wrap: (store: Store) => Store = (store) => store,
): Promise<{ app: App; store: Store }> {
  const store = await db.open();
  const app = checkingAnswers(
    await buildApp({
      config: { bodyLimit: 1_048_576, rateLimit: 0, maxJsonDepth: 32, limits: DEFAULT_LIMITS, ...config },
      store: wrap(store),
    }),
  );
  await app.ready();
  return { app, store };
}
