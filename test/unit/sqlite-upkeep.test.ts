// The SQLite file's upkeep off the request path (store/dialect/sqlite-upkeep.ts; docs/decisions.md,
// "Upkeep off the request path"): the checkpoint thread copies the WAL and counts the pages written,
// the WAL stays under its bound when the thread does not keep up, and the check of a file at start runs
// on a thread of its own: damage it finds is a lasting fault, and readiness can wait for it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { dbStore } from '../../src/store/db-store.js';
import { SqliteDialect, type SqliteOptions } from '../../src/store/dialect/sqlite.js';
import { startUpkeep, type UpkeepReport } from '../../src/store/dialect/sqlite-upkeep.js';
import { run, same } from '../../src/store/sql.js';
import { StoreUnavailableError } from '../../src/store/store.js';
import { eventually } from '../helpers/eventually.js';

const dir = mkdtempSync(join(tmpdir(), 'marginalia-sqlite-upkeep-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const options = (name: string, over: Partial<SqliteOptions> = {}): SqliteOptions => ({
  path: join(dir, name),
  busyTimeoutMs: 1000,
  synchronous: 'NORMAL',
  ...over,
});

const PUT = same('put', 'INSERT INTO kv (k, v) VALUES (@k, @v)');
function schema(d: SqliteDialect): void {
  d.write('schema', function* () {
    yield { op: 'exec', text: 'CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT)' };
  });
}
/** `n` writes of a row each, `bytes` of value. */
function writes(d: SqliteDialect, n: number, bytes = 100, from = 0): void {
  for (let i = from; i < from + n; i++)
    d.write('put', function* () {
      return yield* run(PUT, { k: `k${i}`, v: 'x'.repeat(bytes) });
    });
}

test("the checkpoint thread starts after the first writes; each commit's pages written to the WAL are counted", async () => {
  const d = new SqliteDialect(options('counted.db', { checkpointEveryMs: 20 }));
  try {
    schema(d);
    writes(d, 10);
    assert.equal(d.checkpointStats(), undefined, 'a store that has written little starts no thread');
    writes(d, 54, 100, 10);
    // 65 writes with the schema's: the thread started at the 64th, whose pages and the next one's are counted.
    const started = d.checkpointStats()!.pages;
    assert.ok(started > 0 && started < 10, `${started} pages`);
    writes(d, 100, 100, 64);
    // Each write is a page of the table and its index at least, counted as it commits.
    const pages = d.checkpointStats()!.pages - started;
    assert.ok(pages >= 100 && pages <= 400, `${pages} pages for 100 writes`);
    await eventually('a checkpoint by the thread', () => d.checkpointStats()!.checkpoints >= 1);
    assert.ok(d.checkpointStats()!.seconds > 0);
    // Copied into the file by the thread: a connection of its own sees every row with the WAL gone.
    await eventually('the WAL copied into the file', () => {
      const other = new Database(options('counted.db').path, { readonly: true });
      try {
        return (other.prepare('SELECT count(*) AS n FROM kv').get() as { n: number }).n === 164;
      } finally {
        other.close();
      }
    });
  } finally {
    await d.close();
  }
});

test('a WAL the thread does not copy in time stays under MARGINALIA_SQLITE_WAL_MAX_MB: the commit past it checkpoints', async () => {
  // A thread that waits a minute between checkpoints: only the bound keeps the WAL in check.
  const d = new SqliteDialect(options('bounded.db', { checkpointEveryMs: 60_000, walMaxMb: 1 }));
  try {
    schema(d);
    writes(d, 64);
    // 600 writes of 8 kB: about 5 MB through the WAL.
    writes(d, 600, 8000, 64);
    const wal = statSync(`${options('bounded.db').path}-wal`).size;
    assert.ok(wal < 2 * 1024 * 1024, `the WAL is ${wal} bytes`);
  } finally {
    await d.close();
  }
  const without = new SqliteDialect(options('unbounded.db', { checkpointEveryMs: 60_000, walMaxMb: 64 }));
  try {
    schema(without);
    writes(without, 664, 8000);
    const wal = statSync(`${options('unbounded.db').path}-wal`).size;
    assert.ok(wal > 4 * 1024 * 1024, `the control's WAL is ${wal} bytes: the bound above is what held it`);
  } finally {
    await without.close();
  }
});

test('on one core SQLite checkpoints at the bound instead of the thread: the WAL stays bounded', (t) => {
  // A thread at nice 19 on the one core the writer keeps busy holds the checkpoint lock through copies
  // that rarely get the core, and SQLite answers the writer's checkpoint busy at once. Measured with the
  // thread on one core: the WAL grew to 17-21 MB of the 24 MB written, for a bound of 1 MB, and still to
  // 20 MB under the suite's load with a commit that waited for the lock (docs/decisions.md).
  const path = join(dir, 'starved.db');
  const fixture = fileURLToPath(new URL('../fixtures/wal-starved.ts', import.meta.url));
  const r = spawnSync('taskset', ['-c', '0', process.execPath, '--import', 'tsx', fixture, path, '3000'], { encoding: 'utf8' });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return t.skip('taskset is not installed');
  assert.equal(r.status, 0, r.stderr);
  const { largest } = JSON.parse(r.stdout) as { largest: number };
  assert.ok(largest < 3 * 1024 * 1024, `the WAL reached ${largest} bytes`);
});

/** A file of `rows` rows whose table's root page is then overwritten: quick_check reports it. */
function damagedFile(name: string, rows: number): string {
  const path = join(dir, name);
  const db = new Database(path);
  db.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT)');
  const put = db.prepare('INSERT INTO kv VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) put.run(`k${i}`, 'x'.repeat(200));
  })();
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const root = (db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'kv'`).get() as { rootpage: number }).rootpage;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
  return path;
}

test('a file past MARGINALIA_SQLITE_CHECK_INLINE_MB is checked on a thread after the store opens; damage is a lasting fault', async () => {
  const path = damagedFile('damaged-later.db', 2000);
  const store = dbStore(new SqliteDialect({ ...options('x'), path, checkInlineMb: 0 }));
  try {
    await store.migrate();
    assert.equal(store.check(), 'checking', 'opened without waiting for the check');
    assert.equal(store.fault(), null);
    await store.ping();
    await eventually('the check to end', () => store.check() !== 'checking');
    assert.equal(store.check(), 'damaged');
    assert.equal(store.fault(), 'damaged');
    await assert.rejects(store.ping(), (err) => err instanceof StoreUnavailableError && err.reason === 'damaged');
  } finally {
    await store.close();
  }
  // The same file under the bound is checked before the store opens, and not migrated.
  const inline = dbStore(new SqliteDialect({ ...options('x'), path, checkInlineMb: 16 }));
  try {
    await inline.migrate();
    assert.equal(inline.check(), 'damaged');
    assert.equal(inline.fault(), 'damaged');
  } finally {
    await inline.close();
  }
});

test('with readiness after the check, ping says "checking" until the check on its thread has passed', async () => {
  const path = join(dir, 'sound.db');
  const seed = dbStore(new SqliteDialect({ ...options('x'), path }));
  await seed.migrate();
  await seed.close();
  const store = dbStore(new SqliteDialect({ ...options('x'), path, checkInlineMb: 0 }), undefined, {
    numberingIntervalMs: 20,
    writeBudgetMs: 50,
    mostRowsPerBatch: 1000,
    readyAfterCheck: true,
  });
  try {
    await store.migrate();
    assert.equal(store.check(), 'checking');
    await assert.rejects(store.ping(), (err) => err instanceof StoreUnavailableError && err.reason === 'checking');
    await eventually('the check to pass', () => store.check() === 'passed');
    await store.ping();
    assert.equal(store.fault(), null);
  } finally {
    await store.close();
  }
});

/** Adds rows to the file's FTS5 table and deletes the oldest, in transactions, until killed. */
const FTS_WRITER = `
import Database from 'better-sqlite3';
const db = new Database(process.argv[1]);
db.pragma('busy_timeout = 5000');
const add = db.prepare('INSERT INTO words (rowid, text) VALUES (?, ?)');
const remove = db.prepare('DELETE FROM words WHERE rowid = ?');
let next = 1, oldest = 1;
const text = () => Array.from({ length: 12 }, () => 'w' + Math.floor(Math.random() * 500)).join(' ');
for (;;) db.transaction(() => {
  for (let i = 0; i < 50; i++) add.run(next++, text());
  while (next - oldest > 3000) remove.run(oldest++);
})();`;

test('the check beside a writer finds a sound full-text index sound: each FTS table is checked once a connection', async (t) => {
  // FTS5's own check, run a second time on a connection while another writes, reports a "checksum mismatch" or
  // "corruption found reading blob" in a sound index (SQLite 3.53.0); a connection's first check does not.
  const path = join(dir, 'words.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE VIRTUAL TABLE words USING fts5(text)');
  db.close();
  // An ES module, as runtime.test.ts's child is: on Node 22 the runner's import hooks find better-sqlite3's build for it.
  const writer = spawn(process.execPath, ['--input-type=module', '-e', FTS_WRITER, path], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  writer.stderr.on('data', (d) => {
    said += d;
  });
  t.after(() => writer.kill());
  await eventually(
    () => `the writer to write (it said: ${said})`,
    () => {
      const reader = new Database(path, { readonly: true });
      try {
        return (reader.prepare('SELECT count(*) AS n FROM words').get() as { n: number }).n > 500;
      } finally {
        reader.close();
      }
    },
  );
  for (let i = 0; i < 5; i++) {
    const report = await new Promise<UpkeepReport>((resolve) => startUpkeep({ path, job: 'quick-check' }, resolve));
    assert.deepEqual(report, { checked: [] }, `check ${i + 1}`);
  }
});
