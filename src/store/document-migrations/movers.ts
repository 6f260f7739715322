// What a document migration moves (docs/decisions.md, "Document migration"): one mover per table keyed by
// document id, each moving at most `limit` rows a batch. THE place to add a table that a new feature keys by
// document id (activities, presence, ...): a mover at the end of MOVERS, and the job moves it too; a job
// under way when the list grows meets the new mover at its end, and the end of every job moves what any
// mover has left (document-migrations.ts, finish).
//
// Order: what a reader sees of a thread moves before the thread (its comments, its read marks), so that a
// thread listed under the new id is whole there; the thread's row carries its stored answer, comments
// included, so commentannotations/get shows each thread whole under one id or the other at every moment.
// A notification moves with its inbox rows and read marks, in one batch.
import { randomInt } from 'node:crypto';
import { headDocumentPiece } from '../../domain/answers/annotations.js';
import { answerDocumentPiece } from '../../domain/answers/notifications.js';
import { all, list, run, type Statement, type Work } from '../sql.js';
import { MIGRATIONS_SQL as SQL } from './sql.js';

/** A document and the id it moves to. */
export type MoveScope = {
  tenantId: string;
  organizationId: string;
  documentId: string;
  newDocumentId: string;
};

/** A batch's outcome: rows moved (all tables), and whether the mover found fewer than its limit (nothing is left). */
export interface Moved {
  rows: number;
  done: boolean;
}

export interface Mover {
  /** The tables whose rows it moves. */
  tables: readonly string[];
  move(at: MoveScope, limit: number): Work<Moved>;
}

/** A table whose rows carry the document id and nothing else that names it. */
const rows = (table: string, statement: Statement): Mover => ({
  tables: [table],
  *move(at, limit) {
    const n = yield* run(statement, { ...at, limit });
    return { rows: n, done: n < limit };
  },
});

/** Threads: the id in their stored answers too, and the source's thread version moved (sql.ts moveVersion). */
const threads: Mover = {
  tables: ['annotations'],
  *move(at, limit) {
    const from = headDocumentPiece(at.organizationId, at.documentId);
    const to = headDocumentPiece(at.organizationId, at.newDocumentId);
    const n = yield* run(SQL.moveThreads, { ...at, from, to, limit });
    if (n > 0) yield* run(SQL.moveVersion, { ...at, version: randomInt(2 ** 47) });
    return { rows: n, done: n < limit };
  },
};

/** Notifications, `limit` a batch, each with its inbox rows (their answers' copies) and read marks. */
const notifications: Mover = {
  tables: ['notifications', 'inbox', 'notification_reads', 'notification_archives'],
  *move(at, limit) {
    const ids = (yield* all(SQL.someNotifications, { ...at, limit })).map((r) => String(r.notification_id));
    if (ids.length === 0) return { rows: 0, done: true };
    const moving = { ...at, ids: list(ids), from: answerDocumentPiece(at.documentId), to: answerDocumentPiece(at.newDocumentId) };
    let n = yield* run(SQL.moveNotifications, moving);
    n += yield* run(SQL.moveInbox, moving);
    n += yield* run(SQL.moveNotificationReads, moving);
    n += yield* run(SQL.moveNotificationArchives, moving);
    return { rows: n, done: ids.length < limit };
  },
};

/** Every mover, in the order a job runs them; its step is the index here. */
export const MOVERS: readonly Mover[] = [
  rows('memberships', SQL.moveMemberships),
  rows('notification_settings', SQL.moveRows('migrateSomeNotificationSettings', 'notification_settings')),
  rows('live_states', SQL.moveRows('migrateSomeLiveStates', 'live_states')),
  rows('comments', SQL.moveRows('migrateSomeComments', 'comments')),
  rows('annotation_reads', SQL.moveRows('migrateSomeThreadReads', 'annotation_reads')),
  threads,
  notifications,
  rows('presence', SQL.moveRows('migrateSomePresence', 'presence')),
  // Last, so the step of a job begun before migration 40 still names the same mover.
  rows('access_roles', SQL.moveRoles),
  // Mails waiting (migration 43): their digest groups by the document, so it names the new id.
  rows('email_outbox', SQL.moveRows('migrateSomeMails', 'email_outbox')),
];

/**
 * The tables keyed by document id that a migration does not move (docs/decisions.md, "Document migration"):
 * the documents' own rows (the start makes the new one, the end deletes the old), the job itself, the
 * thread versions (they only ever change, never move: caches are keyed by them), and the logs of what
 * happened under the old id: the events, and the activities (which may be immutable: a log is not
 * rewritten). A test fails on a table with a document_id that is in neither list.
 */
export const NOT_MOVED = [
  'documents',
  'document_migrations',
  'document_versions',
  'events',
  'event_drafts',
  'activities',
] as const;

/**
 * The counters the triggers of inbox, notification_reads and notifications keep (migration 12), the search index's
 * keys, which the triggers of comments keep (migration 44), comments' reactions, which a trigger moves with their
 * comment (migration 45), and attachments, which migration 46's trigger moves with their comment (an upload no
 * comment holds stays, and goes with the source's row: docs/decisions.md, "Attachments (issue 41)"): they follow the
 * rows.
 */
export const FOLLOW_THEIR_ROWS = [
  'inbox_counts',
  'wide_counts',
  'comment_search_keys',
  'comment_reactions',
  'attachments',
] as const;
