// Draining (docs/api.md, "Wire format" and "What always holds"): once close begins, a request already in flight
// completes, and a request that still arrives on an open connection gets 503 UNAVAILABLE in the envelope.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeTestApp, PATHS } from '../helpers/app.js';
import { parseResponses, rawConnection, rawPost } from '../helpers/raw-http.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('while draining: the in-flight request finishes, a new one on the same connection gets 503', async () => {
  const t = await makeTestApp();
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const first = rawPost(PATHS.usersAdd, t.a.creds, { organizationId: 'o', users: [{ userId: 'first' }] });
  const second = rawPost(PATHS.usersAdd, t.a.creds, { organizationId: 'o', users: [{ userId: 'second' }] });

  const conn = rawConnection(url);
  conn.write(first.slice(0, first.length - 10)); // the first request is in flight
  await sleep(100);
  const closing = t.app.close();
  await sleep(100);
  conn.write(first.slice(first.length - 10) + second); // finish it, and pipeline a second
  await conn.closed;
  await closing;

  const responses = parseResponses(conn.received());
  assert.deepEqual(
    responses.map((r) => r.status),
    [200, 503],
    conn.received(),
  );
  assert.equal(responses[0]!.body.result.data.first.message, 'User added.');
  assert.equal(responses[1]!.body.error.status, 'UNAVAILABLE');
  await t.close(); // the app is closed already; this closes the store and drops the database
});
