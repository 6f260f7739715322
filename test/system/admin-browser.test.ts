// The admin console (docs/operations.md, "Admin console") in a real headless Chromium against the real server
// process: a page without the session is refused, the login takes the token, a tenant is created, a comment is
// deleted as moderation, and a webhook delivery is replayed to a receiver on this machine; nothing is requested
// from anywhere but the server. A screenshot of each step goes to test-artifacts/admin-*.png. Skips itself where
// there is no Chromium (CI sets MARGINALIA_TEST_REQUIRE_BROWSER, so there it fails instead).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { notificationData } from '../helpers/app.js';
import { ARTIFACTS, CHROMIUM, NEEDS_BROWSER } from '../helpers/browser.js';
import { post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';
import { type Receiver, startReceiver, webhookServerEnv } from '../helpers/webhook-receiver.js';

const creds = { apiKey: 'admin-browser-key', authToken: 'admin-browser-token-0123456789' };
const ADMIN_TOKEN = 'admin-browser-console-token-0123456789abcdef';

describe('the admin console in headless Chromium', { skip: NEEDS_BROWSER }, () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  let receiver: Receiver;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `admin-${name}.png`), fullPage: true });
  const api = async (path: string, data: unknown) => {
    const r = await post(server.url, path, creds, data);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.json)}`);
    return r.json.result;
  };

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    db = freshDatabase();
    receiver = await startReceiver();
    server = await startServer({ env: webhookServerEnv(db.env, creds, { MARGINALIA_ADMIN_TOKEN: ADMIN_TOKEN }) });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    const origin = new URL(server.url).origin;
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin)) return route.continue();
      external.push(url);
      return route.abort();
    });
  });
  after(async () => {
    await browser?.close();
    if (server) await stopServer(server);
    await receiver?.close();
    await db?.drop();
    assert.deepEqual(external, [], 'no request left the server');
  });

  test('without the session a page and a form post are refused', async () => {
    const r = await page.goto(`${server.url}/admin/tenants`);
    assert.equal(r?.status(), 401);
    await page.waitForSelector('input[name="token"]');
    await shot('refused');
    const posted = await fetch(`${server.url}/admin/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=sneaky',
    });
    assert.equal(posted.status, 401);
  });

  test('logs in with the token', async () => {
    await page.fill('input[name="token"]', 'not-the-token');
    await page.click('button[type="submit"]');
    await page.waitForSelector('text=That is not the admin token');
    await page.fill('input[name="token"]', ADMIN_TOKEN);
    await page.click('button[type="submit"]');
    await page.waitForSelector('h1:text("Health")');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'marginalia_admin');
    assert.ok(cookie, 'the session cookie');
    assert.deepEqual([cookie.httpOnly, cookie.sameSite, cookie.path], [true, 'Strict', '/admin']);
    await shot('login');
  });

  test('creates a tenant, whose credentials are shown once and work', async () => {
    await page.click('nav a:text("Tenants")');
    await page.fill('input[name="name"]', 'made-in-the-browser');
    await page.click('button:text("Create tenant")');
    await page.waitForSelector('text=Tenant made-in-the-browser created.');
    const [apiKey, authToken] = await page.$$eval('[data-secret]', (els) => els.map((e) => e.textContent ?? ''));
    const r = await post(server.url, '/v1/organizations/get', { apiKey: apiKey!, authToken: authToken! }, {});
    assert.equal(r.status, 200);
    await shot('tenant');
  });

  test('moderates: deletes a comment, which the API no longer shows', async () => {
    const where = { organizationId: 'acme', documentId: 'spec' };
    await api('/v1/commentannotations/add', {
      ...where,
      commentAnnotations: [
        {
          annotationId: 't1',
          commentData: [
            { commentText: 'A fine remark', from: { userId: 'ann' } },
            { commentText: 'Buy cheap pills', from: { userId: 'spam' } },
          ],
        },
      ],
    });
    await page.click('nav a:text("Tenants")');
    await page.locator('tr', { hasText: creds.apiKey }).locator('a').first().click();
    await page.click('a:text("acme")');
    await page.click('a:text("spec")');
    await page.locator('.comment', { hasText: 'Buy cheap pills' }).locator('button:text("Delete comment")').click();
    await page.waitForSelector('text=/Comment \\d+ of thread t1 deleted/');
    assert.equal(await page.locator('text=Buy cheap pills').count(), 0);
    const left = (await api('/v1/commentannotations/comments/get', { ...where, annotationId: 't1' })).data;
    assert.deepEqual(
      left.map((c: { commentText: string }) => c.commentText),
      ['A fine remark'],
    );
    await shot('moderate');
  });

  test('replays a webhook delivery to the receiver', async () => {
    const { webhookId } = (await api('/v1/webhooks/add', { url: receiver.url })).data;
    await api('/v1/notifications/add', notificationData('acme', { notificationId: 'n1' }));
    await receiver.until(() => receiver.received.length >= 1, 10_000, 'the first delivery');
    await page.click('nav a:text("Tenants")');
    await page.locator('tr', { hasText: creds.apiKey }).locator('a:text("Webhooks")').click();
    await page.click(`a:text("${webhookId}")`);
    await page.waitForSelector('td:text("delivered")');
    await page.locator('button:text("Replay")').first().click();
    await page.waitForSelector('text=/Event \\d+ will be sent again/');
    await receiver.until(() => receiver.received.length >= 2, 10_000, 'the replayed delivery');
    assert.equal(receiver.received[1]!.id, receiver.received[0]!.id, 'the same event again');
    await shot('replay');
  });
});
