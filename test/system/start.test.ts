// A start as an orchestrator sees it (docs/operations.md, "Start"): the port answers /healthz from the
// first moment, before the store is open and the app built; /readyz and the API answer 503 "starting"
// in the envelope until the app takes over, and then the API is served on the same port.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createKey, freePort, post, startServer, stopServer } from '../helpers/server-process.js';
import { freshDatabase } from '../helpers/test-database.js';

const db = freshDatabase('sqlite');
after(() => db.drop());

test('/healthz answers while the server starts; /readyz and the API say "starting" until the app is ready', async () => {
  const creds = createKey(db.env, 'start');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const starting = startServer({ env: { ...db.env, PORT: String(port) } });
  let listening = false;
  void starting.then(() => {
    listening = true;
  });
  const seen: { health?: number; ready?: number; body?: any; api?: number; apiBody?: any } = {};
  while (!listening && seen.health === undefined) {
    try {
      const health = await fetch(`${url}/healthz`);
      if (health.ok) {
        seen.health = health.status;
        const ready = await fetch(`${url}/readyz`);
        seen.ready = ready.status;
        seen.body = await ready.json();
        const api = await fetch(`${url}/v1/users/get`, { method: 'POST' });
        seen.api = api.status;
        seen.apiBody = await api.json();
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const server = await starting;
  console.log('# seen while starting', JSON.stringify(seen));
  try {
    assert.equal(seen.health, 200, '/healthz answered before the server said it listens');
    // Answers taken while it started, or (on a machine fast enough to finish in the meantime) from the app.
    if (seen.ready === 503) {
      assert.match(seen.body.error.message, /^starting/);
      assert.equal(seen.body.error.status, 'UNAVAILABLE');
      assert.equal(seen.api, 503);
      assert.match(seen.apiBody.error.message, /^starting/);
    }
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    const r = await post(server.url, '/v1/users/get', creds, { organizationId: 'o' });
    assert.equal(r.status, 200, r.text);
    assert.equal(server.url, url, 'the app serves on the port taken first');
  } finally {
    await stopServer(server);
  }
});
