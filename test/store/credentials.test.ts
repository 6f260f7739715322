// The store conformance suite, credentials: tenants, API keys and auth tokens in the store, and the
// credentials version every change to them moves.
// Runs on the database MARGINALIA_TEST_STORE names (npm test: SQLite, then PostgreSQL).
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { AuthCache, authenticate, hashToken, tokenRecord } from '../../src/services/credentials.js';
import { TEST_STORE } from '../helpers/test-database.js';
import { T0, TA, TB, show, eq, nextTurn, sorted, tenant, storeTest, withSecondStore } from '../helpers/store-fixtures.js';

describe('credentials version', () => {
  storeTest('every change to keys and tokens moves the version, and reads do not', async (store) => {
    const versions = [await store.credentialsVersion()];
    const step = async (what: string, change: () => unknown) => {
      await change();
      const v = await store.credentialsVersion();
      assert.notEqual(v, versions[versions.length - 1], `${what} did not change the credentials version`);
      versions.push(v);
    };
    await step('createTenant', () => store.createTenant(tenant(TA, 'mk_key-a', T0), tokenRecord('mt_first-token', T0)));
    await step('addToken', () => store.addToken(TA, tokenRecord('mt_second-token', T0)));
    await step('revokeToken', () => store.revokeToken(TA, hashToken('mt_second-token'), T0));
    await step('setTenantDisabled', () => store.setTenantDisabled('mk_key-a', true));
    await step('revokeTenant', () => store.revokeTenant('mk_key-a', T0));
    const before = await store.credentialsVersion();
    await store.findCredentials('mk_key-a');
    await store.listTenants();
    await store.listTokens(TA);
    assert.equal(await store.credentialsVersion(), before, 'reads leave the version alone');
  });

  storeTest(
    'a key another store just made is admitted at once, even in a turn whose reads began before it',
    async (store, db) => {
      await withSecondStore(db, async (other) => {
        const cache = new AuthCache();
        // SQLite: a read in this turn begins the turn's shared snapshot; the key is made after it, in the same
        // turn (both stores answer synchronously), and checked at once.
        const turn = async (): Promise<unknown> => {
          if (TEST_STORE !== 'sqlite') {
            // PostgreSQL answers with promises: each step after the one before (a read sees every earlier commit).
            await store.countTenants();
            await other.createTenant(tenant(TB, 'mk_key-new', T0), tokenRecord('mt_token-new', T0));
            return authenticate(store, 'mk_key-new', 'mt_token-new', cache);
          }
          store.countTenants();
          other.createTenant(tenant(TB, 'mk_key-new', T0), tokenRecord('mt_token-new', T0));
          return authenticate(store, 'mk_key-new', 'mt_token-new', cache);
        };
        const admitted = (await turn()) as { id: string };
        eq(admitted.id, TB, 'the new key');
      });
    },
  );

  storeTest('a change made through another store on the same database is seen from the next turn on', async (store, db) => {
    const before = await store.credentialsVersion();
    await withSecondStore(db, (other) => other.createTenant(tenant(TB, 'mk_key-b', T0), tokenRecord('mt_token-b', T0)));
    await nextTurn();
    assert.notEqual(await store.credentialsVersion(), before);
  });
});

// ---------------------------------------------------------------------------------------------

describe(`${TEST_STORE} store: tenants and credentials`, () => {
  storeTest('createTenant stores the tenant with its first token; countTenants counts', async (store) => {
    eq(await store.countTenants(), 0, 'countTenants on an empty database');
    const token = tokenRecord('mt_first-token-of-a', T0);
    await store.createTenant(tenant(TA, 'mk_a', T0, 'Tenant A'), token);
    eq(await store.countTenants(), 1, 'countTenants after one createTenant');
    await store.createTenant(tenant(TB, 'mk_b', T0 + 5, 'Tenant B'), tokenRecord('mt_first-token-of-b', T0 + 5));
    eq(await store.countTenants(), 2, 'countTenants after two createTenant');
    eq(
      await store.findCredentials('mk_a'),
      {
        tenant: { id: TA, apiKey: 'mk_a', name: 'Tenant A', disabled: false, revoked: false, createdAt: T0 },
        activeTokenHashes: [hashToken('mt_first-token-of-a')],
      },
      'findCredentials of the new tenant',
    );
    eq(await store.listTokens(TA), [{ ...token, revoked: false }], 'listTokens of the new tenant');
  });

  storeTest('createTenant with an apiKey that is taken rejects and changes nothing', async (store) => {
    await store.createTenant(tenant(TA, 'mk_a', T0, 'first'), tokenRecord('mt_a', T0));
    await assert.rejects(async () => store.createTenant(tenant(TB, 'mk_a', T0 + 1, 'second'), tokenRecord('mt_b', T0 + 1)));
    eq(await store.countTenants(), 1, 'countTenants after the refused createTenant');
    const found = await store.findCredentials('mk_a');
    eq(found?.tenant.id, TA, 'tenant behind the key');
    eq(found?.activeTokenHashes, [hashToken('mt_a')], 'active hashes behind the key');
    eq(await store.listTokens(TB), [], 'tokens of the refused tenant');
  });

  storeTest('createFirstTenant creates only while there is no tenant: true once, false after', async (store) => {
    eq(await store.createFirstTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0)), true, 'first createFirstTenant');
    eq(await store.createFirstTenant(tenant(TB, 'mk_b'), tokenRecord('mt_b', T0)), false, 'second createFirstTenant');
    eq(await store.countTenants(), 1, 'countTenants');
    eq((await store.findCredentials('mk_a'))?.activeTokenHashes, [hashToken('mt_a')], 'the first tenant and its token');
    eq(await store.findCredentials('mk_b'), null, 'the refused tenant');
    eq(await store.listTokens(TB), [], 'tokens of the refused tenant');
  });

  storeTest('createFirstTenant is false when createTenant already made a tenant', async (store) => {
    await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
    eq(await store.createFirstTenant(tenant(TB, 'mk_b'), tokenRecord('mt_b', T0)), false, 'createFirstTenant');
    eq(await store.countTenants(), 1, 'countTenants');
    eq(await store.findCredentials('mk_b'), null, 'the refused tenant');
  });

  storeTest('createFirstTenant called at once from two stores on one database: exactly one returns true', async (store, db) => {
    await withSecondStore(db, async (other) => {
      const calls = [store, other, store, other].map((s, i) =>
        s.createFirstTenant(tenant(`tenant-${i}`, `mk_${i}`, T0 + i), tokenRecord(`mt_${i}`, T0 + i)),
      );
      const results = await Promise.all(calls);
      eq(results.filter((r) => r).length, 1, `number of true results in ${show(results)}`);
      const winner = results.indexOf(true);
      eq(await store.countTenants(), 1, 'countTenants');
      eq(await other.countTenants(), 1, 'countTenants seen by the other store');
      const listed = await store.listTenants();
      eq(
        listed.map((t) => t.apiKey),
        [`mk_${winner}`],
        'listTenants api keys',
      );
      eq(listed[0]?.tokens.length, 1, `tokens of the winner in ${show(listed)}`);
    });
  });

  storeTest('findCredentials: null for an unknown key; only the hashes of active tokens', async (store) => {
    eq(await store.findCredentials('mk_nobody'), null, 'findCredentials of an unknown key');
    await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_1', T0));
    await store.addToken(TA, tokenRecord('mt_2', T0 + 1));
    await store.addToken(TA, tokenRecord('mt_3', T0 + 2));
    eq(await store.revokeToken(TA, hashToken('mt_2'), T0 + 3), true, 'revokeToken');
    const found = await store.findCredentials('mk_a');
    eq(sorted(found?.activeTokenHashes ?? []), sorted([hashToken('mt_1'), hashToken('mt_3')]), 'active token hashes');
    eq(await store.findCredentials('MK_A'), null, 'findCredentials with the key in other case');
  });

  storeTest('listTenants lists every tenant with its token listings (prefix, createdAt, revoked)', async (store) => {
    eq(await store.listTenants(), [], 'listTenants of an empty database');
    const a1 = tokenRecord('mt_aaaaaaaaaaaaaaaa-1', T0);
    const a2 = tokenRecord('mt_AAAAAAAAAAAAAAAA-2', T0 + 10);
    const b1 = tokenRecord('mt_bbbbbbbbbbbbbbbb-1', T0 + 1);
    const c1 = tokenRecord('mt_cccccccccccccccc-1', T0 + 2);
    await store.createTenant(tenant(TA, 'mk_a', T0, 'A'), a1);
    await store.addToken(TA, a2);
    await store.revokeToken(TA, a1.hash, T0 + 20);
    await store.createTenant(tenant(TB, 'mk_b', T0 + 1, 'B'), b1);
    await store.setTenantDisabled('mk_b', true);
    await store.createTenant(tenant('tenant-c', 'mk_c', T0 + 2, 'C'), c1);
    await store.revokeTenant('mk_c', T0 + 30);
    const listed = (await store.listTenants())
      .map((t) => ({ ...t, tokens: [...t.tokens].sort((x, y) => x.createdAt - y.createdAt) }))
      .sort((x, y) => (x.apiKey < y.apiKey ? -1 : 1));
    eq(
      listed,
      [
        {
          id: TA,
          apiKey: 'mk_a',
          name: 'A',
          disabled: false,
          revoked: false,
          createdAt: T0,
          tokens: [
            { prefix: a1.prefix, createdAt: T0, revoked: true },
            { prefix: a2.prefix, createdAt: T0 + 10, revoked: false },
          ],
        },
        {
          id: TB,
          apiKey: 'mk_b',
          name: 'B',
          disabled: true,
          revoked: false,
          createdAt: T0 + 1,
          tokens: [{ prefix: b1.prefix, createdAt: T0 + 1, revoked: false }],
        },
        {
          id: 'tenant-c',
          apiKey: 'mk_c',
          name: 'C',
          disabled: false,
          revoked: true,
          createdAt: T0 + 2,
          tokens: [{ prefix: c1.prefix, createdAt: T0 + 2, revoked: false }],
        },
      ],
      'listTenants',
    );
  });

  storeTest('revokeTenant marks the tenant revoked; false for an unknown key', async (store) => {
    await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
    await store.createTenant(tenant(TB, 'mk_b'), tokenRecord('mt_b', T0));
    eq(await store.revokeTenant('mk_nobody', T0), false, 'revokeTenant of an unknown key');
    eq(await store.revokeTenant('mk_a', T0 + 1), true, 'revokeTenant');
    const a = await store.findCredentials('mk_a');
    eq(
      { revoked: a?.tenant.revoked, disabled: a?.tenant.disabled },
      { revoked: true, disabled: false },
      'flags of the revoked tenant',
    );
    eq(a?.activeTokenHashes, [hashToken('mt_a')], 'token hashes of the revoked tenant (the tenant flag is what counts)');
    eq(await store.revokeTenant('mk_a', T0 + 2), true, 'revokeTenant of a key that exists, again');
    eq((await store.findCredentials('mk_b'))?.tenant.revoked, false, 'the other tenant is not revoked');
    eq(await store.countTenants(), 2, 'countTenants (revoking removes nothing)');
  });

  storeTest('setTenantDisabled sets and clears disabled; false for an unknown key', async (store) => {
    await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
    await store.createTenant(tenant(TB, 'mk_b'), tokenRecord('mt_b', T0));
    eq(await store.setTenantDisabled('mk_nobody', true), false, 'setTenantDisabled of an unknown key');
    eq(await store.setTenantDisabled('mk_a', true), true, 'setTenantDisabled(true)');
    eq((await store.findCredentials('mk_a'))?.tenant.disabled, true, 'disabled after setTenantDisabled(true)');
    eq((await store.findCredentials('mk_b'))?.tenant.disabled, false, 'the other tenant');
    eq(await store.setTenantDisabled('mk_a', false), true, 'setTenantDisabled(false)');
    const a = await store.findCredentials('mk_a');
    eq(
      { disabled: a?.tenant.disabled, revoked: a?.tenant.revoked },
      { disabled: false, revoked: false },
      'flags after setTenantDisabled(false)',
    );
  });

  storeTest('addToken adds a token; the same hash again changes nothing', async (store) => {
    const first = tokenRecord('mt_first', T0);
    const second = tokenRecord('mt_second', T0 + 10);
    await store.createTenant(tenant(TA, 'mk_a'), first);
    await store.addToken(TA, second);
    await store.addToken(TA, second);
    await store.addToken(TA, { hash: second.hash, prefix: 'other', createdAt: T0 + 99 });
    const tokens = (await store.listTokens(TA)).sort((x, y) => x.createdAt - y.createdAt);
    eq(
      tokens,
      [
        { ...first, revoked: false },
        { ...second, revoked: false },
      ],
      'listTokens after adding the same hash three times',
    );
    eq(
      sorted((await store.findCredentials('mk_a'))?.activeTokenHashes ?? []),
      sorted([first.hash, second.hash]),
      'active hashes',
    );
  });

  storeTest(
    "listTokens lists the tenant's tokens with hash, prefix, createdAt and revoked; [] for an unknown tenant",
    async (store) => {
      const t1 = tokenRecord('mt_token-one', T0);
      const t2 = tokenRecord('mt_token-two', T0 + 1);
      const t3 = tokenRecord('mt_token-three', T0 + 2);
      await store.createTenant(tenant(TA, 'mk_a'), t1);
      await store.addToken(TA, t2);
      await store.addToken(TA, t3);
      await store.revokeToken(TA, t2.hash, T0 + 5);
      const tokens = (await store.listTokens(TA)).sort((x, y) => x.createdAt - y.createdAt);
      eq(
        tokens,
        [
          { ...t1, revoked: false },
          { ...t2, revoked: true },
          { ...t3, revoked: false },
        ],
        'listTokens',
      );
      eq(await store.listTokens('tenant-nobody'), [], 'listTokens of an unknown tenant');
    },
  );

  storeTest('revokeToken: true once, then false; false for an unknown hash', async (store) => {
    const t1 = tokenRecord('mt_one', T0);
    const t2 = tokenRecord('mt_two', T0 + 1);
    await store.createTenant(tenant(TA, 'mk_a'), t1);
    await store.addToken(TA, t2);
    eq(await store.revokeToken(TA, hashToken('mt_unknown'), T0 + 2), false, 'revokeToken of an unknown hash');
    eq(await store.revokeToken(TA, t1.hash, T0 + 2), true, 'revokeToken');
    eq(await store.revokeToken(TA, t1.hash, T0 + 3), false, 'revokeToken of a revoked token');
    eq((await store.findCredentials('mk_a'))?.activeTokenHashes, [t2.hash], 'active hashes after revoking one');
    eq((await store.listTokens(TA)).find((t) => t.hash === t1.hash)?.revoked, true, 'revoked flag in listTokens');
  });
});

// ---------------------------------------------------------------------------------------------
