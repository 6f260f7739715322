// npm run bench:pages -- [--scale small|large] [--writes N] [--only text]
// The pages each write costs, counted in the WAL and laid out by table and index. A copy of the bench's
// SQLite dataset is opened by the real app in this process, a reader holds the WAL back (so no
// checkpoint copies and restarts it), each write operation of bench/operations.ts is sent N times,
// and the WAL's frames written meanwhile are read back: every frame is one page written by a commit.
// dbstat then says which table or index each page belongs to. (Large scale: dbstat reads the whole
// file once, a few minutes.)
import { closeSync, copyFileSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { openStore } from '../src/store/open-store.js';
import { SCALES, type ScaleName } from './dataset.js';
import { HEADERS, OPERATIONS } from './operations.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    scale: { type: 'string', default: 'small' },
    writes: { type: 'string', default: '200' },
    only: { type: 'string' },
  },
});
const scaleName = opts.scale as ScaleName;
const scale = SCALES[scaleName];
const writes = Number(opts.writes);
const pristine = join(ROOT, 'bench', '.data', `${scaleName}.db`);
if (!existsSync(pristine)) throw new Error(`no ${pristine}: run npm run bench -- --scale ${scaleName} once to build it`);
const path = join(ROOT, 'bench', '.data', `${scaleName}.pages.db`);
for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
copyFileSync(pristine, path);

const loaded = loadConfig({ DATABASE_URL: `sqlite:${path}`, MARGINALIA_SQLITE_CHECKPOINT_MS: '0', MARGINALIA_RATE_LIMIT: '0' });
if (!loaded.ok) throw new Error(loaded.errors.join('; '));
const store = await openStore(loaded.config);
const app = await buildApp({ config: loaded.config, store });
await app.ready();

// A read transaction held open: checkpoints copy nothing past it, and the WAL is never started over.
const reader = new Database(path, { readonly: true });
reader.prepare('BEGIN').run();
reader.prepare('SELECT count(*) FROM sqlite_schema').get();
const pageSize = reader.pragma('page_size', { simple: true }) as number;
const FRAME = 24 + pageSize;
const walFrames = () => Math.max(0, Math.floor((statSync(`${path}-wal`).size - 32) / FRAME));

/** The page number of each frame from `from` to the WAL's end. */
function framesFrom(from: number): number[] {
  const fd = openSync(`${path}-wal`, 'r');
  const header = Buffer.alloc(4);
  const pages: number[] = [];
  try {
    for (let f = from; f < walFrames(); f++) {
      readSync(fd, header, 0, 4, 32 + f * FRAME);
      pages.push(header.readUInt32BE(0));
    }
  } finally {
    closeSync(fd);
  }
  return pages;
}

const measured: { operation: string; pages: number[]; answers: Record<number, number> }[] = [];
for (const op of OPERATIONS) {
  if (op.kind !== 'write' || (opts.only && !op.name.includes(opts.only))) continue;
  const from = walFrames();
  const answers: Record<number, number> = {};
  for (let n = 0; n < writes; n++) {
    const res = await app.inject({
      method: 'POST',
      url: op.path,
      headers: HEADERS,
      payload: JSON.stringify({ data: op.body!(scale, n) }),
    });
    answers[res.statusCode] = (answers[res.statusCode] ?? 0) + 1;
  }
  measured.push({ operation: op.name, pages: framesFrom(from), answers });
  process.stderr.write(`  ${op.name}: ${((walFrames() - from) / writes).toFixed(1)} pages a write\n`);
}
await app.close();
await store.close();

// Which table or index each page written belongs to (interior and leaf pages alike; overflow pages too).
reader.prepare('COMMIT').run();
const owner = new Map<number, string>();
for (const { name, pageno } of reader.prepare('SELECT name, pageno FROM dbstat').iterate() as Iterable<{
  name: string;
  pageno: number;
}>)
  owner.set(pageno, name);
reader.close();

for (const m of measured) {
  const byOwner = new Map<string, number>();
  for (const p of m.pages)
    byOwner.set(owner.get(p) ?? '(freelist or new)', (byOwner.get(owner.get(p) ?? '(freelist or new)') ?? 0) + 1);
  const rows = [...byOwner].sort((a, b) => b[1] - a[1]);
  console.log(
    `\n${m.operation}: ${(m.pages.length / writes).toFixed(1)} pages a write (${writes} writes, answers ${JSON.stringify(m.answers)})`,
  );
  for (const [name, n] of rows) console.log(`  ${(n / writes).toFixed(2).padStart(6)}  ${name}`);
}
for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
