// The HTTP connections themselves, below Fastify: how long a connection may take or sit idle, what a
// request too malformed (or too slow) for HTTP parsing gets back, and how shutdown treats the
// connections that are open. Requests are counted per socket, so that shutdown closes at once what
// has no request in flight, and an error answer never overtakes the answers to earlier requests.
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors.js';
import { errorBody } from './error-handler.js';

/** The server's connection timeouts (SPEC 9; each is a MARGINALIA_HTTP_* setting). */
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

/** Per-socket bookkeeping: how many parsed requests are not yet answered. */
export class Connections {
  private readonly inFlight = new Map<Socket, number>();
  private readonly waiting = new Map<Socket, (() => void)[]>();
  private draining = false;

  attach(server: Server): void {
    server.on('connection', (socket: Socket) => {
      // Accepted in the moment between draining and the listener closing: nothing to serve it with.
      if (this.draining) return void socket.destroy();
      this.inFlight.set(socket, 0);
      socket.once('close', () => {
        this.inFlight.delete(socket);
        this.waiting.delete(socket);
      });
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      this.inFlight.set(socket, (this.inFlight.get(socket) ?? 0) + 1);
      res.once('close', () => this.answered(socket));
    });
  }

  private answered(socket: Socket): void {
    const left = Math.max(0, (this.inFlight.get(socket) ?? 1) - 1);
    this.inFlight.set(socket, left);
    if (left > 0) return;
    for (const resume of this.waiting.get(socket) ?? []) resume();
    this.waiting.delete(socket);
    // Shutting down: the last answer on this connection has gone out, so the connection goes too.
    if (this.draining) socket.end();
  }

  /** Runs fn once every request parsed on this socket has been answered. */
  private afterAnswers(socket: Socket, fn: () => void): void {
    if ((this.inFlight.get(socket) ?? 0) === 0) {
      fn();
      return;
    }
    const list = this.waiting.get(socket) ?? [];
    list.push(fn);
    this.waiting.set(socket, list);
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /**
   * Whether an answer about to go out on this socket should close it: while shutting down, the last
   * answer does (requests pipelined behind it are still answered, with 503, before the close).
   */
  closesAfter(socket: Socket): boolean {
    return this.draining && (this.inFlight.get(socket) ?? 0) <= 1;
  }

  /**
   * Shutdown: connections with no request in flight (idle keep-alive, never used, or still sending
   * headers) close now; the others close as soon as their last answer is written.
   */
  drain(): void {
    this.draining = true;
    for (const [socket, n] of this.inFlight) if (n === 0) socket.destroy();
  }

  /**
   * Fastify's clientErrorHandler: requests too malformed for HTTP parsing, and requests that did not
   * arrive in time, still get the envelope, then the connection closes. A parse error waits for the
   * answers to the requests parsed before it on the same connection (pipelining), so none is lost.
   */
  readonly onClientError = (err: Error & { code?: string }, socket: Socket): void => {
    if (!socket.writable || (socket as Socket & { answeredError?: true }).answeredError) {
      socket.destroy();
      return;
    }
    (socket as Socket & { answeredError?: true }).answeredError = true;
    if (err.code === REQUEST_TIMEOUT) {
      // The late request is the one in flight: answer it now, unless its answer has begun.
      const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (pending?.headersSent) socket.destroy();
      else
        writeAndClose(
          socket,
          408,
          'Request Timeout',
          new ApiError(
            'INVALID_ARGUMENT',
            "The request did not arrive in time (headers, then the whole body, must arrive within the server's timeouts).",
            { httpStatus: 408 },
          ),
        );
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    this.afterAnswers(socket, () =>
      writeAndClose(
        socket,
        tooLarge ? 431 : 400,
        tooLarge ? 'Request Header Fields Too Large' : 'Bad Request',
        new ApiError('INVALID_ARGUMENT', tooLarge ? 'Request headers are too large.' : 'Malformed HTTP request.'),
      ),
    );
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
