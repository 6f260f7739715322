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
  PAGING,
  MAX_ID_LENGTH,
  MAX_URL_LENGTH,
  Millis,
  Name,
  Opt,
  Order,
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

/** The agent that wrote a comment (/v2): its source and id, the rest (reason, url, ...) kept as sent. */
const CommentAgentIn = Type.Object(
  {
    agentSource: Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: '"velt" or "external" on the original' }),
    agentId: Id,
    executionId: Opt(Id),
    agentType: Opt(Type.String({ maxLength: MAX_ID_LENGTH })),
    agentName: Opt(Name),
    url: Opt(Type.String({ maxLength: MAX_URL_LENGTH })),
    reason: Opt(FreeObject),
  },
  { additionalProperties: true },
);

/**
 * Files a comment refers to (/v2's attachments: references to files stored elsewhere), kept as sent; no
 * request is ever made to a URL they name.
 */
const AttachmentsIn = (limits: InputLimits) => Type.Array(FreeObject, { maxItems: limits.maxBatch });

/** What /v2's pages add to a comment written (docs/api.md, "Version 2"); v1 takes them too. */
const CommentV2Members = (limits: InputLimits) => ({
  context: Opt(FreeObject),
  attachments: Opt(AttachmentsIn(limits)),
  isCommentResolverUsed: Opt(Type.Boolean()),
  isCommentTextAvailable: Opt(Type.Boolean()),
});

export const CommentIn = (limits: InputLimits) =>
  Type.Object({
    commentId: Opt(CommentId),
    commentText: Opt(Text(limits)),
    commentHtml: Opt(Text(limits)),
    from: UserRefIn,
    createdAt: Opt(Millis),
    lastUpdated: Opt(Millis),
    taggedUserContacts: Opt(TaggedUserContacts(limits)),
    ...CommentV2Members(limits),
    agent: Opt(CommentAgentIn),
    /** /v2 asks per comment: any comment asking notifies, as `data.triggerNotification` does (v1 ignores it). */
    triggerNotification: Opt(Type.Boolean()),
    /** /v2: false keeps this comment's write out of the activity log (docs/decisions.md, "Activities"). */
    triggerActivities: Opt(Type.Boolean()),
  });

/** Who may see a thread (/v2): everyone, an organization's users, or the listed users. */
const VisibilityIn = (limits: InputLimits) =>
  Type.Object({
    type: Type.Union([Type.Literal('public'), Type.Literal('organizationPrivate'), Type.Literal('restricted')]),
    organizationId: Opt(Id),
    userIds: Opt(Type.Array(Id, { maxItems: limits.maxBatch })),
  });

/** The writes that may make the organization or document they name: they are made by any first write anyway. */
const CreateFlags = {
  createOrganization: Opt(Type.Boolean()),
  createDocument: Opt(Type.Boolean()),
  /** Every author must be an editor of the document, or nothing is written (docs/decisions.md, "verifyUserPermissions (issue 38)"). */
  verifyUserPermissions: Opt(Type.Boolean()),
};

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
          /** /v2: a comment thread, or a suggestion with its proposed change (`suggestion`, kept as sent). */
          type: Opt(Type.Union([Type.Literal('comment'), Type.Literal('suggestion')])),
          suggestion: Opt(FreeObject),
          commentType: Opt(Type.Union([Type.Literal('manual'), Type.Literal('chart'), Type.Literal('suggestion')])),
          visibility: Opt(VisibilityIn(limits)),
        }),
      ),
      triggerNotification: TriggerNotification,
      ...CreateFlags,
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
      ...CreateFlags,
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
      ...PAGING,
    }),
  );

/**
 * /v2's commentannotations/get (docs/api.md, "Version 2"): an organization's threads, or some documents' or a
 * folder's, by lastUpdated, with the v2 filters; at most one agent filter.
 */
export const AnnotationsSearchBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Opt(Id),
      documentIds: Filter(limits, Id),
      groupByDocumentId: Opt(Type.Boolean()),
      folderId: Opt(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'A folderId, or "root" for no folder' })),
      annotationIds: Filter(limits, Id),
      locationIds: Filter(limits, Id),
      userIds: Filter(limits, Id),
      mentionedUserIds: Filter(limits, Id),
      statusIds: Filter(limits, Id),
      resolvedBy: Opt(Id),
      agentId: Opt(Id),
      executionId: Opt(Id),
      agentType: Opt(Type.Union([Type.Literal('built-in'), Type.Literal('custom'), Type.Literal('external')])),
      agentSource: Opt(Type.Union([Type.Literal('velt'), Type.Literal('external')])),
      agentSuggestions: Opt(Type.Boolean()),
      agentComments: Opt(Type.Boolean()),
      order: Opt(Order),
      updatedAfter: Opt(Millis),
      updatedBefore: Opt(Millis),
      createdAfter: Opt(Millis),
      createdBefore: Opt(Millis),
      ...PAGING,
    }),
  );
export type AnnotationsSearchData = DataOf<typeof AnnotationsSearchBody>;

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
          /** Who resolved the thread, and who made this status change (null clears either). */
          resolvedByUserId: Opt(Id),
          statusUpdatedByUserId: Opt(Id),
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
export const AnnotationsDeleteBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      ...ThreadFilters(limits),
      /** /v2: the threads of this agent; only its pending suggestions; only those made at these URLs. */
      agentId: Opt(Id),
      agentSuggestions: Opt(Type.Boolean()),
      agentUrls: Filter(limits, Type.String({ maxLength: MAX_URL_LENGTH })),
    }),
  );

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
        ...CommentV2Members(limits),
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
