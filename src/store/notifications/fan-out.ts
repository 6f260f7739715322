// Notifications from comments (docs/api.md, "Notifications from comments (triggerNotification)"), written in the
// comment write's own transaction: one per affected user per write, as services/fan-out.ts decides from the
// document's members, their inbox settings and (for comments/add, the only write that makes replies) the thread's
// earlier authors, each read once per write; and only where the workspace's notification service lets
// the write's kind fan out (its comment triggers, while it is on: domain/service-settings.ts).
import { newNotificationAnswer } from '../../domain/answers/notifications.js';
import { HEADLINES, recipientsOf } from '../../domain/fan-out.js';
import { type CommentTrigger, commentTriggerAllows } from '../../domain/service-settings.js';
import { stored as storedServiceSetting } from '../service-settings/settings.js';
import { internalUserId, newNotificationId } from '../../domain/ids.js';
import { all, inKeyOrder, list, type Work } from '../sql.js';
import type { SettingValue } from '../../domain/notifications.js';
import type { UserRef } from '../../domain/users.js';
import { add } from './notifications.js';
import { NOTIFICATIONS_SQL } from './sql.js';

/** A comment just written, as the fan-out sees it. */
export interface WrittenComment {
  annotationId: string;
  commentId: number;
  /** Its place in its thread: authors of comments before it are its "earlier authors". */
  seq: number;
  author: UserRef;
  text: string;
  /** The userIds it tags. */
  mentioned: readonly string[];
}

/** Where a write's comments are: one document of one organization. */
export interface WriteScope {
  tenantId: string;
  organizationId: string;
  documentId: string;
}

/**
 * `kind`: the write's trigger in the notification service's terms. `added` is comments/add, whose comments
 * reply to the thread's earlier authors; `newlyAdded` a thread's first comments; `updated` an edit.
 */
export function* notifyOfComments(
  scope: WriteScope,
  written: readonly WrittenComment[],
  now: number,
  kind: CommentTrigger,
): Work<void> {
  if (written.length === 0) return;
  if (!commentTriggerAllows(yield* storedServiceSetting(scope.tenantId, 'notification'), kind)) return;
  const replies = kind === 'added';
  const authorsOf = new Map<string, { userId: string; seq: number }[]>();
  if (replies) {
    for (const annotationId of new Set(written.map((c) => c.annotationId))) {
      const rows = yield* all(NOTIFICATIONS_SQL.threadAuthors, { ...scope, annotationId });
      authorsOf.set(
        annotationId,
        rows.map((r) => ({ userId: r.from_user_id as string, seq: Number(r.first_seq) })),
      );
    }
  }
  // Only members whose setting is ALL can be told of a comment as members: the database picks them.
  const members = (yield* all(NOTIFICATIONS_SQL.membersWithAll, { ...scope })).map((r) => r.user_id as string);
  const candidates = new Set([...[...authorsOf.values()].flat().map((a) => a.userId), ...written.flatMap((c) => c.mentioned)]);
  const settings = new Map<string, SettingValue>(members.map((u) => [u, 'ALL']));
  if (candidates.size > 0) {
    // The organization-level settings come first (documentId ''), so a document's own overrides them.
    for (const r of yield* all(NOTIFICATIONS_SQL.inboxSettings, { ...scope, userIds: list([...candidates]) })) {
      settings.set(r.user_id as string, r.inbox as SettingValue);
    }
  }
  const events = written.map((c) => ({
    authorId: c.author.userId,
    mentioned: c.mentioned,
    earlierAuthors: new Set((authorsOf.get(c.annotationId) ?? []).filter((a) => a.seq < c.seq).map((a) => a.userId)),
  }));
  // In userId order, so two writers lock the users' counters in the same order (PostgreSQL).
  const recipients = inKeyOrder(
    recipientsOf(events, members, (u) => settings.get(u) ?? 'MINE'),
    (r) => r.userId,
  );
  for (const { userId, reason, comment } of recipients) {
    const c = written[comment]!;
    const notification = {
      notificationId: newNotificationId(),
      documentId: scope.documentId,
      locationId: null,
      actionUser: c.author,
      headlineTemplate: HEADLINES[reason],
      // A user object: shown with the author's profile at read time, like actionUser (docs/api.md,
      // "User objects in a notification").
      headlineData: { actionUser: { userId: c.author.userId, name: c.author.name, email: c.author.email } },
      bodyMessage: c.text,
      sourceData: { annotationId: c.annotationId, commentId: c.commentId, documentId: scope.documentId },
      timestamp: now,
      recipients: [{ userId, internalId: internalUserId(scope.tenantId, scope.organizationId, userId) }],
      notifyAll: false,
      source: 'comment' as const,
    };
    // One recipient: its inbox row keeps the answer's one copy, whatever MARGINALIA_INBOX_ANSWER_COPIES says of more.
    yield* add(scope.tenantId, scope.organizationId, { ...notification, answer: newNotificationAnswer(notification) }, 1);
  }
}
