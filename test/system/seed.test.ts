// `marginalia seed --demo` on each database there is, then the real server: the printed curl
// commands, pasted as they are into a shell, each answer a success with the demo's data.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import { cli, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';

const databases = STORE_KINDS.map((kind) => freshDatabase(kind));
const servers: ServerProcess[] = [];
after(async () => {
  await Promise.all(servers.map((s) => stopServer(s)));
  await Promise.all(databases.map((db) => db.drop()));
});

for (const db of databases)
  test(`seed --demo on ${db.kind} prints credentials and curl commands that work`, async () => {
    // The server first, so the port the commands name is its own (no race for a free one).
    const server = await startServer({ env: db.env });
    servers.push(server);
    const port = new URL(server.url).port;
    const seeded = cli(['seed', '--demo'], { ...db.env, PORT: port });
    assert.equal(seeded.code, 0, seeded.stderr);
    const apiKey = /API key:\s+(\S+)/.exec(seeded.stdout)?.[1];
    const authToken = /Auth token:\s+(\S+)/.exec(seeded.stdout)?.[1];
    assert.ok(apiKey && authToken, seeded.stdout);
    const curls = seeded.stdout.split('\n').filter((l) => l.startsWith('curl '));
    assert.equal(curls.length, 7, seeded.stdout);
    const run = (c: string) => JSON.parse(execFileSync('bash', ['-c', c], { encoding: 'utf8' }));

    const [inbox, count, thread, rename, read, config, suggestions] = curls.map(run);
    assert.deepEqual(
      suggestions.result.data.map((t: any) => [t.annotationId, t.type, t.suggestion.status, t.comments[0].agent.agentId]),
      [['typo-finding', 'suggestion', 'pending', 'review-bot']],
      "/v2's read across the organization finds the bot's pending suggestion",
    );
    assert.equal(inbox.result.status, 'success');
    const [mention, ...rest] = inbox.result.data;
    assert.deepEqual(
      rest.map((n: any) => n.id),
      ['reply-pricing', 'reply-scope'],
      "Ana's inbox, newest first, after the mention",
    );
    // Dev's comment with triggerNotification mentions Ana: a fan-out notification in her inbox.
    assert.equal(mention.notificationSource, 'comment');
    assert.equal(mention.displayHeadlineMessageTemplate, '{actionUser} mentioned you');
    assert.deepEqual(mention.notificationSourceData, { annotationId: 'scope', commentId: 3, documentId: 'roadmap-2027' });
    assert.equal(mention.actionUser.name, 'Dev Patel');
    assert.deepEqual(mention.notifyUsersByUserId, { ana: true });
    assert.equal(rest[0].actionUser.name, 'Dev Patel');
    // The one she has read shows false for her.
    assert.deepEqual(rest[1].notifyUsersByUserId, { ana: false });
    assert.equal(count.result.status, 'success');
    assert.deepEqual(count.result.data, { total: 3, unread: 2 });
    assert.ok(count.result.data.unread < count.result.data.total);
    assert.equal(thread.result.status, 'success');
    // Both threads were added at once: the same createdAt, so by annotationId descending.
    assert.deepEqual(
      thread.result.data.map((t: any) => [t.annotationId, t.status.id]),
      [
        ['scope', 'OPEN'],
        ['pricing', 'RESOLVED'],
      ],
    );
    const pricing = thread.result.data[1];
    assert.deepEqual(
      pricing.comments.map((c: any) => [c.from.name, c.status]),
      [
        ['Chloé Martin', 'added'],
        ['Dev Patel', 'updated'],
        ['Ana Lima', 'added'],
      ],
    );
    assert.match(pricing.comments[1].commentHtml, /per seat and month\. See <a href="https:\/\/acme\.example\/pricing">/);
    assert.deepEqual(
      thread.result.data[0].comments.map((c: any) => [c.from.name, c.taggedUserContacts?.map((t: any) => t.userId)]),
      [
        ['Ana Lima', undefined],
        ['Ben Okafor', undefined],
        ['Dev Patel', ['ana']],
      ],
      'the scope thread ends with the comment that mentions Ana',
    );
    assert.equal(rename.result.status, 'success');
    assert.equal(rename.result.data.ana.success, true);
    // The rename shows at once where Ana appears.
    const again = run(curls[2]!);
    assert.equal(again.result.data[1].comments[2].from.name, 'Ana Lima-Souza');
    assert.equal(again.result.data[0].from.name, 'Ana Lima-Souza', "the scope thread's first author");
    // Marking her inbox read marks the two unread; then nothing is unread.
    assert.equal(read.result.status, 'success');
    assert.deepEqual(read.result.data, { read: 2 });
    assert.deepEqual(run(curls[1]!).result.data, { total: 3, unread: 0 });
    assert.equal(config.result.status, 'success');
    assert.deepEqual(
      config.result.data.map((c: any) => [c.metadata.documentId, c.metadata.userId, c.config]),
      [['roadmap-2027', 'chloe', { inbox: 'ALL', email: 'MINE' }]],
    );
    // The same comment told Ben (who wrote in the thread before) of a reply, and Chloé (ALL) of a comment.
    const headlineFor = (userId: string) =>
      run(curls[0]!.replace('"userId":"ana"', `"userId":"${userId}"`)).result.data.find(
        (n: any) => n.notificationSource === 'comment',
      )?.displayHeadlineMessageTemplate;
    assert.equal(headlineFor('ben'), '{actionUser} replied to a thread you commented on');
    assert.equal(headlineFor('chloe'), '{actionUser} commented on a document');
  });

test('seed without --demo is a usage error (exit 2) that shows its help', () => {
  const r = cli(['seed'], databases[0]!.env);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /usage: marginalia seed --demo/);
});
