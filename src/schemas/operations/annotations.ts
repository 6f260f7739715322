// Comment annotations: a document's threads.
import {
  AnnotationsAddBody,
  AnnotationsCountBody,
  AnnotationsDeleteBody,
  AnnotationsGetBody,
  AnnotationsReadBody,
  AnnotationsSearchBody,
  AnnotationsUpdateBody,
} from '../comments.js';
import {
  AnnotationChangesResult,
  AnnotationCountsResult,
  AnnotationListResult,
  AnnotationSearchResultV2,
  AnnotationsResult,
  MarkedReadResult,
} from '../responses.js';
import { contract } from './contract.js';

export const annotations = {
  annotationsAdd: contract({
    paths: { v1: 'commentannotations/add', v2: 'commentannotations/add' },
    summary: 'Add comment annotations (threads), each with its first comments',
    tags: ['comments'],
    body: AnnotationsAddBody,
    result: AnnotationsResult,
    also: [409],
  }),
  annotationsGet: contract({
    paths: { v1: 'commentannotations/get', v2: 'commentannotations/get' },
    summary: "Get a document's threads with their comments, newest first and paged, or by annotationId",
    tags: ['comments'],
    body: AnnotationsGetBody,
    result: AnnotationListResult,
    v2: { body: AnnotationsSearchBody, result: AnnotationSearchResultV2 },
  }),
  annotationsUpdate: contract({
    paths: { v1: 'commentannotations/update', v2: 'commentannotations/update' },
    summary: 'Change threads of a document (status, location, context, assignee, priority, target); null clears',
    tags: ['comments'],
    body: AnnotationsUpdateBody,
    result: AnnotationChangesResult,
  }),
  annotationsDelete: contract({
    paths: { v1: 'commentannotations/delete', v2: 'commentannotations/delete' },
    summary: 'Delete threads of a document with their comments',
    tags: ['comments'],
    body: AnnotationsDeleteBody,
    result: AnnotationChangesResult,
  }),
  annotationsCount: contract({
    paths: { v1: 'commentannotations/count/get', v2: 'commentannotations/count/get' },
    summary: 'Count the threads of documents, and those unread by a user',
    tags: ['comments'],
    body: AnnotationsCountBody,
    result: AnnotationCountsResult,
  }),
  annotationsRead: contract({
    paths: { v1: 'commentannotations/read', v2: 'commentannotations/read' },
    summary: 'Mark threads of a document read by a user, as of now (extension)',
    tags: ['comments'],
    body: AnnotationsReadBody,
    result: MarkedReadResult,
  }),
};
