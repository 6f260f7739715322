// The live event stream (docs/events.md, "The live stream: GET /v1/events") from a real headless Chromium (Debian's
// `chromium`, driven by playwright-core), as a browser app would use it: the server runs with
// MARGINALIA_CORS_ORIGINS naming origin A only; two tiny pages are served from two local HTTP servers on other
// ports (origin A, origin B). The test gets an end-user token through the API, each page opens
// `new EventSource('<server>/v1/events?token=...')`, and a notification addressed to that user is added
// through the API: the page on A shows it; the page on B is refused by CORS (EventSource error, nothing
// received), and so is its fetch with `Authorization: Bearer`, while the same preflighted fetch from A
// streams the event. A screenshot of page A is saved to test-artifacts/events.png. Skips itself, saying
// why, where there is no Chromium (CI sets MARGINALIA_TEST_REQUIRE_BROWSER, so there it fails instead).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';
import { ARTIFACTS, CHROMIUM, NEEDS_BROWSER } from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';

const creds = { apiKey: 'events-browser-key', authToken: 'events-browser-token-0123456789' };
const ORG = 'browser-org';
const USER = 'browser-user';

/**
 * The page a browser app would be: it opens the stream named in its fragment (#server=...&token=...)
 * with EventSource and lists every event it receives. `window.log` keeps what happened, for the test;
 * `window.fetchStream()` reads the stream through fetch with the token as `Authorization: Bearer` (a
 * header that is not CORS-safelisted: the browser sends a preflight first) into `window.fetched`.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Marginalia events</title>
<style>
  body { font: 15px system-ui, sans-serif; margin: 24px; }
  #state { font-weight: bold; } li { font-family: monospace; margin: 4px 0; }
</style></head>
<body>
<h1>Live events</h1>
<p>This page: <code id="origin"></code></p>
<p>Stream: <span id="state">connecting</span></p>
<ul id="events"></ul>
<script>
  const params = new URLSearchParams(location.hash.slice(1));
  const server = params.get('server');
  const token = params.get('token');
  const log = (window.log = { opened: false, errors: 0, readyStates: [], events: [] });
  document.getElementById('origin').textContent = location.origin;
  const state = document.getElementById('state');
  const source = new EventSource(server + '/v1/events?token=' + encodeURIComponent(token));
  source.onopen = () => {
    log.opened = true;
    state.textContent = 'open';
  };
  source.onerror = () => {
    log.errors++;
    log.readyStates.push(source.readyState);
    state.textContent = source.readyState === EventSource.CLOSED ? 'refused (closed)' : 'error, retrying';
  };
  source.onmessage = (m) => {
    const event = JSON.parse(m.data);
    log.events.push(event);
    const li = document.createElement('li');
    li.className = 'event';
    li.textContent = m.lastEventId + ' ' + event.type + ' ' + event.data.id + ': ' + (event.data.displayHeadlineMessageTemplate || '');
    document.getElementById('events').append(li);
  };
  // Reads the stream through fetch, keeping what came in window.fetched (a rejection: its error).
  window.fetchStream = () => {
    const fetched = (window.fetched = { status: 0, contentType: null, text: '', error: null, done: false });
    fetch(server + '/v1/events', { headers: { Authorization: 'Bearer ' + token } })
      .then(async (res) => {
        fetched.status = res.status;
        fetched.contentType = res.headers.get('content-type');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          fetched.text += value;
        }
      })
      .catch((err) => (fetched.error = String(err)))
      .finally(() => (fetched.done = true));
  };
</script>
</body></html>
`;

/** A local server of the page, on its own port of 127.0.0.1: its own origin. */
async function pageServer(): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const waitFor = (what: string, check: () => Promise<boolean>) => eventually(what, check, { everyMs: 50 });

interface PageLog {
  opened: boolean;
  errors: number;
  readyStates: number[];
  events: { id: number; type: string; organizationId: string; data: { id: string } }[];
}
interface Fetched {
  status: number;
  contentType: string | null;
  text: string;
  error: string | null;
  done: boolean;
}
const logOf = (page: Page) => page.evaluate(() => (globalThis as unknown as { log: PageLog }).log);

describe('the event stream in headless Chromium, across origins', { skip: NEEDS_BROWSER }, () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let a: { server: http.Server; origin: string };
  let b: { server: http.Server; origin: string };
  let pageA: Page;
  let pageB: Page;
  let token: string;
  const consoleB: string[] = [];

  const notify = async (notificationId: string) => {
    const r = await post(server.url, '/v1/notifications/add', creds, {
      organizationId: ORG,
      notificationId,
      actionUser: { userId: 'actor', name: 'Actor' },
      displayHeadlineMessageTemplate: `Hello from ${notificationId}`,
      notifyUsers: [{ userId: USER }],
    });
    assert.equal(r.status, 200, r.text);
  };
  const open = async (origin: string) => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 500 } });
    await page.goto(`${origin}/#server=${encodeURIComponent(server.url)}&token=${encodeURIComponent(token)}`);
    return page;
  };

  before(async () => {
    a = await pageServer();
    b = await pageServer();
    db = freshDatabase();
    server = await startServer({
      env: {
        ...db.env,
        MARGINALIA_API_KEY: creds.apiKey,
        MARGINALIA_AUTH_TOKEN: creds.authToken,
        MARGINALIA_CORS_ORIGINS: a.origin,
      },
    });
    const r = await post(server.url, '/v1/auth/token/get', creds, { userId: USER, userProperties: { organizationId: ORG } });
    assert.equal(r.status, 200, r.text);
    token = r.json.result.data.token;
    assert.equal(typeof token, 'string');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    if (server) await stopServer(server);
    await db?.drop();
    for (const s of [a, b]) if (s) await new Promise((r) => s.server.close(r));
  });

  test('a page on an allowed origin receives a notification addressed to its user, live', async () => {
    pageA = await open(a.origin);
    await waitFor('the stream to open on origin A', async () => (await logOf(pageA)).opened);
    await notify('n-browser-1');
    await pageA.locator('li.event', { hasText: 'n-browser-1' }).waitFor({ timeout: 5_000 });
    const log = await logOf(pageA);
    assert.equal(log.events.length, 1, JSON.stringify(log.events));
    assert.equal(log.events[0]!.type, 'notification.add');
    assert.equal(log.events[0]!.organizationId, ORG);
    assert.equal(log.events[0]!.data.id, 'n-browser-1');
    assert.equal(log.errors, 0);
    assert.equal(await pageA.locator('#state').textContent(), 'open');
  });

  test('a page on another origin is refused: EventSource errors and receives nothing', async () => {
    pageB = await browser.newPage({ viewport: { width: 1000, height: 500 } });
    pageB.on('console', (m) => consoleB.push(m.text()));
    await pageB.goto(`${b.origin}/#server=${encodeURIComponent(server.url)}&token=${encodeURIComponent(token)}`);
    await waitFor('EventSource to fail on origin B', async () => (await logOf(pageB)).errors > 0);
    await notify('n-browser-2');
    // Page A, still open, gets the second one; by then B would have had it too.
    await pageA.locator('li.event', { hasText: 'n-browser-2' }).waitFor({ timeout: 5_000 });
    await new Promise((r) => setTimeout(r, 500));
    const log = await logOf(pageB);
    assert.equal(log.opened, false, 'never opened');
    assert.deepEqual(log.events, [], 'received nothing');
    // A CORS failure fails the connection for good: CLOSED (2), no reconnect.
    assert.equal(log.readyStates[0], 2, `readyState after the error: ${log.readyStates}`);
    assert.equal(await pageB.locator('li.event').count(), 0);
    assert.ok(
      consoleB.some((m) => /CORS|Access-Control-Allow-Origin/i.test(m)),
      `the browser says it was CORS: ${JSON.stringify(consoleB)}`,
    );
  });

  test('fetch with Authorization: Bearer is refused from the other origin, and streams from the allowed one', async () => {
    const fetched = (page: Page) => page.evaluate(() => (globalThis as unknown as { fetched: Fetched }).fetched);
    const fetchStream = (page: Page) => page.evaluate(() => (globalThis as unknown as { fetchStream(): void }).fetchStream());

    await fetchStream(pageB);
    await waitFor('the fetch from origin B to end', async () => (await fetched(pageB)).done);
    const fromB = await fetched(pageB);
    assert.match(String(fromB.error), /^TypeError/, JSON.stringify(fromB));
    assert.equal(fromB.status, 0, 'no answer reached the page');

    // The preflight the browser sends from each origin, asked directly: answered for A only.
    const preflight = (origin: string) =>
      fetch(`${server.url}/v1/events`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const okA = await preflight(a.origin);
    assert.equal(okA.headers.get('access-control-allow-origin'), a.origin);
    assert.match(okA.headers.get('access-control-allow-headers') ?? '', /authorization/i);
    const refusedB = await preflight(b.origin);
    assert.equal(refusedB.headers.get('access-control-allow-origin'), null);

    await fetchStream(pageA);
    // The server writes `: open` once the stream is subscribed: a write after that is on it.
    await waitFor('the fetched stream to open on origin A', async () => (await fetched(pageA)).text.includes(': open'));
    await notify('n-browser-3');
    await waitFor('the event on the fetched stream', async () => (await fetched(pageA)).text.includes('"n-browser-3"'));
    const fromA = await fetched(pageA);
    assert.equal(fromA.error, null);
    assert.equal(fromA.status, 200);
    assert.match(String(fromA.contentType), /^text\/event-stream/);
    assert.match(fromA.text, /\nid: \d+\ndata: \{[^\n]*"n-browser-3"/, fromA.text);

    await pageA.locator('li.event', { hasText: 'n-browser-3' }).waitFor({ timeout: 5_000 });
    mkdirSync(ARTIFACTS, { recursive: true });
    await pageA.screenshot({ path: join(ARTIFACTS, 'events.png'), fullPage: true });
    await pageB.screenshot({ path: join(ARTIFACTS, 'events-refused.png'), fullPage: true });
    assert.ok(existsSync(join(ARTIFACTS, 'events.png')));
    assert.equal((await logOf(pageB)).events.length, 0, 'B still has nothing');
  });
});
