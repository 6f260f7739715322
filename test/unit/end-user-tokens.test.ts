// End-user tokens (docs/api.md, "POST /v1/auth/token/get"): what issueEndUserToken signs and what
// verifyEndUserToken accepts, on a real store over a fresh database (the configured one). Every token that does not
// check out, whatever the reason, is refused UNAUTHENTICATED with the one message.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { ApiError } from '../../src/errors.js';
import { createTenant } from '../../src/services/credentials.js';
import type { Caller, Services } from '../../src/services/context.js';
import {
  END_USER_TOKEN_TTL_SECONDS,
  issueEndUserToken,
  issueResourceToken,
  verifyEndUserToken,
} from '../../src/services/end-user-tokens.js';
import type { Store } from '../../src/store/store.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';

const T0 = Date.UTC(2024, 5, 20, 9, 53, 42, 258);
let now = T0;
let db: FreshDatabase;
let store: Store;
let services: Services;
let a: Caller;
let b: Caller;

const callerOf = async (name: string): Promise<Caller> => {
  const creds = await createTenant(store, () => now, name);
  const found = await store.findCredentials(creds.apiKey);
  return { id: found!.tenant.id, apiKey: creds.apiKey };
};

before(async () => {
  db = freshDatabase();
  store = await db.open();
  // Only the store and the clock take part in tokens.
  services = { store, clock: () => now } as unknown as Services;
  a = await callerOf('tenant-a');
  b = await callerOf('tenant-b');
});
after(async () => {
  await store.close();
  await db.drop();
});

const issue = async (caller: Caller, userId = 'u1', props: Record<string, unknown> = {}) =>
  (await issueEndUserToken(services, caller, { userId, userProperties: { organizationId: 'org-1', ...props } })).token;

async function refused(token: string, what: string): Promise<void> {
  await assert.rejects(
    verifyEndUserToken(services, token),
    (err: unknown) => {
      assert.ok(err instanceof ApiError, `${what}: ${String(err)}`);
      assert.equal(err.code, 'UNAUTHENTICATED', what);
      assert.equal(err.message, 'The end-user token is invalid or expired.', what);
      return true;
    },
    what,
  );
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** A token with this header and payload, HMAC-SHA256 signed under `secret` (any alg the header claims). */
const forged = (header: object, payload: object, secret: Buffer | string) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
};
const secretOf = async (tenantId: string) => Buffer.from((await store.findSigningKey(tenantId))!.secret, 'hex');

describe('end-user tokens: issue and verify', () => {
  test('a token carries the claims, a kid, 48 hours of life, and verifies to them', async () => {
    const token = await issue(a, 'user-1', { email: 'u@x.y', name: 'U One', isAdmin: true });
    const header = decodeProtectedHeader(token);
    assert.equal(header.alg, 'HS256');
    assert.equal(header.typ, 'JWT');
    const key = await store.findSigningKey(a.id);
    assert.ok(key, 'the key was stored on first use');
    assert.equal(header.kid, key.kid);
    assert.match(key.secret, /^[0-9a-f]{64}$/, '32 random bytes');
    const claims = decodeJwt(token);
    const iat = Math.floor(T0 / 1000);
    assert.deepEqual(
      { ...claims, jti: undefined },
      {
        sub: 'user-1',
        tid: a.id,
        org: 'org-1',
        email: 'u@x.y',
        name: 'U One',
        isAdmin: true,
        iat,
        exp: iat + 48 * 3600,
        jti: undefined,
      },
    );
    assert.equal(END_USER_TOKEN_TTL_SECONDS, 48 * 3600);
    assert.match(String(claims.jti), /^[0-9a-f-]{36}$/);
    const verified = await verifyEndUserToken(services, token);
    assert.deepEqual(verified, {
      tenantId: a.id,
      userId: 'user-1',
      organizationId: 'org-1',
      email: 'u@x.y',
      name: 'U One',
      isAdmin: true,
      issuedAt: iat,
      expiresAt: iat + 48 * 3600,
      tokenId: claims.jti,
    });
  });

  test('optional properties are left out when not given or null; each token has its own jti; the key stays the same', async () => {
    const t1 = await issue(a, 'u2', { email: null });
    const t2 = await issue(a, 'u2');
    const c1 = decodeJwt(t1);
    assert.deepEqual(Object.keys(c1).sort(), ['exp', 'iat', 'jti', 'org', 'sub', 'tid']);
    assert.notEqual(c1.jti, decodeJwt(t2).jti);
    assert.equal(decodeProtectedHeader(t1).kid, decodeProtectedHeader(t2).kid);
    const v = await verifyEndUserToken(services, t1);
    assert.equal(v.email, undefined);
    assert.equal(v.isAdmin, undefined);
  });

  test('the key is made once per tenant and kept: another process (a cold cache) signs with the same one', async () => {
    const t1 = await issue(b);
    const other = await db.open();
    try {
      const otherServices = { store: other, clock: () => now } as unknown as Services;
      assert.equal((await verifyEndUserToken(otherServices, t1)).tenantId, b.id);
      const t2 = (await issueEndUserToken(otherServices, b, { userId: 'u', userProperties: { organizationId: 'o' } })).token;
      assert.equal(decodeProtectedHeader(t2).kid, decodeProtectedHeader(t1).kid);
      assert.equal((await verifyEndUserToken(services, t2)).tenantId, b.id);
    } finally {
      await other.close();
    }
    const rows = await db.query('SELECT tenant_id FROM tenant_signing_keys');
    assert.equal(rows.filter((r) => r.tenant_id === b.id).length, 1);
  });

  test('the two tenants have different secrets', async () => {
    await issue(a);
    await issue(b);
    assert.notDeepEqual(await secretOf(a.id), await secretOf(b.id));
  });
});

describe('end-user tokens: refused', () => {
  test('expired: valid until exp, refused from it on', async () => {
    const token = await issue(a);
    try {
      now = T0 + (END_USER_TOKEN_TTL_SECONDS - 1) * 1000;
      assert.equal((await verifyEndUserToken(services, token)).userId, 'u1');
      now = T0 + END_USER_TOKEN_TTL_SECONDS * 1000 + 1000;
      await refused(token, 'expired');
    } finally {
      now = T0;
    }
  });

  test('tampered: a changed payload, header or signature', async () => {
    const token = await issue(a, 'u1');
    const [h, p, s] = token.split('.') as [string, string, string];
    const claims = decodeJwt(token);
    await refused(`${h}.${b64({ ...claims, sub: 'someone-else' })}.${s}`, 'payload changed');
    await refused(`${h}.${b64({ ...claims, org: 'other-org' })}.${s}`, 'organization changed');
    await refused(`${h}.${b64({ ...claims, exp: (claims.exp as number) + 3600 })}.${s}`, 'life extended');
    await refused(`${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`, 'signature changed');
    await refused(`${h}.${p}.`, 'signature dropped');
    await refused(`${b64({ alg: 'HS256', typ: 'JWT', kid: 'other' })}.${p}.${s}`, 'header changed');
    for (const junk of ['', 'x', 'a.b.c', `${h}.${p}`, `${token}.x`, 'ey.ey.ey']) await refused(junk, `junk ${junk}`);
  });

  test("another tenant's secret: a token claiming tenant B signed with A's secret, and A's token rewritten to B", async () => {
    await issue(b);
    const aToken = await issue(a);
    const claims = decodeJwt(aToken);
    const header = decodeProtectedHeader(aToken);
    const bKid = (await store.findSigningKey(b.id))!.kid;
    const aSecret = await secretOf(a.id);
    await refused(forged({ ...header, kid: bKid }, { ...claims, tid: b.id }, aSecret), "claims B, A's secret, B's kid");
    await refused(forged(header, { ...claims, tid: b.id }, aSecret), "claims B, A's secret and kid");
    // The same forgery under B's own secret does verify: the check is the secret, not the claims.
    const good = forged({ ...header, kid: bKid }, { ...claims, tid: b.id }, await secretOf(b.id));
    assert.equal((await verifyEndUserToken(services, good)).tenantId, b.id);
  });

  test('alg none, and any alg but HS256 (even with the right secret)', async () => {
    const token = await issue(a);
    const claims = decodeJwt(token);
    const kid = decodeProtectedHeader(token).kid;
    const none = new UnsecuredJWT(claims).encode();
    await refused(none, 'alg none (jose)');
    const [, p] = token.split('.') as [string, string];
    await refused(`${b64({ alg: 'none', typ: 'JWT', kid })}.${p}.`, 'alg none with the kid');
    const secret = await secretOf(a.id);
    await refused(forged({ alg: 'HS384', typ: 'JWT', kid }, claims, secret), 'HS384 header');
    const hs512 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS512', kid: kid! })
      .sign(new Uint8Array(Buffer.concat([secret, secret])));
    await refused(hs512, 'HS512');
    await refused(forged({ alg: 'RS256', typ: 'JWT', kid }, claims, secret), 'RS256 header');
  });

  test('an unknown tenant, a tenant without a key, and no tid at all', async () => {
    const token = await issue(a);
    const claims = decodeJwt(token);
    const header = decodeProtectedHeader(token);
    const secret = await secretOf(a.id);
    await refused(forged(header, { ...claims, tid: 'no-such-tenant' }, secret), 'unknown tenant');
    const c = await callerOf('tenant-c');
    await refused(forged(header, { ...claims, tid: c.id }, secret), 'a tenant that never issued a token');
    const { tid: _, ...noTid } = claims;
    await refused(forged(header, noTid, secret), 'no tid');
    await refused(forged(header, { ...claims, tid: 42 }, secret), 'a tid that is not a string');
  });

  test('a token missing a claim it must carry, even correctly signed', async () => {
    const token = await issue(a);
    const claims = decodeJwt(token);
    const header = decodeProtectedHeader(token);
    const secret = await secretOf(a.id);
    for (const claim of ['sub', 'org', 'exp', 'iat', 'jti']) {
      const { [claim]: _, ...rest } = claims;
      await refused(forged(header, rest, secret), `without ${claim}`);
    }
    assert.equal((await verifyEndUserToken(services, forged(header, claims, secret))).userId, 'u1', 'the forger itself is right');
  });
});

describe("v2's token: the resources it names (the res claim)", () => {
  const resources = [
    { type: 'document', id: 'd1', organizationId: 'org-2', accessRole: 'viewer', expiresAt: 1640995200 },
    { type: 'organization', id: 'org-1', organizationId: 'ignored' },
    { type: 'folder', id: 'f1', organizationId: 'org-1', accessRole: null, expiresAt: null },
  ] as const;
  const issueV2 = async () =>
    (
      await issueResourceToken(services, a, {
        userId: 'u1',
        userProperties: { name: 'U', email: 'u@x.y' },
        permissions: { resources: resources.map((r) => ({ ...r })) },
      })
    ).token;
  const held = [
    { type: 'document', id: 'd1', organizationId: 'org-2', accessRole: 'viewer', expiresAt: 1640995200 },
    { type: 'organization', id: 'org-1', accessRole: 'editor' },
    { type: 'folder', id: 'f1', organizationId: 'org-1', accessRole: 'editor' },
  ];

  test("roles resolved (editor by default), an organization's own id, the first resource's organization", async () => {
    const token = await issueV2();
    const claims = decodeJwt(token);
    assert.deepEqual(claims.res, held);
    assert.equal(claims.org, 'org-2');
    const verified = await verifyEndUserToken(services, token);
    assert.deepEqual(verified.resources, held);
    assert.equal(verified.organizationId, 'org-2');
    assert.equal((await verifyEndUserToken(services, await issue(a))).resources, undefined, 'a v1 token names none');
  });

  test('a res claim that issuing never writes is refused, even correctly signed', async () => {
    const token = await issueV2();
    const claims = decodeJwt(token);
    const header = decodeProtectedHeader(token);
    const secret = await secretOf(a.id);
    const bad: [string, unknown][] = [
      ['not an array', { type: 'organization', id: 'o', accessRole: 'editor' }],
      ['empty', []],
      ['an entry that is no object', ['o']],
      ['an unknown type', [{ type: 'workspace', id: 'o', accessRole: 'editor' }]],
      ['no id', [{ type: 'organization', accessRole: 'editor' }]],
      ['no role', [{ type: 'organization', id: 'o' }]],
      ['an unknown role', [{ type: 'organization', id: 'o', accessRole: 'owner' }]],
      ['a document without its organization', [{ type: 'document', id: 'd', accessRole: 'viewer' }]],
      ['an organization naming another', [{ type: 'organization', id: 'o', organizationId: 'p', accessRole: 'viewer' }]],
      ['an expiry that is no whole number', [{ type: 'organization', id: 'o', accessRole: 'viewer', expiresAt: '1' }]],
    ];
    for (const [what, res] of bad) await refused(forged(header, { ...claims, res }, secret), what);
    assert.deepEqual((await verifyEndUserToken(services, forged(header, claims, secret))).resources, held, 'the forger is right');
  });
});
