// The storage seam. Routes and services see only this interface; db-store.ts implements it once, over
// the SQLite or the PostgreSQL dialect. Every data method takes the tenant's internal id first, so no query can forget it.
// Each method is atomic on its own: a batch is one transaction inside the store. Data methods answer
// with a Maybe (maybe.ts): at once on SQLite, with a promise on PostgreSQL; `await` takes either.
import type { Maybe } from '../maybe.js';
import type { CallListener } from './dialect/dialect.js';
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

/** An author or actor as the writer sent it; null where the writer left a field out. */
export interface UserRef {
  userId: string;
  name: string | null;
  email: string | null;
}

export interface NewComment {
  commentId: number;
  html: string;
  text: string;
  from: UserRef;
}

/** What every row of a read carries besides its data: the versions it was read under (the same on every row). */
export interface ReadVersions {
  /** The organization's profile version (services/profiles.ts). */
  profileVersion: number;
  /** The credentials version: it confirms a request admitted from the auth cache (http/auth.ts). */
  credentialsVersion: number;
}

export interface StoredComment extends NewComment, ReadVersions {
  status: string;
  type: string;
  createdAt: number;
  lastUpdated: number;
}

export interface NewAnnotation {
  annotationId: string;
  location: object | null;
  locationId: string | null;
  context: object | null;
  status: object;
  comments: NewComment[];
}

/** Comments to append to an existing thread: ids the caller chose, or undefined for the store to assign. */
export interface CommentDraft {
  commentId: number | undefined;
  html: string;
  text: string;
  from: UserRef;
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
  after: NotificationCursor | null;
  limit: number;
}

export interface CommentQuery {
  organizationId: string;
  documentId: string;
  annotationId: string;
  userIds: string[] | null;
  commentIds: number[] | null;
}

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
  ): Maybe<Set<string>>;
  addComments(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotationId: string,
    comments: CommentDraft[],
    now: number,
  ): Maybe<AddCommentsResult>;
  getComments(tenantId: string, query: CommentQuery): Maybe<StoredComment[]>;

  // Notifications.
  /** Returns false when the notificationId is taken in the organization. */
  addNotification(tenantId: string, organizationId: string, notification: NewNotification): Maybe<boolean>;
  getNotifications(tenantId: string, query: NotificationQuery): Maybe<StoredNotification[]>;
}

export { StoreUnavailableError, type LastingFault, type UnavailableReason } from './health.js';
