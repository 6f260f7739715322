// Writes whose statements go out before the answers of those before them (src/store/sql.ts `send`;
// PostgreSQL's connections run in pipeline mode, so a write's BEGIN goes with its first statement, and
// its sent statements with the COMMIT). A write stays one transaction: what it sent lands with it or
// not at all, a failure names the statement that failed (not "transaction aborted"), and the first
// statement runs inside the transaction. SQLite runs a sent statement at once; the same rules hold.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Dialect } from '../../src/store/dialect/dialect.js';
import { dialectFor } from '../../src/store/open-store.js';
import { all, run, same, send, sendBatch, sql, type Work } from '../../src/store/sql.js';
import { type FreshDatabase, freshDatabase, TEST_STORE } from '../helpers/test-database.js';

const INSERT = same('pipelinedInsert', 'INSERT INTO pipelined (k, v) VALUES (@k, @v)');
const INSERT_ROWS = sql('pipelinedInsertRows', {
  sqlite: 'INSERT INTO pipelined (k, v) VALUES (@k, @v)',
  postgres: 'INSERT INTO pipelined (k, v) SELECT * FROM unnest(@k::text[], @v::int[])',
});
const KEYS = same('pipelinedKeys', 'SELECT k FROM pipelined ORDER BY k');

const DUPLICATE = /duplicate key|UNIQUE constraint failed/;

describe(`${TEST_STORE} dialect: statements sent ahead of their answers`, () => {
  let db: FreshDatabase;
  let dialect: Dialect;

  before(async () => {
    db = freshDatabase();
    await (await db.open()).close(); // the schema, migrated
    await db.exec('CREATE TABLE pipelined (k text PRIMARY KEY, v integer NOT NULL)');
    dialect = dialectFor(db.config);
  });
  after(async () => {
    await dialect.close();
    await db.drop();
  });

  const keys = async () => (await dialect.read('keys', () => all<{ k: string }>(KEYS))).map((r) => r.k);
  // SQLite answers (or throws) at once: as a promise either way.
  const write = async <T>(work: () => Work<T>): Promise<T> => dialect.write('pipelined', work);
  const clear = () => db.exec('DELETE FROM pipelined');
  /** The table holds one row, key 'taken': what a write's statement then collides with. */
  const onlyTaken = () => db.exec(`DELETE FROM pipelined; INSERT INTO pipelined (k, v) VALUES ('taken', 0)`);

  test('sent writes land with the write, and a later step of the same write sees them', async () => {
    await clear();
    const seen = await write(function* () {
      yield* send(INSERT, { k: 'a', v: 1 });
      yield* sendBatch(INSERT_ROWS, {}, [
        { k: 'b', v: 2 },
        { k: 'c', v: 3 },
      ]);
      return (yield* all<{ k: string }>(KEYS)).map((r) => r.k);
    });
    assert.deepEqual(seen, ['a', 'b', 'c']);
    assert.deepEqual(await keys(), ['a', 'b', 'c']);
  });

  test('a write whose last statements are sent commits them (they go with the COMMIT)', async () => {
    await clear();
    const answer = await write(function* () {
      yield* run(INSERT, { k: 'first', v: 1 });
      yield* send(INSERT, { k: 'last', v: 2 });
      return 'done';
    });
    assert.equal(answer, 'done');
    assert.deepEqual(await keys(), ['first', 'last']);
  });

  test('a sent write that fails fails the write with its own error, and nothing of the write is kept', async () => {
    await onlyTaken();
    await assert.rejects(
      write(function* () {
        yield* run(INSERT, { k: 'kept?', v: 1 });
        yield* send(INSERT, { k: 'taken', v: 2 });
      }),
      DUPLICATE,
    );
    assert.deepEqual(await keys(), ['taken'], 'the statement before it is rolled back with it');
  });

  test("a step after a failed sent write reports the sent write's error, not the aborted transaction's", async () => {
    await onlyTaken();
    await assert.rejects(
      write(function* () {
        yield* sendBatch(INSERT_ROWS, {}, [
          { k: 'new', v: 1 },
          { k: 'taken', v: 2 },
        ]);
        yield* run(INSERT, { k: 'after', v: 3 });
      }),
      (err: Error) => {
        assert.match(err.message, DUPLICATE);
        assert.doesNotMatch(err.message, /aborted/);
        return true;
      },
    );
    assert.deepEqual(await keys(), ['taken']);
  });

  test('the first statement runs inside the transaction: a failure after it takes it back', async () => {
    await clear();
    await assert.rejects(
      write(function* () {
        yield* run(INSERT, { k: 'first', v: 1 });
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.deepEqual(await keys(), []);
  });

  // PostgreSQL: a sent statement node-postgres refuses before it reaches the server aborts nothing,
  // and the COMMIT behind it commits the rest. That must be told as such, not passed off as a
  // rolled-back write. (SQLite runs a sent statement at once: it fails like any other.)
  const onPostgres = TEST_STORE === 'postgres' ? test : () => {};
  onPostgres('a write whose COMMIT committed without a statement it sent says so', async () => {
    await clear();
    // Two statements of one name and different texts: node-postgres refuses the second on the
    // connection that prepared the first, without sending it.
    const other = same('pipelinedInsert', 'INSERT INTO pipelined (k, v) VALUES (@k, @v + 1)');
    await assert.rejects(
      write(function* () {
        yield* run(INSERT, { k: 'first', v: 1 });
        yield* send(other, { k: 'second', v: 2 });
      }),
      /A write committed without a statement it had sent: Prepared statements must be unique/,
    );
    assert.deepEqual(await keys(), ['first']);
  });

  test('many writes at once on the pool each stay whole', async () => {
    await clear();
    const writes = Array.from({ length: 40 }, (_, i) =>
      write(function* () {
        yield* run(INSERT, { k: `w${String(i).padStart(2, '0')}a`, v: i });
        yield* sendBatch(INSERT_ROWS, {}, [{ k: `w${String(i).padStart(2, '0')}b`, v: i }]);
        // Every fifth write fails at its sent statement (a key another write of it sent first).
        yield* send(INSERT, { k: i % 5 === 0 ? `w${String(i).padStart(2, '0')}b` : `w${String(i).padStart(2, '0')}c`, v: i });
      }),
    );
    const settled = await Promise.allSettled(writes);
    const failed = settled.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
    assert.deepEqual(failed, [0, 5, 10, 15, 20, 25, 30, 35]);
    for (const i of failed) assert.match(String((settled[i] as PromiseRejectedResult).reason), DUPLICATE);
    const expected = Array.from({ length: 40 }, (_, i) => i)
      .filter((i) => i % 5 !== 0)
      .flatMap((i) => ['a', 'b', 'c'].map((s) => `w${String(i).padStart(2, '0')}${s}`));
    assert.deepEqual(await keys(), expected);
  });
});
