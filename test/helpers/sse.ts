// A Server-Sent Events reader for tests: opens GET /v1/events over real HTTP and hands out messages
// one at a time, as a client sees them (comments and `retry:` lines are counted, not returned).
import http from 'node:http';
import { eventually } from './eventually.js';

export interface SseMessage {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The error body when the status is not 200. */
  body: string;
  /** The next message, or rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage>;
  /** Messages that arrive within `ms` (none expected: an empty list). */
  within(ms: number): Promise<SseMessage[]>;
  /**
   * The messages up to and including the first that `last` accepts. Events come in order, so after a
   * marker event written last, every earlier event the stream was going to carry has come: a test of
   * what a stream leaves out then waits for its marker, not for a time that a busy machine overruns.
   */
  until(last: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage[]>;
  /** Resolves once `n` comment lines (heartbeats) have come; rejects after `timeoutMs`. */
  comment(n: number, timeoutMs?: number): Promise<void>;
  /** Comment lines seen so far (heartbeats). */
  comments: string[];
  /** Everything received, as text. */
  raw: string;
  /** Whether the server has ended the stream. */
  ended: boolean;
  response: http.IncomingMessage;
  close(): void;
}

export function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const queue: SseMessage[] = [];
      const waiting: ((m: SseMessage) => void)[] = [];
      let buffer = '';
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: '',
        comments: [],
        raw: '',
        ended: false,
        response: res,
        next(timeoutMs = 5000) {
          const ready = queue.shift();
          if (ready) return Promise.resolve(ready);
          return new Promise((ok, fail) => {
            const timer = setTimeout(() => {
              waiting.splice(waiting.indexOf(take), 1);
              fail(new Error(`no event within ${timeoutMs} ms (ended: ${stream.ended})`));
            }, timeoutMs);
            const take = (m: SseMessage) => {
              clearTimeout(timer);
              ok(m);
            };
            waiting.push(take);
          });
        },
        async within(ms) {
          await new Promise((r) => setTimeout(r, ms));
          return queue.splice(0);
        },
        async until(last, timeoutMs = 5000) {
          const seen: SseMessage[] = [];
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const m = await stream.next(Math.max(1, deadline - Date.now()));
            seen.push(m);
            if (last(m)) return seen;
          }
        },
        comment(n, timeoutMs = 5000) {
          return eventually(
            () => `${n} comments (${stream.comments.length} came)`,
            () => stream.comments.length >= n,
            { ms: timeoutMs, everyMs: 10 },
          );
        },
        close() {
          req.destroy();
        },
      };
      res.setEncoding('utf8');
      if (stream.status !== 200) {
        res.on('data', (chunk: string) => (stream.body += chunk));
        res.on('end', () => resolve(stream));
        return;
      }
      res.on('data', (chunk: string) => {
        stream.raw += chunk;
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          const m: SseMessage = { id: undefined, event: undefined, data: '' };
          let isMessage = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) m.id = line.slice(4);
            else if (line.startsWith('event: ')) m.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              m.data += (isMessage ? '\n' : '') + line.slice(6);
              isMessage = true;
            }
          }
          if (!isMessage) continue;
          const w = waiting.shift();
          if (w) w(m);
          else queue.push(m);
        }
      });
      res.on('end', () => (stream.ended = true));
      res.on('close', () => (stream.ended = true));
      resolve(stream);
    });
    req.on('error', reject);
  });
}
