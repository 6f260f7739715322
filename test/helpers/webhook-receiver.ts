// A webhook receiver on 127.0.0.1 for the webhook tests: it verifies every request's signature with
// the Standard Webhooks library (Webhook.verify), keeps what it received in order, and answers as the
// test tells it (a status per request, a delay, a hang-up: status 0, or not at all: `down()` closes the port).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  /** The webhook-id header. */
  id: string;
  timestamp: number;
  /** The webhook-signature header: one or more `v1,<base64>`, space-separated (two during a secret's rotation). */
  signature: string;
  /** The body as sent (what the signatures sign). */
  text: string;
  body: any;
  /** Whether the signature checked out against the receiver's secret (when it has one). */
  verified: boolean;
  /** What it was answered; 0: nothing, the connection was closed once the request was read. */
  status: number;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Connections accepted so far (a kept-alive connection reused is counted once). */
  connections: number;
  /** Requests whose signature did not verify: a test expects none. */
  unverified: Received[];
  /** The secret to verify with (webhooks/add's answer); requests that come before it is set are not verified. */
  secret: string | null;
  /**
   * The status each request gets (may look at the request); 200 by default. 0 answers nothing: the
   * request is read whole, then its connection destroyed (a receiver that crashes or hangs up).
   */
  answer: (body: any, nth: number) => number;
  /** Milliseconds before answering. */
  delayMs: number;
  /** Stops listening (connections refused), keeping the port. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
  /** Waits until `done()` holds, checking every few milliseconds; fails after `timeoutMs`. */
  until(done: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let nth = 0;
  const sockets = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '',
    received: [],
    connections: 0,
    unverified: [],
    secret: null,
    answer: () => 200,
    delayMs: 0,
    down: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    up: async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
    },
    close: async () => {
      if (server.listening) await receiver.down();
    },
    until: async (done, timeoutMs = 20_000, what = 'the receiver to get what was expected') => {
      const deadline = Date.now() + timeoutMs;
      while (!done()) {
        if (Date.now() > deadline)
          assert.fail(
            `timed out waiting for ${what}; received ${receiver.received.length}: ${JSON.stringify(receiver.received.slice(-5))}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      if (receiver.secret !== null) {
        try {
          new Webhook(receiver.secret).verify(text, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const status = receiver.answer(body, nth++);
      const entry: Received = {
        id: String(req.headers['webhook-id']),
        timestamp: Number(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        text,
        body,
        verified,
        status,
        at: Date.now(),
      };
      receiver.received.push(entry);
      if (receiver.secret !== null && !verified) receiver.unverified.push(entry);
      if (status === 0) {
        req.socket.destroy();
        return;
      }
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end('ok');
      }, receiver.delayMs);
    });
  });
  // Down means down: kept-alive connections go too.
  server.on('connection', (s) => {
    receiver.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const close = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => {
    for (const s of sockets) s.destroy();
    return close(cb);
  }) as typeof server.close;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${port}/hook`;
  return receiver;
}

/**
 * What a test server that delivers to a receiver on this machine runs with: its bootstrap credentials, loopback
 * receivers allowed, quick polls and a short timeout, no rate limit; `extra` adds or overrides (a retry schedule).
 */
export function webhookServerEnv(
  dbEnv: Record<string, string>,
  creds: { apiKey: string; authToken: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...dbEnv,
    MARGINALIA_API_KEY: creds.apiKey,
    MARGINALIA_AUTH_TOKEN: creds.authToken,
    MARGINALIA_WEBHOOK_ALLOW_PRIVATE: '1',
    MARGINALIA_WEBHOOK_POLL_MS: '50',
    MARGINALIA_WEBHOOK_TIMEOUT_MS: '2000',
    MARGINALIA_RATE_LIMIT: '0',
    ...extra,
  };
}
