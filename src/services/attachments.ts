// Files attached to comments (docs/api.md, "Attachments"): an upload checked and stored as it streams in, its
// download authorized like a read of its document, and the references comments make to uploads.
import { createHash, randomInt } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import {
  bareType,
  cleanName,
  kindOf,
  matchesType,
  NEVER_ALLOWED,
  SNIFF_BYTES,
  type StoredAttachment,
} from '../domain/attachments.js';
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import { NO_ORGANIZATION } from '../schemas/common.js';
import type { AttachmentStorage } from '../attachments/storage.js';
import { newStorageKey } from '../attachments/storage.js';
import type { Services } from './context.js';
import { accessTo, denied, type EndUser, organizationOf, requireAccess } from './end-users.js';
import { allows } from '../domain/access.js';

/** What uploads need from the configuration (MARGINALIA_ATTACHMENT_*, MARGINALIA_PUBLIC_URL). */
export interface AttachmentSettings {
  storage: AttachmentStorage;
  maxBytes: number;
  /** The allowed MIME types (`type/*` for a family); empty: DEFAULT_ATTACHMENT_TYPES. */
  types: readonly string[];
  expiryHours: number;
  /** Prefix of the download urls; null: a path on this server. */
  publicUrl: string | null;
}

/** The types taken when MARGINALIA_ATTACHMENT_TYPES is unset. */
export const DEFAULT_ATTACHMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/zip',
  'application/octet-stream',
] as const;

/** The attachment object of v2's pages, with our id and our download url. */
export interface AttachmentObject {
  attachmentId: number;
  name: string;
  size: number;
  type: string;
  mimeType: string;
  url: string;
  metadata: { sha256: string; uploadedAt: number };
}

export const downloadPath = (attachmentId: number): string => `/v1/attachments/${attachmentId}`;

export function attachmentObject(a: StoredAttachment, publicUrl: string | null): AttachmentObject {
  return {
    attachmentId: a.attachmentId,
    name: a.name,
    size: a.size,
    type: kindOf(a.mimeType),
    mimeType: a.mimeType,
    url: `${publicUrl ?? ''}${downloadPath(a.attachmentId)}`,
    metadata: { sha256: a.sha256, uploadedAt: a.createdAt },
  };
}

function settingsOf(services: Services): AttachmentSettings {
  if (!services.attachments) throw new ApiError('UNAVAILABLE', 'This server keeps no attachments (no storage is configured).');
  return services.attachments;
}

function allowedType(settings: AttachmentSettings, raw: string | undefined): string {
  const type = bareType(raw);
  if (!/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type))
    throw invalid('The upload needs its MIME type (Content-Type of the body or of the file part), such as image/png.');
  const types = settings.types.length > 0 ? settings.types : DEFAULT_ATTACHMENT_TYPES;
  const family = `${type.split('/')[0]}/*`;
  if (NEVER_ALLOWED.has(type) || !(types.includes(type) || types.includes(family)))
    throw new ApiError('INVALID_ARGUMENT', `Files of type ${type} are not taken here (allowed: ${types.join(', ')}).`, {
      httpStatus: 415,
    });
  return type;
}

const tooLarge = (max: number) =>
  new ApiError('INVALID_ARGUMENT', `The file is larger than ${max} bytes (MARGINALIA_ATTACHMENT_MAX_BYTES).`, {
    httpStatus: 413,
  });

/** Counts, hashes and sniffs the bytes as they pass; fails the stream past the limit or on content of another type. */
class Inspection extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private head: Buffer | null = Buffer.alloc(0);
  constructor(
    private readonly max: number,
    private readonly mimeType: string,
  ) {
    super();
  }
  private sniff(final: boolean): ApiError | null {
    if (this.head === null || (!final && this.head.length < SNIFF_BYTES)) return null;
    const ok = matchesType(this.mimeType, this.head);
    this.head = null;
    return ok ? null : invalid(`The file's content is not ${this.mimeType} (its first bytes say otherwise).`);
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.max) {
      done(tooLarge(this.max));
      return;
    }
    if (this.head !== null) this.head = Buffer.concat([this.head, chunk.subarray(0, SNIFF_BYTES)]);
    const wrong = this.sniff(false);
    if (wrong) {
      done(wrong);
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
  override _flush(done: TransformCallback): void {
    done(this.size === 0 ? invalid('The file is empty.') : this.sniff(true));
  }
  digest(): string {
    return this.hash.digest('hex');
  }
}

export interface UploadInput {
  organizationId: string | null;
  documentId: string;
  name: string | null;
  mimeType: string | undefined;
  body: Readable;
}

/**
 * attachments/upload: the row first (it expires unless a comment takes it), then the bytes, checked as they stream
 * in; a refusal or failure midway deletes the row, whose trigger queues whatever reached storage.
 */
export async function uploadAttachment(
  services: Services,
  tenantId: string,
  endUser: EndUser | null,
  input: UploadInput,
): Promise<AttachmentObject> {
  const settings = settingsOf(services);
  if (input.documentId === '') throw invalid('The upload needs documentId (the document of the comment it is for).');
  let organizationId = input.organizationId ?? NO_ORGANIZATION;
  if (endUser) {
    organizationId = organizationOf(endUser, input.organizationId);
    await requireAccess(services, endUser, organizationId, [input.documentId], 'write');
  }
  const mimeType = allowedType(settings, input.mimeType);
  const now = services.clock();
  const attachmentId = randomInt(1, 2 ** 47);
  const storageKey = newStorageKey();
  const name = cleanName(input.name);
  await services.store.beginUpload(
    tenantId,
    {
      attachmentId,
      organizationId,
      documentId: input.documentId,
      name,
      mimeType,
      storageKey,
      expiresAt: now + settings.expiryHours * 3_600_000,
    },
    now,
  );
  const inspection = new Inspection(settings.maxBytes, mimeType);
  // Not pipeline(): a refusal must leave the request itself alone, to be answered (the rest of it is read and dropped).
  const source = input.body;
  let refusal: Error | null = null;
  // Listened to at once: the bytes may flow (and be refused) before the storage has opened its side.
  inspection.on('error', (err) => (refusal ??= err));
  source.once('error', (err) => inspection.destroy(err));
  source.pipe(inspection);
  try {
    await settings.storage.put(storageKey, inspection, mimeType);
  } catch (caught) {
    const err = refusal ?? caught;
    source.unpipe(inspection);
    source.resume();
    await settings.storage.remove(storageKey).catch(() => {});
    await services.store.discardUpload(tenantId, attachmentId);
    if (err instanceof ApiError) throw err;
    throw new ApiError('INVALID_ARGUMENT', 'The upload did not arrive whole; nothing was kept.');
  }
  const sha256 = inspection.digest();
  if (!(await services.store.finishUpload(tenantId, attachmentId, inspection.size, sha256)))
    throw new ApiError('NOT_FOUND', `Document ${input.documentId} was deleted during the upload; nothing was kept.`);
  return attachmentObject(
    {
      attachmentId,
      organizationId,
      documentId: input.documentId,
      annotationId: null,
      commentId: null,
      name,
      mimeType,
      size: inspection.size,
      sha256,
      storageKey,
      createdAt: now,
    },
    settings.publicUrl,
  );
}

/** A download: the upload and its bytes, for the server credentials or an end user who may read its document. */
export async function openDownload(
  services: Services,
  tenantId: string,
  endUser: EndUser | null,
  attachmentId: number,
): Promise<{ attachment: StoredAttachment; body: Readable }> {
  const settings = settingsOf(services);
  const missing = () => new ApiError('NOT_FOUND', `Attachment ${attachmentId} does not exist.`);
  const a = await services.store.attachment(tenantId, attachmentId);
  if (a === null) throw missing();
  if (endUser) {
    if (!endUser.organizations.has(a.organizationId)) throw missing();
    const { access } = await accessTo(services, endUser, a.organizationId, a.documentId);
    if (!allows(access, 'read')) throw denied(`The user has no access to document ${a.documentId}.`);
  }
  const body = await settings.storage.get(a.storageKey);
  if (body === null) throw missing();
  return { attachment: a, body };
}

// --- References from comments ---

type Entry = Record<string, unknown>;

/** The upload an entry of a comment's attachments refers to: an integer attachmentId and no url, or our url. */
function uploadIdOf(entry: Entry): number | null {
  const id = entry.attachmentId;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null;
  const url = entry.url;
  if (url === undefined || url === null) return id;
  return typeof url === 'string' && url.endsWith(downloadPath(id)) ? id : null;
}

/** Where a comment is (or will be), to tell its own uploads from another comment's. */
export interface CommentPlace {
  annotationId: string;
  commentId: number | null;
}

/**
 * Checks the references to uploads of comments about to be written to one document (same tenant, same document,
 * stored, not another comment's) and replaces each with the whole attachment object, which the comment then keeps
 * and shows; foreign references stay as sent. No statement when nothing refers to an upload. The link itself is
 * made by migration 46's trigger in the comment's own transaction.
 */
export function resolveUploads(
  services: Services,
  tenantId: string,
  organizationId: string,
  documentId: string,
  comments: readonly { comment: { attachments?: object[] | null | undefined }; place: CommentPlace | null }[],
): Maybe<void> {
  const wanted = new Map<number, CommentPlace>();
  for (const { comment, place } of comments) {
    for (const entry of comment.attachments ?? []) {
      const id = uploadIdOf(entry as Entry);
      if (id === null) continue;
      // place null: one change for several comments (comments/update), which cannot all own the upload.
      if (wanted.has(id) || place === null)
        throw invalid(`Attachment ${id} would belong to more than one comment: an upload belongs to one comment.`);
      wanted.set(id, place);
    }
  }
  if (wanted.size === 0) return;
  const publicUrl = services.attachments?.publicUrl ?? null;
  return then(services.store.attachmentsOfDocument(tenantId, organizationId, documentId, [...wanted.keys()]), (rows) => {
    const found = new Map(rows.map((r) => [r.attachmentId, r]));
    for (const [id, place] of wanted) {
      const row = found.get(id);
      if (!row) throw invalid(`Attachment ${id} was not uploaded to document ${documentId}.`);
      const other = row.commentId !== null && (row.annotationId !== place.annotationId || row.commentId !== place.commentId);
      if (other) throw new ApiError('FAILED_PRECONDITION', `Attachment ${id} belongs to another comment; upload the file again.`);
    }
    for (const { comment } of comments) {
      if (!comment.attachments) continue;
      comment.attachments = comment.attachments.map((entry) => {
        const id = uploadIdOf(entry as Entry);
        return id === null ? entry : attachmentObject(found.get(id)!, publicUrl);
      });
    }
  });
}
