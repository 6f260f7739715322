// One process for several test files (scripts/test.mjs runs the unit, route and store files in groups): each file
// is a suite of its own, named by its path, so that its top-level hooks (before, after, beforeEach) apply to its own
// tests only, and its tests run after the previous file's have ended. The files share the process's loaded modules,
// which is the point (docs/decisions.md, "Test files in groups"): loading the server's modules again for every file
// was most of a route file's time. Usage: node --import tsx --test-reporter=tap scripts/test-group.mjs <file>...
import { resolve } from 'node:path';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) {
  describe(file, async () => {
    await import(pathToFileURL(resolve(file)).href);
  });
}
