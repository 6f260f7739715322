// The authentication cache: a hit skips the credential lookup, and any change to any credential,
// by any process, empties it before the next check (docs/api.md, "Credentials": a revoked token fails on the next
// request).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthCache, authenticate, createTenant, tokenRecord } from '../../src/services/credentials.js';
import type { Store } from '../../src/store/store.js';
import { freshDatabase } from '../helpers/test-database.js';

/** Counts findCredentials calls on a real store. */
function counting(store: Store) {
  let lookups = 0;
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'findCredentials')
        return (apiKey: string) => {
          lookups++;
          return target.findCredentials(apiKey);
        };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store: proxy, lookups: () => lookups };
}

test('hits skip the lookup; a revocation, a new token or a disabled tenant is seen on the next check', async () => {
  const db = freshDatabase();
  const real = await db.open();
  try {
    const { store, lookups } = counting(real);
    const cache = new AuthCache();
    const creds = await createTenant(real, Date.now, 'acme');
    const other = await createTenant(real, Date.now, 'other');

    await authenticate(store, creds.apiKey, creds.authToken, cache);
    await authenticate(store, creds.apiKey, creds.authToken, cache);
    await authenticate(store, creds.apiKey, creds.authToken, cache);
    assert.equal(lookups(), 1, 'two of three checks were served from the cache');

    await assert.rejects(async () => authenticate(store, creds.apiKey, 'wrong-token', cache), { code: 'UNAUTHENTICATED' });
    await assert.rejects(async () => authenticate(store, creds.apiKey, 'wrong-token', cache), { code: 'UNAUTHENTICATED' });
    assert.equal(lookups(), 3, 'failures are never cached');

    const tenantId = (await real.findCredentials(creds.apiKey))!.tenant.id;
    await real.revokeToken(tenantId, tokenRecord(creds.authToken, 0).hash, Date.now());
    await assert.rejects(async () => authenticate(store, creds.apiKey, creds.authToken, cache), { code: 'UNAUTHENTICATED' });

    await authenticate(store, other.apiKey, other.authToken, cache);
    await real.setTenantDisabled(other.apiKey, true);
    await assert.rejects(async () => authenticate(store, other.apiKey, other.authToken, cache), { code: 'PERMISSION_DENIED' });
  } finally {
    await real.close();
    await db.drop();
  }
});

test('bootstrap credentials never undo a revocation, of the key or of the token', async () => {
  const { ensureBootstrapCredentials, hashToken } = await import('../../src/services/credentials.js');
  const db = freshDatabase();
  const store = await db.open();
  try {
    const creds = { apiKey: 'boot-key', authToken: 'boot-token-0123456789' };
    assert.equal(await ensureBootstrapCredentials(store, Date.now, creds), 'created');
    assert.equal(await ensureBootstrapCredentials(store, Date.now, creds), 'present');
    const tenantId = (await store.findCredentials(creds.apiKey))!.tenant.id;
    await store.revokeToken(tenantId, hashToken(creds.authToken), Date.now());
    assert.equal(await ensureBootstrapCredentials(store, Date.now, creds), 'token_revoked');
    await assert.rejects(async () => authenticate(store, creds.apiKey, creds.authToken), { code: 'UNAUTHENTICATED' });
    assert.equal(
      await ensureBootstrapCredentials(store, Date.now, { ...creds, authToken: 'another-token-0123456789' }),
      'token_added',
    );
    await store.revokeTenant(creds.apiKey, Date.now());
    assert.equal(await ensureBootstrapCredentials(store, Date.now, creds), 'revoked');
  } finally {
    await store.close();
    await db.drop();
  }
});
