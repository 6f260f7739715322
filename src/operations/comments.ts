// The comments of a thread.
import { confirmedBy } from '../http/auth.js';
import { sendSuccessJson, success } from '../http/envelope.js';
import { operation, ownRun } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import * as endUsers from '../services/end-user-rules.js';
import type { CommentsAddData } from '../schemas/comments.js';
import {
  addComments,
  deleteComments,
  getComments,
  getCommentsV2,
  notifyingPerComment,
  updateComments,
} from '../services/comments.js';

/** The comments of a thread. */
export const comments = [
  operation(CONTRACT.commentsAdd, {
    run: addComments,
    endUser: endUsers.commentsAdd,
    answer: 'Comment(s) added successfully.',
    adapters: { v2: { data: (data: CommentsAddData) => notifyingPerComment(data, data.commentData) } },
  }),
  operation(CONTRACT.commentsGet, {
    config: { confirmsCredentials: true },
    run: getComments,
    endUser: endUsers.commentsGet,
    // "Comments(s)" is the seed's own wording, kept for compatibility.
    answer: ({ commentsJson, credentialsVersion }, request, reply) => {
      confirmedBy(request, credentialsVersion);
      return sendSuccessJson(reply, 'Comments(s) retrieved successfully.', commentsJson);
    },
    adapters: {
      // /v2 shows each comment with its own members (answers/v2-threads.ts), under its page's wording.
      v2: ownRun({
        run: getCommentsV2,
        endUser: endUsers.commentsGet,
        answer: ({ comments, credentialsVersion }, request) => {
          confirmedBy(request, credentialsVersion);
          return success('Comments retrieved successfully.', comments);
        },
      }),
    },
  }),
  operation(CONTRACT.commentsUpdate, {
    run: updateComments,
    endUser: endUsers.commentsUpdate,
    answer: 'Comment updated successfully.',
  }),
  operation(CONTRACT.commentsDelete, {
    run: deleteComments,
    endUser: endUsers.commentsDelete,
    answer: 'Comments(s) deleted successfully.',
  }),
];
