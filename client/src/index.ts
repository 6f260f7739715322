// A typed client for the Marginalia HTTP API. Request and result types come from the same TypeBox
// schemas that validate requests and describe /openapi.json (type-only imports of src/schemas, which
// depend on typebox alone: nothing of the service runs here, and the package ships their
// declarations). Every call POSTs {"data": ...} with both credential headers and returns the
// `result` envelope; an error answer becomes a MarginaliaError carrying its status and message.
// 429 and 503 are retried with exponential backoff, waiting at least what Retry-After asks; a 429
// without Retry-After is permanent and thrown at once. `events.subscribe` reads the live event stream
// (GET /v1/events) as an async iterator that resumes by itself (events.ts).
import type { Static, TSchema } from 'typebox';
import type {
  AnnotationsAddData,
  AnnotationsCountData,
  AnnotationsDeleteData,
  AnnotationsGetData,
  AnnotationsReadData,
  AnnotationsUpdateData,
  CommentsAddData,
  CommentsDeleteData,
  CommentsGetData,
  CommentsUpdateData,
} from '../../src/schemas/comments.js';
import type { ErrorCode } from '../../src/schemas/error-codes.js';
import type {
  NotificationConfigGetData,
  NotificationConfigSetData,
  NotificationsAddData,
  NotificationsCountData,
  NotificationsDeleteData,
  NotificationsGetData,
  NotificationsReadData,
  NotificationsUpdateData,
} from '../../src/schemas/notifications.js';
import type {
  OrganizationIdsData,
  OrganizationsData,
  OrganizationsDisableData,
  OrganizationsGetData,
} from '../../src/schemas/organizations.js';
import type {
  DocumentsAccessData,
  DocumentsAddData,
  DocumentsDeleteData,
  DocumentsDisableData,
  DocumentsGetData,
  DocumentsMoveData,
  DocumentsUpdateData,
} from '../../src/schemas/documents.js';
import type { FoldersAccessData, FoldersData, FoldersDeleteData, FoldersGetData } from '../../src/schemas/folders.js';
import type { UsersData, UsersDeleteData, UsersGetData } from '../../src/schemas/users.js';
import type { GroupUsersAddData, GroupUsersDeleteData, UserGroupsAddData } from '../../src/schemas/groups.js';
import type { UserDataDeleteData, UserDataGetData, UserDataStatusData } from '../../src/schemas/personal-data.js';
import type { AuthTokenData } from '../../src/schemas/auth.js';
import type { LocationDataDeleteData, LocationsUpdateData } from '../../src/schemas/locations.js';
import type { LiveStateBroadcastData, LiveStateGetData } from '../../src/schemas/livestate.js';
import type { WebhookDeliveriesGetData, WebhookIdData, WebhooksAddData, WebhooksGetData } from '../../src/schemas/webhooks.js';
import type { DomainsData } from '../../src/schemas/workspace.js';
import { type EventSubscription, type SubscribeOptions, Subscription } from './events.js';
import type {
  AnnotationChangesResult,
  AnnotationCountsResult,
  AnnotationListResult,
  AnnotationsResult,
  CommentChangesResult,
  CommentIdsResult,
  MarkedReadResult,
  CommentsResult,
  NotificationAddedResult,
  NotificationChangesResult,
  NotificationConfigResult,
  NotificationConfigSetResult,
  NotificationCountResult,
  NotificationsMarkedResult,
  NotificationsResult,
  OrganizationListResult,
  OrganizationsResult,
  MembersResult,
  MembersDeletedResult,
  UserGroupsResult,
  GroupUsersResult,
  UserDataResult,
  ErasureResult,
  ErasureStatusResult,
  OrganizationsDeleteResult,
  DisableStateResult,
  AccessResult,
  AuthTokenResult,
  DocumentListResult,
  DocumentsMovedResult,
  DocumentsResult,
  LocationResult,
  FolderListResult,
  FoldersResult,
  LiveStateBroadcastResult,
  LiveStateListResult,
  UsersResult,
  WebhookAddedResult,
  WebhookAttemptListResult,
  WebhookDeletedResult,
  WebhookListResult,
  DomainsAddedResult,
  DomainsRemovedResult,
} from '../../src/schemas/responses.js';

export {
  EVENT_TYPES,
  type EventFamily,
  type EventSubscription,
  type EventType,
  type MarginaliaEvent,
  type SubscribeOptions,
} from './events.js';

/** The `result` member an operation answers with. */
type ResultOf<S extends TSchema> = Static<S> extends { result: infer R } ? R : never;

/** The `data` member each operation takes: the types the service validates against. */
export type {
  AuthTokenData,
  AnnotationsAddData,
  AnnotationsCountData,
  AnnotationsDeleteData,
  AnnotationsGetData,
  AnnotationsReadData,
  AnnotationsUpdateData,
  CommentsAddData,
  CommentsDeleteData,
  CommentsGetData,
  CommentsUpdateData,
  LocationDataDeleteData,
  LocationsUpdateData,
  DomainsData,
  LiveStateBroadcastData,
  LiveStateGetData,
  NotificationConfigGetData,
  NotificationConfigSetData,
  NotificationsAddData,
  NotificationsCountData,
  NotificationsDeleteData,
  NotificationsGetData,
  NotificationsReadData,
  NotificationsUpdateData,
  UsersData,
  WebhookDeliveriesGetData,
  WebhookIdData,
  WebhooksAddData,
  WebhooksGetData,
};

export type UsersResult = ResultOf<typeof UsersResult>;
export type AnnotationsResult = ResultOf<typeof AnnotationsResult>;
export type CommentIdsResult = ResultOf<typeof CommentIdsResult>;
export type CommentsResult = ResultOf<typeof CommentsResult>;
export type NotificationAddedResult = ResultOf<typeof NotificationAddedResult>;
export type NotificationsResult = ResultOf<typeof NotificationsResult>;
export type Notification = NotificationsResult['data'][number];
export type NotificationChangesResult = ResultOf<typeof NotificationChangesResult>;
export type NotificationCountResult = ResultOf<typeof NotificationCountResult>;
export type NotificationsMarkedResult = ResultOf<typeof NotificationsMarkedResult>;
export type NotificationConfigResult = ResultOf<typeof NotificationConfigResult>;
export type NotificationConfigSetResult = ResultOf<typeof NotificationConfigSetResult>;
export type Comment = Exclude<CommentsResult['data'][number], null>;
export type AnnotationListResult = ResultOf<typeof AnnotationListResult>;
export type Annotation = Exclude<AnnotationListResult['data'][number], null>;
export type AnnotationChangesResult = ResultOf<typeof AnnotationChangesResult>;
export type CommentChangesResult = ResultOf<typeof CommentChangesResult>;
export type AnnotationCountsResult = ResultOf<typeof AnnotationCountsResult>;
export type MarkedReadResult = ResultOf<typeof MarkedReadResult>;
export type OrganizationsResult = ResultOf<typeof OrganizationsResult>;
export type MembersResult = ResultOf<typeof MembersResult>;
export type Member = MembersResult['data'][number];
export type MembersDeletedResult = ResultOf<typeof MembersDeletedResult>;
export type UserGroupsResult = ResultOf<typeof UserGroupsResult>;
export type GroupUsersResult = ResultOf<typeof GroupUsersResult>;
export type UserDataResult = ResultOf<typeof UserDataResult>;
/** users/data/delete answers HTTP 202 with this body itself, not a `result` envelope (docs/decisions.md). */
export type ErasureResult = Static<typeof ErasureResult>;
export type ErasureStatusResult = ResultOf<typeof ErasureStatusResult>;
export type OrganizationsDeleteResult = ResultOf<typeof OrganizationsDeleteResult>;
export type DisableStateResult = ResultOf<typeof DisableStateResult>;
export type OrganizationListResult = ResultOf<typeof OrganizationListResult>;
export type Organization = OrganizationListResult['data'][number];
export type DocumentsResult = ResultOf<typeof DocumentsResult>;
export type DocumentListResult = ResultOf<typeof DocumentListResult>;
export type Document = DocumentListResult['data'][number];
export type DocumentsMovedResult = ResultOf<typeof DocumentsMovedResult>;
export type LocationResult = ResultOf<typeof LocationResult>;
export type AccessResult = ResultOf<typeof AccessResult>;
export type FoldersResult = ResultOf<typeof FoldersResult>;
export type AuthTokenResult = ResultOf<typeof AuthTokenResult>;
export type FolderListResult = ResultOf<typeof FolderListResult>;
export type Folder = FolderListResult['data'][number];
export type WebhookAddedResult = ResultOf<typeof WebhookAddedResult>;
export type WebhookListResult = ResultOf<typeof WebhookListResult>;
export type Webhook = WebhookListResult['data'][number];
export type WebhookDeletedResult = ResultOf<typeof WebhookDeletedResult>;
export type WebhookAttemptListResult = ResultOf<typeof WebhookAttemptListResult>;
export type WebhookAttempt = WebhookAttemptListResult['data'][number];
export type DomainsAddedResult = ResultOf<typeof DomainsAddedResult>;
export type DomainsRemovedResult = ResultOf<typeof DomainsRemovedResult>;
export type LiveStateBroadcastResult = ResultOf<typeof LiveStateBroadcastResult>;
export type LiveStateListResult = ResultOf<typeof LiveStateListResult>;
export type LiveState = LiveStateListResult['data'][number];

export type { ErrorCode };

/** Every entry of a paged read, following `pageToken` until none is given. */
async function everyPage<T>(get: (pageToken: string | undefined) => Promise<{ data: T[]; pageToken?: string }>): Promise<T[]> {
  const all: T[] = [];
  let pageToken: string | undefined;
  do {
    const page = await get(pageToken);
    all.push(...page.data);
    pageToken = page.pageToken;
  } while (pageToken);
  return all;
}

/** An error answer of the service (or no answer at all: status UNAVAILABLE, httpStatus 0). */
export class MarginaliaError extends Error {
  override readonly name = 'MarginaliaError';
  constructor(
    /** The SPEC's error status, e.g. NOT_FOUND. */
    readonly status: ErrorCode,
    message: string,
    /** The HTTP status (0 when no answer came). */
    readonly httpStatus: number,
    /** The x-request-id of the answer, to find it in the service's log. */
    readonly requestId: string | null,
    /** The answer's `details`, where it has some (a partial success: what was done and what skipped). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface MarginaliaOptions {
  /** Where the service listens, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  apiKey: string;
  authToken: string;
  /** How many times a 429 or 503 is retried (default 3). */
  retries?: number;
  /** The first backoff in ms, doubled each retry (default 200); Retry-After wins when longer. */
  backoffMs?: number;
  /** The longest wait in ms (default 30,000): an answer asking for longer is thrown, not waited for. */
  maxWaitMs?: number;
  /**
   * Also retry a 503 of an add that lets the service choose ids (default false). A 503 can come after
   * the write committed (the connection dropped at the end), and a retry would then add it twice; a
   * 429 is always retried, since the rate limit is checked before anything is written.
   */
  retryWritesOn503?: boolean;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

export class Marginalia {
  // Reads and upserts are safe to repeat; adds are, when the caller chose every id (a repeat is then
  // ALREADY_EXISTS, not a second copy).
  readonly users = {
    add: (data: UsersData) => this.call<UsersResult>('/v1/users/add', data, true),
    update: (data: UsersData) => this.call<UsersResult>('/v1/users/update', data, true),
    /** users/get: an organization's members (of a document, folder or groups), in userId order, paged. */
    get: (data: UsersGetData) => this.call<MembersResult>('/v1/users/get', data, true),
    /** Every page of a users/get, following pageToken. */
    all: (data: Omit<UsersGetData, 'pageToken'>): Promise<Member[]> =>
      everyPage((pageToken) => this.users.get({ ...data, pageToken })),
    /** users/delete: a document's or folder's membership, or (without either) the profile and every membership. */
    delete: (data: UsersDeleteData) => this.call<MembersDeletedResult>('/v1/users/delete', data, true),
  };

  readonly userGroups = {
    /** organizations/usergroups/add: create groups, or rename them. */
    add: (data: UserGroupsAddData) => this.call<UserGroupsResult>('/v1/organizations/usergroups/add', data, true),
    /** organizations/usergroups/users/add: users into a group that exists. */
    addUsers: (data: GroupUsersAddData) => this.call<GroupUsersResult>('/v1/organizations/usergroups/users/add', data, true),
    /** organizations/usergroups/users/delete: users (or every user, `deleteAll`) out of a group. */
    deleteUsers: (data: GroupUsersDeleteData) =>
      this.call<GroupUsersResult>('/v1/organizations/usergroups/users/delete', data, true),
  };

  readonly personalData = {
    /** users/data/get: one page of what a user wrote and received; follow `nextPageToken`. */
    get: (data: UserDataGetData) => this.call<UserDataResult>('/v1/users/data/get', data, true),
    /** users/data/delete: erase users' data, done before the answer; a repeat erases nothing more. */
    delete: (data: UserDataDeleteData) => this.call<ErasureResult>('/v1/users/data/delete', data, true),
    status: (data: UserDataStatusData) => this.call<ErasureStatusResult>('/v1/users/data/delete/status', data, true),
  };

  readonly comments = {
    /** commentannotations/add: new threads, each with its first comments. */
    addAnnotations: (data: AnnotationsAddData) =>
      this.call<AnnotationsResult>(
        '/v1/commentannotations/add',
        data,
        data.commentAnnotations.every((a) => a.annotationId != null && a.commentData.every((c) => c.commentId != null)),
      ),
    add: (data: CommentsAddData) =>
      this.call<CommentIdsResult>(
        '/v1/commentannotations/comments/add',
        data,
        data.commentData.every((c) => c.commentId != null),
      ),
    get: (data: CommentsGetData) => this.call<CommentsResult>('/v1/commentannotations/comments/get', data, true),
    /** comments/update: one change for every listed comment. */
    update: (data: CommentsUpdateData) => this.call<CommentChangesResult>('/v1/commentannotations/comments/update', data, true),
    /** comments/delete: the listed comments, or every comment of the thread; the thread stays. */
    delete: (data: CommentsDeleteData) => this.call<CommentChangesResult>('/v1/commentannotations/comments/delete', data, true),
    /** commentannotations/get: a page of a document's threads, or the threads asked for by id. */
    getAnnotations: (data: AnnotationsGetData) => this.call<AnnotationListResult>('/v1/commentannotations/get', data, true),
    /** Every thread of a document that the filters match, following pageToken. */
    allAnnotations: async (data: Omit<AnnotationsGetData, 'pageToken' | 'annotationIds'>): Promise<Annotation[]> => {
      const all: Annotation[] = [];
      let pageToken: string | undefined;
      do {
        const page = await this.comments.getAnnotations({ ...data, pageToken });
        for (const thread of page.data) if (thread) all.push(thread);
        pageToken = page.pageToken;
      } while (pageToken);
      return all;
    },
    /** commentannotations/update: change the matching threads (null clears a member). */
    updateAnnotations: (data: AnnotationsUpdateData) =>
      this.call<AnnotationChangesResult>('/v1/commentannotations/update', data, true),
    /** commentannotations/delete: the matching threads, with their comments. */
    deleteAnnotations: (data: AnnotationsDeleteData) =>
      this.call<AnnotationChangesResult>('/v1/commentannotations/delete', data, true),
    /** commentannotations/count/get: threads and threads unread by a user, by documentId. */
    countAnnotations: (data: AnnotationsCountData) =>
      this.call<AnnotationCountsResult>('/v1/commentannotations/count/get', data, true),
    /** commentannotations/read: mark threads read by a user as of now. */
    markRead: (data: AnnotationsReadData) => this.call<MarkedReadResult>('/v1/commentannotations/read', data, true),
  };

  readonly notifications = {
    add: (data: NotificationsAddData) =>
      this.call<NotificationAddedResult>('/v1/notifications/add', data, data.notificationId != null),
    get: (data: NotificationsGetData) => this.call<NotificationsResult>('/v1/notifications/get', data, true),
    /** Every page of a notifications/get, following pageToken. */
    all: (data: Omit<NotificationsGetData, 'pageToken'>): Promise<Notification[]> =>
      everyPage((pageToken) => this.notifications.get({ ...data, pageToken })),
    /** notifications/update: read and unread marks, and content; a repeat sets the same again. */
    update: (data: NotificationsUpdateData) => this.call<NotificationChangesResult>('/v1/notifications/update', data, true),
    /**
     * notifications/delete: what the filters match, for everyone. Retried on 503 like the other
     * deletes, since a repeat cannot delete twice: the end state is the same. Only its answer differs
     * when the first attempt landed before the 503: the ids it deleted then read `success: false`
     * ("Failed to delete notification."), and a delete by filters alone answers `{}`.
     */
    delete: (data: NotificationsDeleteData) => this.call<NotificationChangesResult>('/v1/notifications/delete', data, true),
    /** notifications/count/get: a user's notifications, and those unread. */
    count: (data: NotificationsCountData) => this.call<NotificationCountResult>('/v1/notifications/count/get', data, true),
    /** notifications/read: mark a user's notifications read (a repeat answers `read: 0`, the state is the same). */
    markRead: (data: NotificationsReadData) => this.call<NotificationsMarkedResult>('/v1/notifications/read', data, true),
    /** notifications/config/get: a user's inbox and email settings, one entry per document. */
    getConfig: (data: NotificationConfigGetData) =>
      this.call<NotificationConfigResult>('/v1/notifications/config/get', data, true),
    /** notifications/config/set: users' inbox and email settings for documents. */
    setConfig: (data: NotificationConfigSetData) =>
      this.call<NotificationConfigSetResult>('/v1/notifications/config/set', data, true),
  };

  readonly organizations = {
    /** organizations/add: create organizations, or rename them; a repeat sets the same again. */
    add: (data: OrganizationsData) => this.call<OrganizationsResult>('/v1/organizations/add', data, true),
    get: (data: OrganizationsGetData = {}) => this.call<OrganizationListResult>('/v1/organizations/get', data, true),
    /** Every page of an organizations/get, following pageToken. */
    all: (data: Omit<OrganizationsGetData, 'pageToken'> = {}): Promise<Organization[]> =>
      everyPage((pageToken) => this.organizations.get({ ...data, pageToken })),
    /** organizations/update: rename organizations that exist. */
    update: (data: OrganizationsData) => this.call<OrganizationsResult>('/v1/organizations/update', data, true),
    /** organizations/delete: each organization with everything in it; a repeat answers "does not exist". */
    delete: (data: OrganizationIdsData) => this.call<OrganizationsDeleteResult>('/v1/organizations/delete', data, true),
    /** organizations/access/disablestate/update: refuse (or allow again) every write under them. */
    setDisabled: (data: OrganizationsDisableData) =>
      this.call<DisableStateResult>('/v1/organizations/access/disablestate/update', data, true),
  };

  readonly documents = {
    /** documents/add: create documents, or rename them; `folderId` (which must exist) files them. */
    add: (data: DocumentsAddData) => this.call<DocumentsResult>('/v1/organizations/documents/add', data, true),
    get: (data: DocumentsGetData) => this.call<DocumentListResult>('/v1/organizations/documents/get', data, true),
    /** Every page of a documents/get, following pageToken. */
    all: (data: Omit<DocumentsGetData, 'pageToken'>): Promise<Document[]> =>
      everyPage((pageToken) => this.documents.get({ ...data, pageToken })),
    update: (data: DocumentsUpdateData) => this.call<DocumentsResult>('/v1/organizations/documents/update', data, true),
    /** documents/delete: a repeat finds nothing more to delete. */
    delete: (data: DocumentsDeleteData) => this.call<DocumentsResult>('/v1/organizations/documents/delete', data, true),
    /** documents/move: into a folder that exists, or out of any with folderId "root". */
    move: (data: DocumentsMoveData) => this.call<DocumentsMovedResult>('/v1/organizations/documents/move', data, true),
    setAccess: (data: DocumentsAccessData) => this.call<AccessResult>('/v1/organizations/documents/access/update', data, true),
    setDisabled: (data: DocumentsDisableData) =>
      this.call<DisableStateResult>('/v1/organizations/documents/access/disablestate/update', data, true),
    /** locations/update: a location's threads and notifications to another location, or its object changed. */
    moveLocation: (data: LocationsUpdateData) =>
      this.call<LocationResult>('/v1/organizations/documents/locations/update', data, true),
    /** locations/data/delete: a location's threads (with their comments) and notifications. */
    deleteLocationData: (data: LocationDataDeleteData) =>
      this.call<LocationResult>('/v1/organizations/documents/locations/data/delete', data, true),
  };

  readonly folders = {
    /** folders/add: create folders under a parent that exists (or one earlier in the same call), or at the top. */
    add: (data: FoldersData) => this.call<FoldersResult>('/v1/organizations/folders/add', data, true),
    /** folders/get: every folder flat; with folderId, that folder and its whole subtree in `subFolders`. */
    get: (data: FoldersGetData) => this.call<FolderListResult>('/v1/organizations/folders/get', data, true),
    /** folders/update: rename and move; parentFolderId "root" moves to the top. */
    update: (data: FoldersData) => this.call<FoldersResult>('/v1/organizations/folders/update', data, true),
    delete: (data: FoldersDeleteData) => this.call<FoldersResult>('/v1/organizations/folders/delete', data, true),
    setAccess: (data: FoldersAccessData) => this.call<AccessResult>('/v1/organizations/folders/access/update', data, true),
  };

  readonly workspace = {
    /**
     * workspace/domains/add: browser domains (URLs or hosts, `*.` for subdomains) whose pages may read
     * the tenant's end-user answers. Domains allowed already are skipped: the service then answers its
     * documented 500 INTERNAL, thrown as a MarginaliaError whose `details` has `domainsAdded` and
     * `skippedDomains`. A repeat adds nothing more.
     */
    addDomains: (data: DomainsData) => this.call<DomainsAddedResult>('/v1/workspace/domains/add', data, true),
    /** workspace/domains/delete: likewise, `details` with `domainsRemoved` and `skippedDomains` when some were not allowed. */
    deleteDomains: (data: DomainsData) => this.call<DomainsRemovedResult>('/v1/workspace/domains/delete', data, true),
  };

  readonly liveState = {
    /**
     * livestate/broadcast: `data` becomes the document's state under `liveStateDataId` (with `merge`, its
     * members replace theirs, shallow), announced as a livestate.broadcast event. A repeat writes the same state.
     */
    broadcast: (data: LiveStateBroadcastData) => this.call<LiveStateBroadcastResult>('/v1/livestate/broadcast', data, true),
    /** livestate/get (extension): the document's states, those of `liveStateDataIds` or all, in id order. */
    get: (data: LiveStateGetData) => this.call<LiveStateListResult>('/v1/livestate/get', data, true),
  };

  readonly auth = {
    /** auth/token/get: a signed end-user token (JWT, 48 hours) for a user's browser to open the event stream with. */
    token: (data: AuthTokenData) => this.call<AuthTokenResult>('/v1/auth/token/get', data, true),
  };

  readonly events = {
    /**
     * GET /v1/events: the tenant's events as they commit (or, with `token`, an end-user token's share),
     * as an async iterator. It reconnects by itself after a dropped connection or the server's `close`,
     * resuming with Last-Event-ID, and ends when `signal` aborts or the loop stops (break, return()).
     * A refusal that waiting does not end (400, 401, 403) is thrown as a MarginaliaError by the loop.
     *
     *     for await (const event of api.events.subscribe({ organizationId: 'acme', types: ['comment.*'] }))
     *       console.log(event.id, event.type, event.data);
     */
    subscribe: (options: SubscribeOptions = {}): EventSubscription =>
      new Subscription(
        {
          baseUrl: this.options.baseUrl,
          fetch: this.options.fetch,
          serverHeaders: () => ({ 'x-service-api-key': this.options.apiKey, 'x-service-auth-token': this.options.authToken }),
          error: (status, message, httpStatus, requestId) => new MarginaliaError(status, message, httpStatus, requestId),
          statusOfHttp,
        },
        options,
      ),
  };

  readonly webhooks = {
    /** webhooks/add: events are POSTed to `url`, signed; the answer's `secret` (whsec_...) is shown only here. */
    add: (data: WebhooksAddData) => this.call<WebhookAddedResult>('/v1/webhooks/add', data, false),
    /** webhooks/get: the tenant's webhooks, without their secrets. */
    get: (data: WebhooksGetData = {}) => this.call<WebhookListResult>('/v1/webhooks/get', data, true),
    /** webhooks/delete: no more deliveries to it. */
    delete: (data: WebhookIdData) => this.call<WebhookDeletedResult>('/v1/webhooks/delete', data, true),
    /** webhooks/deliveries/get: a webhook's last delivery attempts, newest first, a page at a time. */
    deliveries: (data: WebhookDeliveriesGetData) =>
      this.call<WebhookAttemptListResult>('/v1/webhooks/deliveries/get', data, true),
    /** Every page of a webhooks/deliveries/get, following pageToken (newest first). */
    allDeliveries: (data: Omit<WebhookDeliveriesGetData, 'pageToken'>): Promise<WebhookAttempt[]> =>
      everyPage((pageToken) => this.webhooks.deliveries({ ...data, pageToken })),
  };

  private readonly options: Required<Omit<MarginaliaOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: MarginaliaOptions) {
    this.options = {
      retries: 3,
      backoffMs: 200,
      maxWaitMs: 30_000,
      retryWritesOn503: false,
      fetch: globalThis.fetch,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
  }

  /** POSTs data; `repeatable` says whether a 503 may be retried without risking a second write. */
  private async call<R>(path: string, data: unknown, repeatable: boolean): Promise<R> {
    const { baseUrl, apiKey, authToken, retries, backoffMs, maxWaitMs, retryWritesOn503, fetch: doFetch } = this.options;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(baseUrl + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-api-key': apiKey, 'x-service-auth-token': authToken },
          body: JSON.stringify({ data }),
        });
      } catch (err) {
        throw new MarginaliaError('UNAVAILABLE', `No answer from ${baseUrl}: ${(err as Error).message}`, 0, null);
      }
      const text = await res.text();
      const requestId = res.headers.get('x-request-id');
      let body: { result?: R; error?: { status?: string; message?: string; details?: unknown } } | undefined;
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        body = undefined;
      }
      if (res.ok && body?.result) return body.result;
      // users/data/delete's 202 carries its members at the top, as the original service's page shows.
      if (res.status === 202 && (body as { status?: unknown } | undefined)?.status === 'success') return body as R;
      // A 429 without Retry-After is a condition that waiting does not end (an annotation out of
      // commentIds): retrying would only repeat it.
      const retried =
        (res.status === 429 && res.headers.has('retry-after')) || (res.status === 503 && (repeatable || retryWritesOn503));
      const wait = waitMs(attempt, res.headers.get('retry-after'), backoffMs);
      if (retried && attempt < retries && wait <= maxWaitMs) {
        await sleep(wait);
        continue;
      }
      const status = (body?.error?.status ?? (res.ok ? 'INTERNAL' : statusOfHttp(res.status))) as ErrorCode;
      throw new MarginaliaError(
        status,
        body?.error?.message ?? `HTTP ${res.status}: ${text.slice(0, 200)}`,
        res.status,
        requestId,
        body?.error?.details,
      );
    }
  }
}

/** Backoff doubling from backoffMs with jitter, but never shorter than Retry-After (seconds or a date). */
function waitMs(attempt: number, retryAfter: string | null, backoffMs: number): number {
  const backoff = backoffMs * 2 ** attempt * (0.5 + Math.random() / 2);
  let asked = 0;
  if (retryAfter !== null)
    asked = /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : Math.max(0, (Date.parse(retryAfter) || 0) - Date.now());
  return Math.max(backoff, asked);
}

function statusOfHttp(http: number): ErrorCode {
  const byHttp: Record<number, ErrorCode> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    409: 'ALREADY_EXISTS',
    413: 'INVALID_ARGUMENT',
    429: 'RESOURCE_EXHAUSTED',
    503: 'UNAVAILABLE',
  };
  return byHttp[http] ?? 'INTERNAL';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
