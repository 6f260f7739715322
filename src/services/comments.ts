// Comment annotations and their comments (SPEC 6).
import { ApiError, invalid } from '../errors.js';
import { MAX_COMMENT_ID } from '../schemas/common.js';
import type { CommentIdAssignment, NewComment, StoredComment, UserRef } from '../store/store.js';
import { showUser, type ShownUser } from './authors.js';
import type { Caller, Services } from './context.js';
import { commentBody } from './html.js';
import { newAnnotationId } from './ids.js';
import { filterList, orNull, requireUnique } from './rules.js';

export const DEFAULT_ANNOTATION_STATUS = { id: 'OPEN', name: 'Open', type: 'default' };

interface UserRefInput {
  userId: string;
  name?: string | null;
  email?: string | null;
}

export interface CommentInput {
  commentId?: number | null;
  commentText?: string | null;
  commentHtml?: string | null;
  from: UserRefInput;
}

export interface AnnotationInput {
  annotationId?: string | null;
  location?: object | null;
  locationId?: string | null;
  context?: object | null;
  status?: object | null;
  commentData: CommentInput[];
}

export interface ShownComment {
  commentId: number;
  commentHtml: string;
  commentText: string;
  from: ShownUser;
  lastUpdated: string;
  createdAt: number;
  status: string;
  type: string;
}

export type AnnotationOutcome =
  | { success: true; annotationId: string; commentIds: number[]; message: 'Added Successfully' }
  | { success: false; annotationId: string; message: 'Annotation already exists.' };

/**
 * Generated ids follow the comments in order: each is one more than the largest id in the thread at
 * that point, counting ids this request already placed. A caller-chosen id that one of those took is a clash.
 */
export function assignCommentIds(requested: (number | undefined)[], largestExisting: number): CommentIdAssignment {
  let largest = largestExisting;
  const used = new Set<number>();
  const commentIds: number[] = [];
  for (const want of requested) {
    const id = want ?? largest + 1;
    if (id > MAX_COMMENT_ID) return { kind: 'exhausted' };
    if (used.has(id)) return { kind: 'clash', commentId: id };
    used.add(id);
    commentIds.push(id);
    largest = Math.max(largest, id);
  }
  return { kind: 'assigned', commentIds };
}

const userRef = (u: UserRefInput): UserRef => ({ userId: u.userId, name: orNull(u.name), email: orNull(u.email) });

/** Checks a commentData list and turns it into drafts: bodies sanitized and derived. */
function drafts(comments: CommentInput[], path: string) {
  requireUnique(comments, (c) => c.commentId, path, 'commentId');
  return comments.map((c, i) => {
    if (c.commentText == null && c.commentHtml == null) {
      throw invalid(`${path}[${i}] needs commentText or commentHtml.`);
    }
    return { commentId: c.commentId ?? undefined, ...commentBody(c), from: userRef(c.from) };
  });
}

function exhausted(annotationId: string): ApiError {
  // No Retry-After: waiting does not free ids, so clients must not retry (the rate limit's 429 has one).
  return new ApiError(
    'RESOURCE_EXHAUSTED',
    `Annotation ${annotationId} has no commentIds left to generate: ${MAX_COMMENT_ID}, the largest, ` +
      'is taken. Retrying will not help: give each new comment a free commentId of your own, or start a new annotation.',
  );
}

function clash(annotationId: string, commentId: number): ApiError {
  return new ApiError(
    'ALREADY_EXISTS',
    `commentId ${commentId} is already taken in annotation ${annotationId}; nothing was added.`,
  );
}

export async function addAnnotations(
  { store, clock }: Services,
  caller: Caller,
  input: { organizationId: string; documentId: string; commentAnnotations: AnnotationInput[] },
): Promise<Record<string, AnnotationOutcome>> {
  requireUnique(input.commentAnnotations, (a) => a.annotationId, 'data.commentAnnotations', 'annotationId');
  const annotations = input.commentAnnotations.map((a, i) => {
    const annotationId = a.annotationId ?? newAnnotationId();
    const list = drafts(a.commentData, `data.commentAnnotations[${i}].commentData`);
    const assigned = assignCommentIds(
      list.map((c) => c.commentId),
      0,
    );
    if (assigned.kind === 'exhausted') throw exhausted(annotationId);
    if (assigned.kind === 'clash') throw clash(annotationId, assigned.commentId);
    const comments: NewComment[] = list.map((c, j) => ({ ...c, commentId: assigned.commentIds[j]! }));
    return {
      annotationId,
      location: orNull(a.location),
      locationId: orNull(a.locationId),
      context: orNull(a.context),
      status: a.status ?? DEFAULT_ANNOTATION_STATUS,
      comments,
    };
  });
  const taken = await store.addAnnotations(caller.id, input.organizationId, input.documentId, annotations, clock());
  // fromEntries: an annotationId such as "__proto__" is an ordinary own key here.
  return Object.fromEntries(
    annotations.map((a): [string, AnnotationOutcome] => [
      a.annotationId,
      taken.has(a.annotationId)
        ? { success: false, annotationId: a.annotationId, message: 'Annotation already exists.' }
        : {
            success: true,
            annotationId: a.annotationId,
            commentIds: a.comments.map((c) => c.commentId),
            message: 'Added Successfully',
          },
    ]),
  );
}

export async function addComments(
  { store, clock }: Services,
  caller: Caller,
  input: { organizationId: string; documentId: string; annotationId: string; commentData: CommentInput[] },
): Promise<number[]> {
  const list = drafts(input.commentData, 'data.commentData');
  const outcome = await store.addComments(
    caller.id,
    input.organizationId,
    input.documentId,
    input.annotationId,
    list,
    assignCommentIds,
    clock(),
  );
  switch (outcome.kind) {
    case 'added':
      return outcome.commentIds;
    case 'annotation_not_found':
      throw new ApiError('NOT_FOUND', `Annotation ${input.annotationId} does not exist in document ${input.documentId}.`);
    case 'comment_exists':
      throw clash(input.annotationId, outcome.commentId);
    case 'ids_exhausted':
      throw exhausted(input.annotationId);
  }
}

export async function getComments(
  { store }: Services,
  caller: Caller,
  input: {
    organizationId: string;
    documentId: string;
    annotationId: string;
    userIds?: string[] | null;
    commentIds?: number[] | null;
  },
): Promise<(ShownComment | null)[]> {
  const commentIds = filterList(input.commentIds);
  const stored = await store.getComments(caller.id, {
    organizationId: input.organizationId,
    documentId: input.documentId,
    annotationId: input.annotationId,
    userIds: filterList(input.userIds),
    commentIds,
  });
  // Each row carries its author's profile (joined in the read), so no second lookup is needed.
  const shown = stored.map((c) => showComment(c, showUser(c.from, c.fromProfile ?? undefined)));
  if (!commentIds) return shown;
  const byId = new Map(shown.map((c) => [c.commentId, c]));
  return commentIds.map((id) => byId.get(id) ?? null);
}

function showComment(c: StoredComment, from: ShownUser): ShownComment {
  return {
    commentId: c.commentId,
    commentHtml: c.html,
    commentText: c.text,
    from,
    lastUpdated: new Date(c.lastUpdated).toISOString(),
    createdAt: c.createdAt,
    status: c.status,
    type: c.type,
  };
}
