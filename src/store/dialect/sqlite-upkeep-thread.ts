// The SQLite file's upkeep, on a thread of its own with a connection of its own, so that none of it
// holds the event loop (docs/decisions.md, "Upkeep off the request path"): one thread copies the WAL
// into the file (checkpoints) for as long as the store is open, another checks the file for damage
// after start and ends. Started by sqlite-upkeep.ts; each reports by message. The store's close ends
// them (Worker.terminate: better-sqlite3 closes a thread's connections as the thread ends).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { UpkeepData, UpkeepReport } from './sqlite-upkeep.js';

const data = workerData as UpkeepData;

// The lowest CPU priority for this thread (Linux: a thread has its own nice value, set through its id):
// on a busy core its checkpoints and its check take what the event loop leaves, so a request is not
// slowed by them; should they fall behind, the serving connection copies the rest itself at the WAL's
// bound (sqlite-wal.ts). Measured with server and thread on one core under load: at the event loop's
// priority, notifications/add's p99 was 69 ms against 41 ms with SQLite's own checkpoints.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19);
} catch {
  // Not Linux, or not allowed: the thread runs at the process's priority.
}
const port = parentPort!;
const report = (r: UpkeepReport) => port.postMessage(r);
const db = new Database(data.path);
// This connection writes nothing and reads each page once: a small cache, and no checkpoint of its own.
db.pragma('cache_size = -2048');
db.pragma('wal_autocheckpoint = 0');

let copied = 0;
function checkpoint(): void {
  const started = performance.now();
  try {
    // PASSIVE: copies what no reader still needs and never waits; what is left goes at the next one.
    // The serving connection counts the pages written and starts the WAL over (sqlite-wal.ts).
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    if (r!.checkpointed > 0 && r!.checkpointed !== copied)
      report({ checkpoint: { seconds: (performance.now() - started) / 1000 } });
    copied = r!.checkpointed;
  } catch (err) {
    report({ failed: `checkpoint: ${(err as Error).message}` });
  }
}

/**
 * PRAGMA quick_check (or integrity_check) one table at a time, each its own read: a check of the whole
 * file would hold one snapshot for as long as it reads, and no checkpoint could start the WAL over
 * meanwhile. The last step checks the file as a whole (pages used twice or never), as the pragma
 * without a table does. Virtual tables (the FTS5 search index) are checked by that last step only:
 * their tables of pages are checked one by one as any other, and FTS5's own check, run a second time on
 * a connection while another connection writes, reports damage in a sound index ("checksum mismatch",
 * "corruption found reading blob"; docs/decisions.md, "Search (issue 41)").
 */
function check(full: boolean): void {
  const pragma = full ? 'integrity_check' : 'quick_check';
  const damage: string[] = [];
  // Each row of the pragma says "ok" or one problem.
  const note = (rows: unknown) => {
    for (const row of rows as Record<string, string>[]) {
      const said = Object.values(row)[0]!;
      if (said !== 'ok') damage.push(said);
    }
  };
  try {
    const tables = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name`,
      )
      .pluck()
      .all() as string[];
    for (const table of tables) {
      note(db.pragma(`${pragma}('${table.replaceAll("'", "''")}')`));
      if (damage.length >= 20) break;
    }
    if (damage.length === 0) note(db.pragma(`${pragma}(20)`));
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (!code.startsWith('SQLITE_CORRUPT') && code !== 'SQLITE_NOTADB') {
      report({ failed: `check: ${(err as Error).message}` });
      return;
    }
    damage.push((err as Error).message);
  }
  report({ checked: damage.slice(0, 20) });
}

if (data.job === 'checkpoints') setInterval(checkpoint, data.everyMs);
else {
  check(data.job === 'full-check');
  db.close();
  port.close();
}
