// Webhooks (docs/events.md, "Webhooks") on the configured database: webhooks/add, get, delete and deliveries/get,
// their errors, the SSRF guard (on, as by default), isolation between tenants, and the delivery worker run in
// this process against a receiver on 127.0.0.1 (signed, in order, retried, filtered by type).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { addWebhook } from '../../src/services/webhooks.js';
import type { Tenant } from '../../src/domain/credentials.js';
import { IDLE_CONNECTION_MS } from '../../src/webhooks/send.js';
import { WebhookWorker } from '../../src/webhooks/worker.js';
import { expectError, makeTestApp, notificationData, PATHS, type TestApp } from '../helpers/app.js';
import { expectMissingCredentials } from '../helpers/security.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const P = {
  add: '/v1/webhooks/add',
  get: '/v1/webhooks/get',
  delete: '/v1/webhooks/delete',
  deliveries: '/v1/webhooks/deliveries/get',
} as const;

let t: TestApp;
let tenantA: Tenant;
before(async () => {
  t = await makeTestApp();
  tenantA = (await t.store.findCredentials(t.a.creds.apiKey))!.tenant;
});
after(async () => t.close());

/** An address the guard takes (a literal: no DNS lookup), in a documentation range: nothing there answers. */
const PUBLIC = 'https://203.0.113.10/hooks/marginalia';

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;

async function clearWebhooks(): Promise<void> {
  for (const caller of [t.a, t.b])
    for (const w of (await caller.ok(P.get, {})).data) await caller.ok(P.delete, { webhookId: w.webhookId });
}

describe('webhooks: operations', () => {
  test('add answers the id and a whsec_ secret of 32 random bytes; get lists webhooks without it', async () => {
    await clearWebhooks();
    const added = await t.a.ok(P.add, { url: PUBLIC, description: 'the CRM', events: ['comment.*', 'notification.add'] });
    assert.equal(added.message, 'Webhook added successfully.');
    assert.deepEqual(Object.keys(added.data).sort(), ['secret', 'webhookId']);
    assert.match(added.data.webhookId, /^wh_[0-9a-f]{32}$/);
    assert.match(added.data.secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
    assert.equal(Buffer.from(added.data.secret.slice('whsec_'.length), 'base64').length, 32);
    const other = await t.a.ok(P.add, { url: 'http://[2606:4700:4700::1111]/x?token=abc', events: [] });
    assert.notEqual(other.data.secret, added.data.secret);

    const r = await t.a.post(P.get, {});
    assert.equal(r.status, 200);
    assert.ok(!r.body.includes(added.data.secret) && !r.body.includes('whsec_'), 'no secret in webhooks/get');
    assert.equal(r.json.result.message, 'Webhook(s) retrieved successfully.');
    const [first, second] = r.json.result.data;
    assert.deepEqual(Object.keys(first).sort(), ['createdAt', 'description', 'events', 'url', 'webhookId']);
    assert.equal(first.webhookId, added.data.webhookId);
    assert.equal(first.url, PUBLIC);
    assert.equal(first.description, 'the CRM');
    assert.deepEqual(first.events, ['comment.*', 'notification.add']);
    assert.ok(Number.isInteger(first.createdAt));
    // An empty events list is no filter (docs/api.md, "Wire format"): every event, shown as no `events` at all.
    assert.deepEqual(Object.keys(second).sort(), ['createdAt', 'url', 'webhookId']);
    assert.equal(second.webhookId, other.data.webhookId);
  });

  test('events repeated are kept once; null members are absent', async () => {
    const added = await t.a.ok(P.add, { url: PUBLIC, events: ['user.add', 'user.add', 'folder.*'], description: null });
    const got = (await t.a.ok(P.get, {})).data.find((w: any) => w.webhookId === added.data.webhookId);
    assert.deepEqual(got.events, ['user.add', 'folder.*']);
    assert.equal(got.description, undefined);
  });

  test('delete removes the webhook; deleting it again, or an unknown one, is NOT_FOUND', async () => {
    const added = await t.a.ok(P.add, { url: PUBLIC });
    const del = await t.a.ok(P.delete, { webhookId: added.data.webhookId });
    assert.equal(del.message, 'Webhook deleted successfully.');
    assert.equal(del.data, null);
    assert.ok(!(await t.a.ok(P.get, {})).data.some((w: any) => w.webhookId === added.data.webhookId));
    const again = expectError(await t.a.post(P.delete, { webhookId: added.data.webhookId }), 404, 'NOT_FOUND');
    assert.equal(again, `Webhook ${added.data.webhookId} does not exist.`);
    expectError(await t.a.post(P.deliveries, { webhookId: added.data.webhookId }), 404, 'NOT_FOUND');
    expectError(await t.a.post(P.deliveries, { webhookId: 'wh_nothing' }), 404, 'NOT_FOUND');
  });

  test('deliveries/get of a webhook with no attempts yet is an empty page', async () => {
    const added = await t.a.ok(P.add, { url: PUBLIC });
    const got = await t.a.ok(P.deliveries, { webhookId: added.data.webhookId });
    assert.equal(got.message, 'Webhook deliveries retrieved successfully.');
    assert.deepEqual(got.data, []);
    assert.equal(got.pageToken, undefined);
  });
});

describe('webhooks: errors', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no url', {}, /data\.url is required/],
    ['url not a string', { url: 5 }, /data\.url must be a string/],
    ['empty url', { url: '' }, /data\.url/],
    ['not a URL', { url: 'not a url' }, /data\.url must be an http:\/\/ or https:\/\/ URL/],
    ['ftp', { url: 'ftp://203.0.113.10/x' }, /http:\/\/ or https:\/\//],
    ['javascript', { url: 'javascript:alert(1)' }, /http:\/\/ or https:\/\//],
    ['file', { url: 'file:///etc/passwd' }, /http:\/\/ or https:\/\//],
    ['a password in the URL', { url: 'https://user:pw@203.0.113.10/x' }, /user name or password/],
    ['too long', { url: `https://203.0.113.10/${'a'.repeat(2048)}` }, /data\.url must be at most 2048/],
    ['events not a list', { url: PUBLIC, events: 'comment.add' }, /data\.events must be an array/],
    ['an unknown kind', { url: PUBLIC, events: ['comments.add'] }, /data\.events\[0\] must be an event type/],
    ['a bare star', { url: PUBLIC, events: ['comment.add', '*'] }, /data\.events\[1\]/],
    ['upper case', { url: PUBLIC, events: ['comment.Add'] }, /data\.events\[0\]/],
    ['an empty action', { url: PUBLIC, events: ['comment.'] }, /data\.events\[0\]/],
    ['a star inside', { url: PUBLIC, events: ['comment.a*'] }, /data\.events\[0\]/],
    ['description too long', { url: PUBLIC, description: 'x'.repeat(1025) }, /data\.description must be at most 1024/],
  ];
  for (const [what, data, message] of cases)
    test(`add: ${what} is INVALID_ARGUMENT and adds nothing`, async () => {
      const before = (await t.a.ok(P.get, {})).data.length;
      const m = expectError(await t.a.post(P.add, data), 400, 'INVALID_ARGUMENT', what);
      assert.match(m, message);
      assert.equal((await t.a.ok(P.get, {})).data.length, before);
    });

  test('delete and deliveries/get need a webhookId of 1 to 256 characters', async () => {
    for (const path of [P.delete, P.deliveries]) {
      assert.match(expectError(await t.a.post(path, {}), 400, 'INVALID_ARGUMENT'), /data\.webhookId is required/);
      expectError(await t.a.post(path, { webhookId: '' }), 400, 'INVALID_ARGUMENT');
      expectError(await t.a.post(path, { webhookId: 'x'.repeat(257) }), 400, 'INVALID_ARGUMENT');
    }
    expectError(await t.a.post(P.deliveries, { webhookId: 'w', pageSize: 0 }), 400, 'INVALID_ARGUMENT');
    expectError(await t.a.post(P.deliveries, { webhookId: 'w', pageSize: 1001 }), 400, 'INVALID_ARGUMENT');
  });

  test('a malformed pageToken, or one of another webhook, is INVALID_ARGUMENT', async () => {
    const w = await t.a.ok(P.add, { url: PUBLIC });
    for (const token of ['%%%', 'bm90IGpzb24', Buffer.from('[2,"abc","x"]').toString('base64url')])
      expectError(await t.a.post(P.deliveries, { webhookId: w.data.webhookId, pageToken: token }), 400, 'INVALID_ARGUMENT');
  });

  test('every operation needs both credentials', async () => {
    for (const path of Object.values(P)) await expectMissingCredentials(t, path, { data: { url: PUBLIC, webhookId: 'x' } });
  });
});

describe('webhooks: the SSRF guard (MARGINALIA_WEBHOOK_ALLOW_PRIVATE unset)', () => {
  const refused: [string, RegExp][] = [
    ['http://127.0.0.1:8080/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://127.8.9.10/', /loopback/],
    ['http://localhost:3000/hook', /localhost resolves to .*, a loopback address/],
    ['http://[::1]/', /::1 is a loopback address/],
    ['http://0x7f000001/', /127\.0\.0\.1 is a loopback address/],
    ['http://2130706433/', /loopback/],
    ['http://10.1.2.3/', /10\.1\.2\.3 is a private address/],
    ['http://172.16.5.4/', /private/],
    ['http://172.31.255.255/', /private/],
    ['http://192.168.1.1/', /private/],
    ['http://100.64.0.1/', /private/],
    ['http://[fd12:3456::1]/', /private/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
    ['http://[fe80::1]/', /link-local/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://[::]/', /unspecified/],
    ['http://224.0.0.1/', /multicast/],
    ['http://[ff02::1]/', /multicast/],
    ['http://255.255.255.255/', /reserved/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://[::ffff:10.0.0.1]/', /private/],
    ['http://[64:ff9b::a9fe:a9fe]/', /link-local/],
    ['http://[2002:c0a8:0101::1]/', /private/],
  ];
  for (const [url, message] of refused)
    test(`${url} is refused`, async () => {
      const m = expectError(await t.a.post(P.add, { url }), 400, 'INVALID_ARGUMENT', url);
      assert.match(m, /^data\.url: /);
      assert.match(m, message);
      assert.match(m, /MARGINALIA_WEBHOOK_ALLOW_PRIVATE=1/);
      assert.ok(!(await t.a.ok(P.get, {})).data.some((w: any) => w.url === url), 'nothing was added');
    });

  test('public addresses are taken: 172.32/12 and 100.128/10 are not private', async () => {
    for (const url of [
      'http://172.32.0.1/',
      'http://100.128.0.1/',
      'http://[2606:4700::6810:85e5]/',
      'http://[64:ff9b::8.8.8.8]/',
    ])
      await t.a.ok(P.add, { url });
  });

  test('a host that does not resolve is refused', async () => {
    const m = expectError(await t.a.post(P.add, { url: 'https://no-such-host.invalid/hook' }), 400, 'INVALID_ARGUMENT');
    assert.match(m, /no-such-host\.invalid does not resolve/);
  });

  test('with MARGINALIA_WEBHOOK_ALLOW_PRIVATE=1 webhooks/add takes a loopback URL', async () => {
    const allowed = await makeTestApp({ config: { webhookAllowPrivate: true } });
    try {
      const added = await allowed.a.ok(P.add, { url: 'http://127.0.0.1:9/hook' });
      assert.match(added.data.webhookId, /^wh_/);
    } finally {
      await allowed.close();
    }
  });

  test('the service takes loopback URLs when allowed (what the setting turns on)', async () => {
    const services = { store: t.store, clock: () => Date.now(), webhookAllowPrivate: true };
    const added = await addWebhook(services, tenantA, { url: 'http://127.0.0.1:9/hook' });
    assert.match(added.webhookId, /^wh_/);
    await t.a.ok(P.delete, { webhookId: added.webhookId });
  });
});

describe('webhooks: isolation between tenants', () => {
  test("tenant b neither sees, deletes nor reads the attempts of a's webhooks", async () => {
    await clearWebhooks();
    const mine = await t.a.ok(P.add, { url: PUBLIC, description: 'a' });
    const theirs = await t.b.ok(P.add, { url: PUBLIC, description: 'b' });
    assert.deepEqual(
      (await t.b.ok(P.get, {})).data.map((w: any) => w.webhookId),
      [theirs.data.webhookId],
    );
    expectError(await t.b.post(P.delete, { webhookId: mine.data.webhookId }), 404, 'NOT_FOUND');
    expectError(await t.b.post(P.deliveries, { webhookId: mine.data.webhookId }), 404, 'NOT_FOUND');
    assert.deepEqual(
      (await t.a.ok(P.get, {})).data.map((w: any) => w.webhookId),
      [mine.data.webhookId],
      "a's webhook is still there",
    );
  });
});

describe('webhooks: delivery (the worker, in this process)', () => {
  let receiver: Receiver;
  let worker: WebhookWorker | null = null;
  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    await worker?.stop();
    await receiver.close();
  });

  const startWorker = (retryScheduleMs: number[] = [50, 50, 50]) => {
    worker = new WebhookWorker({
      store: t.store,
      allowPrivate: true,
      timeoutMs: 2000,
      retryScheduleMs,
      concurrency: 4,
      pollMs: 20,
    }).start();
  };
  const stopWorker = async () => {
    await worker?.stop();
    worker = null;
  };

  /** A webhook on the receiver, through the service (the HTTP operation refuses loopback by default). */
  async function hook(events?: string[]): Promise<{ webhookId: string; secret: string }> {
    await clearWebhooks();
    const added = await addWebhook({ store: t.store, clock: () => Date.now(), webhookAllowPrivate: true }, tenantA, {
      url: receiver.url,
      ...(events ? { events } : {}),
    });
    receiver.secret = added.secret;
    receiver.received.length = 0;
    receiver.unverified.length = 0;
    receiver.answer = () => 200;
    return added;
  }

  const notify = (organizationId: string, n: number) =>
    t.a.ok(PATHS.notificationsAdd, notificationData(organizationId, { notificationId: `n${n}` }));

  test('each event is POSTed once, signed (Webhook.verify), in event order per organization; attempts are logged', async () => {
    const old = uniq('org');
    await notify(old, 0);
    const webhook = await hook();
    startWorker();
    const [o1, o2] = [uniq('org'), uniq('org')];
    for (let i = 1; i <= 6; i++) await notify(i % 2 ? o1 : o2, i);
    await receiver.until(() => receiver.received.length >= 6, 20_000, 'six deliveries');
    await new Promise((r) => setTimeout(r, 200));
    await stopWorker();

    assert.equal(receiver.received.length, 6, 'the event before the webhook was made is not sent, and none twice');
    assert.deepEqual(receiver.unverified, [], 'every signature verifies');
    for (const r of receiver.received) {
      assert.match(r.id, new RegExp(`^evt_[0-9a-f]{32}_${r.body.id}$`), 'webhook-id is stable per event and webhook');
      assert.equal(r.body.type, 'notification.add');
      assert.ok(Math.abs(r.timestamp * 1000 - Date.now()) < 60_000);
    }
    for (const org of [o1, o2]) {
      const ids = receiver.received.filter((r) => r.body.organizationId === org).map((r) => r.body.id);
      assert.equal(ids.length, 3);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
        `${org}: in event order`,
      );
    }
    // A forged signature does not verify (the receiver's check is real).
    const sample = receiver.received[0]!;
    assert.throws(() =>
      new Webhook(receiver.secret!).verify(JSON.stringify({ ...sample.body, id: 0 }), {
        'webhook-id': sample.id,
        'webhook-timestamp': String(sample.timestamp),
        'webhook-signature': 'v1,AAAA',
      }),
    );

    const got = await t.a.ok(P.deliveries, { webhookId: webhook.webhookId });
    assert.equal(got.data.length, 6);
    for (const a of got.data) {
      assert.deepEqual(Object.keys(a).sort(), [
        'attempt',
        'attemptedAt',
        'durationMs',
        'eventId',
        'eventType',
        'responseCode',
        'status',
      ]);
      assert.equal(a.status, 'delivered');
      assert.equal(a.responseCode, 200);
      assert.equal(a.attempt, 1);
      assert.equal(a.eventType, 'notification.add');
    }
    const ids = got.data.map((a: any) => a.eventId);
    assert.deepEqual(new Set(ids), new Set(receiver.received.map((r) => r.body.id)));

    // Newest (last logged) first; paged, the pages put together are the same list.
    const seen: number[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await t.a.ok(P.deliveries, {
        webhookId: webhook.webhookId,
        pageSize: 4,
        ...(token ? { pageToken: token } : {}),
      });
      seen.push(...page.data.map((a: any) => a.eventId));
      token = page.pageToken;
      pages++;
    } while (token);
    assert.equal(pages, 2);
    assert.deepEqual(seen, ids);
    const last = Math.max(...receiver.received.map((r) => r.body.id));
    assert.equal(got.data.filter((a: any) => a.eventId === last).length, 1);
    const rows = await t.db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`);
    assert.equal(Number(rows[0]!.n), 0);
    assert.equal(Number((await t.db.query('SELECT count(*) AS n FROM webhook_queues'))[0]!.n), 0, 'no queue is left');
  });

  test('a 500 is retried on the schedule until a 2xx; the attempts say so; the next event waits its turn', async () => {
    const webhook = await hook();
    const failures = new Map<number, number>();
    receiver.answer = (body) => {
      const n = failures.get(body.id) ?? 0;
      failures.set(body.id, n + 1);
      return n < 2 ? 500 : 204;
    };
    startWorker([100, 100, 100]);
    const org = uniq('org');
    await notify(org, 1);
    await notify(org, 2);
    await receiver.until(() => receiver.received.filter((r) => r.status === 204).length === 2, 20_000, 'both delivered');
    await stopWorker();
    // Per organization in order: the second event is first tried after the first is delivered.
    assert.deepEqual(
      receiver.received.map((r) => [r.body.id - receiver.received[0]!.body.id, r.status]),
      [
        [0, 500],
        [0, 500],
        [0, 204],
        [1, 500],
        [1, 500],
        [1, 204],
      ],
    );
    assert.ok(receiver.received[1]!.at - receiver.received[0]!.at >= 90, 'the retry waited for the schedule');
    const got = (await t.a.ok(P.deliveries, { webhookId: webhook.webhookId })).data;
    assert.deepEqual(
      got.map((a: any) => [a.attempt, a.status, a.responseCode, a.error ?? null]),
      [
        [3, 'delivered', 204, null],
        [2, 'retrying', 500, 'HTTP 500'],
        [1, 'retrying', 500, 'HTTP 500'],
        [3, 'delivered', 204, null],
        [2, 'retrying', 500, 'HTTP 500'],
        [1, 'retrying', 500, 'HTTP 500'],
      ],
    );
  });

  test('after the last retry a delivery has failed, and the next event of its organization goes on', async () => {
    const webhook = await hook();
    receiver.answer = (body) => (body.data?.id === 'n1' ? 503 : 200);
    startWorker([50, 50]);
    const org = uniq('org');
    await notify(org, 1);
    await notify(org, 2);
    await receiver.until(() => receiver.received.some((r) => r.status === 200), 20_000, 'the second event');
    await stopWorker();
    assert.deepEqual(
      receiver.received.map((r) => r.status),
      [503, 503, 503, 200],
    );
    const got = (await t.a.ok(P.deliveries, { webhookId: webhook.webhookId })).data;
    assert.deepEqual(
      got.map((a: any) => [a.attempt, a.status]),
      [
        [1, 'delivered'],
        [3, 'failed'],
        [2, 'retrying'],
        [1, 'retrying'],
      ],
    );
    const rows = await t.db.query(
      `SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = '${webhook.webhookId}' ORDER BY event_id`,
    );
    assert.deepEqual(
      rows.map((r) => [r.status, Number(r.attempts)]),
      [
        ['failed', 3],
        ['delivered', 1],
      ],
    );
  });

  test('a receiver that reads the request and closes the connection: every request sent is one attempt listed', async () => {
    const webhook = await hook();
    // The first events are answered, so the worker holds kept-alive connections to the receiver when it
    // starts hanging up: a reset on a reused connection must not be sent again unlisted.
    receiver.answer = (body) => (body.data?.id === 'n99' ? 0 : 200);
    startWorker([50, 50]);
    await Promise.all([1, 2, 3, 4].map((n) => notify(uniq('org'), n)));
    await receiver.until(() => receiver.received.length === 4, 20_000, 'four deliveries');
    await notify(uniq('org'), 99);
    const listed = async () => (await t.a.ok(P.deliveries, { webhookId: webhook.webhookId })).data as any[];
    const deadline = Date.now() + 20_000;
    while (!(await listed()).some((a) => a.status === 'failed') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));
    await stopWorker();

    const attempts = await listed();
    const closed = attempts.filter((a) => a.status !== 'delivered');
    const hungUp = receiver.received.filter((r) => r.status === 0);
    assert.equal(hungUp.length, closed.length, 'requests hung up on == failed attempts listed');
    assert.equal(receiver.received.length, attempts.length, 'requests received == attempts listed');
    // One request per attempt: the first and the two retries, then failed for good.
    assert.deepEqual(
      closed.map((a) => [a.attempt, a.status, a.responseCode ?? null]),
      [
        [3, 'failed', null],
        [2, 'retrying', null],
        [1, 'retrying', null],
      ],
    );
    for (const a of closed) assert.match(a.error, /ECONNRESET|socket hang up/);
  });

  test('connections are kept alive between deliveries, and closed once unused for IDLE_CONNECTION_MS', async () => {
    await hook();
    startWorker();
    const org = uniq('org');
    const before = receiver.connections;
    await notify(org, 1);
    await notify(org, 2);
    await receiver.until(() => receiver.received.length === 2, 10_000, 'two deliveries');
    assert.equal(receiver.connections - before, 1, 'the second delivery reuses the first one’s connection');
    // Unused past the limit, the connection is closed by the worker, not reused as the receiver may close it.
    await new Promise((r) => setTimeout(r, IDLE_CONNECTION_MS + 300));
    await notify(org, 3);
    await receiver.until(() => receiver.received.length === 3, 10_000, 'the third delivery');
    await stopWorker();
    assert.equal(receiver.connections - before, 2, 'a new connection after the idle limit');
    assert.deepEqual(
      receiver.received.map((r) => r.status),
      [200, 200, 200],
    );
  });

  test('a webhook is sent only the types it names; a receiver that does not answer in time is a failed attempt', async () => {
    await hook(['comment.*']);
    startWorker();
    await notify(uniq('org'), 1);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(receiver.received.length, 0, 'notification.add is not a comment event');
    await stopWorker();
    const wanted = await hook(['notification.*']);
    receiver.delayMs = 500;
    worker = new WebhookWorker({
      store: t.store,
      allowPrivate: true,
      timeoutMs: 150,
      retryScheduleMs: [],
      concurrency: 1,
      pollMs: 20,
    }).start();
    await notify(uniq('org'), 2);
    await receiver.until(() => receiver.received.length === 1, 10_000, 'one attempt');
    await new Promise((r) => setTimeout(r, 300));
    await stopWorker();
    receiver.delayMs = 0;
    const [attempt] = (await t.a.ok(P.deliveries, { webhookId: wanted.webhookId })).data;
    assert.equal(attempt.status, 'failed');
    assert.equal(attempt.responseCode, undefined);
    assert.match(attempt.error, /no answer within 150 ms/);
  });

  test('presence goes only to a webhook that names it: a heartbeat is not sent unasked', async () => {
    const org = uniq('org');
    const present = () =>
      t.a.ok(PATHS.presenceAdd, { organizationId: org, documentId: 'doc', users: [{ userId: 'ann', name: 'Ann' }] });
    await hook();
    startWorker();
    await present();
    await notify(org, 1);
    await receiver.until(() => receiver.received.length === 1, 10_000, 'the notification');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(
      receiver.received.map((d) => d.body.type),
      ['notification.add'],
      'no presence event unasked',
    );
    await stopWorker();
    await hook(['presence.*']);
    startWorker();
    await present();
    await receiver.until(() => receiver.received.length === 1, 10_000, 'the presence event');
    assert.equal(receiver.received[0]!.body.type, 'presence.add');
    await stopWorker();
  });

  test('the guard holds at connection time too: a webhook whose name now resolves to loopback is not sent', async () => {
    const webhook = await hook();
    // Made while allowed, delivered by a worker with the guard on (as if DNS had changed since).
    await t.db.exec(
      `UPDATE webhooks SET url = '${receiver.url.replace('127.0.0.1', 'localhost')}' WHERE id = '${webhook.webhookId}'`,
    );
    worker = new WebhookWorker({
      store: t.store,
      allowPrivate: false,
      timeoutMs: 2000,
      retryScheduleMs: [],
      concurrency: 1,
      pollMs: 20,
    }).start();
    await notify(uniq('org'), 1);
    const deadline = Date.now() + 10_000;
    let got: any[] = [];
    while (got.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      got = (await t.a.ok(P.deliveries, { webhookId: webhook.webhookId })).data;
    }
    await stopWorker();
    assert.equal(receiver.received.length, 0);
    assert.equal(got[0].status, 'failed');
    assert.match(got[0].error, /localhost resolves to .*, a loopback address/);
  });

  test('delete takes the pending deliveries with it', async () => {
    const webhook = await hook();
    receiver.answer = () => 500;
    startWorker([60_000]);
    await notify(uniq('org'), 1);
    await notify(uniq('org'), 2);
    await receiver.until(() => receiver.received.length >= 2, 10_000, 'first attempts');
    await stopWorker();
    const pending = async () =>
      Number(
        (
          await t.db.query(
            `SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = '${webhook.webhookId}' AND status = 'pending'`,
          )
        )[0]!.n,
      );
    assert.equal(await pending(), 2);
    await t.a.ok(P.delete, { webhookId: webhook.webhookId });
    assert.equal(await pending(), 0);
    assert.equal(
      Number((await t.db.query(`SELECT count(*) AS n FROM webhook_queues WHERE webhook_id = '${webhook.webhookId}'`))[0]!.n),
      0,
    );
  });

  test('retention: finished deliveries and attempts older than it go, pending ones stay', async () => {
    const webhook = await hook();
    startWorker();
    await notify(uniq('org'), 1);
    await receiver.until(() => receiver.received.length === 1, 10_000, 'one delivery');
    await new Promise((r) => setTimeout(r, 100));
    await stopWorker();
    const count = async (table: string) =>
      Number((await t.db.query(`SELECT count(*) AS n FROM ${table} WHERE webhook_id = '${webhook.webhookId}'`))[0]!.n);
    assert.equal(await count('webhook_deliveries'), 1);
    assert.equal(await count('webhook_attempts'), 1);
    assert.equal(await t.store.pruneWebhookDeliveries(Date.now() - 3_600_000, 1000), 0, 'nothing is that old');
    assert.ok((await t.store.pruneWebhookDeliveries(Date.now() + 1000, 1000)) >= 1);
    assert.equal(await count('webhook_deliveries'), 0);
    assert.equal(await count('webhook_attempts'), 0);
  });
});
