// Files attached to comments (docs/api.md, "Attachments"): the stored record, and the pure rules of their names,
// types and download headers.

/** An upload as stored (store/attachments/). */
export interface StoredAttachment {
  attachmentId: number;
  organizationId: string;
  documentId: string;
  annotationId: string | null;
  commentId: number | null;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
  storageKey: string;
  createdAt: number;
}

/** What an upload starts as: the row is written before the bytes, so a crash leaves a row that expires. */
export interface NewUpload {
  attachmentId: number;
  organizationId: string;
  documentId: string;
  name: string;
  mimeType: string;
  storageKey: string;
  expiresAt: number;
}

/** The most characters a stored file name keeps. */
export const MAX_NAME_LENGTH = 255;

/**
 * The name a file is kept and offered under: the last segment of what the caller sent (no folders: `../x` is `x`),
 * without control characters; 'file' when nothing is left. It is only ever shown, never a path (storage keys are
 * the server's own).
 */
export function cleanName(raw: string | undefined | null): string {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters removed are the control ones.
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  const name = clean === '.' || clean === '..' ? '' : clean;
  return name === '' ? 'file' : [...name].slice(0, MAX_NAME_LENGTH).join('');
}

/**
 * Content-Disposition for a download (RFC 6266): `attachment`, an ASCII fallback name (quotes, backslashes and
 * anything outside printable ASCII replaced) and the exact name as RFC 5987 `filename*` (UTF-8, percent-encoded).
 * Nothing of the name can end the header or start another: every byte outside the token set is encoded.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** v2's `type` of an attachment (its pages show `image`): the MIME type's top-level kind, `file` for the rest. */
export function kindOf(mimeType: string): string {
  const top = mimeType.split('/')[0] ?? '';
  return ['image', 'video', 'audio'].includes(top) ? top : 'file';
}

/** A MIME type as compared and stored: lower case, without parameters (`; charset=...`). */
export const bareType = (raw: string | undefined): string => (raw ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Magic bytes of the types whose content a browser or viewer interprets by itself: an upload claiming one of them
 * must start so (a page or script named image/png is refused). Types not listed here are served as the bytes they
 * are, always with `nosniff` and as an attachment.
 */
const SIGNATURES: Record<string, readonly (readonly (number | null)[])[]> = {
  'image/png': [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/gif': [[0x47, 0x49, 0x46, 0x38]],
  'image/webp': [[0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50]],
  'application/pdf': [[0x25, 0x50, 0x44, 0x46, 0x2d]],
  'application/zip': [
    [0x50, 0x4b, 0x03, 0x04],
    [0x50, 0x4b, 0x05, 0x06],
  ],
};

/** The most leading bytes any signature needs. */
export const SNIFF_BYTES = 16;

/** Whether the content's first bytes fit the claimed type (true for types without a signature). */
export function matchesType(mimeType: string, head: Uint8Array): boolean {
  const signatures = SIGNATURES[mimeType];
  if (!signatures) return true;
  return signatures.some((sig) => sig.length <= head.length && sig.every((b, i) => b === null || head[i] === b));
}

/** Types never stored, whatever the allow-list says: a browser would run them if anyone served them inline. */
export const NEVER_ALLOWED = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/javascript',
  'application/javascript',
]);
