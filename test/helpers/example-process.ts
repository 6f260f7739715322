// Starts the inbox example's server (examples/inbox/server.mjs) as its README does, as a child process,
// and stops it. Like the service's own (server-process.ts), one that a failed test leaves running is
// killed a few seconds after the file's last test, so its pipes cannot hold the run open.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { after } from 'node:test';
import { REPO } from './server-process.js';

export interface ExampleProcess {
  /** Where its page is served: http://127.0.0.1:<port>. */
  origin: string;
  stop(): Promise<void>;
}

export interface ExampleOptions {
  /** 0: any free port. */
  port: number;
  marginaliaUrl: string;
  apiKey: string;
  authToken: string;
}

const live = new Set<ChildProcess>();
after(() => {
  setTimeout(() => {
    for (const proc of live) proc.kill('SIGKILL');
  }, 5000).unref();
});

export async function startExample(opts: ExampleOptions): Promise<ExampleProcess> {
  const env = {
    PATH: process.env.PATH ?? '',
    PORT: String(opts.port),
    MARGINALIA_URL: opts.marginaliaUrl,
    MARGINALIA_API_KEY: opts.apiKey,
    MARGINALIA_AUTH_TOKEN: opts.authToken,
  };
  const proc = spawn(process.execPath, [join(REPO, 'examples/inbox/server.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  const exited = new Promise<void>((resolve) => proc.on('close', () => resolve()));
  void exited.then(() => live.delete(proc));
  let out = '';
  proc.stderr!.on('data', (d) => {
    out += d;
  });
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`the example did not start in time: ${out}`));
    }, 10_000);
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /Inbox example at (http:\/\/[\d.]+:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the example exited before listening: ${out}`));
    });
  });
  return {
    origin,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}
