// The events of reactions/add and reactions/delete (events/drafts.ts). Streams carry them by document access, as a
// comment's events (events/stream-access.ts: the `comment.` types).
import { draft, json } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';
import type { ReactionChange } from './reactions.js';

/** comment.reaction_add or comment.reaction_delete, when the write changed something (an idempotent repeat: none). */
export const reactionChanged = (type: 'comment.reaction_add' | 'comment.reaction_delete', c: ReactionChange): EventDraft[] =>
  c.changed
    ? [
        draft(
          type,
          c.organizationId,
          c.documentId,
          json({
            annotationId: c.annotationId,
            commentId: c.commentId,
            reactionAnnotationId: c.reactionAnnotationId,
            icon: c.icon,
            userId: c.userId,
            count: c.count,
          }),
        ),
      ]
    : [];
