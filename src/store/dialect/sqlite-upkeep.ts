// Starts the SQLite file's upkeep threads (sqlite-upkeep-thread.ts) and hears their reports: the
// checkpoints that copy the WAL into the file, and the check for damage after start.
import { Worker } from 'node:worker_threads';

/** What a thread is started with: the file, and its one job. */
export type UpkeepData = { path: string } & ({ job: 'checkpoints'; everyMs: number } | { job: 'quick-check' | 'full-check' });

/** What a thread tells: a checkpoint that copied frames (its time), the damage its check found ([]: none), or a failure. */
export type UpkeepReport = { checkpoint: { seconds: number } } | { checked: string[] } | { failed: string };

/**
 * The thread's module: the built file next to this one, or, when this runs as TypeScript (tests, through
 * tsx), the source, with tsx registered in the thread first (a worker does not inherit the loader).
 */
function threadModule(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./sqlite-upkeep-thread.js', here);
  const source = new URL('./sqlite-upkeep-thread.ts', here).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** A running upkeep thread; stop() ends it (a check in progress is abandoned). */
export interface UpkeepThread {
  stop(): Promise<void>;
}

export function startUpkeep(data: UpkeepData, onReport: (report: UpkeepReport) => void): UpkeepThread {
  const worker = new Worker(threadModule(), { workerData: data });
  // The store's close() stops it; a store never closed (a test's, a CLI command's) must not keep the process alive.
  worker.unref();
  worker.on('message', onReport);
  worker.on('error', (err) => onReport({ failed: err.message }));
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      await worker.terminate();
      await ended;
    },
  };
}
