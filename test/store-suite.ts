// The Store conformance suite: one set of tests of the storage interface (src/store/store.ts), run
// unchanged against SQLite and PostgreSQL. Every test gets a fresh, migrated database of its own,
// closed and dropped afterwards, so tests never see each other's data. Nothing here branches on the
// store's kind: where the two stores differ, a test fails on one of them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assignCommentIds } from '../src/services/comments.js';
import { hashToken, tokenRecord } from '../src/services/credentials.js';
import { openStore } from '../src/store/open-store.js';
import {
  StoreUnavailableError,
  type AddCommentsResult,
  type CommentDraft,
  type CommentIdAssigner,
  type CommentQuery,
  type NewAnnotation,
  type NewComment,
  type NewNotification,
  type NotificationCursor,
  type NotificationQuery,
  type Profile,
  type Store,
  type StoredComment,
  type StoredNotification,
  type Tenant,
  type TokenRecord,
  type UserWrite,
} from '../src/store/store.js';
import { freshDatabase, type FreshDatabase, type StoreKind } from './test-database.js';

/** 2024-06-20T09:53:42.258Z, the seed's example moment. */
const T0 = Date.UTC(2024, 5, 20, 9, 53, 42, 258);
const TA = 'tenant-a';
const TB = 'tenant-b';
const ORG = 'org-1';
const DOC = 'doc-1';
const MAX_ID = 2_147_483_647;
/** UserWrite fields are typed `string | undefined`; callers in JavaScript may still pass null. */
const NULL = null as unknown as undefined;

// --- Assertion helpers: every failure message carries the actual value. ---

function show(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Map) return { '<Map>': [...v.entries()] };
    if (v instanceof Set) return { '<Set>': [...v] };
    if (v === undefined) return '<undefined>';
    return v;
  });
}

function eq<T>(actual: T, expected: T, what: string): void {
  assert.deepStrictEqual(actual, expected, `${what}\n  expected: ${show(expected)}\n  actual:   ${show(actual)}`);
}

const sorted = (items: Iterable<string>): string[] => [...items].sort();

/** Code unit order, descending (for ASCII ids the same as byte order). */
const idDesc = (x: string, y: string): number => (x < y ? 1 : x > y ? -1 : 0);

// --- Builders ---

function tenant(id: string, apiKey: string, createdAt = T0, name = `name of ${id}`): Omit<Tenant, 'disabled' | 'revoked'> {
  return { id, apiKey, name, createdAt };
}

function newComment(
  commentId: number,
  text: string,
  userId = 'u1',
  name: string | null = null,
  email: string | null = null,
): NewComment {
  return { commentId, html: `<p>${text}</p>`, text, from: { userId, name, email } };
}

function draft(text: string, commentId?: number, userId = 'u1'): CommentDraft {
  return { commentId, html: `<p>${text}</p>`, text, from: { userId, name: `Name ${userId}`, email: null } };
}

function annotation(annotationId: string, comments: NewComment[]): NewAnnotation {
  return {
    annotationId,
    location: { page: 1 },
    locationId: 'loc-1',
    context: null,
    status: { id: 'OPEN', name: 'Open', type: 'default' },
    comments,
  };
}

function commentQuery(annotationId: string, over: Partial<CommentQuery> = {}): CommentQuery {
  return { organizationId: ORG, documentId: DOC, annotationId, userIds: null, commentIds: null, ...over };
}

/** A recipient as the service passes it; the store keeps the internal id as given. */
const recipient = (userId: string) => ({ userId, internalId: `id-of-${userId}` });
/** How a store reads a recipient back: with its id, and unread. */
const readBack = (userId: string) => ({ ...recipient(userId), unread: true });

function notification(
  notificationId: string,
  { recipients = ['u1'], ...over }: Partial<Omit<NewNotification, 'recipients'>> & { recipients?: string[] } = {},
): NewNotification {
  return {
    notificationId,
    documentId: DOC,
    locationId: null,
    actionUser: { userId: 'actor', name: 'Actor', email: 'actor@example.com' },
    headlineTemplate: '{{actor}} mentioned you',
    headlineData: { actor: { userId: 'actor' } },
    bodyMessage: `body of ${notificationId}`,
    sourceData: { source: notificationId },
    timestamp: T0,
    recipients: recipients.map(recipient),
    ...over,
  };
}

function notificationQuery(over: Partial<NotificationQuery>): NotificationQuery {
  return {
    organizationId: ORG,
    documentId: null,
    userId: null,
    locationId: null,
    notificationIds: null,
    after: null,
    limit: 1000,
    ...over,
  };
}

const commentIdsOf = (list: StoredComment[]): number[] => list.map((c) => c.commentId);
const notificationIdsOf = (list: StoredNotification[]): string[] => list.map((n) => n.notificationId);
const cursorOf = (n: { timestamp: number; notificationId: string }): NotificationCursor => ({
  timestamp: n.timestamp,
  notificationId: n.notificationId,
});

function added(result: AddCommentsResult, what: string): number[] {
  assert.equal(result.kind, 'added', `${what}: expected kind "added", got ${show(result)}`);
  return (result as { commentIds: number[] }).commentIds;
}

export function storeSuite(kind: StoreKind): void {
  /** A test on a fresh migrated database of this kind; the store is closed and the database dropped after. */
  function storeTest(name: string, fn: (store: Store, db: FreshDatabase) => Promise<void>): void {
    test(name, async () => {
      const db = freshDatabase(kind);
      let store: Store | undefined;
      try {
        store = await db.open();
        await fn(store, db);
      } finally {
        await store?.close();
        await db.drop();
      }
    });
  }

  /** A second store on the same database (for PostgreSQL: the same schema), closed after fn. */
  async function withSecondStore<T>(db: FreshDatabase, fn: (other: Store) => Promise<T>): Promise<T> {
    const other = await openStore(db.config);
    try {
      return await fn(other);
    } finally {
      await other.close();
    }
  }

  async function seedTenants(store: Store): Promise<{ tokenA: TokenRecord; tokenB: TokenRecord }> {
    const tokenA = tokenRecord('mt_token-of-tenant-a', T0);
    const tokenB = tokenRecord('mt_token-of-tenant-b', T0 + 1);
    await store.createTenant(tenant(TA, 'mk_key-a', T0), tokenA);
    await store.createTenant(tenant(TB, 'mk_key-b', T0 + 1), tokenB);
    return { tokenA, tokenB };
  }
  describe('credentials version', () => {
    storeTest('every change to keys and tokens moves the version, and reads do not', async (store) => {
      const versions = [await store.credentialsVersion()];
      const step = async (what: string, change: () => Promise<unknown>) => {
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

    storeTest('a change made through another store on the same database is seen at once', async (store, db) => {
      const before = await store.credentialsVersion();
      await withSecondStore(db, (other) => other.createTenant(tenant(TB, 'mk_key-b', T0), tokenRecord('mt_token-b', T0)));
      assert.notEqual(await store.credentialsVersion(), before);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe(`${kind} store: schema and connection`, () => {
    storeTest('migrate is idempotent: running it again keeps the schema and the data', async (store) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.upsertUsers(TA, ORG, { kind: 'document', id: DOC }, [{ userId: 'u1', name: 'Ann' }], T0);
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')])], T0);
      await store.migrate();
      await store.migrate();
      eq(await store.countTenants(), 1, 'countTenants after migrating again');
      eq((await store.findProfiles(TA, ORG, ['u1'])).get('u1')?.name, 'Ann', 'profile name after migrating again');
      eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [1], 'comment ids after migrating again');
      eq(
        sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: DOC }, [{ userId: 'u1' }], T0)),
        ['u1'],
        'membership after migrating again',
      );
      // And the store still writes.
      eq(
        added(await store.addComments(TA, ORG, DOC, 'ann', [draft('second')], assignCommentIds, T0), 'addComments after migrate'),
        [2],
        'ids',
      );
    });

    test('two stores migrating the same fresh database at once both succeed and share one schema', async () => {
      const db = freshDatabase(kind);
      const opened = await Promise.allSettled([db.open(), openStore(db.config), openStore(db.config)]);
      const stores = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      try {
        const failures = opened.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error)?.stack ?? r.reason)] : []));
        eq(failures, [], 'stores whose concurrent migrate failed');
        const [a, b, c] = stores as [Store, Store, Store];
        await a.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
        eq(await b.countTenants(), 1, 'countTenants seen by the second store');
        eq((await c.findCredentials('mk_a'))?.tenant.id, TA, 'tenant seen by the third store');
        await c.migrate();
        eq(await a.countTenants(), 1, 'countTenants after a later migrate');
      } finally {
        for (const s of stores) await s.close();
        await db.drop();
      }
    });

    storeTest(
      'a database as the previous release left it (through migration 3) migrates forward with its data',
      async (store, db) => {
        await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
        await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')])], T0);
        await store.addNotification(TA, ORG, notification('n1'));
        // Migration 4 only added the readiness probe table: without it, the schema is the previous release's.
        await db.exec('DROP TABLE readiness_probe; DELETE FROM schema_migrations WHERE version = 4');
        await withSecondStore(db, async (reopened) => {
          eq((await reopened.findCredentials('mk_a'))?.tenant.id, TA, 'tenant after migrating forward');
          eq(commentIdsOf(await reopened.getComments(TA, commentQuery('ann'))), [1], 'comments after migrating forward');
          eq(
            notificationIdsOf(await reopened.getNotifications(TA, notificationQuery({ userId: 'u1' }))),
            ['n1'],
            'notifications',
          );
          await reopened.ping();
          await db.exec('UPDATE readiness_probe SET at = at + 1 WHERE id = 1'); // migration 4 ran again
          eq(
            added(await reopened.addComments(TA, ORG, DOC, 'ann', [draft('second')], assignCommentIds, T0 + 1), 'a write'),
            [2],
            'ids',
          );
        });
      },
    );

    storeTest('ping resolves while the database answers', async (store) => {
      const result = await store.ping();
      eq(result, undefined, 'ping result');
    });

    storeTest('ping rejects with StoreUnavailableError once the store is closed', async (_store, db) => {
      const other = await openStore(db.config);
      await other.ping();
      await other.close();
      await assert.rejects(other.ping(), (err: unknown) => {
        assert.ok(
          err instanceof StoreUnavailableError,
          `expected StoreUnavailableError, got ${(err as Error)?.constructor?.name}: ${(err as Error)?.message}`,
        );
        return true;
      });
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe(`${kind} store: tenants and credentials`, () => {
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
      await assert.rejects(store.createTenant(tenant(TB, 'mk_a', T0 + 1, 'second'), tokenRecord('mt_b', T0 + 1)));
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
  describe(`${kind} store: users`, () => {
    storeTest('upsertUsers creates profiles; fields never given read as null', async (store) => {
      await store.upsertUsers(
        TA,
        ORG,
        null,
        [
          { userId: 'u1', name: 'Ann', email: 'ann@example.com', photoUrl: 'https://example.com/ann.png' },
          { userId: 'u2' },
          { userId: 'u3', email: 'u3@example.com' },
        ],
        T0,
      );
      eq(
        await store.findProfiles(TA, ORG, ['u1', 'u2', 'u3']),
        new Map<string, Profile>([
          ['u1', { userId: 'u1', name: 'Ann', email: 'ann@example.com', photoUrl: 'https://example.com/ann.png' }],
          ['u2', { userId: 'u2', name: null, email: null, photoUrl: null }],
          ['u3', { userId: 'u3', name: null, email: 'u3@example.com', photoUrl: null }],
        ]),
        'profiles',
      );
    });

    storeTest(
      'upsertUsers overwrites only the fields given; undefined and null keep stored values; "" is a value',
      async (store) => {
        const full = { name: 'Name', email: 'e@example.com', photoUrl: 'https://example.com/p.png' };
        await store.upsertUsers(
          TA,
          ORG,
          null,
          ['u1', 'u2', 'u3', 'u4', 'u5'].map((userId) => ({ userId, ...full })),
          T0,
        );
        await store.upsertUsers(
          TA,
          ORG,
          null,
          [
            { userId: 'u1', name: 'New name' },
            { userId: 'u2', name: undefined, email: undefined, photoUrl: undefined },
            { userId: 'u3', name: NULL, email: 'new@example.com', photoUrl: NULL },
            { userId: 'u4', name: '', email: '', photoUrl: '' },
            { userId: 'u5', photoUrl: 'https://example.com/new.png' },
          ],
          T0 + 1,
        );
        eq(
          await store.findProfiles(TA, ORG, ['u1', 'u2', 'u3', 'u4', 'u5']),
          new Map<string, Profile>([
            ['u1', { userId: 'u1', ...full, name: 'New name' }],
            ['u2', { userId: 'u2', ...full }],
            ['u3', { userId: 'u3', ...full, email: 'new@example.com' }],
            ['u4', { userId: 'u4', name: '', email: '', photoUrl: '' }],
            ['u5', { userId: 'u5', ...full, photoUrl: 'https://example.com/new.png' }],
          ]),
          'profiles after the second upsert',
        );
        // An empty string, once stored, is kept by a later write that leaves the field out.
        await store.upsertUsers(TA, ORG, null, [{ userId: 'u4', name: 'Back' }], T0 + 2);
        eq(
          await store.findProfiles(TA, ORG, ['u4']),
          new Map([['u4', { userId: 'u4', name: 'Back', email: '', photoUrl: '' }]]),
          'u4 after a third upsert',
        );
      },
    );

    storeTest(
      'upsertUsers records document and folder memberships; updateUsers sees exactly the members of its scope',
      async (store) => {
        // The document and the folder have the same id: a scope is its kind and id.
        await store.upsertUsers(TA, ORG, { kind: 'document', id: 'X' }, [{ userId: 'u-doc', name: 'D' }], T0);
        await store.upsertUsers(TA, ORG, { kind: 'folder', id: 'X' }, [{ userId: 'u-folder', name: 'F' }], T0);
        await store.upsertUsers(TA, ORG, null, [{ userId: 'u-org', name: 'O' }], T0);
        const everyone = ['u-doc', 'u-folder', 'u-org', 'u-ghost'].map((userId) => ({ userId }));
        eq(
          sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: 'X' }, everyone, T0 + 1)),
          ['u-doc'],
          'updateUsers in document X',
        );
        eq(
          sorted(await store.updateUsers(TA, ORG, { kind: 'folder', id: 'X' }, everyone, T0 + 1)),
          ['u-folder'],
          'updateUsers in folder X',
        );
        eq(
          sorted(await store.updateUsers(TA, ORG, null, everyone, T0 + 1)),
          ['u-doc', 'u-folder', 'u-org'],
          'updateUsers in the organization',
        );
        eq(
          sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: 'Y' }, everyone, T0 + 1)),
          [],
          'updateUsers in document Y',
        );
        eq(
          sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: 'x' }, everyone, T0 + 1)),
          [],
          'updateUsers in document x (other case)',
        );
        eq(
          sorted((await store.findProfiles(TA, ORG, ['u-doc', 'u-folder', 'u-org', 'u-ghost'])).keys()),
          ['u-doc', 'u-folder', 'u-org'],
          'profiles (a scoped upsert also makes an organization profile; updateUsers creates none)',
        );
      },
    );

    storeTest('a user upserted into several scopes is a member of each; repeating a membership is harmless', async (store) => {
      await store.upsertUsers(TA, ORG, { kind: 'document', id: 'D1' }, [{ userId: 'u1' }], T0);
      await store.upsertUsers(TA, ORG, { kind: 'document', id: 'D2' }, [{ userId: 'u1' }], T0);
      await store.upsertUsers(TA, ORG, { kind: 'document', id: 'D1' }, [{ userId: 'u1', name: 'again' }], T0);
      await store.upsertUsers(TA, ORG, { kind: 'folder', id: 'F1' }, [{ userId: 'u1' }], T0);
      for (const scope of [
        { kind: 'document', id: 'D1' },
        { kind: 'document', id: 'D2' },
        { kind: 'folder', id: 'F1' },
      ] as const) {
        eq(sorted(await store.updateUsers(TA, ORG, scope, [{ userId: 'u1' }], T0 + 1)), ['u1'], `updateUsers in ${show(scope)}`);
      }
      eq(
        sorted(await store.updateUsers(TA, ORG, { kind: 'folder', id: 'D1' }, [{ userId: 'u1' }], T0 + 1)),
        [],
        'updateUsers in folder D1',
      );
      eq((await store.findProfiles(TA, ORG, ['u1'])).get('u1')?.name, 'again', 'name');
    });

    storeTest('memberships and profiles belong to their organization', async (store) => {
      await store.upsertUsers(TA, 'org-1', { kind: 'document', id: 'D' }, [{ userId: 'u1', name: 'in org 1' }], T0);
      eq(
        sorted(await store.updateUsers(TA, 'org-2', { kind: 'document', id: 'D' }, [{ userId: 'u1', name: 'x' }], T0 + 1)),
        [],
        'updateUsers of document D in org-2',
      );
      eq(sorted(await store.updateUsers(TA, 'org-2', null, [{ userId: 'u1', name: 'x' }], T0 + 1)), [], 'updateUsers in org-2');
      eq((await store.findProfiles(TA, 'org-2', ['u1'])).size, 0, 'profiles in org-2');
      eq((await store.findProfiles(TA, 'org-1', ['u1'])).get('u1')?.name, 'in org 1', 'profile in org-1');
      await store.upsertUsers(TA, 'org-2', null, [{ userId: 'u1', name: 'in org 2' }], T0 + 2);
      eq((await store.findProfiles(TA, 'org-1', ['u1'])).get('u1')?.name, 'in org 1', 'profile in org-1 after writing org-2');
      eq((await store.findProfiles(TA, 'org-2', ['u1'])).get('u1')?.name, 'in org 2', 'profile in org-2');
    });

    storeTest(
      'updateUsers returns exactly the existing userIds, changes only the fields given, and never creates',
      async (store) => {
        const full = { name: 'Name', email: 'e@example.com', photoUrl: 'https://example.com/p.png' };
        await store.upsertUsers(
          TA,
          ORG,
          null,
          ['u1', 'u2', 'u3', 'u4'].map((userId) => ({ userId, ...full })),
          T0,
        );
        const updated = await store.updateUsers(
          TA,
          ORG,
          null,
          [
            { userId: 'u1', name: 'Renamed' },
            { userId: 'ghost', name: 'Ghost', email: 'ghost@example.com' },
            { userId: 'u2', name: NULL, email: '', photoUrl: undefined },
            { userId: 'u3' },
            { userId: 'ghost-2' },
          ],
          T0 + 1,
        );
        eq(updated instanceof Set, true, 'updateUsers returns a Set');
        eq(sorted(updated), ['u1', 'u2', 'u3'], 'updateUsers result');
        eq(
          await store.findProfiles(TA, ORG, ['u1', 'u2', 'u3', 'u4', 'ghost', 'ghost-2']),
          new Map<string, Profile>([
            ['u1', { userId: 'u1', ...full, name: 'Renamed' }],
            ['u2', { userId: 'u2', ...full, email: '' }],
            ['u3', { userId: 'u3', ...full }],
            ['u4', { userId: 'u4', ...full }],
          ]),
          'profiles after updateUsers',
        );
      },
    );

    storeTest('updateUsers in a scope leaves users outside the scope unchanged', async (store) => {
      await store.upsertUsers(TA, ORG, { kind: 'document', id: 'D' }, [{ userId: 'member', name: 'M' }], T0);
      await store.upsertUsers(TA, ORG, null, [{ userId: 'outsider', name: 'O' }], T0);
      const updated = await store.updateUsers(
        TA,
        ORG,
        { kind: 'document', id: 'D' },
        [
          { userId: 'member', name: 'M2' },
          { userId: 'outsider', name: 'O2' },
        ],
        T0 + 1,
      );
      eq(sorted(updated), ['member'], 'updateUsers result');
      const profiles = await store.findProfiles(TA, ORG, ['member', 'outsider']);
      eq([profiles.get('member')?.name, profiles.get('outsider')?.name], ['M2', 'O'], 'names after updateUsers');
    });

    storeTest('findProfiles returns only the users asked for that exist; [] gives an empty map', async (store) => {
      await store.upsertUsers(
        TA,
        ORG,
        null,
        [{ userId: 'u1', name: 'One' }, { userId: 'u2', name: 'Two' }, { userId: 'u3' }],
        T0,
      );
      const empty = await store.findProfiles(TA, ORG, []);
      eq(empty instanceof Map && empty.size === 0, true, `findProfiles([]) is an empty Map, got ${show(empty)}`);
      eq(
        await store.findProfiles(TA, ORG, ['u1', 'nobody', 'u3']),
        new Map<string, Profile>([
          ['u1', { userId: 'u1', name: 'One', email: null, photoUrl: null }],
          ['u3', { userId: 'u3', name: null, email: null, photoUrl: null }],
        ]),
        'findProfiles(u1, nobody, u3)',
      );
      eq((await store.findProfiles(TA, ORG, ['nobody'])).size, 0, 'findProfiles(nobody) size');
      eq(sorted((await store.findProfiles(TA, ORG, ['u2', 'u2'])).keys()), ['u2'], 'findProfiles with a repeated id');
      eq((await store.findProfiles(TA, 'org-other', ['u1'])).size, 0, 'findProfiles in another organization');
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe(`${kind} store: comment annotations`, () => {
    storeTest('addAnnotations stores every annotation with its comments in order, stamped with now', async (store) => {
      const taken = await store.addAnnotations(
        TA,
        ORG,
        DOC,
        [
          annotation('ann-1', [
            newComment(3, 'third id first', 'u1', 'Ann', 'ann@example.com'),
            newComment(1, 'one', 'u2'),
            newComment(2, 'two é 😀 <&>', 'u1', '', ''),
          ]),
          annotation('ann-2', [newComment(1, 'other thread')]),
        ],
        T0,
      );
      eq(taken instanceof Set, true, `addAnnotations returns a Set, got ${show(taken)}`);
      eq(sorted(taken), [], 'taken ids');
      const comments = await store.getComments(TA, commentQuery('ann-1'));
      eq(
        comments,
        [
          {
            commentId: 3,
            html: '<p>third id first</p>',
            text: 'third id first',
            from: { userId: 'u1', name: 'Ann', email: 'ann@example.com' },
            fromProfile: null,
            status: 'added',
            type: 'text',
            createdAt: T0,
            lastUpdated: T0,
          },
          {
            commentId: 1,
            html: '<p>one</p>',
            text: 'one',
            from: { userId: 'u2', name: null, email: null },
            fromProfile: null,
            status: 'added',
            type: 'text',
            createdAt: T0,
            lastUpdated: T0,
          },
          {
            commentId: 2,
            html: '<p>two é 😀 <&></p>',
            text: 'two é 😀 <&>',
            from: { userId: 'u1', name: '', email: '' },
            fromProfile: null,
            status: 'added',
            type: 'text',
            createdAt: T0,
            lastUpdated: T0,
          },
        ],
        'comments of ann-1',
      );
      eq(commentIdsOf(await store.getComments(TA, commentQuery('ann-2'))), [1], 'comment ids of ann-2');
    });

    storeTest('addAnnotations returns the taken ids, skips those and adds the rest', async (store) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann-1', [newComment(1, 'original')])], T0);
      const taken = await store.addAnnotations(
        TA,
        ORG,
        DOC,
        [
          annotation('ann-0', [newComment(1, 'new zero')]),
          annotation('ann-1', [newComment(1, 'replacement'), newComment(2, 'extra')]),
          annotation('ann-2', [newComment(5, 'new two')]),
        ],
        T0 + 1,
      );
      eq(sorted(taken), ['ann-1'], 'taken ids');
      const ann1 = await store.getComments(TA, commentQuery('ann-1'));
      eq(
        ann1.map((c) => [c.commentId, c.text, c.createdAt]),
        [[1, 'original', T0]],
        'ann-1 is untouched',
      );
      eq(
        (await store.getComments(TA, commentQuery('ann-0'))).map((c) => c.text),
        ['new zero'],
        'ann-0',
      );
      eq(
        (await store.getComments(TA, commentQuery('ann-2'))).map((c) => [c.commentId, c.text, c.createdAt]),
        [[5, 'new two', T0 + 1]],
        'ann-2',
      );
    });

    storeTest('annotationIds are per document and per organization', async (store) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'doc-1')])], T0);
      eq(
        sorted(await store.addAnnotations(TA, ORG, 'doc-2', [annotation('ann', [newComment(1, 'doc-2')])], T0)),
        [],
        'taken in doc-2',
      );
      eq(
        sorted(await store.addAnnotations(TA, 'org-2', DOC, [annotation('ann', [newComment(1, 'org-2')])], T0)),
        [],
        'taken in org-2',
      );
      eq(
        (await store.getComments(TA, commentQuery('ann'))).map((c) => c.text),
        ['doc-1'],
        'thread in org-1/doc-1',
      );
      eq(
        (await store.getComments(TA, commentQuery('ann', { documentId: 'doc-2' }))).map((c) => c.text),
        ['doc-2'],
        'thread in doc-2',
      );
      eq(
        (await store.getComments(TA, commentQuery('ann', { organizationId: 'org-2' }))).map((c) => c.text),
        ['org-2'],
        'thread in org-2',
      );
      eq(
        added(await store.addComments(TA, ORG, 'doc-2', 'ann', [draft('more')], assignCommentIds, T0), 'doc-2'),
        [2],
        'ids in doc-2',
      );
      eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [1], 'org-1/doc-1 is untouched');
    });

    storeTest('addComments on an unknown annotation is annotation_not_found and adds nothing', async (store) => {
      await store.addAnnotations(TA, ORG, 'doc-2', [annotation('ann', [newComment(1, 'elsewhere')])], T0);
      eq(
        await store.addComments(TA, ORG, DOC, 'ann', [draft('x')], assignCommentIds, T0),
        { kind: 'annotation_not_found' },
        'addComments in doc-1',
      );
      eq(
        await store.addComments(TA, 'org-2', 'doc-2', 'ann', [draft('x')], assignCommentIds, T0),
        { kind: 'annotation_not_found' },
        'addComments in org-2',
      );
      eq(
        await store.addComments(TA, ORG, 'doc-2', 'nope', [draft('x', 7)], assignCommentIds, T0),
        { kind: 'annotation_not_found' },
        'addComments of an unknown id',
      );
      eq(await store.getComments(TA, commentQuery('ann')), [], 'doc-1 has no such thread');
      eq(
        commentIdsOf(await store.getComments(TA, commentQuery('ann', { documentId: 'doc-2' }))),
        [1],
        'doc-2 thread is untouched',
      );
    });

    storeTest(
      'addComments with a caller-chosen id that is taken is comment_exists with that id, and nothing is added',
      async (store) => {
        await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'one'), newComment(2, 'two')])], T0);
        const result = await store.addComments(
          TA,
          ORG,
          DOC,
          'ann',
          [draft('gen'), draft('free', 10), draft('taken', 2), draft('taken too', 1)],
          assignCommentIds,
          T0 + 1,
        );
        eq(result, { kind: 'comment_exists', commentId: 2 }, 'addComments result');
        eq(
          (await store.getComments(TA, commentQuery('ann'))).map((c) => [c.commentId, c.text]),
          [
            [1, 'one'],
            [2, 'two'],
          ],
          'thread after the refused batch',
        );
        eq(
          added(await store.addComments(TA, ORG, DOC, 'ann', [draft('free', 10)], assignCommentIds, T0 + 2), 'free id'),
          [10],
          'ids',
        );
        eq(
          await store.addComments(TA, ORG, DOC, 'ann', [draft('again', 10)], assignCommentIds, T0 + 3),
          { kind: 'comment_exists', commentId: 10 },
          'the same id again',
        );
        eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [1, 2, 10], 'thread');
      },
    );

    storeTest(
      'addComments generates ids one more than the largest in the thread, counting ids the batch placed',
      async (store) => {
        await store.addAnnotations(
          TA,
          ORG,
          DOC,
          [annotation('ann', [newComment(1, 'a'), newComment(7, 'b'), newComment(3, 'c')])],
          T0,
        );
        eq(
          added(
            await store.addComments(
              TA,
              ORG,
              DOC,
              'ann',
              [draft('g1'), draft('chosen', 20), draft('g2')],
              assignCommentIds,
              T0 + 1,
            ),
            'batch',
          ),
          [8, 20, 21],
          'ids of the batch',
        );
        eq(
          added(
            await store.addComments(TA, ORG, DOC, 'ann', [draft('chosen low', 4), draft('g3')], assignCommentIds, T0 + 2),
            'second batch',
          ),
          [4, 22],
          'ids of the second batch',
        );
        eq(
          commentIdsOf(await store.getComments(TA, commentQuery('ann'))),
          [1, 7, 3, 8, 20, 21, 4, 22],
          'thread in creation order',
        );
      },
    );

    storeTest(
      'addComments gives the assigner the requested ids and the largest id, and stores the ids it returns',
      async (store) => {
        await store.addAnnotations(
          TA,
          ORG,
          DOC,
          [annotation('ann', [newComment(4, 'a'), newComment(9, 'b'), newComment(2, 'c')])],
          T0,
        );
        await store.addAnnotations(TA, ORG, DOC, [annotation('empty', [])], T0);
        const calls: [(number | undefined)[], number][] = [];
        const spy =
          (answer: ReturnType<CommentIdAssigner>): CommentIdAssigner =>
          (requested, largest) => {
            calls.push([[...requested], largest]);
            return answer;
          };
        eq(
          await store.addComments(
            TA,
            ORG,
            DOC,
            'ann',
            [draft('x'), draft('y', 50)],
            spy({ kind: 'assigned', commentIds: [500, 400] }),
            T0 + 1,
          ),
          { kind: 'added', commentIds: [500, 400] },
          'addComments with an assigner that picks 500 and 400',
        );
        eq(calls, [[[undefined, 50], 9]], 'assigner calls');
        eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [4, 9, 2, 500, 400], 'thread');
        calls.length = 0;
        eq(
          await store.addComments(TA, ORG, DOC, 'ann', [draft('z')], spy({ kind: 'clash', commentId: 77 }), T0 + 2),
          { kind: 'comment_exists', commentId: 77 },
          'addComments with an assigner that reports a clash',
        );
        eq(
          await store.addComments(TA, ORG, DOC, 'ann', [draft('z')], spy({ kind: 'exhausted' }), T0 + 3),
          { kind: 'ids_exhausted' },
          'addComments with an assigner that reports exhaustion',
        );
        eq(
          calls,
          [
            [[undefined], 500],
            [[undefined], 500],
          ],
          'assigner calls (largest is 500)',
        );
        eq(
          commentIdsOf(await store.getComments(TA, commentQuery('ann'))),
          [4, 9, 2, 500, 400],
          'thread after clash and exhaustion',
        );
        calls.length = 0;
        eq(await store.getComments(TA, commentQuery('empty')), [], 'an annotation without comments');
        eq(
          added(
            await store.addComments(TA, ORG, DOC, 'empty', [draft('first')], spy(assignCommentIds([undefined], 0)), T0 + 4),
            'empty thread',
          ),
          [1],
          'ids in an empty thread',
        );
        eq(calls, [[[undefined], 0]], 'assigner calls for an empty thread (largest is 0)');
      },
    );

    storeTest('addComments near 2147483647: the last id is given, then ids_exhausted and nothing is added', async (store) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(MAX_ID - 1, 'almost')])], T0);
      eq(added(await store.addComments(TA, ORG, DOC, 'ann', [draft('last')], assignCommentIds, T0 + 1), 'last'), [MAX_ID], 'ids');
      eq(
        await store.addComments(TA, ORG, DOC, 'ann', [draft('past')], assignCommentIds, T0 + 2),
        { kind: 'ids_exhausted' },
        'one more',
      );
      eq(
        await store.addComments(TA, ORG, DOC, 'ann', [draft('chosen', 5), draft('past')], assignCommentIds, T0 + 3),
        { kind: 'ids_exhausted' },
        'a batch with a free chosen id and a generated one',
      );
      eq(
        added(await store.addComments(TA, ORG, DOC, 'ann', [draft('chosen', 5)], assignCommentIds, T0 + 4), 'chosen'),
        [5],
        'a chosen id still fits',
      );
      eq(commentIdsOf(await store.getComments(TA, commentQuery('ann'))), [MAX_ID - 1, MAX_ID, 5], 'thread');
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann-2', [newComment(1, 'a')])], T0);
      eq(
        await store.addComments(TA, ORG, DOC, 'ann-2', [draft('top', MAX_ID), draft('past')], assignCommentIds, T0 + 5),
        { kind: 'ids_exhausted' },
        'generated after a chosen 2147483647 in the same batch',
      );
      eq(commentIdsOf(await store.getComments(TA, commentQuery('ann-2'))), [1], 'ann-2 after the refused batch');
    });

    storeTest('comments keep creation order, not id order, and each batch is stamped with its own now', async (store) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(100, 'a')])], T0);
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('b', 5)], assignCommentIds, T0 + 10), 'b');
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('c'), draft('d', 50)], assignCommentIds, T0 + 20), 'c, d');
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('e', 2)], assignCommentIds, T0 + 30), 'e');
      const comments = await store.getComments(TA, commentQuery('ann'));
      eq(
        comments.map((c) => [c.commentId, c.text, c.createdAt, c.lastUpdated]),
        [
          [100, 'a', T0, T0],
          [5, 'b', T0 + 10, T0 + 10],
          [101, 'c', T0 + 20, T0 + 20],
          [50, 'd', T0 + 20, T0 + 20],
          [2, 'e', T0 + 30, T0 + 30],
        ],
        'thread',
      );
      eq(
        comments.map((c) => [c.status, c.type, c.from.name]),
        [
          ['added', 'text', null],
          ['added', 'text', 'Name u1'],
          ['added', 'text', 'Name u1'],
          ['added', 'text', 'Name u1'],
          ['added', 'text', 'Name u1'],
        ],
        'status, type and writer name',
      );
    });

    storeTest('createdAt never goes backwards in creation order, even when a later batch read an earlier time', async (store) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'a')])], T0 + 50);
      // The second writer read its clock first but took the thread lock second (or runs on an instance whose clock is behind).
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('b')], assignCommentIds, T0 + 20), 'b');
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('c')], assignCommentIds, T0 + 80), 'c');
      const comments = await store.getComments(TA, commentQuery('ann'));
      eq(
        comments.map((c) => [c.text, c.createdAt, c.lastUpdated]),
        [
          ['a', T0 + 50, T0 + 50],
          ['b', T0 + 50, T0 + 50],
          ['c', T0 + 80, T0 + 80],
        ],
        'thread',
      );
    });

    storeTest('getComments filters by userIds and commentIds (null is no filter), in creation order', async (store) => {
      await store.addAnnotations(
        TA,
        ORG,
        DOC,
        [
          annotation('ann', [
            newComment(5, 'a', 'u1'),
            newComment(1, 'b', 'u2'),
            newComment(9, 'c', 'u3'),
            newComment(3, 'd', 'u2'),
            newComment(7, 'e', 'u1'),
          ]),
        ],
        T0,
      );
      const get = async (over: Partial<CommentQuery>) => commentIdsOf(await store.getComments(TA, commentQuery('ann', over)));
      eq(await get({}), [5, 1, 9, 3, 7], 'no filter');
      eq(await get({ userIds: ['u2', 'u3'] }), [1, 9, 3], 'userIds u2, u3');
      eq(await get({ userIds: ['nobody'] }), [], 'userIds nobody');
      eq(await get({ commentIds: [7, 1, 99, 5] }), [5, 1, 7], 'commentIds 7, 1, 99, 5');
      eq(await get({ commentIds: [99] }), [], 'commentIds 99');
      eq(await get({ userIds: ['u1', 'u2'], commentIds: [9, 3, 7] }), [3, 7], 'userIds u1, u2 and commentIds 9, 3, 7');
      eq(await get({ annotationId: 'nope' }), [], 'an unknown annotation');
      eq(await get({ documentId: 'doc-other' }), [], 'another document');
      eq(await get({ organizationId: 'org-other' }), [], 'another organization');
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe(`${kind} store: notifications`, () => {
    storeTest(
      'addNotification stores a notification that reads back field for field, recipients in order and unread',
      async (store) => {
        const n = notification('n-1', {
          documentId: DOC,
          locationId: 'loc-9',
          actionUser: { userId: 'actor', name: 'Ann Actor', email: 'ann@example.com' },
          headlineTemplate: '{{actor}} replied to {{target}} — “quoted”',
          bodyMessage: 'Body é 😀',
          timestamp: T0 + 123,
          recipients: ['zed', 'amy', 'Bob', '_x', 'amy-2'],
        });
        eq(await store.addNotification(TA, ORG, n), true, 'addNotification');
        const { recipients, ...rest } = n;
        const expected: StoredNotification = {
          ...rest,
          recipients: recipients.map((r) => ({ ...r, unread: true })),
          actionUserProfile: null,
        };
        eq(await store.getNotifications(TA, notificationQuery({ documentId: DOC })), [expected], 'read by document');
        eq(
          await store.getNotifications(TA, notificationQuery({ userId: 'Bob' })),
          [expected],
          'read by recipient Bob (every recipient is listed)',
        );
        const bare = notification('n-2', {
          actionUser: { userId: 'actor-2', name: null, email: null },
          bodyMessage: '',
          headlineData: {},
          sourceData: {},
          timestamp: T0 + 200,
          recipients: ['amy'],
        });
        eq(await store.addNotification(TA, ORG, bare), true, 'addNotification of a bare notification');
        const got = await store.getNotifications(TA, notificationQuery({ userId: 'amy', notificationIds: ['n-2'] }));
        eq(got, [{ ...bare, recipients: [readBack('amy')], actionUserProfile: null }], 'bare notification read back');
      },
    );

    storeTest(
      'reads carry the current profile of the comment author and of the action user, from their own organization',
      async (store) => {
        await store.addAnnotations(
          TA,
          ORG,
          DOC,
          [annotation('ann', [newComment(1, 'hi', 'actor', 'Sent Name', 'sent@example.com')])],
          T0,
        );
        await store.addNotification(
          TA,
          ORG,
          notification('n-1', { documentId: DOC, actionUser: { userId: 'actor', name: 'Sent', email: null }, recipients: ['r'] }),
        );
        const profileOf = async () => [
          (await store.getComments(TA, commentQuery('ann')))[0]!.fromProfile,
          (await store.getNotifications(TA, notificationQuery({ documentId: DOC })))[0]!.actionUserProfile,
          (await store.getNotifications(TA, notificationQuery({ userId: 'r' })))[0]!.actionUserProfile,
        ];
        eq(await profileOf(), [null, null, null], 'no profile yet');
        await store.upsertUsers(TA, 'other-org', null, [{ userId: 'actor', name: 'Elsewhere' }], T0);
        await store.upsertUsers(TB, ORG, null, [{ userId: 'actor', name: 'Other tenant' }], T0);
        eq(await profileOf(), [null, null, null], 'profiles of another organization or tenant are not joined');
        await store.upsertUsers(TA, ORG, null, [{ userId: 'actor', name: 'Profile', photoUrl: 'https://example.com/p.png' }], T0);
        const profile = { userId: 'actor', name: 'Profile', email: null, photoUrl: 'https://example.com/p.png' };
        eq(await profileOf(), [profile, profile, profile], 'the profile is joined');
        await store.updateUsers(TA, ORG, null, [{ userId: 'actor', email: 'new@example.com' }], T0 + 1);
        const updated = { ...profile, email: 'new@example.com' };
        eq(await profileOf(), [updated, updated, updated], 'a later update shows at once');
      },
    );

    storeTest('headlineData and sourceData round-trip as JSON: key order, nesting, unicode and numbers kept', async (store) => {
      const headlineData: Record<string, unknown> = {
        zeta: { userId: 'u1', name: 'Zed', extra: { deep: [1, { b: 2, a: 1 }] } },
        alpha: 'plain',
        mid: [1, 2.5, -3, 0, 1e21, 9007199254740991, true, false, null, '', [], {}],
        nested: { b: { c: [null, { y: 'y', x: 'x' }] }, a: [] },
        unicode: 'é ✓ 😀 \u2028 "quoted" \\ back\nline\ttab',
        'key with spaces': 'v',
        '': 'empty key',
        __proto__x: 'proto-ish',
      };
      const sourceData: Record<string, unknown> = { z: 1, y: { d: 4, c: [3, 2, 1] }, a: 'first inserted last' };
      await store.addNotification(TA, ORG, notification('n-json', { headlineData, sourceData }));
      const [got] = await store.getNotifications(TA, notificationQuery({ documentId: DOC }));
      eq(got?.headlineData, headlineData, 'headlineData');
      eq(got?.sourceData, sourceData, 'sourceData');
      eq(JSON.stringify(got?.headlineData), JSON.stringify(headlineData), 'headlineData as JSON text (key order)');
      eq(JSON.stringify(got?.sourceData), JSON.stringify(sourceData), 'sourceData as JSON text (key order)');
    });

    storeTest('addNotification is false for an id taken in the organization, and keeps the first', async (store) => {
      const first = notification('n-1', { bodyMessage: 'first', recipients: ['u1'], timestamp: T0 });
      eq(await store.addNotification(TA, ORG, first), true, 'first addNotification');
      eq(
        await store.addNotification(
          TA,
          ORG,
          notification('n-1', { documentId: 'doc-2', bodyMessage: 'second', recipients: ['u2'], timestamp: T0 + 1 }),
        ),
        false,
        'addNotification with the id taken',
      );
      eq(
        await store.addNotification(TA, ORG, notification('n-1', { documentId: null, recipients: ['u1'] })),
        false,
        'taken, without a document',
      );
      const got = await store.getNotifications(TA, notificationQuery({ documentId: DOC }));
      eq(
        got.map((n) => [n.notificationId, n.bodyMessage, n.timestamp, n.recipients]),
        [['n-1', 'first', T0, [readBack('u1')]]],
        'stored',
      );
      eq(await store.getNotifications(TA, notificationQuery({ userId: 'u2' })), [], 'u2 was not made a recipient');
      eq(await store.getNotifications(TA, notificationQuery({ documentId: 'doc-2' })), [], 'doc-2 has nothing');
    });

    storeTest('the same notificationId is free in another organization and under another tenant', async (store) => {
      eq(await store.addNotification(TA, 'org-1', notification('n-1', { bodyMessage: 'A org-1' })), true, 'tenant A, org-1');
      eq(await store.addNotification(TA, 'org-2', notification('n-1', { bodyMessage: 'A org-2' })), true, 'tenant A, org-2');
      eq(await store.addNotification(TB, 'org-1', notification('n-1', { bodyMessage: 'B org-1' })), true, 'tenant B, org-1');
      const body = async (tenantId: string, organizationId: string) =>
        (await store.getNotifications(tenantId, notificationQuery({ organizationId, userId: 'u1' }))).map((n) => n.bodyMessage);
      eq(await body(TA, 'org-1'), ['A org-1'], 'tenant A, org-1');
      eq(await body(TA, 'org-2'), ['A org-2'], 'tenant A, org-2');
      eq(await body(TB, 'org-1'), ['B org-1'], 'tenant B, org-1');
      eq(await body(TB, 'org-2'), [], 'tenant B, org-2');
    });

    storeTest(
      'documentId and locationId null round-trip; such a notification is found by user, not by document',
      async (store) => {
        const n = notification('n-null', { documentId: null, locationId: null, recipients: ['u1'] });
        await store.addNotification(TA, ORG, n);
        await store.addNotification(
          TA,
          ORG,
          notification('n-loc', { documentId: null, locationId: 'L', recipients: ['u1'], timestamp: T0 - 1 }),
        );
        const byUser = await store.getNotifications(TA, notificationQuery({ userId: 'u1' }));
        eq(
          byUser.map((x) => [x.notificationId, x.documentId, x.locationId]),
          [
            ['n-null', null, null],
            ['n-loc', null, 'L'],
          ],
          'by user',
        );
        eq(await store.getNotifications(TA, notificationQuery({ documentId: DOC })), [], 'by document');
        eq(
          notificationIdsOf(await store.getNotifications(TA, notificationQuery({ userId: 'u1', locationId: 'L' }))),
          ['n-loc'],
          'by user and location',
        );
      },
    );

    storeTest('getNotifications by document, by user, or both; location and id filters combine with AND', async (store) => {
      const add = (id: string, over: Parameters<typeof notification>[1]) =>
        store.addNotification(TA, ORG, notification(id, over));
      await add('n1', { documentId: 'D1', locationId: 'L1', recipients: ['u1', 'u2'], timestamp: T0 + 1 });
      await add('n2', { documentId: 'D1', locationId: 'L2', recipients: ['u2'], timestamp: T0 + 2 });
      await add('n3', { documentId: 'D2', locationId: 'L1', recipients: ['u1'], timestamp: T0 + 3 });
      await add('n4', { documentId: null, locationId: null, recipients: ['u1'], timestamp: T0 + 4 });
      await add('n5', { documentId: 'D1', locationId: null, recipients: ['u3'], timestamp: T0 + 5 });
      await store.addNotification(
        TA,
        'org-other',
        notification('n6', { documentId: 'D1', recipients: ['u1'], timestamp: T0 + 6 }),
      );
      const cases: [Partial<NotificationQuery>, string[]][] = [
        [{ documentId: 'D1' }, ['n5', 'n2', 'n1']],
        [{ documentId: 'D1', locationId: 'L1' }, ['n1']],
        [{ documentId: 'D1', locationId: 'L9' }, []],
        [{ documentId: 'D1', notificationIds: ['n2', 'n5', 'n3', 'nope'] }, ['n5', 'n2']],
        [{ userId: 'u1' }, ['n4', 'n3', 'n1']],
        [{ userId: 'u1', documentId: 'D1' }, ['n1']],
        [{ userId: 'u1', locationId: 'L1' }, ['n3', 'n1']],
        [{ userId: 'u2', notificationIds: ['n1', 'n3', 'nope'] }, ['n1']],
        [{ userId: 'u2', documentId: 'D2' }, []],
        [{ userId: 'nobody' }, []],
        [{ documentId: 'D3' }, []],
        [{ documentId: 'D1', notificationIds: ['nope', 'n4'] }, []],
        [{ organizationId: 'org-other', documentId: 'D1' }, ['n6']],
        [{ organizationId: 'org-other', userId: 'u1' }, ['n6']],
        [{ organizationId: 'org-none', userId: 'u1' }, []],
      ];
      for (const [over, expected] of cases) {
        eq(
          notificationIdsOf(await store.getNotifications(TA, notificationQuery(over))),
          expected,
          `getNotifications(${show(over)})`,
        );
      }
    });

    storeTest('order is timestamp descending, then id descending with ids compared byte-wise (B < Z < a < b)', async (store) => {
      const sameTime = ['a', 'B', 'b', 'Z', '-x', '_x', '9', 'aa', 'A', 'a-', 'a_'];
      const timeOf = (id: string): number => (id === 'm' || id === 'A0' ? T0 + 1 : id === 'z' ? T0 - 1 : T0);
      // Inserted in a scrambled order, so insertion order cannot pass for the sort.
      for (const id of ['Z', 'a_', 'z', '9', 'b', 'A0', '-x', 'aa', 'B', 'm', 'a', '_x', 'A', 'a-']) {
        eq(
          await store.addNotification(TA, ORG, notification(id, { timestamp: timeOf(id), recipients: ['u1'] })),
          true,
          `add ${id}`,
        );
      }
      // Byte order: '-' < '9' < 'A'..'Z' < '_' < 'a'..'z'.
      const expected = ['m', 'A0', 'b', 'aa', 'a_', 'a-', 'a', '_x', 'Z', 'B', 'A', '9', '-x', 'z'];
      eq([...sameTime].sort(idDesc), expected.slice(2, 13), 'sanity of the expected order');
      eq(
        notificationIdsOf(await store.getNotifications(TA, notificationQuery({ documentId: DOC }))),
        expected,
        'order by document',
      );
      eq(notificationIdsOf(await store.getNotifications(TA, notificationQuery({ userId: 'u1' }))), expected, 'order by user');
      const bz = notificationIdsOf(
        await store.getNotifications(TA, notificationQuery({ documentId: DOC, notificationIds: ['B', 'Z', 'a', 'b'] })),
      );
      eq(bz, ['b', 'a', 'Z', 'B'], 'B, Z, a, b in descending order');
    });

    storeTest(
      'after continues strictly after a position, limit caps the result, and paging covers every row once',
      async (store) => {
        const rows = [
          { id: 'p', ts: T0 + 3 },
          { id: 'b', ts: T0 + 2 },
          { id: 'a', ts: T0 + 2 },
          { id: 'Z', ts: T0 + 2 },
          { id: 'B', ts: T0 + 2 },
          { id: 'y', ts: T0 + 1 },
          { id: 'x', ts: T0 + 1 },
          { id: 'q', ts: T0 },
        ];
        for (const r of [...rows].reverse())
          await store.addNotification(TA, ORG, notification(r.id, { timestamp: r.ts, recipients: ['u1', 'u2'] }));
        const order = rows.map((r) => r.id);
        for (const by of [{ documentId: DOC }, { userId: 'u2' }] as Partial<NotificationQuery>[]) {
          const get = async (over: Partial<NotificationQuery>) =>
            notificationIdsOf(await store.getNotifications(TA, notificationQuery({ ...by, ...over })));
          eq(await get({}), order, `full order ${show(by)}`);
          for (let i = 0; i < rows.length; i++) {
            const at = rows[i]!;
            eq(
              await get({ after: { timestamp: at.ts, notificationId: at.id } }),
              order.slice(i + 1),
              `after ${at.id}@${at.ts} ${show(by)}`,
            );
          }
          // Positions that are no row: strictly after them in the (timestamp desc, id desc) order.
          eq(
            await get({ after: { timestamp: T0 + 2, notificationId: 'aa' } }),
            ['a', 'Z', 'B', 'y', 'x', 'q'],
            `after aa@T0+2 ${show(by)}`,
          );
          eq(await get({ after: { timestamp: T0 + 2, notificationId: 'C' } }), ['B', 'y', 'x', 'q'], `after C@T0+2 ${show(by)}`);
          eq(await get({ after: { timestamp: T0 + 2, notificationId: '' } }), ['y', 'x', 'q'], `after ""@T0+2 ${show(by)}`);
          eq(
            await get({ after: { timestamp: T0 + 2, notificationId: '~' } }),
            ['b', 'a', 'Z', 'B', 'y', 'x', 'q'],
            `after ~@T0+2 ${show(by)}`,
          );
          eq(await get({ after: { timestamp: T0 + 1000, notificationId: '' } }), order, `after a later time ${show(by)}`);
          eq(await get({ after: { timestamp: T0 - 1, notificationId: 'zzz' } }), [], `after an earlier time ${show(by)}`);
          eq(await get({ limit: 3 }), order.slice(0, 3), `limit 3 ${show(by)}`);
          eq(await get({ limit: 1, after: { timestamp: T0 + 2, notificationId: 'a' } }), ['Z'], `limit 1 after a ${show(by)}`);
          eq(await get({ limit: 100 }), order, `limit 100 ${show(by)}`);
          const paged: string[] = [];
          let after: NotificationCursor | null = null;
          for (let page = 0; page < 20; page++) {
            const got: StoredNotification[] = await store.getNotifications(TA, notificationQuery({ ...by, after, limit: 3 }));
            paged.push(...notificationIdsOf(got));
            if (got.length < 3) break;
            after = cursorOf(got[got.length - 1]!);
          }
          eq(paged, order, `pages of 3 ${show(by)}`);
        }
      },
    );
  });

  // ---------------------------------------------------------------------------------------------
  describe(`${kind} store: tenant isolation`, () => {
    storeTest('users of another tenant are invisible and untouched', async (store) => {
      await seedTenants(store);
      await store.upsertUsers(
        TB,
        ORG,
        { kind: 'document', id: DOC },
        [{ userId: 'u1', name: 'B name', email: 'b@example.com' }],
        T0,
      );
      eq((await store.findProfiles(TA, ORG, ['u1'])).size, 0, 'tenant A sees no profile');
      eq(
        sorted(await store.updateUsers(TA, ORG, null, [{ userId: 'u1', name: 'hijack' }], T0 + 1)),
        [],
        'tenant A updateUsers in the organization',
      );
      eq(
        sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: DOC }, [{ userId: 'u1', name: 'hijack' }], T0 + 1)),
        [],
        'tenant A updateUsers in the document',
      );
      eq((await store.findProfiles(TA, ORG, ['u1'])).size, 0, 'tenant A still has no profile');
      await store.upsertUsers(TA, ORG, null, [{ userId: 'u1', name: 'A name' }], T0 + 2);
      eq(
        sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: DOC }, [{ userId: 'u1', name: 'hijack' }], T0 + 3)),
        [],
        'tenant A updateUsers in a document where only tenant B has the user',
      );
      eq(
        await store.findProfiles(TA, ORG, ['u1']),
        new Map([['u1', { userId: 'u1', name: 'A name', email: null, photoUrl: null }]]),
        'tenant A profile',
      );
      eq(
        await store.findProfiles(TB, ORG, ['u1']),
        new Map([['u1', { userId: 'u1', name: 'B name', email: 'b@example.com', photoUrl: null }]]),
        'tenant B profile',
      );
      eq(
        sorted(await store.updateUsers(TB, ORG, { kind: 'document', id: DOC }, [{ userId: 'u1' }], T0 + 4)),
        ['u1'],
        'tenant B membership',
      );
    });

    storeTest('annotations and comments of another tenant are invisible and untouched', async (store) => {
      await seedTenants(store);
      await store.addAnnotations(TB, ORG, DOC, [annotation('ann', [newComment(1, 'B one'), newComment(2, 'B two')])], T0);
      eq(await store.getComments(TA, commentQuery('ann')), [], 'tenant A getComments');
      eq(
        await store.addComments(TA, ORG, DOC, 'ann', [draft('A')], assignCommentIds, T0 + 1),
        { kind: 'annotation_not_found' },
        'tenant A addComments',
      );
      eq(
        sorted(await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(2, 'A two')])], T0 + 2)),
        [],
        'tenant A addAnnotations: id free',
      );
      eq(
        added(
          await store.addComments(TA, ORG, DOC, 'ann', [draft('A one', 1), draft('A gen')], assignCommentIds, T0 + 3),
          'tenant A',
        ),
        [1, 3],
        "tenant A ids (B's ids do not clash and do not count)",
      );
      eq(
        (await store.getComments(TA, commentQuery('ann'))).map((c) => [c.commentId, c.text]),
        [
          [2, 'A two'],
          [1, 'A one'],
          [3, 'A gen'],
        ],
        'tenant A thread',
      );
      eq(
        (await store.getComments(TB, commentQuery('ann'))).map((c) => [c.commentId, c.text, c.createdAt]),
        [
          [1, 'B one', T0],
          [2, 'B two', T0],
        ],
        'tenant B thread',
      );
      eq(
        added(await store.addComments(TB, ORG, DOC, 'ann', [draft('B gen')], assignCommentIds, T0 + 4), 'tenant B'),
        [3],
        'tenant B ids',
      );
    });

    storeTest('notifications of another tenant are invisible and untouched', async (store) => {
      await seedTenants(store);
      await store.addNotification(TB, ORG, notification('n-1', { bodyMessage: 'B', recipients: ['u1'], timestamp: T0 }));
      eq(await store.getNotifications(TA, notificationQuery({ documentId: DOC })), [], 'tenant A by document');
      eq(await store.getNotifications(TA, notificationQuery({ userId: 'u1' })), [], 'tenant A by user');
      eq(await store.getNotifications(TA, notificationQuery({ userId: 'u1', notificationIds: ['n-1'] })), [], 'tenant A by id');
      eq(
        await store.addNotification(TA, ORG, notification('n-1', { bodyMessage: 'A', recipients: ['u2'], timestamp: T0 + 1 })),
        true,
        'tenant A addNotification',
      );
      const a = await store.getNotifications(TA, notificationQuery({ documentId: DOC }));
      eq(
        a.map((n) => [n.notificationId, n.bodyMessage, n.recipients]),
        [['n-1', 'A', [readBack('u2')]]],
        'tenant A',
      );
      const b = await store.getNotifications(TB, notificationQuery({ documentId: DOC }));
      eq(
        b.map((n) => [n.notificationId, n.bodyMessage, n.timestamp, n.recipients]),
        [['n-1', 'B', T0, [readBack('u1')]]],
        'tenant B',
      );
      eq(await store.getNotifications(TB, notificationQuery({ userId: 'u2' })), [], "tenant B by tenant A's recipient");
    });

    storeTest("tokens: listTokens and revokeToken see only the tenant's own", async (store) => {
      const { tokenA, tokenB } = await seedTenants(store);
      eq(
        (await store.listTokens(TA)).map((t) => t.hash),
        [tokenA.hash],
        'tenant A tokens',
      );
      eq(await store.revokeToken(TA, tokenB.hash, T0 + 5), false, "tenant A revoking tenant B's token");
      eq((await store.findCredentials('mk_key-b'))?.activeTokenHashes, [tokenB.hash], 'tenant B hashes');
      // The same token under both tenants is two tokens.
      await store.addToken(TA, { ...tokenB, prefix: 'shared' });
      eq(await store.revokeToken(TA, tokenB.hash, T0 + 6), true, 'tenant A revoking its copy');
      eq((await store.findCredentials('mk_key-b'))?.activeTokenHashes, [tokenB.hash], 'tenant B hashes after A revoked its copy');
      eq(
        (await store.listTokens(TB)).map((t) => [t.prefix, t.revoked]),
        [[tokenB.prefix, false]],
        'tenant B tokens',
      );
      eq(await store.revokeTenant('mk_key-a', T0 + 7), true, 'revokeTenant A');
      eq((await store.findCredentials('mk_key-b'))?.tenant.revoked, false, 'tenant B not revoked');
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe(`${kind} store: concurrency`, () => {
    storeTest(
      '50 concurrent addComments on one annotation all succeed with distinct, contiguous generated ids',
      async (store, db) => {
        await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'root')])], T0);
        await withSecondStore(db, async (other) => {
          const calls = Array.from({ length: 50 }, (_, i) => {
            const batch = i % 2 === 0 ? [draft(`c${i}`)] : [draft(`c${i}a`), draft(`c${i}b`)];
            return (i % 2 === 0 ? store : other).addComments(TA, ORG, DOC, 'ann', batch, assignCommentIds, T0 + 1 + i);
          });
          const settled = await Promise.allSettled(calls);
          const failures = settled.flatMap((r, i) => (r.status === 'rejected' ? [`#${i}: ${String(r.reason)}`] : []));
          eq(failures, [], 'rejected calls');
          const results = settled.map((r) => (r as PromiseFulfilledResult<AddCommentsResult>).value);
          const notAdded = results.filter((r) => r.kind !== 'added');
          eq(notAdded, [], 'results that are not "added"');
          const perCall = results.map((r) => added(r, 'concurrent addComments'));
          for (const [i, ids] of perCall.entries()) {
            eq(
              ids.every((id, j) => j === 0 || id === ids[j - 1]! + 1),
              true,
              `ids of call #${i} are consecutive: ${show(ids)}`,
            );
          }
          const allIds = perCall.flat().sort((x, y) => x - y);
          eq(
            allIds,
            Array.from({ length: 75 }, (_, i) => i + 2),
            'every generated id, sorted',
          );
          const stored = commentIdsOf(await store.getComments(TA, commentQuery('ann')));
          eq(
            stored,
            Array.from({ length: 76 }, (_, i) => i + 1),
            'thread in creation order',
          );
        });
      },
    );

    storeTest(
      '20 concurrent upsertUsers batches over overlapping users in different orders all succeed (no deadlock)',
      async (store, db) => {
        const users = Array.from({ length: 12 }, (_, i) => `user-${String(i).padStart(2, '0')}`);
        const scope = { kind: 'document', id: DOC } as const;
        const orderFor = (k: number): string[] => {
          const rotated = [...users.slice(k % users.length), ...users.slice(0, k % users.length)];
          return k % 2 === 0 ? rotated : rotated.reverse();
        };
        await withSecondStore(db, async (other) => {
          const calls = Array.from({ length: 20 }, (_, k) =>
            (k % 2 === 0 ? store : other).upsertUsers(
              TA,
              ORG,
              scope,
              orderFor(k).map((userId): UserWrite => ({ userId, name: `name-${k}`, email: `k${k}@example.com` })),
              T0 + k,
            ),
          );
          const settled = await Promise.allSettled(calls);
          const failures = settled.flatMap((r, k) => (r.status === 'rejected' ? [`batch ${k}: ${String(r.reason)}`] : []));
          eq(failures, [], 'rejected batches');
        });
        const profiles = await store.findProfiles(TA, ORG, users);
        eq(sorted(profiles.keys()), users, 'users with a profile');
        // Every batch wrote every user: batches are atomic, so one batch's values are on every user.
        const names = new Set([...profiles.values()].map((p) => p.name));
        eq(names.size, 1, `one batch wins on every user: ${show([...profiles.values()])}`);
        for (const p of profiles.values()) {
          eq(p.email, `k${p.name!.slice('name-'.length)}@example.com`, `name and email of ${p.userId} come from one batch`);
        }
        eq(
          sorted(
            await store.updateUsers(
              TA,
              ORG,
              scope,
              users.map((userId) => ({ userId })),
              T0 + 100,
            ),
          ),
          users,
          'document members',
        );
      },
    );

    storeTest(
      '10 concurrent addAnnotations batches over the same ids in different orders all succeed (no deadlock); each id is added once',
      async (store, db) => {
        const ids = Array.from({ length: 10 }, (_, i) => `ann-${i}`);
        const orderFor = (k: number): string[] => (k % 2 === 1 ? [...ids].reverse() : [...ids.slice(k), ...ids.slice(0, k)]);
        await withSecondStore(db, async (other) => {
          const calls = Array.from({ length: 10 }, (_, k) =>
            (k % 2 === 0 ? store : other).addAnnotations(
              TA,
              ORG,
              DOC,
              orderFor(k).map((id) => annotation(id, [newComment(1, `batch ${k}`)])),
              T0 + k,
            ),
          );
          const settled = await Promise.allSettled(calls);
          const failures = settled.flatMap((r, k) =>
            r.status === 'rejected'
              ? [
                  `batch ${k}: ${(r.reason as Error)?.name} ${(r.reason as { code?: string })?.code ?? ''} ` +
                    `${(r.reason as Error)?.message}`,
                ]
              : [],
          );
          eq(failures, [], 'rejected batches');
          const taken = settled.map((r) => (r as PromiseFulfilledResult<Set<string>>).value);
          for (const id of ids) {
            const winners = taken.flatMap((t, k) => (t.has(id) ? [] : [k]));
            eq(winners.length, 1, `batches that added ${id}: ${show(winners)}`);
            const stored = await store.getComments(TA, commentQuery(id));
            eq(
              stored.map((c) => [c.commentId, c.text]),
              [[1, `batch ${winners[0]}`]],
              `thread ${id}`,
            );
          }
        });
      },
    );

    storeTest(
      'concurrent writes of one id from two stores: exactly one wins (notification, annotation, chosen commentId)',
      async (store, db) => {
        await store.addAnnotations(TA, ORG, DOC, [annotation('thread', [newComment(1, 'root')])], T0);
        await withSecondStore(db, async (other) => {
          const notes = await Promise.all(
            [store, other, store, other].map((s, i) =>
              s.addNotification(TA, ORG, notification('n-race', { bodyMessage: `writer ${i}`, recipients: [`u${i}`] })),
            ),
          );
          eq(notes.filter((x) => x).length, 1, `addNotification results ${show(notes)}`);
          const stored = await store.getNotifications(TA, notificationQuery({ documentId: DOC }));
          const winner = notes.indexOf(true);
          eq(
            stored.map((n) => [n.bodyMessage, n.recipients]),
            [[`writer ${winner}`, [readBack(`u${winner}`)]]],
            'the winning notification',
          );

          const anns = await Promise.all(
            [store, other, store, other].map((s, i) =>
              s.addAnnotations(TA, ORG, DOC, [annotation('ann-race', [newComment(1, `writer ${i}`)])], T0),
            ),
          );
          eq(anns.map((t) => sorted(t)).filter((t) => t.length === 0).length, 1, `addAnnotations taken sets ${show(anns)}`);
          const annWinner = anns.findIndex((t) => t.size === 0);
          eq(
            (await store.getComments(TA, commentQuery('ann-race'))).map((c) => c.text),
            [`writer ${annWinner}`],
            'the winning annotation',
          );

          const comments = await Promise.all(
            [store, other, store, other].map((s, i) =>
              s.addComments(TA, ORG, DOC, 'thread', [draft(`writer ${i}`, 42)], assignCommentIds, T0),
            ),
          );
          eq(comments.filter((r) => r.kind === 'added').length, 1, `addComments results ${show(comments)}`);
          eq(
            comments.filter((r) => r.kind === 'comment_exists' && r.commentId === 42).length,
            3,
            `addComments results ${show(comments)}`,
          );
          const commentWinner = comments.findIndex((r) => r.kind === 'added');
          eq(
            (await store.getComments(TA, commentQuery('thread'))).map((c) => [c.commentId, c.text]),
            [
              [1, 'root'],
              [42, `writer ${commentWinner}`],
            ],
            'thread',
          );
        });
      },
    );
  });
}
