// The load generator, run as its own process so it does not share the server's event loop:
//   node --import tsx bench/load.ts '<json: {url, operation, scale, connections, seconds}>'
// Prints one JSON line with req/s, latency percentiles and error counts.
import autocannon from 'autocannon';
import { SCALES, type ScaleName } from './dataset.js';
import { HEADERS, OPERATIONS } from './operations.js';

const args = JSON.parse(process.argv[2]!) as {
  url: string;
  operation: string;
  scale: ScaleName;
  connections: number;
  seconds: number;
};
const op = OPERATIONS.find((o) => o.name === args.operation);
if (!op) throw new Error(`unknown operation ${args.operation}`);
const scale = SCALES[args.scale];
let n = 0;

const result = await autocannon({
  url: args.url,
  connections: args.connections,
  duration: args.seconds,
  requests: [
    {
      method: op.method,
      path: op.path,
      headers: op.body ? HEADERS : {},
      setupRequest: (req) => (op.body ? { ...req, body: JSON.stringify({ data: op.body(scale, n++) }) } : req),
    },
  ],
});

process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
