// Request pieces shared by the comment operations (SPEC 6).
import Type from 'typebox';
import { CommentId, Opt, UserRefIn } from './common.js';

export const CommentIn = Type.Object({
  commentId: Opt(CommentId),
  commentText: Opt(Type.String()),
  commentHtml: Opt(Type.String()),
  from: UserRefIn,
});
