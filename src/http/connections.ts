// The HTTP connections themselves, below Fastify: how long a connection may take or sit idle, what a
// request too malformed (or too slow) for HTTP parsing gets back, and how shutdown treats the
// connections that are open. The answers each connection owes are kept in order, so that shutdown
// closes at once what owes none, and an error answer never overtakes the answers to earlier requests.
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors.js';
import { errorBody } from './error-handler.js';

/** The server's connection timeouts (docs/api.md, "What always holds"; each is a MARGINALIA_HTTP_* setting). */
export interface HttpTimeouts {
  /** The request line and headers must have arrived this long after the connection (or previous request) began. */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived within this. */
  requestTimeoutMs: number;
  /** A kept-alive connection with no request is closed after this. */
  keepAliveTimeoutMs: number;
  /** A connection on which nothing at all moves, in either direction, is closed after this. */
  idleTimeoutMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  idleTimeoutMs: 120_000,
};

/** Fastify's server options for these timeouts. */
export function serverTimeoutOptions(t: HttpTimeouts): {
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
  http: ServerOptions;
} {
  // Node requires headersTimeout <= requestTimeout. It looks for expired requests every
  // connectionsCheckingInterval (30 s by default): check often enough that a short timeout holds.
  const headersTimeout = Math.min(t.headersTimeoutMs, t.requestTimeoutMs);
  return {
    requestTimeout: t.requestTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    connectionTimeout: t.idleTimeoutMs,
    http: { headersTimeout, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))) },
  };
}

const REQUEST_TIMEOUT = 'ERR_HTTP_REQUEST_TIMEOUT';

/** What a failed request gets: its status, reason phrase and envelope. */
function failureAnswer(code: string | undefined): [number, string, ApiError] {
  if (code === REQUEST_TIMEOUT) {
    return [
      408,
      'Request Timeout',
      new ApiError(
        'INVALID_ARGUMENT',
        "The request did not arrive in time (headers, then the whole body, must arrive within the server's timeouts).",
        { httpStatus: 408 },
      ),
    ];
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return [431, 'Request Header Fields Too Large', new ApiError('INVALID_ARGUMENT', 'Request headers are too large.')];
  }
  return [400, 'Bad Request', new ApiError('INVALID_ARGUMENT', 'Malformed HTTP request.')];
}

/** A connection: the answers it owes, in the order its requests came, and whether it has failed. */
interface ConnectionState {
  pending: ServerResponse[];
  /** The answer to the last request parsed, owed or not. */
  last: ServerResponse | null;
  failed: boolean;
}

/**
 * Per-connection bookkeeping. `failureWaitMs` bounds how long the error answer to a failed connection
 * waits for the answers owed before it; past that the connection is closed without it.
 */
export class Connections {
  private readonly connections = new Map<Socket, ConnectionState>();
  private draining = false;

  constructor(private readonly failureWaitMs = DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs) {}

  attach(server: Server): void {
    server.on('connection', (socket: Socket) => {
      // Accepted in the moment between draining and the listener closing: nothing to serve it with.
      if (this.draining) return void socket.destroy();
      this.connections.set(socket, { pending: [], last: null, failed: false });
      socket.once('close', () => this.connections.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const state = this.connections.get(req.socket);
      if (!state) return;
      state.pending.push(res);
      state.last = res;
      res.once('close', () => this.answered(req.socket, state, res));
    });
  }

  private answered(socket: Socket, state: ConnectionState, res: ServerResponse): void {
    const at = state.pending.indexOf(res);
    if (at >= 0) state.pending.splice(at, 1);
    // Shutting down: the last answer on this connection has gone out, so the connection goes too.
    if (this.draining && state.pending.length === 0 && !state.failed) socket.end();
  }

  /** How many connections are open. */
  get size(): number {
    return this.connections.size;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /**
   * Whether an answer about to go out on this socket should close it: while shutting down, the last
   * answer does (requests pipelined behind it are still answered, with 503, before the close).
   */
  closesAfter(socket: Socket): boolean {
    return this.draining && (this.connections.get(socket)?.pending.length ?? 0) <= 1;
  }

  /**
   * Shutdown: connections with no request in flight (idle keep-alive, never used, or still sending
   * headers) close now; the others close as soon as their last answer is written.
   */
  drain(): void {
    this.draining = true;
    for (const [socket, state] of this.connections) if (state.pending.length === 0) socket.destroy();
  }

  /**
   * Fastify's clientErrorHandler: a request too malformed for HTTP parsing, or one that did not arrive
   * in time, still gets the envelope, then the connection closes. The failed request is either one
   * whose headers were never complete, or the last one parsed, whose body was (it is then still owed
   * an answer). Its answer waits for the answers owed to the requests before it (pipelining), so none
   * of them is lost or overtaken; if it was answered already, the connection just closes.
   */
  readonly onClientError = (err: Error & { code?: string }, socket: Socket): void => {
    const state = this.connections.get(socket);
    if (!state || !socket.writable) {
      socket.destroy();
      return;
    }
    // Once failed, the parser reports every later chunk again: the answer is already on its way.
    if (state.failed) return;
    state.failed = true;
    socket.pause(); // read no more of a connection whose parser has failed
    const failedRequest = state.last && !state.last.req.complete ? state.last : undefined;
    const before = state.pending.filter((res) => res !== failedRequest);
    const answer = () => {
      // Answered already (a 401 before its body, say): nothing more is owed on this connection.
      if (failedRequest?.headersSent) socket.destroy();
      else writeAndClose(socket, ...failureAnswer(err.code));
    };
    if (before.length === 0) {
      answer();
      return;
    }
    const limit = setTimeout(() => socket.destroy(), this.failureWaitMs);
    limit.unref();
    let left = before.length;
    for (const res of before) {
      res.once('close', () => {
        if (--left > 0) return;
        clearTimeout(limit);
        answer();
      });
    }
  };
}

function writeAndClose(socket: Socket, status: number, reason: string, error: ApiError): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(errorBody(error));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
