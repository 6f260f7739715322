// Every SQL statement of the PostgreSQL store. Each runs as a named prepared statement, so a
// connection parses and plans it once. Lists travel as one array parameter (= ANY($n)), so a
// statement stays the same whatever the list's length.

import { COMMENT_COLUMNS, COMMENT_PROFILE_JOIN, NOTIFICATION_COLUMNS, NOTIFICATION_PROFILE_JOIN } from '../rows.js';

const UPDATE_USER = `UPDATE users SET name = coalesce($4, name), email = coalesce($5, email), photo_url = coalesce($6, photo_url),
                       updated_at = $7
                     WHERE tenant_id = $1 AND organization_id = $2 AND user_id = $3`;

export const PG_SQL = {
  credentialsVersion: `SELECT version FROM credentials_version WHERE id = 1`,
  readinessProbe: `UPDATE readiness_probe SET at = at + 1 WHERE id = 1`,
  bumpCredentialsVersion: `UPDATE credentials_version SET version = version + 1 WHERE id = 1`,
  countTenants: `SELECT count(*)::int AS n FROM tenants`,
  insertTenant: `INSERT INTO tenants (id, api_key, name, disabled, revoked_at, created_at) VALUES ($1, $2, $3, false, NULL, $4)`,
  // The same index probes whether or not the key exists (an unknown key probes auth_tokens for no
  // tenant), so the time of a 401 does not tell which keys exist. No row for the tenant: unknown key.
  credentialsByKey: `SELECT t.id, t.api_key, t.name, t.disabled, t.revoked_at, t.created_at, k.token_hash
                     FROM (SELECT $1::text AS api_key) q
                     LEFT JOIN tenants t ON t.api_key = q.api_key
                     LEFT JOIN auth_tokens k ON k.tenant_id = coalesce(t.id, '') AND k.revoked_at IS NULL`,
  allTenants: `SELECT id, api_key, name, disabled, revoked_at, created_at FROM tenants ORDER BY created_at, api_key`,
  revokeTenant: `UPDATE tenants SET revoked_at = coalesce(revoked_at, $2) WHERE api_key = $1`,
  setDisabled: `UPDATE tenants SET disabled = $2 WHERE api_key = $1`,
  insertToken: `INSERT INTO auth_tokens (tenant_id, token_hash, prefix, created_at, revoked_at) VALUES ($1, $2, $3, $4, NULL)
                ON CONFLICT DO NOTHING`,
  tokensOf: `SELECT token_hash, prefix, created_at, revoked_at FROM auth_tokens WHERE tenant_id = $1 ORDER BY created_at`,
  allTokens: `SELECT tenant_id, prefix, created_at, revoked_at FROM auth_tokens ORDER BY created_at`,
  revokeToken: `UPDATE auth_tokens SET revoked_at = $3 WHERE tenant_id = $1 AND token_hash = $2 AND revoked_at IS NULL`,

  // A field given as NULL keeps its stored value: users/add and users/update change only what they name.
  upsertUser: `INSERT INTO users (tenant_id, organization_id, user_id, name, email, photo_url, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
               ON CONFLICT (tenant_id, organization_id, user_id) DO UPDATE SET
                 name = coalesce(excluded.name, users.name),
                 email = coalesce(excluded.email, users.email),
                 photo_url = coalesce(excluded.photo_url, users.photo_url),
                 updated_at = excluded.updated_at`,
  insertMembership: `INSERT INTO memberships (tenant_id, organization_id, scope_kind, scope_id, user_id)
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
  updateUser: UPDATE_USER,
  // The scope check and the change in one statement: a user who is not a member changes nothing.
  updateMember: `${UPDATE_USER}
                   AND EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = $1 AND m.organization_id = $2
                     AND m.scope_kind = $8 AND m.scope_id = $9 AND m.user_id = $3)`,
  profiles: `SELECT user_id, name, email, photo_url FROM users
             WHERE tenant_id = $1 AND organization_id = $2 AND user_id = ANY($3::text[])`,

  insertAnnotation: `INSERT INTO annotations (tenant_id, organization_id, document_id, annotation_id, location, location_id,
                       context, status, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING 1 AS added`,
  // Locks the thread, so concurrent comments/add on one annotation assign ids one after the other.
  lockAnnotation: `SELECT 1 FROM annotations WHERE tenant_id = $1 AND organization_id = $2 AND document_id = $3
                     AND annotation_id = $4 FOR UPDATE`,
  // last_created: the createdAt of the newest comment (by seq), which a new one must not precede.
  threadTail: `SELECT coalesce(max(comment_id), 0)::int AS max_id, coalesce(max(seq), 0)::int AS max_seq,
                 coalesce((SELECT created_at FROM comments WHERE tenant_id = $1 AND organization_id = $2 AND document_id = $3
                           AND annotation_id = $4 ORDER BY seq DESC LIMIT 1), 0) AS last_created
               FROM comments WHERE tenant_id = $1 AND organization_id = $2 AND document_id = $3 AND annotation_id = $4`,
  takenCommentIds: `SELECT comment_id FROM comments
                    WHERE tenant_id = $1 AND organization_id = $2 AND document_id = $3 AND annotation_id = $4
                      AND comment_id = ANY($5::int[])`,
  insertComments: `INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html,
                     comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated)
                   SELECT $1, $2, $3, $4, c.comment_id, c.seq, c.html, c.text, c.user_id, c.name, c.email, 'added', 'text', $5, $5
                   FROM unnest($6::int[], $7::int[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
                     AS c(comment_id, seq, html, text, user_id, name, email)`,
  comments: `SELECT ${COMMENT_COLUMNS} FROM comments c ${COMMENT_PROFILE_JOIN}
             WHERE c.tenant_id = $1 AND c.organization_id = $2 AND c.document_id = $3 AND c.annotation_id = $4
               AND ($5::text[] IS NULL OR c.from_user_id = ANY($5::text[]))
               AND ($6::int[] IS NULL OR c.comment_id = ANY($6::int[]))
             ORDER BY c.seq`,

  insertNotification: `INSERT INTO notifications (tenant_id, organization_id, notification_id, document_id, location_id,
                         action_user_id, action_user_name, action_user_email, headline_template, headline_data,
                         body_message, source_data, timestamp, recipients)
                       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
                       ON CONFLICT DO NOTHING RETURNING 1 AS added`,
  insertRecipients: `INSERT INTO notification_recipients
                       (tenant_id, organization_id, notification_id, user_id, position, unread, timestamp)
                     SELECT $1, $2, $3, r.user_id, r.position - 1, true, $4
                     FROM unnest($5::text[]) WITH ORDINALITY AS r(user_id, position)`,

  // Two read paths, each walking one index in (timestamp desc, id desc) order from the cursor on.
  notificationsByDocument: `SELECT ${NOTIFICATION_COLUMNS} FROM notifications n ${NOTIFICATION_PROFILE_JOIN}
      WHERE n.tenant_id = $1 AND n.organization_id = $2 AND n.document_id = $3
        AND ($4::text IS NULL OR n.location_id = $4)
        AND ($5::text[] IS NULL OR n.notification_id = ANY($5::text[]))
        AND (n.timestamp, n.notification_id) < ($6::bigint, $7::text)
      ORDER BY n.timestamp DESC, n.notification_id DESC
      LIMIT $8`,
  notificationsByUser: `SELECT ${NOTIFICATION_COLUMNS} FROM notification_recipients r
      JOIN notifications n ON n.tenant_id = r.tenant_id AND n.organization_id = r.organization_id
        AND n.notification_id = r.notification_id
      ${NOTIFICATION_PROFILE_JOIN}
      WHERE r.tenant_id = $1 AND r.organization_id = $2 AND r.user_id = $3
        AND ($4::text IS NULL OR n.document_id = $4)
        AND ($5::text IS NULL OR n.location_id = $5)
        AND ($6::text[] IS NULL OR r.notification_id = ANY($6::text[]))
        AND (r.timestamp, r.notification_id) < ($7::bigint, $8::text)
      ORDER BY r.timestamp DESC, r.notification_id DESC
      LIMIT $9`,
} as const;

export type PgStatementName = keyof typeof PG_SQL;
