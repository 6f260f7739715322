// Draining (SPEC 1, 9): once close begins, a request already in flight completes, and a request that
// still arrives on an open connection gets 503 UNAVAILABLE in the envelope.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { makeTestApp, PATHS } from '../helpers/app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('while draining: the in-flight request finishes, a new one on the same connection gets 503', async () => {
  const t = await makeTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const request = (body: string) =>
    `POST ${PATHS.usersAdd} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
    `x-service-api-key: ${t.a.creds.apiKey}\r\nx-service-auth-token: ${t.a.creds.authToken}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const first = request(JSON.stringify({ data: { organizationId: 'o', users: [{ userId: 'first' }] } }));
  const second = request(JSON.stringify({ data: { organizationId: 'o', users: [{ userId: 'second' }] } }));

  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => {
    received += d;
  });
  const ended = new Promise((r) => socket.on('close', r));
  socket.write(first.slice(0, first.length - 10)); // the first request is in flight
  await sleep(100);
  const closing = t.app.close();
  await sleep(100);
  socket.write(first.slice(first.length - 10) + second); // finish it, and pipeline a second
  await ended;
  await closing;

  // Pipelined responses follow each other directly: split where each status line starts.
  const responses = received.split(/(?=HTTP\/1\.1 \d{3} )/).map((r) => ({
    status: Number(r.slice(9, 12)),
    body: JSON.parse(r.slice(r.indexOf('\r\n\r\n') + 4)),
  }));
  assert.deepEqual(
    responses.map((r) => r.status),
    [200, 503],
    received,
  );
  assert.equal(responses[0]!.body.result.data.first.message, 'User added.');
  assert.equal(responses[1]!.body.error.status, 'UNAVAILABLE');
  await t.close(); // the app is closed already; this closes the store and drops the database
});
