// Organizations' disable state and deletion (docs/api.md, "Disabled organizations and documents"), on the
// configured database. Happy: a disabled organization refuses every write under it with PERMISSION_DENIED and
// writes nothing, reads go on, enabling lets writes in again, a missing one is answered as not existing and is
// not created; every entry carries the organization's internal id, as organizations/add answers it; delete
// takes everything in the organization (every table that names one, read from the schema) and
// nothing of another organization or tenant, and what is held in memory does not outlive it.
// Errors: the request rules. Security: credentials first; tenant b naming a's organizations changes
// nothing of a's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, HEX32, makeTestApp, notificationData, PATHS, type TestApp, user } from '../helpers/app.js';
import { badCredentialCases, expectBadCredentials, expectMissingCredentials } from '../helpers/security.js';
import {
  ORGANIZATION_HISTORY,
  ORGANIZATION_INDEXES,
  ORGANIZATION_TABLES,
  ORGANIZATION_VERSIONS,
} from '../../src/store/organizations/sql.js';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${String(++seq).padStart(4, '0')}`;
const orgs = async (ids: string[]) => ((await t.a.ok(PATHS.organizationsGet, { organizationIds: ids })) as any).data;
const say = (text: string, userId = 'u') => ({ commentText: text, from: { userId } });

/** An organization with a user, a thread of one comment, a notification and a setting on document `doc`. */
async function populated(org: string, caller = t.a) {
  await caller.ok(PATHS.usersAdd, { organizationId: org, documentId: 'doc', users: [user('u'), user('v')] });
  const added = (await caller.ok(PATHS.annotationsAdd, {
    organizationId: org,
    documentId: 'doc',
    commentAnnotations: [{ annotationId: 'a1', commentData: [say('first')] }],
  })) as any;
  await caller.ok(
    PATHS.notificationsAdd,
    notificationData(org, { notificationId: 'n1', documentId: 'doc', notifyUsers: [user('v')] }),
  );
  await caller.ok(PATHS.notificationsConfigSet, {
    organizationId: org,
    documentIds: ['doc'],
    userIds: ['v'],
    config: { inbox: 'ALL' },
  });
  await caller.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'doc', userId: 'v' });
  await caller.ok(PATHS.liveStateBroadcast, { organizationId: org, documentId: 'doc', liveStateDataId: 's', data: { v: 1 } });
  return { commentId: added.data.a1.commentIds?.[0] ?? 1 };
}

/** Every write operation under `org` (docs/api.md), livestate/broadcast among them, as [path, data]. */
function writesUnder(org: string): [string, Record<string, unknown>][] {
  const doc = { organizationId: org, documentId: 'doc' };
  return [
    [PATHS.usersAdd, { organizationId: org, users: [user('late')] }],
    [PATHS.usersAdd, { ...doc, users: [user('late')] }],
    [PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'u', name: 'x' }] }],
    [PATHS.usersUpdate, { ...doc, users: [{ userId: 'u', name: 'x' }] }],
    [PATHS.annotationsAdd, { ...doc, commentAnnotations: [{ commentData: [say('x')] }] }],
    [PATHS.commentsAdd, { ...doc, annotationId: 'a1', commentData: [say('x')] }],
    [PATHS.commentsUpdate, { ...doc, annotationId: 'a1', commentIds: [1], updatedData: { commentText: 'x' } }],
    [PATHS.commentsDelete, { ...doc, annotationId: 'a1', commentIds: [1] }],
    [PATHS.annotationsUpdate, { ...doc, updatedData: { status: { id: 'resolved', name: 'Resolved', type: 'terminal' } } }],
    [PATHS.annotationsDelete, doc],
    [PATHS.annotationsRead, { ...doc, userId: 'u' }],
    [PATHS.notificationsAdd, notificationData(org, { documentId: 'doc', notifyUsers: [user('v')] })],
    [PATHS.notificationsAdd, notificationData(org, { documentId: undefined, notifyUsers: [user('v')] })],
    [PATHS.notificationsUpdate, { organizationId: org, notifications: [{ id: 'n1', readByUserIds: ['v'] }] }],
    [PATHS.notificationsRead, { organizationId: org, userId: 'v' }],
    [PATHS.notificationsDelete, { organizationId: org, notificationIds: ['n1'] }],
    [PATHS.notificationsConfigSet, { organizationId: org, documentIds: ['doc'], userIds: ['v'], config: { inbox: 'NONE' } }],
    [PATHS.organizationsAdd, { organizations: [{ organizationId: org, organizationName: 'Renamed' }] }],
    [PATHS.organizationsUpdate, { organizations: [{ organizationId: org, organizationName: 'Renamed' }] }],
    [PATHS.liveStateBroadcast, { ...doc, liveStateDataId: 's', data: { v: 2 }, merge: true }],
  ];
}

/** What every read of `org` answers, as one comparable value. */
async function everything(org: string) {
  const doc = { organizationId: org, documentId: 'doc' };
  const strip = (r: any) => r.data;
  return {
    organization: (await orgs([org])).map((o: any) => [o.organizationName, o.lastUpdated]),
    threads: strip(await t.a.ok(PATHS.annotationsGet, doc)),
    comments: strip(await t.a.ok(PATHS.commentsGet, { ...doc, annotationId: 'a1' })),
    inbox: strip(await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'v' })),
    count: strip(await t.a.ok(PATHS.notificationsCount, { organizationId: org, userId: 'v' })),
    config: strip(await t.a.ok(PATHS.notificationsConfigGet, { ...doc, documentIds: ['doc'], userId: 'v' })),
    threadCount: strip(await t.a.ok(PATHS.annotationsCount, { organizationId: org, documentIds: ['doc'], userId: 'v' })),
    liveStates: strip(await t.a.ok(PATHS.liveStateGet, doc)),
  };
}

describe('organizations/access/disablestate/update: happy paths', () => {
  test('a disabled organization refuses every write under it, writes nothing, and reads go on', async () => {
    const org = uniq('org');
    await populated(org);
    const added = (await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: org }] })) as any;
    const id = added.data[org].id;
    assert.match(id, HEX32);
    const off = (await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true })) as any;
    assert.equal(off.message, 'Updated disable state for Organization(s) successfully.');
    assert.deepEqual(off.data, {
      [org]: { success: true, id, disabled: true, message: 'Updated disable state for organization Successfully' },
    });
    assert.equal((await orgs([org]))[0].disabled, true);
    const before = await everything(org);
    for (const [path, data] of writesUnder(org)) {
      const r = await t.a.post(path, data);
      expectError(r, 403, 'PERMISSION_DENIED', path);
      assert.equal(r.json.error.message, `Organization ${org} is disabled.`, path);
    }
    assert.deepEqual(await everything(org), before, 'no refused write changed anything');

    const on = (await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: false })) as any;
    assert.deepEqual(on.data[org], {
      success: true,
      id,
      disabled: false,
      message: 'Updated disable state for organization Successfully',
    });
    for (const [path, data] of writesUnder(org)) await t.a.ok(path, data);
  });

  test('a missing organization is answered as not existing and not created; a repeated id is answered once', async () => {
    const [fresh, other] = [uniq('org'), uniq('org')];
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: other }] });
    const r = (await t.a.ok(PATHS.organizationsDisable, { organizationIds: [fresh, fresh, other], disabled: true })) as any;
    assert.deepEqual(Object.keys(r.data).sort(), [fresh, other].sort());
    assert.equal(r.data[fresh].success, false, JSON.stringify(r));
    assert.equal(r.data[fresh].message, 'Organization does not exist');
    assert.match(r.data[fresh].id, HEX32);
    assert.equal(r.data[other].success, true, JSON.stringify(r));
    assert.deepEqual(await orgs([fresh]), [], 'a missing organization is not created');
    await t.a.ok(PATHS.usersAdd, { organizationId: fresh, users: [user('u')] });
    expectError(await t.a.post(PATHS.usersAdd, { organizationId: other, users: [user('u')] }), 403, 'PERMISSION_DENIED');
  });

  test('one disabled organization in an organizations/add refuses the whole request', async () => {
    const [off, on] = [uniq('org'), uniq('org')];
    await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: off }] });
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [off], disabled: true });
    const r = await t.a.post(PATHS.organizationsAdd, {
      organizations: [{ organizationId: on }, { organizationId: off, organizationName: 'x' }],
    });
    expectError(r, 403, 'PERMISSION_DENIED');
    assert.deepEqual(await orgs([on]), [], 'nothing of the refused request was written');
  });
});

describe('a disabled document: the writes that name it', () => {
  test('every write naming the document is refused with its message; the organization and other documents write on', async () => {
    const org = uniq('org');
    await populated(org);
    const off = (await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['doc'], disabled: true })) as any;
    assert.equal(off.data.doc.disabled, true);
    const before = await everything(org);
    const named = writesUnder(org).filter(([path, data]) => data.documentId === 'doc' && path !== PATHS.notificationsAdd);
    named.push(
      [PATHS.notificationsAdd, notificationData(org, { documentId: 'doc', notifyUsers: [user('v')] })],
      [PATHS.notificationsRead, { organizationId: org, documentId: 'doc', userId: 'v' }],
      [PATHS.notificationsDelete, { organizationId: org, documentId: 'doc' }],
    );
    assert.ok(named.length >= 12, `${named.length} writes`);
    for (const [path, data] of named) {
      const r = await t.a.post(path, data);
      expectError(r, 403, 'PERMISSION_DENIED', path);
      assert.equal(r.json.error.message, 'Document doc is disabled.', path);
    }
    assert.deepEqual(await everything(org), before, 'no refused write changed anything');
    // Writes that reach its notifications by id are refused; by other filters they pass over them.
    const byId: [string, Record<string, unknown>][] = [
      [PATHS.notificationsUpdate, { organizationId: org, notifications: [{ id: 'n1', readByUserIds: ['v'] }] }],
      [PATHS.notificationsRead, { organizationId: org, userId: 'v', notificationIds: ['n1'] }],
      [PATHS.notificationsDelete, { organizationId: org, notificationIds: ['n1'] }],
    ];
    for (const [path, data] of byId) {
      const r = await t.a.post(path, data);
      expectError(r, 403, 'PERMISSION_DENIED', path);
      assert.equal(r.json.error.message, 'Document doc is disabled.', path);
    }
    await t.a.ok(PATHS.notificationsRead, { organizationId: org, userId: 'v' });
    await t.a.ok(PATHS.notificationsDelete, { organizationId: org, userId: 'v' });
    assert.deepEqual(await everything(org), before, 'writes by filters passed over the disabled document');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('w')] });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'other',
      commentAnnotations: [{ commentData: [say('x')] }],
    });
    await t.a.ok(PATHS.documentsDisable, { organizationId: org, documentIds: ['doc'], disabled: false });
    for (const [path, data] of named) await t.a.ok(path, data);
  });
});

describe('organizations/delete: happy paths', () => {
  test('everything in the organization goes: every table that names an organization holds none of its rows', async () => {
    const [org, other] = [uniq('org'), uniq('org')];
    await populated(org);
    await populated(other);
    const ids = (await t.a.ok(PATHS.organizationsAdd, { organizations: [{ organizationId: org }] })) as any;
    const r = (await t.a.ok(PATHS.organizationsDelete, { organizationIds: [org, 'ghost-org'] })) as any;
    assert.equal(r.message, 'Organization(s) deleted successfully.');
    assert.match(r.data['ghost-org'].id, HEX32);
    assert.deepEqual(r.data, {
      [org]: { success: true, id: ids.data[org].id, message: 'Deleted Successfully' },
      'ghost-org': { success: false, id: r.data['ghost-org'].id, message: 'Organization does not exist' },
    });
    const tables = await t.db.textColumns();
    const named = [...tables].filter(([, columns]) => columns.includes('organization_id')).map(([table]) => table);
    assert.deepEqual(
      named.filter((x) => !(ORGANIZATION_TABLES as readonly string[]).includes(x)).sort(),
      [
        'organizations',
        ...ORGANIZATION_VERSIONS,
        ...[...ORGANIZATION_HISTORY, ...ORGANIZATION_INDEXES].filter((x) => tables.has(x)),
      ].sort(),
      'every table that names an organization is emptied by organizations/delete, or listed as kept',
    );
    for (const table of [...ORGANIZATION_TABLES, ...ORGANIZATION_INDEXES.filter((x) => tables.has(x)), 'organizations']) {
      const left = await t.db.query(`SELECT count(*) AS n FROM ${table} WHERE organization_id = '${org}'`);
      assert.equal(Number(left[0]!.n), 0, `${table} keeps rows of the deleted organization`);
    }
    const history = await t.db.query(`SELECT type FROM events WHERE organization_id = '${org}' ORDER BY id`);
    assert.ok(history.length > 1, 'the outbox keeps what happened in the organization');
    assert.equal(history[history.length - 1]!.type, 'organization.delete', 'and records its deletion last');
    const kept = await everything(other);
    kept.config[0].config = { inbox: 'MINE', email: 'MINE' };
    assert.equal(kept.threads.length, 1, 'another organization keeps its threads');
    assert.equal(kept.inbox.length, 1);
    assert.deepEqual(await everything(org), {
      organization: [],
      threads: [],
      comments: [],
      inbox: [],
      count: { total: 0, unread: 0 },
      config: kept.config.map((c: any) => ({ ...c, metadata: { ...c.metadata, organizationId: org } })),
      threadCount: { doc: { total: 0, unread: 0 } },
      liveStates: [],
    });
  });

  test('an organization made again under the same id starts empty: nothing held in memory outlives the deletion', async () => {
    const org = uniq('org');
    await populated(org);
    const doc = { organizationId: org, documentId: 'doc' };
    await t.a.ok(PATHS.annotationsGet, doc);
    await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'v' });
    await t.a.ok(PATHS.organizationsDelete, { organizationIds: [org] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'u', name: 'Someone else' }] });
    await t.a.ok(PATHS.annotationsAdd, {
      ...doc,
      commentAnnotations: [{ annotationId: 'a1', commentData: [say('second life')] }],
    });
    const threads = ((await t.a.ok(PATHS.annotationsGet, doc)) as any).data;
    assert.deepEqual(
      threads.map((x: any) => x.comments.map((c: any) => [c.commentText, c.from.name])),
      [[['second life', 'Someone else']]],
    );
    assert.deepEqual(((await t.a.ok(PATHS.notificationsGet, { organizationId: org, userId: 'v' })) as any).data, []);
  });

  test('a disabled organization can be deleted', async () => {
    const org = uniq('org');
    await populated(org);
    await t.a.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true });
    const r = (await t.a.ok(PATHS.organizationsDelete, { organizationIds: [org] })) as any;
    assert.equal(r.data[org].success, true);
    assert.deepEqual(await orgs([org]), []);
  });
});

describe('organizations/delete and disablestate: errors', () => {
  const cases: [string, string, unknown][] = [
    ['delete without organizationIds', PATHS.organizationsDelete, {}],
    ['delete with an empty list', PATHS.organizationsDelete, { organizationIds: [] }],
    ['delete with a number for an id', PATHS.organizationsDelete, { organizationIds: [7] }],
    ['disablestate without disabled', PATHS.organizationsDisable, { organizationIds: ['o'] }],
    ['disablestate with a string for disabled', PATHS.organizationsDisable, { organizationIds: ['o'], disabled: 'true' }],
    ['disablestate with an empty id', PATHS.organizationsDisable, { organizationIds: [''], disabled: true }],
  ];
  for (const [what, path, data] of cases) {
    test(`${what}: INVALID_ARGUMENT, nothing written`, async () => {
      expectError(await t.a.post(path, data as Record<string, unknown>), 400, 'INVALID_ARGUMENT', what);
      assert.deepEqual(await orgs(['o']), []);
    });
  }
});

describe('organizations/delete and disablestate: security', () => {
  for (const path of [PATHS.organizationsDelete, PATHS.organizationsDisable]) {
    test(`${path}: missing or bad credentials are 401 before the body is looked at`, async () => {
      const body = { data: { organizationIds: ['o'], disabled: true } };
      await expectMissingCredentials(t, path, body);
      for (const [label, headers] of badCredentialCases(t)) await expectBadCredentials(t, path, label, headers, body);
    });
  }

  test("tenant b deleting or disabling a's organization changes nothing of a's", async () => {
    const org = uniq('org');
    await populated(org);
    const before = await everything(org);
    const del = (await t.b.ok(PATHS.organizationsDelete, { organizationIds: [org] })) as any;
    assert.deepEqual(del.data[org], { success: false, id: del.data[org].id, message: 'Organization does not exist' });
    const off = (await t.b.ok(PATHS.organizationsDisable, { organizationIds: [org], disabled: true })) as any;
    assert.equal(off.data[org].success, false, "b's disable of a's organization finds none of b's");
    assert.deepEqual(await everything(org), before);
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('still-writable')] });
    await t.b.ok(PATHS.usersAdd, { organizationId: org, users: [user('x')] });
  });
});
