// The comments of a thread.
import { confirmedBy } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { addComments, deleteComments, getComments, updateComments } from '../services/comments.js';

/** The comments of a thread. */
export const comments = [
  operation(CONTRACT.commentsAdd, {
    run: addComments,
    answer: 'Comment(s) added successfully.',
  }),
  operation(CONTRACT.commentsGet, {
    config: { confirmsCredentials: true },
    run: getComments,
    // "Comments(s)" is the seed's own wording, kept for compatibility.
    answer: ({ commentsJson, credentialsVersion }, request, reply) => {
      confirmedBy(request, credentialsVersion);
      return sendSuccessJson(reply, 'Comments(s) retrieved successfully.', commentsJson);
    },
  }),
  operation(CONTRACT.commentsUpdate, {
    run: updateComments,
    answer: 'Comment updated successfully.',
  }),
  operation(CONTRACT.commentsDelete, {
    run: deleteComments,
    answer: 'Comments(s) deleted successfully.',
  }),
];
