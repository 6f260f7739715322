// Comment annotations: a document's threads.
import { confirmedBy } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import {
  AnnotationsAddBody,
  AnnotationsCountBody,
  AnnotationsDeleteBody,
  AnnotationsGetBody,
  AnnotationsReadBody,
  AnnotationsUpdateBody,
} from '../schemas/comments.js';
import {
  AnnotationChangesResult,
  AnnotationCountsResult,
  AnnotationListResult,
  AnnotationsResult,
  MarkedReadResult,
  answers,
} from '../schemas/responses.js';
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
  operation({
    paths: { v1: 'commentannotations/add' },
    summary: 'Add comment annotations (threads), each with its first comments',
    tags: ['comments'],
    body: AnnotationsAddBody,
    response: answers(AnnotationsResult, [409]),
    run: addAnnotations,
    answer: 'Comment Annotation(s) added successfully.',
  }),
  operation({
    paths: { v1: 'commentannotations/get' },
    config: { confirmsCredentials: true },
    summary: "Get a document's threads with their comments, newest first and paged, or by annotationId",
    tags: ['comments'],
    body: AnnotationsGetBody,
    response: answers(AnnotationListResult),
    run: getAnnotations,
    answer: (got, request, reply) => {
      confirmedBy(request, got.credentialsVersion);
      return sendSuccessJson(reply, 'Annotations fetched successfully.', got.data, pageTokenOf(got.nextPageToken));
    },
  }),
  operation({
    paths: { v1: 'commentannotations/update' },
    summary: 'Change threads of a document (status, location, context, assignee, priority, target); null clears',
    tags: ['comments'],
    body: AnnotationsUpdateBody,
    response: answers(AnnotationChangesResult),
    run: updateAnnotations,
    answer: 'Annotations updated successfully.',
  }),
  operation({
    paths: { v1: 'commentannotations/delete' },
    summary: 'Delete threads of a document with their comments',
    tags: ['comments'],
    body: AnnotationsDeleteBody,
    response: answers(AnnotationChangesResult),
    run: deleteAnnotations,
    answer: 'Annotations deleted successfully.',
  }),
  operation({
    paths: { v1: 'commentannotations/count/get' },
    config: { confirmsCredentials: true },
    summary: 'Count the threads of documents, and those unread by a user',
    tags: ['comments'],
    body: AnnotationsCountBody,
    response: answers(AnnotationCountsResult),
    run: countAnnotations,
    answer: (got, request, reply) => {
      confirmedBy(request, got.credentialsVersion);
      return sendSuccessJson(reply, 'Comment count retrieved successfully.', got.json);
    },
  }),
  operation({
    paths: { v1: 'commentannotations/read' },
    summary: 'Mark threads of a document read by a user, as of now (extension)',
    tags: ['comments'],
    body: AnnotationsReadBody,
    response: answers(MarkedReadResult),
    run: markAnnotationsRead,
    answer: 'Annotation(s) marked read.',
  }),
];
