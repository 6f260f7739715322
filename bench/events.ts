// npm run bench:events -- [--db sqlite|postgres] [--only outbox,streams,webhooks]
//   [--pairs N] [--slice S] [--connections N]                       (outbox)
//   [--streams N] [--rate R] [--seconds S] [--warmup S]               (streams)
//   [--webhook-events N]                                              (webhooks)
//   [--cpu-prof DIR]: a CPU profile of each server, written when it stops
// Three measurements of the events of issue 16 (docs/events.md, "Events") against the real server, each on a fresh
// database, with the server pinned to core 0 and every client to core 1 (as bench/run.ts does):
//   outbox:   notifications/add with the outbox against the code before it (the commit BEFORE_OUTBOX,
//             built in a temporary git worktree), alternating short wrk slices between the two servers;
//   streams:  the time from a write's 200 to its event on each of 1,000 open streams, at a steady rate;
//   webhooks: events delivered per second to a local receiver, and that all came, in order per organization.
// Prints a table and writes bench/results/events-<db>.json.
import { execFileSync, fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { BENCH_CREDENTIALS } from './dataset.js';
import { type StreamSpec, summary, type WriteRecord } from './events-client.js';
import { freePort } from '../test/helpers/server-process.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The release before the outbox: notifications/add as it was, for (a). */
const BEFORE_OUTBOX = '33b5b2c';

const { values: opts } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    only: { type: 'string', default: 'outbox,streams,webhooks' },
    pairs: { type: 'string', default: '10' },
    slice: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    streams: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '2' },
    'webhook-events': { type: 'string', default: '5000' },
    tool: { type: 'string' },
    // Writes a CPU profile of each server (node --cpu-prof) into this folder, for where the time goes.
    'cpu-prof': { type: 'string' },
  },
});
if (opts.db !== 'sqlite' && opts.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
const only = new Set(opts.only.split(','));
for (const o of only)
  if (!['outbox', 'streams', 'webhooks'].includes(o)) throw new Error(`--only lists ${o}: not outbox, streams or webhooks`);
const installed = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const tool = opts.tool ?? (installed('wrk') ? 'wrk' : 'autocannon');
const pin = cpus().length >= 2 && installed('taskset');
const pinned = (core: number, cmd: string, args: string[]): [string, string[]] =>
  pin ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args];
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HEADERS = { 'x-service-api-key': BENCH_CREDENTIALS.apiKey, 'x-service-auth-token': BENCH_CREDENTIALS.authToken };
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TMP = mkdtempSync(join(tmpdir(), 'marginalia-bench-events-'));

// ---- processes ------------------------------------------------------------------------------------

interface Server {
  proc: ChildProcess;
  url: string;
  name: string;
  pgSchema?: string;
}

const schemas: string[] = [];
async function pgQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database for one server: a new SQLite file, or a new PostgreSQL schema. */
async function freshDatabase(name: string): Promise<Record<string, string>> {
  if (opts.db === 'sqlite') return { DATABASE_URL: `sqlite:${join(TMP, `${name}.db`)}` };
  const schema = `bench_events_${name.replace(/\W/g, '_')}`;
  await pgQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  schemas.push(schema);
  return { DATABASE_URL: PG_URL, MARGINALIA_PG_SCHEMA: schema };
}

/** The real server (`main` is a dist/main.js), on core 0, with the bench credentials, on a fresh database. */
async function startServer(name: string, main: string, extra: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const profile = opts['cpu-prof']
    ? ['--cpu-prof', `--cpu-prof-dir=${opts['cpu-prof']}`, `--cpu-prof-name=${name}.cpuprofile`]
    : [];
  const [cmd, args] = pinned(0, process.execPath, [...profile, main, 'serve']);
  const proc = spawn(cmd, args, {
    env: {
      ...process.env,
      ...(await freshDatabase(name)),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      MARGINALIA_RATE_LIMIT: '0',
      MARGINALIA_WORKERS: '1',
      MARGINALIA_API_KEY: BENCH_CREDENTIALS.apiKey,
      MARGINALIA_AUTH_TOKEN: BENCH_CREDENTIALS.authToken,
      ...extra,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`the ${name} server exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { proc, url, name };
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  throw new Error(`the ${name} server did not become ready`);
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server || server.proc.exitCode !== null) return;
  const exited = new Promise((r) => server.proc.once('exit', r));
  server.proc.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
}

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The processes a server's CPU is counted over: it, and PostgreSQL's when that is the database. */
function pidsOf(server: Server): number[] {
  const pgPids =
    opts.db === 'postgres'
      ? spawnSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number)
      : [];
  return [server.proc.pid!, ...pgPids];
}

/** CPU time (user + system) the processes have used so far, in microseconds. */
function cpuMicros(pids: number[]): number {
  let ticks = 0;
  for (const p of pids) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* gone */
    }
  }
  return (ticks / TICKS_PER_SECOND) * 1e6;
}

function rssMb(pid: number): number {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** bench/load.ts (wrk or autocannon) on core 1 for `secs` seconds. */
function load(url: string, operation: string, secs: number): Promise<any> {
  return new Promise((resolve, reject) => {
    const [cmd, args] = pinned(1, process.execPath, [
      '--import',
      'tsx',
      join(ROOT, 'bench', 'load.ts'),
      JSON.stringify({ url, operation, scale: 'small', connections: Number(opts.connections), seconds: secs, tool }),
    ]);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load exited ${code}`))));
  });
}

/** A role of bench/events-client.ts in its own process on core 1, spoken to over IPC. */
function client(role: 'streams' | 'writer' | 'receiver', core = 1) {
  // fork cannot go through taskset: the child is pinned (all its threads) once it runs.
  const child = fork(join(ROOT, 'bench', 'events-client.ts'), [role], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (pin && core >= 0) spawnSync('taskset', ['-a', '-cp', String(core), String(child.pid)], { stdio: 'ignore' });
  const messages: any[] = [];
  const waiting: ((m: any) => void)[] = [];
  child.on('message', (m) => {
    const w = waiting.shift();
    if (w) w(m);
    else messages.push(m);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    send: (m: unknown) => child.send(m as any),
    next: (): Promise<any> => {
      const ready = messages.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        waiting.push(resolve);
        void exited.then(() => reject(new Error(`the ${role} client exited`)));
      });
    },
    exited,
  };
}

/**
 * The CPU that processes other than this bench's (and PostgreSQL's, when it is the database) used
 * meanwhile, as a share of the machine: this machine is shared, and what others ran during a
 * measurement is part of reading it.
 */
function othersLoad(): { stop: () => number } {
  const last = new Map<number, number>();
  let others = 0;
  const started = process.hrtime.bigint();
  const sample = (count: boolean) => {
    const parent = new Map<number, number>();
    const ticks = new Map<number, number>();
    const names = new Map<number, string>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        const fields = stat.slice(close + 2).split(' ');
        const pid = Number(entry);
        names.set(pid, stat.slice(stat.indexOf('(') + 1, close));
        parent.set(pid, Number(fields[1]));
        ticks.set(pid, Number(fields[11]) + Number(fields[12]));
      } catch {
        /* gone */
      }
    }
    const ours = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === process.pid) return true;
      return opts.db === 'postgres' && names.get(pid) === 'postgres';
    };
    for (const [pid, t] of ticks) {
      if (count && !ours(pid)) others += t - (last.get(pid) ?? t);
      last.set(pid, t);
    }
  };
  sample(false);
  const timer = setInterval(() => sample(true), 500);
  return {
    stop() {
      clearInterval(timer);
      sample(true);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      return round(others / TICKS_PER_SECOND / seconds / cpus().length, 2);
    },
  };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

/** Each store method's total seconds and calls so far, from the server's /metrics. */
async function storeCalls(url: string): Promise<Map<string, { sum: number; count: number }>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const calls = new Map<string, { sum: number; count: number }>();
  for (const m of text.matchAll(/^marginalia_store_call_duration_seconds_(sum|count)\{[^}]*method="([^"]+)"[^}]*\} (\S+)$/gm)) {
    const entry = calls.get(m[2]!) ?? { sum: 0, count: 0 };
    entry[m[1] as 'sum' | 'count'] += Number(m[3]);
    calls.set(m[2]!, entry);
  }
  return calls;
}

/** The mean time of each store call made between two scrapes, in microseconds (the calls made most). */
function callMeans(
  before: Map<string, { sum: number; count: number }>,
  after: Map<string, { sum: number; count: number }>,
): Record<string, { calls: number; meanUs: number }> {
  const out: Record<string, { calls: number; meanUs: number }> = {};
  for (const [method, a] of after) {
    const b = before.get(method) ?? { sum: 0, count: 0 };
    const calls = a.count - b.count;
    if (calls > 0) out[method] = { calls, meanUs: round(((a.sum - b.sum) / calls) * 1e6) };
  }
  return out;
}

// ---- (a) the outbox's cost on notifications/add ---------------------------------------------------

/** The code before the outbox, built in a temporary worktree outside the repository; removed after. */
function buildBeforeOutbox(): { main: string; remove: () => void } {
  const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: 'pipe' });
  try {
    git('rev-parse', '--verify', `${BEFORE_OUTBOX}^{commit}`);
  } catch (err) {
    throw new Error(
      `the outbox measurement compares against commit ${BEFORE_OUTBOX}, which git cannot find here ` +
        `(${String((err as Error).message).split('\n')[0]}): run it in a clone with that history, or --only streams,webhooks`,
    );
  }
  const tree = join(TMP, 'before-outbox');
  log(`building ${BEFORE_OUTBOX} (before the outbox) in ${tree}...`);
  git('worktree', 'add', '-f', '--detach', tree, BEFORE_OUTBOX);
  const remove = () => {
    try {
      git('worktree', 'remove', '--force', tree);
    } catch {
      rmSync(tree, { recursive: true, force: true });
      git('worktree', 'prune');
    }
  };
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: tree,
      stdio: 'inherit',
    });
  } catch (err) {
    remove();
    throw err;
  }
  return { main: join(tree, 'dist', 'main.js'), remove };
}

/** The write the outbox is measured on, and a read it does not touch (what else differs between the builds). */
const OUTBOX_WRITE = 'notifications/add (2 recipients)';
const OUTBOX_CONTROL = 'notifications/get, empty result';

async function outboxCost() {
  const pairs = Number(opts.pairs);
  const slice = Number(opts.slice);
  const before = buildBeforeOutbox();
  let old: Server | undefined;
  let now: Server | undefined;
  try {
    old = await startServer('before-outbox', before.main);
    now = await startServer('outbox', join(ROOT, 'dist', 'main.js'));
    log(`outbox: ${pairs} pairs of ${slice} s slices of ${OUTBOX_WRITE} (and of ${OUTBOX_CONTROL}), ${tool}, alternating`);
    for (const s of [old, now]) for (const op of [OUTBOX_WRITE, OUTBOX_CONTROL]) await load(s.url, op, 3); // warm up
    const runs: Record<string, { without: any; with: any }[]> = { [OUTBOX_WRITE]: [], [OUTBOX_CONTROL]: [] };
    const others = othersLoad();
    for (let pair = 0; pair < pairs; pair++) {
      // Which goes first alternates, so a drift of the machine falls on both sides alike.
      const order = pair % 2 === 0 ? [old, now] : [now, old];
      for (const op of [OUTBOX_WRITE, OUTBOX_CONTROL]) {
        const got: Record<string, any> = {};
        for (const s of order) {
          const pids = pidsOf(s);
          const calls = await storeCalls(s.url);
          const cpu = cpuMicros(pids);
          const r = await load(s.url, op, slice);
          const cpuUsPerRequest = round((cpuMicros(pids) - cpu) / Math.max(1, r.total));
          // The store's own account of its calls (the write's transaction): where the difference lies.
          const storeCallsUs = callMeans(calls, await storeCalls(s.url));
          got[s.name] = { ...r, cpuUsPerRequest, rssMb: rssMb(s.proc.pid!), storeCallsUs };
        }
        runs[op]!.push({ without: got['before-outbox'], with: got.outbox });
        log(
          `  pair ${pair + 1}, ${op}: without ${Math.round(got['before-outbox'].requestsPerSecond)} req/s, ` +
            `with ${Math.round(got.outbox.requestsPerSecond)} req/s`,
        );
      }
    }
    const summarize = (op: string, method: string) => {
      const list = runs[op]!;
      const side = (k: 'with' | 'without') => ({
        requestsPerSecond: Math.round(median(list.map((r) => r[k].requestsPerSecond))),
        cpuUsPerRequest: round(median(list.map((r) => r[k].cpuUsPerRequest))),
        p50: round(median(list.map((r) => r[k].p50)), 2),
        p99: round(median(list.map((r) => r[k].p99)), 2),
        unexpected: list.reduce((n, r) => n + r[k].non2xx + r[k].errors, 0),
        storeCallUs: round(median(list.map((r) => r[k].storeCallsUs?.[method]?.meanUs ?? 0))),
      });
      return {
        operation: op,
        storeMethod: method,
        without: side('without'),
        with: side('with'),
        // Medians over the pairs of each pair's own ratio.
        ratio: round(median(list.map((r) => r.with.requestsPerSecond / r.without.requestsPerSecond)), 3),
        cpuRatio: round(median(list.map((r) => r.without.cpuUsPerRequest / r.with.cpuUsPerRequest)), 3),
        runs: list,
      };
    };
    const write = summarize(OUTBOX_WRITE, 'addNotification');
    const control = summarize(OUTBOX_CONTROL, 'getNotifications');
    const result = {
      before: BEFORE_OUTBOX,
      pairs,
      sliceSeconds: slice,
      connections: Number(opts.connections),
      tool,
      ...write,
      target: 0.85,
      control,
      othersCpuShare: others.stop(),
    };
    log(
      `  outbox: ratio ${result.ratio} (req/s), ${result.cpuRatio} (CPU per request); the read: ${control.ratio}, ${control.cpuRatio}`,
    );
    return result;
  } finally {
    await stop(old);
    await stop(now);
    before.remove();
  }
}

// ---- (b) write-to-stream latency with many open streams -------------------------------------------

const STREAM_ORGS = ['org-0', 'org-1', 'org-2', 'org-3', 'org-4'];
const DOCUMENTS = 10;

/** The mix of filters: most on org-0 (some by type, some by document), some unfiltered, some elsewhere. */
function streamSpecs(n: number): StreamSpec[] {
  const specs: StreamSpec[] = [];
  for (let s = 0; s < n; s++) {
    const k = s % 20;
    if (k < 12)
      specs.push({ organizationId: 'org-0' }); // 60%
    else if (k < 15)
      specs.push({ organizationId: 'org-0', types: 'notification.*' }); // 15%
    else if (k < 17)
      specs.push({ organizationId: 'org-0', documentId: `doc-${s % DOCUMENTS}` }); // 10%
    else if (k < 18)
      specs.push({ types: 'notification.add,comment.*' }); // 5%, the whole tenant
    else if (k < 19)
      specs.push({}); // 5%, the whole tenant
    else specs.push({ organizationId: STREAM_ORGS[1 + (s % 4)]! }); // 5%, other organizations
  }
  return specs;
}

async function streamLatency() {
  const n = Number(opts.streams);
  const rate = Number(opts.rate);
  const count = Math.round(rate * Number(opts.seconds));
  const server = await startServer('streams', join(ROOT, 'dist', 'main.js'));
  const streams = client('streams');
  try {
    const specs = streamSpecs(n);
    streams.send({ url: server.url, headers: HEADERS, specs, maxWrites: count });
    const ready = await streams.next();
    log(`streams: ${n} open in ${round(ready.openMs / 1000)} s; ${count} writes at ${rate}/s`);
    const rssBefore = rssMb(server.proc.pid!);
    const pids = pidsOf(server);
    const cpu = cpuMicros(pids);
    const others = othersLoad();
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.proc.pid!));
    }, 250);
    const writer = client('writer', Number(process.env.BENCH_WRITER_CORE ?? 1));
    writer.send({
      url: server.url,
      headers: HEADERS,
      rate,
      count,
      concurrency: 16,
      organizations: STREAM_ORGS,
      firstShare: 0.9,
      documents: DOCUMENTS,
    });
    const written = (await writer.next()) as { records: WriteRecord[]; startedUs: number; endedUs: number };
    await writer.exited;
    await sleep(3000); // late events still count; lost ones stay lost
    // The first seconds warm the server and the clients up (JIT, statements, buffers): checked for loss only.
    const warm = Math.round(rate * Number(opts.warmup));
    for (const r of written.records) r.warm = r.i < warm;
    clearInterval(sampler);
    const serverCpuSeconds = (cpuMicros(pids) - cpu) / 1e6;
    const wallSeconds = (written.endedUs - written.startedUs) / 1e6 + 3;
    streams.send({ writes: written.records });
    const got = await streams.next();
    const writeLatency = summary(
      written.records.filter((r) => !r.warm && r.status === 200).map((r) => (r.answeredUs - r.sentUs) / 1000),
    );
    const failed = written.records.filter((r) => r.status !== 200).length;
    const result = {
      streams: n,
      rate,
      writes: count,
      warmupWrites: warm,
      failedWrites: failed,
      ...got,
      writeLatencyMs: writeLatency,
      serverCpuShare: round(serverCpuSeconds / wallSeconds, 2),
      serverRssMb: { before: rssBefore, peak },
      othersCpuShare: others.stop(),
      target: { p99Ms: 50, lost: 0 },
    };
    log(
      `  ${got.delivered} deliveries of ${got.expected} expected, lost ${got.lost}; ` +
        `from the 200: p50 ${got.latencies.p50} ms, p99 ${got.latencies.p99} ms, max ${got.latencies.max} ms`,
    );
    return result;
  } finally {
    streams.child.kill();
    await stop(server);
  }
}

// ---- (c) webhook delivery rate --------------------------------------------------------------------

async function webhookRate() {
  if (!existsSync(join(ROOT, 'dist', 'operations', 'webhooks.js')))
    throw new Error('webhooks/add is not built (dist/operations/webhooks.js): npm run build, or --only outbox,streams');
  const count = Number(opts['webhook-events']);
  const server = await startServer('webhooks', join(ROOT, 'dist', 'main.js'), { MARGINALIA_WEBHOOK_ALLOW_PRIVATE: '1' });
  const receiver = client('receiver');
  try {
    receiver.send({});
    const { url: hookUrl } = await receiver.next();
    const added = await fetch(`${server.url}/v1/webhooks/add`, {
      method: 'POST',
      headers: { ...HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { url: hookUrl, events: ['notification.add'] } }),
    });
    if (!added.ok) throw new Error(`webhooks/add answered ${added.status}: ${await added.text()}`);
    const { secret } = ((await added.json()) as { result: { data: { secret: string } } }).result.data;
    receiver.send({ secret });
    await receiver.next();
    const pids = pidsOf(server);
    const cpu = cpuMicros(pids);
    const others = othersLoad();
    const writer = client('writer');
    writer.send({
      url: server.url,
      headers: HEADERS,
      rate: 0,
      count,
      concurrency: 10,
      organizations: STREAM_ORGS,
      firstShare: 0.2,
      documents: DOCUMENTS,
    });
    const written = (await writer.next()) as { records: WriteRecord[]; startedUs: number; endedUs: number };
    await writer.exited;
    const ok = written.records.filter((r) => r.status === 200).length;
    log(`webhooks: ${count} writes in ${round((written.endedUs - written.startedUs) / 1e6, 2)} s; waiting for the deliveries`);
    // Until every write's event has come, or nothing new has for 20 s.
    let last = -1;
    let still = 0;
    for (;;) {
      receiver.send({ count: true });
      const { count: delivered } = await receiver.next();
      if (delivered >= ok) break;
      still = delivered === last ? still + 1 : 0;
      if (still >= 40) break;
      last = delivered;
      await sleep(500);
    }
    const serverCpuSeconds = (cpuMicros(pids) - cpu) / 1e6;
    receiver.send({ finish: true });
    const { deliveries, bad } = (await receiver.next()) as {
      deliveries: { atUs: number; webhookId: string; eventId: number; organizationId: string }[];
      bad: number;
    };
    const seen = new Set<number>();
    let duplicates = 0;
    let outOfOrder = 0;
    const lastOf = new Map<string, number>();
    for (const d of deliveries) {
      if (seen.has(d.eventId)) duplicates++;
      seen.add(d.eventId);
      const prev = lastOf.get(d.organizationId) ?? 0;
      if (d.eventId < prev) outOfOrder++;
      else lastOf.set(d.organizationId, d.eventId);
    }
    const lastAt = Math.max(...deliveries.map((d) => d.atUs));
    const firstAt = Math.min(...deliveries.map((d) => d.atUs));
    const seconds = (lastAt - written.startedUs) / 1e6;
    const result = {
      events: count,
      organizations: STREAM_ORGS.length,
      writes: { ok, seconds: round((written.endedUs - written.startedUs) / 1e6, 2) },
      writesPerSecond: Math.round(ok / ((written.endedUs - written.startedUs) / 1e6)),
      delivered: seen.size,
      missing: ok - seen.size,
      duplicates,
      outOfOrder,
      // Deliveries whose Standard Webhooks signature did not verify with the webhook's secret (or did not parse).
      badSignatures: bad,
      seconds: round(seconds, 2),
      deliveredPerSecond: Math.round(seen.size / seconds),
      firstDeliveryAfterMs: round((firstAt - written.startedUs) / 1000),
      lastDeliveryAfterLastWriteMs: round((lastAt - written.endedUs) / 1000),
      serverCpuUsPerEvent: round((serverCpuSeconds * 1e6) / Math.max(1, seen.size)),
      othersCpuShare: others.stop(),
    };
    log(
      `  ${result.delivered} of ${ok} delivered in ${result.seconds} s: ${result.deliveredPerSecond}/s; ` +
        `missing ${result.missing}, out of order ${outOfOrder}, duplicates ${duplicates}`,
    );
    return result;
  } finally {
    receiver.child.kill();
    await stop(server);
  }
}

// ---- the run --------------------------------------------------------------------------------------

if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('no dist/main.js: npm run build first');
const results: Record<string, any> = {};
try {
  if (only.has('outbox')) results.outbox = await outboxCost();
  if (only.has('streams')) results.streams = await streamLatency();
  if (only.has('webhooks')) results.webhooks = await webhookRate();
} finally {
  rmSync(TMP, { recursive: true, force: true });
  for (const s of schemas) await pgQuery(`DROP SCHEMA IF EXISTS ${s} CASCADE`).catch(() => {});
}

const resultsDir = join(ROOT, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `events-${opts.db}.json`);
// A run of some of the measurements (--only) keeps the others' last results; each has its own date.
const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>) : {};
const date = new Date().toISOString();
for (const k of Object.keys(results)) results[k] = { date, ...results[k] };
const shown = { outbox: kept.outbox, streams: kept.streams, webhooks: kept.webhooks, ...results };

// The last column: how much of the machine other processes took meanwhile (this machine is shared).
const lines: string[] = ["| measurement | result | target | others' CPU |", '|---|---|---|---:|'];
const row = (what: string, result: string, target: string, m: { othersCpuShare?: number }) =>
  lines.push(`| ${what} | ${result} | ${target} | ${Math.round((m.othersCpuShare ?? 0) * 100)}% |`);
const a = shown.outbox;
if (a) {
  const side = (x: any) =>
    `${x.requestsPerSecond} req/s, ${x.cpuUsPerRequest} us CPU/req, p99 ${x.p99} ms, store call ${x.storeCallUs} us`;
  row(`${a.operation} without the outbox (${a.before})`, side(a.without), '', a);
  row(`${a.operation} with the outbox`, side(a.with), '', a);
  row(`with / without (median of ${a.pairs} pairs)`, `${a.ratio} req/s, ${a.cpuRatio} CPU`, '>= 0.85', a);
  if (a.control) {
    row(`${a.control.operation} (control) without / with`, `${side(a.control.without)} / ${side(a.control.with)}`, '', a);
    row('control: with / without', `${a.control.ratio} req/s, ${a.control.cpuRatio} CPU`, '', a);
  }
}
const b = shown.streams;
if (b) {
  const l = b.latencies;
  row(
    `write's 200 to its event, ${b.streams} streams, ${b.rate} writes/s`,
    `p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms (${b.measured} deliveries after ${b.warmupWrites} warm-up writes)`,
    'p99 < 50 ms',
    b,
  );
  row('events lost / duplicated / unexpected', `${b.lost} / ${b.duplicates} / ${b.unexpected}`, '0 lost', b);
}
const c = shown.webhooks;
if (c)
  row(
    `webhook deliveries, ${c.events} events over ${c.organizations} organizations`,
    `${c.deliveredPerSecond} events/s (${c.delivered} in ${c.seconds} s), missing ${c.missing}, out of order ${c.outOfOrder}`,
    'all, in order',
    c,
  );
const table = lines.join('\n');
console.log(`\nevents, ${opts.db}${pin ? ', server on core 0, clients on core 1' : ''}\n\n${table}\n`);
const machine = {
  cpu: cpus()[0]?.model,
  cores: cpus().length,
  memoryGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
writeFileSync(file, `${JSON.stringify({ ...kept, db: opts.db, pinned: pin, machine, ...results, table }, null, 2)}\n`);
log(`written to ${file}`);
