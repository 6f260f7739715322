// One delivery attempt (src/webhooks/send.ts) against receivers on loopback that misbehave.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import type { ClaimedDelivery } from '../../src/store/webhooks/types.js';
import { makeAgents, send } from '../../src/webhooks/send.js';

test('a receiver that answers before reading a large body, then resets the connection, does not end the process', async () => {
  // The late write error came on a socket the request no longer owned: with no listener, an uncaught exception.
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  const receiver = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n');
      setTimeout(() => socket.resetAndDestroy(), 1);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const agents = makeAgents(4);
  try {
    const delivery = {
      url: `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`,
      body: JSON.stringify({ data: 'x'.repeat(8 * 1024 * 1024) }),
      secret: `whsec_${Buffer.alloc(32).toString('base64')}`,
      webhookId: 'wh_1',
    } as ClaimedDelivery;
    for (let eventId = 1; eventId <= 10; eventId++) {
      const result = await send({ ...delivery, eventId }, Date.now(), { timeoutMs: 5000, allowPrivate: true, agents });
      assert.equal(result.responseCode ?? 200, 200, `attempt ${eventId}: ${result.error}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(uncaught.map(String), []);
  } finally {
    process.off('uncaughtException', onUncaught);
    agents.http.destroy();
    receiver.close();
  }
});
