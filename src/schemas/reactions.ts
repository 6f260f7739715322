// The request data and answers of comments' reactions: reactions/add and reactions/delete, extensions under /v1 and
// /v2 (docs/api.md, "Reactions").
import Type from 'typebox';
import { CommentId, Id, OrganizationOrNone, RequestBody, type DataOf, type InputLimits } from './common.js';
import { Success } from './responses.js';

/** The longest icon the MARGINALIA_REACTION_ICON_MAX_LENGTH setting may allow, in UTF-16 code units. */
export const MAX_REACTION_ICON_LENGTH = 256;

const Icon = Type.String({
  minLength: 1,
  maxLength: MAX_REACTION_ICON_LENGTH,
  description:
    'One Unicode emoji sequence (👍, 👍🏽, 👨‍👩‍👧, 🇫🇷) or an icon name of capitals, digits and underscores (RAISED_HANDS), ' +
    'at most MARGINALIA_REACTION_ICON_MAX_LENGTH UTF-16 code units',
});

/** reactions/add and reactions/delete: one user's reaction with one icon to one comment. */
export const ReactionBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Id,
      annotationId: Id,
      commentId: CommentId,
      icon: Icon,
      userId: Type.Optional(
        Type.Union([Id, Type.Null()], { description: "Who reacts: required with server credentials; an end user's own" }),
      ),
    }),
  );
export type ReactionData = DataOf<typeof ReactionBody>;

/** The answer: per icon (the one named), as the per-item answers of comments/delete, with the icon's count after. */
export const ReactionResult = Success(
  Type.Record(
    Type.String(),
    Type.Object({
      success: Type.Boolean({ description: 'false: reactions/delete found no such reaction (nothing changed)' }),
      id: Type.String({ description: 'The icon' }),
      message: Type.String(),
      reactionAnnotationId: Type.String({
        description: "The comment's reaction to this icon (reactionAnnotations[].annotationId)",
      }),
      count: Type.Integer({ description: 'Users reacting to the comment with this icon, after the write' }),
    }),
    { description: 'By icon' },
  ),
);
