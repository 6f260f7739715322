// The API reference page (/docs) in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core): it loads with no request leaving the server (no CDN), lists every operation as a reader
// scrolling down the page sees them (Swagger UI renders a long list only where the window is: docs/decisions.md,
// "The API reference page renders a long list where the reader is"), a deep link opens at its operation,
// and a real request sent from its "Try it out" panel (the operation's example, which the panel starts from), with
// both credentials entered through "Authorize", comes back 200. A screenshot of the answered request is saved to
// test-artifacts/docs.png. Skips itself, saying why, where there is no Chromium (CI installs it and
// sets MARGINALIA_TEST_REQUIRE_BROWSER, so there it fails instead).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { OPERATIONS as ROUTES } from '../../src/operations/index.js';
import { pathsOf } from '../../src/operations/operation.js';
import type { OpenApiDocument } from '../../src/http/api-docs.js';
import { CONTRACT } from '../../src/schemas/operations/index.js';
import { startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';
import { ARTIFACTS, CHROMIUM, NEEDS_BROWSER } from '../helpers/browser.js';

export const creds = { apiKey: 'docs-test-key', authToken: 'docs-test-token-0123456789' };
/** Every operation the service registers, and the pages not available here (each a POST that answers 501). */
// The pages answered 501 are not listed one by one (docs/decisions.md, "The 54 pages answered 501").
const OPERATIONS = ROUTES.flatMap(pathsOf);

/** One operation block as the page shows it. */
interface Block {
  id: string;
  path: string;
  post: boolean;
}

/**
 * Scrolls the page from the top down a screen at a time, as a reader does, handing each screen's operation blocks to
 * `visit` until it answers true or the page ends. Swagger UI mounts only the blocks near the window once a document
 * has 150 tags and operations or more, so no one look at the page holds them all.
 */
async function scrollThrough(page: Page, visit: (blocks: Block[]) => boolean | Promise<boolean>): Promise<boolean> {
  await page.evaluate('window.scrollTo(0, 0)');
  for (;;) {
    // Two animation frames: the virtual list measures the window in one and renders in the next.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    const blocks = await page.$$eval('.opblock', (els) =>
      els.map((e) => ({
        id: e.id,
        path: (e.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '').replace(/\u200b/g, ''),
        post: e.classList.contains('opblock-post'),
      })),
    );
    if (await visit(blocks)) return true;
    const moved = await page.evaluate(
      '(() => { const y = window.scrollY; window.scrollBy(0, window.innerHeight * 0.75); return window.scrollY !== y; })()',
    );
    if (!moved) return false;
  }
}

describe('the /docs page in headless Chromium', { skip: NEEDS_BROWSER }, () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];

  before(async () => {
    db = freshDatabase();
    server = await startServer({ env: { ...db.env, MARGINALIA_API_KEY: creds.apiKey, MARGINALIA_AUTH_TOKEN: creds.authToken } });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const origin = new URL(server.url).origin;
    // Anything not from the server itself is refused and remembered: the page must not need it.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:')) return route.continue();
      external.push(url);
      return route.abort();
    });
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
  });
  after(async () => {
    await browser?.close();
    if (server) await stopServer(server);
    await db?.drop();
  });

  test('loads with every asset from the server itself and lists every operation', async () => {
    const seen = new Map<string, Block>();
    await scrollThrough(page, (blocks) => {
      for (const block of blocks) seen.set(block.id, block);
      return false;
    });
    const paths = [...seen.values()].map((b) => b.path);
    const listed = (op: string) => paths.includes(op);
    // A /v2 page that is its /v1 twin exactly is shown once, as the /v1 operation that names it (api-docs.ts shownInDocs).
    const shown = (await (await fetch(`${server.url}/docs/json`)).json()) as OpenApiDocument;
    let twins = 0;
    for (const op of OPERATIONS) {
      if (listed(op)) continue;
      const v1 = shown.paths[op.replace(/^\/v2\//, '/v1/')]?.post;
      assert.ok(
        op.startsWith('/v2/') && v1?.description?.includes(`Also served as POST ${op}, the same.`),
        `${op} is listed, or named by its /v1 twin: ${JSON.stringify(paths)}`,
      );
      assert.ok(listed(op.replace(/^\/v2\//, '/v1/')), `${op}'s /v1 twin is listed`);
      twins++;
    }
    assert.ok(twins > 0 && twins < OPERATIONS.length / 2, `${twins} /v2 twins shown as their /v1 operation`);
    // Each operation once, as the POST it is (the 405 answers for other methods are not operations).
    // The upload is a POST of a file, not a JSON operation; its /v2 twin is folded like the others.
    assert.ok(listed('/v1/attachments/upload'), 'the upload is listed');
    assert.equal([...seen.values()].filter((b) => b.post).length, OPERATIONS.length - twins + 1);
    assert.ok(listed('/v1/events'), 'the event stream is listed');
    assert.ok(listed('/v1/attachments/{attachmentId}') && listed('/v2/attachments/{attachmentId}'), 'the downloads');
    assert.equal(
      seen.size,
      OPERATIONS.length - twins + 1 + 2 + 4,
      'the operations, the upload, the two downloads, the event stream (GET /v1/events) and /healthz, /readyz, /metrics',
    );
    assert.deepEqual(external, [], 'no request left the server');
  });

  test('a request sent from the "Try it out" panel with the credentials from "Authorize" answers 200', async () => {
    await page.click('button.authorize');
    const inputs = page.locator('.modal-ux .auth-container input');
    assert.equal(
      await inputs.count(),
      5,
      "one input per credential header (the tenant's two, the workspace's two), and one for an end-user token (the stream)",
    );
    const forms = page.locator('.modal-ux .auth-container');
    let filled = 0;
    for (let i = 0; i < 5; i++) {
      const form = forms.nth(i);
      const text = await form.innerText();
      const value = text.includes('x-service-auth-token')
        ? creds.authToken
        : text.includes('x-service-api-key')
          ? creds.apiKey
          : null;
      if (value === null) continue;
      await form.locator('input').fill(value);
      await form.locator('button.authorize').click();
      filled++;
    }
    assert.equal(filled, 2, 'both credential headers');
    await page.click('.modal-ux button.btn-done');

    const id = 'operations-notifications-post_v1_notifications_get';
    assert.ok(await scrollThrough(page, (blocks) => blocks.some((b) => b.id === id)), `${id} is on the page`);
    const block = page.locator(`#${id}`);
    await block.locator('.opblock-summary').first().click();
    const tryOut = block.locator('button.try-out__btn');
    if ((await tryOut.count()) > 0 && (await tryOut.innerText()).includes('Try it out')) await tryOut.click();
    // The panel starts from the operation's example (its contract's, shown as the request body's example), and
    // sends it as it is.
    const prefilled = await block.locator('textarea.body-param__text').inputValue();
    assert.deepEqual(JSON.parse(prefilled), { data: CONTRACT.notificationsGet.example });
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 20_000 });
    assert.match(await status.innerText(), /200/);
    const body = await block.locator('.live-responses-table tr.response .response-col_description pre').first().innerText();
    assert.match(body, /"status": "success"/, body);
    assert.match(body, /Notification\(s\) retrieved successfully\./, body);
    mkdirSync(ARTIFACTS, { recursive: true });
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: true });
    assert.ok(existsSync(join(ARTIFACTS, 'docs.png')));
    assert.deepEqual(external, [], 'no request left the server');
  });

  test('a deep link to an operation far down the page opens at that operation', async () => {
    const link = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    try {
      await link.goto(`${server.url}/docs#/retention/post_v1_retention_run`);
      const block = link.locator('#operations-retention-post_v1_retention_run');
      await block.waitFor({ timeout: 20_000 });
      const box = await block.boundingBox();
      // Its top at the window's top, give or take the sub-pixel layout's rounding (-0.4 px was seen).
      assert.ok(box && box.y > -1 && box.y < 1600, `in the window, without scrolling by hand: ${JSON.stringify(box)}`);
      assert.ok(Number(await link.evaluate('window.scrollY')) > 0, 'the page scrolled to it');
    } finally {
      await link.close();
    }
  });
});
