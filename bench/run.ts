// npm run bench -- [--scale small|large] [--db sqlite|postgres] [--workers N] [--seconds S] [--pairs N]
//                  [--tool wrk|autocannon] [--only text|text...] [--fresh] [--server other-checkout] [--cpu-prof DIR]
// Builds (or reuses) a dataset, starts the real server on it and drives each operation from a separate
// load process (10 connections): wrk when installed, else autocannon. With one worker the server is
// pinned to core 0 and the load to core 1. Each operation runs in pairs with the baseline (a bare
// route of the same server) right before it; the table shows medians over the pairs, and is also
// written as JSON under bench/results/.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config/index.js';
import { DEFAULT_REST_AFTER_MS } from '../src/http/at-rest.js';
import { openStore } from '../src/store/open-store.js';
import { buildDataset, PostgresSink, SCALES, SqliteSink, type ScaleName } from './dataset.js';
import { mintEndUserTokens } from './end-users.js';
import { FLOOR_PATHS, HEADERS, OPERATIONS, SPREAD, spreadBody } from './operations.js';
import { freePort } from '../test/helpers/server-process.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    scale: { type: 'string', default: 'small' },
    db: { type: 'string', default: 'sqlite' },
    workers: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '5' },
    pairs: { type: 'string', default: '3' },
    tool: { type: 'string' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
    fresh: { type: 'boolean', default: false },
    server: { type: 'string' },
    'cpu-prof': { type: 'string' },
    floor: { type: 'boolean', default: false },
  },
});
const scaleName = opts.scale as ScaleName;
if (!(scaleName in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
if (opts.db !== 'sqlite' && opts.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
const scale = SCALES[scaleName];
const seconds = Number(opts.seconds);
const connections = Number(opts.connections);
const workers = Number(opts.workers);
const pairs = Number(opts.pairs);
const installed = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const tool = (opts.tool ?? (installed('wrk') ? 'wrk' : 'autocannon')) as 'wrk' | 'autocannon';
if (tool !== 'wrk' && tool !== 'autocannon') throw new Error('--tool must be wrk or autocannon');
// One worker: the server on core 0, the load generator on core 1, so they do not take turns on a core.
const pin = workers === 1 && cpus().length >= 2 && installed('taskset');
const pinned = (core: number, cmd: string, args: string[]): [string, string[]] =>
  pin ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args];
/** Whether --only (text, or texts separated by "|") chooses the row. */
// A text ending in `$` matches the end of a name: `--only 'by userId$'` is one row, not every row that names it.
const chosen = (name: string): boolean =>
  !opts.only ||
  opts.only.split('|').some((text) => (text.endsWith('$') ? name.endsWith(text.slice(0, -1)) : name.includes(text)));
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
      // A table that has been in use is vacuumed: hint bits set and the visibility map written. Without
      // this the runs would set hint bits (dirtying pages that are read) and race autovacuum for the CPU.
      await client.query('VACUUM (ANALYZE)');
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

/** --cpu-prof DIR: V8's profile of a server (`who`: the app, the floor) under the rows' load, written to DIR/who when it stops. */
const profileArgs = (who: string): string[] =>
  opts['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', join(opts['cpu-prof'], who)] : [];

/** Where the server under test keeps uploads (the "upload of a 1 MB file" row): gone when the process exits. */
const UPLOADS_DIR = mkdtempSync(join(tmpdir(), 'marginalia-bench-uploads-'));
process.on('exit', () => rmSync(UPLOADS_DIR, { recursive: true, force: true }));

async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  // --server: another checkout's build (its dist/main.js) on the same dataset, for a before and after.
  const [cmd, args] = pinned(0, process.execPath, [...profileArgs('app'), join(opts.server ?? ROOT, 'dist', 'main.js'), 'serve']);
  const proc = spawn(cmd, args, {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      MARGINALIA_RATE_LIMIT: '0',
      MARGINALIA_END_USER_RATE_LIMIT: '0',
      // The 401 rows measure the work of a refused request, not the floor that hides its timing.
      MARGINALIA_AUTH_FAILURE_FLOOR_MS: '0',
      MARGINALIA_WORKERS: String(workers),
      // The upload row's files: a folder of the run's own, removed when the bench ends.
      MARGINALIA_ATTACHMENTS_DIR: UPLOADS_DIR,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  let aliveMs: number | undefined;
  for (let i = 0; i < 6000; i++) {
    try {
      if (aliveMs === undefined && (await fetch(`${url}/healthz`)).ok) aliveMs = performance.now() - started;
      if ((await fetch(`${url}/readyz`)).ok) {
        startTimes = { aliveMs: Math.round(aliveMs!), readyMs: Math.round(performance.now() - started) };
        checked = checkDone(url, started);
        return { proc, url };
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the server did not become ready');
}

/** Resolves when the check of the file at start is done: the rows measure the server after it, not beside it. */
let checked: Promise<void> = Promise.resolve();
/** How the server's start went: /healthz first answered, /readyz 200, and the check of the file at start done (ms from spawn). */
let startTimes: { aliveMs: number; readyMs: number; checkedMs?: number } | undefined;
/** Notes when /readyz stops saying the start-up check is running (the rows wait for it: `checked`). */
async function checkDone(url: string, started: number): Promise<void> {
  for (;;) {
    try {
      const body = (await (await fetch(`${url}/readyz`)).json()) as { check?: string };
      if (body.check !== 'checking') {
        startTimes!.checkedMs = Math.round(performance.now() - started);
        return;
      }
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The server's resident memory split: anonymous (its heap and SQLite's cache) and file pages mapped (code, mmap), MB. */
function rssSplit(pid: number): { anonMb: number; fileMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { anonMb: Math.round(kb('RssAnon') / 1024), fileMb: Math.round((kb('RssFile') + kb('RssShmem')) / 1024) };
  } catch {
    return { anonMb: 0, fileMb: 0 };
  }
}

/** Bytes the server's processes have written to storage so far (/proc/<pid>/io write_bytes: the WAL and the checkpoints). */
function writtenBytes(pids: number[]): number {
  let bytes = 0;
  for (const p of pids) {
    try {
      bytes += Number(/write_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${p}/io`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return bytes;
}

/** The WAL pages the server's checkpoint thread has counted so far (SQLite; 0 before it runs). */
async function walPages(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^marginalia_sqlite_wal_pages_written_total (\S+)$/m.exec(text)?.[1] ?? 0);
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

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The processes whose CPU a run charges to the server: it, its workers, and PostgreSQL when that is the database. */
function serverPids(pid: number): number[] {
  const children = (args: string[]) =>
    spawnSync('pgrep', args, { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
  return [pid, ...children(['-P', String(pid)]), ...(opts.db === 'postgres' ? children(['-x', 'postgres']) : [])];
}

/** Whether the process is a PostgreSQL backend (the server's connections) rather than the server's own. */
const isPostgres = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
};

/** CPU time (user + system) the processes have used so far, in microseconds (/proc/<pid>/stat). */
function cpuMicros(pids: number[]): number {
  let ticks = 0;
  for (const p of pids) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
    } catch {
      /* gone */
    }
  }
  return (ticks / TICKS_PER_SECOND) * 1e6;
}

/** Runs the load and measures the CPU the given processes spent per request meanwhile. */
async function measured(pids: number[], url: string, operation: string, secs: number, paths?: string[]): Promise<any> {
  const before = cpuMicros(pids);
  const database = pids.filter(isPostgres);
  const dbBefore = cpuMicros(database);
  const r = await load(url, operation, secs, paths);
  const perRequest = (us: number) => Number((us / Math.max(1, r.total)).toFixed(1));
  // PostgreSQL's share on its own: what the database costs a request, however lean the server.
  return {
    ...r,
    cpuUsPerRequest: perRequest(cpuMicros(pids) - before),
    dbCpuUsPerRequest: perRequest(cpuMicros(database) - dbBefore),
  };
}

function load(url: string, operation: string, secs: number, paths?: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const [cmd, args] = pinned(1, process.execPath, [
      '--import',
      'tsx',
      join(ROOT, 'bench', 'load.ts'),
      JSON.stringify({ url, operation, scale: scaleName, connections, seconds: secs, tool, paths }),
    ]);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load exited ${code}`))));
  });
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A bench server of its own (`script` under bench/, given its port), on the server's core; ready once `probe` answers. */
async function startPinned(
  script: string,
  probe: string,
  env: Record<string, string> = {},
  tries = 300,
  nodeArgs: string[] = [],
): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  const [cmd, args] = pinned(0, process.execPath, [...nodeArgs, '--import', 'tsx', join(ROOT, 'bench', script), String(port)]);
  const proc = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < tries; i++) {
    try {
      await fetch(url + probe, { method: 'POST' });
      return { proc, url };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`bench/${script} did not start`);
}

/** The yardstick (bench/baseline-server.ts). */
const startBaseline = () => startPinned('baseline-server.ts', '/baseline');

/**
 * --floor: the floor of a served request (bench/floor-server.ts) on the same database: the operation's
 * service on the real store behind a bare Fastify route. It opens the store first (a minute at most).
 */
const startFloor = (env: Record<string, string>) =>
  startPinned('floor-server.ts', '/v1/notifications/get', env, 600, profileArgs('floor'));

/** A server of the operation-count row (bench/operations-server.ts), on the server's core, with `copies` more of each operation. */
async function startOperationsServer(
  env: Record<string, string>,
  copies: number,
): Promise<{ proc: ChildProcess; url: string; paths: string[] }> {
  const port = await freePort();
  const [cmd, args] = pinned(0, process.execPath, [
    '--import',
    'tsx',
    join(ROOT, 'bench', 'operations-server.ts'),
    String(port),
    String(copies),
  ]);
  const proc = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      // Its operations, as it describes them: every POST path of /openapi.json.
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, object> };
      return { proc, url, paths: Object.keys(doc.paths).filter((p) => 'post' in doc.paths[p]!) };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the operations server did not start');
}

/**
 * The operation-count row: the per-request CPU of the app with its operations registered twice more
 * under other prefixes (about 150 more routes) against the app alone, each loaded with requests spread
 * over every operation it has. The two servers take turns (the order alternating by pair), so drift
 * falls on both sides; `costRatio` above 1 is what the extra operations cost every request.
 */
async function operationCountRow(env: Record<string, string>): Promise<any> {
  const alone = await startOperationsServer(env, 0);
  const copied = await startOperationsServer(env, 2);
  try {
    // What the spread asks, answered once each: reads 200, the others 400 (their schema refuses `{}`).
    const statuses: Record<string, number> = {};
    for (const path of alone.paths) {
      const res = await fetch(alone.url + path, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ data: spreadBody(path, scale) }),
      });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
    log(
      `  ${SPREAD.name}: ${alone.paths.length} vs ${copied.paths.length} operations; answers by status ${JSON.stringify(statuses)}`,
    );
    for (const s of [alone, copied]) await load(s.url, SPREAD.name, 2, s.paths); // warm up
    const runs: { alone: any; copied: any }[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      const one = (s: typeof alone) => measured([s.proc.pid!], s.url, SPREAD.name, seconds, s.paths);
      if (pair % 2 === 0) {
        const a = await one(alone);
        runs.push({ alone: a, copied: await one(copied) });
      } else {
        const c = await one(copied);
        runs.push({ alone: await one(alone), copied: c });
      }
    }
    const row = {
      operation: SPREAD.name,
      kind: SPREAD.kind,
      operations: [alone.paths.length, copied.paths.length],
      statuses,
      requestsPerSecond: median(runs.map((x) => x.copied.requestsPerSecond)),
      alonePerSecond: median(runs.map((x) => x.alone.requestsPerSecond)),
      ratio: Number(median(runs.map((x) => x.copied.requestsPerSecond / x.alone.requestsPerSecond)).toFixed(3)),
      cpuUsPerRequest: Number(median(runs.map((x) => x.copied.cpuUsPerRequest)).toFixed(1)),
      aloneCpuUsPerRequest: Number(median(runs.map((x) => x.alone.cpuUsPerRequest)).toFixed(1)),
      costRatio: Number(median(runs.map((x) => x.copied.cpuUsPerRequest / x.alone.cpuUsPerRequest)).toFixed(3)),
      unexpected: runs.reduce((n, x) => n + x.alone.errors + x.copied.errors, 0),
      pairs: runs,
    };
    log(
      `  ${alone.paths.length} vs ${copied.paths.length} operations: ${row.aloneCpuUsPerRequest} vs ${row.cpuUsPerRequest} ` +
        `CPU us a request, cost ratio ${row.costRatio} (req/s ratio ${row.ratio})`,
    );
    return row;
  } finally {
    alone.proc.kill('SIGTERM');
    copied.proc.kill('SIGTERM');
  }
}

const env = await prepareDatabase();
const { proc, url } = await startServer(env);
// On the large file the check reads it for 30-50 s on a thread at nice 19; on the server's pinned core it
// still delays the event loop's wake-ups, and the first rows' p99 measured it (docs/decisions.md, "Upkeep
// off the request path"). The start row above reports it; the rows wait for it.
await checked;
// What the chosen rows need besides the dataset (each set-up once), and their end users' tokens.
const chosenRows = OPERATIONS.filter((o) => o.kind !== 'baseline' && chosen(o.name));
for (const setUp of new Set(chosenRows.flatMap((o) => (o.setUp ? [o.setUp] : [])))) await setUp(url, scale);
await mintEndUserTokens(
  url,
  chosenRows.flatMap((o) => (o.endUser ? (o.users ?? []) : [])),
);
const baselineServer = await startBaseline();
const floor = opts.floor ? await startFloor(env) : undefined;
const BASELINE = OPERATIONS.find((o) => o.kind === 'baseline')!;
const rows: any[] = [];
/** Seconds the server is left idle after the rows before its memory is read, its caches still held. */
const IDLE_SECONDS = 10;
/**
 * Seconds after the rows by which the server has let go of its caches at rest (MARGINALIA_REST_AFTER_MS's
 * default, which it looks for a quarter late at most), and a margin for the collection that follows.
 */
const REST_SECONDS = (DEFAULT_REST_AFTER_MS * 1.25) / 1000 + 5;
type Memory = { rssMb: number; anonMb: number; fileMb: number; heapUsedMb: number; heapTotalMb: number };
let idle: Memory | undefined;
let rest: Memory | undefined;
try {
  await load(baselineServer.url, BASELINE.name, 2); // warm up the baseline process
  await load(url, 'GET /healthz', 2); // and the server
  for (const op of OPERATIONS) {
    if (op.kind === 'baseline' || !chosen(op.name)) continue;
    await load(url, op.name, 2); // warm up: caches, JIT, statement plans
    const runs: { baseline: any; op: any; floor?: any }[] = [];
    // The floor server, when this row's operation is one it serves (--floor).
    // (Not for an end user's: the floor has no credentials of any kind.)
    const floorOfRow = floor && FLOOR_PATHS.has(op.path) && !op.endUser ? floor : undefined;
    if (floorOfRow) await load(floorOfRow.url, op.name, 2);
    let peak = 0;
    const pids = serverPids(proc.pid!);
    let peakSplit = { anonMb: 0, fileMb: 0 };
    for (let pair = 0; pair < pairs; pair++) {
      const baseline = await measured([baselineServer.proc.pid!], baselineServer.url, BASELINE.name, seconds);
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(proc.pid!));
        const split = rssSplit(proc.pid!);
        if (split.anonMb + split.fileMb > peakSplit.anonMb + peakSplit.fileMb) peakSplit = split;
      }, 250);
      const [pagesBefore, bytesBefore] = [await walPages(url), writtenBytes(pids)];
      const r = await measured(pids, url, op.name, seconds);
      clearInterval(sampler);
      // The checkpoint thread counts a page when it copies it: give it a moment to reach the run's last writes.
      if (op.kind === 'write') await new Promise((resolve) => setTimeout(resolve, 300));
      r.walPagesPerRequest = Number((((await walPages(url)) - pagesBefore) / Math.max(1, r.total)).toFixed(1));
      r.kbWrittenPerRequest = Number(((writtenBytes(pids) - bytesBefore) / 1024 / Math.max(1, r.total)).toFixed(1));
      const floorRun = floorOfRow
        ? await measured(serverPids(floorOfRow.proc.pid!), floorOfRow.url, op.name, seconds)
        : undefined;
      runs.push({ baseline, op: r, floor: floorRun });
    }
    /** The floor server's medians, its ratio to the same pair's baseline. */
    const atFloor = runs[0]?.floor
      ? {
          requestsPerSecond: median(runs.map((x) => x.floor.requestsPerSecond)),
          ratio: Number(median(runs.map((x) => x.floor.requestsPerSecond / x.baseline.requestsPerSecond)).toFixed(3)),
          cpuUsPerRequest: median(runs.map((x) => x.floor.cpuUsPerRequest)),
          p99: median(runs.map((x) => x.floor.p99)),
          unexpected: runs.reduce((n, x) => n + x.floor.non2xx + x.floor.errors, 0),
        }
      : undefined;
    const expected = op.expect ?? 200;
    const row = {
      operation: op.name,
      kind: op.kind,
      expect: expected,
      requestsPerSecond: median(runs.map((x) => x.op.requestsPerSecond)),
      baselinePerSecond: median(runs.map((x) => x.baseline.requestsPerSecond)),
      ratio: Number(median(runs.map((x) => x.op.requestsPerSecond / x.baseline.requestsPerSecond)).toFixed(3)),
      // The server's CPU per request against the baseline's, each on its own core: what the req/s ratio
      // would be if both were bound by the server's CPU. When the load generator caps the baseline (its
      // core is idle part of the time), the req/s ratio understates the server and this one does not.
      cpuUsPerRequest: median(runs.map((x) => x.op.cpuUsPerRequest)),
      dbCpuUsPerRequest: median(runs.map((x) => x.op.dbCpuUsPerRequest)),
      baselineCpuUsPerRequest: median(runs.map((x) => x.baseline.cpuUsPerRequest)),
      cpuRatio: Number(median(runs.map((x) => x.baseline.cpuUsPerRequest / x.op.cpuUsPerRequest)).toFixed(3)),
      p50: median(runs.map((x) => x.op.p50)),
      p99: median(runs.map((x) => x.op.p99)),
      // Answers other than the expected status (a 401 row expects only non-2xx), and socket errors.
      unexpected: runs.reduce((n, x) => n + (expected === 200 ? x.op.non2xx : x.op.total - x.op.non2xx) + x.op.errors, 0),
      rssMb: peak,
      rssAnonMb: peakSplit.anonMb,
      rssFileMb: peakSplit.fileMb,
      walPagesPerRequest: median(runs.map((x) => x.op.walPagesPerRequest)),
      kbWrittenPerRequest: median(runs.map((x) => x.op.kbWrittenPerRequest)),
      floor: atFloor,
      pairs: runs,
    };
    rows.push(row);
    log(
      `  ${op.name}: ${Math.round(row.requestsPerSecond)} req/s, ${(row.ratio * 100).toFixed(0)}% of baseline, p99 ${row.p99} ms`,
    );
  }
  // Memory after the rows' load: idle a while with the caches it filled, then at rest, without them.
  const memory = async (): Promise<Memory> => {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const heapMb = (name: string) =>
      Math.round(Number(new RegExp(`^marginalia_nodejs_heap_size_${name}_bytes (\\S+)$`, 'm').exec(metrics)?.[1] ?? 0) / 2 ** 20);
    return { rssMb: rssMb(proc.pid!), ...rssSplit(proc.pid!), heapUsedMb: heapMb('used'), heapTotalMb: heapMb('total') };
  };
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  idle = await memory();
  await new Promise((resolve) => setTimeout(resolve, (REST_SECONDS - IDLE_SECONDS) * 1000));
  rest = await memory();
} finally {
  proc.kill('SIGTERM');
  baselineServer.proc.kill('SIGTERM');
  floor?.proc.kill('SIGTERM');
}
const spreadRow = chosen(SPREAD.name) ? await operationCountRow(env) : null;

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
  pairs,
  tool,
  pinned: pin,
  machine,
  start: startTimes,
  idle,
  rest,
  results: rows,
  operationCount: spreadRow,
};

/** A row of the floor's table: vs baseline, CPU a request, p99, and answers other than expected if any. */
const floorCell = (f: any) =>
  `${(f.ratio * 100).toFixed(1)}%, ${f.cpuUsPerRequest} us, ${f.p99} ms${f.unexpected ? `, unexpected ${f.unexpected}` : ''}`;

const described = (m: Memory | undefined) =>
  `RSS ${m?.rssMb} MB (${m?.anonMb} anonymous + ${m?.fileMb} file; JavaScript heap ${m?.heapUsedMb} MB used of ${m?.heapTotalMb})`;

const table = [
  '| operation | req/s | baseline req/s | vs baseline | p50 ms | p99 ms | unexpected answers | server RSS MB (anon + file) |' +
    ' CPU us/req (baseline) | CPU vs baseline | WAL pages/req | kB written/req |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.operation} | ${Math.round(r.requestsPerSecond)} | ${Math.round(r.baselinePerSecond)} | ${(r.ratio * 100).toFixed(0)}% |` +
      ` ${r.p50} | ${r.p99} | ${r.unexpected} | ${r.rssMb} (${r.rssAnonMb} + ${r.rssFileMb}) |` +
      ` ${r.cpuUsPerRequest}${r.dbCpuUsPerRequest ? `, database ${r.dbCpuUsPerRequest}` : ''} (${r.baselineCpuUsPerRequest}) |` +
      ` ${(r.cpuRatio * 100).toFixed(0)}% |` +
      ` ${r.kind === 'write' ? r.walPagesPerRequest : ''} | ${r.kind === 'write' ? r.kbWrittenPerRequest : ''} |`,
  ),
  '',
  `start: /healthz after ${startTimes?.aliveMs} ms, ready after ${startTimes?.readyMs} ms, the check of the file done after ` +
    `${startTimes?.checkedMs ?? '?'} ms; idle ${IDLE_SECONDS} s after the rows: ${described(idle)}; ` +
    `at rest (${REST_SECONDS} s): ${described(rest)}`,
  ...(floor
    ? [
        '',
        'The floor (bench/floor-server.ts): the same request on the same store behind a bare Fastify route.',
        "Each: vs baseline, CPU us/req, p99 ms; 'unexpected' counts other answers.",
        '',
        '| operation | the app | floor |',
        '|---|---:|---:|',
        ...rows.filter((r) => r.floor).map((r) => `| ${r.operation} | ${floorCell(r)} | ${floorCell(r.floor)} |`),
      ]
    : []),
  ...(spreadRow
    ? [
        '',
        '| operations, load spread over all | CPU us/req | req/s | cost per request vs the app alone (target <= 1.02) |',
        '|---|---:|---:|---:|',
        `| ${spreadRow.operations[0]} (the app) | ${spreadRow.aloneCpuUsPerRequest} | ${Math.round(spreadRow.alonePerSecond)} | 1 |`,
        `| ${spreadRow.operations[1]} (twice more) | ${spreadRow.cpuUsPerRequest} | ${Math.round(spreadRow.requestsPerSecond)} |` +
          ` ${spreadRow.costRatio} |`,
      ]
    : []),
].join('\n');
console.log(
  `\n${opts.db}, ${scaleName} scale, ${workers} worker(s), ${connections} connections, ${tool}, ` +
    `${pin ? 'server and load pinned to cores 0 and 1, ' : ''}medians of ${pairs} pairs of ${seconds} s\n\n${table}\n`,
);
const resultsDir = join(ROOT, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `${opts.db}-${scaleName}${workers > 1 ? `-${workers}workers` : ''}.json`);
writeFileSync(file, `${JSON.stringify({ ...report, table }, null, 2)}\n`);
log(`written to ${file}`);
