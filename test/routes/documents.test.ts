// Documents as objects (docs/api.md, "Documents"): organizations/documents/add, get, update, delete, move, access
// and disable state, on the configured database. Happy: create, rename, read by id and folder, paging,
// implicit creation, the delete's cascade, moves, access types, the disabled rules. Errors: the request
// rules, each answered INVALID_ARGUMENT or NOT_FOUND with nothing written. Security: credentials
// first, and tenant b naming tenant a's organization reads and changes nothing of a's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, HEX32, makeTestApp, PATHS, type TestApp, user } from '../helpers/app.js';
import { badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';
import { eachBadTime } from '../helpers/given-times.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const docs = async (data: Record<string, unknown>, c = t.a) => ((await c.ok(PATHS.documentsGet, data)) as any).data as any[];
const say = (commentText: string, userId: string) => ({ commentText, from: { userId } });
const thread = (org: string, documentId: string, annotationId: string, text = 'x') =>
  t.a.ok(PATHS.annotationsAdd, {
    organizationId: org,
    documentId,
    commentAnnotations: [{ annotationId, commentData: [say(text, 'u')] }],
  });

describe('documents: happy paths', () => {
  test('add creates each document with an internal id; get reads them by id, unknown ids left out', async () => {
    const org = uniq('org');
    const started = Date.now();
    const add = (await t.a.ok(PATHS.documentsAdd, {
      organizationId: org,
      documents: [{ documentId: 'd1', documentName: 'One' }, { documentId: 'd2' }],
    })) as any;
    assert.equal(add.message, 'Document(s) added successfully.');
    assert.deepEqual(Object.keys(add.data), ['d1', 'd2']);
    for (const d of ['d1', 'd2']) {
      assert.equal(add.data[d].success, true);
      assert.equal(add.data[d].message, 'Added Successfully');
      assert.match(add.data[d].id, HEX32);
    }
    const again = (await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd1' }] })) as any;
    assert.equal(again.data.d1.id, add.data.d1.id, 'the internal id is the same every time');
    const got = (await t.a.ok(PATHS.documentsGet, { organizationId: org, documentIds: ['d2', 'ghost', 'd1'] })) as any;
    assert.equal(got.message, 'Document(s) retrieved successfully.');
    assert.deepEqual(
      got.data.map((d: any) => [d.id, d.documentName, d.folderId, d.accessType, d.disabled]),
      [
        ['d1', 'One', null, 'organizationPrivate', false],
        ['d2', '', null, 'organizationPrivate', false],
      ],
    );
    for (const d of got.data) {
      assert.deepEqual(Object.keys(d).sort(), [
        'accessType',
        'createdAt',
        'disabled',
        'documentName',
        'folderId',
        'id',
        'lastUpdated',
      ]);
      assert.ok(Number.isInteger(d.createdAt) && d.createdAt >= started - 1000, JSON.stringify(d));
      assert.ok(d.lastUpdated >= d.createdAt);
    }
    const orgs = ((await t.a.ok(PATHS.organizationsGet, { organizationIds: [org] })) as any).data;
    assert.equal(orgs.length, 1, 'documents/add brings its organization into being');
  });

  test('update renames what exists and creates nothing; add without a name keeps the name', async () => {
    const org = uniq('org');
    const added = (await t.a.ok(PATHS.documentsAdd, {
      organizationId: org,
      documents: [{ documentId: 'd1', documentName: 'One' }],
    })) as any;
    const [before1] = await docs({ organizationId: org });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd1', documentName: null }] });
    assert.deepEqual(await docs({ organizationId: org }), [before1], 'no name: nothing changes');
    const upd = (await t.a.ok(PATHS.documentsUpdate, {
      organizationId: org,
      documents: [
        { documentId: 'd1', documentName: 'Renamed' },
        { documentId: 'ghost', documentName: 'x' },
      ],
    })) as any;
    assert.equal(upd.message, 'Document(s) updated successfully.');
    assert.deepEqual(upd.data, {
      d1: { success: true, id: added.data.d1.id, message: 'Updated Successfully' },
      ghost: { success: false, id: 'ghost', message: 'Document does not exist', code: 'not-found' },
    });
    const after = await docs({ organizationId: org });
    assert.deepEqual(
      after.map((d) => [d.id, d.documentName]),
      [['d1', 'Renamed']],
    );
    assert.ok(after[0].lastUpdated >= before1.lastUpdated);
    assert.equal(after[0].createdAt, before1.createdAt);
  });

  test('a write that names a document brings it into being', async () => {
    const org = uniq('org');
    await thread(org, 'by-thread', 't1');
    assert.deepEqual(
      (await docs({ organizationId: org })).map((d) => d.id),
      ['by-thread'],
    );
  });

  test('get by folder, "root" for no folder; paged in id order, a token good only for its filters', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] });
    const ids = Array.from({ length: 5 }, (_, i) => `d${i}`);
    await t.a.ok(PATHS.documentsAdd, {
      organizationId: org,
      folderId: 'f',
      documents: ids.slice(0, 3).map((documentId) => ({ documentId })),
    });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: ids.slice(3).map((documentId) => ({ documentId })) });
    const inF = await docs({ organizationId: org, folderId: 'f' });
    assert.deepEqual(
      inF.map((d) => [d.id, d.folderId]),
      [
        ['d0', 'f'],
        ['d1', 'f'],
        ['d2', 'f'],
      ],
    );
    assert.deepEqual(
      (await docs({ organizationId: org, folderId: 'root' })).map((d) => [d.id, d.folderId]),
      [
        ['d3', null],
        ['d4', null],
      ],
    );
    assert.deepEqual(
      (await docs({ organizationId: org, folderId: 'f', documentIds: ['d1', 'd4'] })).map((d) => d.id),
      ['d1'],
    );
    for (const pageSize of [1, 2, 5]) {
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const r = (await t.a.ok(PATHS.documentsGet, {
          organizationId: org,
          pageSize,
          ...(pageToken ? { pageToken } : {}),
        })) as any;
        assert.ok(r.data.length <= pageSize);
        seen.push(...r.data.map((d: any) => d.id));
        pageToken = r.pageToken;
      } while (pageToken);
      assert.deepEqual(seen, ids, `pageSize ${pageSize}`);
    }
    const first = (await t.a.ok(PATHS.documentsGet, { organizationId: org, pageSize: 1 })) as any;
    const r = await t.a.post(PATHS.documentsGet, { organizationId: org, folderId: 'f', pageSize: 1, pageToken: first.pageToken });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT'), /pageToken was issued for other filters/);
    assert.deepEqual(await docs({ organizationId: uniq('nobody') }), [], 'an unknown organization reads as empty');
  });

  test('delete: its threads, comments, notifications, memberships and settings go; others stay', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'doc', users: [user('u')] });
    await thread(org, 'doc', 't');
    await thread(org, 'keep', 'k');
    const n = (id: string, documentId: string) => ({
      organizationId: org,
      notificationId: id,
      documentId,
      actionUser: { userId: 'actor' },
      displayHeadlineMessageTemplate: 'hi',
      notifyUsers: [{ userId: 'u' }],
    });
    await t.a.ok(PATHS.notificationsAdd, n('n1', 'doc'));
    await t.a.ok(PATHS.notificationsAdd, n('n2', 'keep'));
    await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'u', documentId: 'doc' });
    await t.a.ok(PATHS.notificationsConfigSet, {
      organizationId: org,
      documentIds: ['doc'],
      userIds: ['u'],
      config: { inbox: 'ALL' },
    });
    const del = (await t.a.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['doc', 'ghost', 'doc'] })) as any;
    assert.equal(del.message, 'Document(s) deleted successfully.');
    assert.deepEqual(del.data, {
      doc: { success: true, id: del.data.doc.id, message: 'Deleted Successfully' },
      ghost: { success: false, id: 'ghost', message: 'Document does not exist', code: 'not-found' },
    });
    assert.deepEqual(await docs({ organizationId: org }), await docs({ organizationId: org, documentIds: ['keep'] }));
    const threads = ((await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc' })) as any).data;
    assert.deepEqual(threads, []);
    const comments = ((await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 't' })) as any)
      .data;
    assert.deepEqual(comments, []);
    const inbox = ((await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'u' })) as any).data;
    assert.deepEqual(
      inbox.map((x: any) => x.id),
      ['n2'],
    );
    const count = ((await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'u' })) as any).data;
    assert.equal(count.total, 1, JSON.stringify(count));
    const [cfg] = (
      (await t.a.ok(PATHS.notificationsConfigGet, { organizationId: org, documentIds: ['doc'], userId: 'u' })) as any
    ).data;
    assert.equal(cfg.config.inbox, 'MINE', 'the setting of the deleted document is gone (the default reads)');
    const upd = (await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      documentId: 'doc',
      users: [{ userId: 'u', name: 'x' }],
    })) as any;
    assert.equal(upd.data.u.success, false, 'the document membership is gone');
    const kept = ((await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'keep' })) as any).data;
    assert.deepEqual(
      kept.map((x: any) => x.annotationId),
      ['k'],
    );
    await thread(org, 'doc', 't', 'again');
    const back = ((await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc' })) as any).data;
    assert.deepEqual(
      back.map((x: any) => x.comments.map((c: any) => c.commentText)),
      [['again']],
      'a new thread of the same ids reads fresh (no cached page of the deleted one)',
    );
  });

  test('move: into a folder, and out of any with "root"; answers no data; a document not yet known comes into being', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, {
      organizationId: org,
      folders: [{ folderId: 'f1' }, { folderId: 'f2', parentFolderId: 'f1' }],
    });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, folderId: 'f1', documents: [{ documentId: 'd1' }] });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd2' }] });
    const mv = (await t.a.ok(PATHS.documentsMove, {
      organizationId: org,
      documentIds: ['d1', 'd2', 'd3'],
      folderId: 'f2',
    })) as any;
    assert.equal(mv.message, 'Documents moved successfully.');
    assert.equal('data' in mv, false, 'the answer has no data member, as the original service shows it');
    assert.deepEqual(
      (await docs({ organizationId: org, folderId: 'f2' })).map((d) => d.id),
      ['d1', 'd2', 'd3'],
    );
    await t.a.ok(PATHS.documentsMove, { organizationId: org, documentIds: ['d1'], folderId: 'root' });
    assert.deepEqual(
      (await docs({ organizationId: org, documentIds: ['d1'] })).map((d) => d.folderId),
      [null],
    );
  });

  test('access/update sets the access type; disablestate disables and enables, creating a missing document', async () => {
    const org = uniq('org');
    const first = (await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd' }] })) as any;
    const acc = (await t.a.ok(PATHS.documentsAccess, {
      organizationId: org,
      documentIds: ['d'],
      accessType: 'restricted',
    })) as any;
    assert.equal(acc.message, 'Updated access for documents successfully.');
    assert.deepEqual(acc.data, { d: { success: true, accessType: 'restricted', message: 'Document access type updated.' } });
    assert.equal((await docs({ organizationId: org }))[0].accessType, 'restricted');
    const off = (await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['d', 'new'], disabled: true })) as any;
    assert.equal(off.message, 'Updated disable state for documents successfully.');
    assert.deepEqual(off.data, {
      d: { success: true, id: off.data.d.id, disabled: true, message: 'Document disabled state updated.' },
      new: { success: true, id: off.data.new.id, disabled: true, message: 'Document disabled state updated.' },
    });
    assert.equal(off.data.d.id, first.data.d.id, 'the internal id documents/add answered');
    assert.deepEqual(
      (await docs({ organizationId: org })).map((d) => [d.id, d.disabled]),
      [
        ['d', true],
        ['new', true],
      ],
    );
    await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['d'], disabled: false });
    assert.equal((await docs({ organizationId: org, documentIds: ['d'] }))[0].disabled, false);
  });

  test('a disabled document refuses update, move, access and add; takes its disable state and its deletion', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] });
    await t.a.ok(PATHS.documentsAdd, {
      organizationId: org,
      documents: [{ documentId: 'd', documentName: 'D' }, { documentId: 'ok' }],
    });
    await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['d'], disabled: true });
    const [before1] = await docs({ organizationId: org, documentIds: ['d'] });
    const refused: [string, unknown][] = [
      [
        PATHS.documentsUpdate,
        {
          organizationId: org,
          documents: [
            { documentId: 'ok', documentName: 'x' },
            { documentId: 'd', documentName: 'x' },
          ],
        },
      ],
      [PATHS.documentsMove, { organizationId: org, documentIds: ['ok', 'd'], folderId: 'f' }],
      [PATHS.documentsAccess, { organizationId: org, documentIds: ['ok', 'd'], accessType: 'public' }],
      [
        PATHS.documentsAdd,
        {
          organizationId: org,
          documents: [
            { documentId: 'ok', documentName: 'x' },
            { documentId: 'd', documentName: 'x' },
          ],
        },
      ],
    ];
    for (const [path, data] of refused) {
      const r = await t.a.post(path, data);
      assert.equal(expectError(r, 403, 'PERMISSION_DENIED', path), 'Document d is disabled.');
    }
    const now = await docs({ organizationId: org });
    assert.deepEqual(
      now.map((d) => [d.id, d.documentName, d.folderId, d.accessType]),
      [
        ['d', 'D', null, 'organizationPrivate'],
        ['ok', '', null, 'organizationPrivate'],
      ],
      'the refused writes wrote nothing, not even to the other document',
    );
    assert.deepEqual(now[0], before1);
    const del = (await t.a.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['d'] })) as any;
    assert.equal(del.data.d.success, true, 'a disabled document may be deleted');
  });

  test('a disabled organization refuses every document write; reads keep working', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd', documentName: 'D' }] });
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    const before1 = await docs({ organizationId: org });
    const writes: [string, unknown][] = [
      [PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'new' }] }],
      [PATHS.documentsUpdate, { organizationId: org, documents: [{ documentId: 'd', documentName: 'x' }] }],
      [PATHS.documentsDelete, { organizationId: org, documentIds: ['d'] }],
      [PATHS.documentsMove, { organizationId: org, documentIds: ['d'], folderId: 'f' }],
      [PATHS.documentsAccess, { organizationId: org, documentIds: ['d'], accessType: 'public' }],
      [PATHS.documentsDisable, { organizationId: org, documentIds: ['d'], disabled: true }],
    ];
    for (const [path, data] of writes) {
      const r = await t.a.post(path, data);
      assert.equal(expectError(r, 403, 'PERMISSION_DENIED', path), `Organization ${org} is disabled.`);
    }
    assert.deepEqual(await docs({ organizationId: org }), before1);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: false });
    await t.a.ok(PATHS.documentsUpdate, { organizationId: org, documents: [{ documentId: 'd', documentName: 'x' }] });
  });
});

describe('documents: errors', () => {
  const org = 'errors-org';
  const cases: [string, string, unknown, RegExp][] = [
    ['add without organizationId', PATHS.documentsAdd, { documents: [{ documentId: 'd' }] }, /data\.organizationId/],
    ['add without documents', PATHS.documentsAdd, { organizationId: org }, /data\.documents/],
    ['add with an empty list', PATHS.documentsAdd, { organizationId: org, documents: [] }, /data\.documents/],
    ['add with an empty id', PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: '' }] }, /documentId/],
    [
      'add with an id over 256',
      PATHS.documentsAdd,
      { organizationId: org, documents: [{ documentId: 'x'.repeat(257) }] },
      /documentId/,
    ],
    [
      'add with a name over 256',
      PATHS.documentsAdd,
      { organizationId: org, documents: [{ documentId: 'd', documentName: 'x'.repeat(257) }] },
      /documentName/,
    ],
    [
      'add with the same id twice',
      PATHS.documentsAdd,
      { organizationId: org, documents: [{ documentId: 'dup' }, { documentId: 'dup' }] },
      /data\.documents\[1\]\.documentId repeats/,
    ],
    [
      'update with a name that is not a string',
      PATHS.documentsUpdate,
      { organizationId: org, documents: [{ documentId: 'd', documentName: 5 }] },
      /documentName/,
    ],
    ['get with pageSize 0', PATHS.documentsGet, { organizationId: org, pageSize: 0 }, /data\.pageSize/],
    ['get with a garbage pageToken', PATHS.documentsGet, { organizationId: org, pageToken: '!!' }, /pageToken/],
    ['delete without documentIds', PATHS.documentsDelete, { organizationId: org }, /data\.documentIds/],
    ['move without folderId', PATHS.documentsMove, { organizationId: org, documentIds: ['d'] }, /data\.folderId/],
    [
      'access with an unknown accessType',
      PATHS.documentsAccess,
      { organizationId: org, documentIds: ['d'], accessType: 'secret' },
      /accessType/,
    ],
    ['access without accessType', PATHS.documentsAccess, { organizationId: org, documentIds: ['d'] }, /accessType/],
    [
      'disablestate with disabled not a boolean',
      PATHS.documentsDisable,
      { organizationId: org, documentIds: ['d'], disabled: 'yes' },
      /disabled/,
    ],
  ];
  for (const [what, path, data, message] of cases) {
    test(`${what}: INVALID_ARGUMENT naming the member, nothing written`, async () => {
      const r = await t.a.post(path, data);
      assert.match(expectError(r, 400, 'INVALID_ARGUMENT', what), message);
      assert.deepEqual(await docs({ organizationId: org }), []);
    });
  }

  test('add or move into a folder that does not exist: NOT_FOUND, nothing written', async () => {
    const o = uniq('org');
    await t.a.ok(PATHS.documentsAdd, { organizationId: o, documents: [{ documentId: 'd' }] });
    const before1 = await docs({ organizationId: o });
    const add = await t.a.post(PATHS.documentsAdd, { organizationId: o, folderId: 'nope', documents: [{ documentId: 'e' }] });
    assert.match(expectError(add, 404, 'NOT_FOUND'), /Folder nope does not exist/);
    const mv = await t.a.post(PATHS.documentsMove, { organizationId: o, documentIds: ['d'], folderId: 'nope' });
    expectError(mv, 404, 'NOT_FOUND');
    assert.deepEqual(await docs({ organizationId: o }), before1);
  });
});

describe('documents: security', () => {
  const OPS = [
    PATHS.documentsAdd,
    PATHS.documentsGet,
    PATHS.documentsUpdate,
    PATHS.documentsDelete,
    PATHS.documentsMove,
    PATHS.documentsAccess,
    PATHS.documentsDisable,
  ] as const;
  for (const path of OPS) {
    test(`${path}: missing or bad credentials are 401 before the body is looked at`, async () => {
      await expectMissingCredentials(t, path, { data: 'not even an object' });
      for (const [label, headers] of badCredentialCases(t)) {
        await expectBadCredentials(t, path, label, headers, { data: { organizationId: 'o', documentIds: ['d'] } });
      }
    });
  }

  test("tenant b naming tenant a's organization reads, changes and deletes nothing of a's", async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] });
    await t.a.ok(PATHS.documentsAdd, {
      organizationId: org,
      folderId: 'f',
      documents: [{ documentId: 'd', documentName: 'Mine' }],
    });
    await thread(org, 'd', 't', 'secret');
    const mine = await docs({ organizationId: org });
    assert.deepEqual(await docs({ organizationId: org }, t.b), []);
    assert.deepEqual(await docs({ organizationId: org, folderId: 'f' }, t.b), []);
    const upd = (await t.b.ok(PATHS.documentsUpdate, {
      organizationId: org,
      documents: [{ documentId: 'd', documentName: 'Hijacked' }],
    })) as any;
    assert.deepEqual(upd.data.d, { success: false, id: 'd', message: 'Document does not exist', code: 'not-found' });
    const del = (await t.b.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['d'] })) as any;
    assert.equal(del.data.d.success, false);
    expectError(
      await t.b.post(PATHS.documentsMove, { organizationId: org, documentIds: ['d'], folderId: 'f' }),
      404,
      'NOT_FOUND',
    );
    await t.b.ok(PATHS.documentsAccess, { organizationId: org, documentIds: ['d'], accessType: 'public' });
    const add = (await t.b.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd' }] })) as any;
    assert.notEqual(
      add.data.d.id,
      ((await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd' }] })) as any).data.d.id,
    );
    await t.b.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['d'], disabled: true });
    assert.deepEqual(await docs({ organizationId: org }), mine, "a's document is as it was");
    const texts = ((await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'd', annotationId: 't' })) as any).data;
    assert.deepEqual(
      texts.map((c: any) => c.commentText),
      ['secret'],
    );
    await t.b.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['d'] });
    assert.deepEqual(await docs({ organizationId: org }), mine, "b deleting its own d leaves a's");
  });
});

describe('documents: the times an add keeps (docs/api.md, "What an import keeps")', () => {
  const CREATED = Date.UTC(2020, 0, 2, 3, 4, 5, 6);
  const UPDATED = Date.UTC(2021, 6, 7, 8, 9, 10, 11);
  const times = async (org: string, id: string) => {
    const [d] = await docs({ organizationId: org, documentIds: [id] });
    return [d.createdAt, d.lastUpdated];
  };

  test('given createdAt and lastUpdated are what get answers; a second add of the same id keeps them', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.foldersAdd, { organizationId: org, folders: [{ folderId: 'f' }] });
    await t.a.ok(PATHS.documentsAdd, {
      organizationId: org,
      documents: [
        { documentId: 'kept', documentName: 'Kept', createdAt: CREATED, lastUpdated: UPDATED },
        { documentId: 'half', createdAt: CREATED },
      ],
    });
    assert.deepEqual(await times(org, 'kept'), [CREATED, UPDATED]);
    const [created, updated] = await times(org, 'half');
    assert.equal(created, CREATED);
    assert.ok(updated > UPDATED, 'lastUpdated not given: the later of now and createdAt');
    // A second add keeps the times (a name or folder moves lastUpdated, as it did before).
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'kept', createdAt: 1, lastUpdated: 2 }] });
    assert.deepEqual(await times(org, 'kept'), [CREATED, UPDATED]);
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, folderId: 'f', documents: [{ documentId: 'kept', createdAt: 1 }] });
    const [again, moved] = await times(org, 'kept');
    assert.equal(again, CREATED);
    assert.ok(moved > UPDATED);
  });

  eachBadTime(async (member, what, value) => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'd', [member]: value }] });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT', what), new RegExp(member));
    assert.deepEqual(await docs({ organizationId: org }), []);
  });
});
