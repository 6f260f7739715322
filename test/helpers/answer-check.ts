// Every answer a route test receives is checked against the schema its operation documents for that
// status (`schema.response`, built by `answers(...)` in src/schemas/responses.ts). Answers are written
// as JSON text and never pass through a serializer compiled from those schemas (src/app.ts), so without
// this nothing ties them together: /openapi.json and the typed client could drift from the wire while
// every test stays green. Test-only: the production app has no such hook and pays nothing per request.
//
// What is checked, for each answer to a promise-style `app.inject`:
// - a route with response schemas: the answer must match the one for its status (an exact code, else
//   its class '4xx', else 'default'). A status the route does not document is a failure too: every
//   status an operation can answer is in `answers(...)`, so that /openapi.json lists it.
// - a request no operation's schema covers (a path that is no route, a method other than the one the
//   path takes, /readyz): an error answer (4xx, 5xx) must be the shared error envelope (ErrorBody, the
//   schema the operations' error answers refer to); a success has no schema and is not checked (/metrics,
//   /healthz, /openapi.json, /docs: not operations).
// Objects are checked closed: a member the schema does not name is a drift (the client's types and the
// API's description would not know it), unless the schema says otherwise (records, free objects).
//
// A mismatch rejects the inject call with a message naming the method, URL, status and first errors, so
// the test that made the request fails; each mismatch is also kept, and the app's close fails again
// for any of them (a test that caught the rejection and dropped it does not hide the drift).
import { AssertionError } from 'node:assert';
import type { FastifyRequest, LightMyRequestResponse } from 'fastify';
import { Compile, type Validator } from 'typebox/schema';
import type { App } from '../../src/http/types.js';

type Schema = Record<string, unknown>;

/** What onSend saw of the route that answered a request, by the request (the inject response's raw.req). */
const routes = new WeakMap<object, { method: string; url: string; responses: Record<string, unknown> | undefined }>();

/**
 * Installs the check on an app built by buildApp, before it is ready: an onSend hook that notes which
 * route answered (its schemas do not depend on the answer, so the later onSend hooks that may replace
 * the payload, such as the credentials check of http/auth.ts, do not matter), and a wrapper around
 * `app.inject` that checks the answer on the wire. Returns the app.
 */
export function checkingAnswers<T extends App>(app: T): T {
  const met: string[] = [];
  app.addHook('onClose', (_app, done) => {
    if (met.length === 0) return done();
    done(new AssertionError({ message: `${met.length} answer(s) drifted from their schemas:\n${met.join('\n')}` }));
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    routes.set(request.raw, routeOf(request));
    done(null, payload);
  });
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  // The chain form (`app.inject()` with no options) and the callback form are passed on unchecked:
  // the tests use neither.
  (app as { inject: unknown }).inject = (...args: unknown[]) => {
    const sent = inject(...args) as PromiseLike<LightMyRequestResponse>;
    if (args.length !== 1) return sent;
    return Promise.resolve(sent).then((res) => {
      const drift = checkAnswer(app, res);
      if (drift === null) return res;
      met.push(drift);
      throw new AssertionError({ message: drift });
    });
  };
  return app;
}

function routeOf(request: FastifyRequest) {
  const schema = request.routeOptions.schema as { response?: Record<string, unknown> } | undefined;
  return { method: request.method, url: request.url, responses: schema?.response };
}

/** The drift of one answer, as a message; null when it matches. */
export function checkAnswer(app: App, res: LightMyRequestResponse): string | null {
  const route = routes.get(res.raw.req);
  // Nothing passed through onSend: the answer was not sent by Fastify's reply (a hijacked stream).
  if (route === undefined) return null;
  const status = res.statusCode;
  // A page for a browser (GET /email/unsubscribe's refusals): not an API answer, so not the error envelope.
  if (route.responses === undefined && String(res.headers['content-type'] ?? '').startsWith('text/html')) return null;
  const where = `${route.method} ${route.url} answered ${status}`;
  let schema: unknown;
  if (route.responses !== undefined) {
    const r = route.responses;
    schema = r[status] ?? r[`${String(status)[0]}xx`] ?? r.default;
    if (schema === undefined) {
      return `${where}, a status its schema does not document (it documents ${Object.keys(r).join(', ')}): ${res.body.slice(0, 300)}`;
    }
  } else if (status >= 400) {
    schema = app.getSchema('ErrorBody');
  } else {
    return null;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `${where} with a body that is not JSON: ${res.body.slice(0, 300)}`;
  }
  const validator = validatorOf(app, schema as Schema);
  if (validator.Check(body)) return null;
  const [, errors] = validator.Errors(body);
  const first = errors
    .slice(0, 5)
    .map((e) => `  ${e.instancePath || '/'}: ${e.message} ${JSON.stringify(e.params)} (schema ${e.schemaPath})`)
    .join('\n');
  return `${where}, which does not match its schema (${errors.length} error(s)):\n${first}\nbody: ${res.body.slice(0, 500)}`;
}

/** Compiled once per schema object (the routes share them, and every test app builds the same ones). */
const compiled = new WeakMap<Schema, Validator>();

/** A schema of one of the app's routes compiled as the answers are checked: its objects closed. */
export function validatorOf(app: App, schema: Schema): Validator {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    validator = Compile(closed(resolved(app, schema)) as Parameters<typeof Compile>[0]);
    compiled.set(schema, validator);
  }
  return validator;
}

/** The schema with each `{$ref: 'Name#'}` to a shared schema (app.addSchema) replaced by that schema. */
function resolved(app: App, schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolved(app, s));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Schema;
  if (typeof node.$ref === 'string') {
    const shared = app.getSchema(node.$ref.replace(/#$/, '')) as Schema | undefined;
    if (shared === undefined) throw new Error(`answer-check: no shared schema for $ref ${node.$ref}`);
    const { $id: _id, ...rest } = shared;
    return resolved(app, rest);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolved(app, v)]));
}

/**
 * The schema with its objects closed: `unevaluatedProperties: false` on every object schema that names
 * its properties and says nothing of others. The parts of an allOf (Type.Intersect) are left open and the
 * allOf itself is closed, so that a member named by any part is allowed.
 */
function closed(schema: unknown, inAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => closed(s, inAllOf));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    // Only schema-valued keywords are walked; `properties` maps names to schemas.
    if (k === 'properties' || k === 'patternProperties' || k === '$defs') {
      out[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, s]) => [name, closed(s)]));
    } else if (k === 'allOf') {
      out[k] = (v as unknown[]).map((s) => closed(s, true));
    } else if (k === 'anyOf' || k === 'oneOf' || k === 'prefixItems') {
      out[k] = (v as unknown[]).map((s) => closed(s, inAllOf));
    } else if (k === 'items' || k === 'additionalProperties' || k === 'not') {
      out[k] = closed(v);
    } else {
      out[k] = v;
    }
  }
  const open =
    inAllOf ||
    // typebox's compiled check refuses a valid object that takes an `else` branch (the request bodies of
    // generate_token and auth/permissions/add: a folder or document names its organization) when it or an object
    // around it is closed, while its Errors() finds nothing: an object with an `if` inside stays open.
    containsIf(node) ||
    'additionalProperties' in node ||
    'patternProperties' in node ||
    'unevaluatedProperties' in node ||
    !('properties' in node || 'allOf' in node);
  if (!open) out.unevaluatedProperties = false;
  return out;
}

const withIf = new WeakMap<object, boolean>();
/** Whether a schema has an `if` keyword in it, at any depth. */
function containsIf(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  let found = withIf.get(schema);
  if (found === undefined) {
    found = 'if' in schema || Object.values(schema).some(containsIf);
    withIf.set(schema, found);
  }
  return found;
}
