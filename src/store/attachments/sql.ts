// The statements of attachments (migration 46; docs/api.md, "Attachments"), SQLite and PostgreSQL side by side.
// Every read of a caller's is keyed by tenant first; the removal queue and expiry are the worker's, across tenants.
import { deleteSome, same, written } from '../sql.js';

const COLUMNS =
  'attachment_id, organization_id, document_id, annotation_id, comment_id, name, mime_type, size, sha256, storage_key, created_at';

export const ATTACHMENTS_SQL = {
  begin: same(
    'beginUpload',
    `INSERT INTO attachments (tenant_id, attachment_id, organization_id, document_id, name, mime_type, size, storage_key,
       created_at, expires_at)
     VALUES (@tenantId, @attachmentId, @organizationId, @documentId, @name, @mimeType, 0, @storageKey, @now, @expiresAt)`,
  ),
  /** The bytes are stored: the row shows them (until then a reader finds no sha256 and answers not found). */
  finish: same(
    'finishUpload',
    `UPDATE attachments SET size = @size, sha256 = @sha256
     WHERE tenant_id = @tenantId AND attachment_id = @attachmentId AND sha256 IS NULL`,
  ),
  /** An upload refused or failed midway: its row goes, and the trigger queues whatever reached storage. */
  discard: same(
    'discardUpload',
    'DELETE FROM attachments WHERE tenant_id = @tenantId AND attachment_id = @attachmentId AND sha256 IS NULL',
  ),
  one: same(
    'attachment',
    `SELECT ${COLUMNS} FROM attachments WHERE tenant_id = @tenantId AND attachment_id = @attachmentId AND sha256 IS NOT NULL`,
  ),
  /** The uploads of one document among @ids (the references a comment write makes). */
  ofDocument: written(
    'attachmentsOfDocument',
    (s) => `SELECT ${COLUMNS} FROM attachments
     WHERE tenant_id = @tenantId AND ${s.isIn('attachment_id', 'ids', 'bigint')} AND organization_id = @organizationId
       AND document_id = @documentId AND sha256 IS NOT NULL`,
  ),
  /** Uploads no comment took before their time: deleted a batch at a time (the trigger queues their files). */
  expire: deleteSome('expireUploads', 'attachments', 'expires_at IS NOT NULL AND expires_at < @now'),
  dueRemovals: same(
    'dueAttachmentRemovals',
    'SELECT storage_key, attempts FROM attachment_removals WHERE due_at <= @now ORDER BY due_at, storage_key LIMIT @limit',
  ),
  removed: same('attachmentRemoved', 'DELETE FROM attachment_removals WHERE storage_key = @storageKey'),
  /** A removal that failed comes back later (a backoff the worker computes). */
  retry: same(
    'retryAttachmentRemoval',
    'UPDATE attachment_removals SET attempts = attempts + 1, due_at = @dueAt WHERE storage_key = @storageKey',
  ),
};
