// Database rows to domain values, shared by both stores: the column names are the same, and the
// one difference (SQLite's 0/1 for booleans) is absorbed by Boolean().
import type { StoredComment, StoredNotification, Tenant } from './store.js';

export type Row = Record<string, unknown>;

/** What a notification read selects (as `n`): the row with its recipients, so a page is one query. */
export const NOTIFICATION_COLUMNS = `n.notification_id, n.document_id, n.location_id, n.action_user_id, n.action_user_name,
  n.action_user_email, n.headline_template, n.headline_data, n.body_message, n.source_data, n.timestamp, n.recipients`;

export function tenantFrom(r: Row): Tenant {
  return {
    id: r.id as string, apiKey: r.api_key as string, name: r.name as string, disabled: Boolean(r.disabled),
    revoked: r.revoked_at !== null, createdAt: Number(r.created_at),
  };
}

export function tokenListingFrom(r: Row) {
  return { prefix: r.prefix as string, createdAt: Number(r.created_at), revoked: r.revoked_at !== null };
}

export function commentFrom(r: Row): StoredComment {
  return {
    commentId: Number(r.comment_id), html: r.comment_html as string, text: r.comment_text as string,
    from: { userId: r.from_user_id as string, name: r.from_name as string | null, email: r.from_email as string | null },
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
