// The /v2 pages of the original service's other products (docs/api.md, "Not available on a self-hosted
// server"), against the real server on each database: with valid credentials each answers 501 with
// the exact body naming its path, whatever the body; without them, or with wrong ones, 401 as
// everywhere; another method, 405. The 501 counts as refused in /metrics and is not logged as a fault.
// The table in the source is the list of those pages in the original service's reference, where it is
// beside this clone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UNAVAILABLE_PATHS } from '../../src/operations/unavailable.js';
import { sample } from '../helpers/metrics.js';
import { logEntries, postBody, startServer, stopServer } from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';
import { EXAMPLES_V2, vendorPages } from '../helpers/vendor-replay.js';

const API_KEY = 'v2-unavailable-key-5d1e';
const AUTH_TOKEN = 'v2-unavailable-token-8a7b6c5d4e3f';
/** The vendor's header names, configured as aliases: a page's own example is sent as printed. */
const VENDOR = { apiKey: 'x-velt-api-key', authToken: 'x-velt-auth-token' };

const body = (path: string) => ({
  error: { message: `${path} is not available on a self-hosted server.`, status: 'UNIMPLEMENTED' },
});

test('the table is every page of those products in the original reference, and no other', {
  skip: !vendorPages(EXAMPLES_V2),
}, () => {
  const theirs = vendorPages(EXAMPLES_V2)!
    .map((p) => p.endpoint)
    .filter(
      (e) =>
        /^\/v2\/(agents|memory)\//.test(e) ||
        /^\/v2\/crdt\/(add|get|update)$/.test(e) ||
        ['/v2/recordings/get', '/v2/rewriter/ask-ai'].includes(e) ||
        /^\/v2\/workspace\/(create|get|email\/send-login-link|email\/status)$/.test(e),
    );
  assert.deepEqual([...UNAVAILABLE_PATHS].sort(), [...new Set(theirs)].sort());
  assert.equal(UNAVAILABLE_PATHS.length, 54);
});

for (const kind of STORE_KINDS)
  test(`every page not available answers 501 after the credential check, on ${kind}`, async () => {
    const db = freshDatabase(kind);
    const server = await startServer({
      env: {
        ...db.env,
        MARGINALIA_API_KEY: API_KEY,
        MARGINALIA_AUTH_TOKEN: AUTH_TOKEN,
        MARGINALIA_RATE_LIMIT: '0',
        MARGINALIA_API_KEY_HEADERS: VENDOR.apiKey,
        MARGINALIA_AUTH_TOKEN_HEADERS: VENDOR.authToken,
      },
    });
    const ours = { 'x-service-api-key': API_KEY, 'x-service-auth-token': AUTH_TOKEN };
    const theirs = { [VENDOR.apiKey]: API_KEY, [VENDOR.authToken]: AUTH_TOKEN };
    try {
      for (const path of UNAVAILABLE_PATHS) {
        for (const [what, headers, sent] of [
          ['our headers', ours, { data: { organizationId: 'o' } }],
          ["the vendor's headers", theirs, { data: {} }],
          ['a body that is no request of the page', ours, [1, 2]],
        ] as const) {
          const r = await postBody(server.url, path, sent, headers);
          assert.equal(r.status, 501, `${path} with ${what}: ${r.text}`);
          assert.deepEqual(r.json, body(path), `${path} with ${what}`);
        }
        const none = await postBody(server.url, path, { data: {} }, {});
        assert.equal(none.status, 401, `${path} without credentials: ${none.text}`);
        assert.equal(none.json.error.status, 'UNAUTHENTICATED');
        const wrong = await postBody(server.url, path, { data: {} }, { ...ours, 'x-service-auth-token': 'wrong-token' });
        assert.equal(wrong.status, 401, `${path} with a wrong token: ${wrong.text}`);
        assert.equal(wrong.json.error.status, 'UNAUTHENTICATED');
      }
      const get = await fetch(server.url + UNAVAILABLE_PATHS[0], { headers: ours });
      assert.equal(get.status, 405, await get.text());
      assert.equal(get.headers.get('allow'), 'POST');

      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      const operation = '/v2/agents/create';
      assert.equal(sample(metrics, 'marginalia_http_requests_total', { operation, status: '501', outcome: 'refused' }), 3);
      assert.equal(sample(metrics, 'marginalia_http_requests_total', { operation, status: '401', outcome: 'refused' }), 2);
      const warned = logEntries(server).filter((l) => l.level >= 40);
      assert.deepEqual(warned, [], 'a 501 is no fault: nothing is logged above info');
    } finally {
      await stopServer(server);
      await db.drop();
    }
  });
