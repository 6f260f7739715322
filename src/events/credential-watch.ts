// An open stream outlives the request that opened it: a key or token revoked, or a tenant disabled,
// afterwards must not keep receiving events. Every MARGINALIA_EVENT_POLL_MS the watch reads the
// credentials version (which every change to any key, token or tenant moves, on every instance);
// when it has moved since a stream was last checked, that stream's credentials are checked again, and
// a stream they no longer admit is ended with a `close` event that does not invite a resume.
import { ApiError } from '../errors.js';
import type { Maybe } from '../maybe.js';
import type { Store } from '../store/store.js';

/** A stream as the watch sees it: how to end it, and whether it is still open. */
export interface WatchedStream {
  readonly open: boolean;
  end(reason: string, lastEventId: number | null): void;
}

/** Checks the stream's credentials again; rejects (or throws) when they are no longer accepted. */
export type Recheck = () => Maybe<unknown>;

export const REFUSED_REASON = 'The credentials this stream was opened with are no longer accepted (revoked or disabled).';

export class CredentialWatch {
  private readonly streams = new Map<WatchedStream, { recheck: Recheck; checkedAt: number | null }>();
  private readonly timer: NodeJS.Timeout | null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    options: { everyMs: number; onError?: (err: unknown) => void },
  ) {
    const onError = options.onError ?? (() => {});
    this.timer =
      options.everyMs > 0
        ? setInterval(() => {
            if (!this.running && this.streams.size > 0)
              this.running = this.check()
                .catch(onError)
                .finally(() => (this.running = null));
          }, options.everyMs)
        : null;
    this.timer?.unref();
  }

  /**
   * Watches the stream from now until it ends. Its first check comes at the next tick: the version
   * its request was admitted under is not known here, and a change may have come in between.
   */
  watch(stream: WatchedStream, recheck: Recheck): () => void {
    this.streams.set(stream, { recheck, checkedAt: null });
    return () => this.streams.delete(stream);
  }

  get size(): number {
    return this.streams.size;
  }

  /** One round: every stream not checked under the current version is checked; refused ones end. */
  async check(): Promise<void> {
    const version = await this.store.credentialsVersion();
    const due = [...this.streams].filter(([stream, w]) => stream.open && w.checkedAt !== version);
    await Promise.all(
      due.map(async ([stream, w]) => {
        try {
          await w.recheck();
          w.checkedAt = version;
        } catch (err) {
          // Only a refusal ends the stream; a database that does not answer is asked again next time.
          if (!isRefusal(err)) throw err;
          this.streams.delete(stream);
          stream.end(REFUSED_REASON, null);
        }
      }),
    );
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.streams.clear();
  }
}

/** 401 and 403 (a revoked key or token, a disabled tenant) are refusals; anything else is not. */
const isRefusal = (err: unknown): boolean =>
  err instanceof ApiError && (err.code === 'UNAUTHENTICATED' || err.code === 'PERMISSION_DENIED');
