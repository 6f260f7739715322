// Fixtures of the store conformance suite (test/store/): tenants, comments and notifications as the
// store takes them, and a test on a fresh migrated database of the kind this run tests (MARGINALIA_TEST_STORE:
// `npm test` runs test/store/ on SQLite, then on PostgreSQL). Nothing here branches on the store's kind:
// where the two stores differ, a test fails on one of them.
import { threadPage } from '../../src/domain/answers/annotations.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenRecord } from '../../src/services/credentials.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import type { Tenant, TokenRecord } from '../../src/domain/credentials.js';
import type {
  NewNotification,
  NotificationCursor,
  NotificationQuery,
  StoredNotification,
} from '../../src/domain/notifications.js';
import type {
  AddCommentsResult,
  CommentDraft,
  AnnotationQuery,
  CommentQuery,
  NewAnnotation,
  NewComment,
  StoredComment,
} from '../../src/domain/threads.js';
import { newNotificationAnswer, pageAnswer } from '../../src/domain/answers/notifications.js';
import { freshDatabase, type FreshDatabase, TEST_STORE } from './test-database.js';

/** 2024-06-20T09:53:42.258Z, the seed's example moment. */
export const T0 = Date.UTC(2024, 5, 20, 9, 53, 42, 258);
export const TA = 'tenant-a';
export const TB = 'tenant-b';
export const ORG = 'org-1';
export const DOC = 'doc-1';
export const MAX_ID = 2_147_483_647;
/** UserWrite fields are typed `string | undefined`; callers in JavaScript may still pass null. */
export const NULL = null as unknown as undefined;

// --- Assertion helpers: every failure message carries the actual value. ---

export function show(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Map) return { '<Map>': [...v.entries()] };
    if (v instanceof Set) return { '<Set>': [...v] };
    if (v === undefined) return '<undefined>';
    return v;
  });
}

export function eq<T>(actual: T, expected: T, what: string): void {
  assert.deepStrictEqual(actual, expected, `${what}\n  expected: ${show(expected)}\n  actual:   ${show(actual)}`);
}

export const sorted = (items: Iterable<string>): string[] => [...items].sort();

/** Code unit order, descending (for ASCII ids the same as byte order). */
export const idDesc = (x: string, y: string): number => (x < y ? 1 : x > y ? -1 : 0);

// --- Builders ---

export function tenant(id: string, apiKey: string, createdAt = T0, name = `name of ${id}`): Omit<Tenant, 'disabled' | 'revoked'> {
  return { id, apiKey, name, createdAt };
}

/** What a comment write leaves to the server: its times, and no tags. */
const NOT_GIVEN = { createdAt: null, lastUpdated: null, taggedUserContacts: null };

export function newComment(
  commentId: number,
  text: string,
  userId = 'u1',
  name: string | null = null,
  email: string | null = null,
): NewComment {
  return { commentId, html: `<p>${text}</p>`, text, from: { userId, name, email }, ...NOT_GIVEN };
}

export function draft(text: string, commentId?: number, userId = 'u1'): CommentDraft {
  return { commentId, html: `<p>${text}</p>`, text, from: { userId, name: `Name ${userId}`, email: null }, ...NOT_GIVEN };
}

export function annotation(annotationId: string, comments: NewComment[]): NewAnnotation {
  return {
    annotationId,
    location: { page: 1 },
    locationId: 'loc-1',
    context: null,
    status: { id: 'OPEN', name: 'Open', type: 'default' },
    createdAt: null,
    lastUpdated: null,
    color: null,
    assignedTo: null,
    priority: null,
    targetElement: null,
    comments,
  };
}

/** A read of every thread of DOC, newest first. */
export function annotationQuery(over: Partial<AnnotationQuery> = {}): AnnotationQuery {
  const none = { annotationIds: null, locationIds: null, userIds: null, statusIds: null };
  return { organizationId: ORG, documentId: DOC, ...none, after: null, limit: 1000, ...over };
}

export function commentQuery(annotationId: string, over: Partial<CommentQuery> = {}): CommentQuery {
  return { organizationId: ORG, documentId: DOC, annotationId, userIds: null, commentIds: null, ...over };
}

/** A recipient as the service passes it; the store keeps the internal id as given. */
export const recipient = (userId: string) => ({ userId, internalId: `id-of-${userId}` });
/** How a store reads a recipient back: with its id, and unread. */
export const readBack = (userId: string) => ({ ...recipient(userId), unread: true });

export function notification(
  notificationId: string,
  { recipients = ['u1'], ...over }: Partial<Omit<NewNotification, 'recipients'>> & { recipients?: string[] } = {},
): NewNotification {
  const n = {
    notificationId,
    documentId: DOC,
    locationId: null,
    actionUser: { userId: 'actor', name: 'Actor', email: 'actor@example.com' },
    headlineTemplate: '{{actor}} mentioned you',
    headlineData: { actor: { userId: 'actor' } },
    bodyMessage: `body of ${notificationId}`,
    sourceData: { source: notificationId },
    timestamp: T0,
    recipients: recipients.map(recipient),
    notifyAll: false,
    source: 'custom' as const,
    ...over,
  };
  return { ...n, answer: over.answer ?? newNotificationAnswer(n) };
}

export function notificationQuery(over: Partial<NotificationQuery>): NotificationQuery {
  return {
    organizationId: ORG,
    documentId: null,
    userId: null,
    locationId: null,
    notificationIds: null,
    unread: null,
    archived: false,
    after: null,
    limit: 1000,
    ...over,
  };
}

export const commentIdsOf = (list: StoredComment[]): number[] => list.map((c) => c.commentId);
export const notificationIdsOf = (list: { notificationId: string }[]): string[] => list.map((n) => n.notificationId);

/**
 * Template data as a read shows it with no profiles: each user object (docs/api.md,
 * "User objects in a notification") gains email and name ("" where it has no string of its own), after its own
 * members.
 */
export function shownTemplate(data: Record<string, unknown>): Record<string, unknown> {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return Object.fromEntries(
    Object.entries(data).map(([key, v]) => {
      const user = v as Record<string, unknown> | null;
      if (typeof v !== 'object' || v === null || Array.isArray(v) || typeof user?.userId !== 'string') return [key, v];
      return [key, { ...user, email: text(user.email) ?? '', name: text(user.name) ?? '', userId: user.userId }];
    }),
  );
}

/** A stored notification as the store tests compare it: each member of NewNotification, read back from its answer. */
export interface ReadNotification extends Omit<NewNotification, 'recipients'> {
  recipients: { userId: string; internalId: string; unread: boolean }[];
  profileVersion: number;
}

export function parsedNotification(n: StoredNotification): ReadNotification {
  const shown = JSON.parse(pageAnswer({ apiKey: 'k' }, ORG, [n], (userId) => recipient(userId).internalId).render(new Map()))[0];
  const internalIds = Object.keys(shown.notifyUsers);
  return {
    notificationId: n.notificationId,
    documentId: shown.metadata.documentId ?? null,
    locationId: shown.metadata.locationId ?? null,
    actionUser: n.actionUser,
    headlineTemplate: shown.displayHeadlineMessageTemplate,
    headlineData: shown.displayHeadlineMessageTemplateData,
    bodyMessage: shown.displayBodyMessage,
    sourceData: shown.notificationSourceData,
    timestamp: n.timestamp,
    notifyAll: false,
    source: shown.notificationSource,
    recipients: Object.entries(shown.notifyUsersByUserId as Record<string, boolean>).map(([userId, unread], i) => ({
      userId,
      internalId: internalIds[i]!,
      unread,
    })),
    answer: n.answer,
    profileVersion: n.profileVersion,
  };
}

/** store.getNotifications, parsed. */
export async function readNotifications(store: Store, tenantId: string, query: NotificationQuery): Promise<ReadNotification[]> {
  return (await store.getNotifications(tenantId, query)).map(parsedNotification);
}
/** A thread as store.getAnnotations' stored answer renders it (no profiles: what the writers gave). */
export interface ReadThread {
  annotationId: string;
  createdAt: number;
  lastUpdated: number;
  comments: { commentId: number; commentText: string }[];
}

/** store.getAnnotations, rendered as a read with no profiles renders it, and parsed. */
export async function readThreads(store: Store, tenantId: string, query: AnnotationQuery): Promise<ReadThread[]> {
  const rows = await store.getAnnotations(tenantId, query);
  return JSON.parse(threadPage(rows).render('mk_test', new Map(), null)) as ReadThread[];
}

export const cursorOf = (n: { timestamp: number; notificationId: string }): NotificationCursor => ({
  timestamp: n.timestamp,
  notificationId: n.notificationId,
});

export function added(result: AddCommentsResult, what: string): number[] {
  assert.equal(result.kind, 'added', `${what}: expected kind "added", got ${show(result)}`);
  return (result as { commentIds: number[] }).commentIds;
}

/** A test on a fresh migrated database of this kind; the store is closed and the database dropped after. */
export function storeTest(name: string, fn: (store: Store, db: FreshDatabase) => Promise<void>): void {
  test(name, async () => {
    const db = freshDatabase(TEST_STORE);
    let store: Store | undefined;
    try {
      store = await db.open();
      await fn(store, db);
    } finally {
      await store?.close();
      await db.drop();
    }
  });
}

/**
 * Waits for the next turn of the event loop. A SQLite store's reads of one turn share a read
 * transaction (store/dialect/sqlite.ts, ReadSnapshot): a change made through another connection (a
 * second store, another process) shows from the next turn on, as it would to the next request.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A second store on the same database (for PostgreSQL: the same schema), closed after fn. */
export async function withSecondStore<T>(db: FreshDatabase, fn: (other: Store) => T | Promise<T>): Promise<T> {
  const other = await openStore(db.config);
  try {
    return await fn(other);
  } finally {
    await other.close();
  }
}

export async function seedTenants(store: Store): Promise<{ tokenA: TokenRecord; tokenB: TokenRecord }> {
  const tokenA = tokenRecord('mt_token-of-tenant-a', T0);
  const tokenB = tokenRecord('mt_token-of-tenant-b', T0 + 1);
  await store.createTenant(tenant(TA, 'mk_key-a', T0), tokenA);
  await store.createTenant(tenant(TB, 'mk_key-b', T0 + 1), tokenB);
  return { tokenA, tokenB };
}

/** A document's counts as the store answers them (its JSON text, parsed). */
export async function countOf(
  store: Store,
  tenantId: string,
  documentId: string,
  userId: string,
  statusIds: string[] | null = null,
): Promise<{ total: number; unread: number } | undefined> {
  const { json } = await store.countAnnotations(tenantId, ORG, [documentId], userId, statusIds);
  return (JSON.parse(json) as Record<string, { total: number; unread: number }>)[documentId];
}
