// users/add and users/update: the successful paths of docs/api.md "Identifiers and limits" and "Users".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HEX32, makeTestApp, PATHS, user, type Caller, type TestApp } from '../helpers/app.js';

let t: TestApp;
let seq = 0;
/** A fresh id per test, so tests in this file never see each other's data. */
const uniq = (prefix: string) => `${prefix}-${++seq}`;

async function tenantIdOf(caller: Caller): Promise<string> {
  const found = await t.store.findCredentials(caller.creds.apiKey);
  assert.ok(found, 'tenant of caller not found');
  return found.tenant.id;
}

/** Reads a stored profile straight from the store (there is no users/get operation). */
async function profileOf(caller: Caller, organizationId: string, userId: string) {
  const map = await t.store.findProfiles(await tenantIdOf(caller), organizationId, [userId]);
  return map.get(userId) ?? null;
}

/** The author a comment written by `userId` (with nothing of its own) shows: the profile as the API reads it. */
async function shownAuthor(caller: Caller, organizationId: string, userId: string, writer: Record<string, unknown> = {}) {
  const annotationId = uniq('ann');
  await caller.ok(PATHS.annotationsAdd, {
    organizationId,
    documentId: 'doc-author-probe',
    commentAnnotations: [{ annotationId, commentData: [{ commentText: 'probe', from: { userId, ...writer } }] }],
  });
  const got = await caller.ok(PATHS.commentsGet, { organizationId, documentId: 'doc-author-probe', annotationId });
  assert.equal(got.data.length, 1, JSON.stringify(got));
  return got.data[0].from;
}

describe('users happy paths', () => {
  before(async () => {
    t = await makeTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('users/add: message, one entry per userId with success, 32-hex id and "User added."', async () => {
    const org = uniq('org');
    const result = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('u1'), user('u2'), user('u3')] });
    assert.equal(result.status, 'success');
    assert.equal(result.message, 'User(s) processed successfully.', JSON.stringify(result));
    assert.deepEqual(Object.keys(result.data).sort(), ['u1', 'u2', 'u3'], JSON.stringify(result));
    for (const id of ['u1', 'u2', 'u3']) {
      const entry = result.data[id];
      assert.deepEqual(Object.keys(entry).sort(), ['id', 'message', 'success'], JSON.stringify(entry));
      assert.equal(entry.success, true, JSON.stringify(entry));
      assert.equal(entry.message, 'User added.', JSON.stringify(entry));
      assert.match(entry.id, HEX32, JSON.stringify(entry));
    }
    const ids = new Set(['u1', 'u2', 'u3'].map((u) => result.data[u].id));
    assert.equal(ids.size, 3, `distinct users get distinct ids: ${JSON.stringify(result)}`);
  });

  test('users/add stores name, email and photoUrl as given', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [{ userId: 'alice', name: 'Alice Liddell', email: 'alice@example.com', photoUrl: 'https://img.example.com/a.png' }],
    });
    const p = await profileOf(t.a, org, 'alice');
    assert.deepEqual(p, {
      userId: 'alice',
      name: 'Alice Liddell',
      email: 'alice@example.com',
      photoUrl: 'https://img.example.com/a.png',
    });
    assert.deepEqual(await shownAuthor(t.a, org, 'alice'), {
      email: 'alice@example.com',
      name: 'Alice Liddell',
      userId: 'alice',
    });
  });

  test("users/add with only userId creates a profile with no fields; the writer's fields then show", async () => {
    const org = uniq('org');
    const r = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'bare' }] });
    assert.equal(r.data.bare.success, true, JSON.stringify(r));
    const p = await profileOf(t.a, org, 'bare');
    assert.ok(p, 'profile created by users/add');
    assert.equal(p.name ?? null, null);
    assert.equal(p.email ?? null, null);
    // It exists now: users/update finds it.
    const u = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'bare', name: 'Now Named' }] });
    assert.deepEqual(u.data.bare, { success: true, id: r.data.bare.id, message: 'User updated.' }, JSON.stringify(u));
    assert.deepEqual(await shownAuthor(t.a, org, 'bare', { email: 'writer@example.com' }), {
      email: 'writer@example.com',
      name: 'Now Named',
      userId: 'bare',
    });
  });

  test('users/add overwrites only the fields it is given; null means absent', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [{ userId: 'u', name: 'Old Name', email: 'old@example.com', photoUrl: 'https://p.example/old.png' }],
    });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'u', name: 'New Name' }] });
    assert.deepEqual(await profileOf(t.a, org, 'u'), {
      userId: 'u',
      name: 'New Name',
      email: 'old@example.com',
      photoUrl: 'https://p.example/old.png',
    });
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [{ userId: 'u', name: null, email: 'new@example.com', photoUrl: null }],
    });
    assert.deepEqual(await profileOf(t.a, org, 'u'), {
      userId: 'u',
      name: 'New Name',
      email: 'new@example.com',
      photoUrl: 'https://p.example/old.png',
    });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'u', photoUrl: 'https://p.example/new.png' }] });
    assert.deepEqual(await profileOf(t.a, org, 'u'), {
      userId: 'u',
      name: 'New Name',
      email: 'new@example.com',
      photoUrl: 'https://p.example/new.png',
    });
    // An empty name / email is a value that overwrites (name 0..256, email may be empty).
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'u', name: '', email: '' }] });
    assert.deepEqual(await profileOf(t.a, org, 'u'), { userId: 'u', name: '', email: '', photoUrl: 'https://p.example/new.png' });
  });

  test('internal id: deterministic per (tenant, organizationId, userId), same in add and update, also for missing users', async () => {
    const org = uniq('org');
    const otherOrg = uniq('org');
    const first = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('x')] });
    const again = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('x', { name: 'changed' })] });
    const updated = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [user('x')] });
    const id = first.data.x.id;
    assert.match(id, HEX32);
    assert.equal(again.data.x.id, id, 'same id on a second users/add');
    assert.equal(updated.data.x.id, id, 'same id in users/update');
    assert.equal(updated.data.x.success, true, JSON.stringify(updated));

    // A user that does not exist yet: the id users/update reports is the one users/add gives it later.
    const missing = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [user('later')] });
    assert.equal(missing.data.later.success, false, JSON.stringify(missing));
    assert.match(missing.data.later.id, HEX32, JSON.stringify(missing));
    const missingAgain = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [user('later')] });
    assert.equal(missingAgain.data.later.id, missing.data.later.id, 'missing user id is deterministic');
    const added = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('later')] });
    assert.equal(added.data.later.id, missing.data.later.id, 'id of a missing user equals its id once added');

    // The scope (document/folder) does not change the id.
    const inDoc = await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd1', users: [user('x')] });
    const inFolder = await t.a.ok(PATHS.usersUpdate, { organizationId: org, folderId: 'f1', users: [user('x')] });
    assert.equal(inDoc.data.x.id, id);
    assert.equal(inFolder.data.x.id, id);

    // Another organization, another userId, another tenant: another id.
    const other = await t.a.ok(PATHS.usersAdd, { organizationId: otherOrg, users: [user('x')] });
    assert.match(other.data.x.id, HEX32);
    assert.notEqual(other.data.x.id, id, 'another organization gives another id');
    const otherUser = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('y')] });
    assert.notEqual(otherUser.data.y.id, id, 'another userId gives another id');
    const otherTenant = await t.b.ok(PATHS.usersAdd, { organizationId: org, users: [user('x')] });
    assert.match(otherTenant.data.x.id, HEX32);
    assert.notEqual(otherTenant.data.x.id, id, 'another tenant gives another id');
    const otherTenantUpdate = await t.b.ok(PATHS.usersUpdate, { organizationId: org, users: [user('x')] });
    assert.equal(otherTenantUpdate.data.x.id, otherTenant.data.x.id);
  });

  test('internal id does not collide on ambiguous concatenations of organizationId and userId', async () => {
    const r1 = await t.a.ok(PATHS.usersUpdate, { organizationId: 'ab', users: [{ userId: 'c' }] });
    const r2 = await t.a.ok(PATHS.usersUpdate, { organizationId: 'a', users: [{ userId: 'bc' }] });
    assert.notEqual(r1.data.c.id, r2.data.bc.id, `${JSON.stringify(r1)} vs ${JSON.stringify(r2)}`);
  });

  test('users/update (organization scope): fields given change, fields omitted or null stay', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [{ userId: 'u', name: 'Before', email: 'before@example.com', photoUrl: 'https://p.example/b.png' }],
    });
    const r = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'u', email: 'after@example.com' }] });
    assert.equal(r.message, 'User(s) processed successfully.', JSON.stringify(r));
    assert.deepEqual(Object.keys(r.data), ['u']);
    assert.equal(r.data.u.success, true, JSON.stringify(r));
    assert.equal(r.data.u.message, 'User updated.', JSON.stringify(r));
    assert.match(r.data.u.id, HEX32);
    assert.deepEqual(await profileOf(t.a, org, 'u'), {
      userId: 'u',
      name: 'Before',
      email: 'after@example.com',
      photoUrl: 'https://p.example/b.png',
    });

    await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: [{ userId: 'u', name: 'After', email: null, photoUrl: null }],
    });
    assert.deepEqual(await profileOf(t.a, org, 'u'), {
      userId: 'u',
      name: 'After',
      email: 'after@example.com',
      photoUrl: 'https://p.example/b.png',
    });

    await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'u', photoUrl: 'https://p.example/c.png' }] });
    assert.deepEqual(await profileOf(t.a, org, 'u'), {
      userId: 'u',
      name: 'After',
      email: 'after@example.com',
      photoUrl: 'https://p.example/c.png',
    });

    // Only userId: nothing changes, but the user exists.
    const noop = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: 'u' }] });
    assert.equal(noop.data.u.success, true, JSON.stringify(noop));
    assert.deepEqual(await profileOf(t.a, org, 'u'), {
      userId: 'u',
      name: 'After',
      email: 'after@example.com',
      photoUrl: 'https://p.example/c.png',
    });
  });

  test('users/update: existing and missing users in one call; missing ones are reported and not created', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('here1'), user('here2')] });
    const r = await t.a.post(PATHS.usersUpdate, {
      organizationId: org,
      users: [user('here1', { name: 'H1' }), user('ghost', { name: 'Ghost' }), user('here2', { name: 'H2' })],
    });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.result.status, 'success', r.body);
    assert.equal(r.json.result.message, 'User(s) processed successfully.', r.body);
    const data = r.json.result.data;
    assert.deepEqual(Object.keys(data).sort(), ['ghost', 'here1', 'here2'], r.body);
    assert.equal(data.here1.success, true, r.body);
    assert.equal(data.here1.message, 'User updated.', r.body);
    assert.equal(data.here2.success, true, r.body);
    assert.equal(data.here2.message, 'User updated.', r.body);
    assert.deepEqual(Object.keys(data.ghost).sort(), ['id', 'message', 'success'], r.body);
    assert.equal(data.ghost.success, false, r.body);
    assert.equal(data.ghost.message, 'User does not exist.', r.body);
    assert.match(data.ghost.id, HEX32, r.body);

    assert.equal((await profileOf(t.a, org, 'here1'))?.name, 'H1');
    assert.equal((await profileOf(t.a, org, 'here2'))?.name, 'H2');
    assert.equal(await profileOf(t.a, org, 'ghost'), null, 'users/update never creates a profile');
    const again = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [user('ghost')] });
    assert.deepEqual(again.data.ghost, { success: false, id: data.ghost.id, message: 'User does not exist.' });
  });

  test('users/update: all users missing is still a success response', async () => {
    const org = uniq('org');
    const r = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [user('n1'), user('n2')] });
    assert.equal(r.message, 'User(s) processed successfully.');
    assert.equal(r.data.n1.success, false, JSON.stringify(r));
    assert.equal(r.data.n2.success, false, JSON.stringify(r));
    assert.equal(r.data.n1.message, 'User does not exist.');
    assert.equal(await profileOf(t.a, org, 'n1'), null);
  });

  test('users/update: a user of another organization does not exist in this one', async () => {
    const org = uniq('org');
    const elsewhere = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: elsewhere, users: [user('u', { name: 'Elsewhere' })] });
    const r = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [user('u', { name: 'Changed' })] });
    assert.equal(r.data.u.success, false, JSON.stringify(r));
    assert.equal((await profileOf(t.a, elsewhere, 'u'))?.name, 'Elsewhere', 'the other organization is untouched');
    assert.equal(await profileOf(t.a, org, 'u'), null);
  });

  test('users/update document scope: only members of that document exist', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'doc1', users: [user('docMember', { name: 'DM' })] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('orgOnly', { name: 'OO' })] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, folderId: 'doc1', users: [user('folderMember', { name: 'FM' })] });

    const r = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      documentId: 'doc1',
      users: [user('docMember', { name: 'DM2' }), user('orgOnly', { name: 'OO2' }), user('folderMember', { name: 'FM2' })],
    });
    assert.equal(r.data.docMember.success, true, JSON.stringify(r));
    assert.equal(r.data.docMember.message, 'User updated.');
    assert.equal(r.data.orgOnly.success, false, JSON.stringify(r));
    assert.equal(r.data.orgOnly.message, 'User does not exist.');
    assert.equal(r.data.folderMember.success, false, `a folder with the same id is not the document: ${JSON.stringify(r)}`);
    assert.equal((await profileOf(t.a, org, 'docMember'))?.name, 'DM2');
    assert.equal((await profileOf(t.a, org, 'orgOnly'))?.name, 'OO', 'a failed entry changes nothing');
    assert.equal((await profileOf(t.a, org, 'folderMember'))?.name, 'FM');
    const stillNot = await t.a.ok(PATHS.usersUpdate, { organizationId: org, documentId: 'doc1', users: [user('orgOnly')] });
    assert.equal(stillNot.data.orgOnly.success, false, 'a failed users/update does not make a member either');

    const otherDoc = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      documentId: 'doc2',
      users: [user('docMember', { name: 'X' })],
    });
    assert.equal(otherDoc.data.docMember.success, false, JSON.stringify(otherDoc));
    assert.equal((await profileOf(t.a, org, 'docMember'))?.name, 'DM2');

    // A document member is also a member of the organization.
    const orgScope = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [user('docMember', { name: 'DM3' })] });
    assert.equal(orgScope.data.docMember.success, true, JSON.stringify(orgScope));
    assert.equal((await profileOf(t.a, org, 'docMember'))?.name, 'DM3');

    // The same documentId in another organization is another document.
    const otherOrg = await t.a.ok(PATHS.usersUpdate, {
      organizationId: uniq('org'),
      documentId: 'doc1',
      users: [user('docMember')],
    });
    assert.equal(otherOrg.data.docMember.success, false, JSON.stringify(otherOrg));
  });

  test('users/update folder scope: only members of that folder exist', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, folderId: 'f1', users: [user('fm', { email: 'fm@example.com' })] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'f1', users: [user('dm')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('om')] });
    const r = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      folderId: 'f1',
      users: [user('fm', { email: 'fm2@example.com' }), user('dm'), user('om')],
    });
    assert.deepEqual(
      Object.fromEntries(Object.entries(r.data).map(([k, v]: [string, any]) => [k, [v.success, v.message]])),
      { fm: [true, 'User updated.'], dm: [false, 'User does not exist.'], om: [false, 'User does not exist.'] },
      JSON.stringify(r),
    );
    assert.equal((await profileOf(t.a, org, 'fm'))?.email, 'fm2@example.com');
    const f2 = await t.a.ok(PATHS.usersUpdate, { organizationId: org, folderId: 'f2', users: [user('fm')] });
    assert.equal(f2.data.fm.success, false, JSON.stringify(f2));
  });

  test('users/add with a document or folder adds membership; a user can be in several', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd1', users: [user('multi')] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'd2', users: [{ userId: 'multi' }] });
    await t.a.ok(PATHS.usersAdd, { organizationId: org, folderId: 'fA', users: [{ userId: 'multi' }] });
    for (const scope of [{ documentId: 'd1' }, { documentId: 'd2' }, { folderId: 'fA' }, {}]) {
      const r = await t.a.ok(PATHS.usersUpdate, { organizationId: org, ...scope, users: [{ userId: 'multi' }] });
      assert.equal(r.data.multi.success, true, `${JSON.stringify(scope)}: ${JSON.stringify(r)}`);
    }
    // Adding later without a scope does not remove memberships, and the profile fields stay.
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'multi' }] });
    const r = await t.a.ok(PATHS.usersUpdate, { organizationId: org, documentId: 'd1', users: [{ userId: 'multi' }] });
    assert.equal(r.data.multi.success, true, JSON.stringify(r));
    assert.equal((await profileOf(t.a, org, 'multi'))?.name, 'Name multi');
  });

  test('documentId or folderId given as null is the organization scope', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: null, folderId: null, users: [user('nullScope')] });
    const r = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      documentId: null,
      folderId: null,
      users: [user('nullScope', { name: 'NS' })],
    });
    assert.equal(r.data.nullScope.success, true, JSON.stringify(r));
    assert.equal((await profileOf(t.a, org, 'nullScope'))?.name, 'NS');
    // documentId null with a folderId is not "both".
    const f = await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: null, folderId: 'ff', users: [user('fOnly')] });
    assert.equal(f.data.fOnly.success, true, JSON.stringify(f));
  });

  test('a users/update shows at once in comments/get (from.name and from.email)', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: 'writer', name: 'Old', email: 'old@example.com' }] });
    await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        {
          annotationId: 'ann',
          commentData: [{ commentText: 'hello', from: { userId: 'writer', name: 'Sent', email: 'sent@example.com' } }],
        },
      ],
    });
    let got = await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 'ann' });
    assert.deepEqual(got.data[0].from, { email: 'old@example.com', name: 'Old', userId: 'writer' }, JSON.stringify(got));
    await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: [{ userId: 'writer', name: 'New', email: 'new@example.com' }],
    });
    got = await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 'ann' });
    assert.deepEqual(got.data[0].from, { email: 'new@example.com', name: 'New', userId: 'writer' }, JSON.stringify(got));
    // A document-scoped update changes the organization profile too.
    await t.a.ok(PATHS.usersAdd, { organizationId: org, documentId: 'doc', users: [{ userId: 'writer' }] });
    await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      documentId: 'doc',
      users: [{ userId: 'writer', name: 'Doc Scoped' }],
    });
    got = await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 'ann' });
    assert.deepEqual(got.data[0].from, { email: 'new@example.com', name: 'Doc Scoped', userId: 'writer' }, JSON.stringify(got));
  });

  test('limits accepted: ids of 256 astral code points, name of 256, email of 254, photoUrl of 2048', async () => {
    const longId = '😀'.repeat(256);
    const org = '𝒪'.repeat(256);
    const longName = '名'.repeat(128) + '😀'.repeat(128);
    const email = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    assert.equal(email.length, 254);
    const photoUrl = `https://example.com/${'p'.repeat(2048 - 20)}`;
    assert.equal(photoUrl.length, 2048);
    const r = await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      documentId: '📄'.repeat(256),
      users: [{ userId: longId, name: longName, email, photoUrl }],
    });
    assert.equal(r.data[longId]?.success, true, JSON.stringify(r).slice(0, 500));
    assert.match(r.data[longId].id, HEX32);
    assert.deepEqual(await profileOf(t.a, org, longId), { userId: longId, name: longName, email, photoUrl });
    const u = await t.a.ok(PATHS.usersUpdate, { organizationId: org, folderId: '📁'.repeat(256), users: [{ userId: longId }] });
    assert.equal(u.data[longId]?.success, false, 'not a member of that folder');
    const d = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      documentId: '📄'.repeat(256),
      users: [{ userId: longId, name: '' }],
    });
    assert.equal(d.data[longId]?.success, true);
    assert.equal(d.data[longId]?.id, r.data[longId].id);
    assert.equal((await profileOf(t.a, org, longId))?.name, '');
  });

  test('astral ids sent as \\u surrogate-pair escapes count as one code point each', async () => {
    const org = uniq('org');
    const escaped = '\\ud83d\\ude00'.repeat(256);
    const r = await t.a.post(PATHS.usersAdd, null, {
      raw: `{"data":{"organizationId":"${org}","users":[{"userId":"${escaped}","name":"\\uD83D\\uDE00"}]}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(r.status, 200, r.body.slice(0, 300));
    const id = '😀'.repeat(256);
    assert.equal(r.json.result.data[id]?.success, true);
    assert.deepEqual(await profileOf(t.a, org, id), { userId: id, name: '😀', email: null, photoUrl: null });
  });

  test('ids match exactly: case, surrounding spaces, Unicode form and a longer or shorter id all matter', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [
        { userId: 'alice', name: 'A' },
        { userId: 'caf\u00e9', name: 'C' },
        { userId: 'null', name: 'N' },
      ],
    });
    const r = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: ['Alice', 'ALICE', 'alice ', ' alice', 'cafe\u0301', 'n', 'nul', 'null', 'alice', 'caf\u00e9'].map((userId) => ({
        userId,
        email: 'x@y.z',
      })),
    });
    const outcome = Object.fromEntries(Object.entries(r.data).map(([k, v]: [string, any]) => [k, v.success]));
    assert.deepEqual(
      outcome,
      {
        Alice: false,
        ALICE: false,
        'alice ': false,
        ' alice': false,
        'cafe\u0301': false,
        n: false,
        nul: false,
        null: true,
        alice: true,
        'caf\u00e9': true,
      },
      JSON.stringify(r),
    );
    assert.equal(await profileOf(t.a, org, 'Alice'), null);
    assert.equal((await profileOf(t.a, org, 'null'))?.email, 'x@y.z');
    // Upper-case organizationId is another organization.
    const other = await t.a.ok(PATHS.usersUpdate, { organizationId: org.toUpperCase(), users: [{ userId: 'alice' }] });
    assert.equal(other.data.alice.success, false);
  });

  test('one-character ids and the smallest valid email are accepted', async () => {
    const r = await t.a.ok(PATHS.usersAdd, { organizationId: 'o', documentId: 'd', users: [{ userId: 'x', email: 'a@b' }] });
    assert.equal(r.data.x.success, true, JSON.stringify(r));
    assert.equal((await profileOf(t.a, 'o', 'x'))?.email, 'a@b');
  });

  test('1000 users in one request: all processed', async () => {
    const org = uniq('org');
    const users = Array.from({ length: 1000 }, (_, i) => ({ userId: `bulk-${i}`, name: `Bulk ${i}` }));
    const r = await t.a.ok(PATHS.usersAdd, { organizationId: org, users });
    assert.equal(Object.keys(r.data).length, 1000);
    assert.ok(Object.values(r.data).every((e: any) => e.success === true && e.message === 'User added.' && HEX32.test(e.id)));
    const u = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: users.map((x, i) => (i === 999 ? { userId: 'bulk-missing' } : { userId: x.userId, email: `b${i}@example.com` })),
    });
    assert.equal(Object.keys(u.data).length, 1000);
    assert.equal(u.data['bulk-0'].success, true);
    assert.equal(u.data['bulk-998'].success, true);
    assert.equal(u.data['bulk-missing'].success, false);
    assert.equal((await profileOf(t.a, org, 'bulk-500'))?.email, 'b500@example.com');
    assert.equal((await profileOf(t.a, org, 'bulk-500'))?.name, 'Bulk 500');
  });

  test('unknown members anywhere are ignored', async () => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.usersAdd, null, {
      raw: JSON.stringify({
        meta: { trace: 1 },
        data: {
          organizationId: org,
          extraTop: [1, 2, { x: null }],
          role: 'admin',
          users: [{ userId: 'extra', name: 'E', avatar: 'a.png', roles: ['x'], id: 5, success: false }],
        },
      }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(Object.keys(r.json.result.data), ['extra'], r.body);
    assert.equal(r.json.result.data.extra.success, true, r.body);
    assert.match(r.json.result.data.extra.id, HEX32);
    assert.deepEqual(Object.keys(r.json.result).sort(), ['data', 'message', 'status'], r.body);
    const u = await t.a.post(PATHS.usersUpdate, {
      organizationId: org,
      whatever: true,
      users: [{ userId: 'extra', email: 'e@x.io', nickname: 'n' }],
    });
    assert.equal(u.status, 200, u.body);
    assert.equal(u.json.result.data.extra.success, true, u.body);
    assert.deepEqual(await profileOf(t.a, org, 'extra'), { userId: 'extra', name: 'E', email: 'e@x.io', photoUrl: null });
  });

  test('Content-Type with parameters is accepted; the success envelope has result only', async () => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.usersAdd, null, {
      raw: JSON.stringify({ data: { organizationId: org, users: [user('ct')] } }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(Object.keys(r.json), ['result'], r.body);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.ok(r.headers['x-request-id'], 'x-request-id header present');
  });

  test('userIds that look like numbers are keys like any other', async () => {
    const org = uniq('org');
    const r = await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [{ userId: '10' }, { userId: '2' }, { userId: '0' }] });
    assert.deepEqual(Object.keys(r.data).sort(), ['0', '10', '2'], JSON.stringify(r));
    const u = await t.a.ok(PATHS.usersUpdate, { organizationId: org, users: [{ userId: '2', name: 'two' }, { userId: '3' }] });
    assert.equal(u.data['2'].success, true, JSON.stringify(u));
    assert.equal(u.data['3'].success, false, JSON.stringify(u));
  });
});
