// Store code of users/data/get (SPEC 12): a page of what one user wrote and received in an organization.
import { commentFrom } from '../comments/comments.js';
import { all, arrays, type Work } from '../sql.js';
import type { StoredNotification, UserDataCursor, UserDataPage } from '../store.js';
import { versionsOf } from '../select.js';
import { PERSONAL_DATA_SQL as SQL, UC, UN } from './sql.js';

/** "[]" (SQLite) and null (PostgreSQL) both say nobody. */
const noneIn = (readers: unknown): boolean => readers === null || readers === '[]';

/** The read marks of a row, as notifications/get lays them over its stored answer. */
function readersOf(listed: unknown, wide: unknown): [string, string | null][] | null {
  if (noneIn(listed) && noneIn(wide)) return null;
  return [
    ...(noneIn(listed) ? [] : (JSON.parse(listed as string) as string[]).map((u): [string, null] => [u, null])),
    ...(noneIn(wide) ? [] : (JSON.parse(wide as string) as [string, string][])),
  ];
}

function notificationFrom(r: unknown[]): StoredNotification {
  return {
    notificationId: r[UN.notificationId] as string,
    timestamp: Number(r[UN.timestamp]),
    actionUser: {
      userId: r[UN.actionUserId] as string,
      name: r[UN.actionUserName] as string | null,
      email: r[UN.actionUserEmail] as string | null,
    },
    ...versionsOf(r, UN),
    answer: r[UN.answer] as string,
    readers: readersOf(r[UN.listedReaders], r[UN.wideReaders]),
  };
}

/**
 * Up to `limit` comments and `limit` notifications after the cursor's positions (a list whose cursor
 * is null is done); one read, so both lists see the same moment.
 */
export function* userData(
  tenantId: string,
  organizationId: string,
  userId: string,
  cursor: UserDataCursor,
  limit: number,
): Work<UserDataPage> {
  const scope = { tenantId, organizationId, userId, limit };
  const comments = cursor.comments
    ? (yield* arrays(SQL.comments, {
        ...scope,
        afterDocument: cursor.comments.documentId,
        afterAnnotation: cursor.comments.annotationId,
        afterComment: cursor.comments.commentId,
      })).map((r) => ({
        documentId: r[UC.documentId] as string,
        annotationId: r[UC.annotationId] as string,
        comment: commentFrom(r, UC),
      }))
    : [];
  const notifications = cursor.notifications
    ? (yield* arrays(SQL.notifications, {
        ...scope,
        afterTimestamp: cursor.notifications.timestamp,
        afterId: cursor.notifications.notificationId,
      })).map(notificationFrom)
    : [];
  return { comments, notifications };
}

/** users/data/delete/status: the job, or null when the tenant has none by that id. */
export function* erasureJob(tenantId: string, jobId: string): Work<{ tasksCount: number; completedAt: number } | null> {
  const row = (yield* all(SQL.job, { tenantId, jobId }))[0];
  return row ? { tasksCount: Number(row.tasks_count), completedAt: Number(row.completed_at) } : null;
}
