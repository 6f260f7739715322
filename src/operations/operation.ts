// One declaration per operation: where it is served (a path per version), what it takes and answers
// (the schemas that validate, describe /openapi.json and type the client), what it runs (a service
// call) and how it answers. `registerOperations` turns every declaration into its Fastify routes in
// one loop; adding an operation is adding an entry to its feature's list (operations/index.ts).
import type { FastifyContextConfig, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { TSchema } from 'typebox';
import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { then, type Maybe } from '../maybe.js';
import type { DataOf, InputLimits } from '../schemas/common.js';
import type { answers } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import type { Tenant } from '../domain/credentials.js';

/** The versions of the API; a path is `/<version>/<name>`. */
export type Version = 'v1' | 'v2';

/** What an operation can answer, per HTTP status (schemas/responses.ts). */
export type Answers = ReturnType<typeof answers>;

/**
 * How an operation answers what its service gave: a success message (the envelope around it, as
 * `success(message, out)`), or the answer itself, sent or returned.
 */
export type Answer<Out> = string | ((out: Out, request: FastifyRequest, reply: FastifyReply) => unknown);

/**
 * A version whose request or answer differs a little from the operation's (same meaning, another
 * shape): its own schemas, and the two small maps between its shapes and the operation's.
 */
export interface Adapter<Data, Out> {
  /** Its request body, when not the operation's. */
  body?: (limits: InputLimits) => TSchema;
  /** Its answers, when not the operation's. */
  response?: Answers;
  /** Its request's `data` as the operation's service takes it. */
  data?: (data: never) => Data;
  /** Its answer, when not the operation's. */
  answer?: Answer<Out>;
}

/** The `data` member a body of this schema holds (every body is `{"data": ...}`). */
type Data<Body extends TSchema> = DataOf<(limits: InputLimits) => Body>;

export interface Operation<Body extends TSchema = TSchema, Out = unknown> {
  /** Its name in each version that serves it, e.g. `{ v1: 'users/update' }` for POST /v1/users/update. */
  paths: Partial<Record<Version, string>>;
  /** Per version, where its request or answer differs from the rest (none today). */
  adapters?: Partial<Record<Version, Adapter<Data<Body>, Out>>>;
  summary: string;
  description?: string;
  tags: readonly string[];
  /** The request body, built with the configured input limits. */
  body: (limits: InputLimits) => Body;
  response: Answers;
  /** Route options read by the hooks: confirmsCredentials, credentialsInBody (http/auth.ts). */
  config?: FastifyContextConfig;
  /** A hook before validation, for a body the operation also takes in another shape. */
  preValidation?: preValidationHookHandler;
  /** The service call. */
  run(services: Services, tenant: Tenant, data: Data<Body>): Maybe<Out>;
  answer: Answer<Out>;
}

/** An operation declared with its types checked (the body's data against `run`, `run`'s result against `answer`). */
export const operation = <Body extends TSchema, Out>(op: Operation<Body, Out>): Operation => op as unknown as Operation;

/** The path of `name` in `version`. */
export const pathOf = (version: Version, name: string): string => `/${version}/${name}`;

/** Every path an operation is served at. */
export const pathsOf = (op: Operation): string[] =>
  (Object.entries(op.paths) as [Version, string][]).map(([version, name]) => pathOf(version, name));

/**
 * Request schemas built once per schema factory and input limits: operations with the same body (and
 * the same operation under several paths or registrations) share one schema object, so one compiled
 * validator (ajv caches by the schema object) instead of one generated function per route, which
 * the load spread over every operation would otherwise run through (bench/README.md, operation count).
 */
const built = new WeakMap<InputLimits, Map<(limits: InputLimits) => TSchema, TSchema>>();
function bodyOf(factory: (limits: InputLimits) => TSchema, limits: InputLimits): TSchema {
  let bodies = built.get(limits);
  if (bodies === undefined) {
    bodies = new Map();
    built.set(limits, bodies);
  }
  let body = bodies.get(factory);
  if (body === undefined) {
    body = factory(limits);
    bodies.set(factory, body);
  }
  return body;
}

/** Adds the routes of `operations` to `app` (the authenticated scope), each path under `prefix` ('' but in the bench). */
export function registerOperations(app: App, services: Services, operations: readonly Operation[], prefix = ''): void {
  for (const op of operations) {
    for (const [version, name] of Object.entries(op.paths) as [Version, string][]) {
      const adapter = op.adapters?.[version];
      app.route({
        method: 'POST',
        url: prefix + pathOf(version, name),
        ...(op.config ? { config: op.config } : {}),
        ...(op.preValidation ? { preValidation: op.preValidation } : {}),
        schema: {
          summary: op.summary,
          ...(op.description !== undefined ? { description: op.description } : {}),
          tags: [...op.tags],
          body: bodyOf(adapter?.body ?? op.body, services.limits),
          response: adapter?.response ?? op.response,
        },
        handler: handlerOf(services, op, adapter),
      });
    }
  }
}

function handlerOf(
  services: Services,
  op: Operation,
  adapter: Adapter<unknown, unknown> | undefined,
): (request: FastifyRequest, reply: FastifyReply) => unknown {
  // Erased here: `operation()` checked the data's type against the body's where it was declared.
  const run = op.run as (services: Services, tenant: Tenant, data: unknown) => Maybe<unknown>;
  const toData = adapter?.data as ((data: unknown) => unknown) | undefined;
  const answer = adapter?.answer ?? op.answer;
  const dataOf = (request: FastifyRequest) => {
    const data = (request.body as { data: unknown }).data;
    return toData ? toData(data) : data;
  };
  if (typeof answer === 'string')
    return (request) => then(run(services, tenantOf(request), dataOf(request)), (out) => success(answer, out));
  return (request, reply) => then(run(services, tenantOf(request), dataOf(request)), (out) => answer(out, request, reply));
}

/** The answer's `pageToken` beside `data`, when there is a next page. */
export const pageTokenOf = (next: string | null | undefined): Record<string, string> => (next ? { pageToken: next } : {});
