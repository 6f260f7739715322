// `marginalia seed --demo` on the run's database, then the real server: the three printed curl
// commands, pasted as they are into a shell, each answer a success with the demo's data.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import { cli, startServer, stopServer, type ServerProcess } from './server-process.js';
import { freshDatabase } from './test-database.js';

const db = freshDatabase();
let server: ServerProcess | undefined;
after(async () => {
  if (server) await stopServer(server);
  await db.drop();
});

test('seed --demo prints credentials and three curl commands that work against the running server', async () => {
  // The server first, so the port the commands name is its own (no race for a free one).
  server = await startServer({ env: db.env });
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
  assert.deepEqual(
    thread.result.data.map((c: any) => c.from.name),
    ['Chloé Martin', 'Dev Patel', 'Ana Lima'],
  );
  assert.match(thread.result.data[1].commentHtml, /<a href="https:\/\/acme\.example\/pricing">/);
  assert.equal(rename.result.status, 'success');
  assert.equal(rename.result.data.ana.success, true);
  // The rename shows at once where Ana appears.
  const again = JSON.parse(execFileSync('bash', ['-c', curls[1]!], { encoding: 'utf8' }));
  assert.equal(again.result.data[2].from.name, 'Ana Lima-Souza');
});

test('seed without --demo is a usage error (exit 2) that shows its help', () => {
  const r = cli(['seed'], db.env);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /usage: marginalia seed --demo/);
});
