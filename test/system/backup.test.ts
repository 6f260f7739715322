// `marginalia backup` while the real server takes writes, and `marginalia restore` into a fresh place
// (docs/operations.md, "Backup and restore"): every write acknowledged before the backup began is in
// the restored database, and nothing in it is half-written. On SQLite (the online backup) and, when
// PostgreSQL and its client tools are here, on PostgreSQL (pg_dump and pg_restore).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import {
  cli,
  cliInBackground,
  firstStartCredentials,
  post,
  startServer,
  stopServer,
  type ServerProcess,
  tempDir,
} from '../helpers/server-process.js';
import { freshDatabase, PG_URL } from '../helpers/test-database.js';

const running: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  await Promise.all(running.map((s) => stopServer(s, 'SIGKILL')));
  for (const cleanup of cleanups) await cleanup();
});

const WRITERS = 4;
const COMMENTS = 5;

/** A document with one thread of COMMENTS comments, written in one request: whole in a backup, or absent. */
const thread = (documentId: string) => ({
  organizationId: 'o',
  documentId,
  commentAnnotations: [
    {
      annotationId: 't',
      commentData: Array.from({ length: COMMENTS }, (_, c) => ({ commentText: `comment ${c}`, from: { userId: `u${c}` } })),
    },
  ],
});

interface Place {
  env: Record<string, string>;
}

/**
 * Writers write until told to stop; the backup runs meanwhile. Resolves with the documents acknowledged
 * before the backup began, and those sent at all (the rest may or may not be in it).
 */
async function backupUnderLoad(s: ServerProcess, creds: { apiKey: string; authToken: string }, place: Place, file: string) {
  const acknowledgedAt = new Map<string, number>();
  const sent: string[] = [];
  let stop = false;
  const writer = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const documentId = `w${w}-${i}`;
      sent.push(documentId);
      const r = await post(s.url, '/v1/commentannotations/add', creds, thread(documentId));
      assert.equal(r.status, 200, r.text);
      acknowledgedAt.set(documentId, performance.now());
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  while (acknowledgedAt.size < 50) await new Promise((r) => setTimeout(r, 10));
  const began = performance.now();
  const backup = await cliInBackground(['backup', file], place.env);
  const acknowledgedDuring = [...acknowledgedAt.values()].filter((at) => at > began).length;
  stop = true;
  await Promise.all(writers);
  assert.equal(backup.code, 0, backup.stderr);
  const before = [...acknowledgedAt].filter(([, at]) => at < began).map(([id]) => id);
  return { before, sent, acknowledgedDuring, printed: JSON.parse(backup.stdout) };
}

/** The documents of `ids` whose thread has all its comments, and those with some but not all. */
async function present(url: string, creds: { apiKey: string; authToken: string }, ids: readonly string[]) {
  const whole = new Set<string>();
  const partial: string[] = [];
  for (const documentId of ids) {
    const r = await post(url, '/v1/commentannotations/get', creds, { organizationId: 'o', documentId });
    assert.equal(r.status, 200, r.text);
    const comments = r.json.result.data.flatMap((t: { comments: unknown[] }) => t.comments).length;
    if (comments === COMMENTS) whole.add(documentId);
    else if (comments > 0) partial.push(documentId);
  }
  return { whole, partial };
}

test('SQLite: a backup taken under load, restored into a fresh place, holds every write acknowledged before it began', async () => {
  const db = freshDatabase('sqlite');
  cleanups.push(() => db.drop());
  const s = await startServer({ env: db.env });
  running.push(s);
  const creds = firstStartCredentials(s.stderr());
  const dir = tempDir();
  const file = join(dir, 'nightly.db');
  const { before, sent, acknowledgedDuring, printed } = await backupUnderLoad(s, creds, db, file);
  assert.ok(acknowledgedDuring > 0, 'the server took writes while the backup ran');
  assert.deepEqual(Object.keys(printed).sort(), ['bytes', 'file', 'migration']);
  assert.equal(printed.file, file);
  assert.equal(statSync(file).mode & 0o777, 0o600, 'the backup is readable by its owner only');
  assert.deepEqual(readdirSync(dir), ['nightly.db'], 'one file: no journal or temporary file beside it');

  // A restore over the database the server uses is refused, and changes nothing.
  const refused = cli(['restore', file], db.env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /has .* open: stop it, then restore/);
  const stillThere = await post(s.url, '/v1/commentannotations/get', creds, { organizationId: 'o', documentId: sent.at(-1) });
  assert.equal(stillThere.json.result.data.length, 1);
  await stopServer(s);

  const fresh = join(tempDir(), 'data', 'restored.db');
  const restored = cli(['restore', file], { DATABASE_URL: `sqlite:${fresh}` });
  assert.equal(restored.code, 0, restored.stderr);
  assert.deepEqual(JSON.parse(restored.stdout), { file: fresh, kept: null, migration: printed.migration });
  assert.equal(statSync(fresh).mode & 0o777, 0o600);
  const again = await startServer({ env: { DATABASE_URL: `sqlite:${fresh}` } });
  running.push(again);
  const { whole, partial } = await present(again.url, creds, sent);
  assert.deepEqual(partial, [], 'no thread is in the backup in part');
  assert.deepEqual(
    before.filter((id) => !whole.has(id)),
    [],
    'every write acknowledged before the backup began is restored',
  );
  await stopServer(again);

  // Restored over an existing database, the one replaced is kept whole beside it.
  const over = cli(['restore', file], db.env);
  assert.equal(over.code, 0, over.stderr);
  const { kept } = JSON.parse(over.stdout);
  assert.ok(kept && existsSync(kept), 'the database it replaced is kept');
  assert.equal(cli(['migrate'], { DATABASE_URL: `sqlite:${kept}` }).code, 0, 'and is a whole database');
});

const pgTools = spawnSync('pg_dump', ['--version']).status === 0;

test('PostgreSQL: pg_dump under load, pg_restore into another database, every write acknowledged before it began is there', {
  skip: !PG_URL ? 'TEST_DATABASE_URL is not set' : !pgTools ? "PostgreSQL's client tools (pg_dump) are not installed" : false,
}, async () => {
  const db = freshDatabase('postgres');
  cleanups.push(() => db.drop());
  const s = await startServer({ env: db.env });
  running.push(s);
  const creds = firstStartCredentials(s.stderr());
  const file = join(tempDir(), 'nightly.dump');
  const { before, sent, printed } = await backupUnderLoad(s, creds, db, file);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.ok(printed.migration > 0);

  const refused = cli(['restore', file], db.env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /connections of a running server use the schema/);
  await stopServer(s);

  // A fresh place: a database of its own, with the schema the backup was taken from.
  const name = `backup_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  cleanups.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  const place = { DATABASE_URL: url.toString(), MARGINALIA_PG_SCHEMA: db.env.MARGINALIA_PG_SCHEMA! };
  const restored = cli(['restore', file], place);
  assert.equal(restored.code, 0, restored.stderr);
  assert.deepEqual(JSON.parse(restored.stdout), { file: place.MARGINALIA_PG_SCHEMA, kept: null, migration: printed.migration });

  const again = await startServer({ env: place });
  running.push(again);
  const { whole, partial } = await present(again.url, creds, sent);
  assert.deepEqual(partial, []);
  assert.deepEqual(
    before.filter((id) => !whole.has(id)),
    [],
  );
  await stopServer(again);

  // Restored over the schema it came from: that one is renamed aside, and the backup's is whole.
  const over = cli(['restore', file], db.env);
  assert.equal(over.code, 0, over.stderr);
  const { kept } = JSON.parse(over.stdout);
  assert.match(kept, /_before_restore_\d{8}t\d{6}z$/);
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${kept}" CASCADE`);
    await c.end();
  });
  const rows = await db.query('SELECT count(*)::int AS n FROM schema_migrations');
  assert.equal(rows[0]!.n, printed.migration);
});
