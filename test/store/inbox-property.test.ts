// The inbox's counts as a property (docs/api.md, "POST /v1/notifications/count/get"): random sequences of
// notifications/add (to random subsets of four users, or the whole organization), users/add (membership),
// notifications/update read and unread marks, notifications/read, notifications/delete, and a user's archive
// (notifications/archive by ids and allRead, notifications/unarchive), through the HTTP app.
// After every step, for every user and for no document and each document, and for each `archived` (absent,
// true, null), count/get's {total, unread} equals the lengths of notifications/get (userId[, documentId]) without
// and with unread: true; and both agree with a small model of addressing, read state and archive (docs/api.md,
// "Addressing and read state", "POST /v1/notifications/get" and "POST /v1/notifications/archive"). Runs on SQLite
// and, in the PostgreSQL pass, on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { makeTestApp, PATHS, T0, type TestApp } from '../helpers/app.js';

const RUNS = Number(process.env.INBOX_PROPERTY_RUNS || 30);
const SEED = Number(process.env.INBOX_PROPERTY_SEED || 11);

const USERS = ['u1', 'u2', 'u3', 'u4'] as const;
const DOCS = ['d1', 'd2'] as const;
const IDS = ['n1', 'n2', 'N3', 'n_4', 'n-5', 'a6'] as const;

type Op =
  | { kind: 'add'; id: string; doc: string | null; listed: string[]; notifyAll: boolean | undefined }
  | { kind: 'member'; user: string; scope: 'org' | 'doc' | 'folder' }
  | { kind: 'mark'; id: string; read: string[]; unread: string[] }
  | { kind: 'read'; user: string; doc: string | null; ids: string[] | null }
  | { kind: 'delete'; filter: Record<string, unknown> }
  | { kind: 'archive'; user: string; ids: string[] | 'allRead' }
  | { kind: 'unarchive'; user: string; ids: string[] }
  | { kind: 'tick' };

const user = fc.constantFrom(...USERS);
const users = fc.uniqueArray(user, { maxLength: 4 });
const doc = fc.constantFrom<string | null>(...DOCS, null);
const id = fc.constantFrom(...IDS);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record({ id, doc, listed: users, notifyAll: fc.constantFrom<boolean | undefined>(undefined, undefined, true) })
      .map((o) => ({ kind: 'add' as const, ...o })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ user, scope: fc.constantFrom<'org' | 'doc' | 'folder'>('org', 'doc', 'folder') })
      .map((o) => ({ kind: 'member' as const, ...o })),
  },
  {
    weight: 4,
    arbitrary: fc.record({ id, users: users, split: fc.nat(4) }).map(({ id, users, split }) => ({
      kind: 'mark' as const,
      id,
      read: users.slice(0, split),
      unread: users.slice(split),
    })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ user, doc, ids: fc.option(fc.uniqueArray(id, { maxLength: 3 }), { nil: null }) })
      .map((o) => ({ kind: 'read' as const, ...o })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.record({ notificationIds: fc.uniqueArray(id, { minLength: 1, maxLength: 2 }) }),
        fc.record({ documentId: fc.constantFrom(...DOCS) }),
        fc.record({ userId: user }),
        fc.record({ documentId: fc.constantFrom(...DOCS), userId: user }),
      )
      .map((filter) => ({ kind: 'delete' as const, filter })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ user, ids: fc.oneof(fc.uniqueArray(id, { minLength: 1, maxLength: 3 }), fc.constant<'allRead'>('allRead')) })
      .map((o) => ({ kind: 'archive' as const, ...o })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ user, ids: fc.uniqueArray(id, { minLength: 1, maxLength: 3 }) })
      .map((o) => ({ kind: 'unarchive' as const, ...o })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'tick' as const }) },
);

/** The `archived` filters checked: absent (hides archived ones), only archived, both. */
const ARCHIVED = [undefined, true, null] as const;

/** What the model keeps of a notification. */
interface Note {
  id: string;
  timestamp: number;
  doc: string | null;
  /** Listed recipients and whether each has it unread. */
  listed: Map<string, boolean>;
  wide: boolean;
  /** Members (not listed) who have read an organization-wide notification. */
  wideReaders: Set<string>;
  /** Users who archived it (listed, or members for an organization-wide one). */
  archivedBy: Set<string>;
}

class Model {
  notes = new Map<string, Note>();
  members = new Set<string>();

  finds(n: Note, u: string): boolean {
    return n.listed.has(u) || (n.wide && this.members.has(u));
  }
  unread(n: Note, u: string): boolean {
    return n.listed.has(u) ? n.listed.get(u)! : !n.wideReaders.has(u);
  }
  inbox(u: string, doc: string | null, unread?: boolean, archived: boolean | null = false): string[] {
    return [...this.notes.values()]
      .filter(
        (n) =>
          this.finds(n, u) &&
          (doc === null || n.doc === doc) &&
          (unread === undefined || this.unread(n, u) === unread) &&
          (archived === null || n.archivedBy.has(u) === archived),
      )
      .sort((x, y) => (x.timestamp !== y.timestamp ? y.timestamp - x.timestamp : x.id < y.id ? 1 : x.id > y.id ? -1 : 0))
      .map((n) => n.id);
  }
  /** A read mark as notifications/update and notifications/read apply it: recipients, or members of a wide one. */
  mark(n: Note, u: string, unread: boolean): boolean {
    if (n.listed.has(u)) {
      const changed = n.listed.get(u) !== unread;
      n.listed.set(u, unread);
      return changed;
    }
    if (!n.wide || !this.members.has(u)) return false;
    const had = n.wideReaders.has(u);
    if (unread) n.wideReaders.delete(u);
    else n.wideReaders.add(u);
    return had === unread;
  }
}

describe('inbox counts agree with the inbox (property)', () => {
  let t: TestApp;
  let now = T0;
  let run = 0;

  before(async () => {
    t = await makeTestApp({ clock: () => now });
  });
  after(async () => {
    await t.close();
  });

  async function check(org: string, model: Model, trace: string): Promise<void> {
    for (const u of USERS) {
      for (const d of [null, ...DOCS]) {
        for (const archived of ARCHIVED) {
          const where = {
            organizationId: org,
            userId: u,
            ...(d ? { documentId: d } : {}),
            ...(archived === undefined ? {} : { archived }),
          };
          const all = (await t.a.ok(PATHS.notificationsGet, where)).data.map((n: any) => n.id);
          const unread = (await t.a.ok(PATHS.notificationsGet, { ...where, unread: true })).data.map((n: any) => n.id);
          const count = (await t.a.ok(PATHS.notificationsCount, where)).data;
          const label = `${u} ${d ?? '(all documents)'} archived: ${archived} after\n${trace}`;
          assert.deepEqual(count, { total: all.length, unread: unread.length }, `count/get vs get: ${label}`);
          assert.deepEqual(
            all,
            model.inbox(u, d, undefined, archived === undefined ? false : archived),
            `inbox vs model: ${label}`,
          );
          assert.deepEqual(
            unread,
            model.inbox(u, d, true, archived === undefined ? false : archived),
            `unread vs model: ${label}`,
          );
        }
      }
    }
  }

  async function step(org: string, model: Model, op: Op): Promise<void> {
    switch (op.kind) {
      case 'tick':
        now += 1;
        return;
      case 'add': {
        const data = {
          organizationId: org,
          notificationId: op.id,
          documentId: op.doc,
          actionUser: { userId: 'actor' },
          displayHeadlineMessageTemplate: 'x',
          notifyUsers: op.listed.map((userId) => ({ userId })),
          ...(op.notifyAll === undefined ? {} : { notifyAll: op.notifyAll }),
        };
        const r = await t.a.post(PATHS.notificationsAdd, data);
        if (model.notes.has(op.id)) {
          assert.equal(r.status, 409, r.body);
          return;
        }
        assert.equal(r.status, 200, r.body);
        model.notes.set(op.id, {
          id: op.id,
          timestamp: now,
          doc: op.doc,
          listed: new Map(op.listed.map((u) => [u, true])),
          wide: op.notifyAll ?? op.listed.length === 0,
          wideReaders: new Set(),
          archivedBy: new Set(),
        });
        return;
      }
      case 'member': {
        const scope = op.scope === 'doc' ? { documentId: 'd1' } : op.scope === 'folder' ? { folderId: 'f' } : {};
        await t.a.ok(PATHS.usersAdd, { organizationId: org, ...scope, users: [{ userId: op.user }] });
        model.members.add(op.user);
        return;
      }
      case 'mark': {
        const r = await t.a.ok(PATHS.notificationsUpdate, {
          organizationId: org,
          notifications: [{ id: op.id, readByUserIds: op.read, unreadByUserIds: op.unread }],
        });
        const n = model.notes.get(op.id);
        assert.equal(r.data[op.id].success, n !== undefined, JSON.stringify(r));
        if (!n) return;
        for (const u of op.read) model.mark(n, u, false);
        for (const u of op.unread) model.mark(n, u, true);
        return;
      }
      case 'read': {
        const r = await t.a.ok(PATHS.notificationsRead, {
          organizationId: org,
          userId: op.user,
          ...(op.doc ? { documentId: op.doc } : {}),
          ...(op.ids ? { notificationIds: op.ids } : {}),
        });
        let marked = 0;
        // An empty notificationIds is no filter (docs/api.md, "Wire format").
        const ids = op.ids && op.ids.length > 0 ? op.ids : null;
        for (const n of model.notes.values()) {
          if (!model.finds(n, op.user) || (op.doc && n.doc !== op.doc) || (ids && !ids.includes(n.id))) continue;
          if (model.mark(n, op.user, false)) marked += 1;
        }
        assert.equal(r.data.read, marked, `newly marked: ${JSON.stringify(r)}`);
        return;
      }
      case 'archive': {
        const r = await t.a.ok(PATHS.notificationsArchive, {
          organizationId: org,
          userId: op.user,
          ...(op.ids === 'allRead' ? { allRead: true } : { notificationIds: op.ids }),
        });
        let archived = 0;
        for (const n of model.notes.values()) {
          const chosen = op.ids === 'allRead' ? !model.unread(n, op.user) : op.ids.includes(n.id);
          if (!chosen || !model.finds(n, op.user) || n.archivedBy.has(op.user)) continue;
          n.archivedBy.add(op.user);
          archived += 1;
        }
        assert.equal(r.data.archived, archived, `newly archived: ${JSON.stringify(r)}`);
        return;
      }
      case 'unarchive': {
        const r = await t.a.ok(PATHS.notificationsUnarchive, { organizationId: org, userId: op.user, notificationIds: op.ids });
        let unarchived = 0;
        for (const id of op.ids) if (model.notes.get(id)?.archivedBy.delete(op.user)) unarchived += 1;
        assert.equal(r.data.unarchived, unarchived, `newly unarchived: ${JSON.stringify(r)}`);
        return;
      }
      case 'delete': {
        const r = await t.a.ok(PATHS.notificationsDelete, { organizationId: org, ...op.filter });
        // Which notifications a filter selects is the business of the delete tests; here the model
        // follows the answer, and the inbox and counts must follow it too.
        for (const [nid, entry] of Object.entries(r.data as Record<string, { success: boolean }>)) {
          assert.equal(entry.success, model.notes.has(nid), `${nid}: ${JSON.stringify(r)}`);
          if (entry.success) model.notes.delete(nid);
        }
        return;
      }
    }
  }

  test(`${RUNS} random sequences (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const org = `org-prop-${++run}`;
        const model = new Model();
        now = T0 + run * 1_000;
        const trace: string[] = [];
        for (const op of ops) {
          trace.push(JSON.stringify(op));
          await step(org, model, op);
          await check(org, model, trace.join('\n'));
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  test('a fixed sequence: membership after reads, a listed member of a wide one, deletes by each filter', async () => {
    const org = 'org-prop-fixed';
    const model = new Model();
    now = T0 + 10_000_000;
    const ops: Op[] = [
      { kind: 'add', id: 'n1', doc: 'd1', listed: [], notifyAll: undefined },
      { kind: 'read', user: 'u1', doc: null, ids: null },
      { kind: 'member', user: 'u1', scope: 'doc' },
      { kind: 'add', id: 'n2', doc: 'd1', listed: ['u1', 'u2'], notifyAll: true },
      { kind: 'mark', id: 'n2', read: ['u1', 'u3'], unread: [] },
      { kind: 'member', user: 'u3', scope: 'folder' },
      { kind: 'mark', id: 'n2', read: ['u3'], unread: ['u1'] },
      { kind: 'add', id: 'n_4', doc: null, listed: ['u2'], notifyAll: undefined },
      { kind: 'read', user: 'u2', doc: null, ids: null },
      { kind: 'read', user: 'u3', doc: 'd1', ids: ['n1'] },
      { kind: 'delete', filter: { documentId: 'd2' } },
      { kind: 'delete', filter: { notificationIds: ['n1'] } },
      { kind: 'add', id: 'n1', doc: 'd2', listed: ['u4'], notifyAll: undefined },
      { kind: 'delete', filter: { userId: 'u4' } },
      { kind: 'delete', filter: { documentId: 'd1', userId: 'u2' } },
      // The archive: a wide one read and archived, then marked unread and read again while archived; a listed one
      // archived unread; all read; unarchive of one never archived; a delete of archived ones; a re-add of the id.
      { kind: 'add', id: 'a6', doc: 'd2', listed: [], notifyAll: undefined },
      { kind: 'add', id: 'N3', doc: 'd1', listed: ['u3', 'u1'], notifyAll: undefined },
      { kind: 'read', user: 'u3', doc: 'd2', ids: null },
      { kind: 'archive', user: 'u3', ids: 'allRead' },
      { kind: 'archive', user: 'u1', ids: ['N3', 'a6', 'n2'] },
      { kind: 'mark', id: 'a6', read: [], unread: ['u3', 'u1'] },
      { kind: 'mark', id: 'a6', read: ['u3'], unread: [] },
      { kind: 'mark', id: 'N3', read: ['u1'], unread: [] },
      { kind: 'unarchive', user: 'u3', ids: ['a6', 'N3'] },
      { kind: 'archive', user: 'u3', ids: ['a6', 'N3'] },
      { kind: 'archive', user: 'u1', ids: 'allRead' },
      { kind: 'delete', filter: { notificationIds: ['a6'] } },
      { kind: 'add', id: 'a6', doc: 'd1', listed: [], notifyAll: undefined },
      { kind: 'delete', filter: { documentId: 'd1' } },
    ];
    for (const [i, op] of ops.entries()) {
      await step(org, model, op);
      await check(
        org,
        model,
        ops
          .slice(0, i + 1)
          .map((o) => JSON.stringify(o))
          .join('\n'),
      );
    }
  });
});
