// The request bodies of the comment operations (docs/api.md, "Comment threads").
import Type from 'typebox';
import {
  Batch,
  CommentId,
  Filter,
  FreeObject,
  Id,
  MAX_COLOR_LENGTH,
  OrganizationOrNone,
  MAX_PAGE_SIZE,
  Millis,
  Opt,
  RequestBody,
  TaggedUserContacts,
  Text,
  UserRefIn,
  type InputLimits,
  type DataOf,
} from './common.js';

/** A thread's color, kept and shown as sent (the original service's pages show one, e.g. "#00FF00"). */
const Color = Type.String({ maxLength: MAX_COLOR_LENGTH, description: 'Kept and shown as sent' });

/**
 * At the top of `data`, the write notifies mentioned users, earlier authors and document members (docs/api.md,
 * "Notifications from comments (triggerNotification)").
 */
const TriggerNotification = Opt(Type.Boolean());

export const CommentIn = (limits: InputLimits) =>
  Type.Object({
    commentId: Opt(CommentId),
    commentText: Opt(Text(limits)),
    commentHtml: Opt(Text(limits)),
    from: UserRefIn,
    createdAt: Opt(Millis),
    lastUpdated: Opt(Millis),
    taggedUserContacts: Opt(TaggedUserContacts(limits)),
  });

/** The commentannotations/add request body, with the configured limits. */
export const AnnotationsAddBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Id,
      commentAnnotations: Batch(
        limits,
        Type.Object({
          annotationId: Opt(Id),
          location: Opt(FreeObject),
          locationId: Opt(Id),
          context: Opt(FreeObject),
          status: Opt(FreeObject),
          color: Opt(Color),
          assignedTo: Opt(UserRefIn),
          priority: Opt(FreeObject),
          targetElement: Opt(FreeObject),
          createdAt: Opt(Millis),
          lastUpdated: Opt(Millis),
          commentData: Batch(limits, CommentIn(limits)),
        }),
      ),
      triggerNotification: TriggerNotification,
    }),
  );

/** The comments/add request body, with the configured limits. */
export const CommentsAddBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Id,
      annotationId: Id,
      commentData: Batch(limits, CommentIn(limits)),
      triggerNotification: TriggerNotification,
    }),
  );

/** The comments/get request body, with the configured limits. */
export const CommentsGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Id,
      annotationId: Id,
      userIds: Filter(limits, Id),
      commentIds: Filter(limits, CommentId),
    }),
  );

/**
 * Which threads of a document an operation means (docs/api.md, "Comment threads"): filters combined with AND, empty
 * = none.
 */
const ThreadFilters = (limits: InputLimits) => ({
  organizationId: OrganizationOrNone,
  documentId: Id,
  annotationIds: Filter(limits, Id),
  locationIds: Filter(limits, Id),
  userIds: Filter(limits, Id),
});

/** The commentannotations/get request body (docs/api.md, "POST /v1/commentannotations/get"). */
export const AnnotationsGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      ...ThreadFilters(limits),
      statusIds: Filter(limits, Id),
      pageSize: Opt(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
      pageToken: Opt(Type.String({ maxLength: 1024 })),
    }),
  );

/**
 * The commentannotations/update request body (docs/api.md, "POST /v1/commentannotations/update"): null clears an
 * optional member; status cannot be cleared.
 */
export const AnnotationsUpdateBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      ...ThreadFilters(limits),
      updatedData: Opt(
        Type.Object({
          status: Type.Optional(FreeObject),
          location: Opt(FreeObject),
          locationId: Opt(Id),
          context: Opt(FreeObject),
          color: Opt(Color),
          assignedTo: Opt(UserRefIn),
          priority: Opt(FreeObject),
          targetElement: Opt(FreeObject),
        }),
      ),
      /** The original service's updateUsers: in the matched threads, oldUser's comments become newUser's. */
      updateUsers: Opt(
        Type.Array(Type.Object({ oldUser: Type.Object({ userId: Id }), newUser: UserRefIn }), {
          minItems: 1,
          maxItems: limits.maxBatch,
        }),
      ),
    }),
  );

/** The commentannotations/delete request body (docs/api.md, "POST /v1/commentannotations/delete"). */
export const AnnotationsDeleteBody = (limits: InputLimits) => RequestBody(Type.Object(ThreadFilters(limits)));

/** The commentannotations/count/get request body (docs/api.md, "POST /v1/commentannotations/count/get"). */
export const AnnotationsCountBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentIds: Batch(limits, Id),
      userId: Id,
      statusIds: Filter(limits, Id),
    }),
  );

/** The commentannotations/read request body (docs/api.md, "POST /v1/commentannotations/read"). */
export const AnnotationsReadBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Id,
      userId: Id,
      annotationIds: Filter(limits, Id),
    }),
  );

/** The comments/update request body (docs/api.md, "POST /v1/commentannotations/comments/update"). */
export const CommentsUpdateBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Id,
      annotationId: Id,
      commentIds: Batch(limits, CommentId),
      updatedData: Type.Object({
        commentText: Opt(Text(limits)),
        commentHtml: Opt(Text(limits)),
        from: Type.Optional(UserRefIn),
        taggedUserContacts: Opt(TaggedUserContacts(limits)),
      }),
      triggerNotification: TriggerNotification,
    }),
  );

/** The comments/delete request body (docs/api.md, "POST /v1/commentannotations/comments/delete"). */
export const CommentsDeleteBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Id,
      annotationId: Id,
      commentIds: Filter(limits, CommentId),
    }),
  );

export type AnnotationsAddData = DataOf<typeof AnnotationsAddBody>;
export type AnnotationsGetData = DataOf<typeof AnnotationsGetBody>;
export type AnnotationsUpdateData = DataOf<typeof AnnotationsUpdateBody>;
export type AnnotationsDeleteData = DataOf<typeof AnnotationsDeleteBody>;
export type AnnotationsCountData = DataOf<typeof AnnotationsCountBody>;
export type AnnotationsReadData = DataOf<typeof AnnotationsReadBody>;
export type CommentsUpdateData = DataOf<typeof CommentsUpdateBody>;
export type CommentsDeleteData = DataOf<typeof CommentsDeleteBody>;
export type CommentsAddData = DataOf<typeof CommentsAddBody>;
export type CommentsGetData = DataOf<typeof CommentsGetBody>;
