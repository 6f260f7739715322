// Store code of the location operations (the original service's organizations/documents/locations/*):
// a location's threads and notifications moved to another location, or deleted with everything in them.
import { answerOfSource } from '../../domain/answers/notifications.js';
import { THREADS_SQL } from '../comments/threads-sql.js';
import { renderThreads } from '../comments/threads.js';
import { remove as removeNotifications, sourceFrom } from '../notifications/notifications.js';
import { enter } from '../organizations/organizations.js';
import { all, list, type Row, run, type Work } from '../sql.js';
import { Refusal } from '../../domain/refusal.js';
import type { ChangeSource, NotificationDeletion } from '../../domain/notifications.js';
import type { LocationMove } from '../../domain/threads.js';
import { LOCATIONS_SQL as SQL } from './sql.js';

/** A location as callers name it: an object with a string id, its other members kept as sent. */
export type Location = { id: string } & Record<string, unknown>;

/** A notification moved: its new stored answer, and the notification as it now is. */
export type MovedNotifications = Map<string, { answer: string; row: ChangeSource }>;

export interface LocationMoved {
  threads: string[];
  notifications: MovedNotifications;
}

/** A thread is at a location when its locationId, or its location object's id, is the location's id. */
function isAt(r: Row, id: string): boolean {
  if (r.location_id === id) return true;
  if (typeof r.location !== 'string') return false;
  const location = JSON.parse(r.location) as { id?: unknown } | null;
  return location !== null && typeof location === 'object' && location.id === id;
}

/** The document's threads at the location, read again locked (PostgreSQL) in key order. */
function* threadsAt(document: DocumentKey, id: string): Work<Row[]> {
  const ids = (yield* all(SQL.locatedThreads, document)).filter((r) => isAt(r, id)).map((r) => r.annotation_id as string);
  if (ids.length === 0) return [];
  return (yield* all(SQL.lockThreads, { ...document, ids: list(ids) })).filter((r) => isAt(r, id));
}

/** A document, below its tenant. */
type DocumentKey = { tenantId: string; organizationId: string; documentId: string };

/**
 * locations/update: every thread of the document at `from` shows `to` (merged over its own location
 * object with `merge`, else replacing it), and its locationId, where it has one, becomes `to`'s id; the
 * document's notifications at `from` take `to`'s id. Threads' lastUpdated moves to now.
 */
export function* move(document: DocumentKey, m: LocationMove, now: number): Work<LocationMoved> {
  yield* enter(document.tenantId, document.organizationId, document.documentId, false);
  const threads = yield* threadsAt(document, m.from.id);
  for (const r of threads) {
    const own = typeof r.location === 'string' ? (JSON.parse(r.location) as Record<string, unknown>) : {};
    const location = JSON.stringify(m.merge ? { ...own, ...m.to } : m.to);
    // Merges grow a location: it may never hold more than a request could send.
    if (Buffer.byteLength(location) > m.mostBytes) throw tooLarge(r.annotation_id as string, m.mostBytes);
    yield* run(SQL.moveThread, {
      ...document,
      annotationId: r.annotation_id,
      location,
      locationId: r.location_id === null ? null : m.to.id,
      now,
    });
  }
  const ids = threads.map((r) => r.annotation_id as string);
  yield* renderThreads(document.tenantId, document.organizationId, document.documentId, ids);
  const notifications: MovedNotifications = new Map();
  if (m.to.id !== m.from.id) {
    for (const r of yield* all(SQL.notificationsAt, { ...document, locationId: m.from.id })) {
      const row = { ...sourceFrom(r, document.tenantId, document.organizationId), locationId: m.to.id };
      const answer = answerOfSource(row);
      const at = { ...document, notificationId: row.notificationId, locationId: m.to.id, answer };
      yield* run(SQL.moveNotification, at);
      yield* run(SQL.moveInbox, at);
      notifications.set(row.notificationId, { answer, row });
    }
  }
  return { threads: ids, notifications };
}

export interface LocationDataDeleted {
  threads: string[];
  notifications: string[];
}

const tooLarge = (annotationId: string, most: number) =>
  new Refusal(
    'INVALID_ARGUMENT',
    `The location of thread ${annotationId}, merged, would be more than ${most} bytes (MARGINALIA_BODY_LIMIT); ` +
      'nothing was written. Send merge: false to replace it.',
  );

/** What a location's data is: its threads, and the notifications at it or made by those threads' comments. */
export interface LocationData {
  threads: string[];
  /** The notifications/delete selections of its notifications: those at the location, and those the comments made. */
  notifications: NotificationDeletion[];
}

/**
 * locations/data/delete's first step: the document's threads at the location, locked, and the
 * notifications of the location. Threads are locked before notifications, as locations/update does.
 */
export function* locate(document: DocumentKey, id: string): Work<LocationData> {
  yield* enter(document.tenantId, document.organizationId, document.documentId, false);
  const threads = (yield* threadsAt(document, id)).map((r) => r.annotation_id as string);
  const ofDocument = { organizationId: document.organizationId, documentId: document.documentId, userId: null };
  const notifications: NotificationDeletion[] = [{ ...ofDocument, locationId: id, notificationIds: null }];
  // Notifications a comment of these threads made (triggerNotification) hold its text, and no location.
  const mine = new Set(threads);
  const made = (yield* all(SQL.commentNotifications, document)).filter((r) =>
    mine.has((JSON.parse(r.source_data as string) as { annotationId?: unknown }).annotationId as string),
  );
  if (made.length > 0)
    notifications.push({ ...ofDocument, locationId: null, notificationIds: made.map((r) => r.notification_id as string) });
  return { threads, notifications };
}

/**
 * locations/data/delete: the located threads, with their comments and read marks, and the located
 * notifications, for everyone. Answers the ids deleted.
 */
export function* removeData(document: DocumentKey, data: LocationData): Work<LocationDataDeleted> {
  if (data.threads.length > 0) {
    const these = { ...document, annotationIds: list(data.threads) };
    yield* run(THREADS_SQL.cascadeComments, these);
    yield* run(THREADS_SQL.cascadeReads, these);
    yield* run(THREADS_SQL.deleteThreads, these);
  }
  const notifications: string[] = [];
  for (const q of data.notifications) notifications.push(...(yield* removeNotifications(document.tenantId, q)));
  return { threads: data.threads, notifications };
}
