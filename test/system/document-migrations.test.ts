// A document migration survives its server (docs/api.md, "Document migration"), on every database there is: a
// server killed part of the way through one (SIGKILL: no hand-back) is started again on the same database,
// takes the job up once its lease has ended, and completes it, each row moved once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/clock.js';
import { createTenant, type IssuedCredentials } from '../../src/services/credentials.js';
import { postBody, startServer, stopServer } from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';

const COMMENTS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(url: string, creds: IssuedCredentials, path: string, data: unknown): Promise<any> {
  const r = await postBody(url, path, { data }, { 'x-service-api-key': creds.apiKey, 'x-service-auth-token': creds.authToken });
  assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`);
  return r.json.result;
}

for (const kind of STORE_KINDS)
  test(`a migration whose server was killed is completed by the server started again, on ${kind}`, async () => {
    const db = freshDatabase(kind);
    const store = await db.open();
    const creds = await createTenant(store, systemClock, 'migration restart');
    await store.close();
    // Batches of 10 rows: the job is still moving when the server is killed. A lease of 1 s: the next server takes it soon.
    const env = {
      ...db.env,
      MARGINALIA_RATE_LIMIT: '0',
      MARGINALIA_MIGRATION_BATCH_SIZE: '10',
      MARGINALIA_MIGRATION_LEASE_MS: '1000',
    };
    let server = await startServer({ env: { ...env, MARGINALIA_MIGRATION_POLL_MS: '50' } });
    try {
      const say = (commentText: string) => ({ commentText, from: { userId: 'u' } });
      await call(server.url, creds, '/v1/commentannotations/add', {
        organizationId: 'o',
        documentId: 'old',
        commentAnnotations: [{ annotationId: 't', commentData: [say('c0')] }],
      });
      for (let k = 1; k < COMMENTS; k += 1000)
        await call(server.url, creds, '/v1/commentannotations/comments/add', {
          organizationId: 'o',
          documentId: 'old',
          annotationId: 't',
          commentData: Array.from({ length: Math.min(1000, COMMENTS - k) }, (_, i) => say(`c${k + i}`)),
        });
      const { migrationId } = (
        await call(server.url, creds, '/v2/organizations/documents/migrate', {
          organizationId: 'o',
          documentId: 'old',
          newDocumentId: 'new',
        })
      ).data;
      const status = async () =>
        (await call(server.url, creds, '/v2/organizations/documents/migrate/status', { organizationId: 'o', migrationId })).data;
      let seen = await status();
      for (const started = Date.now(); seen.movedRows === 0 && Date.now() - started < 30_000; seen = await status())
        await sleep(20);
      assert.equal(seen.status, 'in_progress', JSON.stringify(seen));
      await stopServer(server, 'SIGKILL');

      server = await startServer({ env: { ...env, MARGINALIA_MIGRATION_POLL_MS: '100' } });
      const during = await status();
      assert.equal(during.status, 'in_progress', 'the job outlived its server');
      assert.ok(during.movedRows < COMMENTS + 1, JSON.stringify(during));
      for (const started = Date.now(); seen.status !== 'completed' && Date.now() - started < 120_000; seen = await status()) {
        assert.notEqual(seen.status, 'failed', JSON.stringify(seen));
        await sleep(100);
      }
      assert.equal(seen.status, 'completed', JSON.stringify(seen));
      assert.equal(seen.movedRows, COMMENTS + 1, 'each comment and the thread moved once');
      const comments = (
        await call(server.url, creds, '/v1/commentannotations/comments/get', {
          organizationId: 'o',
          documentId: 'new',
          annotationId: 't',
        })
      ).data;
      assert.equal(comments.length, COMMENTS);
      const left = (await call(server.url, creds, '/v1/commentannotations/get', { organizationId: 'o', documentId: 'old' })).data;
      assert.deepEqual(left, []);
    } finally {
      await stopServer(server);
      await db.drop();
    }
  });
