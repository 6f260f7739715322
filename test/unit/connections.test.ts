// The connection bookkeeping under src/http/connections.ts, on a plain node:http server: a client
// that goes away in the middle of a request leaves nothing behind.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { test } from 'node:test';
import { Connections } from '../../src/http/connections.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a connection closed by its client while its request is in flight is forgotten once the request ends', async () => {
  const connections = new Connections();
  const server = createServer((_req, res) => {
    setTimeout(() => res.end('late'), 150); // answers after the client has gone
  });
  connections.attach(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(50);
    assert.equal(connections.size, 1);
    socket.destroy();
    await sleep(300);
    assert.equal(connections.size, 0, 'the closed connection is not tracked any more');
  } finally {
    await new Promise((r) => server.close(r));
  }
});
