// The comments of a thread.
import { CommentsAddBody, CommentsDeleteBody, CommentsGetBody, CommentsUpdateBody } from '../comments.js';
import { CommentChangesResult, CommentIdsResult, CommentsResult, CommentsResultV2 } from '../responses.js';
import { contract } from './contract.js';

export const comments = {
  commentsAdd: contract({
    paths: { v1: 'commentannotations/comments/add', v2: 'commentannotations/comments/add' },
    summary: 'Add comments to an existing annotation',
    tags: ['comments'],
    body: CommentsAddBody,
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      annotationId: 't1',
      commentData: [{ commentText: 'Yes.', from: { userId: 'bob', name: 'Bob' } }],
    },
    result: CommentIdsResult,
    also: [404, 409],
  }),
  commentsGet: contract({
    paths: { v1: 'commentannotations/comments/get', v2: 'commentannotations/comments/get' },
    summary: 'Get the comments of an annotation, optionally by author or commentId',
    tags: ['comments'],
    body: CommentsGetBody,
    example: { organizationId: 'acme', documentId: 'spec', annotationId: 't1', commentIds: [2, 99] },
    result: CommentsResult,
    v2: { result: CommentsResultV2 },
  }),
  commentsUpdate: contract({
    paths: { v1: 'commentannotations/comments/update', v2: 'commentannotations/comments/update' },
    summary: 'Change comments of a thread: body, author, tagged contacts',
    tags: ['comments'],
    body: CommentsUpdateBody,
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      annotationId: 't1',
      commentIds: [2, 7],
      updatedData: { commentText: 'Yes, agreed.' },
    },
    result: CommentChangesResult,
    also: [404],
  }),
  commentsDelete: contract({
    paths: { v1: 'commentannotations/comments/delete', v2: 'commentannotations/comments/delete' },
    summary: 'Delete comments of a thread (all without commentIds); the thread stays',
    tags: ['comments'],
    body: CommentsDeleteBody,
    example: { organizationId: 'acme', documentId: 'spec', annotationId: 't1', commentIds: [2] },
    result: CommentChangesResult,
    also: [404],
  }),
};
