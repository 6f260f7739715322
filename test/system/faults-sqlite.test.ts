// SQLite storage faults against the real server process: a full disk (a small tmpfs), and a file
// with damaged pages, found at start by the quick check or later by the first read that meets them.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { eventually } from '../helpers/eventually.js';
import { logEntries, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { mountTmpfs, NO_TMPFS, type Tmpfs } from '../helpers/tmpfs.js';

const creds = { apiKey: 'faults-sqlite-key', authToken: 'faults-sqlite-token-0123456789' };
const env = (path: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: `sqlite:${path}`,
  MARGINALIA_API_KEY: creds.apiKey,
  MARGINALIA_AUTH_TOKEN: creds.authToken,
  MARGINALIA_RATE_LIMIT: '0',
  ...extra,
});
const add = (url: string, id: string, size = 100) =>
  post(url, '/v1/notifications/add', creds, {
    organizationId: 'o',
    notificationId: id,
    actionUser: { userId: 'a' },
    displayHeadlineMessageTemplate: 'x'.repeat(size),
    notifyUsers: [{ userId: 'u' }],
  });
const read = (url: string) => post(url, '/v1/notifications/get', creds, { organizationId: 'o', userId: 'u', pageSize: 5 });
const readUsers = (url: string) => post(url, '/v1/users/update', creds, { organizationId: 'o', users: [{ userId: 'nobody' }] });
const readyz = async (url: string) => {
  const r = await fetch(`${url}/readyz`);
  return { status: r.status, body: (await r.json()) as any };
};
/** The server's log entries at a level (50 = error). */
const logLines = (s: ServerProcess, level: number) => logEntries(s).filter((l) => l.level === level);
/**
 * The error lines that name a fault, once the first has come: the log reaches the pipe after the answer
 * that met the fault (its stream is buffered), so a test that asserted at once could read none.
 */
async function faultLines(s: ServerProcess, fault: string) {
  const found = () => logLines(s, 50).filter((l) => l.fault === fault);
  await eventually(`a log line of the fault ${fault}`, () => found().length > 0);
  return found();
}

describe('SQLite on a full disk', { skip: NO_TMPFS }, () => {
  let disk: Tmpfs;
  let mountPoint: string;
  let server: ServerProcess;
  before(async () => {
    disk = mountTmpfs(20);
    mountPoint = disk.path;
    mkdirSync(join(mountPoint, 'data'));
    server = await startServer({ env: env(join(mountPoint, 'data', 'marginalia.db')) });
  });
  after(async () => {
    if (server) await stopServer(server);
    disk?.unmount();
  });

  test('writes get 503 saying storage is full with Retry-After; /readyz 503; reads go on; all is well once space is freed', async (t) => {
    for (let i = 0; i < 10; i++) assert.equal((await add(server.url, `before-${i}`, 20_000)).status, 200);
    const filler = join(mountPoint, 'filler');
    const fd = openSync(filler, 'w');
    try {
      for (const chunk = Buffer.alloc(1 << 16, 1); ; ) writeSync(fd, chunk);
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
    } finally {
      closeSync(fd);
    }

    const statuses: Record<number, number> = {};
    let refused: Awaited<ReturnType<typeof add>> | undefined;
    for (let i = 0; i < 100; i++) {
      const r = await add(server.url, `during-${i}`, 20_000);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status !== 200) refused ??= r;
    }
    t.diagnostic(`writes on the full disk by status: ${JSON.stringify(statuses)}`);
    assert.ok(refused, 'some write was refused');
    assert.deepEqual(
      Object.keys(statuses).filter((s) => s !== '200' && s !== '503'),
      [],
      JSON.stringify(statuses),
    );
    assert.equal(refused.json.error.status, 'UNAVAILABLE', refused.text);
    assert.match(refused.json.error.message, /storage is full/, refused.text);
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After');
    const notReady = await readyz(server.url);
    assert.equal(notReady.status, 503);
    assert.match(notReady.body.error.message, /storage is full/);
    assert.equal((await read(server.url)).status, 200, 'reads go on');
    const faults = await faultLines(server, 'storage_full');
    assert.equal(faults.length, 1, 'the operator is told once');
    assert.match(faults[0]!.msg, /Free disk space/);
    assert.match(await (await fetch(`${server.url}/metrics`)).text(), /marginalia_database_fault\{fault="storage_full"\} 1/);

    rmSync(filler);
    assert.equal((await readyz(server.url)).status, 200, 'ready again once space is freed');
    assert.equal((await add(server.url, 'after', 20_000)).status, 200);
    assert.match(await (await fetch(`${server.url}/metrics`)).text(), /marginalia_database_fault\{fault="storage_full"\} 0/);
    const ids = new Set(
      (await post(server.url, '/v1/notifications/get', creds, { organizationId: 'o', userId: 'u' })).json.result.data.map(
        (n: any) => n.id,
      ),
    );
    for (let i = 0; i < 10; i++) assert.ok(ids.has(`before-${i}`));
    assert.ok(ids.has('after'));
  });
});

describe('SQLite file with damaged pages', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'marginalia-damaged-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A database with users and notifications, whose inbox table's root page (what a read by user walks) is then overwritten. */
  async function damagedDatabase(name: string): Promise<string> {
    const path = join(dir, name, 'marginalia.db');
    const server = await startServer({ env: env(path) });
    try {
      for (let i = 0; i < 20; i++) assert.equal((await add(server.url, `n-${i}`)).status, 200);
      assert.equal(
        (await post(server.url, '/v1/users/add', creds, { organizationId: 'o', users: [{ userId: 'kept' }] })).status,
        200,
      );
    } finally {
      assert.equal(await stopServer(server), 0);
    }
    const db = new Database(path);
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const root = (db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'inbox'`).get() as { rootpage: number }).rootpage;
    db.close();
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    return path;
  }

  async function expectDamageAnswered(server: ServerProcess): Promise<void> {
    const r = await read(server.url);
    assert.equal(r.status, 503, r.text);
    assert.equal(r.json.error.status, 'UNAVAILABLE');
    assert.match(r.json.error.message, /damaged/);
    assert.doesNotMatch(r.text, /malformed|SQLITE|sqlite/, 'no database error text reaches the caller');
    const ready = await readyz(server.url);
    assert.equal(ready.status, 503);
    assert.match(ready.body.error.message, /damaged/);
    const write = await add(server.url, 'later');
    assert.equal(write.status, 503, write.text);
  }

  test(
    'found at start by the quick check: /readyz fails at once, reads of the damage and writes get 503, the' + ' log says it once',
    async () => {
      const server = await startServer({ env: env(await damagedDatabase('at-start')) });
      try {
        assert.equal((await readyz(server.url)).status, 503, 'not ready from the start');
        await expectDamageAnswered(server);
        await expectDamageAnswered(server);
        assert.equal((await readUsers(server.url)).status, 503, 'users/update writes, so it is refused too');
        const errors = await faultLines(server, 'damaged');
        assert.equal(errors.length, 1, JSON.stringify(logLines(server, 50)));
        assert.match(errors[0]!.msg, /restore the last good backup/);
        assert.match(await (await fetch(`${server.url}/metrics`)).text(), /marginalia_database_fault\{fault="damaged"\} 1/);
      } finally {
        await stopServer(server);
      }
    },
  );

  test('a file past MARGINALIA_SQLITE_CHECK_INLINE_MB is checked after start: alive at once, then the same answers', async () => {
    const server = await startServer({
      env: env(await damagedDatabase('after-start'), { MARGINALIA_SQLITE_CHECK_INLINE_MB: '0' }),
    });
    try {
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      await eventually('the check on its thread to find the damage', async () => (await readyz(server.url)).status === 503);
      await expectDamageAnswered(server);
      assert.equal((await faultLines(server, 'damaged')).length, 1);
    } finally {
      await stopServer(server);
    }
  });

  test('with the check off, found by the first read that meets it: the same answers, told once', async () => {
    const server = await startServer({ env: env(await damagedDatabase('at-read'), { MARGINALIA_SQLITE_CHECK_AT_START: 'off' }) });
    try {
      assert.equal((await readyz(server.url)).status, 200, 'the damage is not known yet');
      await expectDamageAnswered(server);
      await expectDamageAnswered(server);
      assert.equal((await faultLines(server, 'damaged')).length, 1);
    } finally {
      await stopServer(server);
    }
  });
});
