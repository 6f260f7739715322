// A TCP proxy a test can cut: the way to take PostgreSQL or Redis away from a running server for real,
// without stopping the shared service itself.
import { createServer, connect, type Server, type Socket } from 'node:net';

type Mode = 'up' | 'reset' | 'silent';

/** Forwards TCP to a service (PostgreSQL, Redis) while up; when cut, resets every connection or goes silent on them. */
export class CuttableProxy {
  mode: Mode = 'up';
  /** Connections reset on arrival while cut: each is one attempt of the client to connect. */
  resets = 0;
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<number> {
    this.server = createServer((client) => {
      this.track(client);
      if (this.mode === 'reset') {
        this.resets++;
        return void client.destroy();
      }
      if (this.mode === 'silent') return; // accepted, never answered
      const upstream = connect(this.target.port, this.target.host);
      this.track(upstream);
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return (this.server.address() as { port: number }).port;
  }

  private track(s: Socket) {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
  }

  cut(mode: Exclude<Mode, 'up'>) {
    this.mode = mode;
    for (const s of this.sockets) {
      if (mode === 'reset') s.destroy();
      else s.unpipe().pause(); // a dead network: nothing more gets through, nobody is told
    }
  }

  restore() {
    // Connections that were silenced are stale; the pool must notice and open new ones.
    for (const s of this.sockets) s.destroy();
    this.mode = 'up';
  }

  async close() {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server?.close(r));
  }
}
