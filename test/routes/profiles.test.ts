// Authors and action users show the organization's profile as it is now (docs/api.md, "Profiles at read time"),
// although each process holds profiles in memory (services/profiles.ts): a rename made through another instance on
// the same database shows on the very next read, and a cache bounded to a handful of profiles (or
// none) answers the same bytes. On the database the suite runs on (SQLite, then PostgreSQL).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { App } from '../../src/http/types.js';
import type { Store } from '../../src/store/store.js';
import { anotherInstance, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';

const ORG = 'org-profiles';
const DOC = 'doc-1';
let t: TestApp;
const others: { app: App; store: Store }[] = [];

/** Another instance on the same database: its own store (connection) and its own profile cache. */
async function instance(profileCacheMb?: number): Promise<App> {
  const other = await anotherInstance(t.db, profileCacheMb !== undefined ? { profileCacheMb } : {});
  others.push(other);
  return other.app;
}

async function call(app: App, path: string, data: unknown): Promise<any> {
  const res = await app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/json',
      'x-service-api-key': t.a.creds.apiKey,
      'x-service-auth-token': t.a.creds.authToken,
    },
    payload: JSON.stringify({ data }),
  });
  assert.equal(res.statusCode, 200, res.body);
  return JSON.parse(res.body).result;
}

const shownNames = async (app: App) => {
  const comments = await call(app, PATHS.commentsGet, { organizationId: ORG, documentId: DOC, annotationId: 'thread-1' });
  const inbox = await call(app, PATHS.notificationsGet, { organizationId: ORG, userId: 'reader' });
  const byDocument = await call(app, PATHS.notificationsGet, { organizationId: ORG, documentId: DOC });
  return {
    authors: comments.data.map((c: any) => c.from.name),
    actors: inbox.data.map((n: any) => n.actionUser.name),
    templateUsers: inbox.data.map((n: any) => n.displayHeadlineMessageTemplateData.actionUser.name),
    byDocument: byDocument.data.map((n: any) => n.actionUser.name),
  };
};

before(async () => {
  t = await makeTestApp();
  await t.a.ok(PATHS.usersAdd, {
    organizationId: ORG,
    users: [
      { userId: 'ann', name: 'Ann' },
      { userId: 'bob', name: 'Bob' },
    ],
  });
  await t.a.ok(PATHS.annotationsAdd, {
    organizationId: ORG,
    documentId: DOC,
    commentAnnotations: [
      {
        annotationId: 'thread-1',
        commentData: [
          { commentHtml: '<p>one</p>', from: { userId: 'ann', name: 'Sent Ann' } },
          { commentHtml: '<p>two</p>', from: { userId: 'bob' } },
          { commentHtml: '<p>three</p>', from: { userId: 'cid', name: 'Sent Cid' } },
        ],
      },
    ],
  });
  for (const [i, actor] of ['ann', 'bob', 'cid'].entries()) {
    await t.a.ok(PATHS.notificationsAdd, {
      organizationId: ORG,
      documentId: DOC,
      notificationId: `n-${i}`,
      actionUser: { userId: actor, name: `Sent ${actor}` },
      displayHeadlineMessageTemplate: '{actionUser} wrote',
      displayHeadlineMessageTemplateData: { actionUser: { userId: actor } },
      notifyUsers: [{ userId: 'reader' }],
    });
  }
});

after(async () => {
  for (const o of others) {
    await o.app.close();
    await o.store.close();
  }
  await t.close();
});

test('a rename, or a new profile, made through another instance shows on the next read of this one', async () => {
  const reader = t.app;
  const writer = await instance();
  assert.deepEqual(await shownNames(reader), {
    authors: ['Ann', 'Bob', 'Sent Cid'],
    actors: ['Sent cid', 'Bob', 'Ann'],
    templateUsers: ['', 'Bob', 'Ann'],
    byDocument: ['Sent cid', 'Bob', 'Ann'],
  });
  await call(writer, PATHS.usersUpdate, { organizationId: ORG, users: [{ userId: 'bob', name: 'Robert' }] });
  await call(writer, PATHS.usersAdd, { organizationId: ORG, users: [{ userId: 'cid', name: 'Cid' }] });
  assert.deepEqual(await shownNames(reader), {
    authors: ['Ann', 'Robert', 'Cid'],
    actors: ['Cid', 'Robert', 'Ann'],
    templateUsers: ['Cid', 'Robert', 'Ann'],
    byDocument: ['Cid', 'Robert', 'Ann'],
  });
  // And the other way round, through the first instance's own writes.
  await t.a.ok(PATHS.usersUpdate, { organizationId: ORG, users: [{ userId: 'ann', name: 'Anna' }] });
  assert.deepEqual((await shownNames(writer)).authors, ['Anna', 'Robert', 'Cid']);
  assert.deepEqual((await shownNames(reader)).authors, ['Anna', 'Robert', 'Cid']);
});

test('a cache bounded to about one profile, or to none, answers the same bytes', async () => {
  const reads = [
    { path: PATHS.commentsGet, data: { organizationId: ORG, documentId: DOC, annotationId: 'thread-1' } },
    { path: PATHS.notificationsGet, data: { organizationId: ORG, userId: 'reader' } },
    { path: PATHS.notificationsGet, data: { organizationId: ORG, documentId: DOC } },
  ];
  const answers = async (app: App) => Promise.all(reads.map(async (r) => JSON.stringify(await call(app, r.path, r.data))));
  const expected = await answers(t.app);
  // About one profile's bytes (services/profiles.ts profileBytes), or none.
  for (const mb of [1000 / 1048576, 0]) {
    const app = await instance(mb);
    assert.deepEqual(await answers(app), expected, `cache of ${mb} MB`);
    assert.deepEqual(await answers(app), expected, `cache of ${mb} MB, again`);
  }
});
