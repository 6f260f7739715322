// Every SQL statement of the SQLite store, as named constants prepared once at open.
// Lists (userIds, commentIds, notificationIds) travel as one JSON array parameter read with
// json_each, so a statement stays the same whatever the list's length.
import { COMMENT_COLUMNS, COMMENT_PROFILE_JOIN, NOTIFICATION_COLUMNS, NOTIFICATION_PROFILE_JOIN } from '../rows.js';

// A field given as NULL keeps its stored value: users/add and users/update change only what they name.
const UPDATE_USER = `UPDATE users SET name = coalesce(@name, name), email = coalesce(@email, email),
                       photo_url = coalesce(@photoUrl, photo_url), updated_at = @now
                     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId`;

export const SQL = {
  credentialsVersion: `SELECT version FROM credentials_version WHERE id = 1`,
  readinessProbe: `UPDATE readiness_probe SET at = at + 1 WHERE id = 1`,
  bumpCredentialsVersion: `UPDATE credentials_version SET version = version + 1 WHERE id = 1`,
  countTenants: `SELECT count(*) AS n FROM tenants`,
  insertTenant: `INSERT INTO tenants (id, api_key, name, disabled, revoked_at, created_at)
                 VALUES (@id, @apiKey, @name, 0, NULL, @createdAt)`,
  // The same index probes whether or not the key exists (an unknown key probes auth_tokens for no
  // tenant), so the time of a 401 does not tell which keys exist. No row for the tenant: unknown key.
  credentialsByKey: `SELECT t.id, t.api_key, t.name, t.disabled, t.revoked_at, t.created_at, k.token_hash
                     FROM (SELECT ? AS api_key) q
                     LEFT JOIN tenants t ON t.api_key = q.api_key
                     LEFT JOIN auth_tokens k ON k.tenant_id = coalesce(t.id, '') AND k.revoked_at IS NULL`,
  allTenants: `SELECT id, api_key, name, disabled, revoked_at, created_at FROM tenants ORDER BY created_at, api_key`,
  revokeTenant: `UPDATE tenants SET revoked_at = coalesce(revoked_at, @at) WHERE api_key = @apiKey`,
  setDisabled: `UPDATE tenants SET disabled = @disabled WHERE api_key = @apiKey`,
  insertToken: `INSERT INTO auth_tokens (tenant_id, token_hash, prefix, created_at, revoked_at)
                VALUES (@tenantId, @hash, @prefix, @createdAt, NULL) ON CONFLICT DO NOTHING`,
  tokensOf: `SELECT token_hash, prefix, created_at, revoked_at FROM auth_tokens WHERE tenant_id = ? ORDER BY created_at`,
  allTokens: `SELECT tenant_id, prefix, created_at, revoked_at FROM auth_tokens ORDER BY created_at`,
  revokeToken: `UPDATE auth_tokens SET revoked_at = @at
                WHERE tenant_id = @tenantId AND token_hash = @hash AND revoked_at IS NULL`,

  // A field given as NULL keeps its stored value: users/add and users/update change only what they name.
  upsertUser: `INSERT INTO users (tenant_id, organization_id, user_id, name, email, photo_url, created_at, updated_at)
                VALUES (@tenantId, @organizationId, @userId, @name, @email, @photoUrl, @now, @now)
                ON CONFLICT (tenant_id, organization_id, user_id) DO UPDATE SET
                  name = coalesce(excluded.name, users.name),
                  email = coalesce(excluded.email, users.email),
                  photo_url = coalesce(excluded.photo_url, users.photo_url),
                  updated_at = excluded.updated_at`,
  updateUser: UPDATE_USER,
  // The scope check and the change in one statement: a user who is not a member changes nothing.
  updateMember: `${UPDATE_USER}
                   AND EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = @tenantId
                     AND m.organization_id = @organizationId AND m.scope_kind = @kind AND m.scope_id = @scopeId
                     AND m.user_id = @userId)`,
  insertMembership: `INSERT INTO memberships (tenant_id, organization_id, scope_kind, scope_id, user_id)
                     VALUES (@tenantId, @organizationId, @kind, @scopeId, @userId) ON CONFLICT DO NOTHING`,
  profiles: `SELECT user_id, name, email, photo_url FROM users
             WHERE tenant_id = ? AND organization_id = ? AND user_id IN (SELECT value FROM json_each(?))`,

  annotationExists: `SELECT 1 FROM annotations
                     WHERE tenant_id = ? AND organization_id = ? AND document_id = ? AND annotation_id = ?`,
  insertAnnotation: `INSERT INTO annotations (tenant_id, organization_id, document_id, annotation_id, location,
                       location_id, context, status, created_at)
                     VALUES (@tenantId, @organizationId, @documentId, @annotationId, @location, @locationId,
                       @context, @status, @now)`,
  // lastCreated: the createdAt of the newest comment (by seq), which a new one must not precede.
  threadTail: `SELECT coalesce(max(comment_id), 0) AS maxId, coalesce(max(seq), 0) AS maxSeq,
                 coalesce((SELECT created_at FROM comments WHERE tenant_id = @tenantId AND organization_id = @organizationId
                           AND document_id = @documentId AND annotation_id = @annotationId ORDER BY seq DESC LIMIT 1), 0) AS lastCreated
               FROM comments WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
                 AND annotation_id = @annotationId`,
  commentExists: `SELECT 1 FROM comments
                  WHERE tenant_id = ? AND organization_id = ? AND document_id = ? AND annotation_id = ? AND comment_id = ?`,
  insertComment: `INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq,
                    comment_html, comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated)
                  VALUES (@tenantId, @organizationId, @documentId, @annotationId, @commentId, @seq, @html, @text,
                    @fromUserId, @fromName, @fromEmail, 'added', 'text', @now, @now)`,
  comments: `SELECT ${COMMENT_COLUMNS} FROM comments c ${COMMENT_PROFILE_JOIN}
             WHERE c.tenant_id = @tenantId AND c.organization_id = @organizationId AND c.document_id = @documentId
               AND c.annotation_id = @annotationId
               AND (@userIds IS NULL OR c.from_user_id IN (SELECT value FROM json_each(@userIds)))
               AND (@commentIds IS NULL OR c.comment_id IN (SELECT value FROM json_each(@commentIds)))
             ORDER BY c.seq`,

  insertNotification: `INSERT INTO notifications (tenant_id, organization_id, notification_id, document_id, location_id,
                         action_user_id, action_user_name, action_user_email, headline_template, headline_data,
                         body_message, source_data, timestamp, recipients)
                       VALUES (@tenantId, @organizationId, @notificationId, @documentId, @locationId, @actionUserId,
                         @actionUserName, @actionUserEmail, @headlineTemplate, @headlineData, @bodyMessage,
                         @sourceData, @timestamp, @recipients)
                       ON CONFLICT DO NOTHING`,
  insertRecipient: `INSERT INTO notification_recipients (tenant_id, organization_id, notification_id, user_id, position, unread, timestamp)
                    VALUES (@tenantId, @organizationId, @notificationId, @userId, @position, 1, @timestamp)`,
} as const;

export type StatementName = keyof typeof SQL;

/** Which of notifications/get's optional filters a query has; each set gets its own statement. */
export interface NotificationFilterSet {
  /** By recipient (the inbox index) rather than by document. */
  byUser: boolean;
  document: boolean;
  location: boolean;
  ids: boolean;
}

/** Every filter set notifications/get can produce (by document, the document is always given). */
export const NOTIFICATION_FILTER_SETS: readonly NotificationFilterSet[] = [false, true].flatMap((byUser) =>
  [false, true].flatMap((location) =>
    [false, true].flatMap((ids) => (byUser ? [false, true] : [true]).map((document) => ({ byUser, document, location, ids }))),
  ),
);

export const filterSetKey = (f: NotificationFilterSet): string =>
  `${f.byUser ? 'inbox' : 'document'}${f.byUser && f.document ? '+document' : ''}${f.location ? '+location' : ''}${f.ids ? '+ids' : ''}`;

/**
 * The notification read for one filter set. A filter that is absent leaves no clause at all: SQLite
 * runs a smaller program, which measured 10-15 us faster per read than one statement with
 * `(@x IS NULL OR ...)` for every filter. Each walks one index in (timestamp desc, id desc) order
 * from the cursor on; with no cursor the caller passes a position past every row.
 */
export function notificationsSql(f: NotificationFilterSet, limit: number): string {
  // The limit is part of the text, not a parameter: with `LIMIT ?` the same read measured 30-60 us
  // slower (SQLite plans a bound limit as unknown). It is interpolated, so it must be a plain integer.
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`bad notification read limit ${limit}`);
  const t = f.byUser ? 'r' : 'n';
  const where = [
    `${t}.tenant_id = @tenantId`,
    `${t}.organization_id = @organizationId`,
    ...(f.byUser ? ['r.user_id = @userId'] : []),
    ...(f.document ? ['n.document_id = @documentId'] : []),
    ...(f.location ? ['n.location_id = @locationId'] : []),
    ...(f.ids ? [`${t}.notification_id IN (SELECT value FROM json_each(@ids))`] : []),
    `(${t}.timestamp, ${t}.notification_id) < (@afterTimestamp, @afterId)`,
  ];
  const from = f.byUser
    ? `notification_recipients r JOIN notifications n ON n.tenant_id = r.tenant_id AND n.organization_id = r.organization_id
         AND n.notification_id = r.notification_id`
    : 'notifications n';
  return `SELECT ${NOTIFICATION_COLUMNS} FROM ${from} ${NOTIFICATION_PROFILE_JOIN} WHERE ${where.join(' AND ')}
    ORDER BY ${t}.timestamp DESC, ${t}.notification_id DESC LIMIT ${limit}`;
}
