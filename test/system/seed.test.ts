// `marginalia seed --demo` on each database there is, then the real server: the three printed curl
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
  test(`seed --demo on ${db.kind} prints credentials and three curl commands that work`, async () => {
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
    assert.equal(curls.length, 3, seeded.stdout);

    const [inbox, thread, rename] = curls.map((c) => JSON.parse(execFileSync('bash', ['-c', c], { encoding: 'utf8' })));
    assert.equal(inbox.result.status, 'success');
    assert.deepEqual(
      inbox.result.data.map((n: any) => n.id),
      ['reply-pricing', 'reply-scope'],
      "Ana's inbox, newest first",
    );
    assert.equal(inbox.result.data[0].actionUser.name, 'Dev Patel');
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
    assert.equal(rename.result.status, 'success');
    assert.equal(rename.result.data.ana.success, true);
    // The rename shows at once where Ana appears.
    const again = JSON.parse(execFileSync('bash', ['-c', curls[1]!], { encoding: 'utf8' }));
    assert.equal(again.result.data[1].comments[2].from.name, 'Ana Lima-Souza');
    assert.equal(again.result.data[0].from.name, 'Ana Lima-Souza', "the scope thread's first author");
  });

test('seed without --demo is a usage error (exit 2) that shows its help', () => {
  const r = cli(['seed'], databases[0]!.env);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /usage: marginalia seed --demo/);
});
