// Notifications from comments (SPEC 11.7), written in the comment write's own transaction: one per
// affected user, as services/fan-out.ts decides from the thread's authors, the document's members and
// their inbox settings, each read once per write.
import { newNotificationAnswer } from '../../answers/notifications.js';
import { HEADLINES, recipientsOf } from '../../services/fan-out.js';
import { internalUserId, newNotificationId } from '../../services/ids.js';
import { all, list, same, type Work } from '../sql.js';
import type { SettingValue, UserRef } from '../store.js';
import type { Thread } from '../comments/comments.js';
import { add } from './notifications.js';
import { NOTIFICATIONS_SQL } from './sql.js';

/** A comment just written, as the fan-out sees it. */
export interface WrittenComment {
  commentId: number;
  /** Its place in the thread: authors of comments before it are its "earlier authors". */
  seq: number;
  author: UserRef;
  text: string;
  /** The userIds it tags. */
  mentioned: readonly string[];
}

const THREAD_AUTHORS = same(
  'threadAuthors',
  `SELECT from_user_id, min(seq) AS first_seq FROM comments
   WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
     AND annotation_id = @annotationId
   GROUP BY from_user_id`,
);

export function* notifyOfComments(thread: Thread, written: readonly WrittenComment[], now: number): Work<void> {
  if (written.length === 0) return;
  const authors = (yield* all(THREAD_AUTHORS, thread)).map((r) => ({
    userId: r.from_user_id as string,
    seq: Number(r.first_seq),
  }));
  const members = (yield* all(NOTIFICATIONS_SQL.documentMembers, thread)).map((r) => r.user_id as string);
  const candidates = new Set([...authors.map((a) => a.userId), ...members, ...written.flatMap((c) => c.mentioned)]);
  const settings = new Map(
    (yield* all(NOTIFICATIONS_SQL.inboxSettings, { ...thread, userIds: list([...candidates]) })).map((r) => [
      r.user_id as string,
      r.inbox as SettingValue,
    ]),
  );
  const settingOf = (userId: string): SettingValue => settings.get(userId) ?? 'MINE';
  for (const c of written) {
    const earlierAuthors = new Set(authors.filter((a) => a.seq < c.seq).map((a) => a.userId));
    for (const { userId, reason } of recipientsOf(
      { authorId: c.author.userId, mentioned: c.mentioned, earlierAuthors },
      members,
      settingOf,
    )) {
      const notification = {
        notificationId: newNotificationId(),
        documentId: thread.documentId,
        locationId: null,
        actionUser: c.author,
        headlineTemplate: HEADLINES[reason],
        // A user object: shown with the author's profile at read time, like actionUser (SPEC 7).
        headlineData: { actionUser: { userId: c.author.userId, name: c.author.name, email: c.author.email } },
        bodyMessage: c.text,
        sourceData: { annotationId: thread.annotationId, commentId: c.commentId, documentId: thread.documentId },
        timestamp: now,
        recipients: [{ userId, internalId: internalUserId(thread.tenantId, thread.organizationId, userId) }],
        notifyAll: false,
        source: 'comment' as const,
      };
      yield* add(thread.tenantId, thread.organizationId, { ...notification, answer: newNotificationAnswer(notification) });
    }
  }
}
