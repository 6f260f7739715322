// The Node a run is on is the one it says (scripts/test.mjs runs the unit and route files on Node 22 too, with
// MARGINALIA_TEST_NODE_MAJOR=22), and SQLite opens there, in this process and in one it starts, as servers and
// CLIs started by tests are; and on Node 22, `node` on the PATH is Node 22 as well.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import Database from 'better-sqlite3';

test('the run is on the Node it names, and better-sqlite3 loads in it and in a process it starts', () => {
  const major = process.env.MARGINALIA_TEST_NODE_MAJOR;
  if (major) {
    assert.equal(process.versions.node.split('.')[0], major);
    // scripts/test.mjs puts that Node first on the PATH too, for what a test starts as `node`.
    const onPath = spawnSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
    assert.equal(onPath.stdout.trim(), process.versions.node, onPath.stderr);
  }
  const db = new Database(':memory:');
  assert.deepEqual(db.prepare('SELECT 1 AS one').get(), { one: 1 });
  db.close();
  const child = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "import D from 'better-sqlite3'; new D(':memory:'); console.log(process.versions.node)"],
    { encoding: 'utf8', cwd: process.cwd() },
  );
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), process.versions.node);
});
