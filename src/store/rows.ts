// Database rows to domain values, shared by both stores: the column names are the same, and the
// one difference (SQLite's 0/1 for booleans) is absorbed by Boolean().
import type { Credentials, Profile, Recipient, StoredComment, StoredNotification, Tenant, TokenRecord } from './store.js';

export type Row = Record<string, unknown>;

/** A read's select list, as field -> column: its order is the order of the columns in each row. */
type SelectList = Record<string, string>;
type Positions<S extends SelectList> = { readonly [K in keyof S]: number };

const positions = <S extends SelectList>(select: S): Positions<S> =>
  Object.fromEntries(Object.keys(select).map((field, i) => [field, i])) as Positions<S>;

/** The SELECT list of a read: its columns in field order. */
const columnsOf = (select: SelectList): string => Object.values(select).join(', ');

/**
 * The read paths fetch rows as arrays (better-sqlite3's raw mode, pg's rowMode 'array'): building an
 * object per row costs a property store per column, which measured a third of a 10-notification read.
 * The mappers below find each field by its position in these lists.
 */
const NOTIFICATION_SELECT = {
  notificationId: 'n.notification_id',
  documentId: 'n.document_id',
  locationId: 'n.location_id',
  actionUserId: 'n.action_user_id',
  actionUserName: 'n.action_user_name',
  actionUserEmail: 'n.action_user_email',
  headlineTemplate: 'n.headline_template',
  headlineData: 'n.headline_data',
  bodyMessage: 'n.body_message',
  sourceData: 'n.source_data',
  timestamp: 'n.timestamp',
  recipients: 'n.recipients',
  profileUserId: 'u.user_id',
  profileName: 'u.name',
  profileEmail: 'u.email',
  profilePhotoUrl: 'u.photo_url',
} as const;
const N = positions(NOTIFICATION_SELECT);

/**
 * What a notification read selects (as `n`, with the action user's profile as `u`): the row with its
 * recipients and the profile that author resolution needs, so a page is one query.
 */
export const NOTIFICATION_COLUMNS = columnsOf(NOTIFICATION_SELECT);
export const NOTIFICATION_PROFILE_JOIN = `LEFT JOIN users u ON u.tenant_id = n.tenant_id
  AND u.organization_id = n.organization_id AND u.user_id = n.action_user_id`;

const COMMENT_SELECT = {
  commentId: 'c.comment_id',
  html: 'c.comment_html',
  text: 'c.comment_text',
  fromUserId: 'c.from_user_id',
  fromName: 'c.from_name',
  fromEmail: 'c.from_email',
  status: 'c.status',
  type: 'c.type',
  createdAt: 'c.created_at',
  lastUpdated: 'c.last_updated',
  profileUserId: 'u.user_id',
  profileName: 'u.name',
  profileEmail: 'u.email',
  profilePhotoUrl: 'u.photo_url',
} as const;
const C = positions(COMMENT_SELECT);

/** The same for a comment read (as `c`): its author's profile as `u`. */
export const COMMENT_COLUMNS = columnsOf(COMMENT_SELECT);
export const COMMENT_PROFILE_JOIN = `LEFT JOIN users u ON u.tenant_id = c.tenant_id
  AND u.organization_id = c.organization_id AND u.user_id = c.from_user_id`;

/** The joined profile columns of a read row, or null where the user has no profile (a LEFT JOIN miss). */
function joinedProfile(
  r: unknown[],
  at: { profileUserId: number; profileName: number; profileEmail: number; profilePhotoUrl: number },
): Profile | null {
  const userId = r[at.profileUserId];
  if (userId === null || userId === undefined) return null;
  return {
    userId: userId as string,
    name: r[at.profileName] as string | null,
    email: r[at.profileEmail] as string | null,
    photoUrl: r[at.profilePhotoUrl] as string | null,
  };
}

export function tenantFrom(r: Row): Tenant {
  return {
    id: r.id as string,
    apiKey: r.api_key as string,
    name: r.name as string,
    disabled: Boolean(r.disabled),
    revoked: r.revoked_at !== null,
    createdAt: Number(r.created_at),
  };
}

/**
 * The createdAt of comments appended to a thread: now, but never before the thread's newest comment.
 * Creation order is the order the thread lock was taken in (seq); the time was read before the lock,
 * and instances' clocks differ, so without this a later comment could read as created earlier.
 */
export function notBefore(now: number, newest: number): number {
  return Math.max(now, newest);
}

/** The rows of credentialsByKey: one per active token, or one with a null hash when there is none; a null id when the key is unknown. */
export function credentialsFrom(rows: Row[]): Credentials | null {
  if (rows.length === 0 || rows[0]!.id === null) return null;
  return {
    tenant: tenantFrom(rows[0]!),
    activeTokenHashes: rows.flatMap((r) => (r.token_hash === null ? [] : [r.token_hash as string])),
  };
}

export function tokenFrom(r: Row): TokenRecord & { revoked: boolean } {
  return { hash: r.token_hash as string, ...tokenListingFrom(r) };
}

export function tokenListingFrom(r: Row) {
  return { prefix: r.prefix as string, createdAt: Number(r.created_at), revoked: r.revoked_at !== null };
}

export function commentFrom(r: unknown[]): StoredComment {
  return {
    commentId: Number(r[C.commentId]),
    html: r[C.html] as string,
    text: r[C.text] as string,
    from: { userId: r[C.fromUserId] as string, name: r[C.fromName] as string | null, email: r[C.fromEmail] as string | null },
    fromProfile: joinedProfile(r, C),
    status: r[C.status] as string,
    type: r[C.type] as string,
    createdAt: Number(r[C.createdAt]),
    lastUpdated: Number(r[C.lastUpdated]),
  };
}

/**
 * The row's recipients column: [[userId, unread, internalId], ...] in the order they were listed. Rows
 * written before the internal id was kept have no third element.
 */
function recipientsFrom(json: string): StoredNotification['recipients'] {
  return (JSON.parse(json) as [string, boolean | number, string?][]).map(([userId, unread, internalId]) => ({
    userId,
    internalId: internalId ?? null,
    unread: Boolean(unread),
  }));
}

/** The recipients column as written by addNotification: everyone unread. */
export function recipientsJson(recipients: readonly Recipient[]): string {
  return JSON.stringify(recipients.map((r) => [r.userId, true, r.internalId]));
}

export function notificationFrom(r: unknown[]): StoredNotification {
  return {
    notificationId: r[N.notificationId] as string,
    documentId: r[N.documentId] as string | null,
    locationId: r[N.locationId] as string | null,
    actionUser: {
      userId: r[N.actionUserId] as string,
      name: r[N.actionUserName] as string | null,
      email: r[N.actionUserEmail] as string | null,
    },
    headlineTemplate: r[N.headlineTemplate] as string,
    headlineData: JSON.parse(r[N.headlineData] as string) as Record<string, unknown>,
    bodyMessage: r[N.bodyMessage] as string,
    sourceData: JSON.parse(r[N.sourceData] as string) as Record<string, unknown>,
    timestamp: Number(r[N.timestamp]),
    recipients: recipientsFrom(r[N.recipients] as string),
    actionUserProfile: joinedProfile(r, N),
  };
}

export function profileFrom(r: Row) {
  return {
    userId: r.user_id as string,
    name: r.name as string | null,
    email: r.email as string | null,
    photoUrl: r.photo_url as string | null,
  };
}

/** A position after every row of the (timestamp desc, id desc) order: "from the start". */
export const FROM_START = { timestamp: Number.MAX_SAFE_INTEGER, notificationId: '' };

export function jsonOrNull(v: object | null): string | null {
  return v === null ? null : JSON.stringify(v);
}
