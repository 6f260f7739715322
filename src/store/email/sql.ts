// The statements of the email outbox (docs/decisions.md, "Email (issue 40)"), SQLite and PostgreSQL side by side.
// The sender's take work from every tenant and carry each row's tenant on with it. Row locks are PostgreSQL's
// (FOR UPDATE SKIP LOCKED: rows another instance is claiming are skipped, not waited for); SQLite's write
// transaction already excludes every other writer (dialect.ts).
import { same, sql, written } from '../sql.js';

const RECIPIENT = 'tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId';

export const EMAIL_SQL = {
  /** A notification's listed recipients, one row each (a batch); a row drafted already (the same pair) is left. */
  insertDrafts: sql('insertEmailDrafts', {
    sqlite: `INSERT INTO email_outbox (tenant_id, organization_id, user_id, notification_id, document_id, concerns, mention,
               created_at, next_at)
             VALUES (@tenantId, @organizationId, @userId, @notificationId, @documentId, @concerns, @mention, @now, @nextAt)
             ON CONFLICT DO NOTHING`,
    postgres: `INSERT INTO email_outbox (tenant_id, organization_id, user_id, notification_id, document_id, concerns, mention,
                 created_at, next_at)
               SELECT @tenantId, r.organization_id, r.user_id, r.notification_id, r.document_id, r.concerns, r.mention,
                 @now::bigint, r.next_at
               FROM unnest(@organizationId::text[], @userId::text[], @notificationId::text[], @documentId::text[],
                 @concerns::int[], @mention::int[], @nextAt::bigint[])
                 AS r(organization_id, user_id, notification_id, document_id, concerns, mention, next_at)
               ORDER BY r.organization_id, r.user_id
               ON CONFLICT DO NOTHING`,
  }),
  /**
   * An organization-wide notification: the users of the organization whose email setting for its document, or the
   * organization's, is ALL (the only ones it can mail: it concerns nobody in particular). The sender decides again
   * with the setting that holds when it sends (a document's own over the organization's).
   */
  insertWide: written(
    'insertWideEmailDrafts',
    (s) => `INSERT INTO email_outbox (tenant_id, organization_id, user_id, notification_id, document_id, concerns, mention,
       created_at, next_at)
     SELECT DISTINCT st.tenant_id, st.organization_id, st.user_id, @notificationId${s.cast('text')}, ${s.typed('documentId', 'text')},
       0, 0, @now${s.cast('bigint')}, @nextAt${s.cast('bigint')}
     FROM notification_settings st
     WHERE st.tenant_id = @tenantId AND st.organization_id = @organizationId AND st.email = 'ALL'
       AND (st.document_id = '' OR st.document_id = ${s.typed('documentId', 'text')})
     ON CONFLICT DO NOTHING`,
  ),
  /** Whether anything is due: a read, so an idle sender takes no lock. */
  work: same('emailWork', `SELECT EXISTS (SELECT 1 FROM email_outbox WHERE status = 'pending' AND next_at <= @now) AS due`),
  /** Due rows, oldest first, each naming its recipient; rows another instance is claiming are skipped. */
  lockDue: written(
    'lockDueEmails',
    (s) => `SELECT tenant_id, organization_id, user_id FROM email_outbox
     WHERE status = 'pending' AND next_at <= @now ORDER BY next_at LIMIT @limit${s.lock('UPDATE', { skipLocked: true })}`,
  ),
  /**
   * A recipient's pending rows that no live claim holds, due or not (one mail takes everything waiting: the digest),
   * oldest first, with what the mail says of each: its notification (absent: deleted since) and its document's name.
   */
  recipientRows: written(
    'recipientEmailRows',
    (s) => `SELECT o.id, o.notification_id, o.document_id, o.concerns, o.mention, o.attempts, o.created_at,
       n.headline_template, n.headline_data, n.body_message, n.action_user_id, n.action_user_name, n.timestamp, n.source,
       d.name AS document_name
     FROM email_outbox o
     LEFT JOIN notifications n
       ON n.tenant_id = o.tenant_id AND n.organization_id = o.organization_id AND n.notification_id = o.notification_id
     LEFT JOIN documents d ON d.tenant_id = o.tenant_id AND d.organization_id = o.organization_id AND d.document_id = o.document_id
     WHERE o.tenant_id = @tenantId AND o.organization_id = @organizationId AND o.user_id = @userId AND o.status = 'pending'
       AND (o.claimed_by IS NULL OR o.next_at <= @now)
     ORDER BY o.id LIMIT @most${s.lock('UPDATE', { of: 'o', skipLocked: true })}`,
  ),
  lease: written(
    'leaseEmails',
    (s) => `UPDATE email_outbox SET claimed_by = @claimer, next_at = @until WHERE ${s.isIn('id', 'ids', 'bigint')}`,
  ),
  profile: same('emailRecipientProfile', `SELECT name, email FROM users WHERE ${RECIPIENT}`),
  names: written(
    'emailActorNames',
    (s) => `SELECT user_id, name FROM users
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND ${s.isIn('user_id', 'userIds')}`,
  ),
  /** The recipient's email settings for the documents (and '' for the organization's). */
  settings: written(
    'emailRecipientSettings',
    (s) => `SELECT document_id, email FROM notification_settings WHERE ${RECIPIENT} AND ${s.isIn('document_id', 'documentIds')}`,
  ),
  /** Rows that end (sent, skipped, failed) while still this claimer's. */
  finish: written(
    'finishEmails',
    (s) => `UPDATE email_outbox SET status = @status, finished_at = @at, claimed_by = NULL, error = @error,
       attempts = attempts + @counted
     WHERE ${s.isIn('id', 'ids', 'bigint')} AND claimed_by = @claimer AND status = 'pending'`,
  ),
  /** Rows tried again at @at, while still this claimer's. */
  retry: written(
    'retryEmails',
    (s) => `UPDATE email_outbox SET claimed_by = NULL, next_at = @at, attempts = attempts + 1, error = @error
     WHERE ${s.isIn('id', 'ids', 'bigint')} AND claimed_by = @claimer AND status = 'pending'`,
  ),
  /** A stopping sender's claims, due at @at. */
  release: same(
    'releaseEmails',
    `UPDATE email_outbox SET claimed_by = NULL, next_at = @at WHERE claimed_by = @claimer AND status = 'pending'`,
  ),
  stats: same(
    'emailQueueStats',
    `SELECT count(*) AS queued, min(created_at) AS oldest FROM email_outbox WHERE status = 'pending'`,
  ),
  prune: written('pruneEmails', (s) => s.deleteSome('email_outbox', `status <> 'pending' AND finished_at < @before`)),
  ensureSecret: same(
    'ensureEmailSecret',
    `INSERT INTO email_secrets (tenant_id, secret, created_at) VALUES (@tenantId, @secret, @now) ON CONFLICT (tenant_id) DO NOTHING`,
  ),
  secret: same('emailSecret', 'SELECT secret FROM email_secrets WHERE tenant_id = @tenantId'),
  /** Unsubscribe: the organization-level email setting NONE (inbox kept, or MINE when never set), for a user of it. */
  unsubscribeOrganization: same(
    'unsubscribeEmailOrganization',
    `INSERT INTO notification_settings (tenant_id, organization_id, document_id, user_id, inbox, email)
     SELECT tenant_id, organization_id, '', user_id, 'MINE', 'NONE' FROM users WHERE ${RECIPIENT}
     ON CONFLICT (tenant_id, organization_id, document_id, user_id) DO UPDATE SET email = 'NONE'`,
  ),
  /** Unsubscribe: every document's own email setting of the user in the organization NONE too. */
  unsubscribeDocuments: same(
    'unsubscribeEmailDocuments',
    `UPDATE notification_settings SET email = 'NONE' WHERE ${RECIPIENT} AND document_id <> '' AND email <> 'NONE'`,
  ),
};
