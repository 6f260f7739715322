// Webhooks end to end (docs/events.md, "Webhooks"), with real server processes (dist/main.js: `npm run build`
// first) and a receiver on 127.0.0.1 that verifies every signature with the Standard Webhooks library: order per
// organization, retries after a 500, a receiver down for a while, kill -9 of the server mid-delivery
// (the counts are printed: written, delivered, duplicates, lost), two servers on one PostgreSQL
// database delivering each event once, and the CLI.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { cli, post, type ServerProcess, startServer, stopServer, tempDir } from '../helpers/server-process.js';
import { freshDatabase, NEEDS_POSTGRES, STORE_KINDS, type FreshDatabase, type StoreKind } from '../helpers/test-database.js';
import { type Receiver, startReceiver, webhookServerEnv } from '../helpers/webhook-receiver.js';

const creds = { apiKey: 'webhooks-key', authToken: 'webhooks-token-0123456789' };

/** What every server here runs with: loopback receivers allowed, short retries, quick polls. */
function serverEnv(db: FreshDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return webhookServerEnv(db.env, creds, { MARGINALIA_WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.5,0.5,1,1,1,1,1,1,1,1', ...extra });
}

/** A webhook on the receiver, made with the CLI (which reads MARGINALIA_WEBHOOK_ALLOW_PRIVATE from its environment). */
function addWebhook(env: Record<string, string>, receiver: Receiver, extra: string[] = []): string {
  const r = cli(['webhooks', 'add', '--url', receiver.url, '--tenant', creds.apiKey, ...extra], env);
  assert.equal(r.code, 0, r.stderr);
  const added = JSON.parse(r.stdout) as { webhookId: string; secret: string };
  receiver.secret = added.secret;
  return added.webhookId;
}

let written = 0;
/** One event: a notification in the organization. */
async function notify(server: ServerProcess, organizationId: string): Promise<boolean> {
  const r = await post(server.url, '/v1/notifications/add', creds, {
    organizationId,
    notificationId: `n${++written}`,
    actionUser: { userId: 'actor' },
    displayHeadlineMessageTemplate: 'ping',
    notifyUsers: [{ userId: 'someone' }],
  });
  assert.equal(r.status, 200, r.text);
  return true;
}

/** The tenant's event ids in the outbox, by organization, in id order. */
async function eventsByOrganization(db: FreshDatabase): Promise<Map<string, number[]>> {
  const rows = await db.query('SELECT id, organization_id FROM events ORDER BY id');
  const by = new Map<string, number[]>();
  for (const r of rows) by.set(String(r.organization_id), [...(by.get(String(r.organization_id)) ?? []), Number(r.id)]);
  return by;
}

/**
 * The outbox once it holds `count` events (or after 5 s, whatever it holds): on PostgreSQL a write's
 * events are numbered just after its answer.
 */
async function outboxHolding(db: FreshDatabase, count: number): Promise<Map<string, number[]>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const events = await eventsByOrganization(db);
    if ([...events.values()].flat().length >= count || Date.now() > deadline) return events;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const delivered = (receiver: Receiver) => receiver.received.filter((r) => r.status >= 200 && r.status < 300);

/** Every event, delivered, and each organization's events received in event order (retries and duplicates included). */
function assertInOrder(receiver: Receiver, events: Map<string, number[]>): void {
  for (const [org, ids] of events) {
    const got = receiver.received.filter((r) => r.body.organizationId === org).map((r) => r.body.id as number);
    assert.deepEqual(
      got,
      [...got].sort((a, b) => a - b),
      `${org}: received in event order`,
    );
    assert.deepEqual(
      [
        ...new Set(
          delivered(receiver)
            .filter((r) => r.body.organizationId === org)
            .map((r) => r.body.id),
        ),
      ],
      ids,
    );
  }
}

async function withReceiverAndDb<T>(kind: StoreKind, fn: (db: FreshDatabase, receiver: Receiver) => Promise<T>): Promise<T> {
  const db = freshDatabase(kind);
  const receiver = await startReceiver();
  try {
    return await fn(db, receiver);
  } finally {
    await receiver.close();
    await db.drop();
  }
}

describe('webhooks end to end', () => {
  for (const kind of STORE_KINDS) {
    test(`${kind}: signed, in order per organization, retried after a 500, caught up after the receiver was down`, async () => {
      await withReceiverAndDb(kind, async (db, receiver) => {
        const env = serverEnv(db);
        const server = await startServer({ env });
        try {
          const webhookId = addWebhook(env, receiver);
          // Every fifth event's first attempt is answered 500.
          const tries = new Map<number, number>();
          receiver.answer = (body) => {
            const n = (tries.get(body.id) ?? 0) + 1;
            tries.set(body.id, n);
            return body.id % 5 === 0 && n === 1 ? 500 : 200;
          };
          const orgs = ['org-a', 'org-b', 'org-c'];
          for (let i = 0; i < 30; i++) await notify(server, orgs[i % 3]!);
          await receiver.until(() => new Set(delivered(receiver).map((r) => r.body.id)).size === 30, 30_000, '30 events');
          assert.deepEqual(receiver.unverified, [], 'every signature verifies (Webhook.verify)');
          assert.ok(receiver.received.every((r) => new RegExp(`^evt_[0-9a-f]{32}_${r.body.id}$`).test(r.id)));
          assertInOrder(receiver, await eventsByOrganization(db));
          const retried = receiver.received.filter((r) => r.status === 500).map((r) => r.body.id);
          assert.equal(retried.length, 6);

          // The receiver has answered the last one; its attempt is logged once the worker has the answer.
          const logged = async () =>
            (await post(server.url, '/v1/webhooks/deliveries/get', creds, { webhookId, pageSize: 1000 })).json.result.data;
          let attempts = await logged();
          for (let i = 0; i < 50 && attempts.length < 36; i++) {
            await new Promise((r) => setTimeout(r, 100));
            attempts = await logged();
          }
          assert.equal(attempts.length, 36);
          assert.equal(attempts.filter((a: any) => a.status === 'retrying' && a.responseCode === 500).length, 6);
          assert.ok(attempts.filter((a: any) => a.status === 'delivered').every((a: any) => a.responseCode === 200));

          // Down for a while: the heads are retried, the rest wait; back up, everything arrives, in order.
          await receiver.down();
          for (let i = 0; i < 12; i++) await notify(server, orgs[i % 3]!);
          await new Promise((r) => setTimeout(r, 1500));
          await receiver.up();
          await receiver.until(() => new Set(delivered(receiver).map((r) => r.body.id)).size === 42, 30_000, '42 events');
          assert.deepEqual(receiver.unverified, []);
          assertInOrder(receiver, await eventsByOrganization(db));
          const refused = (
            await post(server.url, '/v1/webhooks/deliveries/get', creds, { webhookId, pageSize: 1000 })
          ).json.result.data.filter((a: any) => a.status === 'retrying' && a.responseCode === undefined);
          assert.ok(refused.length >= 3, 'each organization was retried while the receiver was down');
          assert.match(refused[0].error, /ECONNREFUSED/);
        } finally {
          assert.equal(await stopServer(server), 0, server.stdout().slice(-2000));
        }
      });
    });

    test(`${kind}: kill -9 mid-delivery, then a restart: every event delivered at least once`, async (t: TestContext) => {
      await withReceiverAndDb(kind, async (db, receiver) => {
        // A 1 s limit makes the lease 7 s: the restarted server takes the dead one's claims over then.
        const env = serverEnv(db, { MARGINALIA_WEBHOOK_TIMEOUT_MS: '1000', MARGINALIA_WEBHOOK_CONCURRENCY: '4' });
        let server = await startServer({ env });
        addWebhook(env, receiver);
        receiver.delayMs = 60;
        const orgs = ['k1', 'k2', 'k3', 'k4'];
        let acknowledged = 0;
        let i = 0;
        for (; i < 40; i++) if (await notify(server, orgs[i % 4]!)) acknowledged++;
        // Deliveries are under way (the receiver answers slowly): kill it now.
        await receiver.until(() => receiver.received.length >= 8, 20_000, 'deliveries under way');
        server.proc.kill('SIGKILL');
        await server.exited;
        const atKill = receiver.received.length;
        server = await startServer({ env });
        try {
          for (; i < 80; i++) if (await notify(server, orgs[i % 4]!)) acknowledged++;
          const events = await outboxHolding(db, acknowledged);
          const all = [...events.values()].flat();
          await receiver.until(
            () => all.every((id) => delivered(receiver).some((r) => r.body.id === id)),
            40_000,
            'every event of the outbox',
          );
          const ids = delivered(receiver).map((r) => r.body.id as number);
          const unique = new Set(ids);
          const counts = {
            store: kind,
            written: all.length,
            acknowledged,
            delivered: unique.size,
            duplicates: ids.length - unique.size,
            lost: all.filter((id) => !unique.has(id)).length,
            receivedBeforeKill: atKill,
          };
          t.diagnostic(`kill -9: ${JSON.stringify(counts)}`);
          console.log(`webhooks kill -9 (${kind}): ${JSON.stringify(counts)}`);
          assert.equal(counts.written, 80);
          assert.equal(counts.lost, 0);
          assert.deepEqual(receiver.unverified, []);
          // An event delivered twice is one whose attempt was under way at the kill: at most one per organization.
          assert.ok(counts.duplicates <= orgs.length, JSON.stringify(counts));
          // The first arrival of each event is in event order per organization.
          for (const [org, list] of events) {
            const firsts = [...new Set(receiver.received.filter((r) => r.body.organizationId === org).map((r) => r.body.id))];
            assert.deepEqual(firsts, list, org);
          }
        } finally {
          await stopServer(server);
        }
      });
    });
  }

  test('postgres: two servers on one database deliver each event once, in order per organization', {
    skip: NEEDS_POSTGRES,
  }, async (t) => {
    await withReceiverAndDb('postgres', async (db, receiver) => {
      const env = serverEnv(db, { MARGINALIA_WEBHOOK_CONCURRENCY: '8' });
      const [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
      try {
        addWebhook(env, receiver);
        receiver.delayMs = 5;
        const orgs = ['p1', 'p2', 'p3', 'p4', 'p5'];
        await Promise.all(
          [a, b].map(async (server, s) => {
            for (let i = 0; i < 60; i++) await notify(server, orgs[(i + s) % orgs.length]!);
          }),
        );
        const events = await outboxHolding(db, 120);
        const all = [...events.values()].flat();
        assert.equal(all.length, 120);
        await receiver.until(() => new Set(delivered(receiver).map((r) => r.body.id)).size === 120, 40_000, '120 events');
        await new Promise((r) => setTimeout(r, 500));
        const ids = receiver.received.map((r) => r.body.id);
        const counts = { written: all.length, delivered: new Set(ids).size, duplicates: ids.length - new Set(ids).size };
        t.diagnostic(`two instances: ${JSON.stringify(counts)}`);
        assert.equal(counts.duplicates, 0, 'no lease ran out, so no event was sent twice');
        assert.deepEqual(receiver.unverified, []);
        assertInOrder(receiver, events);
        const claimers = await db.query('SELECT count(*) AS n FROM webhook_queues');
        assert.equal(Number(claimers[0]!.n), 0, 'no queue is left behind');
      } finally {
        await Promise.all([stopServer(a), stopServer(b)]);
      }
    });
  });

  test('SIGTERM with deliveries under way: they end or are handed back, and the next start delivers the rest', async () => {
    await withReceiverAndDb('sqlite', async (db, receiver) => {
      const env = serverEnv(db, { MARGINALIA_WEBHOOK_TIMEOUT_MS: '10000' });
      let server = await startServer({ env });
      addWebhook(env, receiver);
      receiver.delayMs = 5000;
      for (let i = 0; i < 4; i++) await notify(server, `t${i}`);
      await receiver.until(() => receiver.received.length >= 4, 20_000, 'four attempts under way');
      assert.equal(await stopServer(server), 0, 'a clean exit');
      const queues = await db.query('SELECT claimed_by FROM webhook_queues');
      assert.equal(queues.length, 4);
      assert.ok(
        queues.every((q) => q.claimed_by === null),
        'the claims were handed back, not left to their lease',
      );
      receiver.delayMs = 0;
      const before = receiver.received.length;
      server = await startServer({ env });
      try {
        await receiver.until(
          () => new Set(receiver.received.slice(before).map((r) => r.body.id)).size === 4,
          10_000,
          'the four again, at once',
        );
      } finally {
        await stopServer(server);
      }
    });
  });
});

describe('marginalia webhooks (CLI)', () => {
  const database = () => {
    const path = join(tempDir(), 'cli.db');
    return { DATABASE_URL: `sqlite:${path}` };
  };

  test('add, list, deliveries and delete; the secret is printed once; the guard and the arguments are checked', () => {
    const env = database();
    const key = JSON.parse(cli(['keys', 'create', '--name', 'acme'], env).stdout) as { apiKey: string };

    const refused = cli(['webhooks', 'add', '--url', 'http://127.0.0.1:9/x'], env);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--url: 127\.0\.0\.1 is a loopback address/);
    const badEvents = cli(['webhooks', 'add', '--url', 'https://203.0.113.10/x', '--events', 'comment.add,comments.*'], env);
    assert.equal(badEvents.code, 2);
    assert.match(badEvents.stderr, /"comments\.\*" is not an event type/);
    assert.equal(cli(['webhooks', 'add'], env).code, 2);
    assert.equal(cli(['webhooks', 'add', '--url', 'ftp://203.0.113.10/'], env).code, 2);

    const added = cli(
      ['webhooks', 'add', '--url', 'https://203.0.113.10/x', '--events', 'comment.*, notification.add', '--description', 'CRM'],
      env,
    );
    assert.equal(added.code, 0, added.stderr);
    const { webhookId, secret } = JSON.parse(added.stdout);
    assert.match(webhookId, /^wh_[0-9a-f]{32}$/);
    assert.match(secret, /^whsec_/);
    const allowed = cli(['webhooks', 'add', '--url', 'http://127.0.0.1:9/x', '--tenant', key.apiKey], {
      ...env,
      MARGINALIA_WEBHOOK_ALLOW_PRIVATE: '1',
    });
    assert.equal(allowed.code, 0, allowed.stderr);

    const listed = cli(['webhooks', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(!listed.stdout.includes(secret) && !listed.stdout.includes('whsec_'), 'no secret in the list');
    const list = JSON.parse(listed.stdout);
    assert.deepEqual(
      list.map((w: any) => [w.webhookId, w.url, w.events ?? null, w.description ?? null]),
      [
        [webhookId, 'https://203.0.113.10/x', ['comment.*', 'notification.add'], 'CRM'],
        [JSON.parse(allowed.stdout).webhookId, 'http://127.0.0.1:9/x', null, null],
      ],
    );
    assert.match(list[0].createdAt, /^\d{4}-\d\d-\d\dT/);

    const none = cli(['webhooks', 'deliveries', '--id', webhookId], env);
    assert.equal(none.code, 0, none.stderr);
    assert.deepEqual(JSON.parse(none.stdout), []);
    const unknown = cli(['webhooks', 'deliveries', '--id', 'wh_nothing'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Webhook wh_nothing does not exist\./);
    assert.equal(cli(['webhooks', 'deliveries'], env).code, 2);

    const deleted = cli(['webhooks', 'delete', '--id', webhookId], env);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(JSON.parse(deleted.stdout), { webhookId, deleted: true });
    assert.equal(cli(['webhooks', 'delete', '--id', webhookId], env).code, 1);
    assert.equal(JSON.parse(cli(['webhooks', 'list'], env).stdout).length, 1);
    assert.match(cli(['webhooks', '--help'], env).stdout, /webhooks add --url <url>/);
    assert.match(cli(['webhooks', 'nope'], env).stderr, /unknown command "webhooks nope"/);
  });

  for (const kind of STORE_KINDS) {
    test(`${kind}: a webhook the server switched off is listed so; webhooks enable switches it on (no advanced webhooks)`, async () => {
      const db = freshDatabase(kind);
      try {
        const key = JSON.parse(cli(['keys', 'create', '--name', 'acme'], db.env).stdout) as { apiKey: string };
        const added = cli(['webhooks', 'add', '--url', 'https://203.0.113.10/x'], db.env);
        assert.equal(added.code, 0, added.stderr);
        const { webhookId } = JSON.parse(added.stdout) as { webhookId: string };
        const [tenant] = await db.query(`SELECT tenant_id FROM webhooks WHERE id = '${webhookId}'`);
        // What the worker writes once every attempt failed for MARGINALIA_WEBHOOK_DISABLE_AFTER_FAILING_HOURS.
        await db.exec(
          `INSERT INTO webhook_states (tenant_id, webhook_id, failing_since, disabled_at, disabled_reason)
           VALUES ('${tenant!.tenant_id}', '${webhookId}', 1, 2, 'every attempt failed for 120 hours: HTTP 500')
           ON CONFLICT (tenant_id, webhook_id) DO UPDATE SET disabled_at = 2, disabled_reason = excluded.disabled_reason`,
        );
        const off = JSON.parse(cli(['webhooks', 'list'], db.env).stdout);
        assert.deepEqual(
          [off[0].disabled, off[0].disabledReason],
          [true, 'every attempt failed for 120 hours: HTTP 500'],
          'listed as switched off, and why',
        );
        const enabled = cli(['webhooks', 'enable', '--id', webhookId, '--tenant', key.apiKey], db.env);
        assert.equal(enabled.code, 0, enabled.stderr);
        const on = JSON.parse(enabled.stdout);
        assert.deepEqual(on, JSON.parse(cli(['webhooks', 'list'], db.env).stdout)[0], 'printed as listed');
        assert.deepEqual([on.webhookId, on.disabled, on.disabledReason], [webhookId, undefined, undefined]);
        const [state] = await db.query(`SELECT failing_since, disabled_at FROM webhook_states WHERE webhook_id = '${webhookId}'`);
        assert.deepEqual([state!.failing_since, state!.disabled_at], [null, null], 'its run of failures forgotten');
        const unknown = cli(['webhooks', 'enable', '--id', 'wh_nothing'], db.env);
        assert.equal(unknown.code, 1);
        assert.match(unknown.stderr, /Webhook wh_nothing does not exist\./);
        assert.equal(cli(['webhooks', 'enable'], db.env).code, 2);
      } finally {
        await db.drop();
      }
    });
  }

  test('with several tenants, --tenant is needed and keeps them apart', () => {
    const env = database();
    const one = JSON.parse(cli(['keys', 'create', '--name', 'one'], env).stdout) as { apiKey: string };
    cli(['keys', 'create', '--name', 'two'], env);
    assert.equal(cli(['webhooks', 'list'], env).code, 2);
    assert.equal(cli(['webhooks', 'add', '--url', 'https://203.0.113.10/x', '--tenant', one.apiKey], env).code, 0);
    assert.equal(JSON.parse(cli(['webhooks', 'list', '--tenant', 'one'], env).stdout).length, 1);
    assert.equal(JSON.parse(cli(['webhooks', 'list', '--tenant', 'two'], env).stdout).length, 0);
  });
});
