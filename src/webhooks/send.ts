// One attempt at a delivery: the event's body POSTed to the webhook's URL, signed with the Standard
// Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 of
// "<id>.<timestamp>.<body>" with the webhook's secret), on kept-alive connections, within a time
// limit. A 2xx answer is a delivery; anything else (another status, no answer in time, a refused
// address, a network error, a connection closed without an answer) is a failed attempt, with why.
// An attempt is one request: it is never sent again within the attempt.
import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { ClaimedDelivery } from '../store/store.js';
import { VERSION } from '../version.js';
import { guardedLookup, hostOf, refusedAddress } from './ssrf.js';

export interface SendOptions {
  timeoutMs: number;
  /** MARGINALIA_WEBHOOK_ALLOW_PRIVATE: no SSRF guard at connection time. */
  allowPrivate: boolean;
  agents: Agents;
  /** Aborts the attempt (shutdown): the result is then `aborted`. */
  signal?: AbortSignal;
}

export interface SendResult {
  ok: boolean;
  /** The attempt was given up by this process (shutdown), not answered: it is neither a success nor a failure. */
  aborted: boolean;
  responseCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * How long a kept-alive connection to a receiver may sit unused before it is closed. Below the idle
 * timeouts receivers commonly use (2 s and up), so a connection is not reused just as the receiver closes
 * it: such a request fails and, as an attempt is never sent twice, waits for the next retry
 * (docs/decisions.md, Webhooks: "Attempts"). A connection idle that long carries under one delivery a
 * second, so opening a new one costs little. Node also closes one sooner when the receiver's
 * `Keep-Alive: timeout=` says so.
 */
export const IDLE_CONNECTION_MS = 1000;

/** Keep-alive agents for the receivers, at most `sockets` connections to each. */
export function makeAgents(sockets: number): Agents {
  // `timeout` closes free connections after IDLE_CONNECTION_MS; a request under way is bounded by send()'s own timer.
  const options = {
    keepAlive: true,
    maxSockets: sockets,
    maxFreeSockets: sockets,
    scheduling: 'lifo' as const,
    timeout: IDLE_CONNECTION_MS,
  };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/**
 * The message id of an event's deliveries to one webhook: the same on every attempt, so a receiver can
 * tell a retry from a new event. Event ids are per tenant: the webhook's own id (random, 32 hex) in it
 * keeps two tenants' events apart at a receiver that serves both.
 */
export const messageId = (webhookId: string, eventId: number): string => `evt_${webhookId.replace(/^wh_/, '')}_${eventId}`;

/**
 * The three Standard Webhooks headers for a body sent now. During a rotation's grace period the secret
 * before it signs too: webhook-signature then holds both signatures, space-separated, the new one first
 * (Standard Webhooks: a receiver accepts the request when any one verifies), so a receiver that has not
 * switched to the new secret yet loses nothing (docs/events.md, "Rotating a secret").
 */
export function signatureHeaders(
  secret: string,
  webhookId: string,
  eventId: number,
  body: string,
  now: number,
  previousSecret: string | null = null,
): Record<string, string> {
  const id = messageId(webhookId, eventId);
  const timestamp = new Date(now);
  const signatures = [secret, ...(previousSecret ? [previousSecret] : [])].map((s) => new Webhook(s).sign(id, timestamp, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

const MAX_ERROR_LENGTH = 500;
const describe = (err: unknown, note = ''): string => {
  const e = err as { code?: unknown; message?: unknown };
  const text =
    typeof e.code === 'string' && !String(e.message).includes(e.code) ? `${e.code}: ${String(e.message)}` : String(e.message);
  return text.slice(0, MAX_ERROR_LENGTH - note.length) + note;
};

/** Sockets given a listener for late errors (a socket of the agents serves many requests). */
const guarded = new WeakSet<Socket>();
const ignore = () => {};
const keepErrorsFromProcess = (socket: Socket) => {
  if (guarded.has(socket)) return;
  guarded.add(socket);
  socket.on('error', ignore);
};

/** Makes one attempt; never rejects. */
export function send(delivery: ClaimedDelivery, now: number, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, responseCode: number | null = null): SendResult => ({
    ok: false,
    aborted: options.signal?.aborted ?? false,
    responseCode,
    error,
    durationMs: elapsed(),
  });
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return Promise.resolve(failed('the URL does not parse'));
  }
  // A name is checked as it is resolved (guardedLookup); an address in the URL is never looked up.
  const host = hostOf(url);
  if (!options.allowPrivate && isIP(host) !== 0) {
    const kind = refusedAddress(host);
    if (kind) return Promise.resolve(failed(`refused: ${host} is a ${kind} address`));
  }
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(delivery.body)),
    'user-agent': `Marginalia-Webhooks/${VERSION}`,
    ...signatureHeaders(delivery.secret, delivery.webhookId, delivery.eventId, delivery.body, now, delivery.previousSecret),
  };
  // One request per attempt, never sent again inside it: a receiver may have read and acted on a request
  // whose connection then failed, so a re-send would be a delivery that webhooks/deliveries/get does not
  // list (docs/decisions.md, Webhooks: "Attempts").
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      headers,
      agent: secure ? options.agents.https : options.agents.http,
      ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
    });
    const timer = setTimeout(
      () => request.destroy(Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      Math.max(0, options.timeoutMs - elapsed()),
    );
    const onAbort = () => request.destroy(Object.assign(new Error('the server is stopping'), { code: 'EABORTED' }));
    // A receiver that answers before it has read the whole body, then closes the connection, makes the
    // write still under way fail after Node has taken the socket from the request (its answer ended,
    // so the socket went back to the agent): with no listener left, that error would end the process.
    // Every socket the agents hand out keeps one that drops it; the request has its own answer already.
    request.on('socket', keepErrorsFromProcess);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('response', (response) => {
      const code = response.statusCode ?? 0;
      // The answer's body is read and dropped, so the connection can be used again; one that does not
      // end in time is closed.
      const drain = setTimeout(() => response.destroy(), options.timeoutMs);
      response.on('close', () => clearTimeout(drain));
      response.on('error', () => {});
      response.resume();
      if (code >= 200 && code < 300) settle({ ok: true, aborted: false, responseCode: code, error: null, durationMs: elapsed() });
      else settle(failed(code >= 300 && code < 400 ? `HTTP ${code} (redirects are not followed)` : `HTTP ${code}`, code));
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      // A kept-alive connection the receiver closed as the request went out looks the same as a receiver
      // that read the request and hung up: the error says which connection it was, for the operator.
      settle(failed(describe(err, request.reusedSocket ? ' (on a kept-alive connection)' : '')));
    });
    request.end(delivery.body);
  });
}
