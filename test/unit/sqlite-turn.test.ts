// The writes of one turn of the event loop in one COMMIT (store/dialect/sqlite-turn.ts): answered only
// once committed, each failing alone, all failing together when the COMMIT fails, and no read answered
// with what they wrote before they have committed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteDialect } from '../../src/store/dialect/sqlite.js';
import { query, run, same } from '../../src/store/sql.js';

const dir = mkdtempSync(join(tmpdir(), 'marginalia-sqlite-turn-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** A dialect on a new file with table kv, and another connection to the file: what another process sees. */
function open(writesPerCommit: number): { d: SqliteDialect; other: Database.Database; seen: () => string[] } {
  const path = join(dir, `turn-${files++}.db`);
  const d = new SqliteDialect({ path, busyTimeoutMs: 1000, synchronous: 'NORMAL', writesPerCommit: 1 });
  d.write('schema', function* () {
    yield {
      op: 'exec',
      text: `CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL);
        CREATE TABLE parent (id TEXT PRIMARY KEY);
        CREATE TABLE child (id TEXT PRIMARY KEY, parent TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);`,
    };
  });
  // The schema made, the same file opened again with the setting under test.
  const reopened = new SqliteDialect({ path, busyTimeoutMs: 1000, synchronous: 'NORMAL', writesPerCommit });
  void d.close();
  const other = new Database(path, { readonly: true });
  return {
    d: reopened,
    other,
    seen: () => (other.prepare('SELECT k FROM kv ORDER BY k').pluck().all() as string[]).slice(),
  };
}

const PUT = same('put', 'INSERT INTO kv (k, v) VALUES (@k, @v)');
const CHILD = same('child', 'INSERT INTO child (id, parent) VALUES (@id, @parent)');
const KEYS = same('keys', 'SELECT k FROM kv ORDER BY k');
const put = (d: SqliteDialect, k: string) =>
  d.write('put', function* () {
    return yield* run(PUT, { k, v: k.toUpperCase() });
  });
const keys = (d: SqliteDialect) =>
  d.query(
    'keys',
    query(KEYS, {}, true, (rows) => (rows as string[][]).map((r) => r[0])),
  );

test('the writes of a turn are answered after one COMMIT, and not before', async () => {
  const { d, other, seen } = open(32);
  try {
    const a = put(d, 'a');
    const b = put(d, 'b');
    assert.ok(a instanceof Promise && b instanceof Promise, 'a write answers once its turn has committed');
    assert.deepEqual(seen(), [], 'nothing is committed while the turn runs');
    assert.deepEqual(await Promise.all([a, b]), [1, 1]);
    assert.deepEqual(seen(), ['a', 'b'], 'both committed by the time either is answered');
  } finally {
    other.close();
    await d.close();
  }
});

test('a write that fails is rolled back alone: the others of its turn commit', async () => {
  const { d, other, seen } = open(32);
  try {
    const a = put(d, 'a');
    assert.throws(() => put(d, 'a'), /UNIQUE|constraint/i, 'the duplicate fails at once');
    const c = put(d, 'c');
    assert.deepEqual(await Promise.all([a, c]), [1, 1]);
    assert.deepEqual(seen(), ['a', 'c']);
  } finally {
    other.close();
    await d.close();
  }
});

test('a read in a turn with writes open sees them, and is answered only once they have committed', async () => {
  const { d, other, seen } = open(32);
  try {
    const a = put(d, 'a');
    const read = keys(d);
    assert.ok(read instanceof Promise, 'the read waits for the COMMIT of what it saw');
    assert.deepEqual(seen(), [], 'the read did not commit the turn: its writes go on sharing one COMMIT');
    const b = put(d, 'b');
    assert.deepEqual(await read, ['a']);
    assert.deepEqual(seen(), ['a', 'b'], 'by the time the read is answered, what it saw is committed');
    assert.deepEqual(await Promise.all([a, b]), [1, 1]);
    assert.deepEqual(keys(d), ['a', 'b'], 'outside a turn a read answers at once');
  } finally {
    other.close();
    await d.close();
  }
});

test('a read that saw writes whose COMMIT failed fails with them', async () => {
  const { d, other } = open(32);
  try {
    const a = put(d, 'a');
    const orphan = d.write('child', function* () {
      return yield* run(CHILD, { id: 'c1', parent: 'nobody' });
    });
    const read = keys(d);
    await assert.rejects(Promise.resolve(read), /FOREIGN KEY/i);
    await Promise.allSettled([a, orphan]);
  } finally {
    other.close();
    await d.close();
  }
});

test("another connection of the process commits this one's turn before it reads or writes", async () => {
  const { d, other, seen } = open(32);
  const second = new SqliteDialect({
    path: other.name,
    busyTimeoutMs: 1000,
    synchronous: 'NORMAL',
    writesPerCommit: 32,
  });
  try {
    const a = put(d, 'a');
    assert.deepEqual(keys(second), ['a'], "its read commits the first connection's turn, and sees it");
    const b = put(second, 'b');
    assert.deepEqual(seen(), ['a'], "the second connection's write waits for the writer no longer than that");
    assert.deepEqual(await Promise.all([a, b]), [1, 1]);
    assert.deepEqual(seen(), ['a', 'b']);
  } finally {
    other.close();
    await second.close();
    await d.close();
  }
});

test('a COMMIT that fails fails every write of its turn, and none of them is in the file', async () => {
  const { d, other, seen } = open(32);
  try {
    const a = put(d, 'a');
    // A deferred foreign key is checked at COMMIT: this write succeeds in its savepoint, the COMMIT refuses.
    const orphan = d.write('child', function* () {
      return yield* run(CHILD, { id: 'c1', parent: 'nobody' });
    });
    await assert.rejects(Promise.resolve(a), /FOREIGN KEY/i);
    await assert.rejects(Promise.resolve(orphan), /FOREIGN KEY/i);
    assert.deepEqual(seen(), []);
    assert.equal(await put(d, 'b'), 1, 'the next turn writes as usual');
    assert.deepEqual(seen(), ['b']);
  } finally {
    other.close();
    await d.close();
  }
});

test('a turn commits once it holds the most writes a COMMIT takes, and the next write begins another', async () => {
  const { d, other, seen } = open(2);
  try {
    const written = [put(d, 'a'), put(d, 'b')];
    assert.deepEqual(seen(), ['a', 'b'], 'the second write filled the COMMIT');
    written.push(put(d, 'c'));
    assert.deepEqual(seen(), ['a', 'b']);
    await Promise.all(written);
    assert.deepEqual(seen(), ['a', 'b', 'c']);
  } finally {
    other.close();
    await d.close();
  }
});

test('closing commits the writes of the turn before the file closes', async () => {
  const { d, other, seen } = open(32);
  try {
    const a = put(d, 'a');
    await d.close();
    assert.equal(await a, 1);
    assert.deepEqual(seen(), ['a']);
  } finally {
    other.close();
  }
});

test('with one write per COMMIT a write commits and answers synchronously', async () => {
  const { d, other, seen } = open(1);
  try {
    assert.equal(put(d, 'a'), 1);
    assert.deepEqual(seen(), ['a']);
  } finally {
    other.close();
    await d.close();
  }
});
