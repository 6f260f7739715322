// The schema steps are forward-only and applied in MIGRATIONS' order, each recorded by its version: a
// step left out of the list would never run, and one out of place would run before what it builds on
// (or be skipped as applied on databases that recorded another step under its version).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { MIGRATIONS } from '../../src/store/migrations/index.js';

const FOLDER = new URL('../../src/store/migrations/', import.meta.url);

test('MIGRATIONS holds versions 1, 2, 3, ... in order, with no gap and no repeat', () => {
  assert.deepEqual(
    MIGRATIONS.map((m) => m.version),
    MIGRATIONS.map((_, i) => i + 1),
  );
  assert.equal(new Set(MIGRATIONS.map((m) => m.name)).size, MIGRATIONS.length, 'every step has its own name');
});

test("every step file is in MIGRATIONS, at its file's number", async () => {
  const files = readdirSync(FOLDER)
    .filter((f) => /^\d+-.*\.ts$/.test(f))
    .sort();
  assert.equal(files.length, MIGRATIONS.length, `step files ${files.join(', ')}`);
  for (const file of files) {
    const number = Number(file.slice(0, file.indexOf('-')));
    const steps = Object.values(await import(new URL(file, FOLDER).href)).filter((v) => MIGRATIONS.includes(v as never));
    assert.equal(steps.length, 1, `${file} exports one step of MIGRATIONS`);
    assert.equal(MIGRATIONS[number - 1], steps[0], `${file} is MIGRATIONS[${number - 1}]`);
  }
});
