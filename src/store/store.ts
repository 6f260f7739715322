// The storage seam. Routes and services see only this interface; db-store.ts implements it once, over
// the SQLite or the PostgreSQL dialect. Every data method takes the tenant's internal id first, so no query can forget it.
// Each method is atomic on its own: a batch is one transaction inside the store. Data methods answer
// with a Maybe (maybe.ts): at once on SQLite, with a promise on PostgreSQL; `await` takes either.
import type { Maybe } from '../maybe.js';
import type { CallListener, TransactionListener } from './dialect/dialect.js';
import type { LastingFault } from './health.js';

export interface Tenant {
  id: string;
  apiKey: string;
  name: string;
  disabled: boolean;
  revoked: boolean;
  createdAt: number;
}

export interface TokenRecord {
  /** SHA-256 of the token, hex. The token itself is never stored. */
  hash: string;
  /** The first few characters, so an operator can name a token to revoke. */
  prefix: string;
  createdAt: number;
}

export interface TenantListing extends Tenant {
  tokens: { prefix: string; createdAt: number; revoked: boolean }[];
}

export interface Credentials {
  tenant: Tenant;
  /** Hashes of the tenant's tokens that are not revoked. */
  activeTokenHashes: string[];
}

/** A tenant's secret for signing end-user tokens (SPEC 13); `secret` is 32 random bytes as hex. */
export interface SigningKey {
  kid: string;
  secret: string;
  createdAt: number;
  /** As read: whether its tenant is disabled or revoked (its tokens then verify no more). */
  tenantRefused?: boolean;
}

/** Membership scope of users/add and users/update besides the organization itself. */
export type Scope = { kind: 'document' | 'folder'; id: string } | null;

/** Profile fields as written: `undefined` leaves a stored field as it is. */
export interface UserWrite {
  userId: string;
  name?: string | undefined;
  email?: string | undefined;
  photoUrl?: string | undefined;
}

export interface Profile {
  userId: string;
  name: string | null;
  email: string | null;
  photoUrl: string | null;
}

/** An organization as organizations/get reads it (SPEC 12); `name` is "" when never set. */
export interface OrganizationRecord {
  organizationId: string;
  name: string;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** organizations/add and update: an organization and its new name (null: keep the name it has). */
export interface OrganizationWrite {
  organizationId: string;
  name: string | null;
}

/** SPEC 12: who may see a document or folder; `organizationPrivate` unless set. */
export type AccessType = 'organizationPrivate' | 'restricted' | 'public';

/** A document as documents/get reads it (SPEC 12); `folderId` null: in no folder. */
export interface DocumentRecord {
  documentId: string;
  name: string;
  folderId: string | null;
  accessType: AccessType;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** documents/add and update: a document and its new name (null: keep the name it has). */
export interface DocumentWrite {
  documentId: string;
  name: string | null;
}

/** documents/get's selection: ids (null: all) and folder (undefined: any, null: none), after an id. */
export interface DocumentQuery {
  organizationId: string;
  documentIds: string[] | null;
  folder: string | null | undefined;
  after: string | null;
  limit: number;
}

/** A folder as stored; `parentId` null: at the top. */
export interface FolderRecord {
  folderId: string;
  name: string;
  parentId: string | null;
  accessType: AccessType;
  createdAt: number;
  updatedAt: number;
}

/** folders/add and update: name null keeps the name; parentId undefined keeps the place, null is the top. */
export interface FolderWrite {
  folderId: string;
  name: string | null;
  parentId: string | null | undefined;
}

/** livestate/broadcast: `data` becomes the document's state under the id, or (merge) is shallow-merged into it. */
export interface LiveStateBroadcast {
  organizationId: string;
  documentId: string;
  liveStateDataId: string;
  data: Readonly<Record<string, unknown>>;
  merge: boolean;
}

/** What a document's live state may hold: ids per document, and bytes of JSON per state. */
export interface LiveStateBounds {
  ids: number;
  bytes: number;
}

/** A document's live state under one id: the JSON text of an object, and when it was last written. */
export interface LiveStateRecord {
  liveStateDataId: string;
  data: string;
  updatedAt: number;
}

/** An author or actor as the writer sent it; null where the writer left a field out. */
export interface UserRef {
  userId: string;
  name: string | null;
  email: string | null;
}

/** A user a comment tags: the caller's own text for the tag, and the contact (a user, resolved at read time). */
export interface TaggedContact {
  userId: string;
  text?: string;
  contact?: UserRef;
}

export interface NewComment {
  commentId: number;
  html: string;
  text: string;
  from: UserRef;
  /** Times the caller gave (an import keeps its history, SPEC 10.2); null: server time. */
  createdAt: number | null;
  lastUpdated: number | null;
  /** null when the caller gave none. */
  taggedUserContacts: TaggedContact[] | null;
}

/** What every row of a read carries besides its data: the versions it was read under (the same on every row). */
export interface ReadVersions {
  /** The organization's profile version (services/profiles.ts). */
  profileVersion: number;
  /** The credentials version: it confirms a request admitted from the auth cache (http/auth.ts). */
  credentialsVersion: number;
}

export interface StoredComment extends Omit<NewComment, 'taggedUserContacts' | 'createdAt' | 'lastUpdated'>, ReadVersions {
  createdAt: number;
  lastUpdated: number;
  /** As JSON text, or null when never set. */
  taggedUserContacts: string | null;
  status: string;
  type: string;
}

export interface NewAnnotation extends ThreadMembers {
  annotationId: string;
  location: object | null;
  locationId: string | null;
  context: object | null;
  status: object;
  /** Times the caller gave (SPEC 10.2); null: server time. */
  createdAt: number | null;
  lastUpdated: number | null;
  comments: NewComment[];
}

/** The members of a thread SPEC 10 added, as written (null: not set). */
export interface ThreadMembers {
  /** A color the caller gave the thread, kept as sent (docs/decisions.md). */
  color: string | null;
  assignedTo: UserRef | null;
  priority: object | null;
  targetElement: object | null;
}

/** Comments to append to an existing thread: ids the caller chose, or undefined for the store to assign. */
export interface CommentDraft extends Omit<NewComment, 'commentId'> {
  commentId: number | undefined;
}

/** A thread's own members as stored: its objects as the JSON text they were written as. */
export interface ThreadHead {
  annotationId: string;
  location: string | null;
  locationId: string | null;
  context: string | null;
  status: string;
  createdAt: number;
  lastUpdated: number;
  color: string | null;
  assignedTo: UserRef | null;
  priority: string | null;
  targetElement: string | null;
}

/** What a comment's answer is written from: a stored comment, without the versions its read saw. */
export type CommentFacts = Omit<StoredComment, keyof ReadVersions>;

/** A whole thread as its stored answer is rendered from: its comments in creation order. */
export interface StoredAnnotation extends ThreadHead {
  comments: CommentFacts[];
}

/** A thread as commentannotations/get reads it: its answer as stored (answers/annotations.ts). */
export interface StoredThreadAnswer extends ReadVersions {
  /** The document's thread version the page was read under (migration 11). */
  documentVersion: number;
  annotationId: string;
  createdAt: number;
  head: string;
  comments: string;
}

/** Which threads of a document an operation means; each list null: no filter (SPEC 10.3-10.5). */
export interface ThreadFilters {
  organizationId: string;
  documentId: string;
  annotationIds: string[] | null;
  locationIds: string[] | null;
  /** The author of the thread's first comment. */
  userIds: string[] | null;
  /** The status object's `id`. */
  statusIds: string[] | null;
}

/** Position in the (createdAt desc, annotationId desc) order of a document's threads. */
export interface AnnotationCursor {
  createdAt: number;
  annotationId: string;
}

export interface AnnotationQuery extends ThreadFilters {
  /** Threads strictly after this position (paging); null: from the newest. */
  after: AnnotationCursor | null;
  limit: number;
}

/**
 * A change to threads (SPEC 10.4): each member undefined (left as it is), null (cleared) or a value.
 * status is never null.
 */
export interface ThreadChange {
  status?: object;
  color?: string | null;
  /**
   * commentannotations/update's updateUsers: in the threads changed, every comment by `from` becomes
   * `to`'s (all pairs at once: a swap swaps). A `to` with a name or email is upserted as a profile.
   */
  users?: readonly { from: string; to: UserRef }[];
  location?: object | null;
  locationId?: string | null;
  context?: object | null;
  assignedTo?: UserRef | null;
  priority?: object | null;
  targetElement?: object | null;
}

/** locations/update: the location moved from, the one moved to, and whether `to` merges over a thread's own object. */
export interface LocationMove {
  from: { id: string } & Record<string, unknown>;
  to: { id: string } & Record<string, unknown>;
  merge: boolean;
  /** The most bytes of JSON a thread's location may hold once merged (a request's limit). */
  mostBytes: number;
}

/** What commentannotations/update changed: the threads, and by thread the comments updateUsers gave another author. */
export interface ThreadsUpdated {
  ids: string[];
  reauthored: Map<string, number[]>;
  /** updateUsers' new authors written as profiles (none without an organization, or with no thread matched). */
  profiled: string[];
}

/** A change to comments (SPEC 10.8): the body (both forms, already derived), author, tags. */
export interface CommentChange {
  body?: { html: string; text: string };
  from?: UserRef;
  taggedUserContacts?: TaggedContact[] | null;
  /** triggerNotification (SPEC 11.7): the changed comments notify their mentions and the document's members. */
  notify?: boolean;
}

/** Threads and unread threads of one document, for one user (SPEC 10.6). */
/** What a page of a document's threads is read under: the document's thread version, and the read versions. */
export interface DocumentVersions extends ReadVersions {
  documentVersion: number;
}

/** commentannotations/count/get's data as JSON text (SPEC 10.6), and the credentials version it was read under. */
export interface ThreadCounts extends Pick<ReadVersions, 'credentialsVersion'> {
  json: string;
}

export type AddCommentsResult =
  | { kind: 'added'; commentIds: number[] }
  | { kind: 'annotation_not_found' }
  | { kind: 'comment_exists'; commentId: number }
  | { kind: 'ids_exhausted' };

export interface NewNotification {
  notificationId: string;
  documentId: string | null;
  locationId: string | null;
  actionUser: UserRef;
  headlineTemplate: string;
  headlineData: Record<string, unknown>;
  bodyMessage: string;
  sourceData: Record<string, unknown>;
  timestamp: number;
  /** Distinct recipients, in the order they were listed. */
  recipients: Recipient[];
  /** Addressed to the whole organization as well (SPEC 11.1): every member finds it. */
  notifyAll: boolean;
  /** notificationSource: "custom" (notifications/add) or "comment" (SPEC 11.7). */
  source: 'custom' | 'comment';
  /** The answer as far as it does not depend on the reader, rendered by the service (answers/notifications.ts). */
  answer: string;
}

export interface Recipient {
  userId: string;
  /** SPEC 4's internal id of the recipient, derived once when the notification is added (reads show it). */
  internalId: string;
}

/**
 * A notification as the store reads it: what a read fills in (the action user, resolved against a
 * profile) and the stored answer around it (answers/notifications.ts). Nothing else is read: each
 * column a read returns costs about 0.3 us per row.
 */
export interface StoredNotification extends ReadVersions {
  notificationId: string;
  timestamp: number;
  actionUser: UserRef;
  answer: string;
  /** Who has read it: [userId, internalId] (null for a listed recipient: derived), or null for nobody. */
  readers: [string, string | null][] | null;
}

/** The stored row a content change renders the new answer from. */
export interface ChangeSource {
  notificationId: string;
  documentId: string | null;
  locationId: string | null;
  actionUser: { userId: string; name: string | null; email: string | null };
  headlineTemplate: string;
  headlineData: string;
  bodyMessage: string;
  sourceData: string;
  timestamp: number;
  recipients: { userId: string; internalId: string }[];
  source: string;
  notifyAll: boolean;
}

/** notifications/update's change to one notification (SPEC 11.3). */
export interface NotificationChange {
  id: string;
  /** userIds, each once. */
  readBy: string[];
  unreadBy: string[];
  /** The content members given, if any: absent members stay. */
  content: {
    actionUser?: UserRef;
    headlineTemplate?: string;
    headlineData?: Record<string, unknown>;
    bodyMessage?: string;
    sourceData?: Record<string, unknown>;
  } | null;
}

/** A user's counters as stored (store/notifications/counts-schema.ts), added up by the service. */
export interface InboxCount extends Pick<ReadVersions, 'credentialsVersion'> {
  total: number;
  unread: number;
  wideListed: number;
  wideRead: number;
  /** Organization-wide notifications (of the document, if one was named). */
  wide: number;
  member: boolean;
}

export type SettingValue = 'ALL' | 'MINE' | 'NONE';
export interface NotificationSetting {
  inbox: SettingValue;
  email: SettingValue;
}

/** Position in the (timestamp desc, id desc) order: results come strictly after it. */
export interface NotificationCursor {
  timestamp: number;
  notificationId: string;
}

export interface NotificationQuery {
  organizationId: string;
  documentId: string | null;
  userId: string | null;
  locationId: string | null;
  notificationIds: string[] | null;
  /** Only what userId has (not) read; null: both. */
  unread: boolean | null;
  after: NotificationCursor | null;
  limit: number;
}

/** One thread, by its full key below the tenant. */
export interface ThreadRef {
  organizationId: string;
  documentId: string;
  annotationId: string;
}

export interface CommentQuery {
  organizationId: string;
  documentId: string;
  annotationId: string;
  userIds: string[] | null;
  commentIds: number[] | null;
}

/** A tenant's new last event id; a null tenant: notices may have been missed (any tenant may have new events). */
export type EventListener = (tenantId: string | null, lastId: number) => void;
export type { EventDraft, StoredEvent } from './events/outbox.js';
import type { StoredEvent } from './events/outbox.js';
import type { StreamAccess } from './events/access.js';
export type { StreamAccess } from './events/access.js';

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Brings the schema up to date; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers; rejects with StoreUnavailableError when it does not. */
  ping(): Promise<void>;
  /** The fault that outlasts single requests, if any: writes refused by the storage, or a damaged database. */
  fault(): LastingFault | null;
  /** Connection pool occupancy, where there is a pool (PostgreSQL). */
  poolStats?(): { total: number; idle: number; waiting: number } | undefined;
  /** Where the time of every store call goes (the app's metrics). */
  observeCalls?(listener: CallListener | null): void;
  /** Where the time of every write transaction goes (metrics.ts: marginalia_write_transaction_seconds). */
  observeTransactions?(listener: TransactionListener | null): void;
  close(): Promise<void>;

  // Tenants and credentials (operator side: keyed by API key, not tenant id). Every change to them
  // bumps the credentials version in the same transaction.
  /** A number that changes whenever any key or token changes: lets a process cache authentication safely. */
  credentialsVersion(): Maybe<number>;
  countTenants(): Maybe<number>;
  createTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Maybe<void>;
  /** Creates the tenant only while there is none (first start); false when one exists. Safe when instances start together. */
  createFirstTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Maybe<boolean>;
  findCredentials(apiKey: string): Maybe<Credentials | null>;
  listTenants(): Maybe<TenantListing[]>;
  /** Returns false when no such key exists. */
  revokeTenant(apiKey: string, at: number): Maybe<boolean>;
  setTenantDisabled(apiKey: string, disabled: boolean): Maybe<boolean>;
  addToken(tenantId: string, token: TokenRecord): Maybe<void>;
  listTokens(tenantId: string): Maybe<(TokenRecord & { revoked: boolean })[]>;
  revokeToken(tenantId: string, tokenHash: string, at: number): Maybe<boolean>;
  /** The tenant's end-user token signing key, null when it has none yet. */
  findSigningKey(tenantId: string): Maybe<SigningKey | null>;
  /** Stores `candidate` as the tenant's signing key unless it has one; answers the key it has. */
  ensureSigningKey(tenantId: string, candidate: SigningKey): Maybe<SigningKey>;

  // The event outbox (SPEC 13): every write below records its events in its own transaction.
  /**
   * Called after each write that recorded events has committed, with the tenant and its last event id:
   * this process's writes, and on PostgreSQL every instance's (LISTEN/NOTIFY).
   */
  onEvents?(listener: EventListener | null): void;
  /** The tenant's events after `afterId`, in id order, at most `limit`. */
  eventsAfter(tenantId: string, afterId: number, limit: number): Maybe<StoredEvent[]>;
  /** The tenant's last event id (0: none yet). */
  lastEventId(tenantId: string): Maybe<number>;
  /** Deletes up to `limit` events recorded before `before` (ms); answers how many went. */
  pruneEvents(before: number, limit: number): Maybe<number>;
  /**
   * Answers once the events of every write this process has answered for the tenant are numbered
   * (PostgreSQL numbers them just after the write's commit, migration 21; SQLite as it writes them).
   * Rejects if that numbering failed: the drafts then wait for the tenant's next one, or the sweep.
   */
  eventsNumbered(tenantId: string): Promise<void>;
  /**
   * Numbers events their writers left as drafts before `before` (PostgreSQL, migration 18: a process
   * that stopped between a write's commit and its numbering, or numberings that failed); answers how
   * many tenants had some, or rejects if a numbering failed (the sweep logs it and tries again).
   */
  numberLeftDrafts(before: number): Promise<number>;
  /** What an end-user token's stream may carry of the organization and document (events/access.ts). */
  streamAccess(tenantId: string, organizationId: string, documentId: string, userId: string): Maybe<StreamAccess>;

  // Users.
  upsertUsers(tenantId: string, organizationId: string, scope: Scope, users: UserWrite[], now: number): Maybe<void>;
  /** Updates the users that exist in the scope; returns their userIds. */
  updateUsers(tenantId: string, organizationId: string, scope: Scope, users: UserWrite[], now: number): Maybe<Set<string>>;
  findProfiles(tenantId: string, organizationId: string, userIds: string[]): Maybe<Map<string, Profile>>;
  /** The organization's profiles in userId order, at most `limit` of them (one range of the users table). */
  organizationProfiles(tenantId: string, organizationId: string, limit: number): Maybe<Profile[]>;

  // Comment annotations.
  /** Adds the annotations whose id is free; returns the ids that were already taken (and were skipped). */
  addAnnotations(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotations: NewAnnotation[],
    now: number,
    /** triggerNotification: the write notifies those SPEC 11.7 names, in its transaction. */
    notify?: boolean,
  ): Maybe<Set<string>>;
  addComments(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotationId: string,
    comments: CommentDraft[],
    now: number,
    notify?: boolean,
  ): Maybe<AddCommentsResult>;
  getComments(tenantId: string, query: CommentQuery): Maybe<StoredComment[]>;
  /** A document's threads with their comments: a page newest first, or the threads with the given ids. */
  getAnnotations(tenantId: string, query: AnnotationQuery): Maybe<StoredThreadAnswer[]>;
  /** Changes the threads the filters match, with lastUpdated = now; returns their ids, and the comments re-authored. */
  updateAnnotations(tenantId: string, filters: ThreadFilters, change: ThreadChange, now: number): Maybe<ThreadsUpdated>;
  /** Deletes the threads the filters match, with their comments and read marks; returns their ids. */
  deleteAnnotations(tenantId: string, filters: ThreadFilters, now: number): Maybe<string[]>;
  /** The versions a page of the document's threads would be read under now (services/thread-pages.ts). */
  documentVersions(tenantId: string, organizationId: string, documentId: string): Maybe<DocumentVersions>;
  /** Counts by document, for documentIds as given (without repeats): every one is in the answer. */
  countAnnotations(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    userId: string,
    statusIds: string[] | null,
  ): Maybe<ThreadCounts>;
  /** Marks the document's threads (those of annotationIds, or all) read by the user as of now; returns how many. */
  markAnnotationsRead(
    tenantId: string,
    organizationId: string,
    documentId: string,
    userId: string,
    annotationIds: string[] | null,
    now: number,
  ): Maybe<number>;
  /** Changes the listed comments of a thread; null when the thread does not exist, else the ids changed. */
  updateComments(
    tenantId: string,
    thread: ThreadRef,
    commentIds: number[],
    change: CommentChange,
    now: number,
  ): Maybe<number[] | null>;
  /**
   * locations/update: the document's threads and notifications at `move.from` go to `move.to`; answers
   * the threads moved and the notifications moved, as they now are.
   */
  moveLocation(
    tenantId: string,
    organizationId: string,
    documentId: string,
    move: LocationMove,
    now: number,
  ): Maybe<LocationMoved>;
  /** locations/data/delete: the document's threads and notifications at the location; answers their ids. */
  deleteLocationData(
    tenantId: string,
    organizationId: string,
    documentId: string,
    locationId: string,
    now: number,
  ): Maybe<LocationDataDeleted>;
  /** Deletes the listed comments (null: all) of a thread; null when the thread does not exist, else the ids deleted. */
  deleteComments(tenantId: string, thread: ThreadRef, commentIds: number[] | null, now: number): Maybe<number[] | null>;

  // Notifications.
  /** Returns false when the notificationId is taken in the organization. */
  addNotification(tenantId: string, organizationId: string, notification: NewNotification): Maybe<boolean>;
  getNotifications(tenantId: string, query: NotificationQuery): Maybe<StoredNotification[]>;
  /** notifications/update in one transaction; answers the ids that exist. */
  changeNotifications(
    tenantId: string,
    organizationId: string,
    changes: readonly NotificationChange[],
    render: (row: ChangeSource, change: NotificationChange) => { answer: string; row: ChangeSource },
    now: number,
  ): Maybe<Set<string>>;
  /** Deletes the notifications named or matched, for everyone; answers the ids deleted. */
  deleteNotifications(tenantId: string, query: NotificationDeletion, now: number): Maybe<string[]>;
  countNotifications(tenantId: string, organizationId: string, userId: string, documentId: string | null): Maybe<InboxCount>;
  /** notifications/read: answers how many were newly marked read. */
  markNotificationsRead(
    tenantId: string,
    organizationId: string,
    user: Recipient,
    documentId: string | null,
    notificationIds: string[] | null,
    now: number,
  ): Maybe<number>;
  notificationSettings(
    tenantId: string,
    organizationId: string,
    userId: string,
    documentIds: readonly string[],
  ): Maybe<Map<string, NotificationSetting>>;
  setNotificationSettings(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    userIds: readonly string[],
    setting: Partial<NotificationSetting>,
    now: number,
  ): Maybe<void>;

  // --- Organizations (SPEC 12) ---

  /** organizations/add: creates each one, or renames it when a name is given. */
  addOrganizations(tenantId: string, entries: readonly OrganizationWrite[], now: number): Maybe<void>;
  /** organizations/update: renames those that exist; answers which did. */
  updateOrganizations(tenantId: string, entries: readonly OrganizationWrite[], now: number): Maybe<Set<string>>;
  /** organizations/get: up to `limit` after the id `after`, by id (null: all), in id order. */
  getOrganizations(tenantId: string, ids: string[] | null, after: string | null, limit: number): Maybe<OrganizationRecord[]>;

  // --- Members, user groups and personal data (SPEC 12) ---

  /** users/get: members in userId order, at most `limit`. */
  getMembers(tenantId: string, query: MemberQuery): Maybe<Profile[]>;
  /** users/delete: with a scope, that membership; else profiles, memberships and group entries. Answers who was removed. */
  deleteMembers(tenantId: string, organizationId: string, scope: Scope, userIds: string[], now: number): Maybe<Set<string>>;
  addUserGroups(tenantId: string, organizationId: string, groups: readonly UserGroupWrite[], now: number): Maybe<void>;
  /** usergroups/users/add: false when the group does not exist. */
  addGroupMembers(tenantId: string, organizationId: string, groupId: string, userIds: string[], now: number): Maybe<boolean>;
  /** usergroups/users/delete (userIds null: all); null when the group does not exist, else who left. */
  deleteGroupMembers(
    tenantId: string,
    organizationId: string,
    groupId: string,
    userIds: string[] | null,
    now: number,
  ): Maybe<string[] | null>;
  /** users/data/get: at most `limit` of each list after the cursor. */
  getUserData(
    tenantId: string,
    organizationId: string,
    userId: string,
    cursor: UserDataCursor,
    limit: number,
  ): Maybe<UserDataPage>;
  /**
   * users/data/delete: every user's data in each organization (null: all of the tenant's), in
   * transactions of at most `batchSize` rows each; records the job when done. Answers how many batches ran.
   */
  eraseUserData(
    tenantId: string,
    organizationIds: string[] | null,
    userIds: string[],
    batchSize: number,
    job: { jobId: string; now: () => number },
  ): Promise<number>;
  erasureJob(tenantId: string, jobId: string): Maybe<ErasureJob | null>;

  // --- Documents and folders (SPEC 12) ---

  /** documents/add: creates each, renames it when named, places it in `folderId` (which must exist) when given. */
  addDocuments(
    tenantId: string,
    organizationId: string,
    folderId: string | null,
    entries: readonly DocumentWrite[],
    now: number,
  ): Maybe<void>;
  /** documents/update: renames those that exist; answers which did. */
  updateDocuments(tenantId: string, organizationId: string, entries: readonly DocumentWrite[], now: number): Maybe<Set<string>>;
  /** documents/get: up to `limit`, in id order. */
  getDocuments(tenantId: string, query: DocumentQuery): Maybe<DocumentRecord[]>;
  /** documents/delete: with everything in them; answers the ids that existed. */
  deleteDocuments(tenantId: string, organizationId: string, documentIds: readonly string[], now: number): Maybe<Set<string>>;
  /** documents/move: into `folderId` (which must exist; null: no folder). */
  moveDocuments(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    folderId: string | null,
    now: number,
  ): Maybe<void>;
  setDocumentAccess(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    accessType: AccessType,
    now: number,
  ): Maybe<void>;
  setDocumentsDisabled(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    disabled: boolean,
    now: number,
  ): Maybe<void>;
  /** folders/add: creates each under its parent (which must exist), or renames and moves one that exists. */
  addFolders(
    tenantId: string,
    organizationId: string,
    entries: readonly FolderWrite[],
    now: number,
    maxDepth?: number,
  ): Maybe<void>;
  /** folders/update: renames and moves those that exist; answers which did. */
  updateFolders(
    tenantId: string,
    organizationId: string,
    entries: readonly FolderWrite[],
    now: number,
    maxDepth?: number,
  ): Maybe<Set<string>>;
  /** folders/delete: with their subtrees, their documents left in no folder; answers the ids that existed. */
  deleteFolders(tenantId: string, organizationId: string, folderIds: readonly string[], now: number): Maybe<Set<string>>;
  /** folders/access/update: answers the ids that exist. */
  setFolderAccess(
    tenantId: string,
    organizationId: string,
    folderIds: readonly string[],
    accessType: AccessType,
    now: number,
  ): Maybe<Set<string>>;
  /** Every folder of the organization, in id order. */
  getFolders(tenantId: string, organizationId: string): Maybe<FolderRecord[]>;
  /** organizations/access/disablestate/update: those that exist take the state; answers which did. */
  setOrganizationsDisabled(
    tenantId: string,
    organizationIds: readonly string[],
    disabled: boolean,
    now: number,
  ): Maybe<Set<string>>;
  /** organizations/delete: everything in each, in one transaction; answers those that existed. */
  deleteOrganizations(tenantId: string, organizationIds: readonly string[], now: number): Maybe<Set<string>>;

  // --- Allowed browser domains (workspace/domains; store/domains/) ---

  /**
   * workspace/domains/add: the domains (normalized, each once) the tenant does not allow yet are added,
   * the others skipped; 'too_many' (nothing written) when it would then allow more than `most`.
   */
  addAllowedDomains(tenantId: string, domains: readonly string[], most: number, now: number): Maybe<DomainsAdded>;
  /** workspace/domains/delete: answers the domains the tenant allowed, in the order given (the others were skipped). */
  deleteAllowedDomains(tenantId: string, domains: readonly string[]): Maybe<string[]>;
  /** The tenant's allowed domains, in code-unit order. */
  allowedDomains(tenantId: string): Maybe<string[]>;
  /** Whether the tenant allows one of an origin's candidate keys (services/domain-names.ts): its end-user requests' CORS. */
  tenantAllowsDomain(tenantId: string, candidates: readonly string[]): Maybe<boolean>;
  /** Whether any tenant allows one of them: a preflight, which carries no credentials. */
  anyTenantAllowsDomain(candidates: readonly string[]): Maybe<boolean>;
  // --- Documents' live state (store/livestate/) ---

  /**
   * livestate/broadcast: the state under the id replaced or shallow-merged, with its event; a new id
   * past `most` of the document is RESOURCE_EXHAUSTED. Answers the state as written.
   */
  broadcastLiveState(
    tenantId: string,
    broadcast: LiveStateBroadcast,
    bounds: LiveStateBounds,
    now: number,
  ): Maybe<LiveStateRecord>;
  /** livestate/get: up to `limit` of the document's states (those of `ids`, or all) after the id `after`, in id order. */
  getLiveStates(
    tenantId: string,
    organizationId: string,
    documentId: string,
    ids: readonly string[] | null,
    after: string | null,
    limit: number,
  ): Maybe<LiveStateRecord[]>;

  // --- Webhooks (SPEC 13; store/webhooks/) ---

  /** webhooks/add: the cursor starts at the tenant's last event; 'too_many' when it has `most` already. */
  addWebhook(tenantId: string, webhook: NewWebhook, most: number): Maybe<'added' | 'too_many'>;
  /** webhooks/get: the tenant's webhooks in the order they were made, without their secrets. */
  getWebhooks(tenantId: string): Maybe<WebhookRecord[]>;
  /** webhooks/delete: with its queues and pending deliveries; false when it does not exist. */
  deleteWebhook(tenantId: string, webhookId: string): Maybe<boolean>;
  /** webhooks/deliveries/get: attempts newest first, before the attempt id `before`; null when the webhook does not exist. */
  getWebhookAttempts(
    tenantId: string,
    webhookId: string,
    before: number | null,
    limit: number,
  ): Maybe<WebhookAttemptRecord[] | null>;
  // The delivery worker's (src/webhooks/worker.ts), across tenants: each row carries its own.
  /** Whether there are events to dispatch or deliveries due: a read. */
  webhookWork(now: number): Maybe<{ behind: boolean; due: boolean }>;
  /** Turns new events into deliveries, within the limits; answers how many and whether more may wait. */
  dispatchWebhookEvents(now: number, limits: DispatchLimits): Maybe<{ made: number; more: boolean }>;
  /** Claims up to `limit` deliveries (the oldest pending of their webhook and organization) until `until`. */
  claimWebhookDeliveries(claimer: string, now: number, until: number, limit: number): Maybe<ClaimedDelivery[]>;
  /** Logs the attempt and ends or reschedules the delivery while its claim is still `claimer`'s. */
  finishWebhookDelivery(claimer: string, delivery: ClaimedDelivery, outcome: DeliveryOutcome): Maybe<void>;
  /** Hands back claims of `claimer`, due at `at`. */
  releaseWebhookDeliveries(claimer: string, keys: readonly WebhookQueueKey[], at: number): Maybe<void>;
  /** Deletes up to `limit` finished deliveries and attempts from before `before`; answers the larger count. */
  pruneWebhookDeliveries(before: number, limit: number): Maybe<number>;
}

import type { LocationDataDeleted, LocationMoved } from './locations/locations.js';
export type { LocationDataDeleted, LocationMoved } from './locations/locations.js';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  DispatchLimits,
  NewWebhook,
  WebhookAttemptRecord,
  WebhookQueueKey,
  WebhookRecord,
} from './webhooks/types.js';
export type * from './webhooks/types.js';
import type { DomainsAdded } from './domains/domains.js';
export type { DomainsAdded } from './domains/domains.js';

/** users/get's selection (SPEC 12): each filter null for none. */
export interface MemberQuery {
  organizationId: string;
  scope: Scope;
  userIds: string[] | null;
  /** Members of any of these groups. */
  groupIds: string[] | null;
  /** Users strictly after this userId (paging); null: from the first. */
  after: string | null;
  limit: number;
}

/** usergroups/add: a group and its name (null: keep the name it has). */
export interface UserGroupWrite {
  groupId: string;
  name: string | null;
}

/** Where users/data/get's page starts in each list; null: that list is done. */
export interface UserDataCursor {
  comments: { documentId: string; annotationId: string; commentId: number } | null;
  notifications: NotificationCursor | null;
}

/** A page of users/data/get: the user's comments (where each is) and the notifications they acted or are addressed in. */
export interface UserDataPage {
  comments: { documentId: string; annotationId: string; comment: StoredComment }[];
  notifications: StoredNotification[];
}

/** users/data/delete/status: a finished erasure. */
export interface ErasureJob {
  tasksCount: number;
  completedAt: number;
}

/** notifications/delete's selection: filters as in get. */
export type NotificationDeletion = Omit<NotificationQuery, 'after' | 'limit' | 'unread'>;

export { StoreUnavailableError, type LastingFault, type UnavailableReason } from './health.js';
