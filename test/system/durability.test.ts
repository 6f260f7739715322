// A crash in the middle of batch writes (docs/api.md, "Wire format": a batch is one transaction; docs/api.md
// "What always holds": nothing acknowledged is lost). Writers stream large commentannotations/add batches (40
// threads of 25 comments each) at the real server; it is killed with SIGKILL while batches are in flight; after a
// restart every batch is either wholly there or wholly absent, and every acknowledged one is there.
// Runs on each database there is (SQLite, and PostgreSQL when TEST_DATABASE_URL names one). e2e.test.ts covers single writes and
// SIGTERM.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { firstStartCredentials, post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';

const THREADS = 40;
const COMMENTS = 25;
const databases = STORE_KINDS.map((kind) => freshDatabase(kind));
const running: ServerProcess[] = [];
after(async () => {
  await Promise.all(running.map((s) => stopServer(s, 'SIGKILL')));
  await Promise.all(databases.map((db) => db.drop()));
});

const batch = (documentId: string) => ({
  organizationId: 'o',
  documentId,
  commentAnnotations: Array.from({ length: THREADS }, (_, a) => ({
    annotationId: `t${a}`,
    commentData: Array.from({ length: COMMENTS }, (_, c) => ({
      commentText: `comment ${c} of thread ${a}`,
      from: { userId: `u${c % 7}` },
    })),
  })),
});

for (const db of databases)
  test(`kill -9 during batch writes on ${db.kind}: each batch is all there or not at all, every acknowledged one is there`, async () => {
    const s = await startServer({ env: db.env });
    running.push(s);
    const creds = firstStartCredentials(s.stderr());
    const sent: string[] = [];
    const acknowledged = new Set<string>();
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const documentId = `w${w}-b${i}`;
        sent.push(documentId);
        try {
          const r = await post(s.url, '/v1/commentannotations/add', creds, batch(documentId));
          if (r.status === 200) acknowledged.add(documentId);
        } catch {
          return; // the server died with this batch in flight
        }
      }
    };
    const writers = [0, 1, 2].map(writer);
    const deadline = Date.now() + 30_000;
    while (acknowledged.size < 6) {
      assert.ok(Date.now() < deadline, `only ${acknowledged.size} batches acknowledged in 30 s`);
      await new Promise((r) => setTimeout(r, 5));
    }
    s.proc.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    assert.equal(await s.exited, 'SIGKILL');

    const again = await startServer({ env: db.env });
    running.push(again);
    const partial: string[] = [];
    const lost: string[] = [];
    let whole = 0;
    for (const documentId of sent) {
      const counts: number[] = [];
      for (let a = 0; a < THREADS; a++) {
        const r = await post(again.url, '/v1/commentannotations/comments/get', creds, {
          organizationId: 'o',
          documentId,
          annotationId: `t${a}`,
        });
        assert.equal(r.status, 200, r.text);
        counts.push(r.json.result.data.length);
      }
      const present = counts.every((n) => n === COMMENTS);
      const absent = counts.every((n) => n === 0);
      if (!present && !absent) partial.push(`${documentId}: ${counts.join(',')}`);
      if (present) whole++;
      if (acknowledged.has(documentId) && !present) lost.push(documentId);
    }
    const inFlight = sent.filter((d) => !acknowledged.has(d)).length;
    assert.ok(inFlight > 0, 'batches were in flight when the server was killed');
    assert.deepEqual(partial, [], 'a batch was left half-written');
    assert.deepEqual(lost, [], 'an acknowledged batch was lost');
    assert.ok(whole >= acknowledged.size);
    await stopServer(again);
  });
