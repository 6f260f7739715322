// Organizations as objects (docs/api.md, "Organizations"): organizations/add, get and update, on the configured
// database. Happy: create, rename, read by id and all, paging in id order, implicit creation by any write that
// names an organization. Errors: the request rules, each answered INVALID_ARGUMENT with nothing
// written. Security: credentials first, and tenant b naming tenant a's organizations reads and
// changes nothing of a's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, notificationData, PATHS, type TestApp } from '../helpers/app.js';
import { assertNoLeak, badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';
import { eachBadTime } from '../helpers/given-times.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const HEX32 = /^[0-9a-f]{32}$/;
const get = async (data: Record<string, unknown>) => (await t.a.ok(PATHS.organizationsGet, data)) as any;
const names = (list: { id: string; organizationName: string }[]) => list.map((o) => [o.id, o.organizationName]);

describe('organizations: happy paths', () => {
  test('add creates each organization and answers its internal id; get reads them by id, unknown ids left out', async () => {
    const [o1, o2] = [uniq('org'), uniq('org')];
    const started = Date.now();
    const add = (await t.a.ok(PATHS.organizationsAdd, {
      organizations: [{ organizationId: o1, organizationName: 'One' }, { organizationId: o2 }],
    })) as any;
    assert.equal(add.message, 'Organization(s) added successfully.');
    assert.deepEqual(Object.keys(add.data), [o1, o2]);
    for (const o of [o1, o2]) {
      assert.equal(add.data[o].success, true);
      assert.equal(add.data[o].message, 'Added Successfully');
      assert.match(add.data[o].id, HEX32);
    }
    assert.notEqual(add.data[o1].id, add.data[o2].id);
    const again = (await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: o1 }] })) as any;
    assert.equal(again.data[o1].id, add.data[o1].id, 'the internal id is the same every time');

    const got = await get({ organizationIds: [o2, 'nobody-here', o1] });
    assert.equal(got.message, 'Organization(s) retrieved successfully.');
    assert.deepEqual(names(got.data), [
      [o1, 'One'],
      [o2, ''],
    ]);
    for (const o of got.data) {
      assert.deepEqual(Object.keys(o).sort(), ['createdAt', 'disabled', 'id', 'lastUpdated', 'organizationName']);
      assert.equal(o.disabled, false);
      assert.ok(Number.isInteger(o.createdAt) && o.createdAt >= started - 1000, JSON.stringify(o));
      assert.ok(o.lastUpdated >= o.createdAt);
    }
    assert.equal(got.pageToken, undefined);
  });

  test('add renames when given a name and keeps the name without one; update renames what exists, creates nothing', async () => {
    const [o1, o2, ghost] = [uniq('org'), uniq('org'), uniq('ghost')];
    const added = (await t.a.ok(PATHS.organizationsAdd, {
      organizations: [{ organizationId: o1, organizationName: 'One' }, { organizationId: o2 }],
    })) as any;
    const [before1] = (await get({ organizationIds: [o1] })).data;
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: o1, organizationName: null }] });
    assert.deepEqual((await get({ organizationIds: [o1] })).data, [before1], 'no name: nothing changes');
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: o1, organizationName: 'Uno' }] });
    const upd = (await t.a.ok(PATHS.organizationsUpdate, {
      organizations: [
        { organizationId: o2, organizationName: 'Dos' },
        { organizationId: ghost, organizationName: 'Nobody' },
      ],
    })) as any;
    assert.equal(upd.message, 'Organization(s) updated successfully.');
    assert.deepEqual(upd.data, {
      [o2]: { success: true, id: added.data[o2].id, message: 'Updated Successfully' },
      [ghost]: { success: false, id: upd.data[ghost].id, message: 'Organization does not exist' },
    });
    assert.match(added.data[o2].id, HEX32, 'update answers the internal id that add answered');
    assert.match(upd.data[ghost].id, HEX32);
    const after = (await get({ organizationIds: [o1, o2, ghost] })).data;
    assert.deepEqual(names(after), [
      [o1, 'Uno'],
      [o2, 'Dos'],
    ]);
    assert.ok(after[0].lastUpdated > before1.lastUpdated, 'a rename moves lastUpdated');
    assert.equal(after[0].createdAt, before1.createdAt, 'and keeps createdAt');
  });

  test('a write that names an organization brings it into being: users, threads, notifications, settings', async () => {
    const [byUsers, byThread, byNotification, bySettings] = [uniq('org'), uniq('org'), uniq('org'), uniq('org')];
    assert.deepEqual((await get({ organizationIds: [byUsers, byThread, byNotification, bySettings] })).data, []);
    await t.a.ok(PATHS.usersAdd, { organizationId: byUsers, users: [{ userId: 'u' }] });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: byThread,
      documentId: 'd',
      commentAnnotations: [{ commentData: [{ commentText: 'hi', from: { userId: 'u' } }] }],
    });
    await t.a.ok(PATHS.notificationsAdd, notificationData(byNotification, { notifyUsers: [{ userId: 'u' }] }));
    await t.a.ok(PATHS.notificationsConfigSet, {
      organizationId: bySettings,
      documentIds: ['d'],
      userIds: ['u'],
      config: { inbox: 'ALL' },
    });
    const made = (await get({ organizationIds: [byUsers, byThread, byNotification, bySettings] })).data;
    assert.deepEqual(names(made), [
      [byUsers, ''],
      [byThread, ''],
      [byNotification, ''],
      [bySettings, ''],
    ]);
    for (const o of made) assert.equal(o.disabled, false);
    const [named] = (await get({ organizationIds: [byUsers] })).data;
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: byUsers, organizationName: 'Named later' }] });
    await t.a.ok(PATHS.usersAdd, { organizationId: byUsers, users: [{ userId: 'v' }] });
    const [still] = (await get({ organizationIds: [byUsers] })).data;
    assert.equal(still.organizationName, 'Named later', 'a later write leaves the organization as it is');
    assert.equal(still.createdAt, named.createdAt);
  });

  test('get without ids lists every organization of the tenant in id order, paged exactly', async () => {
    const fresh = await makeTestApp();
    try {
      const ids = Array.from({ length: 7 }, (_, i) => `p-${String(i).padStart(2, '0')}`);
      await fresh.a.ok(PATHS.organizationsAdd, {
        organizations: [...ids].reverse().map((organizationId) => ({ organizationId })),
      });
      await fresh.b.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: 'p-99' }] });
      for (const pageSize of [1, 2, 3, 7, 1000]) {
        const seen: string[] = [];
        let pageToken: string | undefined;
        do {
          const r = (await fresh.a.ok(PATHS.organizationsGet, { pageSize, ...(pageToken ? { pageToken } : {}) })) as any;
          assert.ok(r.data.length <= pageSize);
          seen.push(...r.data.map((o: { id: string }) => o.id));
          pageToken = r.pageToken;
        } while (pageToken);
        assert.deepEqual(seen, ids, `pageSize ${pageSize}: every organization once, in id order, none of b's`);
      }
      const first = (await fresh.a.ok(PATHS.organizationsGet, { organizationIds: ids.slice(0, 4), pageSize: 2 })) as any;
      assert.deepEqual(
        first.data.map((o: { id: string }) => o.id),
        ids.slice(0, 2),
      );
      const second = (await fresh.a.ok(PATHS.organizationsGet, {
        organizationIds: ids.slice(0, 4),
        pageSize: 2,
        pageToken: first.pageToken,
      })) as any;
      assert.deepEqual(
        second.data.map((o: { id: string }) => o.id),
        ids.slice(2, 4),
      );
      assert.equal(second.pageToken, undefined);
      assert.deepEqual(
        (await fresh.a.ok(PATHS.organizationsGet, { organizationIds: [] })).data.length,
        7,
        'an empty list is no filter',
      );
    } finally {
      await fresh.close();
    }
  });
  test('the order is byte order of the ids on both databases (upper case before lower, accents after)', async () => {
    const fresh = await makeTestApp();
    try {
      const ids = ['alpha', 'Zed', 'Ärger', '_under', 'Beta', '0zero'];
      await fresh.a.ok(PATHS.organizationsAdd, { organizations: ids.map((organizationId) => ({ organizationId })) });
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const r = (await fresh.a.ok(PATHS.organizationsGet, { pageSize: 2, ...(pageToken ? { pageToken } : {}) })) as any;
        seen.push(...r.data.map((o: { id: string }) => o.id));
        pageToken = r.pageToken;
      } while (pageToken);
      assert.deepEqual(seen, ['0zero', 'Beta', 'Zed', '_under', 'alpha', 'Ärger']);
    } finally {
      await fresh.close();
    }
  });
});

describe('organizations: errors', () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['add without organizations', PATHS.organizationsAdd, {}, /data\.organizations/],
    ['add with an empty list', PATHS.organizationsAdd, { organizations: [] }, /data\.organizations/],
    ['add with an empty id', PATHS.organizationsAdd, { organizations: [{ organizationId: '' }] }, /organizationId/],
    [
      'add with an id over 256',
      PATHS.organizationsAdd,
      { organizations: [{ organizationId: 'x'.repeat(257) }] },
      /organizationId/,
    ],
    [
      'add with a name that is not a string',
      PATHS.organizationsAdd,
      { organizations: [{ organizationId: 'o', organizationName: 5 }] },
      /organizationName/,
    ],
    [
      'add with the same id twice',
      PATHS.organizationsAdd,
      { organizations: [{ organizationId: 'dup' }, { organizationId: 'dup', organizationName: 'x' }] },
      /data\.organizations\[1\]\.organizationId repeats/,
    ],
    [
      'update with the same id twice',
      PATHS.organizationsUpdate,
      { organizations: [{ organizationId: 'd2' }, { organizationId: 'd2' }] },
      /repeats/,
    ],
    ['get with ids that are not strings', PATHS.organizationsGet, { organizationIds: [1] }, /organizationIds/],
    ['get with pageSize 0', PATHS.organizationsGet, { pageSize: 0 }, /data\.pageSize/],
    ['get with pageSize 1001', PATHS.organizationsGet, { pageSize: 1001 }, /data\.pageSize/],
    ['get with a garbage pageToken', PATHS.organizationsGet, { pageToken: '!!' }, /pageToken/],
    [
      'get with a notification page token',
      PATHS.organizationsGet,
      { pageToken: Buffer.from('[1,5,"n","x"]').toString('base64url') },
      /pageToken/,
    ],
  ];
  for (const [what, path, data, message] of cases) {
    test(`${what}: INVALID_ARGUMENT naming the member, nothing written`, async () => {
      const before = (await t.a.ok(PATHS.organizationsGet, {})) as any;
      const r = await t.a.post(path, data);
      assert.match(expectError(r, 400, 'INVALID_ARGUMENT', what), message);
      assert.deepEqual(((await t.a.ok(PATHS.organizationsGet, {})) as any).data, before.data);
    });
  }

  test('a page token is only good for the filters that issued it', async () => {
    const [o1, o2] = [uniq('org'), uniq('org')];
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: o1 }, { organizationId: o2 }] });
    const first = (await t.a.ok(PATHS.organizationsGet, { organizationIds: [o1, o2], pageSize: 1 })) as any;
    assert.ok(first.pageToken);
    const r = await t.a.post(PATHS.organizationsGet, { organizationIds: [o1], pageSize: 1, pageToken: first.pageToken });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT'), /pageToken was issued for other filters/);
    const same = (await t.a.ok(PATHS.organizationsGet, {
      organizationIds: [o2, o1, o2],
      pageSize: 1,
      pageToken: first.pageToken,
    })) as any;
    assert.deepEqual(
      same.data.map((o: { id: string }) => o.id),
      [o2],
      'the same ids in another order are the same filter',
    );
  });
});

describe('organizations: security', () => {
  const OPS = [PATHS.organizationsAdd, PATHS.organizationsGet, PATHS.organizationsUpdate] as const;
  for (const path of OPS) {
    test(`${path}: missing or bad credentials are 401 before the body is looked at`, async () => {
      await expectMissingCredentials(t, path, { data: 'not even an object' });
      for (const [label, headers] of badCredentialCases(t)) {
        await expectBadCredentials(t, path, label, headers, { data: { organizations: [{ organizationId: 'x' }] } });
      }
    });
  }

  test("tenant b naming tenant a's organizations reads nothing of a's and changes nothing", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: org, organizationName: 'Mine' }] });
    const mine = (await get({ organizationIds: [org] })).data;
    assert.deepEqual(((await t.b.ok(PATHS.organizationsGet, { organizationIds: [org] })) as any).data, []);
    const all = ((await t.b.ok(PATHS.organizationsGet, {})) as any).data as { id: string }[];
    assert.ok(!all.some((o) => o.id === org), 'b listing all does not see it');
    const upd = (await t.b.ok(PATHS.organizationsUpdate, {
      organizations: [{ organizationId: org, organizationName: 'Hijacked' }],
    })) as any;
    assert.deepEqual(upd.data[org], { success: false, id: upd.data[org].id, message: 'Organization does not exist' });
    const add = (await t.b.ok(PATHS.organizationsAdd, {
      organizations: [{ organizationId: org, organizationName: 'Theirs' }],
    })) as any;
    assert.notEqual(
      add.data[org].id,
      ((await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: org }] })) as any).data[org].id,
      "b's organization of the same name is another organization, with another internal id",
    );
    assert.deepEqual((await get({ organizationIds: [org] })).data, mine, "a's is as it was");
  });

  test('hostile ids and names are plain strings that come back as sent; errors say nothing internal', async () => {
    const hostile = ["o'); DROP TABLE organizations; --", '__proto__', '<script>alert(1)</script>', 'ünï©ødé 🎉'];
    await t.a.ok(PATHS.organizationsAdd, {
      organizations: hostile.map((organizationId) => ({ organizationId, organizationName: organizationId })),
    });
    const got = (await get({ organizationIds: hostile })).data as { id: string; organizationName: string }[];
    assert.deepEqual(got.map((o) => o.id).sort(), [...hostile].sort());
    for (const o of got) assert.equal(o.organizationName, o.id);
    const r = await t.a.post(PATHS.organizationsGet, { pageToken: Buffer.from('[2,"\\u0000","x"]').toString('base64url') });
    expectError(r, 400, 'INVALID_ARGUMENT');
    assertNoLeak(r, 'a hostile page token');
  });
});

describe('organizations: the times an add keeps (docs/api.md, "What an import keeps")', () => {
  const CREATED = Date.UTC(2020, 0, 2, 3, 4, 5, 6);
  const UPDATED = Date.UTC(2021, 6, 7, 8, 9, 10, 11);
  const read = async (id: string) => (await get({ organizationIds: [id] })).data[0];

  test('given createdAt and lastUpdated are what get answers; a second add of the same id keeps them', async () => {
    const [o1, o2] = [uniq('org'), uniq('org')];
    await t.a.ok(PATHS.organizationsAdd, {
      organizations: [{ organizationId: o1, organizationName: 'Old', createdAt: CREATED, lastUpdated: UPDATED }],
    });
    assert.deepEqual([(await read(o1)).createdAt, (await read(o1)).lastUpdated], [CREATED, UPDATED]);
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: o1, createdAt: 1, lastUpdated: 2 }] });
    assert.deepEqual([(await read(o1)).createdAt, (await read(o1)).lastUpdated], [CREATED, UPDATED]);
    // createdAt alone: lastUpdated is the later of now and createdAt, as a thread's (here: now).
    const started = Date.now();
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: o2, createdAt: CREATED }] });
    const o = await read(o2);
    assert.equal(o.createdAt, CREATED);
    assert.ok(o.lastUpdated >= started - 1000, JSON.stringify(o));
  });

  eachBadTime(async (member, what, value) => {
    const id = uniq('org');
    const r = await t.a.post(PATHS.organizationsAdd, { organizations: [{ organizationId: id, [member]: value }] });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT', what), new RegExp(member));
    assert.deepEqual((await get({ organizationIds: [id] })).data, []);
  });
});
