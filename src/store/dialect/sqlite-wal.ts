// The serving connection's side of checkpoints off the request path (docs/decisions.md, "Upkeep off the
// request path"): it counts the pages each commit writes to the WAL, starts the WAL over when the
// checkpoint thread has copied nearly all of it, and checkpoints itself only past the bound. Where the
// process has one CPU there is no thread: SQLite checkpoints at the bound, and this only counts.
import { closeSync, openSync, readSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { CheckpointStats } from './dialect.js';
import { startUpkeep, type UpkeepThread } from './sqlite-upkeep.js';

/** The WAL is started over from a quarter of its bound, and never below this many frames (or the bound, if less). */
const RESTART_LEAST_FRAMES = 1000;
/** Frames left to copy at most for the serving connection to copy them itself and start the WAL over. */
const CATCH_UP_MOST_FRAMES = 256;
/**
 * How long a commit past the bound waits at most for the thread's checkpoint to let go of the
 * checkpoint lock, so that it can copy the WAL itself (catchUp).
 */
const CATCH_UP_WAIT_MS = 250;
/** What Atomics.wait sleeps on: nothing ever wakes it, so each wait is its timeout. */
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

export class WalUpkeep {
  private readonly shm: number;
  private readonly header = Buffer.alloc(100);
  /** None where the process has one CPU: SQLite checkpoints at its commits, at the bound (see the constructor). */
  private readonly thread: UpkeepThread | undefined;
  private readonly stats: CheckpointStats = { checkpoints: 0, pages: 0, seconds: 0 };
  private readonly bound: number;
  private readonly restartAt: number;
  private before = 0;

  constructor(
    private readonly db: Database.Database,
    path: string,
    everyMs: number,
    walMaxMb: number,
    threaded = true,
  ) {
    this.shm = openSync(`${path}-shm`, 'r');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    this.bound = Math.max(1, Math.floor((walMaxMb * 1024 * 1024) / pageSize));
    this.restartAt = Math.min(this.bound, Math.max(RESTART_LEAST_FRAMES, Math.floor(this.bound / 4)));
    // One CPU (a container's, or `taskset`): the thread could only take the core the event loop works
    // on, and at nice 19 it holds the checkpoint lock through copies that rarely get the core. Even a
    // commit that waits for the lock (catchUp) was measured to lose to it under other processes' load
    // (docs/decisions.md, "Upkeep off the request path", point 4). So SQLite checkpoints at its
    // commits, at the bound, and this connection only counts the pages.
    if (!threaded) {
      db.pragma(`wal_autocheckpoint = ${this.bound}`);
      return;
    }
    // SQLite's own checkpoint at a commit stays, at twice the bound, should this one's fail.
    db.pragma(`wal_autocheckpoint = ${this.bound * 2}`);
    this.thread = startUpkeep({ path, job: 'checkpoints', everyMs }, (report) => {
      if (!('checkpoint' in report)) return;
      this.stats.checkpoints++;
      this.stats.seconds += report.checkpoint.seconds;
    });
  }

  /**
   * The WAL's frames and those copied into the file, from the WAL-index (the -shm file, which SQLite
   * maps into memory: mxFrame at byte 16 of its header, nBackfill at byte 96; sqlite.org/walformat.html).
   * One read of 100 bytes, about a microsecond. Undefined when it cannot be read: this is bookkeeping,
   * and never fails the write it follows.
   */
  private wal(): { frames: number; copied: number } | undefined {
    try {
      readSync(this.shm, this.header, 0, 100, 0);
    } catch {
      return undefined;
    }
    return { frames: this.header.readUInt32LE(16), copied: this.header.readUInt32LE(96) };
  }

  /** Before a write transaction. */
  beforeWrite(): void {
    this.before = this.wal()?.frames ?? 0;
  }

  /**
   * After a write transaction committed: its pages counted (a WAL started over at its BEGIN holds only
   * them), then, when the WAL is long enough, the frames the thread has not copied yet are copied here
   * so that the next BEGIN starts the WAL over. Under steady writes the thread never sees a WAL wholly
   * copied (frames arrive while it copies), and the WAL would grow to its bound and stay there. Past
   * the bound this connection copies whatever is left itself: the thread has fallen behind (it yields
   * to the event loop on a busy core).
   */
  afterCommit(): void {
    const wal = this.wal();
    if (!wal) return;
    const { frames, copied } = wal;
    this.stats.pages += frames >= this.before ? frames - this.before : frames;
    if (!this.thread) return;
    if (frames >= this.bound) this.catchUp();
    else if (frames >= this.restartAt && frames - copied <= CATCH_UP_MOST_FRAMES) this.checkpoint();
  }

  /**
   * Past the bound: copies the WAL here. A checkpoint needs the checkpoint lock, and SQLite answers busy
   * at once, without its busy handler, while another connection holds it. The thread holds it for as
   * long as its copy takes, and at nice 19 on a saturated core that copy gets the core only in the
   * loop's rare idle moments: measured on the bench's large file, the serving connection found the lock
   * held at nearly every commit, the WAL never started over, and it grew past 500 MB in 6 s of
   * notifications/add. So this waits for the lock, asleep (which gives the core to the thread), for at
   * most CATCH_UP_WAIT_MS; the next commit tries again should that not be enough.
   */
  private catchUp(): void {
    const until = performance.now() + CATCH_UP_WAIT_MS;
    while (this.checkpoint() && performance.now() < until) Atomics.wait(SLEEP, 0, 0, 1);
  }

  /** A PASSIVE checkpoint; answers true when it could not start: another connection's holds the lock. */
  private checkpoint(): boolean {
    const started = performance.now();
    try {
      const [r] = this.db.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[];
      if (r?.busy) return true;
      this.stats.checkpoints++;
      this.stats.seconds += (performance.now() - started) / 1000;
    } catch {
      // The next write meets the same fault, and reports it.
    }
    return false;
  }

  counted(): CheckpointStats {
    return { ...this.stats };
  }

  async stop(): Promise<void> {
    await this.thread?.stop();
    closeSync(this.shm);
  }
}
