// The oldest PostgreSQL the migrations run on (13: xid8 and pg_snapshot_xmin, migration 21): an older
// server fails the start with a message naming what is needed, before any migration runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIN_POSTGRES_VERSION_NUM, refuseOldServer } from '../../src/store/dialect/postgres.js';

test('PostgreSQL 12 is refused, naming the version needed and the one found', () => {
  assert.throws(
    () => refuseOldServer('120015'),
    /^Error: Marginalia needs PostgreSQL 13 or later; this server is version 12 \(server_version_num 120015\)\.$/,
  );
  assert.throws(() => refuseOldServer(90624), /this server is version 9 /);
});

test('13 and later are accepted', () => {
  assert.equal(MIN_POSTGRES_VERSION_NUM, 130000);
  for (const v of ['130000', '140011', '150004', 170002]) assert.doesNotThrow(() => refuseOldServer(v));
});
