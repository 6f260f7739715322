// npm run bench -- [--scale small|large] [--db sqlite|postgres] [--workers N] [--seconds S] [--only text] [--fresh]
// Builds (or reuses) a dataset, starts the real server on it, drives each operation from a separate
// load process (10 connections), measures a bare route of the same server as the baseline, and
// prints a table that is also written as JSON under bench/results/.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config/index.js';
import { openStore } from '../src/store/open-store.js';
import { buildDataset, PostgresSink, SCALES, SqliteSink, type ScaleName } from './dataset.js';
import { OPERATIONS } from './operations.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    scale: { type: 'string', default: 'small' },
    db: { type: 'string', default: 'sqlite' },
    workers: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
    fresh: { type: 'boolean', default: false },
  },
});
const scaleName = opts.scale as ScaleName;
if (!(scaleName in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
if (opts.db !== 'sqlite' && opts.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
const scale = SCALES[scaleName];
const seconds = Number(opts.seconds);
const connections = Number(opts.connections);
const workers = Number(opts.workers);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (msg: string) => process.stderr.write(`${msg}\n`);

/** A database env for the server, with the dataset in it (built once per scale, then reused). */
async function prepareDatabase(): Promise<Record<string, string>> {
  const dataDir = join(ROOT, 'bench', '.data');
  mkdirSync(dataDir, { recursive: true });
  if (opts.db === 'sqlite') {
    const pristine = join(dataDir, `${scaleName}.db`);
    if (opts.fresh || !existsSync(pristine)) {
      const building = `${pristine}.building`;
      rmSync(building, { force: true });
      await build({ DATABASE_URL: `sqlite:${building}` }, async (fill) => {
        const db = new Database(building);
        await fill(new SqliteSink(db));
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      });
      renameSync(building, pristine);
    }
    // Each run starts from the same rows: the writes of the last run are thrown away.
    const working = join(dataDir, `${scaleName}.run.db`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(working + suffix, { force: true });
    copyFileSync(pristine, working);
    return { DATABASE_URL: `sqlite:${working}` };
  }
  const schema = `bench_${scaleName}`;
  const env = { DATABASE_URL: PG_URL, MARGINALIA_PG_SCHEMA: schema };
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const ready = (
    await client.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'bench_complete'`, [
      schema,
    ])
  ).rowCount;
  if (opts.fresh || !ready) {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await build(env, async (fill) => {
      await client.query(`SET search_path = ${schema}`);
      await fill(new PostgresSink(client));
      await client.query('ANALYZE');
      await client.query('CREATE TABLE bench_complete ()');
    });
  }
  await client.end();
  return env;
}

/** Migrates the database through the store, then lets `withSink` fill it through a bulk sink. */
async function build(
  env: Record<string, string>,
  withSink: (fill: (sink: SqliteSink | PostgresSink) => Promise<void>) => Promise<void>,
): Promise<void> {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  const store = await openStore(loaded.config);
  const started = Date.now();
  log(`building the ${scaleName} dataset on ${opts.db}...`);
  await withSink(async (sink) => {
    await buildDataset(store, scale, sink, (m) => log(`  ${m}`));
  });
  await store.close();
  log(`dataset built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [join(ROOT, 'dist', 'main.js'), 'serve'], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      MARGINALIA_RATE_LIMIT: '0',
      MARGINALIA_WORKERS: String(workers),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { proc, url };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not become ready');
}

/** Resident memory of the server and its workers, in MB. */
function rssMb(pid: number): number {
  const pids = [
    pid,
    ...spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number),
  ];
  let kb = 0;
  for (const p of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return Math.round(kb / 1024);
}

function load(url: string, operation: string, secs: number): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'bench', 'load.ts'),
        JSON.stringify({ url, operation, scale: scaleName, connections, seconds: secs }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load exited ${code}`))));
  });
}

const env = await prepareDatabase();
const { proc, url } = await startServer(env);
const rows: any[] = [];
try {
  for (const op of OPERATIONS) {
    if (opts.only && op.kind !== 'baseline' && !op.name.includes(opts.only)) continue;
    await load(url, op.name, 2); // warm up: caches, JIT, statement plans
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(proc.pid!));
    }, 250);
    const r = await load(url, op.name, seconds);
    clearInterval(sampler);
    rows.push({ operation: op.name, kind: op.kind, ...r, rssMb: peak });
    log(`  ${op.name}: ${Math.round(r.requestsPerSecond)} req/s, p99 ${r.p99} ms`);
  }
} finally {
  proc.kill('SIGTERM');
}

const baseline = rows.find((r) => r.kind === 'baseline')!.requestsPerSecond;
for (const r of rows) r.ratio = Number((r.requestsPerSecond / baseline).toFixed(3));
const machine = {
  cpu: cpus()[0]?.model,
  cores: cpus().length,
  memoryGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  sqlite:
    opts.db === 'sqlite' ? (new Database(':memory:').prepare('select sqlite_version() v').get() as { v: string }).v : undefined,
  postgres: opts.db === 'postgres' ? execFileSync('psql', ['--version'], { encoding: 'utf8' }).trim() : undefined,
};
const report = {
  date: new Date().toISOString(),
  db: opts.db,
  scale: scaleName,
  workers,
  connections,
  seconds,
  machine,
  results: rows,
};

const table = [
  '| operation | req/s | p50 ms | p99 ms | vs baseline | non-2xx | server RSS MB |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.operation} | ${Math.round(r.requestsPerSecond)} | ${r.p50} | ${r.p99} |` +
      ` ${(r.ratio * 100).toFixed(0)}% | ${r.non2xx + r.errors} | ${r.rssMb} |`,
  ),
].join('\n');
console.log(
  `\n${opts.db}, ${scaleName} scale, ${workers} worker(s), ${connections} connections, ${seconds} s per operation\n\n${table}\n`,
);
const resultsDir = join(ROOT, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `${opts.db}-${scaleName}${workers > 1 ? `-${workers}workers` : ''}.json`);
writeFileSync(file, `${JSON.stringify({ ...report, table }, null, 2)}\n`);
log(`written to ${file}`);
