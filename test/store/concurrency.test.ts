import { describe } from 'node:test';
import type { AddCommentsResult } from '../../src/domain/threads.js';
import type { UserWrite } from '../../src/domain/users.js';
import { TEST_STORE, withPg } from '../helpers/test-database.js';
import {
  T0,
  TA,
  ORG,
  DOC,
  show,
  eq,
  sorted,
  newComment,
  draft,
  annotation,
  commentQuery,
  readBack,
  notification,
  notificationQuery,
  commentIdsOf,
  added,
  storeTest,
  withSecondStore,
  readNotifications,
  annotationQuery,
} from '../helpers/store-fixtures.js';

describe(`${TEST_STORE} store: concurrency`, () => {
  storeTest(
    '50 concurrent addComments on one annotation all succeed with distinct, contiguous generated ids',
    async (store, db) => {
      await store.addAnnotations(TA, ORG, DOC, [annotation('ann', [newComment(1, 'root')])], T0);
      await withSecondStore(db, async (other) => {
        const calls = Array.from({ length: 50 }, (_, i) => {
          const batch = i % 2 === 0 ? [draft(`c${i}`)] : [draft(`c${i}a`), draft(`c${i}b`)];
          return (i % 2 === 0 ? store : other).addComments(TA, ORG, DOC, 'ann', batch, T0 + 1 + i);
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
        const stored = await readNotifications(store, TA, notificationQuery({ documentId: DOC }));
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
          [store, other, store, other].map((s, i) => s.addComments(TA, ORG, DOC, 'thread', [draft(`writer ${i}`, 42)], T0)),
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

  storeTest('a thread marked read while it is being deleted is not marked, and leaves no mark behind', async (store, db) => {
    await store.addAnnotations(TA, ORG, DOC, [annotation('gone', [newComment(1, 'x', 'v')])], T0);
    if (db.kind === 'sqlite') {
      // One writer at a time: the mark runs wholly before or after the delete.
      eq(await store.deleteAnnotations(TA, { ...annotationQuery(), annotationIds: ['gone'] }, T0), ['gone'], 'deleted');
      eq(await store.markAnnotationsRead(TA, ORG, DOC, 'u', null, T0 + 1), 0, 'nothing left to mark');
      return;
    }
    await withPg(async (c) => {
      await c.query(`SET search_path = ${db.env.MARGINALIA_PG_SCHEMA}`);
      await c.query('BEGIN');
      // The delete's statements, held open: the mark must wait for them, then find no thread.
      await c.query("SELECT annotation_id FROM annotations WHERE annotation_id = 'gone' FOR UPDATE");
      await c.query("DELETE FROM comments WHERE annotation_id = 'gone'");
      await c.query("DELETE FROM annotation_reads WHERE annotation_id = 'gone'");
      await c.query("DELETE FROM annotations WHERE annotation_id = 'gone'");
      const marking = store.markAnnotationsRead(TA, ORG, DOC, 'u', null, T0 + 1);
      await new Promise((r) => setTimeout(r, 200));
      await c.query('COMMIT');
      eq(await marking, 0, 'threads marked');
      eq((await c.query('SELECT count(*)::int AS n FROM annotation_reads')).rows[0].n, 0, 'marks left behind');
    });
  });

  storeTest(
    'an organization-wide notification marked read while it is being deleted leaves no read mark behind',
    async (store, db) => {
      await store.upsertUsers(TA, ORG, null, [{ userId: 'm' }], T0);
      await store.addNotification(TA, ORG, notification('wide', { recipients: [], notifyAll: true }));
      const member = { userId: 'm', internalId: 'id-of-m' };
      const marksLeft = async (q: (sql: string) => Promise<number>) =>
        eq(await q("SELECT count(*) AS n FROM notification_reads WHERE notification_id = 'wide'"), 0, 'read marks left');
      if (db.kind === 'sqlite') {
        // One writer at a time: the mark runs wholly before or after the delete.
        eq(await store.deleteNotifications(TA, { ...notificationQuery({}), notificationIds: ['wide'] }, T0), ['wide'], 'deleted');
        eq(await store.markNotificationsRead(TA, ORG, member, null, null, T0), 0, 'nothing left to mark');
        const count = await store.countNotifications(TA, ORG, 'm', null);
        eq([count.total, count.unread, count.wideRead], [0, 0, 0], 'counts');
        return;
      }
      await withPg(async (c) => {
        await c.query(`SET search_path = ${db.env.MARGINALIA_PG_SCHEMA}`);
        const q = async (sql: string) => Number((await c.query(sql)).rows[0].n);
        await c.query('BEGIN');
        // The delete's first statement, held open: the mark must wait for it, then find no notification.
        await c.query("DELETE FROM notifications WHERE notification_id = 'wide'");
        const marking = store.markNotificationsRead(TA, ORG, member, null, null, T0);
        await new Promise((r) => setTimeout(r, 200));
        await c.query("DELETE FROM notification_reads WHERE notification_id = 'wide'");
        await c.query('COMMIT');
        eq(await marking, 0, 'notifications marked');
        await marksLeft(q);
        eq(await q("SELECT coalesce(sum(wide_read), 0) AS n FROM inbox_counts WHERE user_id = 'm'"), 0, 'wide_read counted');
      });
    },
  );

  storeTest(
    "a member's read and archive of one organization-wide notification, in two transactions at once, count as one pair",
    async (store, db) => {
      // docs/decisions.md "Per-recipient archive": wide_archived_read counts (archive, read) pairs; each side's
      // trigger locks the user's counter first, so the second writer sees the first's row.
      await store.upsertUsers(TA, ORG, null, [{ userId: 'm' }], T0);
      await store.addNotification(TA, ORG, notification('w1', { recipients: [], notifyAll: true }));
      await store.addNotification(TA, ORG, notification('w2', { recipients: [], notifyAll: true, timestamp: T0 + 1 }));
      const member = { userId: 'm', internalId: 'id-of-m' };
      const pairs = async () => (await store.countNotifications(TA, ORG, 'm', null)).wideArchivedRead;
      if (db.kind === 'sqlite') {
        // One writer at a time: either order counts the pair once.
        eq(await store.markNotificationsRead(TA, ORG, member, null, ['w1'], T0), 1, 'w1 read');
        eq(await store.archiveNotifications(TA, ORG, 'm', ['w1'], T0), 1, 'w1 archived');
        eq(await store.archiveNotifications(TA, ORG, 'm', ['w2'], T0), 1, 'w2 archived');
        eq(await store.markNotificationsRead(TA, ORG, member, null, ['w2'], T0), 1, 'w2 read');
        eq(await pairs(), 2, 'pairs counted');
        return;
      }
      await withPg(async (c) => {
        await c.query(`SET search_path = ${db.env.MARGINALIA_PG_SCHEMA}`);
        const key = (id: string) => `'${TA}', '${ORG}', '${id}', 'm'`;
        // The read first, held open: the archive waits for it, then counts the pair.
        await c.query('BEGIN');
        await c.query(
          `INSERT INTO notification_reads (tenant_id, organization_id, notification_id, user_id, internal_id, document_id)
           VALUES (${key('w1')}, 'id-of-m', '${DOC}')`,
        );
        const archiving = store.archiveNotifications(TA, ORG, 'm', ['w1'], T0);
        await new Promise((r) => setTimeout(r, 200));
        await c.query('COMMIT');
        eq(await archiving, 1, 'w1 archived');
        eq(await pairs(), 1, 'the pair of w1 counted');
        // The archive first, held open: the read waits for it, then counts the pair.
        await c.query('BEGIN');
        await c.query(
          `INSERT INTO notification_archives (tenant_id, organization_id, notification_id, user_id, document_id)
           VALUES (${key('w2')}, '${DOC}')`,
        );
        const marking = store.markNotificationsRead(TA, ORG, member, null, ['w2'], T0);
        await new Promise((r) => setTimeout(r, 200));
        await c.query('COMMIT');
        eq(await marking, 1, 'w2 read');
        eq(await pairs(), 2, 'the pair of w2 counted');
      });
    },
  );

  const liveState = (documentId: string, liveStateDataId: string, data: Record<string, unknown>, merge: boolean) => ({
    organizationId: ORG,
    documentId,
    liveStateDataId,
    data,
    merge,
  });

  storeTest(
    'concurrent broadcasts: merges into one new id lose no member; new ids of one document stop at the bound',
    async (store, db) => {
      await withSecondStore(db, async (other) => {
        const most = 5;
        const merges = Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? store : other).broadcastLiveState(
            TA,
            liveState(DOC, 'shared', { [`m${i}`]: i }, true),
            { ids: most, bytes: 1_048_576 },
            T0 + i,
          ),
        );
        // A refusal: SQLite's store throws it synchronously, PostgreSQL's rejects.
        const newIds = Array.from({ length: 20 }, (_, i) =>
          Promise.resolve().then(() =>
            (i % 2 ? store : other).broadcastLiveState(
              TA,
              liveState('bounded', `id${i}`, {}, false),
              { ids: most, bytes: 1_048_576 },
              T0,
            ),
          ),
        );
        const [merged, made] = await Promise.all([Promise.allSettled(merges), Promise.allSettled(newIds)]);
        eq(
          merged.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : [])),
          [],
          'merges refused',
        );
        const [shared] = await store.getLiveStates(TA, ORG, DOC, ['shared'], null, 1000);
        eq(sorted(Object.keys(JSON.parse(shared!.data))), sorted(Array.from({ length: 20 }, (_, i) => `m${i}`)), 'members');
        eq(
          made.map((r) => (r.status === 'fulfilled' ? 'written' : (r.reason as { code?: string }).code)).sort(),
          [...Array(most).fill('written'), ...Array(20 - most).fill('RESOURCE_EXHAUSTED')].sort(),
          'new ids written and refused',
        );
        eq((await store.getLiveStates(TA, ORG, 'bounded', null, null, 1000)).length, most, 'ids the document holds');
      });
    },
  );

  storeTest('a broadcast that meets its document being deleted brings it back, with only what it wrote', async (store, db) => {
    await store.broadcastLiveState(TA, liveState('gone', 's', { old: 1 }, false), { ids: 10, bytes: 1_048_576 }, T0);
    const documents = async () =>
      (
        await store.getDocuments(TA, { organizationId: ORG, documentIds: ['gone'], folder: undefined, after: null, limit: 10 })
      ).map((d) => d.documentId);
    if (db.kind === 'sqlite') {
      // One writer at a time: the broadcast runs wholly after the delete.
      await store.deleteDocuments(TA, ORG, ['gone'], T0 + 1);
      await store.broadcastLiveState(TA, liveState('gone', 's', { new: 2 }, true), { ids: 10, bytes: 1_048_576 }, T0 + 1);
    } else {
      await withPg(async (c) => {
        await c.query(`SET search_path = ${db.env.MARGINALIA_PG_SCHEMA}`);
        await c.query('BEGIN');
        // The delete's statements, held open, after the broadcast has entered the document: it waits for
        // the state's row, then finds neither that row nor the document's.
        await c.query("DELETE FROM live_states WHERE document_id = 'gone'");
        const writing = store.broadcastLiveState(
          TA,
          liveState('gone', 's', { new: 2 }, true),
          { ids: 10, bytes: 1_048_576 },
          T0 + 1,
        );
        await new Promise((r) => setTimeout(r, 200));
        await c.query("DELETE FROM documents WHERE document_id = 'gone'");
        await c.query('COMMIT');
        eq((await writing).data, '{"new":2}', 'merged with nothing');
      });
    }
    eq(await documents(), ['gone'], 'the document came into being again');
    eq(
      (await store.getLiveStates(TA, ORG, 'gone', null, null, 1000)).map((s) => [s.liveStateDataId, s.data]),
      [['s', '{"new":2}']],
      'states',
    );
  });
});
