// What a thread keeps of its newest comments so that unread counts need no walk of its comments
// (docs/api.md, "POST /v1/commentannotations/count/get"): a thread is unread by a user when a comment by someone
// else was created after the user's mark. The newest comment by anyone but u is `lastAt` when u did not write it,
// else `otherAt`, the newest comment by anyone but its author. Folding comments one at a time keeps the
// three exact in any order of creation times (an import may date comments before older ones).

export interface LatestComments {
  /** The newest createdAt (null: no comments). */
  lastAt: number | null;
  /** The author of a comment created at lastAt. */
  lastBy: string | null;
  /** The newest createdAt of a comment not by lastBy (null: none). */
  otherAt: number | null;
}

export const NO_COMMENTS: LatestComments = { lastAt: null, lastBy: null, otherAt: null };

const later = (a: number | null, b: number): number => (a === null || b > a ? b : a);

/** The state after one more comment, created at `at` by `by`. */
export function withComment(s: LatestComments, at: number, by: string): LatestComments {
  if (s.lastAt === null || s.lastBy === null) return { lastAt: at, lastBy: by, otherAt: null };
  if (by === s.lastBy) return at > s.lastAt ? { ...s, lastAt: at } : s;
  // By someone else: the old newest is now by another than the newest's author, or this one is.
  return at > s.lastAt ? { lastAt: at, lastBy: by, otherAt: s.lastAt } : { ...s, otherAt: later(s.otherAt, at) };
}

export const latestOf = (comments: readonly { createdAt: number; from: { userId: string } }[], from = NO_COMMENTS) =>
  comments.reduce((s, c) => withComment(s, c.createdAt, c.from.userId), from);

/** The newest comment not by `userId` (null: none). */
export const newestNotBy = (s: LatestComments, userId: string): number | null => (s.lastBy !== userId ? s.lastAt : s.otherAt);

const timeOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The state a thread row holds, its columns at `at`. */
export const latestFrom = (r: unknown[], at: { lastAt: number; lastBy: number; otherAt: number }): LatestComments => ({
  lastAt: timeOrNull(r[at.lastAt]),
  lastBy: (r[at.lastBy] as string | null) ?? null,
  otherAt: timeOrNull(r[at.otherAt]),
});
