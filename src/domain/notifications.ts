import type { ReadVersions } from './threads.js';
import type { UserRef } from './users.js';

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
  /**
   * Addressed to the whole organization as well (docs/api.md, "Addressing and read state"): every member finds it.
   */
  notifyAll: boolean;
  /**
   * notificationSource: what notifications/add was given ("custom" unless told), or "comment" (docs/api.md,
   * "Notifications from comments (triggerNotification)").
   */
  source: string;
  /** /v2: an access context kept as sent (JSON text), and whether the customer's resolver gives the content. */
  context?: string | null;
  resolverUsed?: boolean;
  /** The answer as far as it does not depend on the reader, rendered by the service (answers/notifications.ts). */
  answer: string;
}

export interface Recipient {
  userId: string;
  /**
   * The internal id of the recipient (docs/api.md, "Identifiers and limits"), derived once when the notification is
   * added (reads show it).
   */
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
  /** JSON text, or null. */
  context?: string | null;
  resolverUsed?: boolean;
}

/** notifications/update's change to one notification (docs/api.md, "POST /v1/notifications/update"). */
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
  /** Of the inbox rows, those archived, and those archived and unread (migration 41). */
  archived: number;
  archivedUnread: number;
  /** Archived organization-wide notifications that do not list the user, and those of them read. */
  wideArchived: number;
  wideArchivedRead: number;
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
  /** Only what userId archived (true), only what they did not (false), or both (null); docs/api.md "archived". */
  archived: boolean | null;
  /** Oldest first (`order: "asc"`); else newest first. */
  ascending?: boolean;
  after: NotificationCursor | null;
  limit: number;
}

/** notifications/delete's selection: filters as in get. */
export type NotificationDeletion = Omit<NotificationQuery, 'after' | 'limit' | 'unread' | 'archived' | 'ascending'>;

/**
 * The documentId a user's organization-level notification setting is kept under (/v2's config/set without
 * documentIds): no document is called "" (ids are 1 to 256 characters). It is the user's default for every
 * document without a setting of its own.
 */
export const ORGANIZATION_LEVEL = '';
