// One declaration per operation: its contract (where it is served, a path per version, and what it
// takes and answers: src/schemas/operations/, which the typed client reads too), what it runs (a
// service call) and how it answers. `registerOperations` turns every declaration into its Fastify
// routes in one loop; adding an operation is adding its contract and an entry to its feature's list
// (operations/index.ts).
import type { FastifyContextConfig, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { TSchema } from 'typebox';
import { END_USER_SECURITY, REQUEST_EXAMPLE, WORKSPACE_SECURITY } from '../http/api-docs.js';
import { tenantOf, workspaceOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { then, type Maybe } from '../maybe.js';
import type { InputLimits } from '../schemas/common.js';
import { type Answers, type Contract, type ContractData, namesOf, type Version } from '../schemas/operations/contract.js';
import type { Services } from '../services/context.js';
import type { EndUserRule } from '../services/end-user-rules.js';
import { denied, SERVER_CREDENTIALS_ONLY } from '../services/end-users.js';
import type { Tenant } from '../domain/credentials.js';
import type { Workspace } from '../domain/api-keys.js';

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
  /** Its own service call, for a version whose read is another (ownRun), with its answer. */
  run?: (services: Services, tenant: Tenant, data: never) => Maybe<unknown>;
  /** An ownRun version's rule for end users (its data is its own); without one, that version is closed to them. */
  endUser?: EndUserRule<never>;
}

/** A version served by a service call of its own (a read another version answers differently). */
export interface OwnRun<D, O> {
  /** Its request and answers, when its contract's VersionShape does not give them. */
  body?: (limits: InputLimits) => TSchema;
  response?: Answers;
  run(services: Services, tenant: Tenant, data: D): Maybe<O>;
  answer: Answer<O>;
  endUser?: EndUserRule<D>;
}

/**
 * That version as the adapter of its operation (whose data and result types come from where it is put):
 * its run and answer are typed together here, and erased there.
 */
export const ownRun = <D, O, Data, Out>(spec: OwnRun<D, O>): Adapter<Data, Out> => spec as unknown as Adapter<Data, Out>;

/** How the service runs an operation: what a caller does not see of it. */
export interface Service<Data, Out> {
  /** Per version, where its request or answer differs from the rest (none today). */
  adapters?: Partial<Record<Version, Adapter<Data, Out>>>;
  /** Route options read by the hooks: confirmsCredentials, credentialsInBody (http/auth.ts). */
  config?: FastifyContextConfig;
  /** A hook before validation, for a body the operation also takes in another shape. */
  preValidation?: preValidationHookHandler;
  /** The service call. */
  run(services: Services, tenant: Tenant, data: Data): Maybe<Out>;
  answer: Answer<Out>;
  /**
   * The operation is open to end-user tokens (docs/api.md, "End users"), with this rule: the data its service runs
   * with for the token's user (services/end-user-rules.ts). Absent: server credentials only.
   */
  endUser?: EndUserRule<Data>;
}

export interface Operation<C extends Contract = Contract, Out = unknown> extends Service<ContractData<C>, Out> {
  contract: C;
}

/** An operation declared with its types checked (the body's data against `run`, `run`'s result against `answer`). */
export const operation = <C extends Contract, Out>(contract: C, service: Service<ContractData<C>, Out>): Operation =>
  ({ contract, ...service }) as unknown as Operation;

/**
 * An operation the workspace's credentials call (its contract says `credentials: 'workspace'`): its service
 * is given the workspace where others are given the tenant.
 */
export function workspaceOperation<C extends Contract, Out>(
  contract: C,
  service: {
    run(services: Services, workspace: Workspace, data: ContractData<C>): Maybe<Out>;
    answer: Answer<Out>;
  },
): Operation {
  // Its handler would otherwise be given a tenant where it expects the workspace.
  if (contract.credentials !== 'workspace') throw new Error(`${contract.summary}: its contract takes no workspace credentials`);
  return { contract, ...service } as unknown as Operation;
}

/** The path of `name` in `version`. */
export const pathOf = (version: Version, name: string): string => `/${version}/${name}`;

/** Every path an operation is served at (its aliases too). */
export const pathsOf = (op: Operation): string[] => namesOf(op.contract).map(([version, name]) => pathOf(version, name));

/**
 * Request schemas built once per schema factory and input limits: operations with the same body (and
 * the same operation under several paths or registrations) share one schema object, so one compiled
 * validator (ajv caches by the schema object) instead of one generated function per route, which
 * the load spread over every operation would otherwise run through (bench/README.md, operation count).
 * Keyed by the limits' values, not the object: every app built in one process with the same limits (route
 * tests build hundreds) shares the schemas and so the validators already compiled (http/validators.ts).
 */
const built = new Map<string, Map<(limits: InputLimits) => TSchema, TSchema>>();
function bodiesFor(limits: InputLimits): (factory: (limits: InputLimits) => TSchema) => TSchema {
  const key = JSON.stringify(Object.entries(limits).sort(([a], [b]) => (a < b ? -1 : 1)));
  let bodies = built.get(key);
  if (bodies === undefined) {
    bodies = new Map();
    built.set(key, bodies);
  }
  const known = bodies;
  return (factory) => {
    let body = known.get(factory);
    if (body === undefined) {
      body = factory(limits);
      known.set(factory, body);
    }
    return body;
  };
}

/** Adds the routes of `operations` to `app` (the authenticated scope), each path under `prefix` ('' but in the bench). */
export function registerOperations(app: App, services: Services, operations: readonly Operation[], prefix = ''): void {
  const bodyOf = bodiesFor(services.limits);
  for (const op of operations) {
    const { contract } = op;
    for (const [version, name] of namesOf(contract)) {
      const adapter = op.adapters?.[version];
      // The auth hook reads whose credentials the route takes from its config (http/auth.ts).
      const endUsers = contract.credentials !== 'workspace' && ruleOf(op, adapter) !== undefined;
      const config =
        contract.credentials === 'workspace'
          ? { ...op.config, workspaceCredentials: true }
          : endUsers
            ? { ...op.config, endUsers: true }
            : op.config;
      app.route({
        method: 'POST',
        url: prefix + pathOf(version, name),
        ...(config ? { config } : {}),
        ...(op.preValidation ? { preValidation: op.preValidation } : {}),
        schema: {
          summary: contract.summary,
          ...(contract.description !== undefined ? { description: contract.description } : {}),
          tags: [...contract.tags],
          ...(contract.credentials === 'workspace' ? { security: WORKSPACE_SECURITY } : {}),
          ...(endUsers ? { security: END_USER_SECURITY } : {}),
          // A version's own request and answers: its adapter's, else its contract's (VersionShape), else the operation's.
          body: bodyOf(adapter?.body ?? (version === 'v2' ? contract.v2?.body : undefined) ?? contract.body),
          response: adapter?.response ?? (version === 'v2' ? contract.v2Response : undefined) ?? contract.response,
          // What /openapi.json shows as the request's example (http/api-docs.ts): the body schema itself is shared.
          [REQUEST_EXAMPLE]: (version === 'v2' ? contract.v2?.example : undefined) ?? contract.example,
        },
        handler: handlerOf(services, op, adapter),
      });
    }
  }
}

/** A version's rule for end users: an ownRun version's own, else the operation's (after the adapter's data map). */
const ruleOf = (op: Operation, adapter: Adapter<unknown, unknown> | undefined): EndUserRule<unknown> | undefined =>
  (adapter?.run ? adapter.endUser : (adapter?.endUser ?? op.endUser)) as EndUserRule<unknown> | undefined;

function handlerOf(
  services: Services,
  op: Operation,
  adapter: Adapter<unknown, unknown> | undefined,
): (request: FastifyRequest, reply: FastifyReply) => unknown {
  // Erased here: `operation()` (or `ownRun`) checked the data's type against the body's where it was declared.
  const run = (adapter?.run ?? op.run) as (services: Services, caller: Tenant | Workspace, data: unknown) => Maybe<unknown>;
  const callerOf = op.contract.credentials === 'workspace' ? workspaceOf : tenantOf;
  const toData = adapter?.data as ((data: unknown) => unknown) | undefined;
  const answer = adapter?.answer ?? op.answer;
  const rule = ruleOf(op, adapter);
  const dataOf = (request: FastifyRequest) => {
    const data = (request.body as { data: unknown }).data;
    return toData ? toData(data) : data;
  };
  // An end user's request runs with what its rule makes of the data (the auth hook admitted it only here, if a rule exists).
  const runOf = (request: FastifyRequest): Maybe<unknown> => {
    const user = request.endUser;
    if (!user) return run(services, callerOf(request), dataOf(request));
    if (!rule) throw denied(SERVER_CREDENTIALS_ONLY);
    return then(rule(services, user, dataOf(request)), (data) => run(services, callerOf(request), data));
  };
  if (typeof answer === 'string') return (request) => then(runOf(request), (out) => success(answer, out));
  return (request, reply) => then(runOf(request), (out) => answer(out, request, reply));
}

/** The answer's `pageToken` beside `data`, when there is a next page. */
export const pageTokenOf = (next: string | null | undefined): Record<string, string> => (next ? { pageToken: next } : {});

/** The same token under the name some /v2 pages give it (docs/api.md, "Version 2"). */
export const nextPageTokenOf = (next: string | null | undefined): Record<string, string> => (next ? { nextPageToken: next } : {});
