// An operation's contract: what a caller sees of it (where it is served, what it takes, what it
// answers), apart from how the service runs it (src/operations/). The service registers its routes,
// and so /openapi.json, from these entries; the typed client takes each call's path, data and result
// from the same entries. Schemas only, like the rest of src/schemas: the client package ships them.
import type { Static, TSchema } from 'typebox';
import type { DataOf, InputLimits } from '../common.js';
import { answers } from '../responses.js';

/** The versions of the API; a path is `/<version>/<name>`. */
export type Version = 'v1' | 'v2';

/** An operation's name in each version that serves it, e.g. `{ v1: 'users/update' }` for POST /v1/users/update. */
export type Paths = Partial<Record<Version, string>>;

/**
 * Further names a version serves the same operation under, as the same route (its name in `paths` is
 * the one the client and the docs use): e.g. `{ v2: ['auth/token/get'] }` beside `auth/generate_token`.
 */
export type Aliases = Partial<Record<Version, readonly string[]>>;

/** What an operation can answer, per HTTP status (responses.ts). */
export type Answers = ReturnType<typeof answers>;

/** The HTTP status of a success; 202 only for users/data/delete, whose answer has no `result` wrapper. */
type SuccessStatus = 200 | 202;

/**
 * What /v2 changes of an operation's request or answer (docs/api.md, "Version 2"): its own body or success
 * schema, where its page differs; the service validates with them and the client types its /v2 calls by them.
 */
export interface VersionShape {
  body?: (limits: InputLimits) => TSchema;
  /** An example of its `data`, where the operation's does not fit its body (test/unit/api-docs.test.ts checks it does). */
  example?: Record<string, unknown>;
  result?: TSchema;
  /** What a 500 with `details` means on this version (the documents operations' partial failures on /v2). */
  partial?: string;
}

/** A contract as declared: its answers are named by the success schema and the refusals it adds. */
interface Declared<
  P extends Paths,
  Body extends TSchema,
  Result extends TSchema,
  Status extends SuccessStatus,
  V2 extends VersionShape = VersionShape,
> {
  paths: P;
  /** Where /v2's request or answer differs from the operation's. */
  v2?: V2;
  aliases?: Aliases;
  /**
   * Whose credentials call it: a tenant's (the default), or the workspace's, under its own headers
   * (docs/api.md, "Workspace keys and tokens"); each is refused where the other is taken.
   */
  credentials?: 'workspace';
  summary: string;
  description?: string;
  tags: readonly string[];
  /** The request body, built with the configured input limits. */
  body: (limits: InputLimits) => Body;
  /**
   * An example of the request's `data`, from docs/api.md's examples where it has one: what /openapi.json shows as
   * the request body's example, so /docs's "Try it out" starts from a real request. Per contract, not on the body
   * schema, which operations share (users/add and users/update take one body). Checked against the body schema by
   * test/unit/api-docs.test.ts, not by its type: some bodies' static types are looser than their schemas (a union
   * built from a list is `never`).
   */
  example: Record<string, unknown>;
  /** The success answer's schema. */
  result: Result;
  /** The statuses it may answer besides every operation's (responses.ts `answers`). */
  also?: readonly (404 | 409)[];
  /** What a 500 with `details` means, for an operation that answers a partial success that way. */
  partial?: string;
  successStatus?: Status;
}

/** A contract as the service and the client read it: as declared, with every answer by HTTP status. */
export interface Contract<
  Body extends TSchema = TSchema,
  Result extends TSchema = TSchema,
  P extends Paths = Paths,
  Status extends SuccessStatus = SuccessStatus,
  V2 extends VersionShape = VersionShape,
> extends Omit<Declared<P, Body, Result, Status, V2>, 'also' | 'partial' | 'successStatus'> {
  successStatus: Status;
  /** Every answer by HTTP status, the success and the refusals, as /openapi.json lists them. */
  response: Answers;
  /** The same for /v2, where its shape differs. */
  v2Response?: Answers;
}

/** A contract, its path literals and schema types kept (the client's calls are typed by them). */
export function contract<
  const P extends Paths,
  Body extends TSchema,
  Result extends TSchema,
  Status extends SuccessStatus = 200,
  V2 extends VersionShape = VersionShape,
>(declared: Declared<P, Body, Result, Status, V2>): Contract<Body, Result, P, Status, V2> {
  const { also, partial, successStatus = 200 as Status, ...rest } = declared;
  const v2 = declared.v2;
  return {
    ...rest,
    successStatus,
    response: answers(declared.result, also, { partial, successStatus }),
    ...(v2?.result || v2?.partial
      ? { v2Response: answers(v2.result ?? declared.result, also, { partial: v2.partial ?? partial, successStatus }) }
      : {}),
  };
}

/** Every version and name a contract is served under: its paths, then its aliases. */
export function namesOf(c: Pick<Contract, 'paths' | 'aliases'>): [Version, string][] {
  const named = Object.entries(c.paths) as [Version, string][];
  const aliases = Object.entries(c.aliases ?? {}) as [Version, readonly string[]][];
  return [...named, ...aliases.flatMap(([version, names]) => names.map((name): [Version, string] => [version, name]))];
}

/** The `data` member a contract's request body holds. */
export type ContractData<C extends Contract> = DataOf<C['body']>;

/** The `data` member of a call in version V: /v2's own body where it has one. */
export type ContractDataIn<C extends Contract, V extends Version> = V extends 'v2'
  ? C extends { v2?: { body: infer F extends (limits: InputLimits) => TSchema } }
    ? DataOf<F>
    : ContractData<C>
  : ContractData<C>;

/** What a call in version V answers: /v2's own result where it has one. */
export type ContractResultIn<C extends Contract, V extends Version> = V extends 'v2'
  ? C extends { v2?: { result: infer R extends TSchema } }
    ? Static<R> extends { result: infer X }
      ? X
      : never
    : ContractResult<C>
  : ContractResult<C>;

/** What a call answers: the `result` member of its success, or (a 202) the answer itself. */
export type ContractResult<C extends Contract> = C['successStatus'] extends 202
  ? Static<C['result']>
  : Static<C['result']> extends { result: infer R }
    ? R
    : never;
