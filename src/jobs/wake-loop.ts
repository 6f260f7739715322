// The loop the background workers share (the webhook worker, the email sender): a run on every poll and whenever
// something is ready (wake), never two runs at once (a wake during a run asks for one more after it), a failing
// store said once in the log rather than on every poll, and a stop that waits for the run under way.

export interface WakeLoopLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface WakeLoopOptions {
  pollMs: number;
  run: () => Promise<void>;
  log: WakeLoopLog;
  /** Logged once when runs start failing, with the error. */
  failing: string;
  /** Logged once when a run succeeds again after failing. */
  recovered: string;
}

export class WakeLoop {
  private poll: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private failed = false;
  private ended = false;

  constructor(private readonly options: WakeLoopOptions) {}

  /** Whether stop() was called: a run checks it between steps and hands over nothing new. */
  get stopped(): boolean {
    return this.ended;
  }

  start(): void {
    if (this.ended) return;
    this.poll = setInterval(() => this.wake(), this.options.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** Runs now; a run under way runs once more after. */
  wake(): void {
    if (this.ended) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.options
      .run()
      .then(
        () => {
          if (this.failed) this.options.log.info({}, this.options.recovered);
          this.failed = false;
        },
        (err: unknown) => {
          if (!this.failed) this.options.log.warn({ err }, this.options.failing);
          this.failed = true;
        },
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** One more run after this one: the run claimed as much as it had room for, so more may be waiting. */
  runAgain(): void {
    this.again = true;
  }

  /** No more runs; resolves when the run under way has ended. */
  async stop(): Promise<void> {
    this.ended = true;
    if (this.poll) clearInterval(this.poll);
    await this.running;
  }
}

/** Waits for every promise to settle, or `ms`, whichever comes first (a drain with a deadline). */
export async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(promises),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
