// GET /email/unsubscribe (docs/api.md, "GET /email/unsubscribe"), on the configured database: a good token sets the
// user's email setting in the organization (its own and every document's) to NONE without credentials and answers a
// page; the one-click POST does the same; a changed, cut, foreign or expired token is refused with a page that says
// so, and changes nothing; a user without a profile there is 404.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signUnsubscribe, newUnsubscribeSecret } from '../../src/email/unsubscribe.js';
import { makeTestApp, PATHS, type TestApp } from '../helpers/app.js';

let t: TestApp;
let tenantA: string;
let tenantB: string;
before(async () => {
  t = await makeTestApp();
  tenantA = (await t.store.findCredentials(t.a.creds.apiKey))!.tenant.id;
  tenantB = (await t.store.findCredentials(t.b.creds.apiKey))!.tenant.id;
});
after(async () => t.close());

const DAY = 86_400_000;
const page = (token: string, method = 'GET') =>
  t.request(`/email/unsubscribe?token=${encodeURIComponent(token)}`, {
    method,
    headers: {},
    raw: method === 'POST' ? 'List-Unsubscribe=One-Click' : undefined,
  });
const emailSetting = async (org: string, userId: string, documentId: string) =>
  (await t.a.ok(PATHS.notificationsConfigGet, { organizationId: org, userId, documentIds: [documentId] })).data[0].config.email;

async function userWithSettings(org: string, userId: string) {
  await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId, email: `${userId}@example.com` }] });
  await t.a.ok(PATHS.notificationsConfigSet, {
    organizationId: org,
    documentIds: ['d1'],
    userIds: [userId],
    config: { email: 'ALL', inbox: 'ALL' },
  });
}

async function tokenFor(tenantId: string, org: string, userId: string, expiresAt = Date.now() + DAY) {
  const secret = await t.store.emailSecret(tenantId, newUnsubscribeSecret(), Date.now());
  return signUnsubscribe({ tenantId, organizationId: org, userId, expiresAt }, secret);
}

describe('email unsubscribe links', () => {
  test('a good link sets NONE for the organization and every document, without credentials, and answers a page', async () => {
    await userWithSettings('unsub-1', 'bob');
    const r = await page(await tokenFor(tenantA, 'unsub-1', 'bob'));
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.match(String(r.headers['content-security-policy']), /default-src 'none'/);
    assert.match(r.body, /You are unsubscribed/);
    assert.match(r.body, /unsub-1/);
    assert.equal(await emailSetting('unsub-1', 'bob', 'd1'), 'NONE', "the document's own setting");
    assert.equal(await emailSetting('unsub-1', 'bob', 'other'), 'NONE', "the organization's, for documents without one");
    // The inbox setting is left as it was.
    const got = await t.a.ok(PATHS.notificationsConfigGet, { organizationId: 'unsub-1', userId: 'bob', documentIds: ['d1'] });
    assert.equal(got.data[0].config.inbox, 'ALL');
    // Following it again is fine (the same answer).
    assert.equal((await page(await tokenFor(tenantA, 'unsub-1', 'bob'))).status, 200);
  });

  test('the one-click POST (List-Unsubscribe-Post) does the same', async () => {
    await userWithSettings('unsub-2', 'cy');
    const r = await page(await tokenFor(tenantA, 'unsub-2', 'cy'), 'POST');
    assert.equal(r.status, 200, r.body);
    assert.equal(await emailSetting('unsub-2', 'cy', 'd1'), 'NONE');
  });

  test('changed, cut, foreign-key and expired tokens are refused and change nothing; an unknown user is 404', async () => {
    await userWithSettings('unsub-3', 'dee');
    const good = await tokenFor(tenantA, 'unsub-3', 'dee');
    const [v, payload, signature] = good.split('.') as [string, string, string];
    // Another user in the same payload shape, signed by nobody: the signature no longer matches.
    const forged = Buffer.from(JSON.stringify({ t: tenantA, o: 'unsub-3', u: 'eve', x: Date.now() + DAY })).toString('base64url');
    const cases: [string, number, RegExp][] = [
      [`${v}.${forged}.${signature}`, 400, /not valid/],
      [`${v}.${payload}.${signature.slice(0, -2)}`, 400, /not valid/],
      [`${v}.${payload}`, 400, /not valid/],
      ['', 400, /not valid/],
      ['u1.%%%.***', 400, /not valid/],
      // Signed with tenant b's key while naming tenant a.
      [
        signUnsubscribe(
          { tenantId: tenantA, organizationId: 'unsub-3', userId: 'dee', expiresAt: Date.now() + DAY },
          await t.store.emailSecret(tenantB, newUnsubscribeSecret(), Date.now()),
        ),
        400,
        /not valid/,
      ],
      [await tokenFor(tenantA, 'unsub-3', 'dee', Date.now() - 1), 410, /expired/],
    ];
    for (const [token, status, text] of cases) {
      const r = await page(token);
      assert.equal(r.status, status, token);
      assert.match(r.body, text);
    }
    const none = await t.request('/email/unsubscribe', { method: 'GET', headers: {} });
    assert.equal(none.status, 400);
    assert.equal(await emailSetting('unsub-3', 'dee', 'd1'), 'ALL', 'nothing changed');
    const unknown = await page(await tokenFor(tenantA, 'unsub-3', 'nobody'));
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /not known/);
  });

  test("the page's text is escaped: an organization id with markup stays text", async () => {
    const org = 'unsub-<b>4</b>';
    await userWithSettings(org, 'fay');
    const r = await page(await tokenFor(tenantA, org, 'fay'));
    assert.equal(r.status, 200);
    assert.ok(r.body.includes('unsub-&lt;b&gt;4&lt;/b&gt;'));
    assert.ok(!r.body.includes('<b>4'));
  });
});
