// Advanced webhooks (docs/api.md, "Advanced webhooks") on the configured database: the nine /v2 pages (endpoints
// create, get, update, delete, secret/get; advancedwebhookconfig and webhookconfig get and update) with their
// documented messages, errors, tenant isolation and credentials; the operators' replay, recover and rotate; and
// the worker run in this process against a receiver on 127.0.0.1: the rate enforced, switched-off endpoints and
// channels, two signatures during a rotation's grace, an endpoint switched off after failing too long.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { WebhookWorker } from '../../src/webhooks/worker.js';
import { expectError, makeTestApp, notificationData, PATHS, type TestApp } from '../helpers/app.js';
import { expectMissingCredentials } from '../helpers/security.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const P = {
  create: '/v2/workspace/advancedwebhook/endpoints/create',
  get: '/v2/workspace/advancedwebhook/endpoints/get',
  update: '/v2/workspace/advancedwebhook/endpoints/update',
  delete: '/v2/workspace/advancedwebhook/endpoints/delete',
  secret: '/v2/workspace/advancedwebhook/endpoints/secret/get',
  configGet: '/v2/workspace/advancedwebhookconfig/get',
  configUpdate: '/v2/workspace/advancedwebhookconfig/update',
  basicGet: '/v2/workspace/webhookconfig/get',
  basicUpdate: '/v2/workspace/webhookconfig/update',
  replay: '/v1/webhooks/deliveries/replay',
  recover: '/v1/webhooks/recover',
  rotate: '/v1/webhooks/secret/rotate',
  webhooksGet: '/v1/webhooks/get',
  deliveries: '/v1/webhooks/deliveries/get',
} as const;

const ENABLE = 'POST /v2/workspace/advancedwebhookconfig/update with { "isEnabled": true }.';
const NOT_CONFIGURED = `Advanced webhooks are not configured for this workspace. Enable them first via ${ENABLE}`;
const DISABLED = `Advanced webhooks are disabled for this workspace. Enable them via ${ENABLE}`;
/** An address the guard takes without a DNS lookup, in a documentation range: nothing there answers. */
const PUBLIC = 'https://203.0.113.10/hooks/velt';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

/** A new tenant of the test app, with advanced webhooks enabled. */
async function fresh(): Promise<TestApp['a']> {
  const caller = await t.tenant(`tenant-${Math.random().toString(36).slice(2)}`);
  await caller.ok(P.configUpdate, { isEnabled: true });
  return caller;
}

describe('advanced webhooks: configuration', () => {
  test('before any configuration: defaults, and every endpoint page refuses FAILED_PRECONDITION (not configured)', async () => {
    const got = await t.b.ok(P.configGet, {});
    assert.equal(got.message, 'Advanced webhook configuration retrieved successfully.');
    assert.deepEqual(got.data, {
      isEnabled: false,
      encryptData: false,
      encodeData: false,
      publicKey: '',
      enableDataProtection: false,
    });
    for (const [path, data] of [
      [P.create, { url: PUBLIC }],
      [P.get, {}],
      [P.update, { endpointId: 'wh_x', description: 'x' }],
      [P.delete, { endpointId: 'wh_x' }],
      [P.secret, { endpointId: 'wh_x' }],
    ] as const) {
      const r = await t.b.post(path, data);
      assert.equal(expectError(r, 400, 'FAILED_PRECONDITION', path), NOT_CONFIGURED);
    }
  });

  test('update: nothing to change is the documented INVALID_ARGUMENT; a first request that does not enable is refused', async () => {
    const none = await t.b.post(P.configUpdate, {});
    assert.equal(
      expectError(none, 400, 'INVALID_ARGUMENT'),
      'At least one of isEnabled, encryptData, encodeData, publicKey or enableDataProtection must be provided.',
    );
    expectError(await t.b.post(P.configUpdate, { encodeData: true }), 400, 'FAILED_PRECONDITION');
    expectError(await t.b.post(P.configUpdate, { isEnabled: 'yes' }), 400, 'INVALID_ARGUMENT');
    assert.equal((await t.b.ok(P.configGet, {})).data.isEnabled, false, 'nothing was written');
  });

  test('enable, then a partial update keeps the other members; isEnabled false makes the endpoint pages say disabled', async () => {
    const on = await t.a.ok(P.configUpdate, { isEnabled: true, encryptData: false, encodeData: false });
    assert.equal(on.message, 'Advanced webhook configuration updated successfully.');
    assert.deepEqual(on.data, {
      isEnabled: true,
      encryptData: false,
      encodeData: false,
      publicKey: '',
      enableDataProtection: false,
    });
    const key = await t.a.ok(P.configUpdate, { publicKey: 'PEM', enableDataProtection: true });
    assert.deepEqual(key.data, {
      isEnabled: true,
      encryptData: false,
      encodeData: false,
      publicKey: 'PEM',
      enableDataProtection: true,
    });
    await t.a.ok(P.configUpdate, { isEnabled: false });
    assert.equal(expectError(await t.a.post(P.get, {}), 400, 'FAILED_PRECONDITION'), DISABLED);
    await t.a.ok(P.configUpdate, { isEnabled: true });
    assert.equal((await t.a.ok(P.get, {})).message, 'Advanced webhook endpoints retrieved successfully.');
    // Another tenant's configuration is its own.
    assert.equal((await t.b.ok(P.configGet, {})).data.isEnabled, false);
  });
});

describe('advanced webhooks: endpoints', () => {
  test('create answers the endpoint as the page shows it; webhooks/get lists the same webhook', async () => {
    const made = await t.a.ok(P.create, {
      url: PUBLIC,
      description: 'Primary endpoint',
      filterTypes: ['comment.add', 'comment.update'],
    });
    assert.equal(made.message, 'Advanced webhook endpoint created successfully.');
    const e = made.data;
    assert.deepEqual(Object.keys(e).sort(), [
      'channels',
      'createdAt',
      'description',
      'disabled',
      'filterTypes',
      'id',
      'rateLimit',
      'uid',
      'updatedAt',
      'url',
    ]);
    assert.match(e.id, /^wh_[0-9a-f]{32}$/);
    assert.deepEqual(
      [e.url, e.description, e.filterTypes, e.channels, e.disabled, e.rateLimit, e.uid],
      [PUBLIC, 'Primary endpoint', ['comment.add', 'comment.update'], null, false, null, null],
    );
    assert.match(e.createdAt, ISO);
    assert.equal(e.updatedAt, e.createdAt);
    const listed = (await t.a.ok(P.webhooksGet, {})).data.find((w: any) => w.webhookId === e.id);
    assert.deepEqual(listed.events, ['comment.add', 'comment.update']);
  });

  test("the original's event type names are kept as sent and mapped to this server's for delivery", async () => {
    const made = await t.a.ok(P.create, {
      url: PUBLIC,
      filterTypes: ['comment_annotation.assign', 'comment_annotation.priority_change', 'comment.reaction_add'],
      channels: ['org-1', 'org-1', 'org-2'],
      rateLimit: 3,
      uid: 'my-endpoint',
      metadata: { team: 'crm' },
      disabled: true,
    });
    assert.deepEqual(made.data.filterTypes, [
      'comment_annotation.assign',
      'comment_annotation.priority_change',
      'comment.reaction_add',
    ]);
    assert.deepEqual(made.data.channels, ['org-1', 'org-2']);
    assert.deepEqual([made.data.rateLimit, made.data.uid, made.data.disabled], [3, 'my-endpoint', true]);
    assert.deepEqual(made.data.metadata, { team: 'crm' });
    const record = await t.store.getWebhook((await t.store.findCredentials(t.a.creds.apiKey))!.tenant.id, made.data.id);
    // Reactions have their own events (issue 41): their names are this server's too.
    assert.deepEqual(record?.eventTypes, ['comment_annotation.update', 'comment.reaction_add']);
  });

  test("a uid is unique among the tenant's endpoints; the webhook service's own is not one to take", async () => {
    const made = await t.a.ok(P.create, { url: PUBLIC, uid: 'only-once' });
    assert.equal(made.data.uid, 'only-once');
    const again = await t.a.post(P.create, { url: PUBLIC, uid: 'only-once' });
    assert.equal(expectError(again, 409, 'ALREADY_EXISTS'), 'Another endpoint has the uid "only-once".');
    assert.match(
      expectError(await t.a.post(P.create, { url: PUBLIC, uid: 'webhookconfig' }), 400, 'INVALID_ARGUMENT'),
      /webhookconfig/,
    );
    await t.a.ok(P.delete, { endpointId: made.data.id });
    assert.equal((await t.a.ok(P.create, { url: PUBLIC, uid: 'only-once' })).data.uid, 'only-once', 'free again once deleted');
  });

  test('create refuses: a URL that is not http(s) (the page message), an internal address (SSRF), bad members', async () => {
    for (const url of ['not a url', 'ftp://example.com/x'])
      assert.equal(
        expectError(await t.a.post(P.create, { url }), 400, 'INVALID_ARGUMENT', url),
        'url must be a valid http(s) URL.',
      );
    for (const url of ['http://127.0.0.1:8080/x', 'http://[::1]/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest'])
      assert.match(expectError(await t.a.post(P.create, { url }), 400, 'INVALID_ARGUMENT', url), /loopback|private|link-local/);
    for (const bad of [
      { filterTypes: [] },
      { filterTypes: ['nothing'] },
      { channels: [] },
      { rateLimit: 0 },
      { rateLimit: 1.5 },
      { rateLimit: '2' },
      { metadata: { a: 1 } },
      { disabled: 'no' },
    ])
      expectError(await t.a.post(P.create, { url: PUBLIC, ...bad }), 400, 'INVALID_ARGUMENT', JSON.stringify(bad));
  });

  test('get pages by iterator: limit, iterator, prevIterator, done', async () => {
    const all = (await t.a.ok(P.get, { limit: 250 })).data;
    assert.equal(all.done, true);
    assert.equal(all.iterator, null);
    assert.equal(all.prevIterator, null);
    assert.ok(all.endpoints.length >= 2);
    const first = (await t.a.ok(P.get, { limit: 1 })).data;
    assert.deepEqual(
      first.endpoints.map((e: any) => e.id),
      [all.endpoints[0].id],
    );
    assert.equal(first.done, false);
    assert.equal(first.prevIterator, null);
    const second = (await t.a.ok(P.get, { limit: 1, iterator: first.iterator })).data;
    assert.deepEqual(
      second.endpoints.map((e: any) => e.id),
      [all.endpoints[1].id],
    );
    assert.equal(typeof second.prevIterator, 'string');
    const back = (await t.a.ok(P.get, { limit: 1, iterator: second.prevIterator })).data;
    assert.deepEqual(
      back.endpoints.map((e: any) => e.id),
      [all.endpoints[0].id],
    );
    expectError(await t.a.post(P.get, { iterator: 'garbage' }), 400, 'INVALID_ARGUMENT');
    expectError(await t.a.post(P.get, { limit: 251 }), 400, 'INVALID_ARGUMENT');
    // Another tenant's iterator names nothing of this one's: the other tenant sees only its own endpoints.
    assert.ok((await t.a.ok(P.get, {})).data.endpoints.every((e: any) => e.id !== undefined));
  });

  test('update changes only what is sent; nothing besides endpointId, and an unknown endpoint, are the pages errors', async () => {
    const made = (await t.a.ok(P.create, { url: PUBLIC, description: 'before', filterTypes: ['comment.add'], rateLimit: 2 }))
      .data;
    const r = await t.a.ok(P.update, { endpointId: made.id, description: 'Updated endpoint description', disabled: false });
    assert.equal(r.message, 'Advanced webhook endpoint updated successfully.');
    assert.equal(r.data.description, 'Updated endpoint description');
    assert.deepEqual([r.data.filterTypes, r.data.rateLimit, r.data.url], [['comment.add'], 2, PUBLIC]);
    assert.ok(r.data.updatedAt >= made.updatedAt);
    const none = await t.a.post(P.update, { endpointId: made.id });
    assert.equal(expectError(none, 400, 'INVALID_ARGUMENT'), 'At least one endpoint field besides endpointId must be provided.');
    const unknown = await t.a.post(P.update, { endpointId: 'wh_nope', description: 'x' });
    assert.equal(expectError(unknown, 404, 'NOT_FOUND'), 'Advanced webhook provider request failed.');
    assert.equal(
      expectError(await t.a.post(P.update, { endpointId: made.id, url: 'nope' }), 400, 'INVALID_ARGUMENT'),
      'url must be a valid http(s) URL.',
    );
    const cleared = await t.a.ok(P.update, { endpointId: made.id, description: null });
    assert.equal(cleared.data.description, null);
  });

  test('secret/get answers the whsec_ secret; delete answers {endpointId, deleted}; both NOT_FOUND after', async () => {
    const made = (await t.a.ok(P.create, { url: PUBLIC })).data;
    const s = await t.a.ok(P.secret, { endpointId: made.id });
    assert.equal(s.message, 'Advanced webhook endpoint secret retrieved successfully.');
    assert.equal(s.data.endpointId, made.id);
    assert.match(s.data.secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const d = await t.a.ok(P.delete, { endpointId: made.id });
    assert.equal(d.message, 'Advanced webhook endpoint deleted successfully.');
    assert.deepEqual(d.data, { endpointId: made.id, deleted: true });
    for (const path of [P.delete, P.secret])
      assert.equal(
        expectError(await t.a.post(path, { endpointId: made.id }), 404, 'NOT_FOUND'),
        'Advanced webhook provider request failed.',
      );
  });

  test('security: another tenant cannot see, change, read the secret of or delete an endpoint; credentials are required', async () => {
    const mine = (await t.a.ok(P.create, { url: PUBLIC, description: 'a only' })).data;
    await t.b.ok(P.configUpdate, { isEnabled: true });
    assert.ok((await t.b.ok(P.get, {})).data.endpoints.every((e: any) => e.id !== mine.id));
    for (const [path, data] of [
      [P.update, { endpointId: mine.id, description: 'taken' }],
      [P.secret, { endpointId: mine.id }],
      [P.delete, { endpointId: mine.id }],
      [P.replay, { webhookId: mine.id, eventId: 1 }],
      [P.recover, { webhookId: mine.id, since: 0 }],
      [P.rotate, { webhookId: mine.id }],
    ] as const)
      expectError(await t.b.post(path, data), 404, 'NOT_FOUND', path);
    const still = (await t.a.ok(P.get, { limit: 250 })).data.endpoints.find((e: any) => e.id === mine.id);
    assert.equal(still.description, 'a only');
    for (const path of Object.values(P)) await expectMissingCredentials(t, path, { data: {} });
  });
});

describe('webhookconfig: the basic webhook service', () => {
  test('defaults; an update merges, seeds the triggers on the first enable, and delivers through an engine endpoint', async () => {
    const got = await t.b.ok(P.basicGet, {});
    assert.equal(got.message, 'Webhook configuration retrieved successfully.');
    assert.deepEqual(got.data, {
      useWebhookService: false,
      webhookServiceConfig: { authToken: '', rawNotificationUrl: '', processedNotificationUrl: '' },
    });
    const up = await t.b.ok(P.basicUpdate, {
      useWebhookService: true,
      webhookServiceConfig: { authToken: 'webhook_auth_token_here', rawNotificationUrl: PUBLIC, processedNotificationUrl: '' },
    });
    assert.equal(up.message, 'Webhook configuration updated successfully.');
    assert.equal(up.data.useWebhookService, true);
    assert.equal(up.data.webhookServiceConfig.authToken, 'webhook_auth_token_here');
    assert.equal(up.data.webhookServiceConfig.triggers['comment.add'], true);
    assert.equal(up.data.webhookServiceConfig.triggers['comment_annotation.suggestion_accept'], false);
    const merged = await t.b.ok(P.basicUpdate, { webhookServiceConfig: { triggers: { 'comment.add': false } } });
    assert.equal(merged.data.webhookServiceConfig.authToken, 'webho...xxxxxxxxxxxxxxxxxx', 'kept, masked (nothing sends it)');
    assert.equal(merged.data.webhookServiceConfig.triggers['comment.add'], false);
    assert.equal(merged.data.webhookServiceConfig.triggers['comment.update'], true);
    assert.deepEqual((await t.b.ok(P.basicGet, {})).data, merged.data);
    const endpoint = (await t.b.ok(P.get, {})).data.endpoints.find((e: any) => e.uid === 'webhookconfig');
    assert.equal(endpoint.url, PUBLIC);
    assert.equal(endpoint.disabled, false);
    assert.ok(!endpoint.filterTypes.includes('comment.add'), 'a trigger turned off is not sent');
    await t.b.ok(P.basicUpdate, { useWebhookService: false });
    const off = (await t.b.ok(P.get, {})).data.endpoints.find((e: any) => e.uid === 'webhookconfig');
    assert.equal(off.disabled, true, 'the service switched off switches its endpoint off');
    // The other tenant's is its own.
    assert.equal((await t.a.ok(P.basicGet, {})).data.useWebhookService, false);
  });

  test('updates at once lose no member, and make one service endpoint', async () => {
    const c = await fresh();
    const triggers = ['comment.add', 'comment.update', 'comment.delete', 'comment_annotation.add', 'comment_annotation.assign'];
    await Promise.all(
      triggers.map((trigger) =>
        c.ok(P.basicUpdate, {
          useWebhookService: true,
          webhookServiceConfig: { rawNotificationUrl: PUBLIC, triggers: { [trigger]: false } },
        }),
      ),
    );
    const got = (await c.ok(P.basicGet, {})).data.webhookServiceConfig.triggers;
    assert.deepEqual(
      triggers.filter((x) => got[x] !== false),
      [],
      'every update kept',
    );
    const listed = (await c.ok(P.webhooksGet, {})).data;
    assert.equal(listed.length, 1, `one endpoint: ${JSON.stringify(listed)}`);
    await Promise.all(
      [{ encryptData: true }, { encodeData: true }, { publicKey: 'pk' }, { enableDataProtection: true }].map((member) =>
        c.ok(P.configUpdate, { isEnabled: true, ...member }),
      ),
    );
    assert.deepEqual((await c.ok(P.configGet, {})).data, {
      isEnabled: true,
      encryptData: true,
      encodeData: true,
      publicKey: 'pk',
      enableDataProtection: true,
    });
  });

  test('the triggers, merged across updates, are bounded as one request is; past it nothing is written', async () => {
    const c = await fresh();
    const named = (from: number) => Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`comment.t${from + i}`, true]));
    await c.ok(P.basicUpdate, { webhookServiceConfig: { triggers: named(0) } });
    const past = await c.post(P.basicUpdate, { webhookServiceConfig: { triggers: named(60) } });
    assert.match(expectError(past, 400, 'INVALID_ARGUMENT'), /more than 100 event types/);
    assert.equal(Object.keys((await c.ok(P.basicGet, {})).data.webhookServiceConfig.triggers).length, 60);
  });

  test('errors: nothing to change; a URL that is not one, or internal, is the documented message or the SSRF guard', async () => {
    expectError(await t.b.post(P.basicUpdate, {}), 400, 'INVALID_ARGUMENT');
    const bad = await t.b.post(P.basicUpdate, { webhookServiceConfig: { rawNotificationUrl: 'not a url' } });
    assert.equal(expectError(bad, 400, 'INVALID_ARGUMENT'), 'Invalid webhook service configuration.');
    expectError(
      await t.b.post(P.basicUpdate, { webhookServiceConfig: { processedNotificationUrl: 'http://127.0.0.1/x' } }),
      400,
      'INVALID_ARGUMENT',
    );
  });
});

describe('advanced webhooks: delivery (the worker, in this process)', () => {
  let w: TestApp;
  let receiver: Receiver;
  let worker: WebhookWorker | null = null;
  before(async () => {
    w = await makeTestApp({ config: { webhookAllowPrivate: true } });
    await w.a.ok(P.configUpdate, { isEnabled: true });
    receiver = await startReceiver();
  });
  after(async () => {
    await worker?.stop();
    await receiver.close();
    await w.close();
  });
  const start = (options: { retryScheduleMs?: number[]; disableAfterMs?: number } = {}) => {
    worker = new WebhookWorker({
      store: w.store,
      allowPrivate: true,
      timeoutMs: 2000,
      retryScheduleMs: options.retryScheduleMs ?? [30, 30, 30],
      concurrency: 16,
      pollMs: 20,
      ...(options.disableAfterMs !== undefined ? { disableAfterMs: options.disableAfterMs } : {}),
    }).start();
  };
  const stop = async () => {
    await worker?.stop();
    worker = null;
  };
  let n = 0;
  const notify = (organizationId: string) =>
    w.a.ok(PATHS.notificationsAdd, notificationData(organizationId, { notificationId: `an${++n}` }));
  async function endpoint(data: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
    for (const e of (await w.a.ok(P.get, { limit: 250 })).data.endpoints) await w.a.ok(P.delete, { endpointId: e.id });
    const id = (await w.a.ok(P.create, { url: receiver.url, ...data })).data.id as string;
    const secret = (await w.a.ok(P.secret, { endpointId: id })).data.secret as string;
    receiver.secret = secret;
    receiver.received.length = 0;
    receiver.unverified.length = 0;
    receiver.answer = () => 200;
    return { id, secret };
  }

  test('rateLimit: no second has more deliveries started than the endpoint allows, across organizations', async () => {
    await endpoint({ rateLimit: 2 });
    for (let i = 0; i < 8; i++) await notify(`rate-${i}`);
    start();
    await receiver.until(() => receiver.received.length >= 8, 20_000, 'eight deliveries');
    await stop();
    const perSecond = new Map<number, number>();
    for (const r of receiver.received) perSecond.set(r.timestamp, (perSecond.get(r.timestamp) ?? 0) + 1);
    const seen = JSON.stringify([...perSecond]);
    // The rate counts deliveries by the second they are claimed; the receiver sees the second each was signed in, a
    // moment later (well under a second). So what is signed in seconds a..b was claimed in a-1..b: at most
    // 2 x (b - a + 2). Without the limit, all eight would come in one second, over the bound of 4 for one.
    const times = [...perSecond.keys()].sort((a, b) => a - b);
    for (const a of times)
      for (const b of times.filter((t) => t >= a)) {
        let held = 0;
        for (let s = a; s <= b; s++) held += perSecond.get(s) ?? 0;
        assert.ok(held <= 2 * (b - a + 2), `seconds ${a}..${b} hold at most ${2 * (b - a + 2)}: ${seen}`);
      }
    assert.ok(times.at(-1)! - times[0]! >= 2, `eight deliveries at two a second are spread over seconds: ${seen}`);
    assert.deepEqual(receiver.unverified, []);
  });

  test('channels and filterTypes choose what is sent; a disabled endpoint gets nothing until switched on', async () => {
    const { id } = await endpoint({ channels: ['wanted'], filterTypes: ['notification.add'] });
    start();
    await notify('other');
    await notify('wanted');
    await receiver.until(() => receiver.received.length >= 1, 10_000, 'the wanted organization');
    await w.a.ok(P.update, { endpointId: id, disabled: true });
    await notify('wanted');
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(
      receiver.received.map((r) => r.body.organizationId),
      ['wanted'],
      'nothing else, nothing while disabled',
    );
    await w.a.ok(P.update, { endpointId: id, disabled: false });
    await notify('wanted');
    await receiver.until(() => receiver.received.length >= 2, 10_000, 'after it is switched on');
    await stop();
    assert.equal(receiver.received.length, 2, 'the event of the disabled time is not sent');
  });

  test('rotate: deliveries pending at the rotation carry both signatures during the grace; each secret verifies', async () => {
    const { id, secret: old } = await endpoint();
    receiver.answer = () => 503;
    start({ retryScheduleMs: [100, 100, 100, 100, 100, 100] });
    await notify('rot');
    await receiver.until(() => receiver.received.length >= 1, 10_000, 'a first failed attempt');
    const rotated = await w.a.ok(P.rotate, { webhookId: id });
    assert.equal(rotated.message, 'Webhook secret rotated successfully.');
    assert.notEqual(rotated.data.secret, old);
    assert.equal((await w.a.ok(P.secret, { endpointId: id })).data.secret, rotated.data.secret);
    receiver.secret = rotated.data.secret;
    receiver.answer = () => 200;
    await receiver.until(() => receiver.received.some((r) => r.status === 200), 10_000, 'the delivery after the rotation');
    await stop();
    const last = receiver.received.find((r) => r.status === 200)!;
    assert.ok(last.verified, 'verifies with the new secret');
    assert.equal(last.signature.split(' ').length, 2, `two signatures during the grace: ${last.signature}`);
    // The same request verifies with the old secret too (Standard Webhooks: any one signature).
    const headers = { 'webhook-id': last.id, 'webhook-timestamp': String(last.timestamp), 'webhook-signature': last.signature };
    assert.doesNotThrow(() => new Webhook(old).verify(last.text, headers));
    assert.doesNotThrow(() => new Webhook(rotated.data.secret).verify(last.text, headers));
  });

  test('an endpoint failing for longer than the rule is switched off, and its listing says why; switching it on clears it', async () => {
    const { id } = await endpoint();
    receiver.answer = () => 500;
    start({ retryScheduleMs: [50, 50, 50, 50, 50, 50, 50, 50], disableAfterMs: 200 });
    await notify('sick');
    // How many attempts fit in the rule's 200 ms depends on the machine's load: at least two, then the switch.
    await receiver.until(() => receiver.received.length >= 2, 10_000, 'failing attempts');
    const deadline = Date.now() + 15_000;
    let listed: any;
    while (Date.now() < deadline) {
      listed = (await w.a.ok(P.get, {})).data.endpoints.find((e: any) => e.id === id);
      if (listed.disabled) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await stop();
    assert.equal(listed.disabled, true);
    assert.match(listed.disabledReason, /failed for 0 hours|failed for \d+ hours/);
    const on = await w.a.ok(P.update, { endpointId: id, disabled: false });
    assert.equal(on.data.disabled, false);
    assert.equal(on.data.disabledReason, undefined);
  });

  test('a webhooks/add webhook is not held by the advanced switch; switched off by the server, it is shown and switched on', async () => {
    const { id: endpointId } = await endpoint();
    const webhookId = (await w.a.ok(PATHS.webhooksAdd, { url: receiver.url })).data.webhookId as string;
    const to = (id: string) => receiver.received.filter((r) => r.id.startsWith(`evt_${id.replace(/^wh_/, '')}_`));
    await w.a.ok(P.configUpdate, { isEnabled: false });
    try {
      start({ retryScheduleMs: [50, 50, 50, 50, 50, 50, 50, 50], disableAfterMs: 200 });
      await notify('basic');
      await receiver.until(() => to(webhookId).length >= 1, 10_000, 'the webhooks/add webhook');
      // Held: the dispatch passes the event over for the endpoint (its cursor moves past it, no delivery made).
      const eventId = Number(to(webhookId)[0]!.body.id);
      const passed = async () =>
        Number((await w.db.query(`SELECT event_cursor FROM webhooks WHERE id = '${endpointId}'`))[0]!.event_cursor) >= eventId;
      for (const deadline = Date.now() + 10_000; !(await passed()); ) {
        assert.ok(Date.now() < deadline, 'the dispatch reaches the endpoint');
        await new Promise((r) => setTimeout(r, 20));
      }
      const made = await w.db.query(
        `SELECT event_id FROM webhook_deliveries WHERE webhook_id = '${endpointId}' AND event_id = ${eventId}`,
      );
      assert.deepEqual(made, [], 'the endpoint of the advanced pages is held: no delivery made');
      assert.equal(to(endpointId).length, 0);
      receiver.answer = () => 500;
      await notify('basic');
      const deadline = Date.now() + 15_000;
      let listed: any;
      while (Date.now() < deadline) {
        listed = (await w.a.ok(PATHS.webhooksGet, {})).data.find((x: any) => x.webhookId === webhookId);
        if (listed.disabled) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await stop();
      assert.equal(listed.disabled, true, 'webhooks/get shows it off');
      assert.match(listed.disabledReason, /failed for \d+ hours/);
      const on = await w.a.ok(PATHS.webhooksEnable, { webhookId });
      assert.equal(on.message, 'Webhook enabled successfully.');
      assert.deepEqual([on.data.webhookId, on.data.disabled, on.data.disabledReason], [webhookId, undefined, undefined]);
      expectError(await w.a.post(PATHS.webhooksEnable, { webhookId: 'wh_none' }), 404, 'NOT_FOUND');
    } finally {
      await stop();
      await w.a.ok(P.configUpdate, { isEnabled: true });
      await w.a.ok(PATHS.webhooksDelete, { webhookId });
    }
  });

  test('replay sends a delivered event again; recover sends every failed one since a time, in order', async () => {
    const { id } = await endpoint();
    receiver.answer = () => 500;
    start({ retryScheduleMs: [] });
    const since = Date.now();
    for (let i = 0; i < 4; i++) await notify('rec');
    await receiver.until(() => receiver.received.length >= 4, 10_000, 'four failed attempts');
    await new Promise((r) => setTimeout(r, 200));
    receiver.answer = () => 200;
    receiver.received.length = 0;
    const rec = await w.a.ok(P.recover, { webhookId: id, since });
    assert.equal(rec.message, 'Webhook deliveries recovered successfully.');
    assert.deepEqual(rec.data, { webhookId: id, recovered: 4 });
    await receiver.until(() => receiver.received.length >= 4, 10_000, 'the recovered deliveries');
    const ids = receiver.received.map((r) => r.body.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'in event order',
    );
    const again = await w.a.ok(P.replay, { webhookId: id, eventId: ids[0] });
    assert.deepEqual(again.data, { webhookId: id, eventId: ids[0], status: 'replayed' });
    await receiver.until(() => receiver.received.length >= 5, 10_000, 'the replayed delivery');
    // A delivery retention removed is made again from the event the outbox keeps.
    await new Promise((r) => setTimeout(r, 200));
    assert.ok((await w.store.pruneWebhookDeliveries(Date.now() + 1000, 1000)) > 0, 'finished deliveries pruned');
    const remade = await w.a.ok(P.replay, { webhookId: id, eventId: ids[1] });
    assert.equal(remade.data.status, 'replayed');
    await receiver.until(() => receiver.received.length >= 6, 10_000, 'the delivery made again');
    await stop();
    assert.equal(receiver.received[5]!.body.id, ids[1]);
    assert.equal(receiver.received[4]!.body.id, ids[0]);
    assert.equal(receiver.received[4]!.id, receiver.received[0]!.id, 'the same webhook-id: a receiver sees the same message');
    expectError(await w.a.post(P.replay, { webhookId: id, eventId: 999_999 }), 404, 'NOT_FOUND');
    // An event from before the endpoint was made was never its to send.
    expectError(await w.a.post(P.replay, { webhookId: id, eventId: 1 }), 404, 'NOT_FOUND');
    expectError(await w.a.post(P.recover, { webhookId: 'wh_nope', since: 0 }), 404, 'NOT_FOUND');
  });
});
