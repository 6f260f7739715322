// HTTP spoken by hand over a TCP socket, for what fetch cannot do: connections that send nothing,
// half a request, pipelined requests, or garbage.
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with the time (performance.now()) the server closed the connection. */
  closed: Promise<number>;
  write(text: string): void;
}

export function rawConnection(url: string): RawConnection {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (d) => {
    received += d;
  });
  socket.on('error', () => {}); // a reset is a close like any other here
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
  return { socket, received: () => received, closed, write: (text) => socket.write(text) };
}

/** A whole POST request as text. */
export function rawPost(path: string, creds: { apiKey: string; authToken: string }, data: unknown): string {
  const body = JSON.stringify({ data });
  return (
    `POST ${path} HTTP/1.1\r\nHost: marginalia\r\nContent-Type: application/json\r\n` +
    `x-service-api-key: ${creds.apiKey}\r\nx-service-auth-token: ${creds.authToken}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Splits what a connection received into responses (pipelined responses follow each other directly). */
export function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const lines = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyText = Buffer.from(rest.slice(headEnd + 4))
      .subarray(0, length)
      .toString();
    out.push({ status: Number(lines[0]!.slice(9, 12)), headers, body: bodyText ? JSON.parse(bodyText) : undefined });
    rest = rest.slice(headEnd + 4 + bodyText.length);
  }
  return out;
}
