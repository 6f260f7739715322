// Request pieces shared by the comment operations (SPEC 6).
import Type from 'typebox';
import { CommentId, Opt, Text, UserRefIn, type InputLimits } from './common.js';

export const CommentIn = (limits: InputLimits) => Type.Object({
  commentId: Opt(CommentId),
  commentText: Opt(Text(limits)),
  commentHtml: Opt(Text(limits)),
  from: UserRefIn,
});
