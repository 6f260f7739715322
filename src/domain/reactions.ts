// Reactions on comments (docs/api.md, "Reactions"): what an icon may be, the id of a comment's reaction to one
// icon, and the reactions of a comment as /v2's pages show them (reactionAnnotationIds, reactionAnnotations).
import emojiRegex from 'emoji-regex';
import { sha256 } from './sha256.js';

import { MAX_REACTION_ICON_LENGTH } from '../schemas/reactions.js';

export { MAX_REACTION_ICON_LENGTH };
export const DEFAULT_REACTION_ICON_MAX_LENGTH = 64;
export const DEFAULT_MAX_REACTIONS_PER_COMMENT = 1000;
export const MAX_REACTIONS_PER_COMMENT = 100_000;
export const DEFAULT_MAX_REACTION_ICONS_PER_COMMENT = 50;
export const MAX_REACTION_ICONS_PER_COMMENT = 1000;

/** An icon name as the original's pages show them (RAISED_HANDS, HEART_FACE): capitals, digits and underscores. */
const ICON_NAME = /^[A-Z][A-Z0-9_]*$/;
/** One emoji sequence, whole (a ZWJ family, a skin tone, a flag, a keycap): emoji-regex's, anchored. */
const EMOJI = new RegExp(`^(?:${emojiRegex().source})$`, emojiRegex().flags.replace('g', ''));

/** Whether `icon` is one emoji sequence or an icon name (length is the caller's setting to check). */
export const isReactionIcon = (icon: string): boolean => ICON_NAME.test(icon) || EMOJI.test(icon);

/** Where a comment is. */
export interface CommentKey {
  organizationId: string;
  documentId: string;
  annotationId: string;
  commentId: number;
}

/**
 * The id of a comment's reaction to an icon (its `annotationId` in reactionAnnotations): the same for every user who
 * reacts with it, and again after it was removed and added again; a digest, as icons may be any emoji.
 */
export const reactionAnnotationId = (k: Omit<CommentKey, 'organizationId'>, icon: string): string =>
  `reaction-${sha256(JSON.stringify([k.documentId, k.annotationId, k.commentId, icon]), 'base64url').slice(0, 22)}`;

/** One user's reaction, as stored. */
export interface StoredReaction {
  documentId: string;
  annotationId: string;
  commentId: number;
  icon: string;
  userId: string;
  createdAt: number;
}

/** A comment's reactions, by icon in the order first added, each with its users in the order they reacted. */
export function groupedByIcon(reactions: readonly StoredReaction[]): Map<string, StoredReaction[]> {
  const sorted = [...reactions].sort((a, b) => a.createdAt - b.createdAt || (a.userId < b.userId ? -1 : 1));
  const byIcon = new Map<string, StoredReaction[]>();
  for (const r of sorted) {
    const held = byIcon.get(r.icon);
    if (held) held.push(r);
    else byIcon.set(r.icon, [r]);
  }
  return byIcon;
}

type Json = Record<string, unknown>;

/**
 * A comment's reactionAnnotationIds and reactionAnnotations, as /v2's pages show them: one annotation per icon with
 * `fromUsers` (each user as `user` shows them, with when they reacted), and `count`, the number of users (an
 * extension: the pages' clients count fromUsers). `lastUpdated` is the latest reaction's time.
 */
export function reactionMembers(
  comment: Omit<CommentKey, 'organizationId'>,
  reactions: readonly StoredReaction[],
  user: (userId: string) => Json,
): { reactionAnnotationIds: string[]; reactionAnnotations: Json[] } {
  const annotations = [...groupedByIcon(reactions)].map(([icon, rs]) => ({
    annotationId: reactionAnnotationId(comment, icon),
    type: 'reaction',
    icon,
    commentAnnotationId: comment.annotationId,
    lastUpdated: Math.max(...rs.map((r) => r.createdAt)),
    count: rs.length,
    fromUsers: rs.map((r) => ({ lastUpdated: r.createdAt, from: user(r.userId) })),
  }));
  return { reactionAnnotationIds: annotations.map((a) => a.annotationId), reactionAnnotations: annotations };
}

/** The key of a comment in maps of reactions. */
export const commentKeyOf = (documentId: string, annotationId: string, commentId: number): string =>
  JSON.stringify([documentId, annotationId, commentId]);
