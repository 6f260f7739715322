// Store code of users/data/get (docs/api.md, "POST /v1/users/data/get"): a page of what one user wrote and received
// in an organization.
import { ofActor } from '../activities/activities.js';
import { commentFrom } from '../comments/comments.js';
import { notificationFrom } from '../notifications/notifications.js';
import { ofUser as reactionsOfUser } from '../reactions/reactions.js';
import { all, arrays, list, type Work } from '../sql.js';
import type { ErasureJob, UserDataCursor, UserDataPage } from '../../domain/personal-data.js';
import { PERSONAL_DATA_SQL as SQL, UC, UN } from './sql.js';

/**
 * Up to `limit` comments, `limit` notifications and `limit` activities after the cursor's positions (a list whose cursor
 * is null is done); one read, so the lists see the same moment.
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
      })).map((r) => notificationFrom(r, UN))
    : [];
  const archived =
    notifications.length > 0
      ? yield* all(SQL.archivedOf, { tenantId, organizationId, userId, ids: list(notifications.map((n) => n.notificationId)) })
      : [];
  const archivedNotificationIds = archived.map((r) => r.notification_id as string);
  const activities = cursor.activities ? yield* ofActor(tenantId, organizationId, userId, cursor.activities, limit) : [];
  const reactions = cursor.reactions ? yield* reactionsOfUser(tenantId, organizationId, userId, cursor.reactions, limit) : [];
  return { comments, notifications, archivedNotificationIds, activities, reactions };
}

/** The tenant's jobs, newest first, those older than `before` when it is given (the admin console pages them). */
export function* erasureJobs(tenantId: string, before: string | null, limit: number): Work<(ErasureJob & { jobId: string })[]> {
  const rows =
    before === null ? yield* all(SQL.latestJobs, { tenantId, limit }) : yield* all(SQL.jobsBefore, { tenantId, before, limit });
  return rows.map((r) => ({ jobId: String(r.job_id), tasksCount: Number(r.tasks_count), completedAt: Number(r.completed_at) }));
}

/** users/data/delete/status: the job, or null when the tenant has none by that id. */
export function* erasureJob(tenantId: string, jobId: string): Work<{ tasksCount: number; completedAt: number } | null> {
  const row = (yield* all(SQL.job, { tenantId, jobId }))[0];
  return row ? { tasksCount: Number(row.tasks_count), completedAt: Number(row.completed_at) } : null;
}
