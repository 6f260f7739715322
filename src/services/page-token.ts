// Paging of every paged read (docs/api.md, "Paging": notifications/get, commentannotations/get, the
// organizations, documents, users, webhooks and deliveries reads): an opaque token holding the position
// of the last entry shown (a time and an id, or a key) and a digest of the operation and its filters,
// so a token is only good for the query that issued it.
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import { MAX_COMMENT_ID } from '../schemas/common.js';
import { spell } from './member-path.js';
import { isRecord } from './rules.js';
import type { NotificationCursor } from '../domain/notifications.js';
import type { UserDataCursor } from '../domain/personal-data.js';
import { sha256 } from '../domain/sha256.js';

/**
 * pageSize when a paged read names none (the reads of docs/api.md "Paging", organizations, documents and users
 * alike).
 */
export const DEFAULT_PAGE_SIZE = 1000;

/** A filter list as a set: its order and repeats do not make it another filter. */
export const asSet = (list: readonly string[] | null): string[] | null => (list ? [...new Set(list)].sort() : null);

/** The digest of a query's filters (each list through asSet), which its tokens carry. */
export function filterDigest(filters: readonly unknown[]): string {
  return sha256(JSON.stringify(filters), 'base64url').slice(0, 16);
}

export function encodePageToken(cursor: NotificationCursor, digest: string): string {
  return Buffer.from(JSON.stringify([1, cursor.timestamp, cursor.notificationId, digest])).toString('base64url');
}

const malformed = () => invalid(`${spell(['pageToken'])} is malformed.`);

/** A storable id as a token may carry it: a token is not signed, and PostgreSQL refuses NUL. */
const storableId = (v: unknown): v is string => typeof v === 'string' && !v.includes('\u0000') && v.isWellFormed();

/**
 * The members of a token of `version` after its version, digest last, checked against `digest`; every
 * kind of token goes through here, so all are refused alike.
 */
function tokenMembers(token: string, version: number, digest: string): unknown[] {
  // Buffer.from skips characters outside the alphabet, so a token with junk added would still decode.
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw malformed();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (!Array.isArray(parsed) || parsed[0] !== version || typeof parsed[parsed.length - 1] !== 'string') throw malformed();
  if (parsed[parsed.length - 1] !== digest) throw invalid(`${spell(['pageToken'])} was issued for other filters than these.`);
  return parsed.slice(1, -1);
}

export function decodePageToken(token: string, digest: string): NotificationCursor {
  const members = tokenMembers(token, 1, digest);
  const [timestamp, notificationId] = members;
  if (members.length !== 2 || !Number.isSafeInteger(timestamp) || !storableId(notificationId)) throw malformed();
  return { timestamp: timestamp as number, notificationId };
}

/**
 * A token for a listing in key order (organizations/get): the last key shown and the digest of the
 * filters, in the same opaque form as the notification tokens.
 */
export function encodeKeyToken(lastKey: string, digest: string): string {
  return Buffer.from(JSON.stringify([2, lastKey, digest])).toString('base64url');
}

export function decodeKeyToken(token: string, digest: string): string {
  const members = tokenMembers(token, 2, digest);
  const [lastKey] = members;
  if (members.length !== 1 || !storableId(lastKey)) throw malformed();
  return lastKey;
}

/** A composite key of a key-paged read, as its token's key holds it (JSON): ids and integer times. */
type KeyPart = 'id' | 'integer';
type KeyTuple<K extends readonly KeyPart[]> = { [I in keyof K]: K[I] extends 'integer' ? number : string };

/** The key as a token holds it. */
export const tupleKey = (parts: readonly (string | number)[]): string => JSON.stringify(parts);

/** A token key's parts, each of the kind `kinds` says (users/get by document, /v2's thread search); else malformed. */
export function keyTuple<const K extends readonly KeyPart[]>(key: string, kinds: K): KeyTuple<K> {
  let parts: unknown;
  try {
    parts = JSON.parse(key);
  } catch {
    throw malformed();
  }
  const fits = (v: unknown, kind: KeyPart) => (kind === 'integer' ? Number.isSafeInteger(v) : storableId(v));
  if (!Array.isArray(parts) || parts.length !== kinds.length || !kinds.every((kind, i) => fits(parts[i], kind)))
    throw malformed();
  return parts as KeyTuple<K>;
}

/**
 * A read in key order, paged by key: `read` is asked for one row more than the page, which says
 * whether another page follows; the next token holds the page's last key and the filters' digest.
 */
export function keyPaged<R>(
  input: { pageSize?: number | null; pageToken?: string | null },
  digest: string,
  read: (after: string | null, limit: number) => Maybe<R[]>,
  keyOf: (row: R) => string,
  budget?: PageBudget<R>,
): Maybe<{ page: R[]; nextPageToken: string | null }> {
  const after = input.pageToken != null ? decodeKeyToken(input.pageToken, digest) : null;
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  return then(read(after, pageSize + 1), (rows) => {
    let page = rows.slice(0, pageSize);
    if (budget) page = page.slice(0, withinBudget(page, budget));
    const last = page[page.length - 1];
    return { page, nextPageToken: rows.length > page.length && last ? encodeKeyToken(keyOf(last), digest) : null };
  });
}

/** What a page may hold besides its size: rows of `sizeOf` at most `most` in all, and always one. */
export interface PageBudget<R> {
  most: number;
  sizeOf: (row: R) => number;
}

function withinBudget<R>(rows: readonly R[], { most, sizeOf }: PageBudget<R>): number {
  let total = 0;
  for (let i = 0; i < rows.length; i++) {
    total += sizeOf(rows[i]!);
    if (total > most) return Math.max(i, 1);
  }
  return rows.length;
}

/** A commentId as a token may carry it: what PostgreSQL's integer column holds (1 to 2^31 - 1). */
const storableCommentId = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_COMMENT_ID;

/**
 * A users/data/get token (a key token whose key is the cursor as JSON): both lists' positions, each
 * member checked as the other tokens' are, since anyone can write a token; anything else is malformed.
 */
export function decodeUserDataToken(token: string, digest: string): UserDataCursor {
  const key = decodeKeyToken(token, digest);
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    throw malformed();
  }
  if (!isRecord(parsed)) throw malformed();
  const { comments: k, notifications: n } = parsed;
  const comments =
    k === null
      ? null
      : isRecord(k) && storableId(k.documentId) && storableId(k.annotationId) && storableCommentId(k.commentId)
        ? { documentId: k.documentId, annotationId: k.annotationId, commentId: k.commentId }
        : undefined;
  const notifications =
    n === null
      ? null
      : isRecord(n) && Number.isSafeInteger(n.timestamp) && storableId(n.notificationId)
        ? { timestamp: n.timestamp as number, notificationId: n.notificationId }
        : undefined;
  const a = parsed.activities;
  const activities =
    a == null
      ? null
      : isRecord(a) && Number.isSafeInteger(a.timestamp) && storableId(a.activityId)
        ? { timestamp: a.timestamp as number, activityId: a.activityId }
        : undefined;
  const r = parsed.reactions;
  const reactions =
    r == null
      ? null
      : isRecord(r) &&
          storableId(r.documentId) &&
          storableId(r.annotationId) &&
          (r.commentId === 0 || storableCommentId(r.commentId)) &&
          storableId(r.icon)
        ? { documentId: r.documentId, annotationId: r.annotationId, commentId: r.commentId as number, icon: r.icon }
        : undefined;
  if (
    comments === undefined ||
    notifications === undefined ||
    activities === undefined ||
    reactions === undefined ||
    (comments === null && notifications === null && activities === null && reactions === null)
  )
    throw malformed();
  return { comments, notifications, activities, reactions };
}

export function encodeUserDataToken(cursor: UserDataCursor, digest: string): string {
  return encodeKeyToken(JSON.stringify(cursor), digest);
}
