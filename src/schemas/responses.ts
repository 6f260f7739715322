// What each operation answers (docs/api.md), as TypeBox schemas: they type the handlers' results,
// describe the API in /openapi.json and type the client. They do not drive serialization: responses
// are written with JSON.stringify (see app.ts), so a schema can never drop or coerce a member.
import { SettingValue } from './notifications.js';
import Type, { type Static, type TOptional, type TSchema, type TString } from 'typebox';

import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/**
 * The failure envelope (docs/api.md, "Wire format"): one shared schema (app.addSchema), which the answers refer to.
 */
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

/** An error answer: the shared envelope, described for one status. */
const error = (description: string) =>
  Type.Unsafe<{ error: { message: string; status: string } }>({ $ref: 'ErrorBody#', description });

/** The success envelope (docs/api.md, "Wire format") around an operation's data; extensions sit beside data. */
// E defaults to no extensions: inferred from the constraint instead, it would widen every result to unknown.
export const Success = <T extends TSchema, E extends Record<string, TSchema> = Record<never, TSchema>>(
  data: T,
  extensions: E = {} as E,
) =>
  Type.Object(
    {
      result: Type.Object({ status: Type.Literal('success'), message: Type.String(), data, ...extensions }),
    },
    { description: 'Success: the result envelope' },
  );

/** A success the page prints without data: the status and the message alone (permissionproviderconfig/update, permissions). */
export const MessageOnlyResult = Type.Object(
  { result: Type.Object({ status: Type.Literal('success'), message: Type.String() }) },
  { description: 'Success: the result envelope, without data' },
);

/** The next page's token beside data, under the name a page gives it (pageToken, or nextPageToken on some /v2 pages). */
const pageTokenNamed = <N extends string>(name: N, what: string) =>
  ({ [name]: Type.Optional(Type.String({ description: `Present when more ${what} remain` })) }) as Record<N, TOptional<TString>>;

/**
 * The answers an operation can give: its success (HTTP 200, or 202 for users/data/delete, whose page
 * documents it so), and the envelope for every error it can meet; `partial` describes a documented
 * partial success it answers as 500 INTERNAL with details (errors.ts).
 */
export function answers<T extends TSchema>(
  success: T,
  also: readonly (404 | 409)[] = [],
  { partial, successStatus = 200 }: { partial?: string; successStatus?: 200 | 202 } = {},
) {
  return {
    [successStatus]: success,
    400: error(
      'INVALID_ARGUMENT: the body, a member, or the Content-Type; FAILED_PRECONDITION: a state the request needs is not there' +
        ' (advanced webhooks not enabled)',
    ),
    401: error('UNAUTHENTICATED: a credential header missing, or unknown, wrong or revoked'),
    403: error('PERMISSION_DENIED: the tenant is disabled, or a write names a disabled organization or document'),
    ...(also.includes(404) ? { 404: error('NOT_FOUND: a named parent does not exist') } : {}),
    405: error('INVALID_ARGUMENT: a method other than POST (with Allow: POST)'),
    ...(also.includes(409) ? { 409: error('ALREADY_EXISTS: a caller-chosen id is taken; nothing was written') } : {}),
    408: error(
      'INVALID_ARGUMENT: the request did not arrive within MARGINALIA_HTTP_HEADERS_TIMEOUT_MS /' +
        ' MARGINALIA_HTTP_REQUEST_TIMEOUT_MS; the connection closes',
    ),
    413: error('INVALID_ARGUMENT: the body is over MARGINALIA_BODY_LIMIT'),
    429: error(
      'RESOURCE_EXHAUSTED: over the rate limit (with Retry-After), or a bound that waiting does not lift: an annotation' +
        ' out of commentIds, a document holding the most live states (no Retry-After: do not retry)',
    ),
    500: error(
      partial === undefined
        ? 'INTERNAL: a bug; the message carries the request id'
        : `INTERNAL: a bug (the message carries the request id); or, with \`details\`, ${partial}`,
    ),
    503: error(
      'UNAVAILABLE: the database cannot be reached, its storage is full or read-only, its file is damaged, or the server is shutting down',
    ),
  };
}

/**
 * The answers of a page of the original service's other products (docs/api.md, "Not available on a
 * self-hosted server"): 501 once the credentials pass, and what is answered before that. Its body is
 * not read, so nothing in it is refused.
 */
export function unavailableAnswers() {
  return {
    501: error('UNIMPLEMENTED: "<path> is not available on a self-hosted server.", once the credentials pass'),
    400: error('INVALID_ARGUMENT: a body that is not JSON, or another Content-Type'),
    401: error('UNAUTHENTICATED: a credential header missing, or unknown, wrong or revoked'),
    403: error('PERMISSION_DENIED: the tenant is disabled'),
    405: error('INVALID_ARGUMENT: a method other than POST (with Allow: POST)'),
    408: error('INVALID_ARGUMENT: the request did not arrive within the HTTP timeouts; the connection closes'),
    413: error('INVALID_ARGUMENT: the body is over MARGINALIA_BODY_LIMIT'),
    429: error('RESOURCE_EXHAUSTED: over the rate limit (with Retry-After)'),
    500: error('INTERNAL: a bug; the message carries the request id'),
    503: error('UNAVAILABLE: the database cannot be reached (the credentials are checked there), or the server is shutting down'),
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

const FreeObject = Type.Record(Type.String(), Type.Unknown());

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
  context: Type.Optional(FreeObject),
  attachments: Type.Optional(Type.Array(FreeObject, { description: 'References to files stored elsewhere, as sent' })),
  agent: Type.Optional(FreeObject),
});
export const CommentsResult = Success(
  Type.Array(Type.Union([Comment, Type.Null()]), {
    description: 'The thread in order; with commentIds, one entry per id asked, null where there is none',
  }),
);

/**
 * A thread as commentannotations/get shows it (docs/api.md, "What a thread reads as"); the optional members only
 * when set.
 */
export const Annotation = Type.Object({
  annotationId: Type.String(),
  type: Type.Union([Type.Literal('comment'), Type.Literal('suggestion')]),
  from: Type.Union([ShownUser, Type.Null()], { description: "Its first comment's author; null without comments" }),
  comments: Type.Array(Comment, { description: 'In creation order' }),
  status: FreeObject,
  createdAt: Type.Integer({ description: 'Milliseconds since the Unix epoch' }),
  lastUpdated: Type.Integer({ description: 'Milliseconds: the latest change to the thread or any of its comments' }),
  metadata: Type.Object({
    apiKey: Type.String(),
    organizationId: Type.Optional(Type.String({ description: 'Absent for a document without an organization' })),
    documentId: Type.String(),
  }),
  location: Type.Optional(FreeObject),
  locationId: Type.Optional(Type.String()),
  context: Type.Optional(FreeObject),
  color: Type.Optional(Type.String({ description: 'As the thread was given it' })),
  assignedTo: Type.Optional(ShownUser),
  priority: Type.Optional(FreeObject),
  targetElement: Type.Optional(FreeObject),
  suggestion: Type.Optional(FreeObject),
  commentType: Type.Optional(Type.String()),
  visibility: Type.Optional(FreeObject),
  resolvedByUserId: Type.Optional(Type.String()),
  statusUpdatedByUserId: Type.Optional(Type.String()),
});
export const AnnotationListResult = Success(
  Type.Array(Type.Union([Annotation, Type.Null()]), {
    description: 'Newest first, paged; with annotationIds, one entry per id asked, null where there is none',
  }),
  { pageToken: Type.Optional(Type.String({ description: 'Present when more threads remain' })) },
);

/** A user as /v2 shows it: with what the original derives from the profile (answers/v2-threads.ts). */
const ShownUserV2 = Type.Object({
  ...ShownUser.properties,
  organizationId: Type.Optional(Type.String()),
  photoUrl: Type.String(),
  initial: Type.String(),
  clientUserName: Type.String(),
  name_lowercase: Type.String(),
  email_lowercase: Type.String(),
  type: Type.Literal('signedIn'),
  contacts: Type.Array(Type.Unknown()),
  isAdmin: Type.Boolean(),
});

/** A comment as /v2 shows it: its lists always there. */
export const CommentV2 = Type.Object({
  ...Comment.properties,
  from: ShownUserV2,
  isDraft: Type.Boolean(),
  isCommentTextAvailable: Type.Boolean(),
  to: Type.Array(Type.Unknown()),
  toOrganizationUserGroup: Type.Array(Type.Unknown()),
  taggedUserContacts: Type.Array(
    Type.Object({ userId: Type.String(), text: Type.Optional(Type.String()), contact: Type.Optional(ShownUserV2) }),
  ),
  attachments: Type.Array(FreeObject),
  recorders: Type.Array(Type.Unknown()),
  customList: Type.Array(Type.Unknown()),
  reactionAnnotationIds: Type.Array(Type.String()),
  reactionAnnotations: Type.Array(FreeObject),
});
export const CommentsResultV2 = Success(
  Type.Array(Type.Union([CommentV2, Type.Null()]), {
    description: 'The thread in order; with commentIds, one entry per id asked, null where there is none',
  }),
);

/** A thread as /v2 shows it (docs/api.md, "Version 2"). */
const AnnotationV2 = Type.Object({
  ...Annotation.properties,
  from: Type.Union([ShownUserV2, Type.Null()]),
  assignedTo: Type.Optional(ShownUserV2),
  comments: Type.Array(CommentV2, { description: 'In creation order' }),
  hasDraftComments: Type.Boolean(),
  visibilityConfig: FreeObject,
  subscribedUsers: Type.Record(Type.String(), FreeObject, { description: 'Its participants, by internal user id' }),
  unsubscribedUsers: FreeObject,
  subscribedGroups: FreeObject,
  customList: Type.Array(Type.Unknown()),
});
export const AnnotationSearchResultV2 = Success(
  Type.Union([
    Type.Array(Type.Union([AnnotationV2, Type.Null()]), {
      description:
        'By lastUpdated (newest first unless order is "asc"), paged; with annotationIds, one entry per id asked, null where there is none',
    }),
    Type.Record(Type.String(), Type.Array(AnnotationV2), { description: 'groupByDocumentId: by documentId' }),
  ]),
  pageTokenNamed('nextPageToken', 'threads'),
);

/** A per-item answer of a change or delete (docs/api.md, "Comment threads"). */
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
  notificationSource: Type.String({
    description: '"comment" when a comment made it; else as notifications/add gave it ("custom")',
  }),
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
  context: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'As notifications/add gave it' })),
  isNotificationResolverUsed: Type.Optional(
    Type.Literal(true, { description: "Its content comes from the customer's resolver" }),
  ),
  notifyUsers: Type.Record(Type.String(), Type.Boolean(), { description: 'By internal user id: true while unread' }),
  notifyUsersByUserId: Type.Record(Type.String(), Type.Boolean(), { description: 'By userId: true while unread' }),
  timestamp: Type.Integer({ description: 'Milliseconds since the Unix epoch' }),
});
export const NotificationsResult = Success(Type.Array(Notification), {
  pageToken: Type.Optional(Type.String({ description: 'Present when more results remain' })),
});

/**
 * A per-notification answer of notifications/update and notifications/delete (docs/api.md,
 * "POST /v1/notifications/update" and "POST /v1/notifications/delete").
 */
const NotificationOutcome = Type.Object({ success: Type.Boolean(), message: Type.String() });
export const NotificationChangesResult = Success(
  Type.Record(Type.String(), NotificationOutcome, { description: 'By notification id' }),
);
export const NotificationCountResult = Success(Type.Object({ total: Type.Integer(), unread: Type.Integer() }));
export const NotificationsMarkedResult = Success(
  Type.Object({ read: Type.Integer({ description: 'Notifications newly marked read' }) }),
);

export const NotificationsArchivedResult = Success(
  Type.Object({ archived: Type.Integer({ description: 'Notifications newly archived for the user' }) }),
);
export const NotificationsUnarchivedResult = Success(
  Type.Object({ unarchived: Type.Integer({ description: 'Notifications newly taken out of the user archive' }) }),
);

export const NotificationConfigResult = Success(
  Type.Array(
    Type.Object({
      config: Type.Object({ inbox: SettingValue, email: SettingValue }),
      metadata: Type.Object({
        organizationId: Type.String(),
        documentId: Type.Optional(Type.String({ description: 'Absent for the organization-level setting' })),
        userId: Type.String(),
        apiKey: Type.String(),
      }),
    }),
    { description: 'One entry per document, in the order asked; with getOrganizationConfig, the organization-level one' },
  ),
);
export const NotificationConfigSetResult = Success(
  Type.Record(
    Type.String(),
    Type.Object({
      success: Type.Boolean(),
      userId: Type.String(),
      documentId: Type.Optional(Type.String({ description: 'The last document; absent for the organization-level setting' })),
      message: Type.String(),
    }),
    { description: 'By userId' },
  ),
);

/** auth/token/get (docs/api.md, "POST /v1/auth/token/get"): a signed end-user token. */
export const AuthTokenResult = Success(
  Type.Object({
    token: Type.String({ description: 'A JWT (HS256) for the user, valid 48 hours: for GET /v1/events from a browser' }),
  }),
);

/** organizations/add and update (docs/api.md, "Organizations"): by organizationId. */
export const OrganizationsResult = Success(
  Type.Record(
    Type.String(),
    ItemOutcome(Type.String({ description: "The organization's internal id (32 lowercase hex), the same in every answer" })),
    { description: 'By organizationId' },
  ),
);

/** organizations/delete (docs/api.md, "Organizations"): by organizationId. */
export const OrganizationsDeleteResult = Success(
  Type.Record(
    Type.String(),
    ItemOutcome(Type.String({ description: "The organization's internal id (32 lowercase hex), the same in every answer" })),
    { description: 'By organizationId' },
  ),
);

/**
 * The disable-state updates of organizations and documents (docs/api.md, "Disabled organizations and documents"):
 * by the caller's id.
 */
export const DisableStateResult = Success(
  Type.Record(
    Type.String(),
    Type.Object({
      success: Type.Boolean(),
      id: Type.String({ description: 'The internal id (32 lowercase hex), as add, update and delete answer it' }),
      disabled: Type.Optional(Type.Boolean({ description: 'The state set; absent when success is false' })),
      message: Type.String(),
    }),
    { description: 'By id; an organization that does not exist is answered so, and not created' },
  ),
);

export const Organization = Type.Object({
  id: Type.String({ description: 'The organizationId' }),
  organizationName: Type.String({ description: '"" when never set' }),
  disabled: Type.Boolean(),
  createdAt: Type.Integer({ description: 'ms since the epoch' }),
  lastUpdated: Type.Integer({ description: 'ms since the epoch' }),
});
const OrganizationList = Type.Array(Organization, { description: 'In organizationId order, paged; unknown ids are left out' });
export const OrganizationListResult = Success(OrganizationList, pageTokenNamed('pageToken', 'organizations'));
/** /v2 names the token nextPageToken (docs/api.md, "Version 2"). */
export const OrganizationListResultV2 = Success(OrganizationList, pageTokenNamed('nextPageToken', 'organizations'));

/**
 * documents/add, update and delete (docs/api.md, "Documents"): by documentId; a document that does not exist is `code:
 * "not-found"`.
 */
export const DocumentsResult = Success(
  Type.Record(
    Type.String(),
    Type.Object({
      success: Type.Boolean(),
      id: Type.String({
        description:
          "The document's internal id (32 lowercase hex), the same in every answer; the documentId when it does not exist",
      }),
      message: Type.String(),
      code: Type.Optional(Type.Literal('not-found')),
    }),
    { description: 'By documentId' },
  ),
);

const AccessType = Type.Union([Type.Literal('organizationPrivate'), Type.Literal('restricted'), Type.Literal('public')]);

export const Document = Type.Object({
  id: Type.String({ description: 'The documentId' }),
  documentName: Type.String({ description: '"" when never set' }),
  folderId: Type.Union([Type.String(), Type.Null()], { description: 'null: in no folder' }),
  accessType: AccessType,
  disabled: Type.Boolean(),
  createdAt: Type.Integer({ description: 'ms since the epoch' }),
  lastUpdated: Type.Integer({ description: 'ms since the epoch' }),
});
export const DocumentListResult = Success(
  Type.Array(Document, { description: 'In documentId order, paged; unknown ids are left out' }),
  { pageToken: Type.Optional(Type.String({ description: 'Present when more documents remain' })) },
);
/** documents/move: the envelope without a data member, as the original service's page shows it. */
export const DocumentsMovedResult = Type.Object(
  { result: Type.Object({ status: Type.Literal('success'), message: Type.String() }) },
  { description: 'Success: the result envelope, with no data member' },
);

/** documents/access/update and folders/access/update: by id. */
export const AccessResult = Success(
  Type.Record(
    Type.String(),
    Type.Object({
      success: Type.Boolean(),
      accessType: AccessType,
      message: Type.String(),
      code: Type.Optional(Type.Literal('not-found')),
    }),
    { description: 'By documentId or folderId' },
  ),
);

/** /v2 folders/access/update: accessType null where only the inheritance was set, which is shown when sent. */
export const FolderAccessResultV2 = Success(
  Type.Record(
    Type.String(),
    Type.Object({
      success: Type.Boolean(),
      accessType: Type.Union([AccessType, Type.Null()]),
      inheritFromParent: Type.Optional(Type.Boolean()),
      message: Type.String(),
      code: Type.Optional(Type.Literal('not-found')),
    }),
    { description: 'By folderId' },
  ),
);

/** folders/add, update and delete: by folderId. */
export const FoldersResult = Success(
  Type.Record(
    Type.String(),
    Type.Object({
      success: Type.Boolean(),
      id: Type.String({ description: 'The folderId' }),
      message: Type.String(),
      code: Type.Optional(Type.Literal('not-found')),
    }),
    { description: 'By folderId' },
  ),
);

/** A folder as folders/get answers it; with a folderId, each carries its children (the whole subtree, nested). */
export interface FolderAnswer {
  folderId: string;
  folderName: string;
  organizationId: string;
  parentFolderId: string;
  accessType: 'organizationPrivate' | 'restricted' | 'public';
  createdAt: number;
  lastUpdated: number;
  /** /v2 only: the caller's API key, the ancestors from "root" down, and whether it inherits its parent's access. */
  apiKey?: string;
  ancestors?: string[];
  inheritAccessFromParent?: boolean;
  subFolders?: FolderAnswer[];
}
// Described flat: the nesting is documented, not spelled as a recursive schema (the answers do not drive serialization).
export const FolderListResult = Success(
  Type.Unsafe<FolderAnswer[]>({
    type: 'array',
    description:
      'Without folderId: every folder, flat, in folderId order. With folderId: that folder, its `subFolders` ' +
      '(each with its own) nesting the whole subtree. parentFolderId is "root" at the top.',
    items: {
      type: 'object',
      required: ['folderId', 'folderName', 'organizationId', 'parentFolderId', 'accessType', 'createdAt', 'lastUpdated'],
      properties: {
        folderId: { type: 'string' },
        folderName: { type: 'string', description: '"" when never set' },
        organizationId: { type: 'string' },
        parentFolderId: { type: 'string', description: '"root" at the top' },
        accessType: { type: 'string', enum: ['organizationPrivate', 'restricted', 'public'] },
        createdAt: { type: 'integer', description: 'ms since the epoch' },
        lastUpdated: { type: 'integer', description: 'ms since the epoch' },
        apiKey: { type: 'string', description: "/v2 only: the caller's API key" },
        ancestors: { type: 'array', items: { type: 'string' }, description: '/v2 only: from "root" down to the parent' },
        inheritAccessFromParent: { type: 'boolean', description: "/v2 only: it takes its parent's access" },
        subFolders: {
          type: 'array',
          items: { type: 'object' },
          description: 'With folderId: the children, nested the same way, maxDepth levels (v1: all; /v2: 1 by default)',
        },
      },
    },
  }),
);

/** users/get (docs/api.md, "POST /v1/users/get"): members, in userId order. */
export const Member = Type.Object({
  userId: Type.String(),
  name: Type.String({ description: '"" when never set' }),
  email: Type.String({ description: '"" when never set' }),
  photoUrl: Type.String({ description: '"" when never set' }),
});
const MemberList = Type.Union([
  Type.Array(Member, { description: 'In userId order, paged; unknown ids are left out' }),
  Type.Record(Type.String(), Type.Array(Member), {
    description: 'allDocuments with groupByDocumentId: by documentId, in (documentId, userId) order, paged',
  }),
]);
export const MembersResult = Success(MemberList, pageTokenNamed('pageToken', 'users'));
/** /v2 names the token nextPageToken (docs/api.md, "Version 2"). */
export const MembersResultV2 = Success(MemberList, pageTokenNamed('nextPageToken', 'users'));

/** users/delete (docs/api.md, "POST /v1/users/delete"): by userId, without an id. */
export const MembersDeletedResult = Success(
  Type.Record(Type.String(), Type.Object({ success: Type.Boolean(), message: Type.String() }), { description: 'By userId' }),
);

/** organizations/usergroups/add: by groupId, with the group's internal id. */
export const UserGroupsResult = Success(
  Type.Record(Type.String(), ItemOutcome(Type.String({ description: "The group's internal id: 32 lowercase hex" })), {
    description: 'By groupId',
  }),
);

/** organizations/usergroups/get (an extension): the organization's groups, in groupId order. */
export const UserGroup = Type.Object({
  groupId: Type.String(),
  groupName: Type.String({ description: '"" when never named' }),
});
export const UserGroupListResult = Success(
  Type.Array(UserGroup, { description: 'In groupId order, paged' }),
  pageTokenNamed('pageToken', 'groups'),
);

/** organizations/usergroups/users/add and delete: by userId. */
export const GroupUsersResult = Success(
  Type.Record(
    Type.String(),
    Type.Object({ success: Type.Boolean(), organizationUserGroupId: Type.String(), message: Type.String() }),
    { description: 'By userId' },
  ),
);

/** users/data/get: a page of what the user wrote and received. */
export const UserDataResult = Success(
  Type.Object({
    comments: Type.Array(Type.Intersect([Comment, Type.Object({ annotationId: Type.String(), documentId: Type.String() })]), {
      description: 'The comments the user wrote, as comments/get shows them, at most 100 a page',
    }),
    reactions: Type.Array(
      Type.Object({
        reactionAnnotationId: Type.String(),
        icon: Type.String(),
        userId: Type.String(),
        documentId: Type.String(),
        annotationId: Type.String(),
        commentId: Type.Integer(),
        createdAt: Type.Integer(),
      }),
      {
        description:
          'The reactions the user made (reactions/add), in document, thread, comment and icon order, at most 100 a page',
      },
    ),
    recordings: Type.Array(Type.Unknown(), { description: 'Recordings: none on a self-hosted server (always [])' }),
    notifications: Type.Array(Notification, {
      description: 'Notifications the user acted in or is addressed in (organization-wide ones too), at most 100 a page',
    }),
    archivedNotificationIds: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Of this page of notifications, those the user archived (notifications/archive); absent: none',
      }),
    ),
    activities: Type.Optional(
      Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true }), {
        description: 'Activities the user did, as activities/get shows them, newest first, at most 100 a page; absent: none',
      }),
    ),
  }),
  { nextPageToken: Type.Optional(Type.String({ description: 'Present while more remain' })) },
);

/**
 * users/data/delete: the erasure, done before the answer. HTTP 202 with the body the original service's
 * page documents: the envelope's members at the top, no `result` wrapper (docs/decisions.md).
 */
export const ErasureResult = Type.Object(
  {
    status: Type.Literal('success'),
    message: Type.String(),
    data: Type.Object({
      jobId: Type.String(),
      tasksCount: Type.Integer({ description: 'Batches (transactions) the erasure ran' }),
    }),
    statusCode: Type.Literal(202),
  },
  { description: 'Accepted: the erasure is done; the body has no result wrapper' },
);

/** users/data/delete/status. */
export const ErasureStatusResult = Success(
  Type.Object({
    isDeleteCompleted: Type.Boolean(),
    tasksLeft: Type.Integer(),
    lastTaskCompletedTime: Type.Integer({ description: 'ms since the epoch' }),
  }),
);

/** webhooks/add (docs/events.md, "Webhooks"): the secret; /v2 endpoints/secret/get shows it too. */
export const WebhookAddedResult = Success(
  Type.Object({
    webhookId: Type.String(),
    secret: Type.String({
      description: 'whsec_ and the signing key in base64 (Standard Webhooks); also shown by /v2 endpoints/secret/get',
    }),
  }),
);

export const Webhook = Type.Object({
  webhookId: Type.String(),
  url: Type.String(),
  events: Type.Optional(
    Type.Array(Type.String(), { description: 'The event types and patterns it is sent; absent: every event' }),
  ),
  description: Type.Optional(Type.String({ description: 'Absent when never given' })),
  createdAt: Type.Integer({ description: 'ms since the epoch' }),
  disabled: Type.Optional(
    Type.Literal(true, {
      description: 'Present when nothing is sent to it: switched off (endpoints/update), or by the server (see disabledReason)',
    }),
  ),
  disabledReason: Type.Optional(
    Type.String({
      description: 'Why the server switched it off (every attempt failed too long); webhooks/enable switches it on',
    }),
  ),
});
/** webhooks/get: without their secrets. */
export const WebhookListResult = Success(Type.Array(Webhook, { description: 'In the order they were added' }));

/** organizations/documents/locations/update and data/delete: data null, as the original service's pages show. */
export const LocationResult = Success(Type.Null());

/** webhooks/delete. */
export const WebhookDeletedResult = Success(Type.Null());

/** webhooks/enable: the webhook as webhooks/get shows it, now on. */
export const WebhookResult = Success(Webhook);

export const WebhookAttempt = Type.Object({
  eventId: Type.Integer({
    description: "The event's id (its body's `id`; the webhook-id header is evt_<webhook id hex>_<eventId>)",
  }),
  eventType: Type.String(),
  attempt: Type.Integer({ description: '1 for the first attempt at this event' }),
  status: Type.Union([Type.Literal('delivered'), Type.Literal('retrying'), Type.Literal('failed')], {
    description: 'delivered: a 2xx in time; retrying: failed, tried again later; failed: the last attempt failed',
  }),
  responseCode: Type.Optional(Type.Integer({ description: "The receiver's HTTP status; absent when it did not answer" })),
  error: Type.Optional(Type.String({ description: 'Why the attempt failed; absent when it was delivered' })),
  durationMs: Type.Integer(),
  attemptedAt: Type.Integer({ description: 'ms since the epoch' }),
});
/** webhooks/deliveries/get: the last attempts, newest first, paged. */
export const WebhookAttemptListResult = Success(Type.Array(WebhookAttempt, { description: 'Newest first' }), {
  pageToken: Type.Optional(Type.String({ description: 'Present when older attempts remain' })),
});

/** workspace/domains/add (the original service's page): the domains added, normalized. */
export const DomainsAddedResult = Success(
  Type.Object({
    domainsAdded: Type.Array(Type.String(), {
      description: 'The hosts added, normalized (google.com, *.firebase.com), in request order',
    }),
  }),
);
/** workspace/domains/delete: the domains removed, normalized. */
export const DomainsRemovedResult = Success(
  Type.Object({
    domainsRemoved: Type.Array(Type.String(), { description: 'The hosts removed, normalized, in request order' }),
  }),
);

/** livestate/broadcast: as the original service answers it. */
export const LiveStateBroadcastResult = Success(Type.Object({ success: Type.Literal(true) }));

/** livestate/get (an extension): a document's live states. */
export const LiveState = Type.Object({
  liveStateDataId: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'The state, as broadcast (merged, with merge)' }),
  lastUpdated: Type.Integer({ description: 'ms since the epoch: the last broadcast under this id' }),
});
export const LiveStateListResult = Success(
  Type.Array(LiveState, { description: 'In liveStateDataId order; unknown ids and documents are left out' }),
  { pageToken: Type.Optional(Type.String({ description: 'Present when more states remain' })) },
);

/** organizations/documents/migrate (/v2): the job started, to poll with migrate/status. */
export const DocumentMigrationStartedResult = Success(Type.Object({ migrationId: Type.String() }));

/** organizations/documents/migrate/status (/v2): where the job is, and (extensions) what it moves and how far it got. */
export const DocumentMigrationStatusResult = Success(
  Type.Object({
    migrationId: Type.String(),
    status: Type.Union(
      ['pending', 'in_progress', 'completed', 'failed'].map((s) => Type.Literal(s)),
      {
        description: 'pending: not taken up by a worker yet; in_progress: moving; completed; failed (see error)',
      },
    ),
    documentId: Type.String(),
    newDocumentId: Type.String(),
    movedRows: Type.Integer({ description: 'Rows moved so far, every table counted' }),
    error: Type.Optional(Type.String({ description: 'Why a failed migration stopped' })),
    createdAt: Type.Integer({ description: 'ms since the epoch: when it was started' }),
    lastUpdated: Type.Integer({ description: 'ms since the epoch: its last change of status or progress' }),
  }),
);

/** organizations/folders/delete on /v2: nothing but the message. */
export const FolderDeletedResultV2 = Success(Type.Null());
