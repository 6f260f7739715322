// Runs the black-box contract suite of ../shared/conformance against the real server, with two
// tenants: one from the first start, one made by the CLI, on each database there is. Skips, saying why,
// where ../shared is absent. SECTIONS are the suite's lifecycle sections built so far: their lifecycle cases run too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, firstStartCredentials, REPO, startServer, stopServer } from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';

const SUITE = join(REPO, '..', 'shared', 'conformance', 'run.mjs');
const SECTIONS = '10,11,12';
/**
 * Cases that contradict the contract as the original service's pages now decide it (docs/decisions.md,
 * "Following the original service's pages"), skipped by name:
 * - documents/move answers no `data` member (its page prints none), where the case wants `data: null`;
 * - organizations/access/disablestate/update answers a missing organization as not existing, as its
 *   page shows, and creates none, where the case wants one created, disabled.
 * Every other check of those two cases is held by test/routes (documents.test.ts,
 * organizations-lifecycle.test.ts) and by the replay of the pages' examples (vendor-examples.test.ts).
 */
const SKIP = [
  '12 organizations/documents/move and folders/delete',
  '12 organizations/access/disablestate/update: a disabled organization refuses writes',
].join(',');
const skip = existsSync(SUITE) ? false : `the contract suite is not beside this clone (${SUITE})`;

for (const kind of STORE_KINDS)
  test(`the shared contract suite passes against the running server on ${kind}`, { skip }, async (t) => {
    const db = freshDatabase(kind);
    const s = await startServer({ env: db.env });
    try {
      const a = firstStartCredentials(s.stderr());
      const made = cli(['keys', 'create', '--name', 'tenant-b'], db.env);
      assert.equal(made.code, 0, made.stderr);
      const b = JSON.parse(made.stdout);
      const run = spawnSync(process.execPath, [SUITE], {
        encoding: 'utf8',
        env: {
          ...process.env,
          CONFORMANCE_URL: s.url,
          CONFORMANCE_KEY_A: a.apiKey,
          CONFORMANCE_TOKEN_A: a.authToken,
          CONFORMANCE_KEY_B: b.apiKey,
          CONFORMANCE_TOKEN_B: b.authToken,
          CONFORMANCE_SECTIONS: SECTIONS,
          CONFORMANCE_SKIP: SKIP,
        },
      });
      const summary = /(\d+) passed, (\d+) failed/.exec(run.stdout);
      assert.equal(run.status, 0, `contract suite failed:\n${run.stdout}\n${run.stderr}`);
      assert.ok(summary && Number(summary[1]) > 0 && summary[2] === '0', run.stdout);
      t.diagnostic(`sections ${SECTIONS}: ${summary[0]}; skipped by name: ${SKIP}`);
    } finally {
      await stopServer(s);
      await db.drop();
    }
  });
