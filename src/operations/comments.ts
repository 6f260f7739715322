// The comments of a thread.
import { confirmedBy } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { operation } from './operation.js';
import { CommentsAddBody, CommentsDeleteBody, CommentsGetBody, CommentsUpdateBody } from '../schemas/comments.js';
import { CommentChangesResult, CommentIdsResult, CommentsResult, answers } from '../schemas/responses.js';
import { addComments, deleteComments, getComments, updateComments } from '../services/comments.js';

/** The comments of a thread. */
export const comments = [
  operation({
    paths: { v1: 'commentannotations/comments/add' },
    summary: 'Add comments to an existing annotation',
    tags: ['comments'],
    body: CommentsAddBody,
    response: answers(CommentIdsResult, [404, 409]),
    run: addComments,
    answer: 'Comment(s) added successfully.',
  }),
  operation({
    paths: { v1: 'commentannotations/comments/get' },
    config: { confirmsCredentials: true },
    summary: 'Get the comments of an annotation, optionally by author or commentId',
    tags: ['comments'],
    body: CommentsGetBody,
    response: answers(CommentsResult),
    run: getComments,
    // "Comments(s)" is the seed's own wording, kept for compatibility.
    answer: ({ commentsJson, credentialsVersion }, request, reply) => {
      confirmedBy(request, credentialsVersion);
      return sendSuccessJson(reply, 'Comments(s) retrieved successfully.', commentsJson);
    },
  }),
  operation({
    paths: { v1: 'commentannotations/comments/update' },
    summary: 'Change comments of a thread: body, author, tagged contacts',
    tags: ['comments'],
    body: CommentsUpdateBody,
    response: answers(CommentChangesResult, [404]),
    run: updateComments,
    answer: 'Comment updated successfully.',
  }),
  operation({
    paths: { v1: 'commentannotations/comments/delete' },
    summary: 'Delete comments of a thread (all without commentIds); the thread stays',
    tags: ['comments'],
    body: CommentsDeleteBody,
    response: answers(CommentChangesResult, [404]),
    run: deleteComments,
    answer: 'Comments(s) deleted successfully.',
  }),
];
