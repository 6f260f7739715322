// `marginalia import`'s copying (docs/operations.md, "Importing"): what the source answers, written here through
// the same services the API uses, with the ids, authors, times and read state the source shows. Every write is
// idempotent by id (an existing organization, folder, thread or notification is left as it is; users are
// upserted), so a step cut short is simply run again; the checkpoint says which steps are done.
import { addAnnotations } from '../services/comments.js';
import type { Caller, Services } from '../services/context.js';
import { addDocuments, type DocumentPage, getDocuments, setDocumentAccess, setDocumentsDisabled } from '../services/documents.js';
import { addFolders } from '../services/folders.js';
import { markNotificationsRead } from '../services/inbox.js';
import { setNotificationConfig } from '../services/notification-settings.js';
import { addNotification } from '../services/notifications.js';
import { addOrganizations, getOrganizations, setOrganizationsDisabled } from '../services/organizations.js';
import { addUsers } from '../services/users.js';
import { addGroupUsers, addUserGroups } from '../services/groups.js';
import { ApiError } from '../errors.js';
import type { Checkpoint } from './checkpoint.js';
import { type Counts, type DocumentCounts, threadCounts, unreadOf } from './compare.js';
import { NotServed, type Source } from './source.js';

type Json = Record<string, unknown>;

export interface CopyOptions {
  /** Only these organizations; null: every one the source lists. */
  organizationIds: string[] | null;
  dryRun: boolean;
  /** Documents copied side by side (their reads toward the source are bounded by the source's gate anyway). */
  concurrency: number;
  pageSize: number;
  /** The most items one write takes (MARGINALIA_MAX_BATCH). */
  maxBatch: number;
  /** Told of every step done, for the progress line. */
  progress: (checkpoint: Checkpoint, step: string) => void;
  /** A line for the operator (stderr): something left out that the run goes on without. */
  warn: (line: string) => void;
}

/** The source's counts per document ("org/doc"), for the comparison at the end. */
export type SourceCounts = Map<string, DocumentCounts>;

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Runs `work` over `items`, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** A write that may find its record there already (a resumed step): ALREADY_EXISTS is that, not a failure. */
async function idempotent(write: () => unknown): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'ALREADY_EXISTS')) throw err;
  }
}

/** The services with their clock set to a time the source shows: what notifications/add stamps. */
const at = (services: Services, time: number): Services => ({ ...services, clock: () => time });

/** Folders ordered parents first, as folders/add wants them ("root": the top). */
export function parentsFirst(folders: readonly Json[]): Json[] {
  const byId = new Map(folders.map((f) => [f.folderId as string, f]));
  const out: Json[] = [];
  const placed = new Set<string>();
  const place = (f: Json) => {
    const chain: Json[] = [];
    for (let at: Json | undefined = f; at && !placed.has(at.folderId as string); ) {
      chain.push(at);
      placed.add(at.folderId as string);
      at = byId.get(at.parentFolderId as string);
    }
    out.push(...chain.reverse());
  };
  for (const f of folders) place(f);
  return out;
}

export class Copier {
  readonly sourceCounts: SourceCounts = new Map();
  /** Organizations ("org") and documents ("org/doc") disabled here when this run came to them. */
  private readonly disabledHere = new Set<string>();
  /** Set once the source answered 404 to the groups read: not asked again, not warned of again. */
  private groupsNotServed = false;

  constructor(
    private readonly source: Source,
    private readonly services: Services,
    private readonly caller: Caller,
    private readonly checkpoint: Checkpoint,
    private readonly options: CopyOptions,
  ) {}

  private async step(key: string, work: () => Promise<void>): Promise<void> {
    if (this.checkpoint.has(key)) return;
    try {
      await work();
    } catch (err) {
      // Where it stopped, for the operator: "documents:acme: Document notes is disabled."
      if (err instanceof Error && !err.message.startsWith(`${key}: `)) err.message = `${key}: ${err.message}`;
      throw err;
    }
    this.checkpoint.complete(key);
    this.options.progress(this.checkpoint, key);
  }

  private wrote(kind: string, n: number) {
    this.checkpoint.count(kind, n);
  }

  /** Every organization the source lists (or those asked for), one after the other. */
  async run(): Promise<string[]> {
    const filter = this.options.organizationIds;
    const organizations = await this.source.all<Json>(
      'organizations/get',
      filter ? { organizationIds: filter } : {},
      this.options.pageSize,
    );
    for (const org of organizations) await this.organization(org);
    return organizations.map(organizationIdOf);
  }

  private async organization(org: Json): Promise<void> {
    const organizationId = organizationIdOf(org);
    const { services, caller } = this;
    if (!this.options.dryRun) await this.noteDisabledHere(organizationId);
    const write = this.writes(organizationId);
    await this.step(`org:${organizationId}`, async () => {
      const name = org.organizationName as string | null | undefined;
      if (write)
        await addOrganizations(services, caller, {
          organizations: [{ organizationId, ...(name ? { organizationName: name } : {}), ...timesOf(org) }],
        });
      this.wrote('organizations', 1);
    });
    await this.step(`folders:${organizationId}`, async () => {
      const folders = (await this.source.read('organizations/folders/get', { organizationId })).data as Json[] | null;
      const ordered = parentsFirst(folders ?? []).map((f) => ({
        folderId: f.folderId as string,
        ...(f.folderName != null ? { folderName: f.folderName as string } : {}),
        parentFolderId: (f.parentFolderId as string | undefined) ?? 'root',
        ...(f.accessType != null ? { accessType: f.accessType as 'organizationPrivate' } : {}),
        ...timesOf(f),
      }));
      if (write) {
        for (const batch of chunks(ordered, this.options.maxBatch))
          await addFolders(services, caller, { organizationId, folders: batch });
      }
      this.wrote('folders', ordered.length);
    });
    const members = await this.source.all<Json>('users/get', { organizationId }, this.options.pageSize);
    await this.step(`users:${organizationId}`, async () => {
      if (write) {
        for (const batch of chunks(members, this.options.maxBatch))
          await addUsers(services, caller, { organizationId, users: batch.map(userIn) });
      }
      this.wrote('users', members.length);
    });
    await this.step(`groups:${organizationId}`, () => this.groups(organizationId));
    const documents = await this.source.all<Json>('organizations/documents/get', { organizationId }, this.options.pageSize);
    await this.step(`documents:${organizationId}`, async () => {
      if (write)
        await this.writeDocuments(
          organizationId,
          documents.filter((d) => this.writes(organizationId, documentIdOf(d))),
        );
      this.wrote('documents', documents.length);
    });
    // Every member's inbox first: a notification shown to a member it does not list is addressed to the whole
    // organization, which a document's read alone cannot tell.
    const { wide, withoutDocument } = await this.inboxes(organizationId, members);
    await inParallel(documents, this.options.concurrency, (d) => this.document(organizationId, documentIdOf(d), wide));
    await this.step(`inboxes:${organizationId}`, () => this.notifications(organizationId, withoutDocument, wide, write));
    await this.step(`settings:${organizationId}`, () => this.settings(organizationId, members, documents));
    // Last: a disabled organization or document refuses every write, the import's included. Written at the
    // source's lastUpdated, which the write sets.
    await this.step(`disabled:${organizationId}`, async () => {
      if (!write) return;
      for (const [updated, ids] of byLastUpdated(documents.filter((d) => d.disabled === true)))
        for (const batch of chunks(ids, this.options.maxBatch))
          await setDocumentsDisabled(this.atTime(updated), caller, { organizationId, documentIds: batch, disabled: true });
      if (org.disabled === true)
        await setOrganizationsDisabled(this.atTime(timesOf(org).lastUpdated), caller, {
          organizationIds: [organizationId],
          disabled: true,
        });
    });
  }

  private async writeDocuments(organizationId: string, documents: Json[]): Promise<void> {
    const { services, caller } = this;
    const byFolder = new Map<string, Json[]>();
    for (const d of documents) {
      const folder = (d.folderId as string | null | undefined) ?? 'root';
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), d]);
    }
    for (const [folderId, inFolder] of byFolder) {
      for (const batch of chunks(inFolder, this.options.maxBatch)) {
        const docs = batch.map((d) => ({
          documentId: documentIdOf(d),
          ...(d.documentName ? { documentName: d.documentName as string } : {}),
          ...timesOf(d),
        }));
        await addDocuments(services, caller, { organizationId, folderId, documents: docs });
      }
    }
    // The access write sets lastUpdated: written at the source's, one write per access type and time.
    const byAccess = new Map<string, Json[]>();
    for (const d of documents)
      if (typeof d.accessType === 'string') byAccess.set(d.accessType, [...(byAccess.get(d.accessType) ?? []), d]);
    for (const [accessType, inAccess] of byAccess)
      for (const [updated, ids] of byLastUpdated(inAccess))
        for (const batch of chunks(ids, this.options.maxBatch))
          await setDocumentAccess(this.atTime(updated), caller, {
            organizationId,
            documentIds: batch,
            accessType: accessType as 'organizationPrivate',
          });
  }

  /** The services at the source's time when it shows one: a write that sets lastUpdated then keeps it. */
  private atTime(time: number | undefined): Services {
    return time === undefined ? this.services : at(this.services, time);
  }

  /**
   * What is disabled here already refuses every write, the import's included: an organization or document a run
   * before this one copied whole (the import disables last what the source shows disabled), or one the operator
   * disabled. Its steps read and count, as a dry run does, and the comparison at the end still checks it.
   */
  private async noteDisabledHere(organizationId: string): Promise<void> {
    const { services, caller } = this;
    const found = await getOrganizations(services, caller, { organizationIds: [organizationId] });
    if (found.organizations.some((o) => o.disabled === true)) this.disabledHere.add(organizationId);
    let pageToken: string | null = null;
    do {
      const page: DocumentPage = await getDocuments(services, caller, { organizationId, pageSize: 1000, pageToken });
      for (const d of page.documents) if (d.disabled === true) this.disabledHere.add(`${organizationId}/${d.id}`);
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  /** Whether this run writes into the organization (or its document): not a dry run, and not disabled here. */
  private writes(organizationId: string, documentId?: string): boolean {
    if (this.options.dryRun || this.disabledHere.has(organizationId)) return false;
    return documentId === undefined || !this.disabledHere.has(`${organizationId}/${documentId}`);
  }

  /** A document's members, threads (with their comments) and notifications. */
  private async document(organizationId: string, documentId: string, wide: ReadonlySet<string>): Promise<void> {
    const { services, caller } = this;
    const write = this.writes(organizationId, documentId);
    const key = `${organizationId}/${documentId}`;
    await this.step(`members:${key}`, async () => {
      const members = await this.source.all<Json>('users/get', { organizationId, documentId }, this.options.pageSize);
      if (write)
        for (const batch of chunks(members, this.options.maxBatch))
          await addUsers(services, caller, { organizationId, documentId, users: batch.map(userIn) });
    });
    // Threads page per document on v1 only: /v2's commentannotations/get is another read (across documents, by
    // lastUpdated) with its own filters.
    const threads = await this.source.all<Json>(
      'commentannotations/get',
      { organizationId, documentId },
      this.options.pageSize,
      'v1',
    );
    const notifications = await this.source.all<Json>('notifications/get', { organizationId, documentId }, this.options.pageSize);
    this.sourceCounts.set(key, { ...threadCounts(threads), unread: unreadOf(notifications) });
    await this.step(`threads:${key}`, async () => {
      if (write)
        for (const batch of chunks(threads, this.options.maxBatch)) {
          const commentAnnotations = batch.map(threadIn);
          await addAnnotations(services, caller, { organizationId, documentId, commentAnnotations } as never);
        }
      this.wrote('threads', threads.length);
      this.wrote('comments', threadCounts(threads).comments);
    });
    await this.step(`notifications:${key}`, () => this.notifications(organizationId, notifications, wide, write));
  }

  /**
   * The organization's user groups, named, with their members: read with the extension organizations/usergroups/get
   * (docs/decisions.md, "Import"), members with users/get by group (those with a profile, as the source shows them).
   * A source without the read (the original service) answers 404: groups are skipped for it, said once on stderr.
   */
  private async groups(organizationId: string): Promise<void> {
    if (this.groupsNotServed) return;
    const { services, caller } = this;
    const { pageSize, maxBatch } = this.options;
    let groups: Json[];
    try {
      groups = await this.source.all<Json>('organizations/usergroups/get', { organizationId }, pageSize);
    } catch (err) {
      if (!(err instanceof NotServed)) throw err;
      this.groupsNotServed = true;
      this.options.warn(
        `marginalia: user groups not copied: ${err.message} It is an extension of Marginalia's (the original service has ` +
          'no read of groups); everything else is copied.',
      );
      return;
    }
    const write = this.writes(organizationId);
    if (write)
      for (const batch of chunks(groups, maxBatch))
        await addUserGroups(services, caller, { organizationId, organizationUserGroups: batch.map(groupIn) });
    await inParallel(groups, this.options.concurrency, async (g) => {
      const organizationUserGroupId = g.groupId as string;
      const members = await this.source.all<Json>(
        'users/get',
        { organizationId, organizationUserGroupIds: [organizationUserGroupId] },
        pageSize,
      );
      if (write)
        for (const userIds of chunks(
          members.map((m) => m.userId as string),
          maxBatch,
        ))
          await addGroupUsers(services, caller, { organizationId, organizationUserGroupId, userIds });
    });
    this.wrote('groups', groups.length);
  }

  /** Notifications, then each recipient's read marks; `wide`: the ids addressed to the whole organization. */
  private async notifications(
    organizationId: string,
    notifications: Json[],
    wide: ReadonlySet<string>,
    write: boolean,
  ): Promise<void> {
    const readBy = new Map<string, string[]>();
    for (const n of notifications) {
      const byUser = (n.notifyUsersByUserId ?? {}) as Record<string, boolean>;
      const toAll = wide.has(n.id as string) || Object.keys(byUser).length === 0;
      // Of an organization-wide notification, the map lists the recipients named and the members who read it:
      // those who read it are kept as readers, not made recipients.
      const listed = toAll ? Object.keys(byUser).filter((u) => byUser[u] === true) : Object.keys(byUser);
      if (write) {
        const when = at(this.services, n.timestamp as number);
        await idempotent(() => addNotification(when, this.caller, notificationIn(organizationId, n, listed, toAll)));
      }
      for (const [userId, unread] of Object.entries(byUser))
        if (!unread) readBy.set(userId, [...(readBy.get(userId) ?? []), n.id as string]);
      this.wrote('notifications', 1);
    }
    // A user's read marks of the step in one write (a batch at a time): marking again what is read changes nothing.
    if (write)
      for (const [userId, ids] of readBy)
        for (const notificationIds of chunks(ids, this.options.maxBatch))
          await markNotificationsRead(this.services, this.caller, { organizationId, userId, notificationIds });
  }

  /** The members' inboxes: which notifications are organization-wide, and those without a document (once each). */
  private async inboxes(organizationId: string, members: Json[]) {
    const wide = new Set<string>();
    const withoutDocument = new Map<string, Json>();
    await inParallel(members, this.options.concurrency, async (member) => {
      const userId = member.userId as string;
      const found = await this.source.all<Json>('notifications/get', { organizationId, userId }, this.options.pageSize);
      for (const n of found) {
        if (!(userId in ((n.notifyUsersByUserId ?? {}) as Json))) wide.add(n.id as string);
        if (metadataOf(n).documentId == null) withoutDocument.set(n.id as string, n);
      }
    });
    return { wide, withoutDocument: [...withoutDocument.values()] };
  }

  /** Each member's notification settings that are not the default: for the organization, then per document. */
  private async settings(organizationId: string, members: Json[], documents: Json[]): Promise<void> {
    const documentIds = documents.map(documentIdOf);
    await inParallel(members, this.options.concurrency, async (m) => {
      const userId = m.userId as string;
      for (const batch of chunks(documentIds, this.options.maxBatch)) {
        const got = (await this.source.read('notifications/config/get', { organizationId, userId, documentIds: batch }, 'v1'))
          .data;
        const set = new Map<string, string[]>();
        for (const entry of (got as Json[] | null) ?? []) {
          const config = entry.config as { inbox: string; email: string };
          if (config.inbox === 'MINE' && config.email === 'MINE') continue;
          const key = JSON.stringify({ inbox: config.inbox, email: config.email });
          set.set(key, [...(set.get(key) ?? []), (entry.metadata as Json).documentId as string]);
        }
        for (const [config, ids] of set) {
          const writable = ids.filter((documentId) => this.writes(organizationId, documentId));
          if (writable.length > 0)
            await setNotificationConfig(this.services, this.caller, {
              organizationId,
              documentIds: writable,
              userIds: [userId],
              config: JSON.parse(config),
            });
          this.wrote('settings', ids.length);
        }
      }
    });
  }

  counts(): Counts {
    return this.checkpoint.counts;
  }
}

/** An organization's and a document's id as their reads show it: `id` here, the longer name on some pages. */
const organizationIdOf = (o: Json): string => (o.id ?? o.organizationId) as string;
const documentIdOf = (d: Json): string => (d.id ?? d.documentId) as string;

/** Where a notification is: its metadata names the document and location. */
const metadataOf = (n: Json): Json => (n.metadata as Json | undefined) ?? {};

const userIn = (u: Json) => ({
  userId: u.userId as string,
  ...(u.name ? { name: u.name as string } : {}),
  ...(u.email ? { email: u.email as string } : {}),
  ...(u.photoUrl ? { photoUrl: u.photoUrl as string } : {}),
});

/** A group as organizations/usergroups/get reads it, as usergroups/add takes it ("" is a group never named). */
const groupIn = (g: Json) => ({ groupId: g.groupId as string, ...(g.groupName ? { groupName: g.groupName as string } : {}) });

const userRef = (u: unknown) =>
  u && typeof u === 'object' && 'userId' in u ? { userId: (u as Json).userId as string } : undefined;

const time = (t: unknown): number | undefined => (typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : undefined);

/** A time the add writes take (docs/api.md, "What an import keeps"): an integer ms, or none. */
const keptTime = (t: unknown): number | undefined => {
  const ms = time(t);
  return ms !== undefined && Number.isSafeInteger(ms) && ms >= 0 ? ms : undefined;
};

/** An organization's, folder's or document's times as the source reads them, as its add takes them. */
export function timesOf(x: Json): { createdAt?: number; lastUpdated?: number } {
  const createdAt = keptTime(x.createdAt);
  const lastUpdated = keptTime(x.lastUpdated);
  return { ...(createdAt !== undefined ? { createdAt } : {}), ...(lastUpdated !== undefined ? { lastUpdated } : {}) };
}

/** Documents' ids by the lastUpdated the source shows (undefined: none shown). */
function byLastUpdated(documents: readonly Json[]): Map<number | undefined, string[]> {
  const out = new Map<number | undefined, string[]>();
  for (const d of documents) {
    const updated = timesOf(d).lastUpdated;
    out.set(updated, [...(out.get(updated) ?? []), documentIdOf(d)]);
  }
  return out;
}

const THREAD_KEPT = [
  'location',
  'locationId',
  'context',
  'status',
  'color',
  'priority',
  'targetElement',
  'type',
  'suggestion',
  'commentType',
  'visibility',
];
const COMMENT_KEPT = [
  'commentId',
  'commentText',
  'commentHtml',
  'taggedUserContacts',
  'context',
  'attachments',
  'agent',
  'isCommentResolverUsed',
  'isCommentTextAvailable',
];

const kept = (from: Json, names: readonly string[]): Json =>
  Object.fromEntries(names.filter((k) => from[k] != null).map((k) => [k, from[k]]));

/** A thread as the source reads it, as commentannotations/add takes it. */
export function threadIn(t: Json): Json {
  const comments = (t.comments as Json[] | undefined) ?? [];
  return {
    annotationId: t.annotationId,
    ...kept(t, THREAD_KEPT),
    ...(userRef(t.assignedTo) ? { assignedTo: userRef(t.assignedTo) } : {}),
    createdAt: time(t.createdAt),
    lastUpdated: time(t.lastUpdated),
    commentData: comments.map((c) => ({
      ...kept(c, COMMENT_KEPT),
      from: userRef(c.from) ?? { userId: 'unknown' },
      createdAt: time(c.createdAt),
      lastUpdated: time(c.lastUpdated),
    })),
  };
}

/** A notification as the source reads it, as notifications/add takes it. */
function notificationIn(organizationId: string, n: Json, listed: string[], wide: boolean) {
  return {
    organizationId,
    notificationId: n.id as string,
    ...(metadataOf(n).documentId != null ? { documentId: metadataOf(n).documentId as string } : {}),
    ...(metadataOf(n).locationId != null ? { locationId: metadataOf(n).locationId as string } : {}),
    actionUser: userRef(n.actionUser) ?? { userId: 'unknown' },
    displayHeadlineMessageTemplate: (n.displayHeadlineMessageTemplate as string | undefined) ?? '',
    displayHeadlineMessageTemplateData: (n.displayHeadlineMessageTemplateData as Json | undefined) ?? {},
    displayBodyMessage: (n.displayBodyMessage as string | undefined) ?? '',
    notificationSourceData: (n.notificationSourceData as Json | undefined) ?? {},
    notificationSource: (n.notificationSource as string | undefined) ?? 'custom',
    ...(n.context != null ? { context: n.context as Json } : {}),
    ...(n.isNotificationResolverUsed === true ? { isNotificationResolverUsed: true } : {}),
    notifyUsers: listed.map((userId) => ({ userId })),
    notifyAll: wide,
  };
}
