// Builds a benchmark dataset straight into the database, in large batched transactions, with the
// shape real use has: organizations of 100 users, notifications on 100 documents per organization
// with 1-5 recipients each (about 10 per document, 30 per user), threads of 10 comments, and two
// documents per organization with 25 threads of 1-5 comments each (a document's thread list).
// Deterministic: the same scale gives the same rows.
import type pg from 'pg';
import type Database from 'better-sqlite3';
import { createTenant } from '../src/services/credentials.js';
import { internalUserId } from '../src/domain/ids.js';
import { COMMENTS_SQL } from '../src/store/comments/sql.js';
import { keptOf } from '../src/store/comments/threads.js';
import { newNotificationAnswer } from '../src/domain/answers/notifications.js';
import { headlineOf } from '../src/domain/search.js';
import { recipientsJson } from '../src/store/notifications/notifications.js';
import { NOTIFICATIONS_SQL } from '../src/store/notifications/sql.js';
import { USERS_SQL } from '../src/store/users/sql.js';
import { sqliteSearchFill } from '../src/store/migrations/44-search-index.js';
import { SCOPED_COMMENTS, SCOPED_NOTIFICATIONS } from '../src/store/migrations/48-search-terms-scoped.js';
import { addSqlFunctions } from '../src/store/dialect/sqlite-functions.js';
import type { Store } from '../src/store/store.js';

export const SCALES = {
  small: {
    organizations: 10,
    usersPerOrg: 100,
    notificationsPerOrg: 1000,
    documentsPerOrg: 100,
    threadsPerOrg: 100,
    commentsPerThread: 10,
    listDocumentsPerOrg: 2,
    threadsPerListDocument: 25,
  },
  large: {
    organizations: 1000,
    usersPerOrg: 100,
    notificationsPerOrg: 1000,
    documentsPerOrg: 100,
    threadsPerOrg: 100,
    commentsPerThread: 10,
    listDocumentsPerOrg: 2,
    threadsPerListDocument: 25,
  },
} as const;
export type ScaleName = keyof typeof SCALES;
export type Scale = (typeof SCALES)[ScaleName];

export const BENCH_CREDENTIALS = { apiKey: 'bench-api-key', authToken: 'bench-auth-token-0123456789' };
const T0 = Date.UTC(2026, 0, 1);

/** mulberry32: a small seeded generator, so every run builds the same dataset. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const org = (o: number) => `org-${o}`;
export const userOf = (u: number) => `user-${u}`;
export const docOf = (d: number) => `doc-${d}`;
export const threadOf = (a: number) => `thread-${a}`;
/** The documents whose thread list commentannotations/get pages through. */
export const listDocOf = (d: number) => `list-doc-${d}`;
/**
 * Organizations whose inboxes mix in organization-wide notifications: one in ten, where 1 in 300 of
 * the notifications is organization-wide, so a user's inbox (about 30 listed) is about 10% of them.
 */
export const MIXED_EVERY = 10;
export const isMixed = (o: number) => o % MIXED_EVERY === MIXED_EVERY - 1;
/** The organization of one user with a long inbox (10,000 notifications), and that user. */
export const HEAVY_ORG = 'org-heavy';
export const HEAVY_USER = 'heavy';
const HEAVY_INBOX = 10_000;
/** Of the heavy inbox: one in ten is organization-wide, and all but the newest 500 are read. */
const HEAVY_UNREAD = 500;

interface Rows {
  users: { organizationId: string; userId: string; name: string; email: string }[];
  notifications: {
    organizationId: string;
    notificationId: string;
    documentId: string;
    locationId: string | null;
    actionUserId: string;
    headlineData: string;
    timestamp: number;
    recipients: string[];
    /** Addressed to the whole organization too (docs/api.md, "Addressing and read state"). */
    notifyAll: boolean;
    /** Users who have read it: listed recipients, or members for an organization-wide one. */
    readBy: string[];
  }[];
  comments: {
    organizationId: string;
    documentId: string;
    annotationId: string;
    commentId: number;
    fromUserId: string;
    html: string;
    text: string;
  }[];
  annotations: {
    organizationId: string;
    documentId: string;
    annotationId: string;
    createdAt: number;
    firstUserId: string;
    /** What the thread keeps of its comments (its stored answer, its newest comments), as the store writes it. */
    kept: { head: string; comments: string; lastAt: number | null; lastBy: string | null; otherAt: number | null };
  }[];
}

/**
 * The organizations and documents the rows name, with the rows the service would have made for them at
 * their first write; without them the bench's first write to each document would create its row.
 */
function scopesOf(rows: Rows): { organizations: string[]; documents: { organizationId: string; documentId: string }[] } {
  const documents = new Map<string, { organizationId: string; documentId: string }>();
  for (const { organizationId, documentId } of [...rows.notifications, ...rows.annotations]) {
    documents.set(JSON.stringify([organizationId, documentId]), { organizationId, documentId });
  }
  const organizations = new Set([...rows.users, ...documents.values()].map((r) => r.organizationId));
  return { organizations: [...organizations], documents: [...documents.values()] };
}

/** The rows of one organization. */
function organizationRows(scale: Scale, o: number): Rows {
  const rnd = random(o + 1);
  const pick = (n: number) => Math.floor(rnd() * n);
  const organizationId = org(o);
  const rows: Rows = { users: [], notifications: [], comments: [], annotations: [] };
  for (let u = 0; u < scale.usersPerOrg; u++) {
    rows.users.push({ organizationId, userId: userOf(u), name: `User ${u} of ${o}`, email: `user${u}.org${o}@example.com` });
  }
  for (let i = 0; i < scale.notificationsPerOrg; i++) {
    const actor = userOf(pick(scale.usersPerOrg));
    const recipients = new Set<string>();
    const wanted = 1 + pick(5);
    while (recipients.size < wanted) recipients.add(userOf(pick(scale.usersPerOrg)));
    rows.notifications.push({
      organizationId,
      notificationId: `n-${i}`,
      documentId: docOf(pick(scale.documentsPerOrg)),
      locationId: rnd() < 0.3 ? `loc-${pick(5)}` : null,
      actionUserId: actor,
      headlineData: JSON.stringify({ actionUser: { userId: actor }, documentTitle: `Document ${i % 100}` }),
      timestamp: T0 + o * scale.notificationsPerOrg + i,
      recipients: isMixed(o) && i % 300 === 150 ? [] : [...recipients],
      notifyAll: isMixed(o) && i % 300 === 150,
      readBy: [],
    });
  }
  const thread = (documentId: string, annotationId: string, comments: number, createdAt: number) => {
    const first = rows.comments.length;
    for (let c = 1; c <= comments; c++) {
      const text = `Comment ${c} on ${annotationId}: looks good, one question about the second paragraph.`;
      rows.comments.push({
        organizationId,
        documentId,
        annotationId,
        commentId: c,
        fromUserId: userOf(pick(scale.usersPerOrg)),
        html: `<p>${text}</p>`,
        text,
      });
    }
    const whole = {
      annotationId,
      location: null,
      locationId: null,
      context: null,
      status: OPEN,
      createdAt,
      lastUpdated: createdAt,
      color: null,
      assignedTo: null,
      priority: null,
      targetElement: null,
      comments: rows.comments.slice(first).map((c) => ({
        ...c,
        from: { userId: c.fromUserId, name: null, email: null },
        createdAt: T0,
        lastUpdated: T0,
        status: 'added',
        type: 'text',
        taggedUserContacts: null,
      })),
    };
    const kept = keptOf(whole, organizationId, documentId) as Rows['annotations'][number]['kept'];
    rows.annotations.push({
      organizationId,
      documentId,
      annotationId,
      createdAt,
      firstUserId: rows.comments[first]!.fromUserId,
      kept,
    });
  };
  for (let a = 0; a < scale.threadsPerOrg; a++)
    thread(docOf(a % scale.documentsPerOrg), threadOf(a), scale.commentsPerThread, T0);
  for (let d = 0; d < scale.listDocumentsPerOrg; d++) {
    for (let k = 0; k < scale.threadsPerListDocument; k++) thread(listDocOf(d), `list-${d}-${k}`, 1 + pick(5), T0 + k);
  }
  return rows;
}

/** The organization of the heavy inbox: 100 members, and 10,000 notifications for one of them. */
function heavyRows(scale: Scale): Rows {
  const rnd = random(424242);
  const pick = (n: number) => Math.floor(rnd() * n);
  const rows: Rows = { users: [], notifications: [], comments: [], annotations: [] };
  const organizationId = HEAVY_ORG;
  for (const userId of [HEAVY_USER, ...Array.from({ length: scale.usersPerOrg - 1 }, (_, u) => userOf(u))]) {
    rows.users.push({ organizationId, userId, name: `Name of ${userId}`, email: `${userId}@heavy.example.com` });
  }
  for (let i = 0; i < HEAVY_INBOX; i++) {
    const actor = userOf(pick(scale.usersPerOrg - 1));
    const wide = i % 10 === 5;
    const read = i < HEAVY_INBOX - HEAVY_UNREAD;
    rows.notifications.push({
      organizationId,
      notificationId: `h-${String(i).padStart(5, '0')}`,
      documentId: docOf(pick(scale.documentsPerOrg)),
      locationId: null,
      actionUserId: actor,
      headlineData: JSON.stringify({ actionUser: { userId: actor }, documentTitle: `Document ${i % 100}` }),
      timestamp: T0 + i,
      recipients: wide ? [] : [HEAVY_USER, userOf(pick(scale.usersPerOrg - 1))],
      notifyAll: wide,
      readBy: read ? [HEAVY_USER] : [],
    });
  }
  return rows;
}

/** The recipients of a notification, with the internal ids the service would derive. */
const recipientList = (tenantId: string, n: Rows['notifications'][number]) =>
  n.recipients.map((userId) => ({ userId, internalId: internalUserId(tenantId, n.organizationId, userId) }));

const HEADLINE = '{actionUser} mentioned you in {documentTitle}';
const OPEN = '{"id":"OPEN","name":"Open","type":"default"}';

/** Its recipients column, its stored answer and its headline, as notifications/add writes them. */
const recipientColumns = (tenantId: string, n: Rows['notifications'][number]) => {
  const list = recipientList(tenantId, n);
  const headlineData = JSON.parse(n.headlineData) as Record<string, unknown>;
  const answer = newNotificationAnswer({
    ...n,
    headlineTemplate: HEADLINE,
    headlineData,
    sourceData: {},
    bodyMessage: '',
    recipients: list,
  });
  const headlineText = headlineOf(HEADLINE, headlineData, { userId: n.actionUserId });
  return { recipients: recipientsJson(list), answer, headlineText };
};

/** Creates the bench tenant and fills the dataset; returns the tenant id. */
export async function buildDataset(
  store: Store,
  scale: Scale,
  sink: SqliteSink | PostgresSink,
  progress: (msg: string) => void,
): Promise<string> {
  await createTenant(store, () => T0, 'bench', BENCH_CREDENTIALS);
  const tenantId = (await store.findCredentials(BENCH_CREDENTIALS.apiKey))!.tenant.id;
  await sink.withoutSearchIndex(() => writeRows(tenantId, scale, sink, progress));
  progress('the search index');
  return tenantId;
}

async function writeRows(tenantId: string, scale: Scale, sink: SqliteSink | PostgresSink, progress: (msg: string) => void) {
  const BATCH = 50; // organizations per transaction
  for (let first = 0; first < scale.organizations; first += BATCH) {
    const batch: Rows = { users: [], notifications: [], comments: [], annotations: [] };
    for (let o = first; o < Math.min(first + BATCH, scale.organizations); o++) {
      const r = organizationRows(scale, o);
      batch.users.push(...r.users);
      batch.notifications.push(...r.notifications);
      batch.comments.push(...r.comments);
      batch.annotations.push(...r.annotations);
    }
    await sink.write(tenantId, batch);
    progress(`${Math.min(first + BATCH, scale.organizations)}/${scale.organizations} organizations`);
  }
  await sink.write(tenantId, heavyRows(scale));
  progress('the heavy inbox');
}

/** Writes through the SQLite store's own statements, one transaction per batch. */
export class SqliteSink {
  constructor(private readonly db: Database.Database) {
    // The index's fill and triggers call search_terms (migration 48).
    addSqlFunctions(db);
  }

  /**
   * The search index's triggers are dropped while the rows are written, and the index is then filled in bulk and the
   * triggers made again as they were: a row at a time through the triggers, the large dataset took over an hour.
   */
  async withoutSearchIndex(write: () => Promise<void>): Promise<void> {
    const triggers = this.db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name GLOB '*_search_*' AND tbl_name IN (?, ?)`)
      .all(SCOPED_COMMENTS.table, SCOPED_NOTIFICATIONS.table) as { name: string; sql: string }[];
    for (const t of triggers) this.db.exec(`DROP TRIGGER ${t.name}`);
    await write();
    this.db.transaction(() => {
      this.db.exec(sqliteSearchFill(SCOPED_COMMENTS) + sqliteSearchFill(SCOPED_NOTIFICATIONS));
      for (const t of triggers) this.db.exec(t.sql);
    })();
  }

  async write(tenantId: string, rows: Rows): Promise<void> {
    const s = {
      upsertUser: this.db.prepare(USERS_SQL.upsert.sqlite.text),
      insertNotification: this.db.prepare(NOTIFICATIONS_SQL.insert.sqlite.text),
      insertInbox: this.db.prepare(NOTIFICATIONS_SQL.insertInbox.sqlite.text),
      readListed: this.db.prepare(
        `UPDATE inbox SET unread = 0 WHERE tenant_id = @tenantId AND organization_id = @organizationId
           AND notification_id = @notificationId AND user_id = @userId`,
      ),
      readWide: this.db.prepare(
        `INSERT INTO notification_reads (tenant_id, organization_id, notification_id, user_id, internal_id, document_id)
         VALUES (@tenantId, @organizationId, @notificationId, @userId, @internalId, @documentId)`,
      ),
      insertAnnotation: this.db.prepare(COMMENTS_SQL.insertAnnotation.sqlite.text),
      insertComment: this.db.prepare(COMMENTS_SQL.insertComments.sqlite.text),
      organization: this.db.prepare(
        `INSERT INTO organizations (tenant_id, organization_id, created_at, updated_at)
         VALUES (@tenantId, @organizationId, @now, @now) ON CONFLICT DO NOTHING`,
      ),
      document: this.db.prepare(
        `INSERT INTO documents (tenant_id, organization_id, document_id, created_at, updated_at)
         VALUES (@tenantId, @organizationId, @documentId, @now, @now) ON CONFLICT DO NOTHING`,
      ),
    };
    const scopes = scopesOf(rows);
    this.db.transaction(() => {
      for (const organizationId of scopes.organizations) s.organization!.run({ tenantId, organizationId, now: T0 });
      for (const d of scopes.documents) s.document!.run({ tenantId, ...d, now: T0 });
      for (const u of rows.users) s.upsertUser!.run({ tenantId, ...u, photoUrl: null, now: T0 });
      for (const n of rows.notifications) {
        const shared = {
          tenantId,
          organizationId: n.organizationId,
          notificationId: n.notificationId,
          documentId: n.documentId,
          locationId: n.locationId,
          actionUserId: n.actionUserId,
          actionUserName: null,
          actionUserEmail: null,
          timestamp: n.timestamp,
        };
        const { recipients, answer, headlineText } = recipientColumns(tenantId, n);
        s.insertNotification!.run({
          ...shared,
          headlineTemplate: HEADLINE,
          headlineData: n.headlineData,
          headlineText,
          bodyMessage: '',
          sourceData: '{}',
          recipients,
          answer,
          notifyAll: n.notifyAll ? 1 : 0,
          source: 'custom',
          context: null,
          resolverUsed: 0,
        });
        const inbox = { ...shared, answer, notifyAll: n.notifyAll ? 1 : 0 };
        for (const [position, userId] of n.recipients.entries()) s.insertInbox!.run({ ...inbox, userId, position });
        for (const userId of n.readBy) {
          if (n.recipients.includes(userId)) s.readListed!.run({ ...shared, userId });
          else {
            const internalId = internalUserId(tenantId, n.organizationId, userId);
            s.readWide!.run({
              tenantId,
              organizationId: n.organizationId,
              notificationId: n.notificationId,
              userId,
              internalId,
              documentId: n.documentId,
            });
          }
        }
      }
      for (const a of rows.annotations) {
        s.insertAnnotation!.run({
          tenantId,
          ...a,
          location: null,
          locationId: null,
          context: null,
          status: OPEN,
          statusId: 'OPEN',
          lastUpdated: a.createdAt,
          assignedTo: null,
          priority: null,
          targetElement: null,
          color: null,
          ...NO_V2_MEMBERS,
          ...a.kept,
        });
      }
      for (const c of rows.comments) {
        const times = { createdAt: T0, lastUpdated: T0 };
        s.insertComment!.run({
          tenantId,
          ...c,
          seq: c.commentId,
          fromName: null,
          fromEmail: null,
          ...times,
          tags: null,
          context: null,
          attachments: null,
          agent: null,
        });
      }
    })();
  }
}

/** A thread's /v2 members (migration 30), none of which the dataset's threads have. */
const NO_V2_MEMBERS = {
  kind: 'comment',
  suggestion: null,
  commentType: null,
  visibility: null,
  agentId: null,
  agentSource: null,
  executionId: null,
  agentType: null,
  agentUrl: null,
};

/** Writes with one multi-row INSERT ... SELECT FROM unnest(...) per table per batch. */
export class PostgresSink {
  constructor(private readonly client: pg.Client) {}

  /** The search index's GIN indexes are dropped while the rows are written, and made again after, in one build each. */
  async withoutSearchIndex(write: () => Promise<void>): Promise<void> {
    const { rows } = await this.client.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
         AND indexname IN ('comments_search', 'notifications_search')`,
    );
    for (const r of rows) await this.client.query(`DROP INDEX ${r.indexname}`);
    await write();
    for (const r of rows) await this.client.query(r.indexdef);
  }

  async write(tenantId: string, rows: Rows): Promise<void> {
    const c = this.client;
    const col = <T, K extends keyof T>(list: T[], key: K) => list.map((x) => x[key]);
    const scopes = scopesOf(rows);
    await c.query('BEGIN');
    await c.query(
      `INSERT INTO organizations (tenant_id, organization_id, created_at, updated_at)
      SELECT $1, o, $3, $3 FROM unnest($2::text[]) AS o ON CONFLICT DO NOTHING`,
      [tenantId, scopes.organizations, T0],
    );
    await c.query(
      `INSERT INTO documents (tenant_id, organization_id, document_id, created_at, updated_at)
      SELECT $1, x.o, x.d, $4, $4 FROM unnest($2::text[], $3::text[]) AS x(o, d) ON CONFLICT DO NOTHING`,
      [tenantId, col(scopes.documents, 'organizationId'), col(scopes.documents, 'documentId'), T0],
    );
    await c.query(
      `INSERT INTO users (tenant_id, organization_id, user_id, name, email, created_at, updated_at)
      SELECT $1, x.o, x.u, x.n, x.e, $6, $6 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS x(o, u, n, e)`,
      [
        tenantId,
        col(rows.users, 'organizationId'),
        col(rows.users, 'userId'),
        col(rows.users, 'name'),
        col(rows.users, 'email'),
        T0,
      ],
    );
    const n = rows.notifications;
    const columns = n.map((x) => recipientColumns(tenantId, x));
    await c.query(
      `INSERT INTO notifications (tenant_id, organization_id, notification_id, document_id, location_id, action_user_id,
        headline_template, headline_data, headline_text, body_message, source_data, timestamp, recipients, answer,
        notify_all)
      SELECT $1, x.o, x.i, x.d, x.l, x.a, $11, x.h, x.ht, '', '{}', x.t, x.r, x.an, x.w
      FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[],
        $10::text[], $12::boolean[], $13::text[]) AS x(o, i, d, l, a, h, t, r, an, w, ht)`,
      [
        tenantId,
        col(n, 'organizationId'),
        col(n, 'notificationId'),
        col(n, 'documentId'),
        col(n, 'locationId'),
        col(n, 'actionUserId'),
        col(n, 'headlineData'),
        col(n, 'timestamp'),
        columns.map((x) => x.recipients),
        columns.map((x) => x.answer),
        HEADLINE,
        col(n, 'notifyAll'),
        columns.map((x) => x.headlineText),
      ],
    );
    // Each inbox row carries its notification's answer and filter columns, as notifications/add writes it.
    const r = n.flatMap((x, i) => {
      const { answer } = columns[i]!;
      return x.recipients.map((userId, position) => ({ ...x, userId, position, answer, unread: !x.readBy.includes(userId) }));
    });
    await c.query(
      `INSERT INTO inbox (tenant_id, organization_id, user_id, timestamp, notification_id, position, unread, document_id,
        location_id, action_user_id, answer, wide)
      SELECT $1, x.o, x.u, x.t, x.i, x.p, x.un, x.d, x.l, x.a, x.an, x.w
      FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[],
        $11::boolean[], $12::boolean[]) AS x(o, u, t, i, p, d, l, a, an, un, w)`,
      [
        tenantId,
        col(r, 'organizationId'),
        col(r, 'userId'),
        col(r, 'timestamp'),
        col(r, 'notificationId'),
        col(r, 'position'),
        col(r, 'documentId'),
        col(r, 'locationId'),
        col(r, 'actionUserId'),
        col(r, 'answer'),
        col(r, 'unread'),
        col(r, 'notifyAll'),
      ],
    );
    const reads = n.flatMap((x) =>
      (x.notifyAll ? x.readBy.filter((u) => !x.recipients.includes(u)) : []).map((userId) => ({ ...x, userId })),
    );
    await c.query(
      `INSERT INTO notification_reads (tenant_id, organization_id, notification_id, user_id, internal_id, document_id)
      SELECT $1, x.o, x.i, x.u, x.iu, x.d FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
        AS x(o, i, u, iu, d)`,
      [
        tenantId,
        col(reads, 'organizationId'),
        col(reads, 'notificationId'),
        col(reads, 'userId'),
        reads.map((x) => internalUserId(tenantId, x.organizationId, x.userId)),
        col(reads, 'documentId'),
      ],
    );
    const a = rows.annotations;
    await c.query(
      `INSERT INTO annotations (tenant_id, organization_id, document_id, annotation_id, status, status_id, created_at,
        last_updated, first_user_id, answer_head, answer_comments, last_comment_at, last_comment_by, last_other_at)
      SELECT $1, x.o, x.d, x.a, $7, 'OPEN', x.t, x.t, x.u, x.h, x.c, x.la, x.lb, x.oa
      FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $8::text[], $9::text[], $10::bigint[],
        $11::text[], $12::bigint[]) AS x(o, d, a, t, u, h, c, la, lb, oa)`,
      [
        tenantId,
        col(a, 'organizationId'),
        col(a, 'documentId'),
        col(a, 'annotationId'),
        col(a, 'createdAt'),
        col(a, 'firstUserId'),
        OPEN,
        ...(['head', 'comments', 'lastAt', 'lastBy', 'otherAt'] as const).map((k) => a.map((x) => x.kept[k])),
      ],
    );
    const m = rows.comments;
    await c.query(
      `INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html, comment_text,
        from_user_id, status, type, created_at, last_updated)
      SELECT $1, x.o, x.d, x.a, x.c, x.c, x.h, x.t, x.u, 'added', 'text', $9, $9
      FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[]) AS x(o, d, a, c, h, t, u)`,
      [
        tenantId,
        col(m, 'organizationId'),
        col(m, 'documentId'),
        col(m, 'annotationId'),
        col(m, 'commentId'),
        col(m, 'html'),
        col(m, 'text'),
        col(m, 'fromUserId'),
        T0,
      ],
    );
    await c.query('COMMIT');
  }
}
