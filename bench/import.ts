// npm run bench:import -- [--scale small|large] [--concurrency N] [--rate N] [--orgs N] [--cpu-prof DIR]
// The rate of `marginalia import` in records per second from a local source: a Marginalia server on a copy of the
// bench dataset (bench/.data/<scale>.db, built as bench/run.ts builds it when missing, reused when there), imported
// into a fresh SQLite database by the real command. Written to bench/results/import-<scale>.json.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config/index.js';
import { openStore } from '../src/store/open-store.js';
import { createKey, MAIN, REPO, startServer, stopServer, tempDir } from '../test/helpers/server-process.js';
import { BENCH_CREDENTIALS, buildDataset, SCALES, SqliteSink, type ScaleName } from './dataset.js';

const { values: opts } = parseArgs({
  options: {
    scale: { type: 'string', default: 'small' },
    concurrency: { type: 'string', default: '4' },
    rate: { type: 'string', default: '10000' },
    orgs: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const scaleName = opts.scale as ScaleName;
if (!(scaleName in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
const log = (msg: string) => process.stderr.write(`${msg}\n`);

/** The bench's dataset file, as bench/run.ts builds it (never rebuilt when it is there). */
async function dataset(): Promise<string> {
  const dataDir = join(REPO, 'bench', '.data');
  mkdirSync(dataDir, { recursive: true });
  const pristine = join(dataDir, `${scaleName}.db`);
  if (existsSync(pristine)) return pristine;
  const building = `${pristine}.building`;
  rmSync(building, { force: true });
  const loaded = loadConfig({ DATABASE_URL: `sqlite:${building}` });
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  const store = await openStore(loaded.config);
  log(`building the ${scaleName} dataset...`);
  const db = new Database(building);
  await buildDataset(store, SCALES[scaleName], new SqliteSink(db), (m) => log(`  ${m}`));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  await store.close();
  renameSync(building, pristine);
  return pristine;
}

const dir = tempDir();
// The source serves a copy: a server may write at start (its credentials, migrations), the dataset stays as built.
const sourceFile = join(dir, 'source.db');
copyFileSync(await dataset(), sourceFile);
const source = await startServer({ env: { DATABASE_URL: `sqlite:${sourceFile}` } });
const target = { DATABASE_URL: `sqlite:${join(dir, 'target.db')}` };
try {
  createKey(target, 'imported');
  log(`importing the ${scaleName} dataset from ${source.url}...`);
  const started = process.hrtime.bigint();
  const run = spawnSync(
    process.execPath,
    [
      ...(opts['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', opts['cpu-prof']] : []),
      MAIN,
      'import',
      '--from',
      source.url,
      '--api-key',
      BENCH_CREDENTIALS.apiKey,
      '--auth-token',
      BENCH_CREDENTIALS.authToken,
      '--checkpoint',
      join(dir, 'checkpoint.json'),
      '--concurrency',
      opts.concurrency,
      '--rate',
      opts.rate,
      // --orgs N: the first N organizations only (org-0 ... org-(N-1)), a sample of a large dataset.
      ...(opts.orgs ? Array.from({ length: Number(opts.orgs) }, (_, i) => ['--org', `org-${i}`]).flat() : []),
    ],
    {
      cwd: REPO,
      env: { PATH: process.env.PATH, ...target },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 28,
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`import exited ${run.status}:\n${run.stdout.split('\n').slice(-20).join('\n')}`);
  const summary = /^Imported (.*) in [\d.]+ s \((\d+) requests to the source\)\.$/m.exec(run.stdout);
  if (!summary) throw new Error(`no summary in the import's output:\n${run.stdout.slice(0, 2000)}`);
  const counts = Object.fromEntries(
    summary[1]!.split(', ').map((part) => {
      const [n, kind] = part.split(' ');
      return [kind!, Number(n)];
    }),
  );
  const records = Object.values(counts).reduce((a, n) => a + n, 0);
  const result = {
    scale: scaleName,
    organizations: opts.orgs ? Number(opts.orgs) : 'all',
    concurrency: Number(opts.concurrency),
    rate: Number(opts.rate),
    counts,
    records,
    requests: Number(summary[2]),
    seconds: Number(seconds.toFixed(1)),
    recordsPerSecond: Math.round(records / seconds),
  };
  log(run.stdout.split('\n').at(-2) ?? '');
  const resultsDir = join(REPO, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const named = opts.orgs ? `import-${scaleName}-${opts.orgs}-organizations.json` : `import-${scaleName}.json`;
  writeFileSync(join(resultsDir, named), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `${records} records (${summary[1]}) in ${result.seconds} s, ${result.requests} requests: ${result.recordsPerSecond} records/s\n`,
  );
} finally {
  await stopServer(source);
  rmSync(dir, { recursive: true, force: true });
}
