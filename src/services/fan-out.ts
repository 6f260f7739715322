// Who a comment notifies (SPEC 11.7): the rule alone, with no storage, so it reads as the SPEC does.
import type { SettingValue } from '../store/store.js';

export type FanOutReason = 'mention' | 'reply' | 'member';

/** What a comment notifies of: its author, who it mentions, and where it stands in its thread. */
export interface CommentEvent {
  authorId: string;
  mentioned: readonly string[];
  /** Authors of the thread's comments before this one. */
  earlierAuthors: ReadonlySet<string>;
}

/**
 * One notification per affected user other than the author, for the first reason that applies:
 * mentioned users whose inbox setting for the document is not NONE, earlier authors of the thread
 * whose setting is MINE or ALL, document members whose setting is ALL. A user never set is MINE.
 */
export function recipientsOf(
  event: CommentEvent,
  members: readonly string[],
  settingOf: (userId: string) => SettingValue,
): { userId: string; reason: FanOutReason }[] {
  const out = new Map<string, FanOutReason>();
  const consider = (userId: string, reason: FanOutReason, wants: (s: SettingValue) => boolean) => {
    if (userId === event.authorId || out.has(userId) || !wants(settingOf(userId))) return;
    out.set(userId, reason);
  };
  for (const u of event.mentioned) consider(u, 'mention', (s) => s !== 'NONE');
  for (const u of event.earlierAuthors) consider(u, 'reply', (s) => s === 'MINE' || s === 'ALL');
  for (const u of members) consider(u, 'member', (s) => s === 'ALL');
  return [...out].map(([userId, reason]) => ({ userId, reason }));
}

/** The headline each reason gets; `{actionUser}` is the comment's author. */
export const HEADLINES: Record<FanOutReason, string> = {
  mention: '{actionUser} mentioned you',
  reply: '{actionUser} replied to a thread you commented on',
  member: '{actionUser} commented on a document',
};
