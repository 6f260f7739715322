// The client side of bench/events.ts, run as its own process (pinned to the load core) and spoken to
// over IPC: `node --import tsx bench/events-client.ts streams|writer|receiver`, then one message
// with its settings.
//   streams:  opens many GET /v1/events streams, answers `ready` once every one is subscribed, records
//             when each write's event arrives on each stream, and on `finish` (with the writes' times)
//             answers the latencies and what was lost.
//   writer:   notifications/add at a steady rate (or as fast as `concurrency` allows), each with a known
//             notificationId, and answers when each was sent and answered.
//   receiver: a webhook receiver on 127.0.0.1 that checks each delivery's signature, answers 204 and records it.
// Times are process.hrtime (CLOCK_MONOTONIC, the same clock in every process), in microseconds.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);
/** Sends a message to the parent; resolves once it is handed over (before the channel closes). */
const send = (m: unknown) => new Promise<void>((resolve) => process.send!(m, undefined, undefined, () => resolve()));
const once = () => new Promise<any>((resolve) => process.once('message', resolve));

/** A stream's filters, as the query string gives them and as the check of what it should get reads them. */
export interface StreamSpec {
  organizationId?: string;
  documentId?: string;
  types?: string;
}

/** One write: which notification, where, and when it was sent and answered (0: no answer). */
export interface WriteRecord {
  i: number;
  organizationId: string;
  documentId: string;
  sentUs: number;
  answeredUs: number;
  status: number;
  /** Written during the warm-up: checked for loss, left out of the latencies. */
  warm?: boolean;
}

export const NOTIFICATION_PREFIX = 'bench-ev-';

/** Whether a stream with these filters should carry write `w` (a notification.add). */
export function wanted(spec: StreamSpec, w: { organizationId: string; documentId: string }): boolean {
  if (spec.organizationId !== undefined && spec.organizationId !== w.organizationId) return false;
  if (spec.documentId !== undefined && spec.documentId !== w.documentId) return false;
  if (spec.types !== undefined && !spec.types.split(',').some((t) => t === 'notification.add' || t === 'notification.*'))
    return false;
  return true;
}

/** The write index of an event's block (`id: N\ndata: {...}`), from the notificationId in its data; -1: none. */
function writeOf(block: string): number {
  const at = block.indexOf(`"id":"${NOTIFICATION_PREFIX}`);
  if (at === -1) return -1;
  const from = at + 6 + NOTIFICATION_PREFIX.length;
  return Number.parseInt(block.slice(from, block.indexOf('"', from)), 10);
}

async function streams(settings: { url: string; headers: Record<string, string>; specs: StreamSpec[]; maxWrites: number }) {
  const { specs, maxWrites } = settings;
  const n = specs.length;
  // arrivals[w * n + s]: when write w's event reached stream s (0: not yet).
  const arrivals = new Float64Array(maxWrites * n);
  let duplicates = 0;
  let closed = 0;
  let messages = 0;
  const reasons: string[] = [];
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  const open = (s: number) =>
    new Promise<void>((resolve, reject) => {
      const q = new URLSearchParams(specs[s] as Record<string, string>).toString();
      const req = http.get(`${settings.url}/v1/events${q ? `?${q}` : ''}`, { agent, headers: settings.headers }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream ${s}: ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        let subscribed = false;
        res.on('data', (chunk: string) => {
          const at = nowUs();
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            // An event: `id:` and `data:`. The open and heartbeats carry an `id:` with no data.
            if (block.startsWith('id: ') && block.includes('\ndata: ')) {
              messages++;
              const w = writeOf(block);
              if (w >= 0 && w < maxWrites) {
                if (arrivals[w * n + s]) duplicates++;
                else arrivals[w * n + s] = at;
              }
            } else if (block.startsWith(': open') && !subscribed) {
              subscribed = true;
              resolve();
            } else if (block.startsWith('event: close')) reasons.push(block);
          }
        });
        res.on('close', () => closed++);
      });
      req.on('error', reject);
      requests.push(req);
    });
  const started = nowUs();
  // A few dozen at a time: the server's listen backlog is not flooded.
  for (let s = 0; s < n; s += 50) await Promise.all(specs.slice(s, s + 50).map((_, k) => open(s + k)));
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await send({ ready: true, openMs: (nowUs() - started) / 1000 });

  const { writes } = (await once()) as { writes: WriteRecord[] };
  delay.disable();
  const latencies: number[] = [];
  const fromSent: number[] = [];
  let expected = 0;
  let lost = 0;
  let unexpected = 0;
  let early = 0;
  for (const w of writes) {
    for (let s = 0; s < n; s++) {
      const at = arrivals[w.i * n + s]!;
      const should = w.status === 200 && wanted(specs[s]!, w);
      if (should) expected++;
      if (!at) {
        if (should) lost++;
        continue;
      }
      if (!should) {
        unexpected++;
        continue;
      }
      if (w.warm) continue;
      if (at < w.answeredUs) early++;
      latencies.push((at - w.answeredUs) / 1000);
      fromSent.push((at - w.sentUs) / 1000);
    }
  }
  for (const r of requests) r.destroy();
  await send({
    streams: n,
    expected,
    delivered: expected - lost,
    measured: latencies.length,
    lost,
    unexpected,
    duplicates,
    closedEarly: closed,
    closeReasons: reasons.slice(0, 3),
    messages,
    early,
    latencies: summary(latencies),
    fromSent: summary(fromSent),
    clientLoopDelayMs: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
  });
}

export function summary(xs: number[]): { p50: number; p90: number; p99: number; max: number; min: number; n: number } {
  const sorted = Float64Array.from(xs).sort();
  const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);
  const r = (x: number) => Number(x.toFixed(2));
  return { p50: r(at(50)), p90: r(at(90)), p99: r(at(99)), max: r(at(100)), min: r(sorted[0] ?? 0), n: sorted.length };
}

async function writer(settings: {
  url: string;
  headers: Record<string, string>;
  /** Writes per second; 0: as fast as `concurrency` requests in flight allow. */
  rate: number;
  count: number;
  concurrency: number;
  organizations: string[];
  /** The share of writes to the first organization (the rest spread over the others). */
  firstShare: number;
  documents: number;
}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: settings.concurrency });
  const records: WriteRecord[] = [];
  const orgs = settings.organizations;
  const write = (i: number) =>
    new Promise<void>((resolve) => {
      // A fixed pattern, so runs compare: the first organization's share, the rest in turn.
      const first = (i * 7919) % 100 < settings.firstShare * 100 || orgs.length === 1;
      const organizationId = first ? orgs[0]! : orgs[1 + (i % (orgs.length - 1))]!;
      const documentId = `doc-${i % settings.documents}`;
      const body = JSON.stringify({
        data: {
          organizationId,
          documentId,
          notificationId: `${NOTIFICATION_PREFIX}${i}`,
          actionUser: { userId: `actor-${i % 50}`, name: 'Bench Actor' },
          displayHeadlineMessageTemplate: '{actionUser} mentioned you',
          displayHeadlineMessageTemplateData: { actionUser: { userId: `actor-${i % 50}` } },
          notifyUsers: [{ userId: `user-${i % 100}` }, { userId: `user-${(i * 31) % 100}` }],
        },
      });
      const record: WriteRecord = { i, organizationId, documentId, sentUs: nowUs(), answeredUs: 0, status: 0 };
      records.push(record);
      const req = http.request(
        `${settings.url}/v1/notifications/add`,
        { method: 'POST', agent, headers: { ...settings.headers, 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => {
            record.answeredUs = nowUs();
            record.status = res.statusCode ?? 0;
            resolve();
          });
        },
      );
      req.on('error', () => resolve());
      req.end(body);
    });
  const started = nowUs();
  if (settings.rate > 0) {
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < settings.count; i++) {
      const due = started + (i * 1e6) / settings.rate;
      const wait = due - nowUs();
      if (wait > 1000) await new Promise((r) => setTimeout(r, wait / 1000));
      inFlight.push(write(i));
    }
    await Promise.all(inFlight);
  } else {
    let next = 0;
    const lane = async () => {
      while (next < settings.count) await write(next++);
    };
    await Promise.all(Array.from({ length: settings.concurrency }, lane));
  }
  agent.destroy();
  await send({ records, startedUs: started, endedUs: nowUs() });
}

async function receiver(settings: { secret?: string }) {
  let verifier: Webhook | null = settings.secret ? new Webhook(settings.secret) : null;
  const deliveries: { atUs: number; webhookId: string; eventId: number; organizationId: string; type: string }[] = [];
  let bad = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const atUs = nowUs();
      try {
        const e = JSON.parse(body) as { id: number; organizationId: string; type: string };
        // Standard Webhooks: the signature over "<webhook-id>.<webhook-timestamp>.<body>" with the secret.
        if (verifier) verifier.verify(body, req.headers as Record<string, string>);
        else if (!req.headers['webhook-signature']) bad++;
        deliveries.push({
          atUs,
          webhookId: String(req.headers['webhook-id']),
          eventId: e.id,
          organizationId: e.organizationId,
          type: e.type,
        });
      } catch {
        bad++;
      }
      res.writeHead(204);
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await send({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
  for (;;) {
    const m = await once();
    if (m.secret) {
      verifier = new Webhook(m.secret);
      await send({ ok: true });
    }
    if (m.count) await send({ count: deliveries.length });
    if (m.finish) {
      await send({ deliveries, bad });
      server.close();
      server.closeAllConnections();
      return;
    }
  }
}

// Run as a client (not imported by bench/events.ts for its types and summary).
const role = import.meta.url === pathToFileURL(process.argv[1] ?? '').href ? process.argv[2] : undefined;
if (role) {
  const settings = await once();
  if (role === 'streams') await streams(settings);
  else if (role === 'writer') await writer(settings);
  else if (role === 'receiver') await receiver(settings);
  else throw new Error(`unknown role ${role}`);
  process.disconnect();
}
