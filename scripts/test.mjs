#!/usr/bin/env node
// `npm test` (after the build): every test file on SQLite, then again on PostgreSQL when
// TEST_DATABASE_URL is set, except the files that choose their own database or need none.
// Ends with one line of totals over both runs; exits non-zero if anything failed.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import pg from 'pg';

const RUN_ONCE = new Map([
  ['config', 'pure configuration parsing'],
  ['html', 'pure HTML functions'],
  ['cli', 'reads the SQLite file itself (the CLI on PostgreSQL is covered by e2e)'],
  ['failures', 'holds a SQLite lock from a second connection'],
  ['store.sqlite', 'chooses its database'],
  ['store.postgres', 'chooses its database'],
  ['instances', 'PostgreSQL only, chooses its database'],
  ['outage', 'PostgreSQL only, chooses its database'],
  ['faults-postgres', 'PostgreSQL only, chooses its database'],
  ['faults-http', 'connection handling does not depend on the database'],
  ['faults-sqlite', 'SQLite only, chooses its database'],
  ['docs-browser', 'the reference page does not depend on the database'],
  ['api-docs', 'the API description does not depend on the database'],
  ['client', 'the client does not depend on the database'],
  ['client-package', 'packs and type-checks the client, no database'],
  ['query-plans', 'chooses its databases'],
  ['auth-cache', 'a unit of the credentials service'],
  ['auth-work', 'traces the statements of a SQLite store'],
]);

const files = readdirSync('test')
  .filter((f) => f.endsWith('.test.ts'))
  .sort()
  .map((f) => `test/${f}`);
const nameOf = (file) => file.slice('test/'.length, -'.test.ts'.length);

/** Test schemas are named test_<pid>_<random>; a killed run leaves its own behind. Drop those of dead processes. */
async function dropAbandonedSchemas(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT schema_name FROM information_schema.schemata WHERE schema_name ~ '^test_[0-9]+_'`,
    );
    for (const { schema_name: name } of rows) {
      const pid = Number(name.split('_')[1]);
      if (isAlive(pid)) continue;
      await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      console.log(`# dropped ${name}, left behind by an earlier run`);
    }
  } finally {
    await client.end();
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function run(label, list, env) {
  console.log(`\n# ===== ${label}: ${list.length} files =====`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', '--test-concurrency=2', ...list], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const counts = { pass: 0, fail: 0, skipped: 0 };
    let tail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk).slice(-4096);
    });
    child.on('close', (code) => {
      for (const key of Object.keys(counts)) {
        const m = new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tail);
        counts[key] = m ? Number(m[1]) : 0;
      }
      if (code !== 0 && counts.fail === 0) counts.fail = 1; // a crash with no failing test still fails the run
      resolve(counts);
    });
  });
}

const totals = [await run('SQLite', files, { MARGINALIA_TEST_STORE: 'sqlite' })];
if (process.env.TEST_DATABASE_URL) {
  await dropAbandonedSchemas(process.env.TEST_DATABASE_URL);
  const again = files.filter((f) => !RUN_ONCE.has(nameOf(f)));
  totals.push(await run('PostgreSQL', again, { MARGINALIA_TEST_STORE: 'postgres' }));
} else {
  console.log('\n# PostgreSQL run skipped: TEST_DATABASE_URL is not set.');
}
const sum = (k) => totals.reduce((n, t) => n + t[k], 0);
console.log(`\ntotal: ${sum('pass')} passed, ${sum('fail')} failed, ${sum('skipped')} skipped`);
process.exit(sum('fail') > 0 ? 1 : 0);
