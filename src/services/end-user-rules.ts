// What each operation open to end users (docs/api.md, "End users") makes of an end-user request's data before its
// service runs: the organization must be the token's, the user the token's own, the documents ones the user may read
// (or, to write, edit), and what the user writes is theirs whatever `from` says. A rule answers the data the
// service then runs with, or throws PERMISSION_DENIED; an operation without a rule is closed to end users.
import { type Maybe, then } from '../maybe.js';
import type {
  AnnotationsAddData,
  AnnotationsCountData,
  AnnotationsGetData,
  AnnotationsReadData,
  AnnotationsSearchData,
  CommentsAddData,
  CommentsDeleteData,
  CommentsGetData,
  CommentsUpdateData,
} from '../schemas/comments.js';
import type {
  NotificationsCountData,
  NotificationsGetData,
  NotificationsArchiveData,
  NotificationsReadData,
  NotificationsUnarchiveData,
  NotificationsUpdateData,
} from '../schemas/notifications.js';
import type { ReactionData } from '../schemas/reactions.js';
import type { SearchGetData } from '../schemas/search.js';
import type { Services } from './context.js';
import { authorOf, denied, type EndUser, organizationOf, ownUserId, requireAccess } from './end-users.js';

/** An operation's rule for end users: the data its service runs with. */
export type EndUserRule<Data> = (services: Services, user: EndUser, data: Data) => Maybe<Data>;

/** `data` once `check` has passed. */
const after = <T>(check: Maybe<void>, data: T): Maybe<T> => then(check, () => data);

/** A comment as the user writes it: by the token's user, at the server's time (history is the server's to import). */
const asWritten = <C extends { from: unknown; createdAt?: unknown; lastUpdated?: unknown }>(user: EndUser, c: C): C => {
  const { createdAt: _c, lastUpdated: _u, ...rest } = c;
  return { ...rest, from: authorOf(user) } as C;
};

// --- threads and comments: reads ---

export const annotationsGet: EndUserRule<AnnotationsGetData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  return after(requireAccess(services, user, organizationId, [data.documentId], 'read'), { ...data, organizationId });
};

/** /v2's read across documents: an end user names the documents (docs/decisions.md, "End users"). */
export const annotationsSearch: EndUserRule<AnnotationsSearchData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  const documentIds = [...(data.documentId != null ? [data.documentId] : []), ...(data.documentIds ?? [])];
  if (documentIds.length === 0)
    throw denied('An end-user token reads the threads of the documents it names: give data.documentId or data.documentIds.');
  return after(requireAccess(services, user, organizationId, documentIds, 'read'), { ...data, organizationId });
};

export const annotationsCount: EndUserRule<AnnotationsCountData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  const userId = ownUserId(user, data.userId);
  return after(requireAccess(services, user, organizationId, data.documentIds, 'read'), { ...data, organizationId, userId });
};

export const commentsGet: EndUserRule<CommentsGetData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  return after(requireAccess(services, user, organizationId, [data.documentId], 'read'), { ...data, organizationId });
};

/** Marking threads read: the user's own read state, on a document they may read. */
export const annotationsRead: EndUserRule<AnnotationsReadData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  const userId = ownUserId(user, data.userId);
  return after(requireAccess(services, user, organizationId, [data.documentId], 'read'), { ...data, organizationId, userId });
};

// --- threads and comments: writes (an editor's) ---

export const annotationsAdd: EndUserRule<AnnotationsAddData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  return after(requireAccess(services, user, organizationId, [data.documentId], 'write'), {
    ...data,
    organizationId,
    commentAnnotations: data.commentAnnotations.map(({ createdAt: _c, lastUpdated: _u, ...a }) => ({
      ...a,
      commentData: a.commentData.map((c) => asWritten(user, c)),
    })),
  });
};

export const commentsAdd: EndUserRule<CommentsAddData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  return after(requireAccess(services, user, organizationId, [data.documentId], 'write'), {
    ...data,
    organizationId,
    commentData: data.commentData.map((c) => asWritten(user, c)),
  });
};

/**
 * The comments named, when each that exists is the user's own (one that does not is the service's to answer).
 * Named: an end user never changes "every comment of the thread", which is what no ids means.
 */
function ownComments(
  services: Services,
  user: EndUser,
  data: { organizationId: string; documentId: string; annotationId: string; commentIds?: number[] | null | undefined },
): Maybe<void> {
  const commentIds = data.commentIds ?? [];
  if (commentIds.length === 0) throw denied('An end-user token changes the comments it names, its own: give data.commentIds.');
  const query = { ...data, userIds: null, commentIds: [...commentIds] };
  return then(services.store.getComments(user.tenantId, query), (found) => {
    const other = found.find((c) => c.from.userId !== user.userId);
    if (other) throw denied(`Comment ${other.commentId} is not the user's own: an end user changes only their own comments.`);
  });
}

export const commentsUpdate: EndUserRule<CommentsUpdateData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  const { from: _from, ...updatedData } = data.updatedData;
  const own = { ...data, organizationId, updatedData };
  return then(requireAccess(services, user, organizationId, [data.documentId], 'write'), () =>
    after(ownComments(services, user, own), own),
  );
};

export const commentsDelete: EndUserRule<CommentsDeleteData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  const own = { ...data, organizationId };
  return then(requireAccess(services, user, organizationId, [data.documentId], 'write'), () =>
    after(ownComments(services, user, own), own),
  );
};

/** Reactions (docs/api.md, "Reactions"): the user's own, on comments of documents they may read. */
export const reactions: EndUserRule<ReactionData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  const userId = ownUserId(user, data.userId);
  return after(requireAccess(services, user, organizationId, [data.documentId], 'read'), { ...data, organizationId, userId });
};

// --- the user's inbox: theirs whatever its documents (docs/decisions.md, "End users") ---

export const notificationsGet: EndUserRule<NotificationsGetData> = (_services, user, data) => ({
  ...data,
  organizationId: organizationOf(user, data.organizationId),
  userId: ownUserId(user, data.userId),
});

export const notificationsCount: EndUserRule<NotificationsCountData> = (_services, user, data) => ({
  ...data,
  organizationId: organizationOf(user, data.organizationId),
  userId: ownUserId(user, data.userId),
});

export const notificationsRead: EndUserRule<NotificationsReadData> = (_services, user, data) => ({
  ...data,
  organizationId: organizationOf(user, data.organizationId),
  userId: ownUserId(user, data.userId),
});

/** An end user archives and unarchives only their own notifications (docs/api.md, "End users"). */
export const notificationsArchive: EndUserRule<NotificationsArchiveData> = (_services, user, data) => ({
  ...data,
  organizationId: organizationOf(user, data.organizationId),
  userId: ownUserId(user, data.userId),
});

export const notificationsUnarchive: EndUserRule<NotificationsUnarchiveData> = (_services, user, data) => ({
  ...data,
  organizationId: organizationOf(user, data.organizationId),
  userId: ownUserId(user, data.userId),
});

/** What notifications/update lets an end user change: their own read state, and nothing of the notification. */
const READ_STATE = new Set(['id', 'readByUserIds', 'unreadByUserIds', 'persistReadForUsers']);

export const notificationsUpdate: EndUserRule<NotificationsUpdateData> = (_services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  data.notifications.forEach((n, i) => {
    const other = Object.keys(n).find((k) => !READ_STATE.has(k));
    if (other !== undefined)
      throw denied(`data.notifications[${i}].${other}: an end user changes only their own read state of a notification.`);
    for (const field of ['readByUserIds', 'unreadByUserIds'] as const)
      (n[field] ?? []).forEach((id, j) => {
        ownUserId(user, id, `data.notifications[${i}].${field}[${j}]`);
      });
  });
  return { ...data, organizationId };
};

/**
 * search/get: the comments of the documents the user names, each one they may read, and the notifications of their own
 * inbox (docs/decisions.md, "Search (issue 41)").
 */
export const searchGet: EndUserRule<SearchGetData> = (services, user, data) => {
  const organizationId = organizationOf(user, data.organizationId);
  const recipientUserId = ownUserId(user, data.recipientUserId, 'data.recipientUserId');
  const documentIds = data.documentIds ?? [];
  const comments = data.kinds == null || data.kinds.includes('comment');
  if (comments && documentIds.length === 0)
    throw denied(
      'An end-user token searches the comments of the documents it names: give data.documentIds, or data.kinds ["notification"].',
    );
  const own = { ...data, organizationId, recipientUserId };
  return documentIds.length === 0 ? own : after(requireAccess(services, user, organizationId, documentIds, 'read'), own);
};
