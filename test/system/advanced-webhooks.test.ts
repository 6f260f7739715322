// Advanced webhooks end to end (docs/events.md, "Recovering after an outage", "Rotating a secret"), with real
// server processes (dist/main.js: `npm run build` first) and a receiver on 127.0.0.1 that verifies every
// signature with the Standard Webhooks library. A receiver down "for a day": the server runs a retry
// schedule of fractions of a second (MARGINALIA_WEBHOOK_RETRY_SCHEDULE), so every delivery fails for good
// as it would after the default schedule's 27.6 hours (the server has no clock to move); after `marginalia
// webhooks recover` it gets every event, each organization's in order. A rotated secret loses no pending
// delivery: those queued before the rotation verify with the old secret and with the new one. /metrics
// counts the attempts and the lag.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../helpers/eventually.js';
import { cli, post, type ServerProcess, startServer, stopServer } from '../helpers/server-process.js';
import { freshDatabase, type FreshDatabase, STORE_KINDS } from '../helpers/test-database.js';
import { type Received, type Receiver, startReceiver, webhookServerEnv } from '../helpers/webhook-receiver.js';

const creds = { apiKey: 'advanced-webhooks-key', authToken: 'advanced-webhooks-token-0123456789' };

function serverEnv(db: FreshDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return webhookServerEnv(db.env, creds, extra);
}

async function ok(server: ServerProcess, path: string, data: unknown): Promise<any> {
  const r = await post(server.url, path, creds, data);
  assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 500)}`);
  return r.json.result.data;
}

/** An endpoint on the receiver through the /v2 pages (advanced webhooks enabled first); its secret from secret/get. */
async function endpoint(server: ServerProcess, receiver: Receiver): Promise<{ id: string; secret: string }> {
  await ok(server, '/v2/workspace/advancedwebhookconfig/update', { isEnabled: true });
  const made = await ok(server, '/v2/workspace/advancedwebhook/endpoints/create', {
    url: receiver.url,
    description: 'the receiver',
    filterTypes: ['notification.add'],
  });
  const { secret } = await ok(server, '/v2/workspace/advancedwebhook/endpoints/secret/get', { endpointId: made.id });
  receiver.secret = secret;
  return { id: made.id, secret };
}

let written = 0;
const notify = (server: ServerProcess, organizationId: string) =>
  ok(server, '/v1/notifications/add', {
    organizationId,
    notificationId: `n${++written}`,
    actionUser: { userId: 'actor' },
    displayHeadlineMessageTemplate: 'ping',
    notifyUsers: [{ userId: 'someone' }],
  });

/** The webhook's attempts with `status`, once there are `n` of them. */
async function attemptsWith(server: ServerProcess, webhookId: string, status: string, n: number): Promise<any[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const all = await ok(server, '/v1/webhooks/deliveries/get', { webhookId, pageSize: 1000 });
    const some = all.filter((a: any) => a.status === status);
    if (some.length >= n) return some;
    if (Date.now() > deadline) assert.fail(`${n} attempts ${status} expected; the log: ${JSON.stringify(all.slice(0, 5))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const delivered = (receiver: Receiver): Received[] => receiver.received.filter((r) => r.status === 200);

function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(name));
  assert.ok(line, `${name} in /metrics`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('advanced webhooks end to end', () => {
  for (const kind of STORE_KINDS) {
    test(`${kind}: a receiver down "for a day" gets every event after a recover, each organization's in order`, async () => {
      const db = freshDatabase(kind);
      const receiver = await startReceiver();
      // Two attempts a delivery, then it has failed for good: the outage outlasts the whole schedule.
      const env = serverEnv(db, { MARGINALIA_WEBHOOK_RETRY_SCHEDULE: '0.05' });
      const server = await startServer({ env });
      try {
        const { id } = await endpoint(server, receiver);
        const before = Date.now();
        await receiver.down();
        const orgs = ['org-a', 'org-b'];
        for (let i = 0; i < 12; i++) await notify(server, orgs[i % 2]!);
        // Every delivery tried twice and failed for good; each organization's next went on after it.
        await attemptsWith(server, id, 'failed', 12);
        await receiver.up();
        assert.equal(receiver.received.length, 0);

        const r = cli(
          ['webhooks', 'recover', '--id', id, '--since', new Date(before).toISOString(), '--tenant', creds.apiKey],
          env,
        );
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(JSON.parse(r.stdout), { webhookId: id, recovered: 12 });
        await receiver.until(() => delivered(receiver).length >= 12, 30_000, 'the 12 recovered events');
        assert.deepEqual(receiver.unverified, [], 'every signature verifies');
        for (const org of orgs) {
          const ids = delivered(receiver)
            .filter((d) => d.body.organizationId === org)
            .map((d) => d.body.id);
          assert.equal(ids.length, 6, `${org}: every event`);
          assert.deepEqual(
            ids,
            [...ids].sort((a, b) => a - b),
            `${org}: in event order`,
          );
        }
        // A recover with nothing failed since is a no-op; one replayed delivery comes again, with the same webhook-id.
        assert.deepEqual(await ok(server, '/v1/webhooks/recover', { webhookId: id, since: before }), {
          webhookId: id,
          recovered: 0,
        });
        const first = delivered(receiver)[0]!;
        const replayed = cli(['webhooks', 'replay', '--id', id, '--event', String(first.body.id), '--tenant', creds.apiKey], env);
        assert.equal(replayed.code, 0, replayed.stderr);
        assert.equal(JSON.parse(replayed.stdout).status, 'replayed');
        await receiver.until(() => delivered(receiver).length >= 13, 30_000, 'the replayed event');
        assert.equal(delivered(receiver)[12]!.id, first.id);

        // The receiver has the 13th delivery a moment before the worker, having read its answer, counts it.
        const metrics = async () => (await fetch(`${server.url}/metrics`)).text();
        await eventually(
          '13 deliveries counted',
          async () => metric(await metrics(), 'marginalia_webhook_attempts_total{outcome="delivered"}') >= 13,
        );
        const text = await metrics();
        assert.ok(metric(text, 'marginalia_webhook_attempts_total{outcome="failed"}') >= 12, 'failures counted');
        assert.ok(metric(text, 'marginalia_webhook_delivery_lag_seconds_count') >= 13, 'lag measured');
        assert.equal(metric(text, 'marginalia_event_streams_open'), 0);
      } finally {
        assert.equal(await stopServer(server), 0, server.stdout().slice(-2000));
        await receiver.close();
        await db.drop();
      }
    });

    test(`${kind}: a rotated secret loses no pending delivery: queued before the rotation, each verifies with old and new`, async () => {
      const db = freshDatabase(kind);
      const receiver = await startReceiver();
      const env = serverEnv(db, { MARGINALIA_WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2' });
      const server = await startServer({ env });
      try {
        const { id, secret: old } = await endpoint(server, receiver);
        await receiver.down();
        for (let i = 0; i < 6; i++) await notify(server, `org-${i % 3}`);
        await attemptsWith(server, id, 'retrying', 3);
        const r = cli(['webhooks', 'rotate', '--id', id, '--tenant', creds.apiKey], env);
        assert.equal(r.code, 0, r.stderr);
        const rotated = JSON.parse(r.stdout) as { secret: string; previousSecretValidUntil: string };
        assert.notEqual(rotated.secret, old);
        assert.ok(Date.parse(rotated.previousSecretValidUntil) > Date.now() + 23 * 3_600_000, 'the default grace is 24 hours');
        const { secret: shown } = await ok(server, '/v2/workspace/advancedwebhook/endpoints/secret/get', { endpointId: id });
        assert.equal(shown, rotated.secret);
        // The receiver still verifies with the secret it had: nothing pending is lost to the rotation.
        receiver.secret = old;
        await receiver.up();
        await receiver.until(
          () => new Set(delivered(receiver).map((d) => d.body.id)).size === 6,
          30_000,
          'the six pending events',
        );
        assert.deepEqual(receiver.unverified, [], 'every delivery verifies with the old secret');
        for (const d of delivered(receiver)) {
          const headers = { 'webhook-id': d.id, 'webhook-timestamp': String(d.timestamp), 'webhook-signature': d.signature };
          assert.equal(d.signature.split(' ').length, 2, 'both secrets sign during the grace period');
          assert.doesNotThrow(() => new Webhook(rotated.secret).verify(d.text, headers), 'and with the new one');
        }
      } finally {
        assert.equal(await stopServer(server), 0, server.stdout().slice(-2000));
        await receiver.close();
        await db.drop();
      }
    });
  }
});
