import { describe } from 'node:test';
import type { NotificationCursor, NotificationQuery } from '../../src/domain/notifications.js';
import { TEST_STORE } from '../helpers/test-database.js';
import { tokenRecord } from '../../src/services/credentials.js';
import {
  T0,
  TA,
  TB,
  ORG,
  DOC,
  show,
  eq,
  idDesc,
  newComment,
  annotation,
  commentQuery,
  readBack,
  notification,
  notificationQuery,
  notificationIdsOf,
  cursorOf,
  storeTest,
  seedTenants,
  readNotifications,
  shownTemplate,
  type ReadNotification,
} from '../helpers/store-fixtures.js';

describe(`${TEST_STORE} store: notifications`, () => {
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
      const expected: ReadNotification = {
        ...rest,
        headlineData: shownTemplate(rest.headlineData),
        recipients: recipients.map((r) => ({ ...r, unread: true })),
        profileVersion: 0,
      };
      eq(await readNotifications(store, TA, notificationQuery({ documentId: DOC })), [expected], 'read by document');
      eq(
        await readNotifications(store, TA, notificationQuery({ userId: 'Bob' })),
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
      const got = await readNotifications(store, TA, notificationQuery({ userId: 'amy', notificationIds: ['n-2'] }));
      eq(got, [{ ...bare, recipients: [readBack('amy')], profileVersion: 0 }], 'bare notification read back');
    },
  );

  storeTest(
    "reads carry their organization's profile version, which every write to its users bumps, and findProfiles reads the profiles",
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
      const versions = async () => [
        (await store.getComments(TA, commentQuery('ann')))[0]!.profileVersion,
        (await readNotifications(store, TA, notificationQuery({ documentId: DOC })))[0]!.profileVersion,
        (await readNotifications(store, TA, notificationQuery({ userId: 'r' })))[0]!.profileVersion,
      ];
      eq(await versions(), [0, 0, 0], 'no users written yet');
      eq([...(await store.findProfiles(TA, ORG, ['actor']))], [], 'no profile yet');
      await store.upsertUsers(TA, 'other-org', null, [{ userId: 'actor', name: 'Elsewhere' }], T0);
      await store.upsertUsers(TB, ORG, null, [{ userId: 'actor', name: 'Other tenant' }], T0);
      eq(await versions(), [0, 0, 0], 'writes in another organization or tenant leave the version as it is');
      eq([...(await store.findProfiles(TA, ORG, ['actor']))], [], 'nor are their profiles found');
      await store.upsertUsers(TA, ORG, null, [{ userId: 'actor', name: 'Profile', photoUrl: 'https://example.com/p.png' }], T0);
      const profile = { userId: 'actor', name: 'Profile', email: null, photoUrl: 'https://example.com/p.png' };
      eq(await versions(), [1, 1, 1], 'users/add bumps it');
      eq([...(await store.findProfiles(TA, ORG, ['actor', 'nobody']))], [['actor', profile]], 'the profile');
      await store.updateUsers(TA, ORG, null, [{ userId: 'actor', email: 'new@example.com' }], T0 + 1);
      eq(await versions(), [2, 2, 2], 'users/update bumps it');
      await store.updateUsers(TA, ORG, { kind: 'document', id: 'not-a-member-here' }, [{ userId: 'actor', name: 'x' }], T0 + 2);
      eq(await versions(), [3, 3, 3], 'so does one that changes nobody (a version may move without a change)');
      eq(
        [...(await store.findProfiles(TA, ORG, ['actor']))],
        [['actor', { ...profile, email: 'new@example.com' }]],
        'the update shows',
      );
    },
  );

  storeTest(
    'reads carry the credentials version current when they ran, which any change to a key or token moves',
    async (store) => {
      await seedTenants(store);
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'hi', 'actor')])], T0);
      await store.addNotification(TA, ORG, notification('n-1', { documentId: DOC, recipients: ['r'] }));
      const versions = async () => [
        (await store.getComments(TA, commentQuery('ann')))[0]!.credentialsVersion,
        (await store.getNotifications(TA, notificationQuery({ documentId: DOC })))[0]!.credentialsVersion,
        (await store.getNotifications(TA, notificationQuery({ userId: 'r' })))[0]!.credentialsVersion,
      ];
      const before = await store.credentialsVersion();
      eq(await versions(), [before, before, before], 'the version a separate read gives');
      await store.addToken(TB, tokenRecord('another-token-for-tenant-b', T0));
      const after = await store.credentialsVersion();
      eq(after > before, true, `adding a token moves the version (${before} -> ${after})`);
      eq(await versions(), [after, after, after], "a token of another tenant moves every tenant's reads");
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
    const [got] = await readNotifications(store, TA, notificationQuery({ documentId: DOC }));
    // User objects show email and name besides their own members (docs/api.md, "User objects in a notification");
    // everything else as written.
    eq(got?.headlineData, shownTemplate(headlineData), 'headlineData');
    eq(got?.sourceData, sourceData, 'sourceData');
    eq(JSON.stringify(got?.headlineData), JSON.stringify(shownTemplate(headlineData)), 'headlineData as JSON text (key order)');
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
    const got = await readNotifications(store, TA, notificationQuery({ documentId: DOC }));
    eq(
      got.map((n) => [n.notificationId, n.bodyMessage, n.timestamp, n.recipients]),
      [['n-1', 'first', T0, [readBack('u1')]]],
      'stored',
    );
    eq(await readNotifications(store, TA, notificationQuery({ userId: 'u2' })), [], 'u2 was not made a recipient');
    eq(await readNotifications(store, TA, notificationQuery({ documentId: 'doc-2' })), [], 'doc-2 has nothing');
  });

  storeTest('the same notificationId is free in another organization and under another tenant', async (store) => {
    eq(await store.addNotification(TA, 'org-1', notification('n-1', { bodyMessage: 'A org-1' })), true, 'tenant A, org-1');
    eq(await store.addNotification(TA, 'org-2', notification('n-1', { bodyMessage: 'A org-2' })), true, 'tenant A, org-2');
    eq(await store.addNotification(TB, 'org-1', notification('n-1', { bodyMessage: 'B org-1' })), true, 'tenant B, org-1');
    const body = async (tenantId: string, organizationId: string) =>
      (await readNotifications(store, tenantId, notificationQuery({ organizationId, userId: 'u1' }))).map((n) => n.bodyMessage);
    eq(await body(TA, 'org-1'), ['A org-1'], 'tenant A, org-1');
    eq(await body(TA, 'org-2'), ['A org-2'], 'tenant A, org-2');
    eq(await body(TB, 'org-1'), ['B org-1'], 'tenant B, org-1');
    eq(await body(TB, 'org-2'), [], 'tenant B, org-2');
  });

  storeTest('documentId and locationId null round-trip; such a notification is found by user, not by document', async (store) => {
    const n = notification('n-null', { documentId: null, locationId: null, recipients: ['u1'] });
    await store.addNotification(TA, ORG, n);
    await store.addNotification(
      TA,
      ORG,
      notification('n-loc', { documentId: null, locationId: 'L', recipients: ['u1'], timestamp: T0 - 1 }),
    );
    const byUser = await readNotifications(store, TA, notificationQuery({ userId: 'u1' }));
    eq(
      byUser.map((x) => [x.notificationId, x.documentId, x.locationId]),
      [
        ['n-null', null, null],
        ['n-loc', null, 'L'],
      ],
      'by user',
    );
    eq(await readNotifications(store, TA, notificationQuery({ documentId: DOC })), [], 'by document');
    eq(
      notificationIdsOf(await readNotifications(store, TA, notificationQuery({ userId: 'u1', locationId: 'L' }))),
      ['n-loc'],
      'by user and location',
    );
  });

  storeTest('getNotifications by document, by user, or both; location and id filters combine with AND', async (store) => {
    const add = (id: string, over: Parameters<typeof notification>[1]) => store.addNotification(TA, ORG, notification(id, over));
    await add('n1', { documentId: 'D1', locationId: 'L1', recipients: ['u1', 'u2'], timestamp: T0 + 1 });
    await add('n2', { documentId: 'D1', locationId: 'L2', recipients: ['u2'], timestamp: T0 + 2 });
    await add('n3', { documentId: 'D2', locationId: 'L1', recipients: ['u1'], timestamp: T0 + 3 });
    await add('n4', { documentId: null, locationId: null, recipients: ['u1'], timestamp: T0 + 4 });
    await add('n5', { documentId: 'D1', locationId: null, recipients: ['u3'], timestamp: T0 + 5 });
    await store.addNotification(TA, 'org-other', notification('n6', { documentId: 'D1', recipients: ['u1'], timestamp: T0 + 6 }));
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
        notificationIdsOf(await readNotifications(store, TA, notificationQuery(over))),
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
      notificationIdsOf(await readNotifications(store, TA, notificationQuery({ documentId: DOC }))),
      expected,
      'order by document',
    );
    eq(notificationIdsOf(await readNotifications(store, TA, notificationQuery({ userId: 'u1' }))), expected, 'order by user');
    const bz = notificationIdsOf(
      await readNotifications(store, TA, notificationQuery({ documentId: DOC, notificationIds: ['B', 'Z', 'a', 'b'] })),
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
          notificationIdsOf(await readNotifications(store, TA, notificationQuery({ ...by, ...over })));
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
          const got: ReadNotification[] = await readNotifications(store, TA, notificationQuery({ ...by, after, limit: 3 }));
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
