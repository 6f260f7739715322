// The load generator, run as its own process so it does not share the server's event loop:
//   node --import tsx bench/load.ts '<json: {url, operation, scale, connections, seconds, tool}>'
// Drives one operation with wrk (when installed: less client overhead, like the independent run) or
// autocannon, and prints one JSON line with req/s, latency percentiles and error counts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SCALES, type ScaleName } from './dataset.js';
import { headersOf, OPERATIONS, type Operation, SPREAD, spreadBody, userOfRequest } from './operations.js';

export interface LoadResult {
  requestsPerSecond: number;
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const args = JSON.parse(process.argv[2]!) as {
  url: string;
  operation: string;
  scale: ScaleName;
  connections: number;
  seconds: number;
  tool: 'wrk' | 'autocannon';
  /** The spread row: the paths it sends to in turn (every POST operation of the server). */
  paths?: string[];
};
const op = [...OPERATIONS, SPREAD].find((o) => o.name === args.operation);
if (!op) throw new Error(`unknown operation ${args.operation}`);
const scale = SCALES[args.scale];

/** Request bodies for wrk to cycle through: spread over the dataset like autocannon's, made up front. */
const BODIES = 4000;

/** The n-th request's path, `data` and headers (which follow its user, on a row with users). */
function requestOf(o: Operation, n: number): { path: string; data: unknown; headers: Record<string, string> } {
  if (o.kind !== 'spread') {
    const user = userOfRequest(o, n);
    return { path: o.path, data: o.body?.(scale, n, user), headers: headersOf(o, user) };
  }
  const path = args.paths![n % args.paths!.length]!;
  return { path, data: spreadBody(path, scale), headers: headersOf(o) };
}

async function withAutocannon(o: Operation): Promise<LoadResult> {
  let n = 0;
  const result = await autocannon({
    url: args.url,
    connections: args.connections,
    duration: args.seconds,
    requests: [
      {
        method: o.method,
        path: o.path,
        headers: headersOf(o, userOfRequest(o, 0)),
        ...(o.raw ? { body: Buffer.alloc(o.raw.bytes, 0x61) } : {}),
        setupRequest: (req) => {
          if (!o.body && o.kind !== 'spread') return req;
          const { path, data, headers } = requestOf(o, n++);
          return { ...req, path, headers, body: JSON.stringify({ data }) };
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const luaString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** wrk with a Lua script that sends the operation's bodies in turn and counts non-2xx answers. */
function withWrk(o: Operation): LoadResult {
  const dir = mkdtempSync(join(tmpdir(), 'marginalia-wrk-'));
  try {
    // One request a line: its path, a tab, its Authorization header when it is the request's own (a row with
    // end users: the token of the body's user), a tab, its body (none for a GET).
    const own = (h: Record<string, string>) => (o.endUser ? h.authorization : '');
    const bodies =
      o.body || o.kind === 'spread'
        ? Array.from({ length: o.bodies ?? BODIES }, (_, i) => {
            const { path, data, headers } = requestOf(o, i);
            return `${path}\t${own(headers)}\t${JSON.stringify({ data })}`;
          })
        : [`${o.path}\t\t`];
    writeFileSync(join(dir, 'bodies.txt'), `${bodies.join('\n')}\n`);
    // The headers every request shares (an end user's token is each line's own).
    const { authorization: _each, ...shared } = headersOf(o, userOfRequest(o, 0));
    const headers = Object.entries(o.endUser ? shared : headersOf(o))
      .map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`)
      .join('\n');
    writeFileSync(
      join(dir, 'script.lua'),
      `
wrk.method = ${luaString(o.method)}
${headers}
${o.raw ? `wrk.body = string.rep("a", ${o.raw.bytes})` : ''}
local lines = {}
for line in io.lines(${luaString(join(dir, 'bodies.txt'))}) do
  local path, auth, body = line:match("^([^\t]*)\t([^\t]*)\t(.*)$")
  lines[#lines + 1] = { path = path, auth = auth, body = body ~= "" and body or nil }
end
-- A request with its own Authorization gets its own headers: wrk.headers and it (made once wrk.init has set Host).
local own = {}
init = function()
  for k, l in ipairs(lines) do
    if l.auth ~= "" then
      local h = {}
      for name, value in pairs(wrk.headers) do h[name] = value end
      h["authorization"] = l.auth
      own[k] = h
    end
  end
end
local i = 0
request = function()
  i = i % #lines + 1
  local l = lines[i]
  return wrk.format(nil, l.path, own[i], l.body)
end
local bad = 0
response = function(status) if status < 200 or status > 299 then bad = bad + 1 end end
done = function(summary, latency, requests)
  io.write(string.format("JSON {\\"p50\\": %f, \\"p99\\": %f}\\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
`,
    );
    const out = execFileSync(
      'wrk',
      ['-t1', `-c${args.connections}`, `-d${args.seconds}s`, '--latency', '-s', join(dir, 'script.lua'), args.url],
      { encoding: 'utf8' },
    );
    const number = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
    const latency = JSON.parse(/^JSON (.*)$/m.exec(out)?.[1] ?? '{"p50":0,"p99":0}') as { p50: number; p99: number };
    const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    return {
      requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
      total: number(/(\d+) requests in/),
      p50: Number(latency.p50.toFixed(2)),
      p99: Number(latency.p99.toFixed(2)),
      non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
      errors: errors ? Number(errors[1]) + Number(errors[2]) + Number(errors[3]) : 0,
      timeouts: errors ? Number(errors[4]) : 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const result = args.tool === 'wrk' ? withWrk(op) : await withAutocannon(op);
process.stdout.write(`${JSON.stringify(result)}\n`);
