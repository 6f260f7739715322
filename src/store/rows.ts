// Database rows to domain values, shared by both stores: the column names are the same, and the
// one difference (SQLite's 0/1 for booleans) is absorbed by Boolean().
import type { StoredComment, StoredNotification, Tenant } from './store.js';

export type Row = Record<string, unknown>;

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

/** Groups recipient rows by notification, in the order the rows come. */
export function recipientsByNotification(rows: Row[]): Map<string, StoredNotification['recipients']> {
  const byId = new Map<string, StoredNotification['recipients']>();
  for (const r of rows) {
    const list = byId.get(r.notification_id as string) ?? [];
    list.push({ userId: r.user_id as string, unread: Boolean(r.unread) });
    byId.set(r.notification_id as string, list);
  }
  return byId;
}

export function notificationFrom(r: Row, recipients: Map<string, StoredNotification['recipients']>): StoredNotification {
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
    recipients: recipients.get(r.notification_id as string) ?? [],
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
