// Database rows to domain values, shared by both stores: the column names are the same, and the
// one difference (SQLite's 0/1 for booleans) is absorbed by Boolean().
import type { Profile, StoredComment, StoredNotification, Tenant, TokenRecord } from './store.js';

export type Row = Record<string, unknown>;

/**
 * What a notification read selects (as `n`, with the action user's profile as `u`): the row with its
 * recipients and the profile that author resolution needs, so a page is one query.
 */
export const NOTIFICATION_COLUMNS = `n.notification_id, n.document_id, n.location_id, n.action_user_id, n.action_user_name,
  n.action_user_email, n.headline_template, n.headline_data, n.body_message, n.source_data, n.timestamp, n.recipients,
  u.user_id AS profile_user_id, u.name AS profile_name, u.email AS profile_email, u.photo_url AS profile_photo_url`;
export const NOTIFICATION_PROFILE_JOIN = `LEFT JOIN users u ON u.tenant_id = n.tenant_id
  AND u.organization_id = n.organization_id AND u.user_id = n.action_user_id`;

/** The same for a comment read (as `c`): its author's profile as `u`. */
export const COMMENT_COLUMNS = `c.comment_id, c.comment_html, c.comment_text, c.from_user_id, c.from_name, c.from_email,
  c.status, c.type, c.created_at, c.last_updated,
  u.user_id AS profile_user_id, u.name AS profile_name, u.email AS profile_email, u.photo_url AS profile_photo_url`;
export const COMMENT_PROFILE_JOIN = `LEFT JOIN users u ON u.tenant_id = c.tenant_id
  AND u.organization_id = c.organization_id AND u.user_id = c.from_user_id`;

/** The joined profile columns of a read row, or null where the user has no profile. */
function joinedProfile(r: Row): Profile | null {
  if (r.profile_user_id === null || r.profile_user_id === undefined) return null;
  return { userId: r.profile_user_id as string, name: r.profile_name as string | null, email: r.profile_email as string | null, photoUrl: r.profile_photo_url as string | null };
}

export function tenantFrom(r: Row): Tenant {
  return {
    id: r.id as string, apiKey: r.api_key as string, name: r.name as string, disabled: Boolean(r.disabled),
    revoked: r.revoked_at !== null, createdAt: Number(r.created_at),
  };
}

export function tokenFrom(r: Row): TokenRecord & { revoked: boolean } {
  return { hash: r.token_hash as string, ...tokenListingFrom(r) };
}

export function tokenListingFrom(r: Row) {
  return { prefix: r.prefix as string, createdAt: Number(r.created_at), revoked: r.revoked_at !== null };
}

export function commentFrom(r: Row): StoredComment {
  return {
    commentId: Number(r.comment_id), html: r.comment_html as string, text: r.comment_text as string,
    from: { userId: r.from_user_id as string, name: r.from_name as string | null, email: r.from_email as string | null },
    fromProfile: joinedProfile(r),
    status: r.status as string, type: r.type as string,
    createdAt: Number(r.created_at), lastUpdated: Number(r.last_updated),
  };
}

/** The row's recipients column: [[userId, unread], ...] in the order they were listed. */
function recipientsFrom(json: string): StoredNotification['recipients'] {
  return (JSON.parse(json) as [string, boolean | number][]).map(([userId, unread]) => ({ userId, unread: Boolean(unread) }));
}

/** The recipients column as written by addNotification: everyone unread. */
export function recipientsJson(userIds: readonly string[]): string {
  return JSON.stringify(userIds.map((userId) => [userId, true]));
}

export function notificationFrom(r: Row): StoredNotification {
  return {
    notificationId: r.notification_id as string,
    documentId: r.document_id as string | null,
    locationId: r.location_id as string | null,
    actionUser: { userId: r.action_user_id as string, name: r.action_user_name as string | null, email: r.action_user_email as string | null },
    headlineTemplate: r.headline_template as string,
    headlineData: JSON.parse(r.headline_data as string) as Record<string, unknown>,
    bodyMessage: r.body_message as string,
    sourceData: JSON.parse(r.source_data as string) as Record<string, unknown>,
    timestamp: Number(r.timestamp),
    recipients: recipientsFrom(r.recipients as string),
    actionUserProfile: joinedProfile(r),
  };
}

export function profileFrom(r: Row) {
  return { userId: r.user_id as string, name: r.name as string | null, email: r.email as string | null, photoUrl: r.photo_url as string | null };
}

/** A position after every row of the (timestamp desc, id desc) order: "from the start". */
export const FROM_START = { timestamp: Number.MAX_SAFE_INTEGER, notificationId: '' };

export function jsonOrNull(v: object | null): string | null {
  return v === null ? null : JSON.stringify(v);
}
