// How request schemas become validators (docs/decisions.md, "Validators compiled on first use"). Fastify's own
// compiler (@fastify/ajv-compiler, with the app's ajv options) does the compiling, so every message and rule is
// the one it would give; two things change:
//   - when: a route's validator is compiled on its first request, not when the app starts. Compiling every
//     operation's schema under each of its paths cost each start, and each app a test builds, 0.3 to 0.6 s of
//     CPU, for routes most processes never see;
//   - how often: one compiler pool for the process, so an app built again in the same process (route tests,
//     the bench) finds ajv's cache, keyed by the schema object, already filled (operation.ts shares body
//     schemas between apps with the same input limits).
import AjvCompiler from '@fastify/ajv-compiler';

type BuildCompiler = ReturnType<typeof AjvCompiler>;
type Compile = ReturnType<BuildCompiler>;
type RouteDefinition = Parameters<Compile>[0];
type Validate = ((data: unknown) => unknown) & { errors?: unknown };

const pool: BuildCompiler = AjvCompiler();

/** Fastify's `schemaController.compilersFactory.buildValidator`: the pool's compiler, deferred to first use. */
export const buildLazyValidator = ((externalSchemas: unknown, options: unknown) => {
  const compile = (pool as (externalSchemas: unknown, options: unknown) => Compile)(externalSchemas, options);
  return (route: RouteDefinition) => lazily(() => compile(route) as unknown as Validate);
}) as unknown as BuildCompiler;

/**
 * A validator that compiles on its first call. Fastify reads `errors` off the function it was given after a
 * `false`: copied from the compiled one after every call. (Ajv's validators mutate data only with coercion,
 * defaults or removal, all off in app.ts, so the parent data Fastify passes to a bare ajv function is not needed.)
 */
function lazily(compile: () => Validate): Validate {
  let validate: Validate | undefined;
  const run: Validate = (data: unknown) => {
    validate ??= compile();
    const valid = validate(data);
    run.errors = validate.errors;
    return valid;
  };
  return run;
}
