// The rule of docs/api.md "Comment ids", owned by the store because it must hold inside the thread's lock: the
// largest id is read and the new ids placed in one transaction.
import { MAX_COMMENT_ID } from '../../schemas/common.js';

export type CommentIdAssignment =
  | { kind: 'assigned'; commentIds: number[] }
  | { kind: 'clash'; commentId: number }
  | { kind: 'exhausted' };

/**
 * Generated ids follow the comments in order: each is one more than the largest id in the thread at
 * that point, counting ids this request already placed. A caller-chosen id that one of those took is a clash.
 */
export function assignCommentIds(requested: (number | undefined)[], largestExisting: number): CommentIdAssignment {
  let largest = largestExisting;
  const used = new Set<number>();
  const commentIds: number[] = [];
  for (const want of requested) {
    const id = want ?? largest + 1;
    if (id > MAX_COMMENT_ID) return { kind: 'exhausted' };
    if (used.has(id)) return { kind: 'clash', commentId: id };
    used.add(id);
    commentIds.push(id);
    largest = Math.max(largest, id);
  }
  return { kind: 'assigned', commentIds };
}
