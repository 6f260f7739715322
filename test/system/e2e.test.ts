// End-to-end: the real server process, started the way the README says, spoken to over HTTP.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, describe, test } from 'node:test';
import { cli, firstStartCredentials, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, type FreshDatabase, STORE_KINDS, type StoreKind } from '../helpers/test-database.js';
import { Marginalia } from '../../client/src/index.js';
import { eventually } from '../helpers/eventually.js';

const running: ServerProcess[] = [];
const databases: FreshDatabase[] = [];
after(async () => {
  await Promise.all(running.map((s) => stopServer(s, 'SIGKILL')));
  await Promise.all(databases.map((d) => d.drop()));
});

/** A fresh empty database of the kind; its environment is what a server or the CLI needs. */
function database(kind: StoreKind): Record<string, string> {
  const db = freshDatabase(kind);
  databases.push(db);
  return db.env;
}

async function start(env: Record<string, string>, viaNpm = false): Promise<ServerProcess> {
  const s = await startServer({ env, viaNpm });
  running.push(s);
  return s;
}

for (const kind of STORE_KINDS)
  describe(`end to end on ${kind}`, () => {
    test('npm start on an empty database prints credentials once and serves every operation', async () => {
      const db = database(kind);
      const s = await start(db, true);
      const creds = firstStartCredentials(s.stderr());
      assert.match(creds.apiKey, /^mk_/);

      assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
      const ready = await fetch(`${s.url}/readyz`);
      assert.equal(ready.status, 200, await ready.text());

      // Through the typed client (client/), as an application would.
      const api = new Marginalia({ baseUrl: s.url, ...creds });
      const org = 'acme';
      const added = await api.users.add({
        organizationId: org,
        users: [{ userId: 'ann', name: 'Ann', email: 'ann@example.com' }],
      });
      assert.equal(added.data.ann?.success, true);
      const raw = await post(s.url, '/v1/users/add', creds, { organizationId: org, users: [{ userId: 'ann' }] });
      assert.ok(raw.headers.get('x-request-id'), 'x-request-id on every response');

      const thread = await api.comments.addAnnotations({
        organizationId: org,
        documentId: 'doc',
        commentAnnotations: [
          { annotationId: 't1', commentData: [{ commentHtml: '<p>hi <script>x()</script></p>', from: { userId: 'ann' } }] },
        ],
      });
      assert.deepEqual(thread.data.t1?.commentIds, [1]);
      const more = await api.comments.add({
        organizationId: org,
        documentId: 'doc',
        annotationId: 't1',
        commentData: [{ commentText: 'reply', from: { userId: 'bob', name: 'Bob' } }],
      });
      assert.deepEqual(more.data, [2]);
      await api.notifications.add({
        organizationId: org,
        documentId: 'doc',
        notificationId: 'n1',
        actionUser: { userId: 'ann' },
        displayHeadlineMessageTemplate: '{actionUser} replied',
        notifyUsers: [{ userId: 'bob' }],
      });
      await api.users.update({ organizationId: org, users: [{ userId: 'ann', name: 'Ann Renamed' }] });

      const comments = await api.comments.get({ organizationId: org, documentId: 'doc', annotationId: 't1' });
      assert.deepEqual(
        comments.data.map((c) => [c?.commentId, c?.commentText, c?.from.name]),
        [
          [1, 'hi ', 'Ann Renamed'],
          [2, 'reply', 'Bob'],
        ],
      );
      assert.doesNotMatch(JSON.stringify(comments), /script/);
      const inbox = await api.notifications.get({ organizationId: org, userId: 'bob' });
      assert.equal(inbox.data[0]?.actionUser.name, 'Ann Renamed');

      // npm does not forward SIGTERM, so the whole process group is signalled, as a terminal's Ctrl-C does;
      // npm itself dies by the signal, and the server's own log says it stopped gracefully.
      await stopServer(s);
      assert.match(s.stdout(), /"msg":"stopped"/, `graceful stop: ${s.stdout().slice(-500)}`);
      const again = await start(db);
      assert.doesNotMatch(again.stderr(), /x-service-auth-token/, 'credentials are printed only on the first start');
      const after = await post(again.url, '/v1/commentannotations/comments/get', creds, {
        organizationId: org,
        documentId: 'doc',
        annotationId: 't1',
      });
      assert.equal(after.json.result.data.length, 2, 'data survives a restart');
      await stopServer(again);
    });

    test('bootstrap credentials from the environment are ensured, idempotently, and no first-start tenant is made', async () => {
      const db = database(kind);
      const creds = { apiKey: 'bootstrap-key', authToken: 'bootstrap-token-0123456789' };
      const env = { ...db, MARGINALIA_API_KEY: creds.apiKey, MARGINALIA_AUTH_TOKEN: creds.authToken };
      for (let i = 0; i < 2; i++) {
        const s = await start(env);
        assert.doesNotMatch(s.stderr(), /first start/);
        const r = await post(s.url, '/v1/notifications/get', creds, { organizationId: 'o', userId: 'u' });
        assert.equal(r.status, 200, r.text);
        assert.equal(await stopServer(s), 0);
      }
      const keys = JSON.parse(cli(['keys', 'list'], db).stdout);
      assert.equal(keys.length, 1, JSON.stringify(keys));
      assert.equal(keys[0].tokens.length, 1, 'the token was added once');
    });

    test('a token revoked through the CLI fails on the very next request', async () => {
      const db = database(kind);
      const s = await start(db);
      const creds = firstStartCredentials(s.stderr());
      const data = { organizationId: 'o', userId: 'u' };
      assert.equal((await post(s.url, '/v1/notifications/get', creds, data)).status, 200);
      const second = JSON.parse(cli(['tokens', 'create', creds.apiKey], db).stdout);
      assert.equal((await post(s.url, '/v1/notifications/get', second, data)).status, 200, 'a new token works at once');
      const revoked = cli(['tokens', 'revoke', creds.apiKey, creds.authToken.slice(0, 12)], db);
      assert.equal(revoked.code, 0, revoked.stderr);
      const r = await post(s.url, '/v1/notifications/get', creds, data);
      assert.equal(r.status, 401, r.text);
      assert.equal(r.json.error.message, 'Invalid API key or auth token.');
      assert.equal((await post(s.url, '/v1/notifications/get', second, data)).status, 200, 'the other token still works');

      assert.equal(cli(['keys', 'disable', creds.apiKey], db).code, 0);
      assert.equal(
        (await post(s.url, '/v1/notifications/get', second, data)).status,
        403,
        'a disabled tenant is PERMISSION_DENIED',
      );
      assert.equal(cli(['keys', 'enable', creds.apiKey], db).code, 0);
      assert.equal((await post(s.url, '/v1/notifications/get', second, data)).status, 200);
      assert.equal(cli(['keys', 'revoke', creds.apiKey], db).code, 0);
      assert.equal((await post(s.url, '/v1/notifications/get', second, data)).status, 401, 'a revoked key is UNAUTHENTICATED');
      await stopServer(s);
    });

    test('SIGTERM lets an in-flight request finish, answers new ones 503, then exits 0', async () => {
      const db = database(kind);
      const s = await start(db);
      const creds = firstStartCredentials(s.stderr());
      const body = JSON.stringify({ data: { organizationId: 'o', users: [{ userId: 'slow', name: 'Slow' }] } });
      const { port } = new URL(s.url);
      // The request is in flight: headers and half the body sent, the rest after SIGTERM.
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/v1/users/add',
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'x-service-api-key': creds.apiKey,
              'x-service-auth-token': creds.authToken,
            },
          },
          (res) => {
            let text = '';
            res.on('data', (d) => {
              text += d;
            });
            res.on('end', () => resolve({ status: res.statusCode!, text }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 20));
        setTimeout(() => {
          s.proc.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(20)), 300);
        }, 200);
      });
      const r = await answer;
      assert.equal(r.status, 200, r.text);
      assert.equal(JSON.parse(r.text).result.data.slow.message, 'User added.');
      assert.equal(await s.exited, 0, `exit code; stderr: ${s.stderr()}`);
      assert.match(s.stdout(), /shutting down/);
    });

    test('every acknowledged write survives kill -9', async () => {
      const db = database(kind);
      const s = await start(db);
      const creds = firstStartCredentials(s.stderr());
      const acknowledged: string[] = [];
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const id = `w${w}-${i}`;
          try {
            const r = await post(s.url, '/v1/notifications/add', creds, {
              organizationId: 'o',
              documentId: 'd',
              notificationId: id,
              actionUser: { userId: 'a' },
              displayHeadlineMessageTemplate: 't',
              notifyUsers: [{ userId: 'u' }],
            });
            if (r.status === 200) acknowledged.push(id);
          } catch {
            return; // the connection died with the server
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 10));
      s.proc.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      assert.equal(await s.exited, 'SIGKILL');

      const again = await start(db);
      const found = new Set<string>();
      let pageToken: string | undefined;
      do {
        const r = await post(again.url, '/v1/notifications/get', creds, { organizationId: 'o', documentId: 'd', pageToken });
        assert.equal(r.status, 200, r.text);
        for (const n of r.json.result.data) found.add(n.id);
        pageToken = r.json.result.pageToken;
      } while (pageToken);
      const lost = acknowledged.filter((id) => !found.has(id));
      assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged writes were lost`);
      await stopServer(again);
    });

    test('MARGINALIA_WORKERS=2: both workers serve, concurrent writes through both all land, SIGTERM stops every worker', async () => {
      const db = database(kind);
      const s = await start({ ...db, MARGINALIA_WORKERS: '2' });
      const creds = firstStartCredentials(s.stderr());
      assert.equal(s.stderr().match(/first start/g)?.length, 1, 'credentials are made and printed once, by the primary');
      // The server counts as started when the first worker listens; wait for the second one too.
      await eventually(
        () => `the second worker to listen:\n${s.stdout()}`,
        () => (s.stdout().match(/Server listening at/g)?.length ?? 0) >= 2,
        { ms: 10_000 },
      );
      // A new connection per request, so the primary hands them to the workers in turn.
      const once = (data: unknown) =>
        fetch(`${s.url}/v1/notifications/add`, {
          method: 'POST',
          body: JSON.stringify({ data }),
          headers: {
            connection: 'close',
            'content-type': 'application/json',
            'x-service-api-key': creds.apiKey,
            'x-service-auth-token': creds.authToken,
          },
        });
      const ids = Array.from({ length: 200 }, (_, i) => `w${i}`);
      const statuses = await Promise.all(
        ids.map((id) =>
          once({
            organizationId: 'o',
            documentId: 'd',
            notificationId: id,
            actionUser: { userId: 'a' },
            displayHeadlineMessageTemplate: 't',
            notifyUsers: [{ userId: 'u' }],
          }).then((r) => r.status),
        ),
      );
      assert.deepEqual([...new Set(statuses)], [200], 'every concurrent write was acknowledged');
      const pids = new Set([...s.stdout().matchAll(/"pid":(\d+)[^\n]*"msg":"request completed"/g)].map((m) => m[1]));
      assert.equal(pids.size, 2, `requests were served by ${pids.size} worker(s)`);

      const found = new Set<string>();
      let pageToken: string | undefined;
      do {
        const r = await post(s.url, '/v1/notifications/get', creds, { organizationId: 'o', documentId: 'd', pageToken });
        for (const n of r.json.result.data) found.add(n.id);
        pageToken = r.json.result.pageToken;
      } while (pageToken);
      assert.deepEqual(
        ids.filter((id) => !found.has(id)),
        [],
      );

      assert.equal(await stopServer(s), 0);
      for (const pid of pids) assert.throws(() => process.kill(Number(pid), 0), `worker ${pid} is gone`);
    });

    test('a bad configuration is reported whole, with exit code 1', async () => {
      const r = cli(['serve'], {
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
        MARGINALIA_API_KEY: 'only-key',
        MARGINALIA_RATE_LIMIT: '-1',
      });
      assert.equal(r.code, 1, r.stderr);
      for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL', 'MARGINALIA_API_KEY', 'MARGINALIA_RATE_LIMIT']) {
        assert.match(r.stderr, new RegExp(name), `${name} is reported:\n${r.stderr}`);
      }
    });

    test('a port already in use fails the start with exit code 1', async () => {
      const db = database(kind);
      const s = await start(db);
      const { port } = new URL(s.url);
      const r = cli(['serve'], { ...db, PORT: port });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /EADDRINUSE|in use/);
      await stopServer(s);
    });
  });

describe('the log', () => {
  test('a log nobody reads holds at most MARGINALIA_LOG_BUFFER_MB: lines past it are dropped, then counted', async () => {
    const db = database('sqlite');
    const s = await start({ ...db, MARGINALIA_LOG_BUFFER_MB: '1', LOG_LEVEL: 'info' });
    // Nobody reads standard output: the pipe fills, then the server's buffer.
    s.proc.stdout!.pause();
    const before = s.stdout().length;
    // One log line a request, made longer by the longest request id a caller may give (about 270 bytes):
    // past the bound and the pipe's own buffer.
    const headers = { 'content-type': 'application/json', 'x-request-id': 'r'.repeat(128) };
    const ask = async () => {
      for (let i = 0; i < 700; i++) {
        const res = await fetch(`${s.url}/v1/notifications/get`, { method: 'POST', headers, body: '{}' });
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 8 }, ask));
    s.proc.stdout!.resume();
    await eventually('the warning that lines were dropped', () => s.stdout().slice(before).includes('"droppedLines"'));
    const warning = JSON.parse(
      s
        .stdout()
        .split('\n')
        .find((l) => l.includes('"droppedLines"'))!,
    );
    assert.equal(warning.level, 40, 'a warning');
    assert.ok(warning.droppedLines > 500, `${warning.droppedLines} lines dropped`);
    await stopServer(s);
  });
});
