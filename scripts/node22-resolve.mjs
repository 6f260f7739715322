// The resolve hook scripts/node22-hooks.mjs registers: better-sqlite3, and only it, from the Node 22 build.
const COPY = new URL('../.cache/node22/node_modules/better-sqlite3/lib/index.js', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'better-sqlite3') return { url: COPY, format: 'commonjs', shortCircuit: true };
  return next(specifier, context);
}
