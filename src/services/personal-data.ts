// A user's personal data (docs/api.md, "POST /v1/users/data/get"): users/data/get reads what the user wrote and
// received in an organization, a page at a time; users/data/delete erases it in every organization named (or all of
// the tenant's), in bounded batches, before it answers; users/data/delete/status reads the job back.
import { commentJson } from '../domain/answers/comments.js';
import { pageAnswer } from '../domain/answers/notifications.js';
import { resolvedAgainst } from '../domain/answers/users.js';
import { usersOf } from '../domain/answers/comments.js';
import { ApiError } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { UserDataDeleteData, UserDataGetData, UserDataStatusData } from '../schemas/personal-data.js';
import { DEFAULT_MOST_ROWS_PER_BATCH } from '../store/batches.js';
import type { UserDataCursor } from '../domain/personal-data.js';
import type { Caller, Services } from './context.js';
import { internalUserId, newErasureJobId, timeOrderedUuid } from '../domain/ids.js';
import { activityJson, erasureActivity, SERVER_ACTOR } from '../domain/activities.js';
import { decodeUserDataToken, encodeUserDataToken, filterDigest } from './page-token.js';
import { filterList } from './rules.js';
import { reactionAnnotationId, type StoredReaction } from '../domain/reactions.js';

/** A reaction in users/data/get (docs/api.md, "POST /v1/users/data/get"): where it is, its icon, and when. */
const reactionJson = (r: StoredReaction): string =>
  JSON.stringify({
    reactionAnnotationId: reactionAnnotationId(r, r.icon),
    icon: r.icon,
    userId: r.userId,
    documentId: r.documentId,
    annotationId: r.annotationId,
    commentId: r.commentId,
    createdAt: r.createdAt,
  });

/** At most 100 of each list a page (docs/api.md, "POST /v1/users/data/get"). */
export const USER_DATA_PAGE_SIZE = 100;

const FROM_START: UserDataCursor = {
  comments: { documentId: '', annotationId: '', commentId: 0 },
  notifications: { timestamp: Number.MAX_SAFE_INTEGER, notificationId: '' },
  activities: { timestamp: Number.MAX_SAFE_INTEGER, activityId: '' },
  reactions: { documentId: '', annotationId: '', commentId: 0, icon: '' },
};

/** users/data/get's data as JSON text, and the token of the next page while either list has more. */
export function getUserData(
  { store, profiles }: Services,
  caller: Caller,
  input: UserDataGetData,
): Maybe<{ dataJson: string; nextPageToken: string | null }> {
  const { organizationId, userId } = input;
  const digest = filterDigest(['users/data/get', organizationId, userId]);
  const cursor = input.pageToken != null ? decodeUserDataToken(input.pageToken, digest) : FROM_START;
  const limit = USER_DATA_PAGE_SIZE;
  return then(store.getUserData(caller.id, organizationId, userId, cursor, limit + 1), (rows) => {
    const comments = rows.comments.slice(0, limit);
    const notifications = rows.notifications.slice(0, limit);
    const lastComment = comments[comments.length - 1];
    const lastNotification = notifications[notifications.length - 1];
    const activities = rows.activities.slice(0, limit);
    const lastActivity = activities[activities.length - 1];
    const reactions = rows.reactions.slice(0, limit);
    const lastReaction = reactions[reactions.length - 1];
    const next: UserDataCursor = {
      comments:
        rows.comments.length > limit && lastComment
          ? {
              documentId: lastComment.documentId,
              annotationId: lastComment.annotationId,
              commentId: lastComment.comment.commentId,
            }
          : null,
      notifications:
        rows.notifications.length > limit && lastNotification
          ? { timestamp: lastNotification.timestamp, notificationId: lastNotification.notificationId }
          : null,
      activities:
        rows.activities.length > limit && lastActivity
          ? { timestamp: lastActivity.createdAt, activityId: lastActivity.activityId }
          : null,
      reactions:
        rows.reactions.length > limit && lastReaction
          ? {
              documentId: lastReaction.documentId,
              annotationId: lastReaction.annotationId,
              commentId: lastReaction.commentId,
              icon: lastReaction.icon,
            }
          : null,
    };
    const nextPageToken =
      next.comments || next.notifications || next.activities || next.reactions ? encodeUserDataToken(next, digest) : null;
    const answer = pageAnswer(caller, organizationId, notifications, (u) => internalUserId(caller.id, organizationId, u));
    const read = [...comments.map((c) => c.comment), ...notifications];
    const users = [
      ...comments.flatMap((c) => usersOf(c.comment)),
      ...notifications.map((n) => n.actionUser.userId),
      ...answer.users,
    ];
    return then(profiles.forRows(caller.id, organizationId, read, users), (shown) => {
      const user = resolvedAgainst(shown);
      const commentsJson = comments.map(
        (c) =>
          `${commentJson(c.comment, user).slice(0, -1)},"annotationId":${JSON.stringify(c.annotationId)}` +
          `,"documentId":${JSON.stringify(c.documentId)}}`,
      );
      // recordings: the original service's page lists them; none are kept here. Reactions as reactionJson shows them.
      // The activities the user did (docs/decisions.md, "Activities"), as activities/get shows them: a member
      // only where there are some, so the answers of tenants that keep none stay the original page's.
      const activitiesJson =
        activities.length > 0 ? `,"activities":[${activities.map((r) => activityJson(r, caller.apiKey)).join(',')}]` : '';
      // The notifications of the page the user archived (docs/api.md, "POST /v1/users/data/get"): only where there
      // are some, as activities.
      const onPage = new Set(notifications.map((n) => n.notificationId));
      const archived = rows.archivedNotificationIds.filter((id) => onPage.has(id)).sort();
      const archivedJson = archived.length > 0 ? `,"archivedNotificationIds":${JSON.stringify(archived)}` : '';
      const dataJson =
        `{"comments":[${commentsJson.join(',')}],"reactions":[${reactions.map(reactionJson).join(',')}],"recordings":[]` +
        `,"notifications":${answer.render(shown)}${archivedJson}${activitiesJson}}`;
      return { dataJson, nextPageToken };
    });
  });
}

/**
 * users/data/delete: the users' data in the organizations named (none: every organization of the
 * tenant), erased before the answer, in transactions of at most `erasureBatchSize` rows. Not refused
 * under a disabled organization: erasure is a legal obligation (docs/decisions.md).
 */
export async function deleteUserData(
  { store, clock, erasureBatchSize }: Services,
  caller: Caller,
  input: UserDataDeleteData,
): Promise<{ jobId: string; tasksCount: number }> {
  const jobId = newErasureJobId();
  const listed = filterList(input.organizationIds);
  const organizationIds = listed && [...new Set(listed)];
  const userIds = [...new Set(input.userIds)];
  // The erasure is an activity of the tenant's (docs/decisions.md, "Activities"), naming none of the users.
  const activity = erasureActivity(timeOrderedUuid(clock()), SERVER_ACTOR, jobId, userIds.length, organizationIds);
  const tasksCount = await store.eraseUserData(
    caller.id,
    organizationIds,
    userIds,
    erasureBatchSize ?? DEFAULT_MOST_ROWS_PER_BATCH,
    { jobId, now: clock, activity },
  );
  return { jobId, tasksCount };
}

/** The tenant's erasure jobs, newest first, a page of `limit` older than the job `before` (the admin console). */
export function listErasureJobs({ store }: Services, caller: Caller, before: string | null, limit: number) {
  return store.erasureJobs(caller.id, before, limit);
}

/** users/data/delete/status: every job is complete when it is answered; an unknown one is NOT_FOUND. */
export function erasureStatus({ store }: Services, caller: Caller, input: UserDataStatusData) {
  return then(store.erasureJob(caller.id, input.jobId), (job) => {
    if (!job) throw new ApiError('NOT_FOUND', `Data deletion job ${input.jobId} does not exist.`);
    return { isDeleteCompleted: true, tasksLeft: 0, lastTaskCompletedTime: job.completedAt };
  });
}
