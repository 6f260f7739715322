// npm run bench:migrate -- [--db sqlite|postgres] [--comments N] [--interval-ms N] [--batch N]
// Does another tenant's write wait behind a document migration? Starts the real server (127.0.0.1, a fresh
// database), gives tenant A a document of --comments comments (default 100,000) in one thread, and has
// tenant B add a comment every --interval-ms (default 20) from before the migration until after it. Prints
// the migration's duration and rows, and B's write latencies (p50, p99, max) before and during it. The
// target (issue 37): B's slowest write during the migration under 1 s, on both databases. Stops by itself.
import { parseArgs } from 'node:util';
import { systemClock } from '../src/clock.js';
import { createTenant, type IssuedCredentials } from '../src/services/credentials.js';
import { startServer, stopServer } from '../test/helpers/server-process.js';
import { freshDatabase } from '../test/helpers/test-database.js';

const { values: opts } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    comments: { type: 'string', default: '100000' },
    'interval-ms': { type: 'string', default: '20' },
    batch: { type: 'string' },
  },
});
const COMMENTS = Number(opts.comments);
const INTERVAL_MS = Number(opts['interval-ms']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(url: string, path: string, creds: IssuedCredentials, data: unknown): Promise<any> {
  const r = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': creds.apiKey, 'x-service-auth-token': creds.authToken },
    body: JSON.stringify({ data }),
  });
  const body = (await r.json()) as any;
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.result;
}

const say = (commentText: string) => ({ commentText, from: { userId: 'writer' } });

function percentiles(xs: number[]): string {
  if (xs.length === 0) return 'no writes';
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `${s.length} writes, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms`;
}

/** Tenant B's steady writes: one comment every INTERVAL_MS (or as soon as the last answered), each timed. */
function steadyWriter(url: string, creds: IssuedCredentials) {
  const latencies: { at: number; ms: number }[] = [];
  let stopped = false;
  const done = (async () => {
    await post(url, '/v1/commentannotations/add', creds, {
      organizationId: 'b-org',
      documentId: 'b-doc',
      commentAnnotations: [{ annotationId: 'b', commentData: [say('first')] }],
    });
    for (let n = 0; !stopped; n++) {
      const started = performance.now();
      await post(url, '/v1/commentannotations/comments/add', creds, {
        organizationId: 'b-org',
        documentId: 'b-doc',
        annotationId: 'b',
        commentData: [say(`b${n}`)],
      });
      const ms = performance.now() - started;
      latencies.push({ at: Date.now(), ms });
      await sleep(Math.max(0, INTERVAL_MS - ms));
    }
  })();
  return {
    between: (from: number, to: number) => latencies.filter((l) => l.at >= from && l.at <= to).map((l) => l.ms),
    async stop() {
      stopped = true;
      await done;
    },
  };
}

async function main(): Promise<void> {
  const db = freshDatabase(opts.db === 'postgres' ? 'postgres' : 'sqlite');
  const store = await db.open();
  const a = await createTenant(store, systemClock, 'migrating tenant');
  const b = await createTenant(store, systemClock, 'writing tenant');
  await store.close();
  const server = await startServer({
    env: {
      ...db.env,
      HOST: '127.0.0.1',
      MARGINALIA_RATE_LIMIT: '0',
      MARGINALIA_MIGRATION_POLL_MS: '100',
      ...(opts.batch ? { MARGINALIA_MIGRATION_BATCH_SIZE: opts.batch } : {}),
    },
    timeoutMs: 60_000,
  });
  try {
    const url = server.url;
    const fillStarted = performance.now();
    await post(url, '/v1/commentannotations/add', a, {
      organizationId: 'a-org',
      documentId: 'big',
      commentAnnotations: [{ annotationId: 'long', commentData: [say('c0')] }],
    });
    for (let written = 1; written < COMMENTS; ) {
      const n = Math.min(1000, COMMENTS - written);
      const commentData = Array.from({ length: n }, (_, i) => say(`c${written + i}`));
      await post(url, '/v1/commentannotations/comments/add', a, {
        organizationId: 'a-org',
        documentId: 'big',
        annotationId: 'long',
        commentData,
      });
      written += n;
    }
    console.log(
      `${opts.db}: tenant A's document holds ${COMMENTS} comments (written in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s)`,
    );

    const writer = steadyWriter(url, b);
    const before = Date.now();
    await sleep(3000);
    const started = Date.now();
    const { data } = await post(url, '/v2/organizations/documents/migrate', a, {
      organizationId: 'a-org',
      documentId: 'big',
      newDocumentId: 'moved',
    });
    let status: any;
    for (;;) {
      status = (
        await post(url, '/v2/organizations/documents/migrate/status', a, {
          organizationId: 'a-org',
          migrationId: data.migrationId,
        })
      ).data;
      if (status.status === 'completed' || status.status === 'failed') break;
      await sleep(100);
    }
    const ended = Date.now();
    await sleep(1000);
    await writer.stop();
    const moved = (
      await post(url, '/v1/commentannotations/comments/get', a, {
        organizationId: 'a-org',
        documentId: 'moved',
        annotationId: 'long',
      })
    ).data;

    console.log(
      `${opts.db}: migration ${status.status}: ${status.movedRows} rows in ${((ended - started) / 1000).toFixed(2)} s ` +
        `(the job's own time: ${((status.lastUpdated - status.createdAt) / 1000).toFixed(2)} s); ` +
        `${moved.length} comments read under the new id`,
    );
    console.log(`${opts.db}: tenant B before the migration: ${percentiles(writer.between(before, started))}`);
    console.log(`${opts.db}: tenant B during the migration: ${percentiles(writer.between(started, ended))}`);
    if (status.status !== 'completed') process.exitCode = 1;
  } finally {
    await stopServer(server);
    await db.drop();
  }
}

await main();
