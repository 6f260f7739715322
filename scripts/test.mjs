#!/usr/bin/env node
// `npm test` (after the build). The folder says where a test file runs:
//   test/unit/ and test/system/  once (system tests start real processes and cover each database
//                                 there is themselves);
//   test/routes/ and test/store/ on SQLite, and again on PostgreSQL when TEST_DATABASE_URL is set.
// System files run in a process each. Unit, route and store files run in groups: a few processes per run, each
// loading the server's modules once and running its files one after another, each file a suite of its own
// (scripts/test-group.mjs; docs/decisions.md, "Test files in groups"). Every job (a file or a group) is in one
// queue, the longest first, run MARGINALIA_TEST_CONCURRENCY at a time (default 2): the runs share the machine
// instead of each ending in a tail where one job runs alone. Each job's TAP output is printed whole when it ends,
// under a line naming it, its run and its time. Ends with the slowest jobs, the failed files, and one line of
// totals; exits non-zero if anything failed.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import pg from 'pg';

const filesIn = (folder) =>
  readdirSync(`test/${folder}`)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `test/${folder}/${f}`);
const UNIT = filesIn('unit');
const SYSTEM = filesIn('system');
const EACH_DATABASE = [...filesIn('routes'), ...filesIn('store')];

const CONCURRENCY = Number(process.env.MARGINALIA_TEST_CONCURRENCY || 2);
/** Only the runs whose `<run>:<file>` matches, e.g. `postgres:test/routes/` or `e2e` (for trying a change). */
const ONLY = process.env.MARGINALIA_TEST_ONLY ? new RegExp(process.env.MARGINALIA_TEST_ONLY) : null;
/** A file still running after this is killed (with the servers it started) and counted as failed. */
const FILE_LIMIT_MS = Number(process.env.MARGINALIA_TEST_FILE_LIMIT_S || 600) * 1000;

// About how many seconds each file takes on an otherwise idle 2-core machine: the longest start first, so
// no long file starts last. Only the order depends on these, never what runs. Files not listed count by
// their folder.
const SECONDS = {
  'once:test/system/e2e.test.ts': 120,
  'once:test/system/package-install.test.ts': 100,
  'once:test/system/webhooks.test.ts': 90,
  'once:test/system/cli.test.ts': 50,
  'once:test/system/backup.test.ts': 25,
  'once:test/system/events-instances.test.ts': 35,
  'once:test/system/docs-browser.test.ts': 25,
  'once:test/system/faults-postgres.test.ts': 20,
  'once:test/system/durability.test.ts': 20,
  'once:test/system/instances.test.ts': 18,
  'once:test/system/conformance.test.ts': 15,
  'once:test/system/example-inbox.test.ts': 15,
  'once:test/system/faults-http.test.ts': 15,
  'postgres:test/routes/fuzz.test.ts': 75,
  'sqlite:test/routes/fuzz.test.ts': 130,
  'postgres:test/routes/personal-data.test.ts': 30,
  'postgres:test/routes/bounds.test.ts': 30,
  'postgres:test/routes/events-stream.test.ts': 20,
  'postgres:test/routes/isolation.test.ts': 16,
  'sqlite:test/routes/bounds.test.ts': 15,
  'sqlite:test/routes/events-stream.test.ts': 12,
  // Only to balance the Node 22 groups: its fuzz sends a quarter of the bodies.
  'node22:test/routes/fuzz.test.ts': 45,
};
const BY_FOLDER = { unit: 1, system: 12, routes: 5, store: 5 };
const expected = (job) =>
  job.seconds ??
  SECONDS[`${job.label}:${job.file}`] ??
  SECONDS[`sqlite:${job.file}`] ??
  BY_FOLDER[job.file.split('/')[1]] * (job.label === 'postgres' ? 1.5 : 1);

/** A file of a grouped folder that still runs alone: it is long, and would make its group end last. */
const ALONE = new Set(['sqlite:test/routes/fuzz.test.ts', 'postgres:test/routes/fuzz.test.ts']);
/** How many processes each run's grouped files share: enough for the two slots to end together. */
const GROUPS = { once: 1, sqlite: 2, postgres: 4, node22: 3 };
/** A grouped file takes about this share of its time alone (SECONDS): the rest was loading the modules. */
const IN_GROUP = 0.4;
const GROUP_ENTRY = new URL('./test-group.mjs', import.meta.url).pathname;

/**
 * One run's grouped files as GROUPS[label] jobs of about equal expected time, each a process running its files in
 * turn (scripts/test-group.mjs).
 */
function groupJobs(label, fileJobs) {
  const sorted = [...fileJobs].sort((a, b) => expected(b) - expected(a));
  const groups = Array.from({ length: Math.min(GROUPS[label], sorted.length) }, () => ({ files: [], seconds: 0 }));
  for (const job of sorted) {
    const lightest = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(job.file);
    lightest.seconds += expected(job);
  }
  const { env, node } = fileJobs[0];
  return groups.map(({ files, seconds }, i) => ({
    file: `${groups.length > 1 ? `group ${i + 1} of ${groups.length}` : 'group'} (${files.length} files)`,
    files,
    label,
    seconds: seconds * IN_GROUP,
    node,
    args: [GROUP_ENTRY, ...files],
    env,
  }));
}

/** Test schemas are named test_<pid>_<random>; a killed run leaves its own behind. Drop those of dead processes. */
async function dropAbandonedSchemas(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT schema_name FROM information_schema.schemata WHERE schema_name ~ '^test_[0-9]+_'`,
    );
    for (const { schema_name: name } of rows) {
      const pid = Number(name.split('_')[1]);
      if (isAlive(pid)) continue;
      await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      console.log(`# dropped ${name}, left behind by an earlier run`);
    }
  } finally {
    await client.end();
  }
}

/**
 * The system catalogs that a schema made and dropped per test leaves dead rows in (a table's columns, its
 * dependencies, its indexes...). PostgreSQL's autovacuum cleans them, but it may be off, as on the machines this
 * suite runs on: there a run left millions of dead pg_attribute rows, and every later CREATE and DROP, in this run and
 * the next, slowed (docs/decisions.md, "Test files in groups").
 */
const CATALOGS = [
  'pg_attribute',
  'pg_class',
  'pg_depend',
  'pg_type',
  'pg_index',
  'pg_constraint',
  'pg_trigger',
  'pg_proc',
].concat(['pg_attrdef', 'pg_rewrite', 'pg_sequence', 'pg_description', 'pg_statistic', 'pg_namespace', 'pg_shdepend']);
/** How often the run vacuums them while PostgreSQL files run. */
const VACUUM_EVERY_MS = 30_000;

/** Plain VACUUM (it waits for no one's DDL) of the catalogs; a failure is said, never fatal. */
async function vacuumCatalogs(url) {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    for (const table of CATALOGS) await client.query(`VACUUM pg_catalog.${table}`);
  } catch (err) {
    console.log(`# the catalogs could not be vacuumed: ${err.message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

const running = new Set();
const regexEscape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs one test file in a process of its own, in a process group of its own so a kill takes its servers too. */
function runFile(job) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(job.node ?? process.execPath, ['--import', 'tsx', '--test-reporter=tap', ...(job.args ?? [job.file])], {
      env: { ...process.env, ...job.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    let timedOut = false;
    const limit = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGKILL');
    }, FILE_LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      running.delete(child);
      const seconds = (performance.now() - started) / 1000;
      const counts = { pass: 0, fail: 0, skipped: 0 };
      const tail = out.slice(-4096);
      for (const key of Object.keys(counts)) {
        const m = new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tail);
        counts[key] = m ? Number(m[1]) : 0;
      }
      // A crash, a kill or an exit code with no failing test still fails the run.
      const bad = code !== 0 || signal !== null;
      if (bad && counts.fail === 0) counts.fail = 1;
      const how = timedOut ? `, killed after ${FILE_LIMIT_MS / 1000} s` : bad ? `, exit ${code ?? signal}` : '';
      console.log(`\n# ===== ${job.file} (${job.label}): ${seconds.toFixed(1)} s${how} =====`);
      process.stdout.write(out);
      if (err.trim()) console.log(err.trimEnd().replace(/^/gm, '# '));
      resolve({ ...job, seconds, counts, output: job.files ? out : '' });
    });
  });
}

/**
 * The environment of the Node 22 runs: the unit and route files, in groups like the main runs' (docs/decisions.md,
 * "Node versions and engine warnings"), on SQLite.
 */
const node22Env = (bin) => ({
  MARGINALIA_TEST_STORE: 'sqlite',
  MARGINALIA_TEST_NODE_MAJOR: '22',
  // In NODE_OPTIONS, so that every Node process a test starts (servers, CLIs, workers) has the hook too.
  NODE_OPTIONS: `--import=${NODE22_HOOKS}`,
  // A process started as `node` (npm scripts, shell commands) is Node 22 as well.
  PATH: `${dirname(bin)}${delimiter}${process.env.PATH}`,
  // A quarter of the bodies the SQLite run sends: the same validation code, with the same seed, on another V8;
  // every operation and path is still fuzzed, and the hostile mix and its memory bound run whole.
  FUZZ_RUNS: process.env.FUZZ_RUNS || '20',
});

const NODE22_HOOKS = new URL('./node22-hooks.mjs', import.meta.url).pathname;

/** The Node 22 binary, made ready by scripts/node22.mjs (its last line). */
function prepareNode22() {
  const r = spawnSync(process.execPath, ['scripts/node22.mjs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) {
    console.log('# FAILED: Node 22 could not be prepared (scripts/node22.mjs); MARGINALIA_TEST_NODE22=1 needs it');
    process.exit(1);
  }
  const lines = r.stdout.trim().split('\n');
  for (const line of lines.slice(0, -1)) console.log(line);
  const bin = lines.at(-1);
  console.log(`# Node 22 runs use ${bin} (${spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim()})`);
  return bin;
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of running) killGroup(child, 'SIGKILL');
    process.exit(130);
  });

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) await dropAbandonedSchemas(pgUrl);
if (pgUrl) await vacuumCatalogs(pgUrl);
// MARGINALIA_TEST_NODE22=1 (CI): the unit and route files run again on Node 22, on SQLite (docs/decisions.md,
// "Node versions and engine warnings"). Node 22 is prepared first; if it cannot be, the run fails.
const node22 = process.env.MARGINALIA_TEST_NODE22 === '1' ? prepareNode22() : null;
const fileJobs = [
  ...[...UNIT, ...SYSTEM].map((file) => ({ file, label: 'once', env: {} })),
  ...EACH_DATABASE.map((file) => ({ file, label: 'sqlite', env: { MARGINALIA_TEST_STORE: 'sqlite' } })),
  ...(pgUrl ? EACH_DATABASE.map((file) => ({ file, label: 'postgres', env: { MARGINALIA_TEST_STORE: 'postgres' } })) : []),
  ...(node22
    ? [...UNIT, ...filesIn('routes')].map((file) => ({ file, label: 'node22', node: node22, env: node22Env(node22) }))
    : []),
].filter((job) => !ONLY || ONLY.test(`${job.label}:${job.file}`));
const groupable = (job) => job.file.split('/')[1] !== 'system' && !ALONE.has(`${job.label}:${job.file}`);
const jobs = [
  ...fileJobs.filter((job) => !groupable(job)),
  ...Object.keys(GROUPS).flatMap((label) => {
    const grouped = fileJobs.filter((job) => job.label === label && groupable(job));
    return grouped.length > 0 ? groupJobs(label, grouped) : [];
  }),
].sort((a, b) => expected(b) - expected(a));
const runs = (label) => fileJobs.filter((job) => job.label === label).length;
console.log(
  `# ${fileJobs.length} runs of test files as ${jobs.length} jobs, ${CONCURRENCY} at a time: ${runs('once')} once, ` +
    `${runs('sqlite')} on SQLite, ${runs('postgres')} on PostgreSQL, ${runs('node22')} on Node 22 (SQLite, the unit ` +
    'and route files)',
);
if (!pgUrl) console.log('# PostgreSQL runs skipped: TEST_DATABASE_URL is not set.');

const started = performance.now();
const results = [];
let next = 0;
let vacuuming = null;
const vacuumTimer = pgUrl
  ? setInterval(() => {
      vacuuming ??= vacuumCatalogs(pgUrl).finally(() => {
        vacuuming = null;
      });
    }, VACUUM_EVERY_MS)
  : null;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < jobs.length) results.push(await runFile(jobs[next++]));
  }),
);
clearInterval(vacuumTimer);
await vacuuming;

console.log('\n# slowest jobs:');
for (const r of [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 15))
  console.log(`#   ${r.seconds.toFixed(1).padStart(6)} s  ${r.file} (${r.label})`);
for (const r of results.filter((r) => r.counts.fail > 0)) {
  // A group names the files that failed in it (each file is a top-level suite: scripts/test-group.mjs); a group that
  // crashed or was killed names them all, since which file it was in is not known.
  const failed = r.files?.filter((f) => new RegExp(`^not ok \\d+ - ${regexEscape(f)}$`, 'm').test(r.output));
  const named = r.files ? (failed.length > 0 ? failed : r.files) : [r.file];
  for (const file of named) console.log(`# FAILED: ${file} (${r.label}${r.files ? `, ${r.file}` : ''})`);
}
console.log(`# wall time ${((performance.now() - started) / 1000).toFixed(0)} s`);
const sum = (k) => results.reduce((n, r) => n + r.counts[k], 0);
console.log(`\ntotal: ${sum('pass')} passed, ${sum('fail')} failed, ${sum('skipped')} skipped`);
process.exit(sum('fail') > 0 ? 1 : 0);
