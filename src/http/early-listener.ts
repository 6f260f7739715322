// /healthz from the first moment of a start (docs/operations.md, "Start"). Loading the server's modules,
// opening the store and building the app (every operation's schemas compiled) take about a second, and
// a liveness probe that finds no port during it may kill the process in a loop. So the port is taken
// first, by a bare Node server that answers /healthz 200 and every other request 503 "starting"; the
// app is then built on that same server (Fastify's serverFactory) and takes its requests once ready.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../errors.js';
import { type HttpTimeouts, serverTimeoutOptions } from './connections.js';
import { errorBody } from './error-handler.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface EarlyListener {
  readonly server: Server;
  /** For Fastify's serverFactory: the app is built on this server, its handler kept for open(). */
  factory(handler: Handler): Server;
  /** The app is ready: its handler takes every request from now on. Answers the address, as Fastify would log it. */
  open(): string;
}

const STARTING = errorBody(new ApiError('UNAVAILABLE', 'starting: the server is opening its database; try again shortly.'));

function starting(req: IncomingMessage, res: ServerResponse): void {
  const alive = req.method === 'GET' && req.url?.split('?')[0] === '/healthz';
  res.writeHead(alive ? 200 : 503, {
    'content-type': 'application/json; charset=utf-8',
    ...(alive ? {} : { 'retry-after': '1' }),
  });
  res.end(JSON.stringify(alive ? { status: 'ok' } : STARTING));
}

export async function listenEarly(port: number, host: string, timeouts: HttpTimeouts): Promise<EarlyListener> {
  // The timeouts Fastify sets on a server it makes itself; it leaves one from a serverFactory as it is.
  const t = serverTimeoutOptions(timeouts);
  const server = createServer(t.http);
  server.keepAliveTimeout = t.keepAliveTimeout;
  server.requestTimeout = t.requestTimeout;
  server.setTimeout(t.connectionTimeout);
  let handle: Handler = starting;
  let app: Handler | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => handle(req, res));
  server.listen({ port, host });
  await once(server, 'listening');
  return {
    server,
    factory(handler) {
      app = handler;
      return server;
    },
    open() {
      if (!app) throw new Error('the app was not built on the early listener');
      handle = app;
      const { address, family, port: bound } = server.address() as AddressInfo;
      return `http://${family === 'IPv6' ? `[${address}]` : address}:${bound}`;
    },
  };
}
