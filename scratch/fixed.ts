import autocannon from 'autocannon';
import { HEADERS } from '../bench/operations.ts';
const [url, path, body, secs] = process.argv.slice(2);
const r = await autocannon({ url, connections: 10, duration: Number(secs ?? 5), requests: [{ method: 'POST', path, headers: HEADERS, body }] });
console.log(JSON.stringify({ rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx }));
