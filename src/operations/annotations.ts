// Comment annotations: a document's threads.
import { confirmedBy } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { addAnnotations } from '../services/comments.js';
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
    answer: 'Comment Annotation(s) added successfully.',
  }),
  operation(CONTRACT.annotationsGet, {
    config: { confirmsCredentials: true },
    run: getAnnotations,
    answer: (got, request, reply) => {
      confirmedBy(request, got.credentialsVersion);
      return sendSuccessJson(reply, 'Annotations fetched successfully.', got.data, pageTokenOf(got.nextPageToken));
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
    answer: (got, request, reply) => {
      confirmedBy(request, got.credentialsVersion);
      return sendSuccessJson(reply, 'Comment count retrieved successfully.', got.json);
    },
  }),
  operation(CONTRACT.annotationsRead, {
    run: markAnnotationsRead,
    answer: 'Annotation(s) marked read.',
  }),
];
