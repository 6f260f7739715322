#!/usr/bin/env node
// `npm run -s client:bundle`: the typed client (client/src/index.ts) as one minified ES module for
// browsers, written to client/dist/browser/marginalia.js (or the path given), with its size raw and
// gzipped. Bundling for the browser platform is also the check that nothing of Node is on its path: an
// import of node:* does not resolve there, and a free `process`, `Buffer` or `require` fails the script.
//
// The client evaluates the contract table (every TypeBox schema, and typebox itself) only for each
// operation's paths (client/src/routes.ts). Here that module is evaluated once, in Node, and the bundle
// gets the object it computes instead, so a page loads the calls without the schemas; the size the
// bundle would have with them is printed beside it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(REPO, 'client/src/index.ts');
const ROUTES_MODULE = join(REPO, 'client/src/routes.ts');
const out = process.argv[2] ?? join(REPO, 'client/dist/browser/marginalia.js');

const common = { entryPoints: [ENTRY], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false };

/** The routes module run in Node: the object the browser bundle carries instead of the table. */
async function routes() {
  const built = await build({ entryPoints: [ROUTES_MODULE], bundle: true, format: 'esm', platform: 'node', write: false });
  const source = built.outputFiles[0].text;
  const { ROUTES } = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
  return ROUTES;
}

const ROUTES = await routes();
const routesAsData = {
  name: 'routes-as-data',
  setup(b) {
    b.onLoad({ filter: /[\\/]client[\\/]src[\\/]routes\.ts$/ }, () => ({
      contents: `export const ROUTES = ${JSON.stringify(ROUTES)};`,
      loader: 'js',
    }));
  },
};

const bundled = await build({ ...common, minify: true, plugins: [routesAsData], metafile: true, legalComments: 'none' });
const code = bundled.outputFiles[0].text;

// Free names of Node (a property such as `x.process`, or a word in a string, is not one).
const nodeOnly = /(?<![\w$.'"`])(process|Buffer|require|__dirname|__filename|global|setImmediate)(?![\w$'"`:])/.exec(code);
if (nodeOnly) {
  console.error(`the browser bundle names Node's ${nodeOnly[1]}: ...${code.slice(nodeOnly.index - 60, nodeOnly.index + 60)}...`);
  process.exit(1);
}
const schemas = Object.keys(bundled.metafile.inputs).filter((f) =>
  /node_modules[\\/]typebox|src[\\/]schemas[\\/](?!event-types)/.test(f),
);
if (schemas.length > 0) {
  console.error(`the browser bundle pulls in the schemas: ${schemas.join(', ')}`);
  process.exit(1);
}

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, code);

const withSchemas = (await build({ ...common, minify: true, legalComments: 'none' })).outputFiles[0].text;
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const sizes = (text) => {
  const raw = Buffer.byteLength(text);
  return `${kb(raw)} raw, ${kb(gzipSync(text, { level: 9 }).length)} gzipped`;
};
console.log(`${relative(process.cwd(), out) || out}: ${sizes(code)}`);
console.log(`(with the contract table's schemas it would be ${sizes(withSchemas)})`);
