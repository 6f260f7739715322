import { describe } from 'node:test';
import { TEST_STORE } from '../helpers/test-database.js';
import {
  T0,
  TA,
  TB,
  ORG,
  DOC,
  eq,
  sorted,
  newComment,
  draft,
  annotation,
  commentQuery,
  readBack,
  notification,
  notificationQuery,
  added,
  storeTest,
  seedTenants,
  readNotifications,
} from '../helpers/store-fixtures.js';

describe(`${TEST_STORE} store: tenant isolation`, () => {
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
      await store.addComments(TA, ORG, DOC, 'ann', [draft('A')], T0 + 1),
      { kind: 'annotation_not_found' },
      'tenant A addComments',
    );
    eq(
      sorted(await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(2, 'A two')])], T0 + 2)),
      [],
      'tenant A addAnnotations: id free',
    );
    eq(
      added(await store.addComments(TA, ORG, DOC, 'ann', [draft('A one', 1), draft('A gen')], T0 + 3), 'tenant A'),
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
    eq(added(await store.addComments(TB, ORG, DOC, 'ann', [draft('B gen')], T0 + 4), 'tenant B'), [3], 'tenant B ids');
  });

  storeTest('notifications of another tenant are invisible and untouched', async (store) => {
    await seedTenants(store);
    await store.addNotification(TB, ORG, notification('n-1', { bodyMessage: 'B', recipients: ['u1'], timestamp: T0 }));
    eq(await readNotifications(store, TA, notificationQuery({ documentId: DOC })), [], 'tenant A by document');
    eq(await readNotifications(store, TA, notificationQuery({ userId: 'u1' })), [], 'tenant A by user');
    eq(await readNotifications(store, TA, notificationQuery({ userId: 'u1', notificationIds: ['n-1'] })), [], 'tenant A by id');
    eq(
      await store.addNotification(TA, ORG, notification('n-1', { bodyMessage: 'A', recipients: ['u2'], timestamp: T0 + 1 })),
      true,
      'tenant A addNotification',
    );
    const a = await readNotifications(store, TA, notificationQuery({ documentId: DOC }));
    eq(
      a.map((n) => [n.notificationId, n.bodyMessage, n.recipients]),
      [['n-1', 'A', [readBack('u2')]]],
      'tenant A',
    );
    const b = await readNotifications(store, TB, notificationQuery({ documentId: DOC }));
    eq(
      b.map((n) => [n.notificationId, n.bodyMessage, n.timestamp, n.recipients]),
      [['n-1', 'B', T0, [readBack('u1')]]],
      'tenant B',
    );
    eq(await readNotifications(store, TB, notificationQuery({ userId: 'u2' })), [], "tenant B by tenant A's recipient");
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
