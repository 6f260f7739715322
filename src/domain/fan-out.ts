// Who a comment write notifies (docs/api.md, "Notifications from comments (triggerNotification)"): the rule alone,
// with no storage, so it reads as the contract (docs/api.md) does.
import type { SettingValue } from './notifications.js';

export type FanOutReason = 'mention' | 'reply' | 'member';

/** A comment of the write, as the rule sees it. */
export interface CommentEvent {
  authorId: string;
  mentioned: readonly string[];
  /** Authors of the thread's comments before this one; empty where the write makes no replies. */
  earlierAuthors: ReadonlySet<string>;
}

const RANK: Record<FanOutReason, number> = { mention: 0, reply: 1, member: 2 };

/**
 * One notification per affected user per write (docs/api.md, "Notifications from comments (triggerNotification)"),
 * never to the comment's author: mentioned users whose inbox setting for the document is not NONE, earlier authors
 * of the thread whose setting is MINE or ALL, document members whose setting is ALL. A user never set is MINE. A
 * user affected several ways is told of the strongest reason (mention, then reply, then membership), by the first
 * comment of the write that gives it.
 */
export function recipientsOf(
  comments: readonly CommentEvent[],
  members: readonly string[],
  settingOf: (userId: string) => SettingValue,
): { userId: string; reason: FanOutReason; comment: number }[] {
  const out = new Map<string, { reason: FanOutReason; comment: number }>();
  comments.forEach((c, comment) => {
    const consider = (userId: string, reason: FanOutReason, wants: (s: SettingValue) => boolean) => {
      if (userId === c.authorId || !wants(settingOf(userId))) return;
      const held = out.get(userId);
      if (!held || RANK[reason] < RANK[held.reason]) out.set(userId, { reason, comment });
    };
    for (const u of c.mentioned) consider(u, 'mention', (s) => s !== 'NONE');
    for (const u of c.earlierAuthors) consider(u, 'reply', (s) => s === 'MINE' || s === 'ALL');
    for (const u of members) consider(u, 'member', (s) => s === 'ALL');
  });
  return [...out].map(([userId, r]) => ({ userId, ...r }));
}

/** The headline each reason gets; `{actionUser}` is the comment's author. */
export const HEADLINES: Record<FanOutReason, string> = {
  mention: '{actionUser} mentioned you',
  reply: '{actionUser} replied to a thread you commented on',
  member: '{actionUser} commented on a document',
};
