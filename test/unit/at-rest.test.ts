// Memory at rest (http/at-rest.ts, heap.ts): a process sent no API request for the setting's time lets
// go of its caches once, until the next request; probes and scrapes outside the API do not keep it
// busy; and what it lets go is freed: a collection, then the C heap's free pages handed back. (The
// caches' own clear() is tested in thread-page-cache.test.ts and profile-cache.test.ts.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { collectGarbage, returnFreeMemory } from '../../src/heap.js';
import { registerAtRest } from '../../src/http/at-rest.js';
import type { App } from '../../src/http/types.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An app with /v1/op inside the scope that counts as work, /healthz outside it; the moments of its releases. */
async function appAtRest(afterMs: number) {
  const app = Fastify() as unknown as App;
  const released: number[] = [];
  app.get('/healthz', async () => 'ok');
  await app.register(async (scope: App) => {
    registerAtRest(scope, { afterMs, release: () => released.push(performance.now()) });
    scope.post('/v1/op', async () => ({ ok: true }));
  });
  await app.ready();
  return { app, released, op: () => app.inject({ method: 'POST', url: '/v1/op' }) };
}

test('no API request for the setting: released once, no sooner, until the next request', async (t) => {
  const { app, released, op } = await appAtRest(200);
  t.after(() => app.close());
  for (let i = 0; i < 5; i++) {
    await op();
    await sleep(30);
  }
  await op();
  const last = performance.now();
  await sleep(800);
  assert.equal(released.length, 1, 'once, however long it stays at rest');
  // The look after the request starts the count; four quiet looks of a quarter of the setting each.
  assert.ok(released[0]! - last >= 195, `released ${Math.round(released[0]! - last)} ms after the last request`);
  await op();
  await sleep(800);
  assert.equal(released.length, 2, 'a request made it busy again, and rest came again');
});

test('requests that keep coming hold it off; probes outside the API do not', async (t) => {
  const busy = await appAtRest(400);
  t.after(() => busy.app.close());
  const until = performance.now() + 1500;
  while (performance.now() < until) {
    await busy.op();
    await sleep(20);
  }
  assert.equal(busy.released.length, 0, 'an API request every 20 ms is not rest');

  const probed = await appAtRest(200);
  t.after(() => probed.app.close());
  await probed.op();
  const probeUntil = performance.now() + 800;
  while (performance.now() < probeUntil) {
    await probed.app.inject({ method: 'GET', url: '/healthz' });
    await sleep(20);
  }
  assert.equal(probed.released.length, 1, 'only /healthz for 800 ms: at rest');
});

test('a setting of 0 never releases', async (t) => {
  const { app, released, op } = await appAtRest(0);
  t.after(() => app.close());
  await op();
  await sleep(300);
  assert.equal(released.length, 0);
});

test('what was let go is collected, and the C heap is trimmed where glibc runs', async () => {
  let held: object | null = { big: new Array(1000).fill('x') };
  const ref = new WeakRef(held);
  held = null;
  // A WeakRef's target lives to the end of the job that made it.
  await sleep(0);
  collectGarbage();
  assert.equal(ref.deref(), undefined);
  const glibc = process.platform === 'linux' && (process.report.getReport() as any).header?.glibcVersionRuntime !== undefined;
  assert.equal(returnFreeMemory(), glibc);
  assert.equal(returnFreeMemory(), glibc, 'and again: the call is loaded once');
});

test('a release that throws is logged, not the end of the process', async (t) => {
  const app = Fastify() as unknown as App;
  let calls = 0;
  await app.register(async (scope: App) => {
    registerAtRest(scope, {
      afterMs: 100,
      release: () => {
        calls++;
        throw new Error('cannot');
      },
    });
  });
  await app.ready();
  t.after(() => app.close());
  await sleep(400);
  assert.equal(calls, 1);
});
