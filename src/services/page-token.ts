// Paging of notifications/get (SPEC 7) and commentannotations/get (SPEC 10.3): an opaque token holding
// the position of the last entry shown (a time and an id) and a digest of the operation and its
// filters, so a token is only good for the query that issued it.
import { invalid } from '../errors.js';
import { spell } from './member-path.js';
import type { NotificationCursor } from '../store/store.js';
import { sha256 } from './sha256.js';

/** A filter list as a set: its order and repeats do not make it another filter. */
export const asSet = (list: readonly string[] | null): string[] | null => (list ? [...new Set(list)].sort() : null);

/** The digest of a query's filters (each list through asSet), which its tokens carry. */
export function filterDigest(filters: readonly unknown[]): string {
  return sha256(JSON.stringify(filters), 'base64url').slice(0, 16);
}

export function encodePageToken(cursor: NotificationCursor, digest: string): string {
  return Buffer.from(JSON.stringify([1, cursor.timestamp, cursor.notificationId, digest])).toString('base64url');
}

export function decodePageToken(token: string, digest: string): NotificationCursor {
  // Buffer.from skips characters outside the alphabet, so a token with junk added would still decode.
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalid(`${spell(['pageToken'])} is malformed.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid(`${spell(['pageToken'])} is malformed.`);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 4 ||
    parsed[0] !== 1 ||
    !Number.isSafeInteger(parsed[1]) ||
    typeof parsed[2] !== 'string' ||
    // A token is not signed: one a caller made may hold an id no request could (PostgreSQL refuses NUL).
    parsed[2].includes('\u0000') ||
    !parsed[2].isWellFormed() ||
    typeof parsed[3] !== 'string'
  ) {
    throw invalid(`${spell(['pageToken'])} is malformed.`);
  }
  if (parsed[3] !== digest) throw invalid(`${spell(['pageToken'])} was issued for other filters than these.`);
  return { timestamp: parsed[1] as number, notificationId: parsed[2] as string };
}

/**
 * A token for a listing in key order (organizations/get): the last key shown and the digest of the
 * filters, in the same opaque form as the notification tokens.
 */
export function encodeKeyToken(lastKey: string, digest: string): string {
  return Buffer.from(JSON.stringify([2, lastKey, digest])).toString('base64url');
}

export function decodeKeyToken(token: string, digest: string): string {
  const malformed = () => invalid(`${spell(['pageToken'])} is malformed.`);
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw malformed();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    parsed[0] !== 2 ||
    typeof parsed[1] !== 'string' ||
    parsed[1].includes('\u0000') ||
    !parsed[1].isWellFormed() ||
    typeof parsed[2] !== 'string'
  ) {
    throw malformed();
  }
  if (parsed[2] !== digest) throw invalid(`${spell(['pageToken'])} was issued for other filters than these.`);
  return parsed[1];
}
