import type { Profile, UserRef } from './users.js';

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
  /** Times the caller gave (an import keeps its history, docs/api.md "What an import keeps"); null: server time. */
  createdAt: number | null;
  lastUpdated: number | null;
  /** null when the caller gave none. */
  taggedUserContacts: TaggedContact[] | null;
  /** /v2's members (docs/api.md, "Version 2"), kept as sent; null or absent when the caller gave none. */
  context?: object | null;
  attachments?: object[] | null;
  agent?: CommentAgent | null;
  /** /v2's `triggerActivities: false`: the write's activity of this comment is not logged (docs/decisions.md, "Activities"). */
  noActivity?: boolean;
}

/** The agent that wrote a comment (/v2's commentData[].agent), kept as sent; its ids are what threads filter on. */
export interface CommentAgent {
  agentSource: string;
  agentId: string;
  executionId?: string;
  agentType?: string;
  url?: string;
  [member: string]: unknown;
}

/** What every row of a read carries besides its data: the versions it was read under (the same on every row). */
export interface ReadVersions {
  /** The organization's profile version (services/profiles.ts). */
  profileVersion: number;
  /** The credentials version: it confirms a request admitted from the auth cache (http/auth.ts). */
  credentialsVersion: number;
}

export interface StoredComment
  extends Omit<NewComment, 'taggedUserContacts' | 'createdAt' | 'lastUpdated' | 'context' | 'attachments' | 'agent'>,
    ReadVersions {
  createdAt: number;
  lastUpdated: number;
  /** As JSON text, or null when never set. */
  taggedUserContacts: string | null;
  /** /v2's members as JSON text; null or absent when never set. */
  context?: string | null;
  attachments?: string | null;
  agent?: string | null;
  status: string;
  type: string;
}

export interface NewAnnotation extends ThreadMembers {
  annotationId: string;
  location: object | null;
  locationId: string | null;
  context: object | null;
  status: object;
  /** Times the caller gave (docs/api.md, "What an import keeps"); null: server time. */
  createdAt: number | null;
  lastUpdated: number | null;
  comments: NewComment[];
}

/** The members of a thread that docs/api.md "What an import keeps" lists, as written (null: not set). */
export interface ThreadMembers {
  /** A color the caller gave the thread, kept as sent (docs/decisions.md). */
  color: string | null;
  assignedTo: UserRef | null;
  priority: object | null;
  targetElement: object | null;
  /** /v2's members (docs/api.md, "Version 2"): its kind ("comment" when not given), and the rest as sent. */
  kind?: ThreadKind;
  suggestion?: object | null;
  commentType?: string | null;
  visibility?: object | null;
}

/** What a thread is: a comment thread, or a suggestion (a proposed change, possibly an agent's finding). */
export type ThreadKind = 'comment' | 'suggestion';

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
  /** /v2's members (absent: a comment thread without them): its kind, the rest as JSON text or userIds. */
  kind?: string;
  suggestion?: string | null;
  commentType?: string | null;
  visibility?: string | null;
  /** Who resolved it and who last changed its status (/v2's resolvedByUserId, statusUpdatedByUserId). */
  resolvedBy?: string | null;
  statusUpdatedBy?: string | null;
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

/** Which threads of a document an operation means; each list null: no filter (docs/api.md, "Comment threads"). */
export interface ThreadFilters {
  organizationId: string;
  documentId: string;
  annotationIds: string[] | null;
  locationIds: string[] | null;
  /** The author of the thread's first comment. */
  userIds: string[] | null;
  /** The status object's `id`. */
  statusIds: string[] | null;
  /**
   * /v2's commentannotations/delete: threads of this agent (its first agent comment's), only its pending
   * suggestions, only those made at these URLs. Absent: no filter.
   */
  agentId?: string | null;
  agentSuggestions?: boolean;
  agentUrls?: string[] | null;
}

/**
 * /v2's commentannotations/get (store/comments/search-sql.ts): an organization's threads, or one document's
 * (`documentId`), in lastUpdated order; every filter null or absent passes every thread.
 */
export interface ThreadSearch {
  organizationId: string;
  documentId: string | null;
  documentIds: string[] | null;
  /** A folder's documents; null: the documents in no folder; undefined: no filter. */
  folder?: string | null;
  annotationIds: string[] | null;
  locationIds: string[] | null;
  userIds: string[] | null;
  statusIds: string[] | null;
  mentionedUserIds: string[] | null;
  resolvedBy: string | null;
  agentId: string | null;
  executionId: string | null;
  agentType: string | null;
  agentSource: string | null;
  /** Only threads an agent wrote; only agents' suggestions (pending: none is accepted through this API). */
  agentOnly: boolean;
  suggestionsOnly: boolean;
  updatedAfter: number | null;
  updatedBefore: number | null;
  createdAfter: number | null;
  createdBefore: number | null;
  ascending: boolean;
  /** Threads strictly after this position in the order (paging); null: from the first. */
  after: { lastUpdated: number; documentId: string; annotationId: string } | null;
  limit: number;
}

/** A thread /v2's commentannotations/get found: its place in the order, its stored answer. */
export interface FoundThread extends ReadVersions {
  annotationId: string;
  documentId: string;
  lastUpdated: number;
  head: string;
  comments: string;
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
 * A change to threads (docs/api.md, "POST /v1/commentannotations/update"): each member undefined (left as it is),
 * null (cleared) or a value. status is never null.
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
  /** /v2's resolvedByUserId and statusUpdatedByUserId. */
  resolvedBy?: string | null;
  statusUpdatedBy?: string | null;
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
  /**
   * updateUsers' new authors written as profiles, as written, in the order updateUsers names them (none
   * without an organization, or with no thread matched).
   */
  profiled: ReadonlyMap<string, Profile>;
}

/**
 * A change to comments (docs/api.md, "POST /v1/commentannotations/comments/update"): the body (both forms, already
 * derived), author, tags.
 */
export interface CommentChange {
  body?: { html: string; text: string };
  from?: UserRef;
  taggedUserContacts?: TaggedContact[] | null;
  /** /v2's members (docs/api.md, "Version 2"): null clears. */
  context?: object | null;
  attachments?: object[] | null;
  /**
   * triggerNotification (docs/api.md, "Notifications from comments (triggerNotification)"): the changed comments
   * notify their mentions and the document's members.
   */
  notify?: boolean;
}

/**
 * Threads and unread threads of one document, for one user (docs/api.md, "POST /v1/commentannotations/count/get").
 */
/** What a page of a document's threads is read under: the document's thread version, and the read versions. */
export interface DocumentVersions extends ReadVersions {
  documentVersion: number;
}

/**
 * commentannotations/count/get's data as JSON text (docs/api.md, "POST /v1/commentannotations/count/get"), and the
 * credentials version it was read under.
 */
export interface ThreadCounts extends Pick<ReadVersions, 'credentialsVersion'> {
  json: string;
}

export type AddCommentsResult =
  | { kind: 'added'; commentIds: number[] }
  | { kind: 'annotation_not_found' }
  | { kind: 'comment_exists'; commentId: number }
  | { kind: 'ids_exhausted' };

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
