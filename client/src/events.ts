// The live event stream (GET /v1/events, docs/events.md "The live stream: GET /v1/events") as an async iterator: it
// reads the Server-Sent Events itself from fetch's body (no dependency, no EventSource), yields each event parsed,
// remembers the last id, and after a dropped connection or the server's `close` message connects again with
// Last-Event-ID, after a short backoff, so the events come once each and in order across reconnects.
// It stops when its signal aborts or the caller stops iterating (break, return()).
import type { ErrorCode } from '../../src/schemas/error-codes.js';

import { EVENT_TYPES, type EventType } from '../../src/schemas/event-types.js';

/** Every event type the service records (docs/events.md): the service's own list. */
export { EVENT_TYPES, type EventType };
/** Every type of one family, as the `types` filter names it: `comment.*`. */
export type EventFamily = `${EventType extends `${infer F}.${string}` ? F : never}.*`;

/** An event, as the stream and webhooks carry it: `{id, type, timestamp, organizationId?, documentId?, data}`. */
export interface MarginaliaEvent {
  /** Increases per tenant, in commit order. */
  id: number;
  type: EventType;
  /** When it was recorded, ms since the epoch. */
  timestamp: number;
  /** Absent for a document without an organization. */
  organizationId?: string;
  /** Present when the event concerns a document. */
  documentId?: string;
  /** The object as a read shows it (its ids, for a delete); docs/events.md lists each type's. */
  data: Record<string, unknown>;
}

/** An end-user token, or a function that answers one (asked again at each use, so it can hand over a fresh one). */
export type TokenSource = string | (() => string | Promise<string>);

export interface SubscribeOptions {
  organizationId?: string;
  documentId?: string;
  /** Event types, or families (`comment.*`); none: every type. */
  types?: readonly (EventType | EventFamily)[];
  /** Start after this event id (as Last-Event-ID); none: from now on. */
  lastEventId?: number | string;
  /**
   * An end-user token (auth.token) to stream with instead of the server credentials: only its user's
   * share of the events. A function is asked again at each (re)connection, so a long subscription can
   * hand over a fresh token before the 48 hours run out. A client made with `token` streams with its own.
   */
  token?: TokenSource;
  /** Aborting it ends the iteration (a pending `next()` resolves done). */
  signal?: AbortSignal;
  /** The first wait before connecting again in ms (default 250), doubled after each failed attempt. */
  backoffMs?: number;
  /** The longest wait between attempts in ms (default 10,000); Retry-After wins when longer. */
  maxBackoffMs?: number;
  /**
   * Connect again when nothing at all (not even a heartbeat) came for this long, in ms (default 45,000,
   * three of the server's default heartbeats; 0: never). Keep it above MARGINALIA_EVENT_HEARTBEAT_MS.
   */
  idleTimeoutMs?: number;
  /** Called each time a connection is open and subscribed: events written from then on will come. */
  onOpen?: () => void;
}

/** The stream as an async iterator of events; `for await` it, `break` or `close()` to stop. */
export interface EventSubscription extends AsyncIterableIterator<MarginaliaEvent> {
  /**
   * Where the subscription stands: the id of the last event yielded, or later when the server said so
   * (a `close` message names the last id it handled). null before anything came. Keep it to resume later
   * with `lastEventId`.
   */
  readonly lastEventId: number | null;
  /** Ends the iteration at once, even while a `next()` waits for an event (it then resolves done). */
  return(): Promise<IteratorResult<MarginaliaEvent, undefined>>;
  /** Stops: ends the iteration, as `return()` does, and closes the connection. */
  close(): void;
}

/** What the stream needs of the client: where, which fetch, and how to answer an error. */
export interface StreamConnection {
  baseUrl: string;
  fetch: typeof fetch;
  /** The server credentials' headers. */
  serverHeaders: () => Record<string, string>;
  /** The client's error for an answer that is not the stream. */
  error: (status: ErrorCode, message: string, httpStatus: number, requestId: string | null) => Error;
  statusOfHttp: (http: number) => ErrorCode;
}

/** One block of the stream: a message (data), an id alone, or a comment line. */
type Block =
  | { kind: 'message'; id: string | undefined; event: string | undefined; data: string }
  | { kind: 'id'; id: string }
  | { kind: 'comment'; text: string };

/** The text/event-stream grammar (HTML Living Standard, 9.2.6), fed text as it arrives. */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;
  private started = false;

  push(text: string): Block[] {
    this.buffer += text;
    if (!this.started && this.buffer.length > 0) {
      this.started = true;
      if (this.buffer.charCodeAt(0) === 0xfeff) this.buffer = this.buffer.slice(1);
    }
    const out: Block[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      // A \r at the end may be the first half of \r\n: wait for what follows.
      if (c === '\r' && i === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, i), out);
      if (c === '\r' && this.buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string, out: Block[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.startsWith(':')) {
      out.push({ kind: 'comment', text: line.slice(1).trim() });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    // `retry` and unknown fields are ignored: the reconnection policy is the subscription's own.
  }

  private dispatch(out: Block[]): void {
    if (this.data.length > 0) out.push({ kind: 'message', id: this.id, event: this.event, data: this.data.join('\n') });
    else if (this.id !== undefined) out.push({ kind: 'id', id: this.id });
    this.data = [];
    this.event = undefined;
    this.id = undefined;
  }
}

const WHOLE = /^[0-9]{1,15}$/;

/** A wait that an abort ends early. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function retryAfterMs(value: string | null): number {
  if (value === null) return 0;
  return /^\d+$/.test(value) ? Number(value) * 1000 : Math.max(0, (Date.parse(value) || 0) - Date.now());
}

export class Subscription implements EventSubscription {
  lastEventId: number | null;
  private readonly stop = new AbortController();
  private readonly run: AsyncGenerator<MarginaliaEvent, undefined, undefined>;
  private readonly unlink: () => void;

  constructor(
    private readonly conn: StreamConnection,
    private readonly options: SubscribeOptions,
  ) {
    const start = options.lastEventId;
    if (start !== undefined && !WHOLE.test(String(start)))
      throw new TypeError(`lastEventId must be an event id (a whole number), got ${String(start)}`);
    this.lastEventId = start === undefined ? null : Number(start);
    const outer = options.signal;
    const abort = () => this.stop.abort();
    if (outer?.aborted) this.stop.abort();
    else outer?.addEventListener('abort', abort, { once: true });
    this.unlink = () => outer?.removeEventListener('abort', abort);
    this.run = this.events();
  }

  next(): Promise<IteratorResult<MarginaliaEvent, undefined>> {
    return this.run.next();
  }

  /** Ends the iteration at once, even while a `next()` waits for an event (it then resolves done). */
  async return(): Promise<IteratorResult<MarginaliaEvent, undefined>> {
    this.stop.abort();
    await this.run.return(undefined);
    return { done: true, value: undefined };
  }

  close(): void {
    void this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private url(): string {
    const q = new URLSearchParams();
    const { organizationId, documentId, types } = this.options;
    if (organizationId !== undefined) q.set('organizationId', organizationId);
    if (documentId !== undefined) q.set('documentId', documentId);
    if (types !== undefined && types.length > 0) q.set('types', types.join(','));
    const query = q.toString();
    return `${this.conn.baseUrl}/v1/events${query ? `?${query}` : ''}`;
  }

  private async headers(): Promise<Record<string, string>> {
    const { token } = this.options;
    const credentials =
      token === undefined
        ? this.conn.serverHeaders()
        : { authorization: `Bearer ${typeof token === 'function' ? await token() : token}` };
    const headers: Record<string, string> = { accept: 'text/event-stream', ...credentials };
    if (this.lastEventId !== null) headers['last-event-id'] = String(this.lastEventId);
    return headers;
  }

  /** The wait before attempt `failures` + 1: doubling from backoffMs with jitter, capped. */
  private backoff(failures: number, atLeast = 0): number {
    const { backoffMs = 250, maxBackoffMs = 10_000 } = this.options;
    const wait = Math.min(maxBackoffMs, backoffMs * 2 ** Math.max(0, failures - 1)) * (0.5 + Math.random() / 2);
    return Math.max(wait, atLeast);
  }

  /** Connections one after another, each read to its end, until stopped or refused for good. */
  private async *events(): AsyncGenerator<MarginaliaEvent, undefined, undefined> {
    const retry = { failures: 0 };
    try {
      while (!this.stop.signal.aborted) {
        const wait = yield* this.connection(retry);
        await pause(wait, this.stop.signal);
      }
      return undefined;
    } finally {
      this.unlink();
    }
  }

  /** One connection: its events, then how long to wait before the next (or it throws: refused for good). */
  private async *connection(retry: { failures: number }): AsyncGenerator<MarginaliaEvent, number, undefined> {
    const stop = this.stop.signal;
    const connection = new AbortController();
    const cut = () => connection.abort();
    stop.addEventListener('abort', cut, { once: true });
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      if (idleMs <= 0) return;
      clearTimeout(idle);
      idle = setTimeout(cut, idleMs);
    };
    try {
      // A token function that throws ends the subscription with its error.
      const headers = await this.headers();
      let res: Response;
      try {
        alive();
        res = await this.conn.fetch(this.url(), { headers, signal: connection.signal });
      } catch {
        // No answer (refused, reset, the idle timer): try again.
        return this.backoff(++retry.failures);
      }
      if (res.status !== 200 || !res.body) {
        const text = await res.text().catch(() => '');
        if (res.status === 429 || res.status === 502 || res.status === 503 || res.status === 504)
          return this.backoff(++retry.failures, retryAfterMs(res.headers.get('retry-after')));
        throw this.refusal(res, text);
      }
      retry.failures = 0;
      let opened = false;
      const parser = new SseParser();
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      try {
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          alive();
          for (const block of parser.push(decoder.decode(chunk.value, { stream: true }))) {
            if (block.kind === 'comment') {
              // `: open` is written once the stream is subscribed.
              if (!opened && block.text === 'open') {
                opened = true;
                this.options.onOpen?.();
              }
            } else if (block.kind === 'id') {
              // The id a stream opens with is where the server placed it: authoritative, even below
              // ours (a restored database resumes from its last id, and what comes after must not be skipped).
              if (!opened && WHOLE.test(block.id)) this.lastEventId = Number(block.id);
              else this.advance(block.id);
            } else if (block.event === 'close') {
              // The server ends the stream (a slow reader, a shutdown), naming where to resume.
              const said = parseJson(block.data) as { lastEventId?: unknown } | undefined;
              if (typeof said?.lastEventId === 'number') this.advance(String(said.lastEventId));
            } else if (block.event === undefined || block.event === 'message') {
              const event = parseJson(block.data) as MarginaliaEvent | undefined;
              if (!event || typeof event.id !== 'number') continue;
              // Once each: an id at or below where the subscription stands was given already.
              if (this.lastEventId !== null && event.id <= this.lastEventId) continue;
              this.lastEventId = event.id;
              yield event;
            }
          }
        }
      } catch {
        // The connection dropped (or the idle timer cut it): connect again.
      } finally {
        reader.cancel().catch(() => {});
      }
      // Ended (a close message, a restart, a cut): connect again soon, from where it stands.
      return this.backoff(1);
    } finally {
      clearTimeout(idle);
      stop.removeEventListener('abort', cut);
      connection.abort();
    }
  }

  /** Moves the resume point to `id` when it is a later one. */
  private advance(id: string): void {
    if (!WHOLE.test(id)) return;
    const n = Number(id);
    if (this.lastEventId === null || n > this.lastEventId) this.lastEventId = n;
  }

  private refusal(res: Response, text: string): Error {
    const body = parseJson(text) as { error?: { status?: string; message?: string } } | undefined;
    const status = (body?.error?.status ?? this.conn.statusOfHttp(res.status)) as ErrorCode;
    const message = body?.error?.message ?? `HTTP ${res.status}: ${text.slice(0, 200)}`;
    return this.conn.error(status, message, res.status, res.headers.get('x-request-id'));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
