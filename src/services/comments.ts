// Comment annotations and their comments (docs/api.md, "Comment threads").
import type { Static } from 'typebox';
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type {
  AnnotationsAddData,
  CommentIn,
  CommentsAddData,
  CommentsDeleteData,
  CommentsGetData,
  CommentsUpdateData,
} from '../schemas/comments.js';
import type { AnnotationOutcome as AnnotationOutcomeSchema } from '../schemas/responses.js';
import { MAX_COMMENT_ID, NO_ORGANIZATION, organizationOf } from '../schemas/common.js';
import { assignCommentIds } from '../store/comments/comment-ids.js';
import type { CommentAgent, CommentChange, NewComment, TaggedContact, ThreadRef } from '../domain/threads.js';
import type { UserRef } from '../domain/users.js';
import { commentsJson, usersOf } from '../domain/answers/comments.js';
import { resolvedAgainst } from '../domain/answers/users.js';
import type { Caller, Services } from './context.js';
import { commentBody } from './html.js';
import { internalUserId, newAnnotationId } from '../domain/ids.js';
import { type V2Context, v2Comment, v2Reactor } from '../domain/answers/v2-threads.js';
import { reactionsOnComments } from './reactions.js';
import { type MemberPath, spell } from './member-path.js';
import { filterList, type ItemOutcome, itemOutcomes, orNull, requireUnique } from './rules.js';
import { verifyAnnotationAuthors, verifyCommentAuthors } from './verify-user-permissions.js';
import { resolveUploads } from './attachments.js';

export const DEFAULT_ANNOTATION_STATUS = { id: 'OPEN', name: 'Open', type: 'default' };

type CommentInput = Static<ReturnType<typeof CommentIn>>;
type UserRefInput = CommentInput['from'];
export type AnnotationOutcome = Static<typeof AnnotationOutcomeSchema>;

export const userRef = (u: UserRefInput): UserRef => ({ userId: u.userId, name: orNull(u.name), email: orNull(u.email) });

type TagsInput = NonNullable<CommentInput['taggedUserContacts']>;

/** Tags as the store keeps them: the text and contact only where the caller gave them. */
export const taggedContacts = (tags: TagsInput): TaggedContact[] =>
  tags.map((t) => ({
    userId: t.userId,
    ...(t.text != null ? { text: t.text } : {}),
    ...(t.contact != null ? { contact: userRef(t.contact) } : {}),
  }));

/** Checks a commentData list and turns it into drafts: bodies sanitized and derived. */
function drafts(comments: CommentInput[], path: MemberPath) {
  requireUnique(comments, (c) => c.commentId, path, 'commentId');
  return comments.map((c, i) => {
    if (c.commentText == null && c.commentHtml == null) {
      throw invalid(`${spell([...path, i])} needs commentText or commentHtml.`);
    }
    return {
      commentId: c.commentId ?? undefined,
      ...commentBody(c),
      from: userRef(c.from),
      createdAt: orNull(c.createdAt),
      lastUpdated: orNull(c.lastUpdated),
      taggedUserContacts: c.taggedUserContacts != null ? taggedContacts(c.taggedUserContacts) : null,
      context: orNull(c.context),
      attachments: orNull(c.attachments),
      agent: orNull(c.agent) as CommentAgent | null,
      ...(c.triggerActivities === false ? { noActivity: true } : {}),
    };
  });
}

type VisibilityInput = NonNullable<AnnotationsAddData['commentAnnotations'][number]['visibility']>;

/** A thread's visibility as the /v2 page requires it: organizationPrivate names its organization, restricted its users. */
function visibilityOf(v: VisibilityInput, path: MemberPath): object {
  if (v.type === 'organizationPrivate' && v.organizationId == null)
    throw invalid(`${spell([...path, 'organizationId'])} is required when the visibility is organizationPrivate.`);
  if (v.type === 'restricted' && (v.userIds ?? []).length === 0)
    throw invalid(`${spell([...path, 'userIds'])} must list someone when the visibility is restricted.`);
  return {
    type: v.type,
    ...(v.organizationId != null ? { organizationId: v.organizationId } : {}),
    ...(v.userIds != null ? { userIds: [...new Set(v.userIds)] } : {}),
  };
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

export function addAnnotations(
  services: Services,
  caller: Caller,
  input: AnnotationsAddData,
): Maybe<Record<string, AnnotationOutcome>> {
  const { store, clock } = services;
  requireUnique(input.commentAnnotations, (a) => a.annotationId, ['commentAnnotations'], 'annotationId');
  const annotations = input.commentAnnotations.map((a, i) => {
    const annotationId = a.annotationId ?? newAnnotationId();
    const list = drafts(a.commentData, ['commentAnnotations', i, 'commentData']);
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
      color: orNull(a.color),
      assignedTo: a.assignedTo != null ? userRef(a.assignedTo) : null,
      priority: orNull(a.priority),
      targetElement: orNull(a.targetElement),
      createdAt: orNull(a.createdAt),
      lastUpdated: orNull(a.lastUpdated),
      comments,
      kind: a.type ?? 'comment',
      // A suggestion's status is the server's: pending until accepted or rejected (the /v2 page).
      suggestion: a.type === 'suggestion' && a.suggestion != null ? { ...a.suggestion, status: 'pending' } : null,
      commentType: orNull(a.commentType),
      visibility: a.visibility != null ? visibilityOf(a.visibility, ['commentAnnotations', i, 'visibility']) : null,
    };
  });
  const notify = notifies(input);
  // The whole request is checked before anything is written: a refusal writes nothing.
  // Attachments (issue 41): references to uploads checked and made whole before the write.
  const uploads = resolveUploads(
    services,
    caller.id,
    organizationOf(input),
    input.documentId,
    annotations.flatMap((a) =>
      a.comments.map((comment) => ({ comment, place: { annotationId: a.annotationId, commentId: comment.commentId } })),
    ),
  );
  const added = then(
    then(uploads, () => verifyAnnotationAuthors(services, caller, input)),
    () => store.addAnnotations(caller.id, organizationOf(input), input.documentId, annotations, clock(), notify),
  );
  // fromEntries: an annotationId such as "__proto__" is an ordinary own key here.
  return then(added, (taken) => outcomesOf(annotations, taken));
}

function outcomesOf(annotations: { annotationId: string; comments: NewComment[] }[], taken: Set<string>) {
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

/** The thread an operation names. */
const threadOf = (input: CommentsDeleteData): ThreadRef => ({
  organizationId: organizationOf(input),
  documentId: input.documentId,
  annotationId: input.annotationId,
});

/**
 * /v2 asks for notifications per comment (`commentData[].triggerNotification`): a request any of whose comments
 * asks notifies, as `data.triggerNotification` does on v1, where a comment's own is ignored (docs/decisions.md).
 */
export const notifyingPerComment = <D extends { triggerNotification?: boolean | null }>(
  data: D,
  comments: readonly { triggerNotification?: boolean | null }[],
): D => (comments.some((c) => c.triggerNotification === true) ? { ...data, triggerNotification: true } : data);

/**
 * triggerNotification (docs/api.md, "Notifications from comments"): notifications belong to an organization (its members, their settings),
 * so a write to a document without one cannot ask for them (docs/decisions.md).
 */
function notifies(input: { organizationId?: string | null; triggerNotification?: boolean | null }): boolean {
  if (input.triggerNotification !== true) return false;
  if (input.organizationId == null)
    throw invalid(
      `${spell(['triggerNotification'])} needs ${spell(['organizationId'])}: notifications belong to an organization.`,
    );
  return true;
}

/** The NOT_FOUND of an operation on a thread that does not exist (docs/api.md, "Comment threads"). */
const noThread = (input: { annotationId: string; documentId: string }) =>
  new ApiError('NOT_FOUND', `Annotation ${input.annotationId} does not exist in document ${input.documentId}.`);

export function addComments(services: Services, caller: Caller, input: CommentsAddData): Maybe<number[]> {
  const { store, clock } = services;
  const list = drafts(input.commentData, ['commentData']);
  const notify = notifies(input);
  // Attachments (issue 41): references to uploads checked and made whole before the write.
  const uploads = resolveUploads(
    services,
    caller.id,
    organizationOf(input),
    input.documentId,
    list.map((comment) => ({ comment, place: { annotationId: input.annotationId, commentId: comment.commentId ?? null } })),
  );
  const added = then(
    then(uploads, () => verifyCommentAuthors(services, caller, input)),
    () => store.addComments(caller.id, organizationOf(input), input.documentId, input.annotationId, list, clock(), notify),
  );
  return then(added, (outcome) => {
    switch (outcome.kind) {
      case 'added':
        return outcome.commentIds;
      case 'annotation_not_found':
        throw noThread(input);
      case 'comment_exists':
        throw clash(input.annotationId, outcome.commentId);
      case 'ids_exhausted':
        throw exhausted(input.annotationId);
    }
  });
}

/**
 * comments/get's data, as JSON text (answers/comments.ts), and the credentials version the read saw
 * (none when it found no comment).
 */
export function getComments(
  services: Services,
  caller: Caller,
  input: CommentsGetData,
): Maybe<{ commentsJson: string; credentialsVersion: number | undefined }> {
  return then(readComments(services, caller, input), ({ stored, commentIds, profiles }) => ({
    commentsJson: commentsJson(stored, commentIds, resolvedAgainst(profiles)),
    credentialsVersion: stored[0]?.credentialsVersion,
  }));
}

/** comments/get on /v2: the same comments, each as /v2 shows it (answers/v2-threads.ts), with their reactions. */
export function getCommentsV2(
  services: Services,
  caller: Caller,
  input: CommentsGetData,
): Maybe<{ comments: (object | null)[]; credentialsVersion: number | undefined }> {
  return then(readComments(services, caller, input), ({ stored, commentIds, profiles, organizationId }) => {
    const at = { documentId: input.documentId, annotationId: input.annotationId };
    const read = stored.length > 0 ? reactionsOnComments(services, caller, organizationId, [at]) : null;
    return then(read, (reactions) =>
      then(
        // The users who reacted are looked up too (held per organization and version, as the authors are).
        reactions && reactions.userIds.length > 0
          ? services.profiles.forRows(caller.id, organizationId, stored, [...profiles.keys(), ...reactions.userIds])
          : profiles,
        (shown) => {
          const cx: V2Context = {
            organizationId: organizationId === NO_ORGANIZATION ? undefined : organizationId,
            profiles: shown,
            internalUserId: (userId: string) => internalUserId(caller.id, organizationId, userId),
            reactions: reactions ? (place, commentId) => reactions.members(place, commentId, (u) => v2Reactor(u, cx)) : undefined,
          };
          const v1 = JSON.parse(commentsJson(stored, commentIds, resolvedAgainst(profiles))) as (Record<
            string,
            unknown
          > | null)[];
          return {
            comments: v1.map((c) => (c === null ? null : v2Comment(c, cx, at))),
            credentialsVersion: stored[0]?.credentialsVersion,
          };
        },
      ),
    );
  });
}

/** The comments a comments/get names, with the profiles held for the version the read saw (authors, tagged contacts). */
function readComments({ store, profiles }: Services, caller: Caller, input: CommentsGetData) {
  const commentIds = filterList(input.commentIds);
  const organizationId = organizationOf(input);
  const read = store.getComments(caller.id, {
    organizationId,
    documentId: input.documentId,
    annotationId: input.annotationId,
    userIds: filterList(input.userIds),
    commentIds,
  });
  return then(read, (stored) =>
    then(profiles.forRows(caller.id, organizationId, stored, stored.flatMap(usersOf)), (p) => ({
      stored,
      commentIds,
      profiles: p,
      organizationId,
    })),
  );
}

type CommentOutcome = ItemOutcome<number>;
const commentMessages = (done: string) => ({ done, missing: 'Not found' });

/**
 * comments/update (docs/api.md, "POST /v1/commentannotations/comments/update"): one change for every listed
 * comment, in one transaction.
 */
export function updateComments(
  services: Services,
  caller: Caller,
  input: CommentsUpdateData,
): Maybe<Record<string, CommentOutcome>> {
  const { store, clock } = services;
  const u = input.updatedData;
  if (
    u.commentText == null &&
    u.commentHtml == null &&
    u.from === undefined &&
    u.taggedUserContacts === undefined &&
    u.context === undefined &&
    u.attachments === undefined
  ) {
    throw invalid(
      `${spell(['updatedData'])} needs at least one of commentText, commentHtml, from, taggedUserContacts, context, attachments.`,
    );
  }
  const change: CommentChange = {
    ...(u.commentText != null || u.commentHtml != null ? { body: commentBody(u) } : {}),
    ...(u.from !== undefined ? { from: userRef(u.from) } : {}),
    ...(u.taggedUserContacts !== undefined
      ? { taggedUserContacts: u.taggedUserContacts === null ? null : taggedContacts(u.taggedUserContacts) }
      : {}),
    ...(u.context !== undefined ? { context: u.context } : {}),
    ...(u.attachments !== undefined ? { attachments: u.attachments } : {}),
    notify: notifies(input),
  };
  const thread = threadOf(input);
  // Attachments (issue 41): references to uploads checked and made whole before the write.
  const ids = input.commentIds;
  const place = ids?.length === 1 ? { annotationId: input.annotationId, commentId: ids[0]! } : null;
  const uploads = resolveUploads(services, caller.id, thread.organizationId, thread.documentId, [{ comment: change, place }]);
  return then(
    then(uploads, () => store.updateComments(caller.id, thread, input.commentIds, change, clock())),
    (done) => {
      if (done === null) throw noThread(input);
      return itemOutcomes(input.commentIds, done, commentMessages('Updated successfully'));
    },
  );
}

/**
 * comments/delete (docs/api.md, "POST /v1/commentannotations/comments/delete"): the listed comments, or all; the
 * thread stays.
 */
export function deleteComments(
  { store, clock }: Services,
  caller: Caller,
  input: CommentsDeleteData,
): Maybe<Record<string, CommentOutcome>> {
  const commentIds = filterList(input.commentIds);
  const thread = threadOf(input);
  return then(store.deleteComments(caller.id, thread, commentIds, clock()), (done) => {
    if (done === null) throw noThread(input);
    return itemOutcomes(commentIds, done, commentMessages('Deleted successfully'));
  });
}
