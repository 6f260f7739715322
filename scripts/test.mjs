#!/usr/bin/env node
// `npm test` (after the build). The folder says where a test file runs:
//   test/unit/ and test/system/  once (system tests start real processes and cover each database
//                                 there is themselves);
//   test/routes/ and test/store/ on SQLite, then again on PostgreSQL when TEST_DATABASE_URL is set.
// Ends with one line of totals over every run; exits non-zero if anything failed.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import pg from 'pg';

const filesIn = (folder) =>
  readdirSync(`test/${folder}`)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `test/${folder}/${f}`);
const ONCE = [...filesIn('unit'), ...filesIn('system')];
const EACH_DATABASE = [...filesIn('routes'), ...filesIn('store')];

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

if (process.env.TEST_DATABASE_URL) await dropAbandonedSchemas(process.env.TEST_DATABASE_URL);
const totals = [
  await run('unit and system (once)', ONCE, {}),
  await run('routes and store on SQLite', EACH_DATABASE, { MARGINALIA_TEST_STORE: 'sqlite' }),
];
if (process.env.TEST_DATABASE_URL) {
  totals.push(await run('routes and store on PostgreSQL', EACH_DATABASE, { MARGINALIA_TEST_STORE: 'postgres' }));
} else {
  console.log('\n# PostgreSQL runs skipped: TEST_DATABASE_URL is not set.');
}
const sum = (k) => totals.reduce((n, t) => n + t[k], 0);
console.log(`\ntotal: ${sum('pass')} passed, ${sum('fail')} failed, ${sum('skipped')} skipped`);
process.exit(sum('fail') > 0 ? 1 : 0);
