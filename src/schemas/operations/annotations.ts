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
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      commentAnnotations: [
        {
          annotationId: 't1',
          locationId: 'para-3',
          commentData: [{ commentHtml: '<p>Is this <b>right</b>?</p>', from: { userId: 'ann' } }],
        },
      ],
    },
    result: AnnotationsResult,
    also: [409],
  }),
  annotationsGet: contract({
    paths: { v1: 'commentannotations/get', v2: 'commentannotations/get' },
    summary: "Get a document's threads with their comments, newest first and paged, or by annotationId",
    tags: ['comments'],
    body: AnnotationsGetBody,
    example: { organizationId: 'acme', documentId: 'spec', statusIds: ['OPEN'], pageSize: 20 },
    result: AnnotationListResult,
    v2: { body: AnnotationsSearchBody, result: AnnotationSearchResultV2 },
  }),
  annotationsUpdate: contract({
    paths: { v1: 'commentannotations/update', v2: 'commentannotations/update' },
    summary: 'Change threads of a document (status, location, context, assignee, priority, target); null clears',
    tags: ['comments'],
    body: AnnotationsUpdateBody,
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      annotationIds: ['t1', 't9'],
      updatedData: { status: { id: 'RESOLVED', name: 'Resolved', type: 'terminal' } },
    },
    result: AnnotationChangesResult,
  }),
  annotationsDelete: contract({
    paths: { v1: 'commentannotations/delete', v2: 'commentannotations/delete' },
    summary: 'Delete threads of a document with their comments',
    tags: ['comments'],
    body: AnnotationsDeleteBody,
    example: { documentId: 'spec', locationIds: ['locationx'] },
    result: AnnotationChangesResult,
  }),
  annotationsCount: contract({
    paths: { v1: 'commentannotations/count/get', v2: 'commentannotations/count/get' },
    summary: 'Count the threads of documents, and those unread by a user',
    tags: ['comments'],
    body: AnnotationsCountBody,
    example: { organizationId: 'acme', documentIds: ['spec', 'plan'], userId: 'bob' },
    result: AnnotationCountsResult,
  }),
  annotationsRead: contract({
    paths: { v1: 'commentannotations/read', v2: 'commentannotations/read' },
    summary: 'Mark threads of a document read by a user, as of now (extension)',
    tags: ['comments'],
    body: AnnotationsReadBody,
    example: { organizationId: 'acme', documentId: 'spec', userId: 'bob' },
    result: MarkedReadResult,
  }),
};
