// A request sees what another process committed before it was sent (docs/decisions.md, "SQLite reads of one turn of
// the event loop share one read transaction"): a key the CLI or the vendor replay has just made in the server's
// database is admitted by its first request, and a user another worker has just added is in the next read. On SQLite
// the server once answered such a key 401: its reads of a turn share one read transaction, and a read outside any
// request (a timer's: the webhook worker's look; an immediate's: the event streams' reads) began one before the poll
// phase that then read the request. Here the server is the app on a real socket and the other process a second
// connection to its database; each case puts that order in place within one turn of the event loop, so the outcome
// does not depend on timing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { DEFAULT_LIMITS } from '../../src/schemas/common.js';
import { createTenant } from '../../src/services/credentials.js';
import { newApiKey, newAuthToken } from '../../src/domain/ids.js';
import { eventually } from '../helpers/eventually.js';
import { parseResponses, rawConnection, rawPost, type RawConnection, type RawResponse } from '../helpers/raw-http.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';

/** The next response on a kept-alive connection, after the `seen` it had already answered. */
async function answer(conn: RawConnection, seen: number): Promise<RawResponse> {
  await eventually('the answer', () => parseResponses(conn.received()).length > seen);
  return parseResponses(conn.received())[seen]!;
}

const OUTSIDE_REQUESTS = [
  ['a timer', (fn: () => void) => setTimeout(fn, 0)],
  ['an immediate', (fn: () => void) => setImmediate(fn)],
] as const;

for (const kind of STORE_KINDS)
  test(`a request sees what another process committed before it was sent, whatever the server read before, on ${kind}`, async () => {
    const db = freshDatabase(kind);
    const served = await db.open();
    const otherProcess = await db.open();
    const app = await buildApp({
      config: { bodyLimit: 1_048_576, rateLimit: 0, maxJsonDepth: 32, limits: DEFAULT_LIMITS },
      store: served,
    });
    const conn = rawConnection(await app.listen({ port: 0, host: '127.0.0.1' }));
    let seen = 0;
    /** In one turn: the server reads outside any request, the other process writes, then sends the request. */
    const afterRead = async (where: (fn: () => void) => void, write: () => unknown, request: string) => {
      where(() => {
        void served.credentialsVersion();
        void Promise.resolve(write()).then(() => conn.write(request));
      });
      return answer(conn, seen++);
    };
    try {
      const known = await createTenant(otherProcess, Date.now, 'known');
      const tenantId = (await otherProcess.findCredentials(known.apiKey))!.tenant.id;
      // Connected, and the known key admitted once (held in the server's auth cache): each request below is read
      // from the socket in the turn it is written.
      conn.write(rawPost('/v1/users/get', known, { organizationId: 'org', userIds: ['nobody'] }));
      assert.equal((await answer(conn, seen++)).status, 200);
      for (const [where, schedule] of OUTSIDE_REQUESTS) {
        // A key the CLI or the vendor replay makes, used at once.
        const creds = { apiKey: newApiKey(), authToken: newAuthToken() };
        const first = await afterRead(
          schedule,
          () => createTenant(otherProcess, Date.now, `fresh after ${where}`, creds),
          rawPost('/v1/users/get', creds, { organizationId: 'org', userIds: ['nobody'] }),
        );
        assert.equal(first.status, 200, `a new key after a read in ${where}: ${JSON.stringify(first.body)}`);
        // A user another worker has just added, read at once through this one.
        const userId = `added after ${where}`;
        const read = await afterRead(
          schedule,
          () => otherProcess.upsertUsers(tenantId, 'org', null, [{ userId, name: 'New' }], Date.now()),
          rawPost('/v1/users/get', known, { organizationId: 'org', userIds: [userId] }),
        );
        assert.deepEqual(
          read.body?.result?.data?.map((u: { userId: string }) => u.userId),
          [userId],
          `a new user after a read in ${where}: ${JSON.stringify(read.body)}`,
        );
      }
    } finally {
      conn.socket.destroy();
      await app.close();
      await otherProcess.close();
      await served.close();
      await db.drop();
    }
  });
