// The request bodies of the comment operations (SPEC 6).
import Type from 'typebox';
import {
  Batch,
  CommentId,
  Filter,
  FreeObject,
  Id,
  Opt,
  RequestBody,
  Text,
  UserRefIn,
  type InputLimits,
  type DataOf,
} from './common.js';

export const CommentIn = (limits: InputLimits) =>
  Type.Object({
    commentId: Opt(CommentId),
    commentText: Opt(Text(limits)),
    commentHtml: Opt(Text(limits)),
    from: UserRefIn,
  });

/** The commentannotations/add request body, with the configured limits. */
export const AnnotationsAddBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Id,
      commentAnnotations: Batch(
        limits,
        Type.Object({
          annotationId: Opt(Id),
          location: Opt(FreeObject),
          locationId: Opt(Id),
          context: Opt(FreeObject),
          status: Opt(FreeObject),
          commentData: Batch(limits, CommentIn(limits)),
        }),
      ),
    }),
  );

/** The comments/add request body, with the configured limits. */
export const CommentsAddBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Id,
      annotationId: Id,
      commentData: Batch(limits, CommentIn(limits)),
    }),
  );

/** The comments/get request body, with the configured limits. */
export const CommentsGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Id,
      annotationId: Id,
      userIds: Filter(limits, Id),
      commentIds: Filter(limits, CommentId),
    }),
  );

export type AnnotationsAddData = DataOf<typeof AnnotationsAddBody>;
export type CommentsAddData = DataOf<typeof CommentsAddBody>;
export type CommentsGetData = DataOf<typeof CommentsGetBody>;
