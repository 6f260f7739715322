// The inbox example (examples/inbox/) as its README runs it, in a real headless Chromium: the built
// server on SQLite with MARGINALIA_CORS_ORIGINS naming the example's origin, the example's own server
// (the customer's backend: it holds the server credentials and hands out end-user tokens), and two
// browser contexts signed in as two users of one organization. The page calls Marginalia itself with
// the browser bundle of the typed client and an end-user token: ben's comment reaches ana's open page
// from the stream, a notification to ana raises her badge, "Mark all read" brings it to 0, all without
// a reload. The same page served from an origin that is not allowed gets nothing. Screenshots go to
// test-artifacts/. Skips itself, saying why, where there is no Chromium (CI requires it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { ARTIFACTS, CHROMIUM, NEEDS_BROWSER } from '../helpers/browser.js';
import { startExample, type ExampleProcess } from '../helpers/example-process.js';
import { freePort, post, postBody, REPO, type ServerProcess, startServer, stopServer } from '../helpers/server-process.js';
import { type FreshDatabase, freshDatabase } from '../helpers/test-database.js';

const creds = { apiKey: 'inbox-example-key', authToken: 'inbox-example-token-0123456789' };
const ORG = 'acme';
const DOC = 'welcome';

/** A page, with the errors its scripts threw. */
type UserPage = Page & { errors: string[] };

describe('the inbox example in headless Chromium, two users live', { skip: NEEDS_BROWSER }, () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  let example: ExampleProcess;
  let elsewhere: ExampleProcess | undefined;
  let browser: Browser;
  let ana: UserPage;
  let ben: UserPage;

  const seed = async (path: string, data: unknown) => {
    const r = await post(server.url, `/v1/${path}`, creds, data);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.json.result;
  };
  /** A page of the example, signed in as `user`, in a browser context of its own (as another person's browser). */
  const open = async (origin: string, user: string): Promise<UserPage> => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 640 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto(`${origin}/?user=${user}&org=${ORG}&doc=${DOC}`);
    // Marks this load: gone if the page ever reloads.
    await page.evaluate(() => {
      (globalThis as { loadedOnce?: boolean }).loadedOnce = true;
    });
    return Object.assign(page, { errors });
  };
  const notReloaded = async (page: Page) =>
    assert.equal(
      await page.evaluate(() => (globalThis as { loadedOnce?: boolean }).loadedOnce),
      true,
      'the page was not reloaded',
    );
  const badge = (page: Page) => page.locator('#badge').textContent();

  before(async () => {
    // The page loads the client as the example's README builds it.
    execFileSync(process.execPath, [join(REPO, 'scripts/bundle-client.mjs')], { cwd: REPO, stdio: 'pipe' });
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    db = freshDatabase('sqlite');
    server = await startServer({
      env: {
        ...db.env,
        MARGINALIA_API_KEY: creds.apiKey,
        MARGINALIA_AUTH_TOKEN: creds.authToken,
        MARGINALIA_CORS_ORIGINS: origin,
      },
    });
    await seed('organizations/add', { organizations: [{ organizationId: ORG, organizationName: 'Acme' }] });
    await seed('users/add', {
      organizationId: ORG,
      users: [
        { userId: 'ana', name: 'Ana', email: 'ana@acme.example' },
        { userId: 'ben', name: 'Ben', email: 'ben@acme.example' },
      ],
    });
    await seed('organizations/documents/add', { organizationId: ORG, documents: [{ documentId: DOC, documentName: 'Welcome' }] });
    [example, browser] = await Promise.all([
      startExample({ port, marginaliaUrl: server.url, ...creds }),
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] }),
    ]);
    assert.equal(example.origin, origin);
    [ana, ben] = await Promise.all([open(origin, 'ana'), open(origin, 'ben')]);
    await Promise.all([
      ana.locator('body[data-stream="open"]').waitFor({ timeout: 10_000 }),
      ben.locator('body[data-stream="open"]').waitFor({ timeout: 10_000 }),
    ]);
  });
  after(async () => {
    await browser?.close();
    await Promise.all([example?.stop(), elsewhere?.stop(), server && stopServer(server)]);
    await db?.drop();
  });

  test("ben's comment arrives on ana's open page, as text", async () => {
    const text = 'Looks good <img src=x onerror="document.title=1"> to me';
    await ben.locator('#comment-text').fill(text);
    await ben.locator('#comment-form button[type=submit]').click();
    await ben.locator('#thread li', { hasText: 'Looks good' }).waitFor({ timeout: 10_000 });

    const arrived = ana.locator('#thread li', { hasText: 'Looks good' });
    await arrived.waitFor({ timeout: 10_000 });
    assert.equal(await arrived.locator('.text').textContent(), text, 'shown as text, not HTML');
    assert.equal(await ana.locator('#thread img').count(), 0, 'no element made of the comment');
    assert.match(String(await arrived.locator('.meta').textContent()), /^Ben · /, 'shown with its author');
    await notReloaded(ana);

    // And back: ana answers in the same thread, ben sees it.
    await ana.locator('#comment-text').fill('Thanks, Ben');
    await ana.locator('#comment-form button[type=submit]').click();
    await ben.locator('#thread li', { hasText: 'Thanks, Ben' }).waitFor({ timeout: 10_000 });
    const threads = await seed('commentannotations/get', { organizationId: ORG, documentId: DOC });
    assert.equal(threads.data.length, 1, `one thread: ${JSON.stringify(threads.data)}`);
    assert.deepEqual(
      threads.data[0].comments.map((c: { from: { userId: string } }) => c.from.userId),
      ['ben', 'ana'],
      'each comment is by the user whose token wrote it',
    );
    assert.deepEqual([...ana.errors, ...ben.errors], [], 'no error in the pages');
  });

  test('a notification to ana raises her badge live, and Mark all read brings it to 0', async () => {
    assert.equal(await badge(ana), '0');
    await seed('notifications/add', {
      organizationId: ORG,
      documentId: DOC,
      notificationId: 'n-mention-1',
      actionUser: { userId: 'ben' },
      displayHeadlineMessageTemplate: '{actionUser} mentioned you in Welcome',
      displayHeadlineMessageTemplateData: { actionUser: { userId: 'ben' } },
      notifyUsers: [{ userId: 'ana' }],
    });
    await ana.locator('#badge', { hasText: '1' }).waitFor({ timeout: 10_000 });
    assert.equal(await badge(ana), '1');
    const item = ana.locator('#inbox li.unread', { hasText: 'Ben mentioned you in Welcome' });
    await item.waitFor({ timeout: 10_000 });
    await notReloaded(ana);
    assert.equal(await badge(ben), '0', "ben's badge stays: it was not his");

    mkdirSync(ARTIFACTS, { recursive: true });
    await ana.screenshot({ path: join(ARTIFACTS, 'example-inbox.png'), fullPage: true });

    await ana.locator('#mark-read').click();
    await ana.locator('#badge', { hasText: '0' }).waitFor({ timeout: 10_000 });
    assert.equal(await badge(ana), '0');
    await ana.locator('#inbox li.unread').waitFor({ state: 'detached', timeout: 10_000 });
    const count = await seed('notifications/count/get', { organizationId: ORG, userId: 'ana' });
    assert.deepEqual(count.data, { total: 1, unread: 0 });
    await notReloaded(ana);
  });

  test('the page served from an origin that is not allowed gets nothing', async () => {
    elsewhere = await startExample({ port: 0, marginaliaUrl: server.url, ...creds });
    assert.notEqual(elsewhere.origin, example.origin);
    const page = await open(elsewhere.origin, 'ana');
    const error = page.locator('#error');
    await error.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(String(await error.textContent()), /UNAVAILABLE: No answer from/);
    assert.equal(await page.locator('#inbox li').count(), 0);
    assert.equal(await page.locator('#thread li').count(), 0);
    assert.equal(await page.locator('body').getAttribute('data-stream'), 'connecting');
    await page.screenshot({ path: join(ARTIFACTS, 'example-inbox-refused.png'), fullPage: true });

    // What the browser was refused, asked directly: the token is good, the origin is not.
    const { token } = (await (await fetch(`${elsewhere.origin}/token?user=ana&org=${ORG}`)).json()) as { token: string };
    const bearer = { authorization: `Bearer ${token}` };
    const allowed = await postBody(
      server.url,
      '/v1/notifications/count/get',
      { data: { organizationId: ORG, userId: 'ana' } },
      {
        ...bearer,
        origin: example.origin,
      },
    );
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.headers.get('access-control-allow-origin'), example.origin);
    const refused = await postBody(
      server.url,
      '/v1/notifications/count/get',
      { data: { organizationId: ORG, userId: 'ana' } },
      {
        ...bearer,
        origin: elsewhere.origin,
      },
    );
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    await page.context().close();
  });
});
