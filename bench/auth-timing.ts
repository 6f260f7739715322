// npm run bench:auth-timing -- [--samples N] [--db sqlite|postgres]
// Can the time of a 401 tell an attacker whether an API key exists? Starts the real server, then
// alternates requests with an unknown key and with a known key and a wrong token over one kept-alive
// connection, and compares the two latency samples with the Mann-Whitney rank-sum test. |z| below
// about 3 means the two cannot be told apart at this sample size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer, stopServer } from '../test/helpers/server-process.js';
import pg from 'pg';

const { values: opts } = parseArgs({
  options: { samples: { type: 'string', default: '2000' }, db: { type: 'string', default: 'sqlite' } },
});
const samples = Number(opts.samples);
const known = { apiKey: 'bench-timing-key', authToken: 'bench-timing-token-0123456789' };

/** Mann-Whitney U as a z score (normal approximation, ties averaged): negative when a is faster. */
export function rankSumZ(a: number[], b: number[]): number {
  const all = [...a.map((v) => ({ v, a: true })), ...b.map((v) => ({ v, a: false }))].sort((x, y) => x.v - y.v);
  let rankA = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.v === all[i]!.v) j++;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.a) rankA += rank;
    i = j;
  }
  const u = rankA - (a.length * (a.length + 1)) / 2;
  const mean = (a.length * b.length) / 2;
  const sd = Math.sqrt((a.length * b.length * (a.length + b.length + 1)) / 12);
  return (u - mean) / sd;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'marginalia-bench-timing-'));
  const database: Record<string, string> =
    opts.db === 'postgres'
      ? {
          DATABASE_URL:
            process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
          MARGINALIA_PG_SCHEMA: `bench_timing_${process.pid}`,
        }
      : { DATABASE_URL: `sqlite:${join(dir, 'm.db')}` };
  // The server as the tests start it (test/helpers/server-process.ts): dist/main.js, a free port.
  const server = await startServer({
    env: { ...database, MARGINALIA_RATE_LIMIT: '0', MARGINALIA_API_KEY: known.apiKey, MARGINALIA_AUTH_TOKEN: known.authToken },
  });
  const url = server.url;
  try {
    const time = async (apiKey: string): Promise<number> => {
      const started = performance.now();
      const r = await fetch(`${url}/v1/users/add`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-api-key': apiKey,
          'x-service-auth-token': 'a-wrong-token-0123456789',
        },
        body: '{"data":{}}',
      });
      await r.text();
      if (r.status !== 401) throw new Error(`expected 401, got ${r.status}`);
      return (performance.now() - started) * 1000;
    };
    for (let i = 0; i < 200; i++) await time(i % 2 ? known.apiKey : `mk_unknown_${i}`); // warm up
    const unknown: number[] = [];
    const wrongToken: number[] = [];
    for (let i = 0; i < samples; i++) {
      // Alternate which goes first, so drift over the run falls on both alike.
      if (i % 2) {
        unknown.push(await time(`mk_unknown_${i}`));
        wrongToken.push(await time(known.apiKey));
      } else {
        wrongToken.push(await time(known.apiKey));
        unknown.push(await time(`mk_unknown_${i}`));
      }
    }
    const z = rankSumZ(unknown, wrongToken);
    process.stdout.write(
      `${JSON.stringify(
        {
          database: opts.db,
          samples,
          medianUnknownUs: Math.round(median(unknown)),
          medianWrongTokenUs: Math.round(median(wrongToken)),
          medianDifferenceUs: Math.round(median(unknown) - median(wrongToken)),
          rankSumZ: Number(z.toFixed(2)),
          verdict: Math.abs(z) < 3 ? 'indistinguishable at this sample size' : 'distinguishable',
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
    if ('MARGINALIA_PG_SCHEMA' in database) {
      const client = new pg.Client({ connectionString: database.DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${database.MARGINALIA_PG_SCHEMA} CASCADE`);
      await client.end();
    }
  }
}

await main();
