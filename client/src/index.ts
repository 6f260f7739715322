// A typed client for the Marginalia HTTP API. It reads the operations' contract table
// (src/schemas/operations/, the entries the service registers its routes and /openapi.json from):
// each call's path, `data` and `result` types come from its entry, named by the operation's stable
// name. At run time it needs only each entry's paths (routes.ts); the rest is types. Every call POSTs
// {"data": ...} with both credential headers, or in a browser with an end-user token as
// `Authorization: Bearer`, and returns the `result` envelope; an error answer becomes a MarginaliaError
// carrying its status and message. 429 and 503 are retried with exponential backoff, waiting at least
// what Retry-After asks; a 429 without Retry-After is permanent and thrown at once. `events.subscribe`
// reads the live event stream (GET /v1/events, a stream rather than an operation of the table) as an
// async iterator that resumes by itself (events.ts). Nothing here is Node's own: the same code runs in
// a browser (scripts/bundle-client.mjs checks it).
import type { ErrorCode } from '../../src/schemas/error-codes.js';
import type {
  ContractData,
  ContractDataIn,
  ContractResult,
  ContractResultIn,
  Version,
} from '../../src/schemas/operations/contract.js';
import type { CONTRACT, OperationName } from '../../src/schemas/operations/index.js';
import { type EventSubscription, type SubscribeOptions, Subscription, type TokenSource } from './events.js';
import { ROUTES } from './routes.js';

export {
  EVENT_TYPES,
  type EventFamily,
  type EventSubscription,
  type EventType,
  type MarginaliaEvent,
  type SubscribeOptions,
  type TokenSource,
} from './events.js';

type Contracts = typeof CONTRACT;
/** The operations this client calls: those served under /v1. */
type V1Operation = { [K in OperationName]: Contracts[K]['paths'] extends { v1: string } ? K : never }[OperationName];
/** The `data` member operation K takes: the type the service validates against. */
type DataOf<K extends OperationName> = ContractData<Contracts[K]>;
/** What operation K answers: its success's `result` member (users/data/delete: its whole 202 answer). */
type ResultOf<K extends OperationName> = ContractResult<Contracts[K]>;
/** The method that calls operation K. */
type Call<K extends OperationName> = (data: DataOf<K>) => Promise<ResultOf<K>>;

/** The operations served under /v2 (docs/api.md, "Version 2"). */
type V2Operation = { [K in OperationName]: Contracts[K]['paths'] extends { v2: string } ? K : never }[OperationName];
/** The method that calls operation K under /v2: typed by /v2's request and answer where they differ. */
type CallV2<K extends OperationName> = (
  data: ContractDataIn<Contracts[K], 'v2'>,
) => Promise<ContractResultIn<Contracts[K], 'v2'>>;
/** Every /v2 operation, by its name (`client.v2.annotationsGet({...})`). */
export type V2Calls = { [K in V2Operation]: CallV2<K> };
/** The names of the /v2 operations. */
const V2_OPERATIONS = (Object.keys(ROUTES) as OperationName[]).filter(
  (name): name is V2Operation => ROUTES[name].paths.v2 !== undefined,
);
/** Reads and counts: safe to repeat after a 503 (the /v2 calls' writes are not retried on 503 unless asked). */
const REPEATABLE_V2 = /(Get|Count|Status)$/;

export type AuthTokenData = DataOf<'authTokenGet'>;
export type AnnotationsAddData = DataOf<'annotationsAdd'>;
export type AnnotationsCountData = DataOf<'annotationsCount'>;
export type AnnotationsDeleteData = DataOf<'annotationsDelete'>;
export type AnnotationsGetData = DataOf<'annotationsGet'>;
export type AnnotationsReadData = DataOf<'annotationsRead'>;
export type AnnotationsUpdateData = DataOf<'annotationsUpdate'>;
export type CommentsAddData = DataOf<'commentsAdd'>;
export type CommentsDeleteData = DataOf<'commentsDelete'>;
export type CommentsGetData = DataOf<'commentsGet'>;
export type CommentsUpdateData = DataOf<'commentsUpdate'>;
export type LocationDataDeleteData = DataOf<'locationDataDelete'>;
export type LocationsUpdateData = DataOf<'locationsUpdate'>;
export type DomainsData = DataOf<'domainsAdd'>;
export type LiveStateBroadcastData = DataOf<'liveStateBroadcast'>;
export type LiveStateGetData = DataOf<'liveStateGet'>;
export type NotificationConfigGetData = DataOf<'notificationsConfigGet'>;
export type NotificationConfigSetData = DataOf<'notificationsConfigSet'>;
export type NotificationsAddData = DataOf<'notificationsAdd'>;
export type NotificationsCountData = DataOf<'notificationsCount'>;
export type NotificationsDeleteData = DataOf<'notificationsDelete'>;
export type NotificationsGetData = DataOf<'notificationsGet'>;
export type NotificationsReadData = DataOf<'notificationsRead'>;
export type NotificationsArchiveData = DataOf<'notificationsArchive'>;
export type NotificationsUnarchiveData = DataOf<'notificationsUnarchive'>;
export type NotificationsUpdateData = DataOf<'notificationsUpdate'>;
export type UsersData = DataOf<'usersAdd'>;
export type WebhookDeliveriesGetData = DataOf<'webhookDeliveriesGet'>;
export type WebhookIdData = DataOf<'webhooksDelete'>;
export type WebhooksAddData = DataOf<'webhooksAdd'>;
export type WebhooksGetData = DataOf<'webhooksGet'>;

export type UsersResult = ResultOf<'usersAdd'>;
export type AnnotationsResult = ResultOf<'annotationsAdd'>;
export type CommentIdsResult = ResultOf<'commentsAdd'>;
export type CommentsResult = ResultOf<'commentsGet'>;
export type NotificationAddedResult = ResultOf<'notificationsAdd'>;
export type NotificationsResult = ResultOf<'notificationsGet'>;
export type Notification = NotificationsResult['data'][number];
export type NotificationChangesResult = ResultOf<'notificationsUpdate'>;
export type NotificationCountResult = ResultOf<'notificationsCount'>;
export type NotificationsMarkedResult = ResultOf<'notificationsRead'>;
export type NotificationConfigResult = ResultOf<'notificationsConfigGet'>;
export type NotificationConfigSetResult = ResultOf<'notificationsConfigSet'>;
export type Comment = Exclude<CommentsResult['data'][number], null>;
export type AnnotationListResult = ResultOf<'annotationsGet'>;
export type Annotation = Exclude<AnnotationListResult['data'][number], null>;
export type AnnotationChangesResult = ResultOf<'annotationsUpdate'>;
export type CommentChangesResult = ResultOf<'commentsUpdate'>;
export type AnnotationCountsResult = ResultOf<'annotationsCount'>;
export type MarkedReadResult = ResultOf<'annotationsRead'>;
export type OrganizationsResult = ResultOf<'organizationsAdd'>;
export type MembersResult = ResultOf<'usersGet'>;
/** A member as users/get lists them (grouped by document, with allDocuments and groupByDocumentId, they are a map of these). */
export type Member = Extract<MembersResult['data'], readonly unknown[]>[number];
export type MembersDeletedResult = ResultOf<'usersDelete'>;
export type UserGroupsResult = ResultOf<'userGroupsAdd'>;
export type GroupUsersResult = ResultOf<'groupUsersAdd'>;
export type UserGroupListResult = ResultOf<'userGroupsGet'>;
export type UserGroup = UserGroupListResult['data'][number];
export type UserDataResult = ResultOf<'userDataGet'>;
/** users/data/delete answers HTTP 202 with this body itself, not a `result` envelope (docs/decisions.md). */
export type ErasureResult = ResultOf<'userDataDelete'>;
export type ErasureStatusResult = ResultOf<'userDataStatus'>;
export type OrganizationsDeleteResult = ResultOf<'organizationsDelete'>;
export type DisableStateResult = ResultOf<'organizationsDisable'>;
export type OrganizationListResult = ResultOf<'organizationsGet'>;
export type Organization = OrganizationListResult['data'][number];
export type DocumentsResult = ResultOf<'documentsAdd'>;
export type DocumentListResult = ResultOf<'documentsGet'>;
export type Document = DocumentListResult['data'][number];
export type DocumentsMovedResult = ResultOf<'documentsMove'>;
export type LocationResult = ResultOf<'locationsUpdate'>;
export type AccessResult = ResultOf<'documentsAccess'>;
export type FoldersResult = ResultOf<'foldersAdd'>;
export type AuthTokenResult = ResultOf<'authTokenGet'>;
export type FolderListResult = ResultOf<'foldersGet'>;
export type Folder = FolderListResult['data'][number];
export type WebhookAddedResult = ResultOf<'webhooksAdd'>;
export type WebhookListResult = ResultOf<'webhooksGet'>;
export type Webhook = WebhookListResult['data'][number];
export type WebhookDeletedResult = ResultOf<'webhooksDelete'>;
export type WebhookAttemptListResult = ResultOf<'webhookDeliveriesGet'>;
export type WebhookAttempt = WebhookAttemptListResult['data'][number];
export type DomainsAddedResult = ResultOf<'domainsAdd'>;
export type DomainsRemovedResult = ResultOf<'domainsDelete'>;
export type LiveStateBroadcastResult = ResultOf<'liveStateBroadcast'>;
export type LiveStateListResult = ResultOf<'liveStateGet'>;
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
    /** The error status, e.g. NOT_FOUND (docs/api.md, "Wire format"). */
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

/** How the client reaches the service, and how patiently; the credentials are the other half of MarginaliaOptions. */
export interface ConnectionOptions {
  /** Where the service listens, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
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

/** The tenant's server credentials: for the customer's backend, never for a browser. */
export interface ServerCredentials {
  apiKey: string;
  authToken: string;
  /**
   * The workspace's id and auth token (`marginalia workspace credentials`), sent as x-service-workspace-id and
   * x-service-workspace-auth-token to the workspace pages (`client.v2.apiKeyCreate`, `apiKeysGet`, ...) instead of
   * the tenant's; needed for those calls only.
   */
  workspaceId?: string;
  workspaceAuthToken?: string;
  token?: undefined;
}

/**
 * An end-user token (auth.token, got by the customer's backend): what a browser holds. Every call is sent
 * with `Authorization: Bearer <token>` and acts as the token's user (docs/api.md, "End users"); a function
 * is asked before each call and each connection of the stream, so it can hand over a fresh token (cache it:
 * it is asked often).
 */
export interface EndUserCredentials {
  token: TokenSource;
  apiKey?: undefined;
  authToken?: undefined;
  workspaceId?: undefined;
  workspaceAuthToken?: undefined;
}

export type MarginaliaOptions = ConnectionOptions & (ServerCredentials | EndUserCredentials);

export class Marginalia {
  // Reads and upserts are safe to repeat; adds are, when the caller chose every id (a repeat is then
  // ALREADY_EXISTS, not a second copy).
  readonly users = {
    add: this.operation('usersAdd'),
    update: this.operation('usersUpdate'),
    /** users/get: an organization's members (of a document, folder or groups), in userId order, paged. */
    get: this.operation('usersGet'),
    /** Every page of a users/get (listed, not grouped by document), following pageToken. */
    all: (data: Omit<DataOf<'usersGet'>, 'pageToken' | 'groupByDocumentId'>): Promise<Member[]> =>
      everyPage(
        (pageToken) =>
          this.users.get({ ...data, groupByDocumentId: false, pageToken }) as Promise<{ data: Member[]; pageToken?: string }>,
      ),
    /** users/delete: a document's or folder's membership, or (without either) the profile and every membership. */
    delete: this.operation('usersDelete'),
  };

  readonly userGroups = {
    /** organizations/usergroups/add: create groups, or rename them. */
    add: this.operation('userGroupsAdd'),
    /** organizations/usergroups/users/add: users into a group that exists. */
    addUsers: this.operation('groupUsersAdd'),
    /** organizations/usergroups/users/delete: users (or every user, `deleteAll`) out of a group. */
    deleteUsers: this.operation('groupUsersDelete'),
    /** organizations/usergroups/get (an extension): the organization's groups, in groupId order, paged. */
    get: this.operation('userGroupsGet'),
    /** Every page of an organizations/usergroups/get, following pageToken. */
    all: (data: Omit<DataOf<'userGroupsGet'>, 'pageToken'>): Promise<UserGroup[]> =>
      everyPage((pageToken) => this.userGroups.get({ ...data, pageToken })),
  };

  readonly personalData = {
    /** users/data/get: one page of what a user wrote and received; follow `nextPageToken`. */
    get: this.operation('userDataGet'),
    /** users/data/delete: erase users' data, done before the answer; a repeat erases nothing more. */
    delete: this.operation('userDataDelete'),
    status: this.operation('userDataStatus'),
  };

  readonly comments = {
    /** commentannotations/add: new threads, each with its first comments. */
    addAnnotations: this.operation('annotationsAdd', (data) =>
      data.commentAnnotations.every((a) => a.annotationId != null && a.commentData.every((c) => c.commentId != null)),
    ),
    add: this.operation('commentsAdd', (data) => data.commentData.every((c) => c.commentId != null)),
    get: this.operation('commentsGet'),
    /** comments/update: one change for every listed comment. */
    update: this.operation('commentsUpdate'),
    /** comments/delete: the listed comments, or every comment of the thread; the thread stays. */
    delete: this.operation('commentsDelete'),
    /** commentannotations/get: a page of a document's threads, or the threads asked for by id. */
    getAnnotations: this.operation('annotationsGet'),
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
    updateAnnotations: this.operation('annotationsUpdate'),
    /** commentannotations/delete: the matching threads, with their comments. */
    deleteAnnotations: this.operation('annotationsDelete'),
    /** commentannotations/count/get: threads and threads unread by a user, by documentId. */
    countAnnotations: this.operation('annotationsCount'),
    /** commentannotations/read: mark threads read by a user as of now. */
    markRead: this.operation('annotationsRead'),
  };

  readonly notifications = {
    add: this.operation('notificationsAdd', (data) => data.notificationId != null),
    get: this.operation('notificationsGet'),
    /** Every page of a notifications/get, following pageToken. */
    all: (data: Omit<NotificationsGetData, 'pageToken'>): Promise<Notification[]> =>
      everyPage((pageToken) => this.notifications.get({ ...data, pageToken })),
    /** notifications/update: read and unread marks, and content; a repeat sets the same again. */
    update: this.operation('notificationsUpdate'),
    /**
     * notifications/delete: what the filters match, for everyone. Retried on 503 like the other
     * deletes, since a repeat cannot delete twice: the end state is the same. Only its answer differs
     * when the first attempt landed before the 503: the ids it deleted then read `success: false`
     * ("Failed to delete notification."), and a delete by filters alone answers `{}`.
     */
    delete: this.operation('notificationsDelete'),
    /** notifications/count/get: a user's notifications, and those unread. */
    count: this.operation('notificationsCount'),
    /** notifications/read: mark a user's notifications read (a repeat answers `read: 0`, the state is the same). */
    markRead: this.operation('notificationsRead'),
    /** notifications/archive: hide notifications for one user, those named or all they read (a repeat answers `archived: 0`). */
    archive: this.operation('notificationsArchive'),
    /** notifications/unarchive: show them again (a repeat answers `unarchived: 0`). */
    unarchive: this.operation('notificationsUnarchive'),
    /** notifications/config/get: a user's inbox and email settings, one entry per document. */
    getConfig: this.operation('notificationsConfigGet'),
    /** notifications/config/set: users' inbox and email settings for documents. */
    setConfig: this.operation('notificationsConfigSet'),
  };

  readonly organizations = {
    /** organizations/add: create organizations, or rename them; a repeat sets the same again. */
    add: this.operation('organizationsAdd'),
    get: (data: DataOf<'organizationsGet'> = {}) => this.call('organizationsGet', data, true),
    /** Every page of an organizations/get, following pageToken. */
    all: (data: Omit<DataOf<'organizationsGet'>, 'pageToken'> = {}): Promise<Organization[]> =>
      everyPage((pageToken) => this.organizations.get({ ...data, pageToken })),
    /** organizations/update: rename organizations that exist. */
    update: this.operation('organizationsUpdate'),
    /** organizations/delete: each organization with everything in it; a repeat answers "does not exist". */
    delete: this.operation('organizationsDelete'),
    /** organizations/access/disablestate/update: refuse (or allow again) every write under them. */
    setDisabled: this.operation('organizationsDisable'),
  };

  readonly documents = {
    /** documents/add: create documents, or rename them; `folderId` (which must exist) files them. */
    add: this.operation('documentsAdd'),
    get: this.operation('documentsGet'),
    /** Every page of a documents/get, following pageToken. */
    all: (data: Omit<DataOf<'documentsGet'>, 'pageToken'>): Promise<Document[]> =>
      everyPage((pageToken) => this.documents.get({ ...data, pageToken })),
    update: this.operation('documentsUpdate'),
    /** documents/delete: a repeat finds nothing more to delete. */
    delete: this.operation('documentsDelete'),
    /** documents/move: into a folder that exists, or out of any with folderId "root". */
    move: this.operation('documentsMove'),
    setAccess: this.operation('documentsAccess'),
    setDisabled: this.operation('documentsDisable'),
    /** locations/update: a location's threads and notifications to another location, or its object changed. */
    moveLocation: this.operation('locationsUpdate'),
    /** locations/data/delete: a location's threads (with their comments) and notifications. */
    deleteLocationData: this.operation('locationDataDelete'),
  };

  readonly folders = {
    /** folders/add: create folders under a parent that exists (or one earlier in the same call), or at the top. */
    add: this.operation('foldersAdd'),
    /** folders/get: every folder flat; with folderId, that folder and its whole subtree in `subFolders`. */
    get: this.operation('foldersGet'),
    /** folders/update: rename and move; parentFolderId "root" moves to the top. */
    update: this.operation('foldersUpdate'),
    delete: this.operation('foldersDelete'),
    setAccess: this.operation('foldersAccess'),
  };

  readonly workspace = {
    /**
     * workspace/domains/add: browser domains (URLs or hosts, `*.` for subdomains) whose pages may read
     * the tenant's end-user answers. Domains allowed already are skipped: the service then answers its
     * documented 500 INTERNAL, thrown as a MarginaliaError whose `details` has `domainsAdded` and
     * `skippedDomains`. A repeat adds nothing more.
     */
    addDomains: this.operation('domainsAdd'),
    /** workspace/domains/delete: likewise, `details` with `domainsRemoved` and `skippedDomains` when some were not allowed. */
    deleteDomains: this.operation('domainsDelete'),
  };

  readonly liveState = {
    /**
     * livestate/broadcast: `data` becomes the document's state under `liveStateDataId` (with `merge`, its
     * members replace theirs, shallow), announced as a livestate.broadcast event. A repeat writes the same state.
     */
    broadcast: this.operation('liveStateBroadcast'),
    /** livestate/get (extension): the document's states, those of `liveStateDataIds` or all, in id order. */
    get: this.operation('liveStateGet'),
  };

  readonly auth = {
    /** auth/token/get: a signed end-user token (JWT, 48 hours) for a user's browser to open the event stream with. */
    token: this.operation('authTokenGet'),
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
          serverHeaders: () => {
            const { apiKey, authToken } = this.credentials as ServerCredentials;
            return { 'x-service-api-key': apiKey, 'x-service-auth-token': authToken };
          },
          error: (status, message, httpStatus, requestId) => new MarginaliaError(status, message, httpStatus, requestId),
          statusOfHttp,
        },
        // A client made with an end-user token streams with it, unless told another.
        { ...options, token: options.token ?? this.credentials.token },
      ),
  };

  readonly webhooks = {
    /** webhooks/add: events are POSTed to `url`, signed; the answer's `secret` (whsec_...), which /v2 endpoints/secret/get shows too. */
    add: this.operation('webhooksAdd', false),
    /** webhooks/get: the tenant's webhooks, without their secrets. */
    get: (data: WebhooksGetData = {}) => this.call('webhooksGet', data, true),
    /** webhooks/delete: no more deliveries to it. */
    delete: this.operation('webhooksDelete'),
    /** webhooks/deliveries/get: a webhook's last delivery attempts, newest first, a page at a time. */
    deliveries: this.operation('webhookDeliveriesGet'),
    /** Every page of a webhooks/deliveries/get, following pageToken (newest first). */
    allDeliveries: (data: Omit<WebhookDeliveriesGetData, 'pageToken'>): Promise<WebhookAttempt[]> =>
      everyPage((pageToken) => this.webhooks.deliveries({ ...data, pageToken })),
    /** webhooks/deliveries/replay: one event sent to the webhook again, next in its organization's order. */
    replay: this.operation('webhookDeliveryReplay', false),
    /** webhooks/recover: every delivery that failed for good since `since` (ms), pending again, in order. */
    recover: this.operation('webhooksRecover', false),
    /** webhooks/secret/rotate: a new secret; the one before signs too during the grace period. */
    rotateSecret: this.operation('webhookSecretRotate', false),
  };

  /**
   * The original service's current API, /v2 (docs/api.md, "Version 2"): every operation served there, by its
   * name, each typed by /v2's own request and answer where its page differs from v1 (commentannotations/get
   * across an organization, nextPageToken, ...). `client.v2.annotationsGet({ organizationId: 'acme', order: 'asc' })`.
   */
  readonly v2: V2Calls = Object.fromEntries(
    V2_OPERATIONS.map((name) => [name, (data: unknown) => this.call(name, data as never, REPEATABLE_V2.test(name), 'v2')]),
  ) as unknown as V2Calls;

  private readonly options: Required<ConnectionOptions>;
  private readonly credentials: ServerCredentials | EndUserCredentials;

  constructor(options: MarginaliaOptions) {
    const { baseUrl, retries = 3, backoffMs = 200, maxWaitMs = 30_000, retryWritesOn503 = false, fetch: given } = options;
    this.options = {
      retries,
      backoffMs,
      maxWaitMs,
      retryWritesOn503,
      // Called as a plain function, never as a method of this object: a browser's fetch throws "Illegal
      // invocation" when called on anything but the window. The global one is looked up at each call.
      fetch: given ? (input, init) => given(input, init) : (input, init) => globalThis.fetch(input, init),
      baseUrl: baseUrl.replace(/\/+$/, ''),
    };
    this.credentials = options;
    if (options.token === undefined && (typeof options.apiKey !== 'string' || typeof options.authToken !== 'string'))
      throw new TypeError('Marginalia: give apiKey and authToken (server credentials), or token (an end-user token).');
  }

  /**
   * The method of an operation: its calls POST to the operation's v1 path; `repeatable` (of the call's
   * data, or always) says whether a 503 may be retried without risking a second write.
   */
  private operation<K extends V1Operation>(name: K, repeatable: boolean | ((data: DataOf<K>) => boolean) = true): Call<K> {
    return (data) => this.call(name, data, typeof repeatable === 'function' ? repeatable(data) : repeatable);
  }

  /**
   * The headers operation `name` is called with: an end-user token's, or the workspace's for the workspace
   * pages, else the tenant's.
   */
  private async credentialsFor(name: OperationName): Promise<Record<string, string>> {
    const credentials = this.credentials;
    if (credentials.token !== undefined) return { authorization: `Bearer ${await tokenOf(credentials.token)}` };
    const { apiKey, authToken, workspaceId, workspaceAuthToken } = credentials;
    if (!ROUTES[name].workspace) return { 'x-service-api-key': apiKey, 'x-service-auth-token': authToken };
    if (workspaceId === undefined || workspaceAuthToken === undefined)
      throw new MarginaliaError(
        'UNAUTHENTICATED',
        `${name} takes the workspace's credentials: give workspaceId and workspaceAuthToken.`,
        0,
        null,
      );
    return { 'x-service-workspace-id': workspaceId, 'x-service-workspace-auth-token': workspaceAuthToken };
  }

  /** POSTs data to operation `name`; `repeatable` says whether a 503 may be retried without risking a second write. */
  private async call<K extends OperationName>(
    name: K,
    data: DataOf<K>,
    repeatable: boolean,
    version: Version = 'v1',
  ): Promise<ResultOf<K>> {
    type R = ResultOf<K>;
    const path = `/${version}/${ROUTES[name].paths[version]}`;
    const { baseUrl, retries, backoffMs, maxWaitMs, retryWritesOn503, fetch: doFetch } = this.options;
    const credentials = await this.credentialsFor(name);
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(baseUrl + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...credentials },
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
    501: 'UNIMPLEMENTED',
    503: 'UNAVAILABLE',
  };
  return byHttp[http] ?? 'INTERNAL';
}

/** The token itself, asked of the function when it is one. */
async function tokenOf(token: TokenSource): Promise<string> {
  return typeof token === 'function' ? token() : token;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
