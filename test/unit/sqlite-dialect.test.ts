// The SQLite dialect's two ways of doing less per read (store/dialect/sqlite.ts): named parameters
// bound by position, and the reads of one turn of the event loop sharing one read transaction (begun after the
// turn's first request, when there is one).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { positional, SqliteDialect } from '../../src/store/dialect/sqlite.js';
import { list, query, run, same } from '../../src/store/sql.js';

const dir = mkdtempSync(join(tmpdir(), 'marginalia-sqlite-dialect-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('named parameters become positional, in the order they occur, outside quotes and comments', () => {
  assert.deepEqual(positional('SELECT a FROM t WHERE x = @x AND y IN (SELECT value FROM json_each(@ys)) AND z = @x'), {
    text: 'SELECT a FROM t WHERE x = ? AND y IN (SELECT value FROM json_each(?)) AND z = ?',
    order: ['x', 'ys', 'x'],
  });
  assert.deepEqual(positional(`SELECT '@not' || "@col" || 'it''s @no' FROM t -- @comment\nWHERE a = @a /* @b */`), {
    text: `SELECT '@not' || "@col" || 'it''s @no' FROM t -- @comment\nWHERE a = ? /* @b */`,
    order: ['a'],
  });
  assert.deepEqual(positional('SELECT 1 WHERE x = @'), { text: 'SELECT 1 WHERE x = @', order: [] });
});

function dialect(name: string): SqliteDialect {
  return new SqliteDialect({ path: join(dir, name), busyTimeoutMs: 1000, synchronous: 'NORMAL' });
}

const ALL = same('all', 'SELECT k, v, flag, tags FROM kv WHERE k = @k OR @k IS NULL ORDER BY k');
const PUT = same('put', 'INSERT INTO kv (k, v, flag, tags) VALUES (@k, @v, @flag, @tags)');
const read = (d: SqliteDialect, k: string | null = null) =>
  d.query(
    'all',
    query(ALL, { k }, true, (rows) => rows as unknown[][]),
  );
const put = (d: SqliteDialect, k: string, v: string) =>
  d.write('put', function* () {
    return yield* run(PUT, { k, v, flag: true, tags: list(['a', 'b']) });
  });

test('values are bound by name whatever their order: booleans as 0/1, lists as JSON, undefined as null', async () => {
  const d = dialect('bind.db');
  try {
    d.write('schema', function* () {
      yield { op: 'exec', text: 'CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT, flag INTEGER, tags TEXT)' };
    });
    put(d, 'a', '1');
    assert.deepEqual(read(d, 'a'), [['a', '1', 1, '["a","b"]']]);
    assert.deepEqual(read(d), [['a', '1', 1, '["a","b"]']], 'a parameter used twice is bound twice');
    assert.throws(
      () =>
        d.query(
          'all',
          query(ALL, {}, true, (rows) => rows),
        ),
      /Missing named parameter "k"/,
      'a parameter the caller forgot is an error, not a null',
    );
  } finally {
    await d.close();
  }
});

test("one turn's reads share a snapshot: this store's writes show at once, another connection's from the next turn", async () => {
  const d = dialect('turn.db');
  const other = new Database(join(dir, 'turn.db'));
  try {
    d.write('schema', function* () {
      yield { op: 'exec', text: 'CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT, flag INTEGER, tags TEXT)' };
    });
    await nextTurn();
    assert.equal(read(d).length, 0);
    put(d, 'a', '1');
    assert.equal(read(d).length, 1, 'a write through this store ends the shared snapshot: the next read sees it');
    other.prepare("INSERT INTO kv (k, v) VALUES ('b', '2')").run();
    assert.equal(read(d).length, 1, 'in the same turn, the snapshot taken before the other connection wrote');
    await nextTurn();
    assert.equal(read(d).length, 2, 'the next turn sees it');
    // The snapshot holds no write lock: another connection writes while it is open.
    other.prepare("INSERT INTO kv (k, v) VALUES ('c', '3')").run();
    put(d, 'd', '4');
    assert.deepEqual(
      read(d).map((r) => r[0]),
      ['a', 'b', 'c', 'd'],
      "this store's write, after a read in the same turn, sees and keeps the other's",
    );
    await nextTurn();
    assert.equal(other.prepare('SELECT count(*) FROM kv').pluck().get(), 4);
    // The turn's transaction is over: the other connection can take the database's write lock and checkpoint.
    assert.deepEqual(other.pragma('wal_checkpoint(TRUNCATE)'), [{ busy: 0, log: 0, checkpointed: 0 }]);
  } finally {
    other.close();
    await d.close();
  }
});

test("a request sees another connection's commits from before it came in; the requests of a turn share one snapshot", async () => {
  const d = dialect('arrival.db');
  const other = new Database(join(dir, 'arrival.db'));
  const add = (k: string) => other.prepare('INSERT INTO kv (k) VALUES (?)').run(k);
  try {
    d.write('schema', function* () {
      yield { op: 'exec', text: 'CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT, flag INTEGER, tags TEXT)' };
    });
    await nextTurn();
    // A read before any request of the turn (a timer's, an immediate's) begins the turn's transaction.
    assert.equal(read(d).length, 0);
    add('a');
    assert.equal(read(d).length, 0, 'no request yet: the snapshot taken before the other connection wrote');
    d.requestArrived();
    assert.equal(read(d).length, 1, 'a request that came in after the write (a new key, say) sees it');
    add('b');
    d.requestArrived();
    // In the server the turn's requests were all read from their sockets before its first read: none was sent after 'b'.
    assert.equal(read(d).length, 1, "the turn's next request joins the transaction begun after its first");
    await nextTurn();
    assert.equal(read(d).length, 2, 'the next turn sees it');
  } finally {
    other.close();
    await d.close();
  }
});

test('at rest the page cache is let go, inside a read snapshot too, and reads and writes go on', async () => {
  const d = dialect('rest.db');
  try {
    d.write('schema', function* () {
      yield { op: 'exec', text: 'CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT, flag INTEGER, tags TEXT)' };
    });
    for (let i = 0; i < 200; i++) put(d, `k${i}`, 'x'.repeat(500));
    assert.equal(read(d).length, 200, 'the pages read into the cache, the snapshot open');
    d.releaseMemory();
    assert.equal(read(d).length, 200, 'read again from the file, in the same snapshot');
    await nextTurn();
    d.releaseMemory();
    put(d, 'last', 'y');
    assert.equal(read(d).length, 201);
  } finally {
    await d.close();
  }
  d.releaseMemory();
});
