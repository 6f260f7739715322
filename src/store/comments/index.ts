// Comment threads (annotations) and their comments.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type {
  AddCommentsResult,
  AnnotationQuery,
  CommentChange,
  CommentDraft,
  CommentQuery,
  DocumentVersions,
  FoundThread,
  NewAnnotation,
  StoredComment,
  StoredThreadAnswer,
  ThreadChange,
  ThreadCounts,
  ThreadFilters,
  ThreadRef,
  ThreadSearch,
  ThreadsUpdated,
} from '../../domain/threads.js';
import type { Maybe } from '../../maybe.js';
import * as comments from './comments.js';
import { commentsDeleted, threadStatuses, threadsDeleted, threadsRead, threadsUpdated } from './events.js';
import * as threads from './threads.js';
import { search } from './search.js';
import type { StoreCore } from '../core.js';
import { emit } from '../events/emit.js';

export const commentsStore = (core: StoreCore) => ({
  /** Adds the annotations whose id is free; returns the ids that were already taken (and were skipped). */
  addAnnotations(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotations: NewAnnotation[],
    now: number,
    notify = false,
  ): Maybe<Set<string>> {
    // Its threads' events, and its notifications', are emitted where they are written (comments.ts, notifications.ts).
    return core.emitting('addAnnotations', tenantId, now, () =>
      comments.addAnnotations(tenantId, organizationId, documentId, annotations, now, notify),
    );
  },

  addComments(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotationId: string,
    drafts: CommentDraft[],
    now: number,
    notify = false,
  ): Maybe<AddCommentsResult> {
    const thread = { tenantId, organizationId, documentId, annotationId };
    return core.emitting('addComments', tenantId, now, () => comments.addComments(thread, drafts, now, notify));
  },

  getComments(tenantId: string, query: CommentQuery): Maybe<StoredComment[]> {
    return core.query('getComments', comments.comments(tenantId, query));
  },

  /** A document's threads with their comments: a page newest first, or the threads with the given ids. */
  getAnnotations(tenantId: string, q: AnnotationQuery): Maybe<StoredThreadAnswer[]> {
    return core.query('getAnnotations', threads.annotations(tenantId, q));
  },

  /** /v2's commentannotations/get: threads in lastUpdated order with the v2 filters, at most `limit`. */
  searchThreads(tenantId: string, q: ThreadSearch): Maybe<FoundThread[]> {
    return core.query('searchThreads', search(tenantId, q));
  },

  /** Changes the threads the filters match, with lastUpdated = now; returns their ids, and the comments re-authored. */
  updateAnnotations(tenantId: string, filters: ThreadFilters, change: ThreadChange, now: number): Maybe<ThreadsUpdated> {
    return core.emitting('updateAnnotations', tenantId, now, function* () {
      // A status named: the threads' statuses before, so that a status_change is told only where it changed.
      const before = change.status ? yield* threadStatuses(tenantId, filters) : null;
      const updated = yield* threads.updateAnnotations(tenantId, filters, change, now);
      yield* emit(yield* threadsUpdated(tenantId, filters, updated, before));
      return updated;
    });
  },

  /** Deletes the threads the filters match, with their comments and read marks; returns their ids. */
  deleteAnnotations(tenantId: string, filters: ThreadFilters, now: number): Maybe<string[]> {
    return core.emitting(
      'deleteAnnotations',
      tenantId,
      now,
      () => threads.deleteAnnotations(tenantId, filters),
      (ids) => threadsDeleted(filters.organizationId, filters.documentId, ids),
    );
  },

  /** The versions a page of the document's threads would be read under now (services/thread-pages.ts). */
  documentVersions(tenantId: string, organizationId: string, documentId: string): Maybe<DocumentVersions> {
    return core.query('documentVersions', threads.documentVersions(tenantId, organizationId, documentId));
  },

  /** Counts by document, for documentIds as given (without repeats): every one is in the answer. */
  countAnnotations(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    userId: string,
    statusIds: string[] | null,
  ): Maybe<ThreadCounts> {
    return core.query('countAnnotations', threads.countAnnotations(tenantId, organizationId, documentIds, userId, statusIds));
  },

  /** Marks the document's threads (those of annotationIds, or all) read by the user as of now; returns how many. */
  markAnnotationsRead(
    tenantId: string,
    organizationId: string,
    documentId: string,
    userId: string,
    annotationIds: string[] | null,
    now: number,
  ): Maybe<number> {
    return core.emitting(
      'markAnnotationsRead',
      tenantId,
      now,
      () => threads.markRead(tenantId, organizationId, documentId, userId, annotationIds, now),
      (read) => (read > 0 ? [threadsRead(organizationId, documentId, userId, annotationIds)] : []),
    );
  },

  /** Changes the listed comments of a thread; null when the thread does not exist, else the ids changed. */
  updateComments(
    tenantId: string,
    thread: ThreadRef,
    commentIds: number[],
    change: CommentChange,
    now: number,
  ): Maybe<number[] | null> {
    return core.emitting('updateComments', tenantId, now, () =>
      threads.updateComments(tenantId, thread, commentIds, change, now),
    );
  },

  /** Deletes the listed comments (null: all) of a thread; null when the thread does not exist, else the ids deleted. */
  deleteComments(tenantId: string, thread: ThreadRef, commentIds: number[] | null, now: number): Maybe<number[] | null> {
    return core.emitting(
      'deleteComments',
      tenantId,
      now,
      () => threads.deleteComments(tenantId, thread, commentIds, now),
      (deleted) => (deleted ? commentsDeleted(thread, deleted) : []),
    );
  },
});

export type CommentsStore = ReturnType<typeof commentsStore>;
