// The Store over either database: each method runs one feature's store code through the dialect, as
// a read or as a write (one transaction), and keeps the storage's health: an error that means the
// disk is full, the database read-only or the file damaged begins a fault; readiness's probe write
// getting through ends a "writes refused" one (a caller's write may change no row, and so prove
// nothing); and a damaged file takes no more writes, not even migrations (writing to it can spread
// the damage).
import { guarded, type Maybe } from '../maybe.js';
import * as comments from './comments/comments.js';
import * as threads from './comments/threads.js';
import * as credentials from './credentials/credentials.js';
import type { CallListener, Dialect } from './dialect/dialect.js';
import { type FaultListener, type LastingFault, StorageHealth, StoreUnavailableError } from './health.js';
import { migrate } from './migrations.js';
import * as notifications from './notifications/notifications.js';
import * as organizations from './organizations/organizations.js';
import * as signingKeys from './signing-keys/signing-keys.js';
import * as documents from './documents/documents.js';
import * as folders from './folders/folders.js';
import type { BatchQuery, Query, Work } from './sql.js';
import type {
  AddCommentsResult,
  AnnotationQuery,
  CommentChange,
  StoredThreadAnswer,
  ThreadChange,
  ThreadCounts,
  DocumentVersions,
  ThreadFilters,
  ThreadRef,
  CommentDraft,
  CommentQuery,
  Credentials,
  NewAnnotation,
  ChangeSource,
  InboxCount,
  NewNotification,
  NotificationChange,
  NotificationDeletion,
  NotificationQuery,
  NotificationSetting,
  OrganizationRecord,
  OrganizationWrite,
  ErasureJob,
  MemberQuery,
  UserDataCursor,
  UserDataPage,
  UserGroupWrite,
  AccessType,
  DocumentQuery,
  DocumentRecord,
  DocumentWrite,
  FolderRecord,
  FolderWrite,
  Recipient,
  Profile,
  Scope,
  Store,
  StoredComment,
  StoredNotification,
  Tenant,
  TenantListing,
  TokenRecord,
  SigningKey,
  UserWrite,
} from './store.js';
import * as users from './users/users.js';
import * as members from './users/members.js';
import * as groups from './groups/groups.js';
import * as personalData from './personal-data/export.js';
import * as erasure from './personal-data/erasure.js';

export class DbStore implements Store {
  private readonly health: StorageHealth;

  constructor(
    private readonly dialect: Dialect,
    onFault?: FaultListener,
  ) {
    this.health = new StorageHealth(onFault);
  }

  get kind(): 'sqlite' | 'postgres' {
    return this.dialect.kind;
  }

  private readonly failed = (err: unknown): never => {
    throw this.health.failed(err);
  };

  private read<T>(method: string, work: () => Work<T>): Maybe<T> {
    return guarded(() => this.dialect.read(method, work), this.failed);
  }

  /** A one-statement read (the hot ones): no closures on the way, for a synchronous answer. */
  private query<T>(method: string, q: Query<T>): Maybe<T> {
    let result: Maybe<T>;
    try {
      result = this.dialect.query(method, q);
    } catch (err) {
      throw this.health.failed(err);
    }
    return result instanceof Promise ? result.catch(this.failed) : result;
  }

  /** A damaged database takes no writes (writing to it can spread the damage) and is not ready. */
  private refuseIfDamaged(): void {
    const damage = this.health.damaged;
    if (damage) throw damage;
  }

  private batchWrite<T>(method: string, q: BatchQuery<T>): Maybe<T> {
    this.refuseIfDamaged();
    if (q.rows.length === 0) return q.map([]);
    return guarded(() => this.dialect.batchWrite(method, q), this.failed);
  }

  private write<T>(method: string, work: () => Work<T>): Maybe<T> {
    this.refuseIfDamaged();
    return guarded(() => this.dialect.write(method, work), this.failed);
  }

  observeCalls(listener: CallListener | null): void {
    this.dialect.onCall = listener;
  }

  async migrate(): Promise<void> {
    const damage = this.dialect.damageAtOpen();
    if (damage.length > 0) {
      this.health.failed(
        new StoreUnavailableError('The database file is damaged.', { reason: 'damaged', cause: new Error(damage.join('; ')) }),
      );
      return;
    }
    await migrate(this.dialect);
  }

  fault(): LastingFault | null {
    return this.health.fault;
  }

  async ping(): Promise<void> {
    this.refuseIfDamaged();
    // While writes are refused, readiness waits for a write to get through (the probe row).
    if (this.health.writesRefused) {
      await this.write('probeWrite', () => credentials.probeWrite());
      this.health.wrote();
    }
    try {
      await this.dialect.ping();
    } catch (err) {
      throw err instanceof StoreUnavailableError
        ? err
        : new StoreUnavailableError('The database does not answer.', { cause: err });
    }
  }

  poolStats(): { total: number; idle: number; waiting: number } | undefined {
    return this.dialect.poolStats?.();
  }

  close(): Promise<void> {
    return this.dialect.close();
  }

  // --- Tenants and credentials ---

  credentialsVersion(): Maybe<number> {
    return this.query('credentialsVersion', credentials.version());
  }

  countTenants(): Maybe<number> {
    return this.read('countTenants', () => credentials.countTenants());
  }

  createTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Maybe<void> {
    return this.write('createTenant', () => credentials.createTenant(tenant, token));
  }

  createFirstTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Maybe<boolean> {
    return this.write('createFirstTenant', () => credentials.createFirstTenant(tenant, token));
  }

  findCredentials(apiKey: string): Maybe<Credentials | null> {
    return this.read('findCredentials', () => credentials.find(apiKey));
  }

  listTenants(): Maybe<TenantListing[]> {
    return this.read('listTenants', () => credentials.listTenants());
  }

  revokeTenant(apiKey: string, at: number): Maybe<boolean> {
    return this.write('revokeTenant', () => credentials.revokeTenant(apiKey, at));
  }

  setTenantDisabled(apiKey: string, disabled: boolean): Maybe<boolean> {
    return this.write('setTenantDisabled', () => credentials.setTenantDisabled(apiKey, disabled));
  }

  findSigningKey(tenantId: string): Maybe<SigningKey | null> {
    return this.read('findSigningKey', () => signingKeys.find(tenantId));
  }

  ensureSigningKey(tenantId: string, candidate: SigningKey): Maybe<SigningKey> {
    return this.write('ensureSigningKey', () => signingKeys.ensure(tenantId, candidate));
  }

  addToken(tenantId: string, token: TokenRecord): Maybe<void> {
    return this.write('addToken', () => credentials.addToken(tenantId, token));
  }

  listTokens(tenantId: string): Maybe<(TokenRecord & { revoked: boolean })[]> {
    return this.read('listTokens', () => credentials.listTokens(tenantId));
  }

  revokeToken(tenantId: string, tokenHash: string, at: number): Maybe<boolean> {
    return this.write('revokeToken', () => credentials.revokeToken(tenantId, tokenHash, at));
  }

  // --- Users ---

  upsertUsers(tenantId: string, organizationId: string, scope: Scope, list: UserWrite[], now: number): Maybe<void> {
    return this.write('upsertUsers', () => users.upsert(tenantId, organizationId, scope, list, now));
  }

  updateUsers(tenantId: string, organizationId: string, scope: Scope, list: UserWrite[], now: number): Maybe<Set<string>> {
    return this.batchWrite('updateUsers', users.update(tenantId, organizationId, scope, list, now));
  }

  findProfiles(tenantId: string, organizationId: string, userIds: string[]): Maybe<Map<string, Profile>> {
    return this.read('findProfiles', () => users.profiles(tenantId, organizationId, userIds));
  }

  organizationProfiles(tenantId: string, organizationId: string, limit: number): Maybe<Profile[]> {
    return this.query('organizationProfiles', users.organizationProfiles(tenantId, organizationId, limit));
  }

  // --- Comment annotations ---

  addAnnotations(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotations: NewAnnotation[],
    now: number,
    notify = false,
  ): Maybe<Set<string>> {
    return this.write('addAnnotations', () =>
      comments.addAnnotations(tenantId, organizationId, documentId, annotations, now, notify),
    );
  }

  addComments(
    tenantId: string,
    organizationId: string,
    documentId: string,
    annotationId: string,
    drafts: CommentDraft[],
    now: number,
    notify = false,
  ): Maybe<AddCommentsResult> {
    const thread = { tenantId, organizationId, documentId, annotationId };
    return this.write('addComments', () => comments.addComments(thread, drafts, now, notify));
  }

  getComments(tenantId: string, query: CommentQuery): Maybe<StoredComment[]> {
    return this.query('getComments', comments.comments(tenantId, query));
  }

  getAnnotations(tenantId: string, q: AnnotationQuery): Maybe<StoredThreadAnswer[]> {
    return this.query('getAnnotations', threads.annotations(tenantId, q));
  }

  updateAnnotations(tenantId: string, filters: ThreadFilters, change: ThreadChange, now: number): Maybe<string[]> {
    return this.write('updateAnnotations', () => threads.updateAnnotations(tenantId, filters, change, now));
  }

  deleteAnnotations(tenantId: string, filters: ThreadFilters): Maybe<string[]> {
    return this.write('deleteAnnotations', () => threads.deleteAnnotations(tenantId, filters));
  }

  documentVersions(tenantId: string, organizationId: string, documentId: string): Maybe<DocumentVersions> {
    return this.query('documentVersions', threads.documentVersions(tenantId, organizationId, documentId));
  }

  countAnnotations(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    userId: string,
    statusIds: string[] | null,
  ): Maybe<ThreadCounts> {
    return this.query('countAnnotations', threads.countAnnotations(tenantId, organizationId, documentIds, userId, statusIds));
  }

  markAnnotationsRead(
    tenantId: string,
    organizationId: string,
    documentId: string,
    userId: string,
    annotationIds: string[] | null,
    now: number,
  ): Maybe<number> {
    return this.write('markAnnotationsRead', () =>
      threads.markRead(tenantId, organizationId, documentId, userId, annotationIds, now),
    );
  }

  updateComments(
    tenantId: string,
    thread: ThreadRef,
    commentIds: number[],
    change: CommentChange,
    now: number,
  ): Maybe<number[] | null> {
    return this.write('updateComments', () => threads.updateComments(tenantId, thread, commentIds, change, now));
  }

  deleteComments(tenantId: string, thread: ThreadRef, commentIds: number[] | null, now: number): Maybe<number[] | null> {
    return this.write('deleteComments', () => threads.deleteComments(tenantId, thread, commentIds, now));
  }

  // --- Notifications ---

  addNotification(tenantId: string, organizationId: string, notification: NewNotification): Maybe<boolean> {
    return this.write('addNotification', () => notifications.add(tenantId, organizationId, notification));
  }

  getNotifications(tenantId: string, query: NotificationQuery): Maybe<StoredNotification[]> {
    return this.query('getNotifications', notifications.read(tenantId, query));
  }

  changeNotifications(
    tenantId: string,
    organizationId: string,
    changes: readonly NotificationChange[],
    render: (row: ChangeSource, change: NotificationChange) => { answer: string; row: ChangeSource },
  ): Maybe<Set<string>> {
    return this.write('changeNotifications', () => notifications.change(tenantId, organizationId, changes, render));
  }

  deleteNotifications(tenantId: string, query: NotificationDeletion): Maybe<string[]> {
    return this.write('deleteNotifications', () => notifications.remove(tenantId, query));
  }

  countNotifications(tenantId: string, organizationId: string, userId: string, documentId: string | null): Maybe<InboxCount> {
    return this.query('countNotifications', notifications.count(tenantId, organizationId, userId, documentId));
  }

  markNotificationsRead(
    tenantId: string,
    organizationId: string,
    user: Recipient,
    documentId: string | null,
    notificationIds: string[] | null,
  ): Maybe<number> {
    return this.write('markNotificationsRead', () =>
      notifications.markRead(tenantId, organizationId, user, documentId, notificationIds),
    );
  }

  notificationSettings(
    tenantId: string,
    organizationId: string,
    userId: string,
    documentIds: readonly string[],
  ): Maybe<Map<string, NotificationSetting>> {
    return this.read('notificationSettings', () => notifications.settingsOf(tenantId, organizationId, userId, documentIds));
  }

  setNotificationSettings(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    userIds: readonly string[],
    setting: Partial<NotificationSetting>,
  ): Maybe<void> {
    return this.write('setNotificationSettings', () =>
      notifications.setSettings(tenantId, organizationId, documentIds, userIds, setting),
    );
  }

  // --- Organizations ---

  addOrganizations(tenantId: string, entries: readonly OrganizationWrite[], now: number): Maybe<void> {
    return this.write('addOrganizations', () => organizations.add(tenantId, entries, now));
  }

  updateOrganizations(tenantId: string, entries: readonly OrganizationWrite[], now: number): Maybe<Set<string>> {
    return this.write('updateOrganizations', () => organizations.update(tenantId, entries, now));
  }
  setOrganizationsDisabled(tenantId: string, organizationIds: readonly string[], disabled: boolean, now: number): Maybe<void> {
    return this.write('setOrganizationsDisabled', () => organizations.setDisabled(tenantId, organizationIds, disabled, now));
  }

  deleteOrganizations(tenantId: string, organizationIds: readonly string[]): Maybe<Set<string>> {
    return this.write('deleteOrganizations', () => organizations.remove(tenantId, organizationIds));
  }

  getOrganizations(tenantId: string, ids: string[] | null, after: string | null, limit: number): Maybe<OrganizationRecord[]> {
    return this.read('getOrganizations', () => organizations.page(tenantId, ids, after, limit));
  }

  // --- Members, user groups and personal data ---

  getMembers(tenantId: string, q: MemberQuery): Maybe<Profile[]> {
    return this.read('getMembers', () => members.members(tenantId, q));
  }

  deleteMembers(tenantId: string, organizationId: string, scope: Scope, userIds: string[]): Maybe<Set<string>> {
    return this.write('deleteMembers', () => members.removeMembers(tenantId, organizationId, scope, userIds));
  }

  addUserGroups(tenantId: string, organizationId: string, list: readonly UserGroupWrite[], now: number): Maybe<void> {
    return this.write('addUserGroups', () => groups.addGroups(tenantId, organizationId, list, now));
  }

  addGroupMembers(tenantId: string, organizationId: string, groupId: string, userIds: string[]): Maybe<boolean> {
    return this.write('addGroupMembers', () => groups.addGroupMembers(tenantId, organizationId, groupId, userIds));
  }

  deleteGroupMembers(
    tenantId: string,
    organizationId: string,
    groupId: string,
    userIds: string[] | null,
  ): Maybe<string[] | null> {
    return this.write('deleteGroupMembers', () => groups.deleteGroupMembers(tenantId, organizationId, groupId, userIds));
  }

  getUserData(
    tenantId: string,
    organizationId: string,
    userId: string,
    cursor: UserDataCursor,
    limit: number,
  ): Maybe<UserDataPage> {
    return this.read('getUserData', () => personalData.userData(tenantId, organizationId, userId, cursor, limit));
  }

  /**
   * Each batch of each step is its own transaction, with a turn of the event loop between them, so
   * other writers (and this process's requests, on SQLite) go on meanwhile (personal-data/erasure.ts).
   * Each step runs once per organization for all the users together; the steps that find rows by user
   * run only for the users with a row of their own there (one read per organization finds them), so
   * an organization where none has one costs only the scans of what may name a user in its JSON.
   */
  async eraseUserData(
    tenantId: string,
    organizationIds: string[] | null,
    userIds: string[],
    batchSize: number,
    job: { jobId: string; now: () => number },
  ): Promise<number> {
    const orgs = organizationIds ?? (await this.read('erasureOrganizations', () => erasure.organizationsOf(tenantId)));
    let tasks = 0;
    for (const organizationId of orgs) {
      const present = await this.read('erasureUsersWithRows', () => erasure.usersWithRows(tenantId, organizationId, userIds));
      for (const step of erasure.ERASURE_STEPS) {
        if (step.byUser && present.length === 0) continue;
        const scope = { tenantId, organizationId, userIds: step.byUser ? present : userIds };
        let cursor: unknown = null;
        for (;;) {
          const at = cursor;
          const result = await this.write('eraseUserData', () => step.run(scope, at, batchSize));
          tasks++;
          if (result.done) break;
          cursor = result.cursor;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    }
    await this.write('recordErasureJob', () => erasure.recordJob(tenantId, job.jobId, tasks, job.now()));
    return tasks;
  }

  erasureJob(tenantId: string, jobId: string): Maybe<ErasureJob | null> {
    return this.read('erasureJob', () => personalData.erasureJob(tenantId, jobId));
  }

  // --- Documents and folders ---

  addDocuments(
    tenantId: string,
    organizationId: string,
    folderId: string | null,
    entries: readonly DocumentWrite[],
    now: number,
  ): Maybe<void> {
    return this.write('addDocuments', () => documents.add(tenantId, organizationId, folderId, entries, now));
  }

  updateDocuments(tenantId: string, organizationId: string, entries: readonly DocumentWrite[], now: number): Maybe<Set<string>> {
    return this.write('updateDocuments', () => documents.update(tenantId, organizationId, entries, now));
  }

  getDocuments(tenantId: string, query: DocumentQuery): Maybe<DocumentRecord[]> {
    return this.read('getDocuments', () => documents.page(tenantId, query));
  }

  deleteDocuments(tenantId: string, organizationId: string, documentIds: readonly string[]): Maybe<Set<string>> {
    return this.write('deleteDocuments', () => documents.remove(tenantId, organizationId, documentIds));
  }

  moveDocuments(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    folderId: string | null,
    now: number,
  ): Maybe<void> {
    return this.write('moveDocuments', () => documents.move(tenantId, organizationId, documentIds, folderId, now));
  }

  setDocumentAccess(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    accessType: AccessType,
    now: number,
  ): Maybe<void> {
    return this.write('setDocumentAccess', () => documents.setAccess(tenantId, organizationId, documentIds, accessType, now));
  }

  setDocumentsDisabled(
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    disabled: boolean,
    now: number,
  ): Maybe<void> {
    return this.write('setDocumentsDisabled', () => documents.setDisabled(tenantId, organizationId, documentIds, disabled, now));
  }

  addFolders(
    tenantId: string,
    organizationId: string,
    entries: readonly FolderWrite[],
    now: number,
    maxDepth?: number,
  ): Maybe<void> {
    return this.write('addFolders', () => folders.add(tenantId, organizationId, entries, now, maxDepth));
  }

  updateFolders(
    tenantId: string,
    organizationId: string,
    entries: readonly FolderWrite[],
    now: number,
    maxDepth?: number,
  ): Maybe<Set<string>> {
    return this.write('updateFolders', () => folders.update(tenantId, organizationId, entries, now, maxDepth));
  }

  deleteFolders(tenantId: string, organizationId: string, folderIds: readonly string[], now: number): Maybe<Set<string>> {
    return this.write('deleteFolders', () => folders.remove(tenantId, organizationId, folderIds, now));
  }

  setFolderAccess(
    tenantId: string,
    organizationId: string,
    folderIds: readonly string[],
    accessType: AccessType,
    now: number,
  ): Maybe<Set<string>> {
    return this.write('setFolderAccess', () => folders.setAccess(tenantId, organizationId, folderIds, accessType, now));
  }

  getFolders(tenantId: string, organizationId: string): Maybe<FolderRecord[]> {
    return this.read('getFolders', () => folders.listAll(tenantId, organizationId));
  }
}
