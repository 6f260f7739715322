// The admin console (docs/operations.md, "Admin console"), in process on the test database: off without its token;
// the login, the session cookie and its flags; refusals without a session and without the form's CSRF token; every
// page answering; and each action doing what it says, seen through the API or the store.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AdminSessions } from '../../src/admin/session.js';
import { WebhookWorker } from '../../src/webhooks/worker.js';
import { makeTestApp, notificationData, PATHS, type Reply, type TestApp } from '../helpers/app.js';
import { say } from '../helpers/threads.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const TOKEN = 'admin-token-for-tests-0123456789abcdef';
const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const csrfOf = (page: string) =>
  /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? assert.fail(`no CSRF field in ${page.slice(0, 300)}`);
const decoded = (text: string) => text.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");

describe('admin console: off without MARGINALIA_ADMIN_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp();
  });
  after(async () => t.close());

  test('every /admin path is the API 404', async () => {
    for (const [method, path] of [
      ['GET', '/admin'],
      ['GET', '/admin/tenants'],
      ['POST', '/admin/login'],
      ['GET', '/admin/admin.css'],
    ] as const) {
      const r = await t.request(path, { method, raw: method === 'POST' ? `token=${TOKEN}` : undefined });
      assert.equal(r.status, 404, `${method} ${path}: ${r.body}`);
      assert.equal(r.json?.error?.status, 'NOT_FOUND');
    }
  });
});

describe('admin console', () => {
  let t: TestApp;
  let receiver: Receiver;
  let cookie = '';
  let csrf = '';
  before(async () => {
    t = await makeTestApp({ config: { adminToken: TOKEN, adminSessionHours: 12, webhookAllowPrivate: true } });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  const login = (token: string, headers: Record<string, string> = {}) =>
    t.request('/admin/login', {
      raw: form({ token }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const get = (path: string, withCookie = cookie) =>
    t.request(path, { method: 'GET', headers: withCookie ? { cookie: withCookie } : {} });
  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.request(path, {
      raw: form({ csrf, ...fields }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
    });
  const page = (r: Reply, status = 200) => {
    assert.equal(r.status, status, r.body.slice(0, 800));
    assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(r.headers['content-security-policy'], CSP);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.doesNotMatch(r.body, /\bat \S+\.(ts|js):\d+/, 'no stack trace');
    return decoded(r.body);
  };

  test('a wrong token is refused: 401, the login page again, no cookie', async () => {
    for (const wrong of ['', 'nope', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const r = await login(wrong);
      assert.match(page(r, 401), /That is not the admin token/);
      assert.equal(r.headers['set-cookie'], undefined);
    }
  });

  test('the token logs in: a session cookie, HttpOnly, SameSite=Strict, Path=/admin, expiring; Secure behind TLS', async () => {
    const r = await login(TOKEN);
    assert.equal(r.status, 303, r.body);
    assert.equal(r.headers.location, '/admin');
    const set = String(r.headers['set-cookie']);
    assert.match(set, /^marginalia_admin=[\w-]+\.[\w-]+\.[\w-]+; /);
    for (const flag of ['HttpOnly', 'SameSite=Strict', 'Path=/admin', 'Max-Age=43200'])
      assert.ok(set.includes(`; ${flag}`), `${flag}: ${set}`);
    assert.ok(!set.includes('Secure'), `plain HTTP: not Secure: ${set}`);
    cookie = set.split(';')[0]!;
    const tls = String((await login(TOKEN, { 'x-forwarded-proto': 'https' })).headers['set-cookie']);
    assert.ok(tls.includes('; Secure'), `over TLS: Secure: ${tls}`);
    csrf = csrfOf(page(await get('/admin')));
  });

  test('without a valid session every page and action is refused with the login page', async () => {
    const otherToken = await new AdminSessions(`${TOKEN}-rotated`, 12).open(Date.now());
    const expired = await new AdminSessions(TOKEN, 1).open(Date.now() - 2 * 3_600_000);
    for (const bad of [
      '',
      'marginalia_admin=forged.value.here',
      `marginalia_admin=${otherToken.value}`,
      `marginalia_admin=${expired.value}`,
    ]) {
      for (const path of ['/admin', '/admin/tenants', `/admin/tenants/x/organizations`]) {
        const r = await get(path, bad);
        assert.match(page(r, 401), /name="token"/, `${path} with ${bad.slice(0, 30)}`);
      }
      const r = await t.request('/admin/tenants', {
        raw: form({ name: 'sneaky', csrf }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(bad ? { cookie: bad } : {}) },
      });
      page(r, 401);
    }
    assert.ok(!(await t.store.listTenants()).some((x) => x.name === 'sneaky'), 'no tenant made');
  });

  test("a post without the CSRF token, with another session's, or from another origin is refused (403) and does nothing", async () => {
    const other = await login(TOKEN);
    const otherCsrf = csrfOf(decoded((await get('/admin', String(other.headers['set-cookie']).split(';')[0])).body));
    assert.notEqual(otherCsrf, csrf, 'each session has its own');
    assert.match(page(await post('/admin/tenants', { name: 'csrf-1', csrf: '' }), 403), /CSRF/);
    assert.match(page(await post('/admin/tenants', { name: 'csrf-2', csrf: otherCsrf }), 403), /CSRF/);
    page(await post('/admin/tenants', { name: 'csrf-3' }, { origin: 'https://evil.example' }), 403);
    const names = (await t.store.listTenants()).map((x) => x.name);
    for (const n of ['csrf-1', 'csrf-2', 'csrf-3']) assert.ok(!names.includes(n), n);
  });

  test('tenants: create one (its key and token shown once, and they work), new token, revoke a token, revoke the key', async () => {
    const hostile = page(await post('/admin/tenants', { name: '<script>alert(1)</script>' }));
    assert.ok(!hostile.includes('<script>') && hostile.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'a name is escaped');
    const made = page(await post('/admin/tenants', { name: 'console-made' }));
    assert.match(made, /Tenant console-made created/);
    const apiKey = /API key: <span class="secret" data-secret>([^<]+)</.exec(made)![1]!;
    const authToken = /Auth token: <span class="secret" data-secret>([^<]+)</.exec(made)![1]!;
    const headers = { 'x-service-api-key': apiKey, 'x-service-auth-token': authToken };
    assert.equal(
      (await t.request(PATHS.organizationsGet, { body: { data: {} }, headers })).status,
      200,
      'the new credentials work',
    );
    const tenant = (await t.store.listTenants()).find((x) => x.apiKey === apiKey)!;
    const base = `/admin/tenants/${tenant.id}`;
    const issued = page(await post(`${base}/tokens`, {}));
    const second = /Auth token: <span class="secret" data-secret>([^<]+)</.exec(issued)![1]!;
    assert.notEqual(second, authToken);
    assert.ok(!page(await get('/admin/tenants')).includes(second), 'a token is shown only on the answer that made it');
    page(await post(`${base}/tokens/revoke`, { prefix: authToken.slice(0, 8) }));
    assert.equal(
      (await t.request(PATHS.organizationsGet, { body: { data: {} }, headers })).status,
      401,
      'the old token is refused',
    );
    const h2 = { ...headers, 'x-service-auth-token': second };
    assert.equal((await t.request(PATHS.organizationsGet, { body: { data: {} }, headers: h2 })).status, 200, 'the new one works');
    assert.match(page(await post(`${base}/tokens/revoke`, { prefix: 'zz' }), 400), /at least 4 characters/);
    assert.match(page(await post(`${base}/signing-key`, {})), /has issued no end-user token yet/);
    assert.match(page(await post(`${base}/revoke`, {})), /API key of console-made revoked/);
    assert.equal(
      (await t.request(PATHS.organizationsGet, { body: { data: {} }, headers: h2 })).status,
      401,
      'the key is refused',
    );
    assert.match(page(await post('/admin/tenants/no-such/tokens', {}), 404), /No tenant no-such/);
  });

  test('content pages answer, and moderation deletes a comment and a thread through the services', async () => {
    const where = { organizationId: 'acme', documentId: 'spec' };
    await t.a.ok(PATHS.annotationsAdd, {
      ...where,
      commentAnnotations: [
        { annotationId: 't1', commentData: [say('Keep this <b>one</b>', 'ann'), say('Remove this spam', 'bob')] },
        { annotationId: 't2', commentData: [say('Whole thread to go', 'bob')] },
      ],
    });
    const tenant = (await t.store.listTenants()).find((x) => x.apiKey === t.a.creds.apiKey)!;
    const base = `/admin/tenants/${tenant.id}/organizations`;
    assert.match(page(await get(base)), /href="[^"]+\/organizations\/acme"/);
    const many = Array.from({ length: 55 }, (_, i) => ({ organizationId: `org-${String(i).padStart(2, '0')}` }));
    await t.a.ok(PATHS.organizationsAdd, { organizations: many });
    const first = page(await get(base));
    const next = /<a href="([^"]+)">Next page<\/a>/.exec(first)?.[1] ?? assert.fail('a next page');
    const second = page(await get(next));
    assert.ok(first.includes('>org-00<') && !first.includes('>org-54<'), 'the first page');
    assert.ok(second.includes('>org-54<') && !second.includes('>org-00<'), 'the next page');
    assert.match(page(await get(`${base}/acme`)), /documents\/spec/);
    const threads = page(await get(`${base}/acme/documents/spec`));
    assert.ok(threads.includes('Keep this &lt;b>one&lt;/b>') || threads.includes('Keep this &lt;b&gt;one&lt;/b&gt;'), 'escaped');
    assert.match(threads, /Remove this spam/);
    assert.match(page(await get(`${base}/acme/search?q=spam`)), /<mark>spam<\/mark>/);
    page(await get(`${base}/acme/notifications?user=ann`));
    page(await get(`${base}/acme/notifications`));
    const comments = async () =>
      (await t.a.ok(PATHS.commentsGet, { ...where, annotationId: 't1' })).data.map((c: { commentText: string }) => c.commentText);
    const ids = (await t.a.ok(PATHS.commentsGet, { ...where, annotationId: 't1' })).data.map(
      (c: { commentId: number }) => c.commentId,
    );
    const moderated = page(await post(`${base}/acme/documents/spec/threads/t1/comments/${ids[1]}/delete`, {}));
    assert.match(moderated, /Comment \d+ of thread t1 deleted/);
    assert.deepEqual(await comments(), ['Keep this <b>one</b>']);
    assert.match(page(await post(`${base}/acme/documents/spec/threads/t2/delete`, {})), /Thread t2 deleted/);
    const left = (await t.a.ok(PATHS.annotationsGet, where)).data.map((x: { annotationId: string }) => x.annotationId);
    assert.deepEqual(left, ['t1']);
    assert.match(page(await post(`${base}/acme/documents/spec/threads/t9/delete`, {}), 400), /not found/i);
    assert.match(page(await get(`/admin/tenants/${tenant.id}/organizations/acme/search?q=${'x'.repeat(5000)}`), 400), /./);
  });

  test('erasure jobs: listed newest first per tenant, and found by id with their state; an unknown one says so', async () => {
    const tenant = (await t.store.listTenants()).find((x) => x.apiKey === t.a.creds.apiKey)!;
    const { jobId } = (await t.a.ok(PATHS.userDataDelete, { userIds: ['bob'] })).data;
    assert.match(page(await get(`/admin/tenants/${tenant.id}/erasure?job=${jobId}`)), /complete/);
    assert.match(page(await get(`/admin/tenants/${tenant.id}/erasure?job=nope`), 404), /does not exist/);
    const { jobId: second } = (await t.a.ok(PATHS.userDataDelete, { userIds: ['ann'] })).data;
    const listed = page(await get(`/admin/tenants/${tenant.id}/erasure`));
    const order = [...listed.matchAll(/job=([\w-]+)"/g)].map((m) => m[1]);
    assert.deepEqual(order, [second, jobId], 'every job of the tenant, newest first');
    const other = (await t.store.listTenants()).find((x) => x.apiKey === t.b.creds.apiKey)!;
    assert.doesNotMatch(page(await get(`/admin/tenants/${other.id}/erasure`)), /job=/, "another tenant's jobs are not listed");
  });

  test('webhooks: endpoints, their attempts; replay one delivery, recover the failed ones since a time', async () => {
    const tenant = (await t.store.listTenants()).find((x) => x.apiKey === t.a.creds.apiKey)!;
    const { webhookId } = (await t.a.ok(PATHS.webhooksAdd, { url: receiver.url })).data;
    receiver.answer = () => 500;
    const worker = new WebhookWorker({
      store: t.store,
      allowPrivate: true,
      timeoutMs: 2000,
      retryScheduleMs: [],
      concurrency: 4,
      pollMs: 20,
    });
    worker.start();
    try {
      await t.a.ok(PATHS.notificationsAdd, notificationData('acme', { notificationId: 'wn1' }));
      await receiver.until(() => receiver.received.length >= 1, 10_000, 'the first attempt');
      const at = `/admin/tenants/${tenant.id}/webhooks`;
      assert.ok(page(await get(at)).includes(webhookId));
      let deliveries = '';
      for (const deadline = Date.now() + 10_000; !/>failed</.test(deliveries); ) {
        assert.ok(Date.now() < deadline, `a failed attempt is listed: ${deliveries}`);
        deliveries = page(await get(`${at}/${webhookId}`));
      }
      const eventId = /name="eventId" value="(\d+)"/.exec(deliveries)![1]!;
      receiver.answer = () => 200;
      const seen = receiver.received.length;
      assert.match(page(await post(`${at}/${webhookId}/replay`, { eventId })), new RegExp(`Event ${eventId} will be sent again`));
      await receiver.until(() => receiver.received.length > seen, 10_000, 'the replayed delivery');
      receiver.answer = () => 500;
      await t.a.ok(PATHS.notificationsAdd, notificationData('acme', { notificationId: 'wn2' }));
      await receiver.until(() => receiver.received.length > seen + 1, 10_000, 'the second event, failed');
      await new Promise((r) => setTimeout(r, 200));
      receiver.answer = () => 200;
      const since = new Date(Date.now() - 60_000).toISOString().slice(0, 16);
      assert.match(page(await post(`${at}/${webhookId}/recover`, { since })), /1 failed deliveries since/);
      await receiver.until(() => receiver.received.length > seen + 2, 10_000, 'the recovered delivery');
      assert.match(page(await post(`${at}/${webhookId}/replay`, { eventId: '99999999' }), 404), /no delivery of event/);
      assert.match(page(await post(`${at}/${webhookId}/recover`, { since: 'yesterday' }), 400), /YYYY-MM-DD/);
    } finally {
      await worker.stop();
    }
  });

  test('the health page shows the database, the metrics and a chart; the stylesheet is served; logout ends the cookie', async () => {
    const health = page(await get('/admin'));
    assert.match(health, /Database<\/th><td>answering/);
    assert.match(health, /<svg class="chart"/);
    const css = await get('/admin/admin.css', '');
    assert.equal(css.status, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
    const out = await post('/admin/logout', {});
    assert.equal(out.status, 303);
    assert.match(String(out.headers['set-cookie']), /^marginalia_admin=; Path=\/admin; Max-Age=0; HttpOnly; SameSite=Strict/);
  });
});
