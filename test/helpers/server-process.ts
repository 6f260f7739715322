// Starts the real server as a child process (the built dist/main.js, or `npm start` as the README
// does) and speaks HTTP to it. Used by the end-to-end, durability, CLI and conformance tests.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MAIN = join(REPO, 'dist', 'main.js');

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'marginalia-e2e-'));
}

export interface ServerProcess {
  proc: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
}

export interface StartOptions {
  env: Record<string, string>;
  /** Start through `npm start` instead of node dist/main.js. */
  viaNpm?: boolean;
  /** Start this `marginalia` command (an installed package's), in `cwd`, instead of the repository's build. */
  bin?: { path: string; cwd: string };
  timeoutMs?: number;
}

/** Environment for a child: ours minus anything that would change its settings, plus the given ones. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('MARGINALIA_') || ['PORT', 'HOST', 'DATABASE_URL', 'LOG_LEVEL'].includes(k)) continue;
    if (k.startsWith('NODE_TEST')) continue;
    // Kept only for the runs on Node 22 (scripts/test.mjs), whose processes all need its resolve hook.
    if (k === 'NODE_OPTIONS' && !v?.includes('node22-hooks')) continue;
    env[k] = v;
  }
  return { ...env, PORT: '0', ...extra };
}

/** Every server started here that has not ended yet. */
const live = new Set<ChildProcess>();

// A failed test (or a failed start of a second server) can leave a server running, and its pipes would
// keep this file's process, and with it the whole run, alive. Whatever still runs a few seconds after
// the file's last test and its own cleanup is killed. (Only in a test file: benches use these helpers too.)
if (/\.test\.[cm]?[jt]s$/.test(process.argv[1] ?? ''))
  after(() => {
    setTimeout(() => {
      for (const proc of live) {
        console.error(`# killed a server still running after the last test: ${proc.spawnargs.join(' ')}`);
        kill({ proc }, 'SIGKILL');
      }
    }, 5000).unref();
  });

/** A port free on 127.0.0.1 now, for a process that must be told its port before it starts (the tests and the bench). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

export async function startServer(opts: StartOptions): Promise<ServerProcess> {
  const env = childEnv(opts.env);
  const proc = opts.viaNpm
    ? spawn('npm', ['start', '--silent'], { cwd: REPO, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    : opts.bin
      ? spawn(opts.bin.path, ['serve'], { cwd: opts.bin.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, [MAIN, 'serve'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    err += d;
  });
  // 'close', not 'exit': under npm the server child holds the pipes, so this waits for the server itself.
  const exited = new Promise<number | string>((resolve) => proc.on('close', (code, signal) => resolve(code ?? signal ?? -1)));
  live.add(proc);
  void exited.then(() => live.delete(proc));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`server did not start in time.\nstdout: ${out}\nstderr: ${err}`));
      // Nobody will stop a server that never said it listens: killed here, or its pipes would keep this
      // test file's process (and with it the whole run) alive after the failure.
      kill({ proc }, 'SIGKILL');
    }, opts.timeoutMs ?? 30_000);
    const check = () => {
      const m = /Server listening at (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        proc.stdout!.off('data', check);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening.\nstdout: ${out}\nstderr: ${err}`));
    });
  });
  return { proc, url, stdout: () => out, stderr: () => err, exited };
}

/** The server's JSON log lines (pino, on stdout), parsed. */
export function logEntries(s: ServerProcess): Record<string, any>[] {
  return s
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

/** Stops a server (its whole process group when started through npm) and waits for it to end. */
export async function stopServer(s: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
  kill(s, signal);
  return s.exited;
}

function kill(s: Pick<ServerProcess, 'proc'>, signal: NodeJS.Signals): void {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
  try {
    if (s.proc.spawnargs[0] === 'npm') process.kill(-s.proc.pid!, signal);
    else s.proc.kill(signal);
  } catch {
    // already gone
  }
}

/** The credentials a first start prints on stderr. */
export function firstStartCredentials(stderr: string): { apiKey: string; authToken: string } {
  const apiKey = /x-service-api-key:\s+(\S+)/.exec(stderr)?.[1];
  const authToken = /x-service-auth-token:\s+(\S+)/.exec(stderr)?.[1];
  if (!apiKey || !authToken) throw new Error(`no first-start credentials in stderr:\n${stderr}`);
  return { apiKey, authToken };
}

/** Runs the CLI to completion. */
export function cli(args: string[], env: Record<string, string>) {
  // A CLI that never ends fails its test in a minute instead of holding the whole run.
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: REPO, env: childEnv(env), encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw new Error(`marginalia ${args.join(' ')}: ${r.error.message}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI to completion without blocking this process's event loop (for a command run while requests go on). */
export function cliInBackground(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: REPO, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A new tenant through `marginalia keys create`, as its credentials. */
export function createKey(env: Record<string, string>, name: string): { apiKey: string; authToken: string } {
  const made = cli(['keys', 'create', '--name', name], env);
  if (made.code !== 0) throw new Error(`keys create exited ${made.code}: ${made.stderr}`);
  return JSON.parse(made.stdout) as { apiKey: string; authToken: string };
}

/** POST {data} over real HTTP. */
export async function post(url: string, path: string, creds: { apiKey: string; authToken: string }, data: unknown) {
  return postBody(url, path, { data }, { 'x-service-api-key': creds.apiKey, 'x-service-auth-token': creds.authToken });
}

/** POST a JSON body as it is, with these headers, over real HTTP. */
export async function postBody(url: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, headers: res.headers };
}
