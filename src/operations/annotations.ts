// Comment annotations: a document's threads.
import { confirmedBy } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { nextPageTokenOf, operation, ownRun, pageTokenOf } from './operation.js';
import { success } from '../http/envelope.js';
import { searchAnnotations } from '../services/thread-search.js';
import { CONTRACT } from '../schemas/operations/index.js';
import * as endUsers from '../services/end-user-rules.js';
import { addAnnotations, notifyingPerComment } from '../services/comments.js';
import type { AnnotationsAddData } from '../schemas/comments.js';
import {
  countAnnotations,
  deleteAnnotations,
  getAnnotations,
  markAnnotationsRead,
  updateAnnotations,
} from '../services/annotations.js';

/** Comment annotations: a document's threads. */
export const annotations = [
  operation(CONTRACT.annotationsAdd, {
    run: addAnnotations,
    endUser: endUsers.annotationsAdd,
    answer: 'Comment Annotation(s) added successfully.',
    adapters: {
      v2: {
        data: (data: AnnotationsAddData) =>
          notifyingPerComment(
            data,
            data.commentAnnotations.flatMap((a) => a.commentData),
          ),
      },
    },
  }),
  operation(CONTRACT.annotationsGet, {
    config: { confirmsCredentials: true },
    run: getAnnotations,
    endUser: endUsers.annotationsGet,
    answer: (got, request, reply) => {
      confirmedBy(request, got.credentialsVersion);
      return sendSuccessJson(reply, 'Annotations fetched successfully.', got.data, pageTokenOf(got.nextPageToken));
    },
    adapters: {
      // /v2 reads across documents by lastUpdated, with its own filters (services/thread-search.ts).
      v2: ownRun({
        run: searchAnnotations,
        endUser: endUsers.annotationsSearch,
        answer: (found, request) => {
          confirmedBy(request, found.credentialsVersion);
          // The /v2 page words the answer grouped by document apart from the list.
          const message = found.grouped ? 'Annotations fetched successfully.' : 'Annotation(s) fetched successfully.';
          return success(message, found.threads, nextPageTokenOf(found.nextPageToken));
        },
      }),
    },
  }),
  operation(CONTRACT.annotationsUpdate, {
    run: updateAnnotations,
    answer: 'Annotations updated successfully.',
  }),
  operation(CONTRACT.annotationsDelete, {
    run: deleteAnnotations,
    answer: 'Annotations deleted successfully.',
  }),
  operation(CONTRACT.annotationsCount, {
    config: { confirmsCredentials: true },
    run: countAnnotations,
    endUser: endUsers.annotationsCount,
    answer: (got, request, reply) => {
      confirmedBy(request, got.credentialsVersion);
      return sendSuccessJson(reply, 'Comment count retrieved successfully.', got.json);
    },
  }),
  operation(CONTRACT.annotationsRead, {
    run: markAnnotationsRead,
    endUser: endUsers.annotationsRead,
    answer: 'Annotation(s) marked read.',
  }),
];
