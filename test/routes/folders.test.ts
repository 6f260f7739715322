// Folders (docs/api.md, "Folders"): organizations/folders/add, get, update, delete and access/update, on the
// configured database. Happy: a tree made in one request or several, read flat and as a subtree, renamed, moved
// (to the top with "root"), deleted with its subtree (documents stay, in no folder), 50 levels deep.
// Errors: the request rules, unknown parents (NOT_FOUND), moves under a folder's own subtree and
// folders deeper than MARGINALIA_MAX_FOLDER_DEPTH (INVALID_ARGUMENT), with nothing written. Security:
// credentials first, tenant isolation, disabled organizations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';
import { badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';
import { eachBadTime } from '../helpers/given-times.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const folders = async (data: Record<string, unknown>, c = t.a) => ((await c.ok(PATHS.foldersGet, data)) as any).data as any[];
/** [folderId, parentFolderId] of a flat list. */
const shape = (list: any[]) => list.map((f) => [f.folderId, f.parentFolderId]);
/** A nested answer as [folderId, [children...]]. */
const nested = (f: any): unknown => [f.folderId, (f.subFolders ?? []).map(nested)];

describe('folders: happy paths', () => {
  test('add at the top and under a parent (one added earlier in the same request too); get lists every folder flat', async () => {
    const org = uniq('org');
    const started = Date.now();
    const add = (await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: [
        { folderId: 'f1', folderName: 'One' },
        { folderId: 'f2', folderName: 'Two', parentFolderId: 'f1' },
        { folderId: 'f3', parentFolderId: 'root' },
      ],
    })) as any;
    assert.equal(add.message, 'Folder created successfully.');
    assert.deepEqual(add.data, {
      f1: { success: true, id: 'f1', message: 'Folder added.' },
      f2: { success: true, id: 'f2', message: 'Folder added.' },
      f3: { success: true, id: 'f3', message: 'Folder added.' },
    });
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f4', parentFolderId: 'f2' }] });
    const got = (await t.a.ok(PATHS.foldersGet, { organizationId: org })) as any;
    assert.equal(got.message, 'Folders retrieved successfully.');
    assert.deepEqual(shape(got.data), [
      ['f1', 'root'],
      ['f2', 'f1'],
      ['f3', 'root'],
      ['f4', 'f2'],
    ]);
    for (const f of got.data) {
      assert.deepEqual(Object.keys(f).sort(), [
        'accessType',
        'createdAt',
        'folderId',
        'folderName',
        'lastUpdated',
        'organizationId',
        'parentFolderId',
      ]);
      assert.equal(f.organizationId, org);
      assert.equal(f.accessType, 'organizationPrivate');
      assert.ok(Number.isInteger(f.createdAt) && f.createdAt >= started - 1000, JSON.stringify(f));
    }
    assert.deepEqual(
      got.data.map((f: any) => f.folderName),
      ['One', 'Two', '', ''],
    );
    const orgs = ((await t.a.ok(PATHS.organizationsGet, { organizationIds: [org] })) as any).data;
    assert.equal(orgs.length, 1, 'folders/add brings its organization into being');
  });

  test('get with folderId: that folder with its whole subtree nested; unknown folder or organization reads []', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: [
        { folderId: 'a' },
        { folderId: 'b', parentFolderId: 'a' },
        { folderId: 'c', parentFolderId: 'a' },
        { folderId: 'd', parentFolderId: 'b' },
        { folderId: 'other' },
      ],
    });
    const [tree] = await folders({ organizationId: org, folderId: 'a' });
    assert.deepEqual(nested(tree), [
      'a',
      [
        ['b', [['d', []]]],
        ['c', []],
      ],
    ]);
    assert.equal(tree.parentFolderId, 'root');
    assert.equal(tree.subFolders[0].parentFolderId, 'a');
    assert.deepEqual(await folders({ organizationId: org, folderId: 'nope' }), []);
    assert.deepEqual(await folders({ organizationId: uniq('nobody') }), []);
  });

  test('update renames and moves; "root" moves to the top; add of an existing folder renames it', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: [{ folderId: 'f1' }, { folderId: 'f2', folderName: 'Two', parentFolderId: 'f1' }, { folderId: 'f3' }],
    });
    const [before2] = (await folders({ organizationId: org })).filter((f) => f.folderId === 'f2');
    const upd = (await t.a.ok(PATHS.foldersUpdate, {
      organizationId: org,
      folders: [
        { folderId: 'f2', folderName: 'Two bis', parentFolderId: 'f3' },
        { folderId: 'ghost', folderName: 'x' },
      ],
    })) as any;
    assert.equal(upd.message, 'Folder Updated successfully.');
    assert.deepEqual(upd.data, {
      f2: { success: true, id: 'f2', message: 'Folder Updated.' },
      ghost: { success: false, id: 'ghost', message: 'Folder does not exist', code: 'not-found' },
    });
    let all = await folders({ organizationId: org });
    assert.deepEqual(shape(all), [
      ['f1', 'root'],
      ['f2', 'f3'],
      ['f3', 'root'],
    ]);
    const after2 = all.find((f) => f.folderId === 'f2');
    assert.equal(after2.folderName, 'Two bis');
    assert.equal(after2.createdAt, before2.createdAt);
    await t.a.ok(PATHS.foldersUpdate, { organizationId: org, folders: [{ folderId: 'f2', parentFolderId: 'root' }] });
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f3', folderName: 'Three' }] });
    all = await folders({ organizationId: org });
    assert.deepEqual(shape(all), [
      ['f1', 'root'],
      ['f2', 'root'],
      ['f3', 'root'],
    ]);
    assert.deepEqual(
      all.map((f) => f.folderName),
      ['', 'Two bis', 'Three'],
      'a name is kept unless given',
    );
  });

  test('delete: the folder and its subtree go; their documents stay, in no folder; other folders stay', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: [
        { folderId: 'f1' },
        { folderId: 'f2', parentFolderId: 'f1' },
        { folderId: 'f3', parentFolderId: 'f2' },
        { folderId: 'keep' },
      ],
    });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, folderId: 'f3', documents: [{ documentId: 'deep' }] });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, folderId: 'keep', documents: [{ documentId: 'kept' }] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, folderId: 'f2', users: [{ userId: 'u' }] });
    const del = (await t.a.ok(PATHS.foldersDelete, { organizationId: org, folderIds: ['f1', 'f2', 'ghost'] })) as any;
    assert.equal(del.message, 'Folder(s) deleted successfully.');
    assert.deepEqual(del.data, {
      f1: { success: true, id: 'f1', message: 'Folder deleted.' },
      f2: { success: true, id: 'f2', message: 'Folder deleted.' },
      ghost: { success: false, id: 'ghost', message: 'Folder does not exist', code: 'not-found' },
    });
    assert.deepEqual(shape(await folders({ organizationId: org })), [['keep', 'root']]);
    const docs = ((await t.a.ok(PATHS.documentsGet, { organizationId: org })) as any).data;
    assert.deepEqual(
      docs.map((d: any) => [d.id, d.folderId]),
      [
        ['deep', null],
        ['kept', 'keep'],
      ],
    );
    const upd = (await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      folderId: 'f2',
      users: [{ userId: 'u', name: 'x' }],
    })) as any;
    assert.equal(upd.data.u.success, false, 'the folder membership went with the folder');
  });

  test('access/update sets the access type of folders that exist', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f1' }] });
    const acc = (await t.a.ok(PATHS.foldersAccess, {
      organizationId: org,
      folderIds: ['f1', 'ghost'],
      accessType: 'public',
    })) as any;
    assert.equal(acc.message, 'Updated access for folders successfully.');
    assert.deepEqual(acc.data, {
      f1: { success: true, accessType: 'public', message: 'Folder access type updated.' },
      ghost: { success: false, accessType: 'public', message: 'Folder does not exist', code: 'not-found' },
    });
    assert.equal((await folders({ organizationId: org }))[0].accessType, 'public');
    assert.deepEqual(await folders({ organizationId: org, folderId: 'ghost' }), [], 'access/update made no folder');
  });

  test('a tree 50 levels deep: made in one request, read as one nested subtree, guarded against cycles, deleted whole', async () => {
    const org = uniq('org');
    const ids = Array.from({ length: 50 }, (_, i) => `level-${String(i).padStart(2, '0')}`);
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: ids.map((folderId, i) => ({ folderId, ...(i > 0 ? { parentFolderId: ids[i - 1] } : {}) })),
    });
    const [top] = await folders({ organizationId: org, folderId: ids[0] });
    const walked: string[] = [];
    for (let at = top; at; at = at.subFolders[0]) walked.push(at.folderId);
    assert.deepEqual(walked, ids);
    const r = await t.a.post(PATHS.foldersUpdate, {
      organizationId: org,
      folders: [{ folderId: ids[0], parentFolderId: ids[49] }],
    });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT'), /data\.folders\[0\]\.parentFolderId/);
    await t.a.ok(PATHS.foldersUpdate, { organizationId: org, folders: [{ folderId: ids[49], parentFolderId: ids[0] }] });
    assert.equal((await folders({ organizationId: org })).find((f) => f.folderId === ids[49]).parentFolderId, ids[0]);
    await t.a.ok(PATHS.foldersDelete, { organizationId: org, folderIds: [ids[0]] });
    assert.deepEqual(await folders({ organizationId: org }), []);
  });

  test('a disabled organization refuses every folder write; reads keep working', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }, { folderId: 'g' }] });
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    const before1 = await folders({ organizationId: org });
    const writes: [string, unknown][] = [
      [PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'new' }] }],
      [PATHS.foldersUpdate, { organizationId: org, folders: [{ folderId: 'f', folderName: 'x', parentFolderId: 'g' }] }],
      [PATHS.foldersDelete, { organizationId: org, folderIds: ['f'] }],
      [PATHS.foldersAccess, { organizationId: org, folderIds: ['f'], accessType: 'public' }],
    ];
    for (const [path, data] of writes) {
      const r = await t.a.post(path, data);
      assert.equal(expectError(r, 403, 'PERMISSION_DENIED', path), `Organization ${org} is disabled.`);
    }
    assert.deepEqual(await folders({ organizationId: org }), before1);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: false });
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'new' }] });
  });
});

describe('folders: errors', () => {
  const org = 'errors-org';
  const cases: [string, string, unknown, RegExp][] = [
    ['add without organizationId', PATHS.foldersAdd, { folders: [{ folderId: 'f' }] }, /data\.organizationId/],
    ['add without folders', PATHS.foldersAdd, { organizationId: org }, /data\.folders/],
    ['add with an empty list', PATHS.foldersAdd, { organizationId: org, folders: [] }, /data\.folders/],
    ['add with an empty id', PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: '' }] }, /folderId/],
    [
      'add with a name over 256',
      PATHS.foldersAdd,
      { organizationId: org, folders: [{ folderId: 'f', folderName: 'x'.repeat(257) }] },
      /folderName/,
    ],
    [
      'add with the same id twice',
      PATHS.foldersAdd,
      { organizationId: org, folders: [{ folderId: 'dup' }, { folderId: 'dup' }] },
      /data\.folders\[1\]\.folderId repeats/,
    ],
    [
      'add of a folder called "root"',
      PATHS.foldersAdd,
      { organizationId: org, folders: [{ folderId: 'root' }] },
      /data\.folders\[0\]\.folderId/,
    ],
    [
      'add of a folder under itself',
      PATHS.foldersAdd,
      { organizationId: org, folders: [{ folderId: 'f', parentFolderId: 'f' }] },
      /data\.folders\[0\]\.parentFolderId/,
    ],
    [
      'update with a parent that is not a string',
      PATHS.foldersUpdate,
      { organizationId: org, folders: [{ folderId: 'f', parentFolderId: 5 }] },
      /parentFolderId/,
    ],
    ['get with a folderId that is not a string', PATHS.foldersGet, { organizationId: org, folderId: 5 }, /folderId/],
    ['delete without folderIds', PATHS.foldersDelete, { organizationId: org }, /data\.folderIds/],
    [
      'access with an unknown accessType',
      PATHS.foldersAccess,
      { organizationId: org, folderIds: ['f'], accessType: 'secret' },
      /accessType/,
    ],
  ];
  for (const [what, path, data, message] of cases) {
    test(`${what}: INVALID_ARGUMENT naming the member, nothing written`, async () => {
      const r = await t.a.post(path, data);
      assert.match(expectError(r, 400, 'INVALID_ARGUMENT', what), message);
      assert.deepEqual(await folders({ organizationId: org }), []);
    });
  }

  test('an unknown parent is NOT_FOUND, on add and update, and the whole request writes nothing', async () => {
    const o = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: o, folders: [{ folderId: 'f' }] });
    const add = await t.a.post(PATHS.foldersAdd, {
      organizationId: o,
      folders: [{ folderId: 'g' }, { folderId: 'h', parentFolderId: 'nope' }],
    });
    assert.match(expectError(add, 404, 'NOT_FOUND'), /Folder nope does not exist/);
    const upd = await t.a.post(PATHS.foldersUpdate, {
      organizationId: o,
      folders: [{ folderId: 'f', folderName: 'x', parentFolderId: 'nope' }],
    });
    expectError(upd, 404, 'NOT_FOUND');
    const all = await folders({ organizationId: o });
    assert.deepEqual(
      all.map((f) => [f.folderId, f.folderName]),
      [['f', '']],
    );
  });

  test('a move under its own subtree is INVALID_ARGUMENT, also when an earlier entry of the request made it so', async () => {
    const o = uniq('org');
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: o,
      folders: [{ folderId: 'a' }, { folderId: 'b', parentFolderId: 'a' }, { folderId: 'c' }],
    });
    const before1 = await folders({ organizationId: o });
    for (const moves of [
      [{ folderId: 'a', parentFolderId: 'b' }],
      [{ folderId: 'a', parentFolderId: 'a' }],
      [
        { folderId: 'c', parentFolderId: 'b' },
        { folderId: 'a', parentFolderId: 'c' },
      ],
    ]) {
      const r = await t.a.post(PATHS.foldersUpdate, { organizationId: o, folders: moves });
      assert.match(expectError(r, 400, 'INVALID_ARGUMENT', JSON.stringify(moves)), /parentFolderId/);
    }
    assert.deepEqual(await folders({ organizationId: o }), before1);
  });
});

describe('folders: depth (MARGINALIA_MAX_FOLDER_DEPTH)', () => {
  const LIMIT = 5;
  let d: TestApp;
  before(async () => {
    d = await makeTestApp({ maxFolderDepth: LIMIT });
  });
  after(async () => d.close());
  const list = async (org: string) => ((await d.a.ok(PATHS.foldersGet, { organizationId: org })) as any).data as any[];
  /** A chain `prefix-1` > `prefix-2` > ... of `n` folders, the first under `parent` (absent: the top). */
  const chain = (prefix: string, n: number, parent?: string) =>
    Array.from({ length: n }, (_, i) => ({
      folderId: `${prefix}-${i + 1}`,
      ...(i > 0 ? { parentFolderId: `${prefix}-${i}` } : parent ? { parentFolderId: parent } : {}),
    }));

  test('folders as deep as the limit: added in one request, moved there with their subtree, read nested', async () => {
    const org = uniq('org');
    await d.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [...chain('a', LIMIT), ...chain('b', 3)] });
    const [top] = ((await d.a.ok(PATHS.foldersGet, { organizationId: org, folderId: 'a-1' })) as any).data;
    let levels = 0;
    for (let at = top; at; at = at.subFolders[0]) levels++;
    assert.equal(levels, LIMIT);
    // b-1 > b-2 > b-3 under a-2: b-3 is 2 + 3 = 5 deep.
    await d.a.ok(PATHS.foldersUpdate, { organizationId: org, folders: [{ folderId: 'b-1', parentFolderId: 'a-2' }] });
    assert.equal((await list(org)).find((f) => f.folderId === 'b-1').parentFolderId, 'a-2');
  });

  test('an add past the limit is INVALID_ARGUMENT naming the entry, and the request writes nothing', async () => {
    const org = uniq('org');
    await d.a.ok(PATHS.foldersAdd, { organizationId: org, folders: chain('a', LIMIT) });
    const before1 = await list(org);
    for (const entries of [
      [{ folderId: 'x', parentFolderId: `a-${LIMIT}` }],
      [{ folderId: 'a-1', folderName: 'renamed' }, { folderId: 'ok', parentFolderId: 'a-1' }, ...chain('c', LIMIT + 1)],
    ]) {
      const r = await d.a.post(PATHS.foldersAdd, { organizationId: org, folders: entries });
      const message = expectError(r, 400, 'INVALID_ARGUMENT', JSON.stringify(entries));
      assert.match(message, new RegExp(`data\\.folders\\[${entries.length - 1}\\]\\.parentFolderId`));
      assert.match(message, new RegExp(`at most ${LIMIT} levels`));
    }
    assert.deepEqual(await list(org), before1);
  });

  test('moving a subtree past the limit is INVALID_ARGUMENT, by update and by add, and writes nothing', async () => {
    const org = uniq('org');
    await d.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [...chain('a', 3), ...chain('b', 3), { folderId: 'c' }] });
    const before1 = await list(org);
    // b-1 under a-3: b-3 would be 3 + 3 = 6 deep; so would b-3 after b-1 goes under c, then c under a-2.
    for (const moves of [
      [{ folderId: 'b-1', parentFolderId: 'a-3' }],
      [
        { folderId: 'a-1', folderName: 'renamed' },
        { folderId: 'b-1', parentFolderId: 'c' },
        { folderId: 'c', parentFolderId: 'a-2' },
      ],
    ]) {
      for (const path of [PATHS.foldersUpdate, PATHS.foldersAdd]) {
        const r = await d.a.post(path, { organizationId: org, folders: moves });
        const at = moves.length - 1;
        assert.match(expectError(r, 400, 'INVALID_ARGUMENT', path), new RegExp(`data\\.folders\\[${at}\\]\\.parentFolderId`));
      }
    }
    assert.deepEqual(await list(org), before1);
  });
});

describe('folders: security', () => {
  const OPS = [PATHS.foldersAdd, PATHS.foldersGet, PATHS.foldersUpdate, PATHS.foldersDelete, PATHS.foldersAccess] as const;
  for (const path of OPS) {
    test(`${path}: missing or bad credentials are 401 before the body is looked at`, async () => {
      await expectMissingCredentials(t, path, { data: 'not even an object' });
      for (const [label, headers] of badCredentialCases(t)) {
        await expectBadCredentials(t, path, label, headers, { data: { organizationId: 'o', folderIds: ['f'] } });
      }
    });
  }

  test("tenant b naming tenant a's organization reads, changes and deletes nothing of a's", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: [
        { folderId: 'f', folderName: 'Mine' },
        { folderId: 'g', parentFolderId: 'f' },
      ],
    });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, folderId: 'g', documents: [{ documentId: 'd' }] });
    const mine = await folders({ organizationId: org });
    assert.deepEqual(await folders({ organizationId: org }, t.b), []);
    assert.deepEqual(await folders({ organizationId: org, folderId: 'f' }, t.b), []);
    const upd = (await t.b.ok(PATHS.foldersUpdate, {
      organizationId: org,
      folders: [{ folderId: 'f', folderName: 'Hijacked' }],
    })) as any;
    assert.equal(upd.data.f.success, false);
    expectError(
      await t.b.post(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'x', parentFolderId: 'f' }] }),
      404,
      'NOT_FOUND',
    );
    const del = (await t.b.ok(PATHS.foldersDelete, { organizationId: org, folderIds: ['f', 'g'] })) as any;
    assert.deepEqual([del.data.f.success, del.data.g.success], [false, false]);
    const acc = (await t.b.ok(PATHS.foldersAccess, { organizationId: org, folderIds: ['f'], accessType: 'public' })) as any;
    assert.equal(acc.data.f.success, false);
    await t.b.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] });
    await t.b.ok(PATHS.foldersDelete, { organizationId: org, folderIds: ['f'] });
    assert.deepEqual(await folders({ organizationId: org }), mine, "a's folders are as they were");
    const docs = ((await t.a.ok(PATHS.documentsGet, { organizationId: org })) as any).data;
    assert.deepEqual(
      docs.map((d: any) => d.folderId),
      ['g'],
    );
  });
});

describe('folders: the times an add keeps (docs/api.md, "What an import keeps")', () => {
  const CREATED = Date.UTC(2020, 0, 2, 3, 4, 5, 6);
  const UPDATED = Date.UTC(2021, 6, 7, 8, 9, 10, 11);
  const times = (list: any[], id: string) => {
    const f = list.find((x) => x.folderId === id);
    return [f.createdAt, f.lastUpdated];
  };

  test('given createdAt and lastUpdated are what get answers; a second add of the same id keeps them', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: [
        { folderId: 'kept', folderName: 'Kept', createdAt: CREATED, lastUpdated: UPDATED },
        { folderId: 'under', parentFolderId: 'kept', createdAt: CREATED },
      ],
    });
    assert.deepEqual(times(await folders({ organizationId: org }), 'kept'), [CREATED, UPDATED]);
    const [created, updated] = times(await folders({ organizationId: org }), 'under');
    assert.equal(created, CREATED);
    assert.ok(updated > UPDATED, 'lastUpdated not given: the later of now and createdAt');
    // The subtree read answers the same times.
    const [top] = ((await t.a.ok(PATHS.foldersGet, { organizationId: org, folderId: 'kept' })) as any).data;
    assert.deepEqual([top.createdAt, top.lastUpdated], [CREATED, UPDATED]);
    // A second add changes it as folders/update would, as before: createdAt stays, lastUpdated is now, not the one given.
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'kept', createdAt: 1, lastUpdated: 2 }] });
    const [kept, changed] = times(await folders({ organizationId: org }), 'kept');
    assert.equal(kept, CREATED);
    assert.ok(changed > UPDATED);
  });

  eachBadTime(async (member, what, value) => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f', [member]: value }] });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT', what), new RegExp(member));
    assert.deepEqual(await folders({ organizationId: org }), []);
  });
});
