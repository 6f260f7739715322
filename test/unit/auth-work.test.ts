// Authentication does the same work whether the API key is unknown or known with a wrong token, so
// its timing cannot tell an attacker which keys exist: the same statements reach the database, and
// one token hash is compared either way; and every such 401 takes at least the failure floor.
// (npm run bench:auth-timing measures the timing itself.)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { systemClock } from '../../src/clock.js';
import { AuthCache, authenticate, createTenant } from '../../src/services/credentials.js';
import { sqliteStore } from '../helpers/test-database.js';
import { makeTestApp, PATHS } from '../helpers/app.js';

test('an unknown key and a known key with a wrong token run the same statements', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'marginalia-auth-work-'));
  const statements: string[] = [];
  const store = sqliteStore(join(dir, 'm.db'), { trace: (sql) => statements.push(sql) });
  try {
    await store.migrate();
    const known = await createTenant(store, systemClock, 'known');
    const cache = new AuthCache();
    const workOf = async (apiKey: string, authToken: string) => {
      statements.length = 0;
      await assert.rejects(async () => authenticate(store, apiKey, authToken, cache), /Invalid API key or auth token/);
      // The trace shows bound values (long ones cut with a /*+N bytes*/ note): compare statements, not values.
      // BEGIN and COMMIT are the turn's shared read transaction (dialect/sqlite.ts), not the check's work.
      return statements
        .filter((sql) => sql !== 'BEGIN' && sql !== 'COMMIT')
        .map((sql) => sql.replace(/'[^']*'(\/\*\+\d+ bytes\*\/)?/g, '?'));
    };
    const unknown = await workOf('mk_not_a_key_of_anyone', 'a-token-that-is-wrong-anyway');
    const wrongToken = await workOf(known.apiKey, 'a-token-that-is-wrong-anyway');
    assert.ok(unknown.length > 0);
    assert.deepEqual(unknown, wrongToken);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'a 401 for an unknown key or a wrong token takes at least the failure floor; good credentials and a' +
    ' missing header do not wait',
  async () => {
    const FLOOR_MS = 1500;
    const t = await makeTestApp({ authFailureFloorMs: FLOOR_MS });
    try {
      const timed = async (headers: Record<string, string>) => {
        const started = performance.now();
        const r = await t.request(PATHS.usersAdd, { headers, body: { data: { organizationId: 'o', users: [{ userId: 'u' }] } } });
        return { status: r.status, ms: performance.now() - started };
      };
      const key = (apiKey: string, authToken: string) => ({ 'x-service-api-key': apiKey, 'x-service-auth-token': authToken });
      const unknown = await timed(key('mk_nobody', 'a-token-that-is-wrong-anyway'));
      const wrong = await timed(key(t.a.creds.apiKey, 'a-token-that-is-wrong-anyway'));
      const good = await timed(key(t.a.creds.apiKey, t.a.creds.authToken));
      const missing = await timed({ 'x-service-api-key': t.a.creds.apiKey });
      assert.deepEqual([unknown.status, wrong.status, good.status, missing.status], [401, 401, 200, 401]);
      // Timers may fire up to a millisecond early against performance.now().
      assert.ok(unknown.ms >= FLOOR_MS - 1, `unknown key answered after ${unknown.ms} ms`);
      assert.ok(wrong.ms >= FLOOR_MS - 1, `wrong token answered after ${wrong.ms} ms`);
      assert.ok(good.ms < FLOOR_MS / 2, `good credentials answered after ${good.ms} ms`);
      assert.ok(
        missing.ms < FLOOR_MS / 2,
        `a missing header answered after ${missing.ms} ms: it tells nothing, so it does not wait`,
      );
    } finally {
      await t.close();
    }
  },
);
