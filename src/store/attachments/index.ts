// Attachments (docs/api.md, "Attachments"): this feature's part of the Store (store.ts). The links between uploads
// and comments, and the queue of files to remove, are kept by migration 46's triggers in the transaction of each
// comment's, document's and organization's write; this is what the upload, download and removal paths run.
import type { NewUpload, StoredAttachment } from '../../domain/attachments.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { all, first, list, run, type Row } from '../sql.js';
import { ATTACHMENTS_SQL as SQL } from './sql.js';

const attachmentOf = (r: Row): StoredAttachment => ({
  attachmentId: Number(r.attachment_id),
  organizationId: r.organization_id as string,
  documentId: r.document_id as string,
  annotationId: (r.annotation_id as string | null) ?? null,
  commentId: r.comment_id == null ? null : Number(r.comment_id),
  name: r.name as string,
  mimeType: r.mime_type as string,
  size: Number(r.size),
  sha256: r.sha256 as string,
  storageKey: r.storage_key as string,
  createdAt: Number(r.created_at),
});

/** A file waiting to be removed from storage. */
export interface DueRemoval {
  storageKey: string;
  attempts: number;
}

export const attachmentsStore = (core: StoreCore) => ({
  /** Records an upload before its bytes are written (docs/decisions.md, "Attachments (issue 41)"). */
  beginUpload(tenantId: string, u: NewUpload, now: number): Maybe<number> {
    return core.write('beginUpload', function* () {
      return yield* run(SQL.begin, { tenantId, ...u, now });
    });
  },

  /** The bytes are stored: answers false when the row went meanwhile (expired, or its document deleted). */
  finishUpload(tenantId: string, attachmentId: number, size: number, sha256: string): Maybe<boolean> {
    return core.write('finishUpload', function* () {
      return (yield* run(SQL.finish, { tenantId, attachmentId, size, sha256 })) === 1;
    });
  },

  discardUpload(tenantId: string, attachmentId: number): Maybe<number> {
    return core.write('discardUpload', function* () {
      return yield* run(SQL.discard, { tenantId, attachmentId });
    });
  },

  attachment(tenantId: string, attachmentId: number): Maybe<StoredAttachment | null> {
    return core.read('attachment', function* () {
      const r = yield* first(SQL.one, { tenantId, attachmentId });
      return r ? attachmentOf(r) : null;
    });
  },

  attachmentsOfDocument(
    tenantId: string,
    organizationId: string,
    documentId: string,
    ids: readonly number[],
  ): Maybe<StoredAttachment[]> {
    return core.read('attachmentsOfDocument', function* () {
      return (yield* all(SQL.ofDocument, { tenantId, organizationId, documentId, ids: list(ids) })).map(attachmentOf);
    });
  },

  /** Deletes at most `limit` uploads that expired unattached; the trigger queues their files. */
  expireUploads(now: number, limit: number): Maybe<number> {
    return core.write('expireUploads', function* () {
      return yield* run(SQL.expire, { now, limit });
    });
  },

  dueAttachmentRemovals(now: number, limit: number): Maybe<DueRemoval[]> {
    return core.read('dueAttachmentRemovals', function* () {
      return (yield* all(SQL.dueRemovals, { now, limit })).map((r) => ({
        storageKey: r.storage_key as string,
        attempts: Number(r.attempts),
      }));
    });
  },

  attachmentRemoved(storageKey: string): Maybe<number> {
    return core.write('attachmentRemoved', function* () {
      return yield* run(SQL.removed, { storageKey });
    });
  },

  retryAttachmentRemoval(storageKey: string, dueAt: number): Maybe<number> {
    return core.write('retryAttachmentRemoval', function* () {
      return yield* run(SQL.retry, { storageKey, dueAt });
    });
  },
});

export type AttachmentsStore = ReturnType<typeof attachmentsStore>;
