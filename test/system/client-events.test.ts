// The typed client's events side against the real server (docs/events.md, "Events"): auth.token, events.subscribe
// (the live stream as an async iterator: filters, a start id, an end-user token's share, stopping, and
// resuming with Last-Event-ID after a cut connection and after the server restarts, nothing lost and
// nothing twice), and the webhooks, whose deliveries a receiver here verifies as docs/events.md shows.
// A stand-in server checks the stream's grammar and retries where the real one would not show them.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import {
  type EventSubscription,
  Marginalia,
  MarginaliaError,
  type MarginaliaEvent,
  type SubscribeOptions,
} from '../../client/src/index.js';
import { startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { CuttableProxy } from '../helpers/tcp-proxy.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';
import { uniq } from '../helpers/threads.js';
import { eventually } from '../helpers/eventually.js';

const creds = { apiKey: 'client-events-key', authToken: 'client-events-token-0123456789' };

/** An iteration running in the background, gathering what it yields. */
interface Collected {
  events: MarginaliaEvent[];
  sub: EventSubscription;
  /** Settles when the iteration ends; its error, if any, is in `error`. */
  done: Promise<void>;
  error: unknown;
  opens: number;
  /** Resolves once `enough` holds of the events, or rejects after `timeoutMs`. */
  until(enough: (events: MarginaliaEvent[]) => boolean, timeoutMs?: number): Promise<MarginaliaEvent[]>;
}

/** Subscribes and iterates in the background; resolves once the stream is open (events written from now on come). */
async function subscribed(client: Marginalia, options: SubscribeOptions = {}): Promise<Collected> {
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const sub = client.events.subscribe({
    backoffMs: 50,
    ...options,
    onOpen: () => {
      c.opens++;
      opened();
    },
  });
  const c: Collected = {
    events: [],
    sub,
    error: undefined,
    opens: 0,
    done: Promise.resolve(),
    async until(enough, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!enough(c.events)) {
        if (Date.now() > deadline)
          throw new Error(`not there within ${timeoutMs} ms: ${JSON.stringify(c.events.map((e) => [e.id, e.type]))}`);
        if (c.error) throw c.error;
        await new Promise((r) => setTimeout(r, 20));
      }
      return c.events;
    },
  };
  c.done = (async () => {
    try {
      for await (const event of sub) c.events.push(event);
    } catch (err) {
      c.error = err;
    }
  })();
  await Promise.race([
    open,
    c.done.then(() => {
      throw c.error ?? new Error('the subscription ended before its stream opened');
    }),
  ]);
  return c;
}

const count = (n: number) => (events: MarginaliaEvent[]) => events.length >= n;
const typesOf = (events: MarginaliaEvent[]) => events.map((e) => e.type);
const idsOf = (events: MarginaliaEvent[]) => events.map((e) => e.id);
const consecutive = (ids: number[]) => ids.every((id, i) => i === 0 || id === ids[i - 1]! + 1);

describe('the typed client: auth.token, events.subscribe and webhooks against the real server', () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  let api: Marginalia;
  let port: string;
  const running: Collected[] = [];
  const env = () => ({
    ...db.env,
    MARGINALIA_API_KEY: creds.apiKey,
    MARGINALIA_AUTH_TOKEN: creds.authToken,
    // The webhook receiver below listens on 127.0.0.1.
    MARGINALIA_WEBHOOK_ALLOW_PRIVATE: '1',
    MARGINALIA_EVENT_HEARTBEAT_MS: '1000',
  });

  before(async () => {
    db = freshDatabase();
    server = await startServer({ env: env() });
    port = new URL(server.url).port;
    api = new Marginalia({ baseUrl: server.url, ...creds });
  });
  after(async () => {
    for (const c of running) c.sub.close();
    if (server) await stopServer(server);
    await db?.drop();
  });

  const track = (c: Collected) => {
    running.push(c);
    return c;
  };

  const notify = (organizationId: string, userId: string, over: Record<string, unknown> = {}) =>
    api.notifications.add({
      organizationId,
      actionUser: { userId: 'actor' },
      displayHeadlineMessageTemplate: 'Hello',
      notifyUsers: [{ userId }],
      ...over,
    });

  test('auth.token answers a JWT for one user of one organization, valid 48 hours', async () => {
    const org = uniq('org');
    const r = await api.auth.token({ userId: 'ana', userProperties: { organizationId: org, name: 'Ana' } });
    assert.equal(r.status, 'success');
    const parts = r.data.token.split('.');
    assert.equal(parts.length, 3);
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    assert.deepEqual([claims.sub, claims.org, claims.name, claims.exp - claims.iat], ['ana', org, 'Ana', 48 * 3600]);
    const wrong = new Marginalia({ baseUrl: server.url, apiKey: creds.apiKey, authToken: 'wrong-token-wrong-token' });
    await assert.rejects(wrong.auth.token({ userId: 'ana', userProperties: { organizationId: org } }), {
      name: 'MarginaliaError',
      status: 'UNAUTHENTICATED',
      httpStatus: 401,
    });
  });

  test('events.subscribe yields each event parsed, in id order, filtered by organization, document and types', async () => {
    const org = uniq('org');
    const all = track(await subscribed(api, { organizationId: org }));
    const some = track(await subscribed(api, { organizationId: org, types: ['comment.*', 'notification.add'] }));
    const d2 = track(await subscribed(api, { organizationId: org, documentId: 'd2' }));
    const elsewhere = track(await subscribed(api, { organizationId: uniq('other') }));
    await api.users.add({ organizationId: org, users: [{ userId: 'ana', name: 'Ana' }] });
    await api.comments.addAnnotations({
      organizationId: org,
      documentId: 'd1',
      commentAnnotations: [{ annotationId: 't1', commentData: [{ commentText: 'first', from: { userId: 'ana' } }] }],
    });
    await api.comments.add({
      organizationId: org,
      documentId: 'd1',
      annotationId: 't1',
      commentData: [{ commentText: 'second', from: { userId: 'ana' } }],
    });
    await notify(org, 'ana', { documentId: 'd2', notificationId: 'n1' });

    const events = await all.until(count(4));
    assert.deepEqual(typesOf(events), ['user.add', 'comment_annotation.add', 'comment.add', 'notification.add']);
    assert.ok(consecutive(idsOf(events)), `ids ${idsOf(events)}`);
    const [user, thread, comment, notification] = events;
    assert.deepEqual(Object.keys(comment!), ['id', 'type', 'timestamp', 'organizationId', 'documentId', 'data']);
    assert.equal(typeof comment!.timestamp, 'number');
    assert.equal(user!.documentId, undefined, 'no documentId where the event concerns none');
    assert.deepEqual([thread!.documentId, thread!.data.annotationId], ['d1', 't1']);
    assert.deepEqual([comment!.data.annotationId, comment!.data.commentText], ['t1', 'second']);
    assert.deepEqual([notification!.data.id, notification!.documentId], ['n1', 'd2']);
    assert.equal(all.sub.lastEventId, notification!.id);

    assert.deepEqual(typesOf(await some.until(count(2))), ['comment.add', 'notification.add']);
    assert.deepEqual(typesOf(await d2.until(count(1))), ['notification.add']);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(some.events.length, 2, 'nothing else came');
    assert.equal(d2.events.length, 1);
    assert.deepEqual(elsewhere.events, [], 'another organization sees none of it');
    for (const c of [all, some, d2, elsewhere]) {
      c.sub.close();
      await c.done;
      assert.equal(c.error, undefined);
    }
  });

  test('lastEventId starts after that event: the ones after it come from the outbox, then live ones', async () => {
    const org = uniq('org');
    const live = track(await subscribed(api, { organizationId: org }));
    for (const id of ['n1', 'n2', 'n3']) await notify(org, 'ana', { notificationId: id });
    const [first, second, third] = await live.until(count(3));
    live.sub.close();
    const resumed = track(await subscribed(api, { organizationId: org, lastEventId: first!.id }));
    assert.deepEqual(idsOf(await resumed.until(count(2))), [second!.id, third!.id]);
    await notify(org, 'ana', { notificationId: 'n4' });
    const events = await resumed.until(count(3));
    assert.deepEqual(
      events.map((e) => e.data.id),
      ['n2', 'n3', 'n4'],
    );
    assert.equal(resumed.sub.lastEventId, events[2]!.id);
    resumed.sub.close();
    assert.throws(() => api.events.subscribe({ lastEventId: 'x1' }), TypeError);
  });

  test("with an end-user token, the stream carries only that user's share; a bad token is thrown as 401", async () => {
    const org = uniq('org');
    const { token } = (await api.auth.token({ userId: 'ana', userProperties: { organizationId: org } })).data;
    let asked = 0;
    const ana = track(await subscribed(api, { token }));
    // A function is asked at each connection (a fresh token for a long subscription).
    const anaAgain = track(
      await subscribed(api, {
        token: async () => {
          asked++;
          return token;
        },
      }),
    );
    await notify(org, 'ana', { notificationId: 'for-ana' });
    await notify(org, 'bob', { notificationId: 'for-bob' });
    await notify(uniq('other'), 'ana', { notificationId: 'other-org' });
    await notify(org, 'ana', { notificationId: 'for-ana-2' });
    for (const c of [ana, anaAgain]) {
      const events = await c.until(count(2));
      assert.deepEqual(
        events.map((e) => e.data.id),
        ['for-ana', 'for-ana-2'],
      );
    }
    assert.equal(asked, 1);
    await assert.rejects(
      (async () => {
        for await (const _ of api.events.subscribe({ token: `${token}x` })) assert.fail('no event with a tampered token');
      })(),
      (err: unknown) => err instanceof MarginaliaError && err.status === 'UNAUTHENTICATED' && err.httpStatus === 401,
    );
    const wrong = new Marginalia({ baseUrl: server.url, apiKey: creds.apiKey, authToken: 'wrong-token-wrong-token' });
    await assert.rejects(wrong.events.subscribe().next(), { name: 'MarginaliaError', status: 'UNAUTHENTICATED' });
    await assert.rejects(api.events.subscribe({ organizationId: '' }).next(), { status: 'INVALID_ARGUMENT', httpStatus: 400 });
    ana.sub.close();
    anaAgain.sub.close();
  });

  test('stops at once: an aborted signal, return() or break, even while waiting for an event', async () => {
    const quiet = { organizationId: uniq('quiet') };
    const controller = new AbortController();
    const waiting = track(await subscribed(api, { ...quiet, signal: controller.signal }));
    const started = Date.now();
    controller.abort();
    await waiting.done;
    assert.equal(waiting.error, undefined);
    assert.ok(Date.now() - started < 2000, 'the pending next() ended with the abort');

    const sub = api.events.subscribe(quiet);
    const pending = sub.next();
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(await sub.return(), { done: true, value: undefined });
    assert.deepEqual(await pending, { done: true, value: undefined });
    assert.deepEqual(await sub.next(), { done: true, value: undefined });

    let calls = 0;
    const counting = new Marginalia({
      baseUrl: server.url,
      ...creds,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    assert.deepEqual(await counting.events.subscribe({ signal: AbortSignal.abort() }).next(), { done: true, value: undefined });
    assert.equal(calls, 0, 'no request for an aborted signal');

    const org = uniq('org');
    const broken = track(await subscribed(api, { organizationId: org }));
    broken.sub.close();
    let seen = 0;
    const loop = (async () => {
      for await (const _ of api.events.subscribe({ organizationId: org })) {
        seen++;
        break;
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    await notify(org, 'ana');
    await notify(org, 'ana');
    await loop;
    assert.equal(seen, 1);
  });

  test('after a cut connection it reconnects with Last-Event-ID: nothing written meanwhile is lost, nothing comes twice', async () => {
    const proxy = new CuttableProxy({ host: '127.0.0.1', port: Number(port) });
    const proxyPort = await proxy.listen();
    const resumedFrom: (string | null)[] = [];
    const viaProxy = new Marginalia({
      baseUrl: `http://127.0.0.1:${proxyPort}`,
      ...creds,
      fetch: (input, init) => {
        resumedFrom.push(new Headers(init?.headers).get('last-event-id'));
        return fetch(input, init);
      },
    });
    try {
      const org = uniq('org');
      const c = track(await subscribed(viaProxy, { organizationId: org }));
      await notify(org, 'ana', { notificationId: 'before' });
      const [before] = await c.until(count(1));
      proxy.cut('reset');
      await notify(org, 'ana', { notificationId: 'during-1' });
      await notify(org, 'ana', { notificationId: 'during-2' });
      await new Promise((r) => setTimeout(r, 300));
      proxy.restore();
      await c.until(count(3));
      await notify(org, 'ana', { notificationId: 'after' });
      const events = await c.until(count(4));
      assert.deepEqual(
        events.map((e) => e.data.id),
        ['before', 'during-1', 'during-2', 'after'],
      );
      assert.ok(consecutive(idsOf(events)));
      assert.equal(resumedFrom[0], null, 'the first connection starts from now');
      assert.ok(resumedFrom.length >= 2, 'it connected again');
      assert.ok(
        resumedFrom.slice(1).every((id) => id === String(before!.id)),
        `every reconnection resumed after ${before!.id}: ${resumedFrom}`,
      );
      assert.ok(c.opens >= 2);
      c.sub.close();
    } finally {
      await proxy.close();
    }
  });

  test('after the server restarts (its close message), it resumes from the outbox with what was written meanwhile', async () => {
    let gate: Promise<void> | null = null;
    let release!: () => void;
    const resumedFrom: (string | null)[] = [];
    // Reconnections wait at the gate, so the events written after the restart are surely read from the outbox.
    const gated = new Marginalia({
      baseUrl: server.url,
      ...creds,
      fetch: async (input, init) => {
        if (gate) await gate;
        resumedFrom.push(new Headers(init?.headers).get('last-event-id'));
        return fetch(input, init);
      },
    });
    const org = uniq('org');
    const c = track(await subscribed(gated, { organizationId: org }));
    await notify(org, 'ana', { notificationId: 'before' });
    const [before] = await c.until(count(1));
    gate = new Promise<void>((resolve) => (release = resolve));
    assert.notEqual(await stopServer(server), -1);
    server = await startServer({ env: { ...env(), PORT: port } });
    assert.equal(new URL(server.url).port, port);
    await notify(org, 'ana', { notificationId: 'while-away-1' });
    await notify(org, 'ana', { notificationId: 'while-away-2' });
    assert.equal(c.events.length, 1);
    release();
    gate = null;
    const events = await c.until(count(3), 15_000);
    assert.deepEqual(
      events.map((e) => e.data.id),
      ['before', 'while-away-1', 'while-away-2'],
    );
    assert.equal(resumedFrom.at(-1), String(before!.id), 'it resumed after the last event it had');
    await notify(org, 'ana', { notificationId: 'live-again' });
    assert.equal((await c.until(count(4)))[3]!.data.id, 'live-again');
    c.sub.close();
  });

  describe('webhooks', () => {
    let receiver: Server;
    let receiverUrl: string;
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];

    before(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => (body += chunk));
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/marginalia`;
    });
    after(() => new Promise((r) => receiver.close(r)));

    /** docs/events.md's verification without a package, as written there. */
    function verifyByHand(secret: string, headers: IncomingMessage['headers'], body: string): boolean {
      const id = String(headers['webhook-id']);
      const timestamp = String(headers['webhook-timestamp']);
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 5 * 60) return false;
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
      return String(headers['webhook-signature'])
        .split(' ')
        .some((entry) => {
          const [version, signature] = entry.split(',');
          const given = Buffer.from(signature ?? '', 'base64');
          return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
        });
    }

    test('add, get, a signed delivery that verifies, deliveries, delete', async () => {
      const org = uniq('org');
      const added = await api.webhooks.add({ url: receiverUrl, events: ['notification.*'], description: 'mine' });
      const { webhookId, secret } = added.data;
      assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      const listed = (await api.webhooks.get()).data.find((w) => w.webhookId === webhookId);
      assert.deepEqual(
        [listed?.url, listed?.events, listed?.description, typeof listed?.createdAt],
        [receiverUrl, ['notification.*'], 'mine', 'number'],
      );
      assert.ok(!JSON.stringify(listed).includes(secret), 'the secret is shown only once');

      await api.users.add({ organizationId: org, users: [{ userId: 'ana' }] });
      await notify(org, 'ana', { notificationId: 'hooked' });
      await eventually('the delivery of "hooked"', () => received.some((r) => r.body.includes('"hooked"')), { ms: 15_000 });
      const delivery = received.find((r) => r.body.includes('"hooked"'))!;
      assert.ok(!received.some((r) => r.body.includes('"user.add"')), 'only the types it asked for');
      const event = JSON.parse(delivery.body) as MarginaliaEvent;
      assert.deepEqual([event.type, event.organizationId, event.data.id], ['notification.add', org, 'hooked']);
      assert.match(String(delivery.headers['webhook-id']), new RegExp(`^evt_[0-9a-f]{32}_${event.id}$`));
      assert.equal(delivery.headers['content-type'], 'application/json');
      // Both ways docs/events.md shows a receiver verifying it.
      const verified = new StandardWebhook(secret).verify(delivery.body, {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      });
      assert.deepEqual(verified, event);
      assert.equal(verifyByHand(secret, delivery.headers, delivery.body), true);
      assert.equal(verifyByHand(secret, delivery.headers, delivery.body.replace('hooked', 'hacked')), false);
      assert.equal(verifyByHand(`whsec_${Buffer.alloc(32).toString('base64')}`, delivery.headers, delivery.body), false);

      let attempts = await api.webhooks.allDeliveries({ webhookId, pageSize: 1 });
      for (let i = 0; i < 50 && !attempts.some((a) => a.eventId === event.id && a.status === 'delivered'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        attempts = await api.webhooks.allDeliveries({ webhookId, pageSize: 1 });
      }
      const attempt = attempts.find((a) => a.eventId === event.id);
      assert.deepEqual(
        [attempt?.status, attempt?.responseCode, attempt?.attempt, attempt?.eventType],
        ['delivered', 204, 1, 'notification.add'],
      );
      const page = await api.webhooks.deliveries({ webhookId, pageSize: 1 });
      assert.equal(page.data.length, 1);

      assert.equal((await api.webhooks.delete({ webhookId })).status, 'success');
      assert.ok(!(await api.webhooks.get()).data.some((w) => w.webhookId === webhookId));
      await assert.rejects(api.webhooks.deliveries({ webhookId }), { name: 'MarginaliaError', status: 'NOT_FOUND' });
      await assert.rejects(api.webhooks.add({ url: 'ftp://example.com/x' }), { status: 'INVALID_ARGUMENT' });
    });
  });
});

describe('the typed client and an event stream from a stand-in', () => {
  let stub: Server;
  let url: string;
  const requests: IncomingMessage[] = [];
  let answer: (n: number, req: IncomingMessage, res: import('node:http').ServerResponse) => void;

  before(async () => {
    stub = createServer((req, res) => {
      requests.push(req);
      answer(requests.length, req, res);
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
  });
  after(() => {
    stub.closeAllConnections();
    return new Promise((r) => stub.close(r));
  });

  const event = (id: number, type = 'comment.add') =>
    JSON.stringify({ id, type, timestamp: 1, organizationId: 'o', data: { n: id } });

  test('reads the grammar (CRLF, cut chunks, data on several lines, an id alone); retries a 503; resumes after close', async () => {
    requests.length = 0;
    const sse = { 'content-type': 'text/event-stream' };
    answer = (n, _req, res) => {
      if (n === 1) {
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { status: 'UNAVAILABLE', message: 'busy' } }));
      }
      res.writeHead(200, sse);
      if (n === 2) {
        const text =
          `retry: 1000\r\n\r\n: open\r\n\r\nid: 1\r\ndata: ${event(1).replace(',"data"', '\r\ndata: ,"data"')}\r\n\r\n` +
          `: heartbeat\n\nid: 2\ndata:${event(2)}\n\nid: 7\n\nevent: close\ndata: {"reason":"bye","lastEventId":9}\n\n`;
        // Cut into pieces of 7 characters, a \r\n split among them.
        const pieces = text.match(/[\s\S]{1,7}/g)!;
        const write = (i: number): void => {
          if (i === pieces.length) return void res.end();
          res.write(pieces[i]);
          setTimeout(() => write(i + 1), 1);
        };
        return write(0);
      }
      // Already given (2) is not given again; 10 is new.
      res.write(`: open\n\nid: 2\ndata: ${event(2)}\n\nid: 10\ndata: ${event(10, 'notification.add')}\n\n`);
    };
    const api = new Marginalia({ baseUrl: url, apiKey: 'k', authToken: 't' });
    const sub = api.events.subscribe({ types: ['comment.*', 'notification.add'], backoffMs: 5 });
    const got: MarginaliaEvent[] = [];
    for await (const e of sub) {
      got.push(e);
      if (got.length === 3) break;
    }
    assert.deepEqual(
      got.map((e) => [e.id, e.type, e.data.n]),
      [
        [1, 'comment.add', 1],
        [2, 'comment.add', 2],
        [10, 'notification.add', 10],
      ],
    );
    assert.equal(sub.lastEventId, 10);
    assert.equal(requests.length, 3, 'a 503, the stream that closed, the stream it resumed');
    assert.equal(requests[1]!.url, '/v1/events?types=comment.*%2Cnotification.add');
    assert.equal(requests[1]!.headers['x-service-api-key'], 'k');
    assert.equal(requests[1]!.headers['last-event-id'], undefined);
    assert.equal(requests[2]!.headers['last-event-id'], '9', 'from where the close message said');
  });

  test('a refusal that waiting does not end is thrown at once, with its status and message', async () => {
    requests.length = 0;
    answer = (_n, _req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': 'r-1' });
      res.end(JSON.stringify({ error: { status: 'INVALID_ARGUMENT', message: 'types lists "x"' } }));
    };
    const api = new Marginalia({ baseUrl: url, apiKey: 'k', authToken: 't' });
    await assert.rejects(api.events.subscribe({ backoffMs: 5 }).next(), {
      name: 'MarginaliaError',
      status: 'INVALID_ARGUMENT',
      httpStatus: 400,
      message: 'types lists "x"',
      requestId: 'r-1',
    });
    assert.equal(requests.length, 1);
  });

  test('a stream silent past idleTimeoutMs (no heartbeat) is taken for dead and opened again', async () => {
    requests.length = 0;
    answer = (n, _req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // The first connection goes silent after one event; the second one brings the next.
      res.write(n === 1 ? `: open\n\nid: 1\ndata: ${event(1)}\n\n` : `: open\n\nid: 2\ndata: ${event(2)}\n\n`);
    };
    const api = new Marginalia({ baseUrl: url, apiKey: 'k', authToken: 't' });
    const got: number[] = [];
    for await (const e of api.events.subscribe({ idleTimeoutMs: 200, backoffMs: 5 })) {
      got.push(e.id);
      if (got.length === 2) break;
    }
    assert.deepEqual(got, [1, 2]);
    assert.equal(requests[1]!.headers['last-event-id'], '1');
  });
});
