// The Store conformance suite (test/store-suite.ts) on PostgreSQL, plus what only PostgreSQL has to
// get right; skipped, saying why, without TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { storeSuite } from './store-suite.js';
import { freshDatabase, NEEDS_POSTGRES, withPg } from './test-database.js';

describe('PostgreSQL store conformance', { skip: NEEDS_POSTGRES }, () => {
  storeSuite('postgres');

  // Ordering by id must be code-unit order (SPEC 7) whatever the server's default collation; the test
  // server's own default may already be C, so the columns themselves are checked.
  test('every id column is COLLATE "C"', async () => {
    const db = freshDatabase('postgres');
    const store = await db.open();
    try {
      const rows = await withPg(
        async (c) =>
          (
            await c.query(
              `SELECT table_name, column_name, collation_name FROM information_schema.columns
         WHERE table_schema = $1 AND column_name LIKE '%\\_id' AND data_type = 'text' ORDER BY 1, 2`,
              [db.env.MARGINALIA_PG_SCHEMA],
            )
          ).rows,
      );
      assert.ok(rows.length >= 20, `id columns found: ${rows.length}`);
      assert.deepEqual(
        rows.filter((r) => r.collation_name !== 'C'),
        [],
        'id columns without COLLATE "C"',
      );
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
