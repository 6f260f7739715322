// The SQLite file holds webhook secrets and token-signing keys (docs/operations.md, "Secrets at rest"): the
// file, its WAL and shared-memory files, and a folder made for it are readable by their owner only, whatever
// the process's umask lets through; a file an operator made keeps the mode they gave it.
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers/server-process.js';
import { sqliteStore } from '../helpers/test-database.js';

const mode = (path: string) => statSync(path).mode & 0o777;

test('a new database file, its WAL and shared memory are 0600, and the folder made for it 0700', async () => {
  const dir = join(tempDir(), 'data', 'nested');
  const path = join(dir, 'marginalia.db');
  const umask = process.umask(0o022);
  try {
    const store = sqliteStore(path);
    await store.migrate();
    assert.equal(mode(path), 0o600);
    assert.equal(mode(`${path}-wal`), 0o600);
    assert.equal(mode(`${path}-shm`), 0o600);
    assert.equal(mode(dir), 0o700);
    assert.equal(mode(join(dir, '..')), 0o700);
    await store.close();
  } finally {
    process.umask(umask);
  }
});

test('a database file that exists keeps its mode', async () => {
  const path = join(tempDir(), 'given.db');
  writeFileSync(path, '', { mode: 0o640 });
  const store = sqliteStore(path);
  await store.migrate();
  assert.equal(mode(path), 0o640);
  await store.close();
});
