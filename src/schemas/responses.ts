// What each operation answers (SPEC 1, 5-7), as TypeBox schemas: they type the handlers' results,
// describe the API in /openapi.json and type the client. They do not drive serialization: responses
// are written with JSON.stringify (see app.ts), so a schema can never drop or coerce a member.
import { SettingValue } from './notifications.js';
import Type, { type Static, type TSchema } from 'typebox';

import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/** The failure envelope of SPEC 1: one shared schema (app.addSchema), which the answers refer to. */
export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      message: Type.String({ description: 'Human readable; names the offending member path for INVALID_ARGUMENT.' }),
      status: Type.Unsafe<ErrorCode>(Type.Union(ERROR_CODES.map((c) => Type.Literal(c)))),
      details: Type.Optional(Type.Unknown()),
    }),
  },
  { $id: 'ErrorBody', description: 'The failure envelope' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** The success envelope of SPEC 1 around an operation's data; extensions sit beside data. */
// E defaults to no extensions: inferred from the constraint instead, it would widen every result to unknown.
const Success = <T extends TSchema, E extends Record<string, TSchema> = Record<never, TSchema>>(
  data: T,
  extensions: E = {} as E,
) =>
  Type.Object(
    {
      result: Type.Object({ status: Type.Literal('success'), message: Type.String(), data, ...extensions }),
    },
    { description: 'Success: the result envelope' },
  );

/** The answers an operation can give: its success, and the envelope for every error it can meet. */
export function answers<T extends TSchema>(success: T, also: readonly (404 | 409)[] = []) {
  const error = (description: string) =>
    Type.Unsafe<{ error: { message: string; status: string } }>({ $ref: 'ErrorBody#', description });
  return {
    200: success,
    400: error('INVALID_ARGUMENT: the body, a member, or the Content-Type'),
    401: error('UNAUTHENTICATED: a credential header missing, or unknown, wrong or revoked'),
    403: error('PERMISSION_DENIED: the tenant is disabled'),
    ...(also.includes(404) ? { 404: error('NOT_FOUND: a named parent does not exist') } : {}),
    405: error('INVALID_ARGUMENT: a method other than POST (with Allow: POST)'),
    ...(also.includes(409) ? { 409: error('ALREADY_EXISTS: a caller-chosen id is taken; nothing was written') } : {}),
    408: error(
      'INVALID_ARGUMENT: the request did not arrive within MARGINALIA_HTTP_HEADERS_TIMEOUT_MS /' +
        ' MARGINALIA_HTTP_REQUEST_TIMEOUT_MS; the connection closes',
    ),
    413: error('INVALID_ARGUMENT: the body is over MARGINALIA_BODY_LIMIT'),
    429: error(
      'RESOURCE_EXHAUSTED: over the rate limit (with Retry-After), or an annotation out of commentIds (no' +
        ' Retry-After: permanent, do not retry)',
    ),
    500: error('INTERNAL: a bug; the message carries the request id'),
    503: error(
      'UNAVAILABLE: the database cannot be reached, its storage is full or read-only, its file is damaged, or the server is shutting down',
    ),
  };
}

export const UserOutcome = Type.Object({
  success: Type.Boolean(),
  id: Type.String({ description: 'The internal user id: 32 lowercase hex characters' }),
  message: Type.String(),
});
export const UsersResult = Success(Type.Record(Type.String(), UserOutcome, { description: 'By userId' }));

export const AnnotationOutcome = Type.Object({
  success: Type.Boolean(),
  annotationId: Type.String(),
  commentIds: Type.Optional(Type.Array(Type.Integer())),
  message: Type.String(),
});
export const AnnotationsResult = Success(Type.Record(Type.String(), AnnotationOutcome, { description: 'By annotationId' }));

export const CommentIdsResult = Success(Type.Array(Type.Integer(), { description: 'The new commentIds, in request order' }));

export const ShownUser = Type.Object({ email: Type.String(), name: Type.String(), userId: Type.String() });

export const Comment = Type.Object({
  commentId: Type.Integer(),
  commentHtml: Type.String(),
  commentText: Type.String(),
  from: ShownUser,
  lastUpdated: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
  createdAt: Type.Integer({ description: 'Milliseconds since the Unix epoch' }),
  status: Type.String(),
  type: Type.String(),
  taggedUserContacts: Type.Optional(
    Type.Array(Type.Object({ userId: Type.String(), text: Type.Optional(Type.String()), contact: Type.Optional(ShownUser) }), {
      description: 'Only when set; each contact resolved at read time',
    }),
  ),
});
export const CommentsResult = Success(
  Type.Array(Type.Union([Comment, Type.Null()]), {
    description: 'The thread in order; with commentIds, one entry per id asked, null where there is none',
  }),
);

const FreeObject = Type.Record(Type.String(), Type.Unknown());

/** A thread as commentannotations/get shows it (SPEC 10.1); the optional members only when set. */
export const Annotation = Type.Object({
  annotationId: Type.String(),
  type: Type.Literal('comment'),
  from: Type.Union([ShownUser, Type.Null()], { description: "Its first comment's author; null without comments" }),
  comments: Type.Array(Comment, { description: 'In creation order' }),
  status: FreeObject,
  createdAt: Type.Integer({ description: 'Milliseconds since the Unix epoch' }),
  lastUpdated: Type.Integer({ description: 'Milliseconds: the latest change to the thread or any of its comments' }),
  metadata: Type.Object({ apiKey: Type.String(), organizationId: Type.String(), documentId: Type.String() }),
  location: Type.Optional(FreeObject),
  locationId: Type.Optional(Type.String()),
  context: Type.Optional(FreeObject),
  assignedTo: Type.Optional(ShownUser),
  priority: Type.Optional(FreeObject),
  targetElement: Type.Optional(FreeObject),
});
export const AnnotationListResult = Success(
  Type.Array(Type.Union([Annotation, Type.Null()]), {
    description: 'Newest first, paged; with annotationIds, one entry per id asked, null where there is none',
  }),
  { pageToken: Type.Optional(Type.String({ description: 'Present when more threads remain' })) },
);

/** A per-item answer of a change or delete (SPEC 10.4, 10.5, 10.8, 10.9). */
const ItemOutcome = <T extends TSchema>(id: T) => Type.Object({ success: Type.Boolean(), id, message: Type.String() });
export const AnnotationChangesResult = Success(
  Type.Record(Type.String(), ItemOutcome(Type.String()), { description: 'By annotationId' }),
);
export const CommentChangesResult = Success(
  Type.Record(Type.String(), ItemOutcome(Type.Integer()), { description: 'By commentId (as a string)' }),
);
export const AnnotationCountsResult = Success(
  Type.Record(Type.String(), Type.Object({ total: Type.Integer(), unread: Type.Integer() }), { description: 'By documentId' }),
);
export const MarkedReadResult = Success(Type.Object({ read: Type.Integer({ description: 'Threads marked read' }) }));

export const NotificationAddedResult = Success(
  Type.Object({
    success: Type.Literal(true),
    id: Type.String(),
    message: Type.String(),
  }),
);

export const Notification = Type.Object({
  id: Type.String(),
  notificationSource: Type.Union([Type.Literal('custom'), Type.Literal('comment')]),
  notificationSourceData: Type.Record(Type.String(), Type.Unknown()),
  actionUser: ShownUser,
  displayBodyMessage: Type.String(),
  displayHeadlineMessageTemplate: Type.String(),
  displayHeadlineMessageTemplateData: Type.Record(Type.String(), Type.Unknown()),
  metadata: Type.Object({
    apiKey: Type.String(),
    organizationId: Type.String(),
    documentId: Type.Optional(Type.String()),
    locationId: Type.Optional(Type.String()),
  }),
  notifyUsers: Type.Record(Type.String(), Type.Boolean(), { description: 'By internal user id: true while unread' }),
  notifyUsersByUserId: Type.Record(Type.String(), Type.Boolean(), { description: 'By userId: true while unread' }),
  timestamp: Type.Integer({ description: 'Milliseconds since the Unix epoch' }),
});
export const NotificationsResult = Success(Type.Array(Notification), {
  pageToken: Type.Optional(Type.String({ description: 'Present when more results remain' })),
});

/** A per-notification answer of notifications/update and notifications/delete (SPEC 11.3, 11.4). */
const NotificationOutcome = Type.Object({ success: Type.Boolean(), message: Type.String() });
export const NotificationChangesResult = Success(
  Type.Record(Type.String(), NotificationOutcome, { description: 'By notification id' }),
);
export const NotificationCountResult = Success(Type.Object({ total: Type.Integer(), unread: Type.Integer() }));
export const NotificationsMarkedResult = Success(
  Type.Object({ read: Type.Integer({ description: 'Notifications newly marked read' }) }),
);

export const NotificationConfigResult = Success(
  Type.Array(
    Type.Object({
      config: Type.Object({ inbox: SettingValue, email: SettingValue }),
      metadata: Type.Object({
        organizationId: Type.String(),
        documentId: Type.String(),
        userId: Type.String(),
        apiKey: Type.String(),
      }),
    }),
    { description: 'One entry per document, in the order asked' },
  ),
);
export const NotificationConfigSetResult = Success(
  Type.Record(
    Type.String(),
    Type.Object({ success: Type.Boolean(), userId: Type.String(), documentId: Type.String(), message: Type.String() }),
    { description: 'By userId; documentId is the last document' },
  ),
);

/** organizations/add and update (SPEC 12): by organizationId. */
export const OrganizationsResult = Success(
  Type.Record(
    Type.String(),
    ItemOutcome(
      Type.String({ description: "add: the organization's internal id (32 lowercase hex); update: the organizationId" }),
    ),
    { description: 'By organizationId' },
  ),
);

export const Organization = Type.Object({
  id: Type.String({ description: 'The organizationId' }),
  organizationName: Type.String({ description: '"" when never set' }),
  disabled: Type.Boolean(),
  createdAt: Type.Integer({ description: 'ms since the epoch' }),
  lastUpdated: Type.Integer({ description: 'ms since the epoch' }),
});
export const OrganizationListResult = Success(
  Type.Array(Organization, { description: 'In organizationId order, paged; unknown ids are left out' }),
  { pageToken: Type.Optional(Type.String({ description: 'Present when more organizations remain' })) },
);
