// Several instances, one PostgreSQL database: what is written through one is read through the other at
// once, and a storm of concurrent writes split over both loses nothing and never gets a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, NEEDS_POSTGRES, type FreshDatabase } from '../helpers/test-database.js';

const creds = { apiKey: 'instances-key', authToken: 'instances-token-0123456789' };
const ORG = 'org';

describe('two instances on one PostgreSQL database', { skip: NEEDS_POSTGRES }, () => {
  let db: FreshDatabase;
  let a: ServerProcess;
  let b: ServerProcess;

  before(async () => {
    db = freshDatabase('postgres');
    // Started together on an empty schema: the migration lock and the idempotent bootstrap are exercised too.
    const env = { ...db.env, MARGINALIA_API_KEY: creds.apiKey, MARGINALIA_AUTH_TOKEN: creds.authToken, LOG_LEVEL: 'warn' };
    [a, b] = await Promise.all([
      startServer({ env: { ...env, LOG_LEVEL: 'info' } }),
      startServer({ env: { ...env, LOG_LEVEL: 'info' } }),
    ]);
  });
  after(async () => {
    await Promise.all([a && stopServer(a), b && stopServer(b)]);
    await db?.drop();
  });

  test('a write through one instance is read through the other at once', async () => {
    const ok = async (s: ServerProcess, path: string, data: unknown) => {
      const r = await post(s.url, path, creds, data);
      assert.equal(r.status, 200, `${path} via ${s.url}: ${r.text}`);
      return r.json.result;
    };
    await ok(a, '/v1/users/add', { organizationId: 'x', users: [{ userId: 'ann', name: 'Ann' }] });
    assert.equal(
      (await ok(b, '/v1/users/update', { organizationId: 'x', users: [{ userId: 'ann', name: 'Ann B' }] })).data.ann.success,
      true,
    );
    await ok(b, '/v1/commentannotations/add', {
      organizationId: 'x',
      documentId: 'd',
      commentAnnotations: [{ annotationId: 't', commentData: [{ commentText: 'hi', from: { userId: 'ann' } }] }],
    });
    await ok(a, '/v1/commentannotations/comments/add', {
      organizationId: 'x',
      documentId: 'd',
      annotationId: 't',
      commentData: [{ commentText: 'yo', from: { userId: 'bob' } }],
    });
    const thread = await ok(b, '/v1/commentannotations/comments/get', {
      organizationId: 'x',
      documentId: 'd',
      annotationId: 't',
    });
    assert.deepEqual(
      thread.data.map((c: any) => [c.commentId, c.commentText, c.from.name]),
      [
        [1, 'hi', 'Ann B'],
        [2, 'yo', ''],
      ],
    );
    await ok(a, '/v1/notifications/add', {
      organizationId: 'x',
      notificationId: 'n1',
      actionUser: { userId: 'ann' },
      displayHeadlineMessageTemplate: 't',
      notifyUsers: [{ userId: 'bob' }],
    });
    const inbox = await ok(b, '/v1/notifications/get', { organizationId: 'x', userId: 'bob' });
    assert.deepEqual(
      inbox.data.map((n: any) => [n.id, n.actionUser.name]),
      [['n1', 'Ann B']],
    );
  });

  test('1200 concurrent writes split over both instances lose nothing and get no 5xx', async (t) => {
    const USERS = 50;
    const UPDATES_PER_USER = 12;
    const NOTIFICATIONS = 600;
    const servers = [a, b];
    const userIds = Array.from({ length: USERS }, (_, i) => `u${i}`);
    assert.equal(
      (
        await post(a.url, '/v1/users/add', creds, {
          organizationId: ORG,
          users: userIds.map((userId) => ({ userId, name: 'start' })),
        })
      ).status,
      200,
    );
    // One comment by each user, so their profile names can be read back through comments/get.
    const seeded = await post(b.url, '/v1/commentannotations/add', creds, {
      organizationId: ORG,
      documentId: 'd',
      commentAnnotations: [
        { annotationId: 'names', commentData: userIds.map((userId) => ({ commentText: userId, from: { userId } })) },
      ],
    });
    assert.equal(seeded.status, 200, seeded.text);

    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const lastName = new Map<string, string>();
    const acknowledged: string[] = [];
    const started = Date.now();

    // Each user is renamed by one sequence of requests alternating between the instances, so its last
    // acknowledged name is well defined; all users and all notifications run at the same time.
    const renames = userIds.map(async (userId, u) => {
      for (let i = 0; i < UPDATES_PER_USER; i++) {
        const name = `${userId}-v${i}`;
        const r = await post(servers[(u + i) % 2]!.url, '/v1/users/update', creds, {
          organizationId: ORG,
          users: [{ userId, name }],
        });
        count(r.status);
        if (r.status === 200 && r.json.result.data[userId].success) lastName.set(userId, name);
      }
    });
    const notify = Array.from({ length: 50 }, async (_, w) => {
      for (let i = w; i < NOTIFICATIONS; i += 50) {
        const id = `n${i}`;
        const r = await post(servers[i % 2]!.url, '/v1/notifications/add', creds, {
          organizationId: ORG,
          documentId: 'load',
          notificationId: id,
          actionUser: { userId: userIds[i % USERS]! },
          displayHeadlineMessageTemplate: 'load',
          notifyUsers: [{ userId: userIds[(i + 1) % USERS]! }],
        });
        count(r.status);
        if (r.status === 200) acknowledged.push(id);
      }
    });
    await Promise.all([...renames, ...notify]);
    const elapsed = Date.now() - started;
    const total = [...statuses.values()].reduce((x, y) => x + y, 0);
    t.diagnostic(
      `${total} writes (${USERS * UPDATES_PER_USER} users/update, ${NOTIFICATIONS} notifications/add) over 2 instances ` +
        `in ${elapsed} ms (${Math.round((total / elapsed) * 1000)} writes/s); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );

    assert.equal(total, USERS * UPDATES_PER_USER + NOTIFICATIONS);
    assert.deepEqual(Object.fromEntries(statuses), { 200: total }, 'every write was acknowledged, none got a 5xx');

    // Every acknowledged notification is there, read through each instance.
    for (const s of servers) {
      const found = new Set<string>();
      let pageToken: string | undefined;
      do {
        const r = await post(s.url, '/v1/notifications/get', creds, {
          organizationId: ORG,
          documentId: 'load',
          pageSize: 250,
          pageToken,
        });
        assert.equal(r.status, 200, r.text);
        for (const n of r.json.result.data) found.add(n.id);
        pageToken = r.json.result.pageToken;
      } while (pageToken);
      assert.deepEqual(
        acknowledged.filter((id) => !found.has(id)),
        [],
        `acknowledged notifications missing via ${s.url}`,
      );
      assert.equal(found.size, acknowledged.length);
    }
    // Every user shows its last acknowledged name.
    const names = await post(a.url, '/v1/commentannotations/comments/get', creds, {
      organizationId: ORG,
      documentId: 'd',
      annotationId: 'names',
    });
    const shown = Object.fromEntries(names.json.result.data.map((c: any) => [c.from.userId, c.from.name]));
    assert.deepEqual(shown, Object.fromEntries(userIds.map((id) => [id, lastName.get(id)])));
  });
});
