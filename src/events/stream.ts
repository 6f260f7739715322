// One Server-Sent Events stream of GET /v1/events (docs/events.md, "The live stream: GET /v1/events"): the events
// its filters and its scope let through, each as `id: <event id>` and `data: <the event's JSON>` (no `event:`
// field, so a browser's EventSource.onmessage sees every one; the type is in the data). A comment line every
// heartbeat keeps proxies and clients from taking an idle stream for a dead one. What the client has not read yet
// stays in the socket's buffer; past `bufferBytes` the stream is closed with a last `event: close`
// naming the last id sent, and the client resumes from it (EventSource does so by itself).
import type { ServerResponse } from 'node:http';
import type { StoredEvent } from '../store/store.js';
import type { TypeFilter } from '../store/events/type-filter.js';
import type { Subscriber } from './hub.js';

/** The stream's filters (query parameters); null: no filter. */
export interface StreamFilters {
  organizationId: string | null;
  documentId: string | null;
  /** Exact types, and families given as `family.*`. */
  types: TypeFilter | null;
}

/** What an end-user token lets a stream carry (events/stream-access.ts). */
export interface StreamScope {
  saw(event: StoredEvent): void;
  allows(event: StoredEvent): boolean | Promise<boolean>;
}

export interface StreamOptions {
  bufferBytes: number;
  heartbeatMs: number;
  /** Called once, when the stream ends for whatever reason. */
  onEnd: () => void;
}

/**
 * An event as sent, made once for every stream it goes to: encoding ~1 kB of text per stream and
 * event was most of a fan-out's cost to 1,000 streams.
 */
const frames = new WeakMap<StoredEvent, Buffer>();
function frameOf(event: StoredEvent): Buffer {
  let frame = frames.get(event);
  if (!frame) {
    frame = Buffer.from(`id: ${event.id}\ndata: ${event.body}\n\n`);
    frames.set(event, frame);
  }
  return frame;
}

export class EventStream implements Subscriber {
  /** The last id handed to the stream; until the hub places it, where the client asked to resume (0: from now). */
  cursor: number;
  private placed = false;
  private ended = false;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    readonly tenantId: string,
    private readonly res: ServerResponse,
    private readonly filters: StreamFilters,
    private readonly scope: StreamScope | null,
    /** Where the client asked to resume (Last-Event-ID); null: from now. */
    private readonly after: number | null,
    private readonly options: StreamOptions,
  ) {
    this.cursor = after ?? 0;
    res.on('close', () => this.finish());
  }

  /**
   * Placed by the hub: from here no event is missed. The id tells the client where it stands, so that
   * a reconnect before its first event resumes from here (EventSource keeps an id without data); the
   * heartbeat carries it on, so a filtered stream's resume point moves past the events it skipped.
   * Before this, no id is sent: the stream's place is not known yet.
   */
  opened(): void {
    if (this.ended) return;
    this.placed = true;
    this.write(`id: ${this.cursor}\n\n: open\n\n`);
    this.heartbeat = setInterval(() => this.write(`id: ${this.cursor}\n: heartbeat\n\n`), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  get open(): boolean {
    return !this.ended;
  }

  saw(event: StoredEvent): void {
    this.scope?.saw(event);
  }

  wants(event: StoredEvent): boolean | Promise<boolean> {
    const f = this.filters;
    if (f.organizationId !== null && event.organizationId !== f.organizationId) return false;
    if (f.documentId !== null && event.documentId !== f.documentId) return false;
    if (f.types !== null && !f.types.matches(event.type)) return false;
    return this.scope ? this.scope.allows(event) : true;
  }

  hold(): void {
    this.res.cork();
  }

  flush(): void {
    this.res.uncork();
  }

  send(event: StoredEvent, live: boolean): boolean {
    if (this.ended) return false;
    if (!this.res.writableEnded) this.res.write(frameOf(event));
    if (live && this.res.writableLength > this.options.bufferBytes) {
      this.end(
        `The client reads events more slowly than they come: ${this.options.bufferBytes} bytes wait unread. ` +
          'Reconnect with Last-Event-ID to resume.',
      );
      return false;
    }
    return true;
  }

  drained(): Promise<void> | null {
    if (this.ended || !this.res.writableNeedDrain) return null;
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /**
   * A last `close` event (with the last id sent, to resume from; before the stream was placed, where
   * the client asked to resume; null: none known, the client resumes from what it has), then the end
   * of the response.
   */
  end(reason: string, lastEventId: number | null = this.placed ? this.cursor : this.after): void {
    if (this.ended) return;
    this.write(`event: close\ndata: ${JSON.stringify(lastEventId === null ? { reason } : { reason, lastEventId })}\n\n`);
    this.res.end();
    this.finish();
    // A client that reads nothing would keep the socket (and its buffer) open: let it go.
    setTimeout(() => this.res.destroy(), 5_000).unref();
  }

  private write(text: string): void {
    if (!this.ended && !this.res.writableEnded) this.res.write(text);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.options.onEnd();
  }
}
