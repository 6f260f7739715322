// The store conformance suite, schema: migrations (idempotent, concurrent, forward from the previous
// release) and the connection (ping, close).
// Runs on the database MARGINALIA_TEST_STORE names (npm test: SQLite, then PostgreSQL).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenRecord } from '../../src/services/credentials.js';
import { openStore } from '../../src/store/open-store.js';
import { StoreUnavailableError, type Store } from '../../src/store/store.js';
import type { SearchKind } from '../../src/domain/search.js';
import type { AnnotationQuery } from '../../src/domain/threads.js';
import { compile } from '../../src/domain/workflow-graph.js';
import { dispatch, type PinnedGraph } from '../../src/domain/workflow-machine.js';
import {
  beforeAllowedDomains,
  beforeDocumentMigrations,
  beforeApprovalWorkflows,
  asOfMigration25,
  asOfMigration27,
  asOfMigration28,
  asOfMigration31,
  asOfMigration11,
  asOfMigration12,
  asOfMigration5,
  asOfMigration7,
  asOfMigration8,
  asOfMigration9,
  beforeDraftHorizon,
  beforeEventDrafts,
  beforeHeadPruning,
  beforeAdvancedWebhooks,
  beforeBoundedWork,
  beforeWebhookKinds,
  beforeLiveStates,
  beforeServiceSettingsAndPresence,
  beforeAccessRoles,
  beforeNotificationArchives,
  beforeSearchIndex,
  beforeNotificationHeadlines,
  beforeScopedTerms,
  beforeLz4,
  beforeNumberingByWrite,
  beforeThreadColors,
  beforeWorkspaceKeys,
  previousRelease,
  beforeCommentReactions,
} from '../helpers/previous-release.js';
import { type FreshDatabase, freshDatabase, TEST_STORE, withPg } from '../helpers/test-database.js';
import {
  T0,
  TA,
  TB,
  show,
  ORG,
  DOC,
  eq,
  sorted,
  tenant,
  newComment,
  draft,
  annotation,
  commentQuery,
  annotationQuery,
  notification,
  notificationQuery,
  recipient,
  commentIdsOf,
  notificationIdsOf,
  added,
  storeTest,
  nextTurn,
  withSecondStore,
  readNotifications,
  readThreads,
  countOf,
} from '../helpers/store-fixtures.js';

/**
 * PostgreSQL: what a writer of releases 18 to 20 left when it stopped between its commit and the
 * numbering: a draft (`data.id` "left"), in the columns those releases wrote.
 */
async function leftDraft(db: FreshDatabase): Promise<void> {
  if (db.kind !== 'postgres') return;
  await db.exec(`INSERT INTO event_drafts (tenant_id, write_id, position, type, organization_id, document_id, created_at,
      audience, body_rest)
    SELECT '${TA}', nextval('event_draft_writes'), 1, 'notification.add', '${ORG}', NULL, ${T0}, NULL,
      ',"type":"notification.add","timestamp":${T0},"organizationId":"${ORG}","data":{"id":"left"}}'`);
}

describe(`${TEST_STORE} store: schema and connection`, () => {
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
    eq(added(await store.addComments(TA, ORG, DOC, 'ann', [draft('second')], T0), 'addComments after migrate'), [2], 'ids');
  });

  test('two stores migrating the same fresh database at once both succeed and share one schema', async () => {
    const db = freshDatabase(TEST_STORE);
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
    'a database as the previous release left it (through migration 13) migrates forward: every document it names gets a row',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.upsertUsers(TA, ORG, { kind: 'document', id: 'by-membership' }, [{ userId: 'u1' }], T0);
      await store.upsertUsers(TA, ORG, { kind: 'folder', id: 'a-folder' }, [{ userId: 'u1' }], T0);
      await store.addAnnotations(TA, ORG, 'by-thread', [annotation('t1', [newComment(1, 'hello')])], T0);
      await store.addNotification(TA, ORG, notification('n1', { recipients: ['u1'], documentId: 'by-notification' }));
      await store.addNotification(TA, ORG, notification('n2', { recipients: ['u1'], documentId: null }));
      await store.setNotificationSettings(TA, 'other-org', ['by-settings'], ['u1'], { inbox: 'ALL' }, T0);
      await previousRelease(db);
      const started = Date.now();
      await withSecondStore(db, async (reopened) => {
        const listed = async (organizationId: string) =>
          (
            await reopened.getDocuments(TA, { organizationId, documentIds: null, folder: undefined, after: null, limit: 100 })
          ).map((d) => [d.documentId, d.name, d.folderId, d.accessType, d.disabled]);
        eq(
          await listed(ORG),
          [
            ['by-membership', '', null, 'organizationPrivate', false],
            ['by-notification', '', null, 'organizationPrivate', false],
            ['by-thread', '', null, 'organizationPrivate', false],
          ],
          'documents from memberships, threads and notifications; a folder scope is no document',
        );
        eq(await listed('other-org'), [['by-settings', '', null, 'organizationPrivate', false]], 'from settings');
        for (const d of await reopened.getDocuments(TA, {
          organizationId: ORG,
          documentIds: null,
          folder: undefined,
          after: null,
          limit: 9,
        }))
          assert.ok(d.createdAt >= started - 1000 && d.createdAt === d.updatedAt, `made at the migration: ${show(d)}`);
        // And writes go on: the new tables are there.
        await reopened.setOrganizationsDisabled(TA, [ORG], true, T0);
        await assert.rejects(async () => reopened.upsertUsers(TA, ORG, null, [{ userId: 'u2' }], T0), /is disabled/);
      });
    },
  );

  storeTest(
    'a database as the release before organizations left it (through migration 12) migrates forward: every organization it names' +
      ' gets a row',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.createTenant(tenant(TB, 'mk_b'), tokenRecord('mt_b', T0));
      await store.upsertUsers(TA, 'by-users', { kind: 'document', id: DOC }, [{ userId: 'u1' }], T0);
      await store.addAnnotations(TA, 'by-thread', DOC, [annotation('t1', [newComment(1, 'hello')])], T0);
      await store.addNotification(TA, 'by-notification', notification('n1', { recipients: ['u1'] }));
      await store.setNotificationSettings(TB, 'by-settings', [DOC], ['u1'], { inbox: 'ALL' }, T0);
      await store.addNotification(TB, 'by-users', notification('n2', { recipients: ['u2'] }));
      await asOfMigration12(db);
      const started = Date.now();
      await withSecondStore(db, async (reopened) => {
        const listed = async (tenantId: string) =>
          (await reopened.getOrganizations(tenantId, null, null, 100)).map((o) => [o.organizationId, o.name, o.disabled]);
        eq(
          await listed(TA),
          [
            ['by-notification', '', false],
            ['by-thread', '', false],
            ['by-users', '', false],
          ],
          "tenant a's organizations, from users and memberships, threads and notifications",
        );
        eq(
          await listed(TB),
          [
            ['by-settings', '', false],
            ['by-users', '', false],
          ],
          "tenant b's, from settings and notifications, apart from a's of the same name",
        );
        for (const o of await reopened.getOrganizations(TA, null, null, 100)) {
          assert.ok(o.createdAt >= started - 1000 && o.createdAt === o.updatedAt, `made at the migration: ${show(o)}`);
        }
      });
    },
  );

  storeTest(
    'a database as the release before the inbox life left it (through migration 11) migrates forward: notifications get counts' +
      ' and read state',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addNotification(TA, ORG, notification('n1', { recipients: ['u1', 'u2'] }));
      await store.addNotification(TA, ORG, notification('n2', { recipients: ['u1'], timestamp: T0 + 1, documentId: 'd2' }));
      await store.addNotification(TA, ORG, notification('n3', { recipients: ['u2'], timestamp: T0 + 2, documentId: null }));
      const page = (s: Store, userId: string) => s.getNotifications(TA, notificationQuery({ userId }));
      const before = { u1: await page(store, 'u1'), u2: await page(store, 'u2') };
      await asOfMigration11(db);
      await withSecondStore(db, async (reopened) => {
        const count = async (userId: string, documentId: string | null = null) => {
          const c = await reopened.countNotifications(TA, ORG, userId, documentId);
          return { total: c.total, unread: c.unread };
        };
        eq(await page(reopened, 'u1'), before.u1, "u1's page, the same after the migration");
        eq(await page(reopened, 'u2'), before.u2, "u2's page, the same after the migration");
        eq(await count('u1'), { total: 2, unread: 2 }, 'u1 counted from the inbox rows there were');
        eq(await count('u1', DOC), { total: 1, unread: 1 }, "u1's count in one document");
        eq(await count('u2'), { total: 2, unread: 2 }, "u2's count, a notification without a document included");
        eq(await count('u2', 'd2'), { total: 0, unread: 0 }, 'u2 has nothing in d2');
        // A mark as the previous release's code could make it (no part of it knows of counters): the triggers count it.
        await db.exec(
          `UPDATE inbox SET unread = ${db.kind === 'sqlite' ? 0 : 'false'} WHERE notification_id = 'n1' AND user_id = 'u1'`,
        );
        await nextTurn();
        eq(await count('u1'), { total: 2, unread: 1 }, 'a hand-made mark is counted');
        const [n1] = await reopened.getNotifications(TA, notificationQuery({ userId: 'u2', notificationIds: ['n1'] }));
        eq(n1?.readers, [['u1', null]], "u1's mark shows in n1's read state for every reader");
        eq(
          await reopened.markNotificationsRead(TA, ORG, { userId: 'u2', internalId: 'id-of-u2' }, null, null, T0),
          2,
          'read all',
        );
        eq(await count('u2'), { total: 2, unread: 0 }, 'u2 read everything');
      });
    },
  );

  storeTest(
    'a database through migration 20 migrates forward: a left draft is numbered, the release before still numbers, ids go on',
    async (store, db) => {
      await store.addNotification(TA, ORG, notification('n1'));
      await store.eventsNumbered(TA);
      await beforeDraftHorizon(db);
      await leftDraft(db);
      await withSecondStore(db, async (reopened) => {
        if (db.kind === 'postgres') {
          // An instance of that release, still running during a rolling upgrade, numbers its write's drafts
          // by write_id: now every committed draft is taken.
          eq(Number((await db.query(`SELECT sequence_events('${TA}', ARRAY[0]::bigint[]) AS last`))[0]!.last), 2, 'numbered');
          const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM event_drafts')) as [{ n: number }];
          eq(n, 0, 'no draft left');
        }
        await reopened.addNotification(TA, ORG, notification('n2'));
        await reopened.eventsNumbered(TA);
        const events = await reopened.eventsAfter(TA, 0, 10);
        eq(
          events.map((e) => [e.id, JSON.parse(e.body).data.id]),
          db.kind === 'postgres'
            ? [
                [1, 'n1'],
                [2, 'left'],
                [3, 'n2'],
              ]
            : [
                [1, 'n1'],
                [2, 'n2'],
              ],
          'the events of before, the left draft, then the next write',
        );
      });
    },
  );

  storeTest(
    'a database through migration 19 migrates forward: large answers compress with lz4 (PostgreSQL), old rows read as before',
    async (store, db) => {
      const many = Array.from({ length: 300 }, (_, i) => `reader-${i}`);
      await beforeLz4(db);
      await store.addNotification(TA, ORG, notification('before', { recipients: many }));
      await withSecondStore(db, async (reopened) => {
        await reopened.addNotification(TA, ORG, notification('after', { recipients: many }));
        for (const id of ['before', 'after']) {
          const [n] = await reopened.getNotifications(TA, notificationQuery({ userId: 'reader-299', notificationIds: [id] }));
          eq(n?.notificationId, id, `${id}: reads back`);
          eq(
            (n!.answer.match(/":true/g) ?? []).length,
            2 * many.length,
            `${id}: notifyUsers and notifyUsersByUserId name everyone`,
          );
        }
        if (db.kind !== 'postgres') return;
        const [{ lz4 }] = (await db.query(
          `SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
        )) as [{ lz4: boolean }];
        // 300 recipients: the answer is kept once, on the notification (MARGINALIA_INBOX_ANSWER_COPIES).
        const methods = await db.query(`SELECT notification_id AS id, pg_column_compression(answer) AS m FROM notifications
          WHERE tenant_id = '${TA}' AND notification_id IN ('before', 'after') ORDER BY notification_id DESC`);
        eq(
          methods.map((r) => `${r.id} ${r.m}`),
          ['before pglz', `after ${lz4 ? 'lz4' : 'pglz'}`],
          'the row written before keeps pglz; a new one takes lz4 where the server has it',
        );
      });
    },
  );

  storeTest(
    'a database as migration 31 left it migrates forward: its data reads as before, and writes become activities once enabled',
    async (store, db) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('old', [newComment(1, 'before')])], T0);
      await store.addNotification(TA, ORG, notification('n1', { recipients: ['u1'] }));
      const before = await readThreads(store, TA, annotationQuery());
      await asOfMigration31(db);
      await withSecondStore(db, async (reopened) => {
        eq(await readThreads(reopened, TA, annotationQuery()), before, 'a thread written before reads as it did');
        eq(await reopened.activitySettings(TA), null, 'no settings: the defaults');
        const settings = { isEnabled: true, immutable: false, enabledTime: T0, retentionDays: null, triggers: null };
        await reopened.updateActivitySettings(TA, () => settings, T0);
        await reopened.addNotification(TA, ORG, notification('n2', { recipients: ['u1'], timestamp: T0 + 1 }));
        const query = {
          organizationId: ORG,
          documentId: null,
          targetEntityId: null,
          featureTypes: null,
          actionTypes: null,
          userId: null,
          activityIds: null,
          ascending: true,
          after: null,
          limit: 10,
        };
        eq(
          (await reopened.getActivities(TA, query)).map((a) => [a.actionType, a.targetEntityId]),
          [['notification.add', 'n2']],
          'a write after the migration is an activity; nothing before it is',
        );
      });
    },
  );

  storeTest(
    'a database as the release before left it (through migration 28) migrates forward: threads and folders read as before, ' +
      'and take /v2 members',
    async (store, db) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('old', [newComment(1, 'before')])], T0);
      await store.addFolders(TA, ORG, [{ folderId: 'f', name: 'F', parentId: null }], T0, 10);
      const before = await readThreads(store, TA, annotationQuery());
      const folders = await store.getFolders(TA, ORG);
      await asOfMigration28(db);
      await withSecondStore(db, async (reopened) => {
        eq(await readThreads(reopened, TA, annotationQuery()), before, 'a thread written before reads as it did');
        eq(await reopened.getFolders(TA, ORG), folders, 'a folder written before reads as it did, inheriting nothing');
        const search = {
          organizationId: ORG,
          documentId: null,
          documentIds: null,
          annotationIds: null,
          locationIds: null,
          userIds: null,
          statusIds: null,
          mentionedUserIds: null,
          resolvedBy: null,
          agentId: null,
          executionId: null,
          agentType: null,
          agentSource: null,
          agentOnly: false,
          suggestionsOnly: false,
          updatedAfter: null,
          updatedBefore: null,
          createdAfter: null,
          createdBefore: null,
          ascending: false,
          after: null,
          limit: 10,
        };
        eq(
          (await reopened.searchThreads(TA, search)).map((t) => t.annotationId),
          ['old'],
          'found by lastUpdated (migration 30)',
        );
        await reopened.updateAnnotations(TA, { ...annotationQuery(), annotationIds: ['old'] }, { resolvedBy: 'u9' }, T0 + 1);
        eq(
          (await reopened.searchThreads(TA, { ...search, resolvedBy: 'u9' })).map((t) => t.annotationId),
          ['old'],
          'an older thread takes a resolver',
        );
        await reopened.setFolderAccess(TA, ORG, ['f'], { accessType: null, inherits: true }, T0 + 2);
        eq((await reopened.getFolders(TA, ORG))[0]!.inheritsAccess, true, 'an older folder takes the inheritance');
      });
    },
  );

  storeTest(
    'a database as of migration 24 migrates forward: its threads read as before, new ones keep a color (migration 25)',
    async (store, db) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('old', [newComment(1, 'before')])], T0);
      const before = await readThreads(store, TA, annotationQuery());
      await beforeThreadColors(db);
      await withSecondStore(db, async (reopened) => {
        eq(await readThreads(reopened, TA, annotationQuery()), before, 'a thread written before reads as it did');
        await reopened.addAnnotations(
          TA,
          ORG,
          DOC,
          [{ ...annotation('new', [newComment(1, 'after')]), color: '#00FF00' }],
          T0 + 1,
        );
        await reopened.updateAnnotations(TA, { ...annotationQuery(), annotationIds: ['old'] }, { color: 'teal' }, T0 + 2);
        const read = await readThreads(reopened, TA, annotationQuery());
        eq(
          read.map((t) => [t.annotationId, (t as { color?: string }).color]),
          [
            ['new', '#00FF00'],
            ['old', 'teal'],
          ],
          'the color is kept as sent, and an older thread takes one',
        );
      });
    },
  );

  storeTest(
    'a database as the release before left it (through migration 27) migrates forward: notifications read, count and change as before',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addNotification(TA, ORG, notification('n1', { recipients: ['u1', 'u2'] }));
      await store.addNotification(TA, ORG, notification('n2', { recipients: ['u1'], timestamp: T0 + 1, documentId: 'd2' }));
      await store.addNotification(TA, ORG, notification('n3', { recipients: [], timestamp: T0 + 2, notifyAll: true }));
      await store.addNotification(TA, 'org-2', notification('n1', { recipients: ['u1'], timestamp: T0 + 3 }));
      const reads = (s: Store) =>
        Promise.all([
          s.getNotifications(TA, notificationQuery({ userId: 'u1' })),
          s.getNotifications(TA, notificationQuery({ userId: 'u2' })),
          s.getNotifications(TA, notificationQuery({ documentId: 'd2' })),
          s.getNotifications(TA, notificationQuery({ notificationIds: ['n1', 'n3'] })),
          s.getNotifications(TA, notificationQuery({ organizationId: 'org-2' })),
          s.countNotifications(TA, ORG, 'u1', null),
        ]);
      const before = await reads(store);
      const rowid = async () =>
        !String((await db.query(`SELECT sql FROM sqlite_schema WHERE name = 'notifications'`))[0]!.sql).includes('WITHOUT ROWID');
      await asOfMigration27(db);
      if (db.kind === 'sqlite') assert.equal(await rowid(), false, 'the release before kept notifications WITHOUT ROWID');
      await withSecondStore(db, async (reopened) => {
        if (db.kind === 'sqlite') {
          assert.equal(await rowid(), true, 'a rowid table after migration 28');
          const objects = (await db.query(`SELECT name FROM sqlite_schema WHERE tbl_name = 'notifications' ORDER BY name`)).map(
            (r) => r.name,
          );
          eq(
            objects,
            [
              'notifications',
              'notifications_by_actor',
              'notifications_by_document',
              // Migration 41's, run after 28 made the table again.
              'notifications_delete_archives',
              'notifications_delete_counts',
              'notifications_insert_counts',
              'notifications_insert_names_users',
              // Migration 44's (issue 41, search), likewise.
              'notifications_search_delete',
              'notifications_search_insert',
              'notifications_search_update',
              'notifications_update_counts',
              'notifications_update_names_users',
              'notifications_user_organization',
              'notifications_user_organization_update',
              'notifications_wide',
              'sqlite_autoindex_notifications_1',
            ],
            'its indexes and triggers, as before, and its key as a unique index',
          );
        }
        eq(await reads(reopened), before, 'every read answers as before the migration');
        // The key still refuses a second notification of the same id, and the triggers still count and index.
        eq(await reopened.addNotification(TA, ORG, notification('n1', { recipients: ['u3'] })), false, 'n1 exists');
        await reopened.addNotification(TA, ORG, notification('n4', { recipients: ['u1'], timestamp: T0 + 4, notifyAll: true }));
        const counted = await reopened.countNotifications(TA, ORG, 'u1', null);
        eq([counted.total, counted.unread], [before[5].total + 1, before[5].unread + 1], 'the new one counted');
        eq(
          (await db.query(`SELECT count(DISTINCT organization_id) AS n FROM user_organizations WHERE user_id = 'actor'`))[0]!.n,
          db.kind === 'sqlite' ? 2 : '2',
          "the actor's organizations, kept by the triggers",
        );
        const { after: _a, limit: _l, unread: _u, ...deletion } = notificationQuery({ notificationIds: ['n2'] });
        eq(await reopened.deleteNotifications(TA, deletion, T0), ['n2'], 'n2 deleted');
        eq(
          (await reopened.getNotifications(TA, notificationQuery({ userId: 'u1' }))).map((n) => n.notificationId),
          ['n4', 'n1'],
          "u1's page after an add and a delete",
        );
      });
    },
  );

  storeTest(
    'a database as the release before left it (through migration 25) migrates forward: users are found where they have rows or are named',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.upsertUsers(TA, ORG, null, [{ userId: 'profiled' }], T0);
      await store.addAnnotations(
        TA,
        'org-2',
        DOC,
        [
          {
            ...annotation('t', [
              {
                ...newComment(1, 'hi'),
                taggedUserContacts: [{ userId: 'tagged', contact: { userId: 'contact', name: null, email: null } }],
              },
            ]),
            assignedTo: { userId: 'assignee', name: null, email: null },
          },
        ],
        T0,
      );
      await asOfMigration25(db);
      await withSecondStore(db, async (reopened) => {
        const entries = async () =>
          (
            await db.query('SELECT user_id, organization_id, named FROM user_organizations ORDER BY user_id, organization_id')
          ).map((r) => [r.user_id, r.organization_id, Boolean(r.named)]);
        const author = (await db.query(`SELECT from_user_id FROM comments WHERE organization_id = 'org-2'`))[0]!.from_user_id;
        const byKey = (list: unknown[][]) => [...list].sort((x, y) => (`${x[0]} ${x[1]}` < `${y[0]} ${y[1]}` ? -1 : 1));
        eq(
          byKey(await entries()),
          byKey([
            [author, 'org-2', false],
            ['assignee', 'org-2', true],
            ['contact', 'org-2', true],
            ['profiled', ORG, false],
            ['tagged', 'org-2', true],
          ]),
          'the backfill finds every user of the rows written before',
        );
        // The triggers keep it from now on, and an erasure visits only where a user is.
        await reopened.upsertUsers(TA, 'org-3', null, [{ userId: 'later' }], T0 + 1);
        assert.ok((await entries()).some((e) => e[0] === 'later' && e[1] === 'org-3'));
        await reopened.eraseUserData(TA, null, ['tagged', 'nobody'], 100, { jobId: 'j1', now: () => T0 + 2 });
        assert.ok(!(await entries()).some((e) => e[0] === 'tagged'), 'the erasure takes its entries');
        const orgs = (await db.query('SELECT organization_id, deleting FROM organizations ORDER BY 1')).map((r) => [
          r.organization_id,
          Boolean(r.deleting),
        ]);
        assert.ok(
          orgs.every(([, deleting]) => deleting === false),
          `no organization is being deleted: ${JSON.stringify(orgs)}`,
        );
      });
    },
  );

  storeTest(
    'a database as migration 31 left it migrates forward: keys of before read with default settings, new documents ' +
      'take a default access once one is set, and the workspace gets credentials',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addDocuments(TA, ORG, null, [{ documentId: 'old', name: 'Old' }], T0);
      await beforeWorkspaceKeys(db);
      await withSecondStore(db, async (reopened) => {
        const before = (await reopened.apiKey('mk_a'))!;
        eq(before.tenant.id, TA, 'a key of before is listed');
        eq(before.settings, { ownerEmail: null, type: null, defaultDocumentAccessType: null, shown: {} }, 'with no settings');
        await reopened.updateApiKeySettings(TA, { defaultDocumentAccessType: 'public', shown: { requireJwtToken: true } }, T0);
        await reopened.addDocuments(TA, ORG, null, [{ documentId: 'new', name: 'New' }], T0 + 1);
        const docs = await reopened.getDocuments(TA, {
          organizationId: ORG,
          documentIds: null,
          folder: undefined,
          after: null,
          limit: 10,
        });
        eq(
          docs.map((d) => `${d.documentId} ${d.accessType}`),
          ['new public', 'old organizationPrivate'],
          'the document of before keeps its access; a new one takes the default',
        );
        eq(await reopened.workspaceCredentials(), null, 'no workspace credentials until the CLI makes them');
        const made = await reopened.setWorkspaceToken('mws_1', tokenRecord('mwt_1', T0));
        eq(made, { workspaceId: 'mws_1', rotated: false }, 'made');
        eq((await reopened.workspaceCredentials())?.workspaceId, 'mws_1', 'read back');
      });
    },
  );

  storeTest(
    'a database as the release before left it (through migration 22) migrates forward: allowed domains come, rows stay',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.upsertUsers(TA, ORG, null, [{ userId: 'u1', name: 'Ann' }], T0);
      await store.addWebhook(
        TA,
        { webhookId: 'wh_1', url: 'https://203.0.113.1/h', description: null, eventTypes: null, secret: 's', createdAt: T0 },
        10,
      );
      await beforeAllowedDomains(db);
      const tables = async () =>
        (
          await db.query(
            db.kind === 'sqlite'
              ? `SELECT name FROM sqlite_master WHERE name LIKE 'allowed_domains%' ORDER BY name`
              : `SELECT relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = current_schema() AND relname LIKE 'allowed_domains%' ORDER BY relname`,
          )
        ).map((r) => r.name);
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(
          (await tables()).filter((t) => t !== 'allowed_domains_pkey'),
          ['allowed_domains', 'allowed_domains_by_domain'],
          'migration 23 made the table and its index by domain',
        );
        eq((await reopened.findProfiles(TA, ORG, ['u1'])).get('u1')?.name, 'Ann', 'a profile of before');
        eq(
          (await reopened.getWebhooks(TA)).map((w) => w.webhookId),
          ['wh_1'],
          'a webhook of before',
        );
        eq(await reopened.addAllowedDomains(TA, ['example.com'], 10, T0), { added: ['example.com'], skipped: [] }, 'an add');
        eq(await reopened.allowedDomains(TA), ['example.com'], 'read back');
      });
    },
  );

  storeTest(
    'a database as migration 31 left it migrates forward: document migrations get their table, and move the rows written before',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first'), newComment(2, 'second')])], T0);
      await store.addNotification(TA, ORG, notification('n1'));
      await beforeDocumentMigrations(db);
      const tables = async () => [...(await db.textColumns()).keys()].filter((name) => name === 'document_migrations');
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await tables(), ['document_migrations'], 'migration 33 made it');
        const start = { tenantId: TA, migrationId: 'm1', organizationId: ORG, documentId: DOC, newDocumentId: 'moved' };
        await reopened.startDocumentMigration(start, 10, T0 + 1);
        const job = await reopened.claimDocumentMigration('w', T0 + 2, 60_000);
        eq(job?.migrationId, 'm1', 'claimed');
        const end = await reopened.runDocumentMigration(job!, {
          owner: 'w',
          leaseMs: 60_000,
          mostRows: 1,
          now: () => T0 + 3,
          stopping: () => false,
        });
        eq(end, 'completed', 'run to its end, a row a batch');
        eq(
          commentIdsOf(await reopened.getComments(TA, { ...commentQuery('ann'), documentId: 'moved' })),
          [1, 2],
          'comments moved',
        );
        eq(commentIdsOf(await reopened.getComments(TA, commentQuery('ann'))), [], 'none left');
        eq((await reopened.documentMigration(TA, ORG, 'm1'))?.status, 'completed', 'its status');
      });
    },
  );

  storeTest(
    'a database as migration 38 left it migrates forward: endpoints told from webhooks/add ones, a uid kept once, one service endpoint',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      const hook = (webhookId: string, createdAt: number, uid?: string) => ({
        webhookId,
        url: 'https://203.0.113.1/h',
        description: null,
        eventTypes: null,
        secret: 'whsec_a',
        createdAt,
        ...(uid !== undefined
          ? { advanced: { filterTypes: null, channels: null, disabled: false, rateLimit: null, metadata: null, uid } }
          : {}),
      });
      await store.addWebhook(TA, hook('wh_basic', T0), 10);
      await store.addWebhook(TA, hook('wh_first', T0 + 1, 'same'), 10);
      await store.addWebhook(TA, hook('wh_second', T0 + 2, 'other'), 10);
      await store.addWebhook(TA, hook('wh_rotated', T0 + 3), 10);
      await store.addWebhook(TA, hook('wh_service', T0 + 4, 'webhookconfig'), 10);
      await store.addWebhook(TA, hook('wh_spare', T0 + 5, 'spare'), 10);
      // A webhooks/add webhook touched by a rotation and by endpoints/update (the way back from a switch-off then).
      await store.rotateWebhookSecret(TA, 'wh_rotated', 'whsec_b', T0 + 10, T0 + 6);
      await store.updateWebhook(TA, 'wh_rotated', { disabled: false }, T0 + 7);
      await beforeWebhookKinds(db);
      // That release let two endpoints share a uid, and two webhookconfig enables at once make two service endpoints.
      await db.exec(`UPDATE webhooks SET uid = 'same' WHERE id = 'wh_second'`);
      await db.exec(`UPDATE webhooks SET uid = 'webhookconfig' WHERE id = 'wh_spare'`);
      await db.exec(`INSERT INTO webhook_queues (tenant_id, webhook_id, organization_id, next_attempt_at)
        VALUES ('${TA}', 'wh_spare', 'o1', 0), ('${TA}', 'wh_service', 'o1', 0)`);
      await db.exec(`INSERT INTO webhook_deliveries
          (tenant_id, webhook_id, event_id, organization_id, event_type, body, status, created_at)
        VALUES ('${TA}', 'wh_spare', 1, 'o1', 'comment.add', '{}', 'pending', 0),
          ('${TA}', 'wh_service', 1, 'o1', 'comment.add', '{}', 'pending', 0)`);
      await db.exec(`INSERT INTO webhook_states (tenant_id, webhook_id) VALUES ('${TA}', 'wh_spare'), ('${TA}', 'wh_service')
        ON CONFLICT DO NOTHING`);
      await withSecondStore(db, async (reopened) => {
        const rows = await db.query('SELECT id, uid, advanced FROM webhooks ORDER BY id');
        eq(
          rows.map((r) => [r.id, r.uid, Boolean(r.advanced)]),
          [
            ['wh_basic', null, false],
            ['wh_first', 'same', true],
            ['wh_rotated', null, false],
            ['wh_second', null, true],
            ['wh_service', 'webhookconfig', true],
          ],
          'the endpoints marked by their members (an update is no sign); the older keeps the uid; the spare service endpoint goes',
        );
        for (const table of ['webhook_queues', 'webhook_deliveries', 'webhook_states'])
          eq(
            (await db.query(`SELECT webhook_id FROM ${table} WHERE webhook_id IN ('wh_spare', 'wh_service')`)).map(
              (r) => r.webhook_id,
            ),
            ['wh_service'],
            `${table}: the spare's rows go with it`,
          );
        eq(await reopened.addWebhook(TA, hook('wh_third', T0 + 8, 'same'), 10), 'uid_taken', 'a uid is unique');
      });
    },
  );

  storeTest(
    'a database as migration 31 left it, with a webhook, migrates forward: the webhook is an advanced endpoint, settings come',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addWebhook(
        TA,
        {
          webhookId: 'wh_1',
          url: 'https://203.0.113.1/h',
          description: 'old',
          eventTypes: ['comment.*'],
          secret: 'whsec_a',
          createdAt: T0,
        },
        10,
      );
      await beforeWebhookKinds(db);
      await beforeAdvancedWebhooks(db);
      const tables = async () =>
        [...(await db.textColumns()).keys()].filter((name) => name === 'webhook_states' || name === 'webhook_settings').sort();
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await tables(), ['webhook_settings', 'webhook_states'], 'migration 35 made them');
        const [w] = await reopened.getWebhooks(TA);
        eq(
          [w?.webhookId, w?.description, w?.eventTypes, w?.disabled, w?.rateLimit, w?.channels, w?.updatedAt, w?.autoDisabled],
          ['wh_1', 'old', ['comment.*'], false, null, null, T0, null],
          'the webhook of before, with the new members unset',
        );
        const changed = await reopened.updateWebhook(TA, 'wh_1', { rateLimit: 5, channels: ['org'] }, T0 + 5);
        eq([changed?.rateLimit, changed?.channels, changed?.updatedAt], [5, ['org'], T0 + 5], 'an update');
        eq(await reopened.rotateWebhookSecret(TA, 'wh_1', 'whsec_b', T0 + 100, T0 + 5), true, 'a rotation');
        eq(await reopened.getWebhookSecret(TA, 'wh_1'), 'whsec_b', 'the new secret');
        await reopened.putWebhookSettings(TA, 'advanced', { isEnabled: true }, T0);
        eq((await reopened.getWebhookSettings(TA)).advanced, { isEnabled: true }, 'settings');
        eq(await reopened.recoverWebhookDeliveries(TA, 'wh_1', 0, T0, 1000), 0, 'nothing failed to recover');
      });
    },
  );

  storeTest(
    'a database as the release before left it (through migration 39) migrates forward: roles get their table, rows stay',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')])], T0);
      await store.upsertUsers(TA, ORG, null, [{ userId: 'u1', name: 'U' }], T0);
      await beforeAccessRoles(db);
      const tables = async () => [...(await db.textColumns()).keys()].filter((name) => name === 'access_roles');
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await tables(), ['access_roles'], 'migration 40 made it');
        eq(commentIdsOf(await reopened.getComments(TA, commentQuery('ann'))), [1], 'comments');
        const before = await reopened.accessFacts(TA, ORG, { documentId: DOC }, 'u1', 10);
        eq([before.facts.member, before.facts.roles.organization], [true, null], 'a member, no role yet');
        const role = { role: 'viewer' as const, expiresAt: null };
        await reopened.grantRoles(
          TA,
          [{ organizationId: ORG, userId: 'u1', kind: 'organization', resourceId: '', ...role }],
          T0 + 1,
        );
        eq((await reopened.accessFacts(TA, ORG, { documentId: DOC }, 'u1', 10)).facts.roles.organization, role, 'a role');
        eq(
          (await reopened.rolesOfUsers(TA, ORG, ['u1'])).map((r) => [r.userId, r.kind, r.resourceId, r.role]),
          [['u1', 'organization', '', 'viewer']],
          'read back',
        );
      });
    },
  );

  /** The first hits of one word in ORG of tenant TA, of the kinds given, no other filter. */
  const searchOrg = (store: Store, word: string, kinds: SearchKind[]) =>
    store.searchText(TA, {
      organizationId: ORG,
      words: [word],
      kinds,
      documentIds: null,
      folderIds: null,
      userIds: null,
      createdAfter: null,
      createdBefore: null,
      recipient: null,
      offset: 0,
      limit: 10,
    });

  /** A word's hits of both kinds: a comment as annotation/comment, a notification by its id; sorted. */
  const foundKeys = async (store: Store, word: string) =>
    (await searchOrg(store, word, ['comment', 'notification']))
      .map((h) => h.notificationId ?? `${h.annotationId}/${h.commentId}`)
      .sort();

  storeTest(
    'a database as migration 43 left it migrates forward: its comments and notifications are indexed, and new ones',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'Première réunion')])], T0);
      await store.addNotification(TA, ORG, notification('n1', { bodyMessage: 'reunion tomorrow' }));
      await beforeSearchIndex(db);
      await withSecondStore(db, async (reopened) => {
        const found = (word: string) => foundKeys(reopened, word);
        eq(await found('reunion'), ['ann/1', 'n1'], 'the rows written before, accents aside');
        await reopened.addAnnotations(TA, ORG, DOC, [annotation('new', [newComment(1, 'another reunion')])], T0 + 1);
        eq(await found('reunion'), ['ann/1', 'n1', 'new/1'], 'and the rows written after');
        eq(await found('tomorrow'), ['n1'], 'a notification by its body');
      });
    },
  );

  storeTest(
    'a database as migration 46 left it migrates forward: its notifications are found by their headlines, and new ones',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      const named = (id: string, name: string, body: string) =>
        notification(id, {
          actionUser: { userId: 'zoe', name, email: null },
          headlineTemplate: '{actor} mentioned you in {document}',
          headlineData: { actor: { userId: 'zoe' }, document: 'Roadmap' },
          bodyMessage: body,
        });
      await store.addNotification(TA, ORG, named('n1', 'Zoë', 'see the numbers'));
      await store.addNotification(TA, ORG, notification('n2', { headlineTemplate: '', headlineData: {}, bodyMessage: 'plain' }));
      await beforeNotificationHeadlines(db);
      eq((await db.textColumns()).get('notifications')?.includes('headline_text'), false, 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        const found = async (word: string) =>
          (await searchOrg(reopened, word, ['notification'])).map((h) => [h.notificationId, h.text]);
        eq(await found('zoe'), [['n1', 'Zoë mentioned you in Roadmap\nsee the numbers']], 'by the name the data gave');
        eq(await found('roadmap'), [['n1', 'Zoë mentioned you in Roadmap\nsee the numbers']], 'by a value of the data');
        eq(await found('numbers'), [['n1', 'Zoë mentioned you in Roadmap\nsee the numbers']], 'and by its body still');
        eq(await found('plain'), [['n2', 'plain']], 'a notification without a headline, by its body');
        await reopened.addNotification(TA, ORG, named('n3', 'Zed', 'later'));
        eq(await found('zed'), [['n3', 'Zed mentioned you in Roadmap\nlater']], 'a notification written after');
      });
    },
  );

  storeTest(
    'a database as migration 47 left it migrates forward: its rows are found in their own organization, and leave',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.createTenant(tenant(TB, 'mk_b'), tokenRecord('mt_b', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'Réunion'), newComment(2, 'reunions')])], T0);
      await store.addAnnotations(TA, 'org-2', DOC, [annotation('elsewhere', [newComment(1, 'reunion')])], T0);
      await store.addAnnotations(TB, ORG, DOC, [annotation('theirs', [newComment(1, 'reunion')])], T0);
      await store.addNotification(TA, ORG, notification('n1', { bodyMessage: 'the reunion moved' }));
      await beforeScopedTerms(db);
      await withSecondStore(db, async (reopened) => {
        const found = (word: string) => foundKeys(reopened, word);
        eq(await found('reu'), ['ann/1', 'ann/2', 'n1'], 'the rows written before, in their organization only');
        await reopened.deleteComments(TA, { organizationId: ORG, documentId: DOC, annotationId: 'ann' }, [1], T0 + 1);
        eq(await found('reu'), ['ann/2', 'n1'], 'a deleted comment written before leaves the index');
        await reopened.addAnnotations(TA, ORG, DOC, [annotation('new', [newComment(1, 'reunited')])], T0 + 2);
        eq(await found('reunit'), ['new/1'], 'a row written after');
        eq(await found('moved'), ['n1'], 'a notification by its body');
      });
    },
  );

  storeTest(
    'a database as migration 43 left it migrates forward: comments get reactions, which go with a deleted comment',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first'), newComment(2, 'second')])], T0);
      await beforeCommentReactions(db);
      const tables = async () => [...(await db.textColumns()).keys()].filter((name) => name === 'comment_reactions');
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await tables(), ['comment_reactions'], 'migration 45 made it');
        const bounds = { perComment: 10, iconsPerComment: 10 };
        const on = (commentId: number) => ({
          organizationId: ORG,
          documentId: DOC,
          annotationId: 'ann',
          commentId,
          icon: '👍',
          userId: 'u1',
        });
        eq((await reopened.addReaction(TA, on(1), bounds, T0 + 1)).count, 1, 'a reaction on a comment written before');
        await reopened.addReaction(TA, on(2), bounds, T0 + 2);
        eq((await reopened.reactionsOfThreads(TA, ORG, [{ documentId: DOC, annotationId: 'ann' }])).length, 2, 'both there');
        await reopened.deleteComments(TA, { organizationId: ORG, documentId: DOC, annotationId: 'ann' }, [1], T0 + 3);
        eq(
          (await reopened.reactionsOfThreads(TA, ORG, [{ documentId: DOC, annotationId: 'ann' }])).map((r) => r.commentId),
          [2],
          "the deleted comment's reaction went with it",
        );
      });
    },
  );

  storeTest(
    'a database as migration 40 left it migrates forward: notifications get an archive, counted from zero, rows stay',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.upsertUsers(TA, ORG, null, [{ userId: 'u1', name: 'U' }], T0);
      await store.addNotification(TA, ORG, notification('n1'));
      await store.addNotification(TA, ORG, notification('n2', { recipients: [], notifyAll: true, timestamp: T0 + 1 }));
      await store.markNotificationsRead(TA, ORG, recipient('u1'), null, ['n2'], T0);
      await beforeNotificationArchives(db);
      const tables = async () => [...(await db.textColumns()).keys()].filter((name) => name === 'notification_archives');
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await tables(), ['notification_archives'], 'migration 41 made it');
        const counted = async () => {
          const c = await reopened.countNotifications(TA, ORG, 'u1', null);
          return [c.total, c.unread, c.wide, c.wideRead, c.archived, c.archivedUnread, c.wideArchived, c.wideArchivedRead];
        };
        eq(await counted(), [1, 1, 1, 1, 0, 0, 0, 0], 'the counts as they were, nothing archived');
        eq(await reopened.archiveNotifications(TA, ORG, 'u1', ['n1', 'n2'], T0 + 2), 2, 'both archived');
        eq(await counted(), [1, 1, 1, 1, 1, 1, 1, 1], 'the archive counted');
        const page = await reopened.getNotifications(TA, notificationQuery({ userId: 'u1', archived: null }));
        eq(notificationIdsOf(page), ['n2', 'n1'], 'rows stay');
      });
    },
  );

  storeTest(
    'a database as migration 31 left it migrates forward: service settings and presence get their tables, rows stay',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')])], T0);
      await store.addNotification(TA, ORG, notification('n1'));
      await beforeServiceSettingsAndPresence(db);
      const tables = async () =>
        [...(await db.textColumns()).keys()].filter((name) => name === 'service_settings' || name === 'presence').sort();
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await tables(), ['presence', 'service_settings'], 'migration 37 made them');
        eq(commentIdsOf(await reopened.getComments(TA, commentQuery('ann'))), [1], 'comments');
        eq(
          notificationIdsOf(await readNotifications(reopened, TA, notificationQuery({ userId: 'u1' }))),
          ['n1'],
          'notifications',
        );
        eq(await reopened.serviceSetting(TA, 'notification'), null, 'never set');
        const written = await reopened.changeServiceSetting(TA, 'notification', { enabled: true }, T0 + 1);
        eq(written.enabled, true, 'a change');
        eq(await reopened.serviceSetting(TA, 'notification'), written, 'read back');
        const users = [{ userId: 'u1', name: 'U', status: 'online' as const }];
        await reopened.addPresence(TA, { organizationId: ORG, documentId: DOC, users }, { ttlMs: 60_000, most: 10 }, T0 + 2);
        eq(
          (await reopened.getPresence(TA, ORG, DOC, T0 + 3, 10)).map((p) => [p.userId, p.name, p.expiresAt]),
          [['u1', 'U', T0 + 2 + 60_000]],
          'presence',
        );
        await reopened.addAnnotations(TA, ORG, DOC, [annotation('ann2', [newComment(1, 'second')])], T0 + 4);
        eq(commentIdsOf(await reopened.getComments(TA, commentQuery('ann2'))), [1], 'a comment write after it');
      });
    },
  );

  storeTest(
    'a database as migration 37 left it migrates forward: the indexes of bounded work, which recover, the count of open ' +
      'migrations and workflow retention read, over the rows written before',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addWebhook(
        TA,
        {
          webhookId: 'wh_1',
          url: 'https://203.0.113.1/h',
          description: null,
          eventTypes: null,
          secret: 'whsec_a',
          createdAt: T0,
        },
        10,
      );
      await db.exec(`INSERT INTO webhook_deliveries
        (tenant_id, webhook_id, event_id, organization_id, event_type, body, status, attempts, created_at, finished_at)
        VALUES ('${TA}', 'wh_1', 1, '${ORG}', 'notification.add', '{}', 'failed', 7, ${T0}, ${T0 + 1})`);
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')])], T0);
      await store.startDocumentMigration(
        { tenantId: TA, migrationId: 'm1', organizationId: ORG, documentId: DOC, newDocumentId: 'moved' },
        10,
        T0,
      );
      await db.exec(`INSERT INTO workflow_executions (tenant_id, execution_id, definition_id, definition_version, status,
          correlation_id, idempotency_key, started_at, completed_at, cancelled_at, failure_reason, trigger_context, target,
          graph, loops, last_seq)
        VALUES ('${TA}', 'exec-1', 'def', 1, 'completed', 'corr', 'key-1', ${T0}, ${T0 + 1}, NULL, NULL, NULL, '{}', '{}',
          '{}', 0)`);
      const NEW = ['document_migrations_open_of_tenant', 'webhook_deliveries_failed_in_order', 'workflow_executions_finished'];
      const indexes = async () =>
        (
          await db.query(
            db.kind === 'sqlite'
              ? "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name"
              : 'SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname',
          )
        )
          .map((r) => r.name as string)
          .filter((name) => [...NEW, 'webhook_deliveries_failed'].includes(name));
      await beforeBoundedWork(db);
      eq(await indexes(), ['webhook_deliveries_failed'], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await indexes(), NEW, 'migration 38 made them, in place of the failed deliveries by time');
        eq(await reopened.recoverWebhookDeliveries(TA, 'wh_1', T0, T0 + 5, 1000), 1, 'a failed delivery of before recovered');
        const next = { tenantId: TA, migrationId: 'm2', organizationId: ORG, documentId: 'other', newDocumentId: 'other2' };
        eq(await reopened.startDocumentMigration(next, 1, T0 + 5), 'too_many', 'the job of before counts as open');
        eq(await reopened.pruneWorkflowExecutions(T0 + 10, 100), 1, 'an execution of before that ended is pruned');
      });
    },
  );

  storeTest(
    'a database as the release before left it (through migration 22) migrates forward: live states get their table, rows stay',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')])], T0);
      await store.addNotification(TA, ORG, notification('n1'));
      await beforeLiveStates(db);
      const tables = async () => [...(await db.textColumns()).keys()].filter((name) => name === 'live_states');
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await tables(), ['live_states'], 'migration 24 made it');
        eq(commentIdsOf(await reopened.getComments(TA, commentQuery('ann'))), [1], 'comments');
        eq(
          notificationIdsOf(await readNotifications(reopened, TA, notificationQuery({ userId: 'u1' }))),
          ['n1'],
          'notifications',
        );
        const state = { organizationId: ORG, documentId: DOC, liveStateDataId: 's', data: { a: 1 }, merge: false };
        await reopened.broadcastLiveState(TA, state, { ids: 10, bytes: 1_048_576 }, T0 + 1);
        eq(
          await reopened.getLiveStates(TA, ORG, DOC, null, null, 1000),
          [{ liveStateDataId: 's', data: '{"a":1}', updatedAt: T0 + 1 }],
          'states',
        );
      });
    },
  );

  storeTest(
    'a database as the release before left it (through migration 21) migrates forward: the index by age goes, retention goes on',
    async (store, db) => {
      for (const [id, at] of [
        ['old', T0],
        ['new', T0 + 10_000],
      ] as const)
        await store.addNotification(TA, ORG, notification(id, { timestamp: at }));
      await store.eventsNumbered(TA);
      await beforeHeadPruning(db);
      const indexes = async () =>
        (
          await db.query(
            db.kind === 'sqlite'
              ? `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND name LIKE 'events_by%'`
              : `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'events' AND schemaname = current_schema()
                   AND indexname LIKE 'events_by%'`,
          )
        ).map((r) => r.name);
      eq(await indexes(), ['events_by_age'], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await indexes(), [], 'migration 22 dropped it');
        eq(await reopened.pruneEvents(T0 + 1, 100), 1, 'the old event goes');
        eq(
          (await reopened.eventsAfter(TA, 0, 10)).map((e) => JSON.parse(e.body).data.id),
          ['new'],
          'the new one stays',
        );
      });
    },
  );

  storeTest(
    'a database as the release before left it (through migration 18) migrates forward: drafts left are numbered, ids go on',
    async (store, db) => {
      await store.addNotification(TA, ORG, notification('n1'));
      await store.eventsNumbered(TA);
      await beforeNumberingByWrite(db);
      await leftDraft(db);
      await withSecondStore(db, async (reopened) => {
        // An instance of that release, still running during a rolling upgrade, numbers as it did.
        if (db.kind === 'postgres')
          eq(Number((await db.query(`SELECT sequence_events('${TA}') AS last`))[0]!.last), 2, 'numbered the old way');
        await reopened.addNotification(TA, ORG, notification('n2'));
        await reopened.eventsNumbered(TA);
        const events = await reopened.eventsAfter(TA, 0, 10);
        eq(
          events.map((e) => JSON.parse(e.body).data.id),
          db.kind === 'postgres' ? ['n1', 'left', 'n2'] : ['n1', 'n2'],
          'the events of before, the left draft numbered, then the next write',
        );
        eq(
          events.map((e) => e.id),
          events.map((_, i) => i + 1),
          'ids go on without a gap',
        );
      });
    },
  );

  storeTest(
    'a database as the events release left it (through migration 17) migrates forward: its events stay, ids go on',
    async (store, db) => {
      for (const id of ['n1', 'n2']) await store.addNotification(TA, ORG, notification(id));
      await store.eventsNumbered(TA);
      await beforeEventDrafts(db);
      await withSecondStore(db, async (reopened) => {
        await reopened.addNotification(TA, ORG, notification('n3'));
        await reopened.eventsNumbered(TA);
        const events = await reopened.eventsAfter(TA, 0, 10);
        eq(
          events.map((e) => [e.id, JSON.parse(e.body).data.id]),
          [
            [1, 'n1'],
            [2, 'n2'],
            [3, 'n3'],
          ],
          'the events of before, then the next id',
        );
        eq(await reopened.lastEventId(TA), 3, 'the counter went on');
      });
    },
  );

  storeTest(
    'a database as the release before held pages left it (through migration 9) migrates forward: counts get an index, documents a version',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      const resolved = annotation('done', [newComment(1, 'by u2', 'u2'), newComment(2, 'by u1', 'u1')]);
      resolved.status = { id: 'RESOLVED', name: 'Resolved' };
      await store.addAnnotations(TA, ORG, DOC, [annotation('open', [newComment(1, 'by u1', 'u1')]), resolved], T0);
      await store.addComments(TA, ORG, DOC, 'open', [draft('reply', undefined, 'u3')], T0 + 500);
      await store.markAnnotationsRead(TA, ORG, DOC, 'u2', ['done'], T0 + 50);
      const counts = (s: Store) =>
        Promise.all(
          [null, ['RESOLVED']].flatMap((statusIds) => ['u1', 'u2', 'u3'].map((u) => countOf(s, TA, DOC, u, statusIds))),
        );
      const before = await counts(store);
      eq(
        before.slice(0, 3),
        [
          { total: 2, unread: 2 },
          { total: 2, unread: 1 },
          { total: 2, unread: 2 },
        ],
        'counts before',
      );
      await asOfMigration9(db);
      await withSecondStore(db, async (reopened) => {
        eq(await counts(reopened), before, 'the same counts through the index');
        await reopened.addComments(TA, ORG, DOC, 'done', [draft('later', undefined, 'u3')], T0 + 900);
        eq(await countOf(reopened, TA, DOC, 'u2'), { total: 2, unread: 2 }, 'a comment after the migration is counted');
        const version = async () => (await reopened.documentVersions(TA, ORG, DOC)).documentVersion;
        const moved = await version();
        assert.notEqual(moved, 0, 'documents get a thread version: 0 until migrated, and the write moved it');
        // A write as the previous release's code makes it (no part of it knows of versions): the trigger moves it.
        await db.exec(`UPDATE annotations SET last_updated = last_updated + 1 WHERE annotation_id = 'open'`);
        await nextTurn();
        assert.notEqual(await version(), moved, 'any change to a thread row moves it');
        const unmarked = await version();
        await reopened.markAnnotationsRead(TA, ORG, DOC, 'u1', null, T0 + 990);
        eq(await version(), unmarked, 'a read mark does not (a page does not show it)');
      });
      // Dropping it fails unless migration 10 made it again.
      await db.exec('DROP INDEX annotations_counted');
    },
  );

  storeTest(
    'a database as the release before stored answers left it (through migration 8) migrates forward: threads get them',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      const tagged = {
        ...newComment(2, 'by u2', 'u2', 'Bea', 'bea@x.y'),
        taggedUserContacts: [{ userId: 'u3', contact: { userId: 'u3', name: 'Cy', email: null } }],
      };
      const full = {
        ...annotation('full', [newComment(1, 'by u1', 'u1'), { ...tagged, createdAt: T0 + 10 }]),
        assignedTo: { userId: 'u4', name: 'Dee', email: 'dee@x.y' },
        priority: { level: 2 },
        targetElement: { id: 'para-1' },
      };
      await store.addAnnotations(
        TA,
        ORG,
        DOC,
        [full, annotation('solo', [newComment(1, 'alone', 'u1')]), annotation('empty', [])],
        T0,
      );
      await store.addComments(TA, ORG, DOC, 'full', [draft('later', undefined, 'u1')], T0 + 500);
      const thread = { organizationId: ORG, documentId: DOC, annotationId: 'full' };
      await store.updateComments(TA, thread, [1], { body: { html: '<p>edited</p>', text: 'edited' } }, T0 + 600);
      await store.markAnnotationsRead(TA, ORG, DOC, 'u2', ['full'], T0 + 50);
      const shown = async (s: Store) => ({
        threads: await readThreads(s, TA, annotationQuery()),
        counts: await Promise.all(['u1', 'u2', 'u3'].map((u) => countOf(s, TA, DOC, u))),
      });
      const before = await shown(store);
      eq(
        before.counts.map((c) => c?.unread),
        [1, 1, 2],
        "unread: u1 has not read u2's comment in full; u2 read before u1's later comment; u3 has read nothing",
      );
      await asOfMigration8(db);
      await withSecondStore(db, async (reopened) => {
        eq(await shown(reopened), before, 'the answers and counts rendered by migration 9 are those written since');
        added(
          await reopened.addComments(TA, ORG, DOC, 'solo', [draft('reply', undefined, 'u2')], T0 + 700),
          'append after migrating',
        );
        const solo = (await readThreads(reopened, TA, annotationQuery({ annotationIds: ['solo'] })))[0]!;
        eq(
          solo.comments.map((c) => c.commentText),
          ['alone', 'reply'],
          'a comment appended to a migrated thread',
        );
        eq((await countOf(reopened, TA, DOC, 'u1'))?.unread, 2, 'the reply is unread by u1');
      });
    },
  );

  storeTest(
    'a database as the release before thread life left it (through migration 7) migrates forward: threads get lastUpdated and filters',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      const resolved = { ...annotation('done', [newComment(1, 'by u2', 'u2'), newComment(2, 'by u1', 'u1')]) };
      resolved.status = { id: 'RESOLVED', name: 'Resolved' };
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')]), resolved], T0);
      await store.addComments(TA, ORG, DOC, 'ann', [draft('later')], T0 + 500);
      await store.addAnnotations(TA, ORG, DOC, [{ ...annotation('empty', []), status: { id: 7 } }], T0 + 900);
      await asOfMigration7(db);
      await withSecondStore(db, async (reopened) => {
        const threads = async (over: Partial<AnnotationQuery> = {}) =>
          (await readThreads(reopened, TA, { ...annotationQuery(), ...over })).map((t) => [
            t.annotationId,
            t.createdAt,
            t.lastUpdated,
            t.comments.map((c) => c.commentId),
          ]);
        eq(
          await threads(),
          [
            ['empty', T0 + 900, T0 + 900, []],
            ['done', T0, T0, [1, 2]],
            ['ann', T0, T0 + 500, [1, 2]],
          ],
          'threads newest first; lastUpdated follows the newest comment',
        );
        eq(await threads({ statusIds: ['RESOLVED'] }), [['done', T0, T0, [1, 2]]], 'status ids from the stored status');
        eq(await threads({ statusIds: ['7'] }), [], 'a status id that is not a string is none');
        eq(await threads({ userIds: ['u2'] }), [['done', T0, T0, [1, 2]]], 'the first author from the first comment');
        const counted = await countOf(reopened, TA, DOC, 'u1');
        eq([counted?.total, counted?.unread], [3, 1], 'counts');
      });
    },
  );

  storeTest(
    'a database as the release before the fast path left it (through migration 5) migrates forward with its data',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')])], T0);
      await store.addNotification(TA, ORG, notification('n1'));
      await store.addNotification(TA, ORG, notification('n2', { recipients: ['u1', 'u2'], timestamp: T0 + 1 }));
      await asOfMigration5(db);
      await withSecondStore(db, async (reopened) => {
        eq((await reopened.findCredentials('mk_a'))?.tenant.id, TA, 'tenant after migrating forward');
        eq(commentIdsOf(await reopened.getComments(TA, commentQuery('ann'))), [1], 'comments after migrating forward');
        eq(
          notificationIdsOf(await readNotifications(reopened, TA, notificationQuery({ userId: 'u1' }))),
          ['n2', 'n1'],
          'notifications of u1',
        );
        eq(
          notificationIdsOf(await readNotifications(reopened, TA, notificationQuery({ userId: 'u2' }))),
          ['n2'],
          'notifications of u2',
        );
        await reopened.ping();
        eq(added(await reopened.addComments(TA, ORG, DOC, 'ann', [draft('second')], T0 + 1), 'a write'), [2], 'ids');
      });
    },
  );

  storeTest(
    'a database as migration 31 left it, with data, migrates forward: approval workflows get their tables and run',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'first')])], T0);
      await beforeApprovalWorkflows(db);
      const tables = async () => [...(await db.textColumns()).keys()].filter((name) => name.startsWith('workflow_')).sort();
      eq(await tables(), [], 'as migration 31 left it');
      await withSecondStore(db, async (reopened) => {
        eq(
          await tables(),
          ['workflow_definition_versions', 'workflow_definitions', 'workflow_events', 'workflow_executions', 'workflow_steps'],
          'migration 36 made them',
        );
        eq(
          (await readThreads(reopened, TA, annotationQuery())).map((a) => a.annotationId),
          ['ann'],
          'a thread of before',
        );
        const nodes = [{ nodeId: 'draft', type: 'agent' as const, config: { agentId: 'writer', url: 'https://x.example' } }];
        const graph: PinnedGraph = { nodes, edges: [], compiled: compile({ nodes, edges: [] }) };
        const body = JSON.stringify({ name: 'Flow', scope: { level: 'apiKey' }, ...graph });
        eq((await reopened.createWorkflowDefinition(TA, 'flow', body, T0)).version, 1, 'a definition');
        const start = () => {
          const input = { executionId: 'exec_1_a', definitionId: 'flow', definitionVersion: 1, correlationId: 'c' };
          const t = dispatch({ ...input, idempotencyKey: 'k', triggerContext: null, rand: 'a' }, graph, T0, 10);
          return { x: { execution: t.execution, graph, target: { organizationId: ORG, documentId: null, folderId: null } }, t };
        };
        eq(
          await reopened.dispatchWorkflow(TA, 'flow', 'k', T0, start),
          { executionId: 'exec_1_a', correlationId: 'c', deduplicated: false },
          'a dispatch',
        );
        eq(
          await reopened.dispatchWorkflow(TA, 'flow', 'k', T0, start),
          { executionId: 'exec_1_a', correlationId: 'c', deduplicated: true },
          'its replay',
        );
        const got = await reopened.workflowExecution(TA, 'exec_1_a', true);
        eq(
          got?.steps.map((s) => s.status),
          ['waiting'],
          'its step waits',
        );
        eq(
          (await reopened.workflowEvents(TA, 'exec_1_a', 0, 10))?.events.map((e) => e.type),
          ['execution.dispatched', 'step.awaiting-approval'],
          'its log',
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

// Ordering by id must be code-unit order (docs/api.md, "Paging") whatever the server's default collation; the test
// server's own default may already be C, so the columns themselves are checked.
(TEST_STORE === 'postgres' ? test : () => {})('PostgreSQL: every id column is COLLATE "C"', async () => {
  const db = freshDatabase('postgres');
  const store = await db.open();
  try {
    const rows = await withPg(
      async (c) =>
        (
          await c.query(
            `SELECT table_name, column_name, collation_name FROM information_schema.columns
         WHERE table_schema = $1 AND column_name LIKE '%\\_id' AND data_type = 'text' ORDER BY 1, 2`,
            [db.env.MARGINALIA_PG_SCHEMA],
          )
        ).rows,
    );
    assert.ok(rows.length >= 20, `id columns found: ${rows.length}`);
    assert.deepEqual(
      rows.filter((r) => r.collation_name !== 'C'),
      [],
      'id columns without COLLATE "C"',
    );
  } finally {
    await store.close();
    await db.drop();
  }
});
