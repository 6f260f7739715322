// notifications/get paging (SPEC 7): an opaque token holding the position of the last entry shown
// and a digest of the filters, so a token is only good for the query that issued it.
import { invalid } from '../errors.js';
import { spell } from './member-path.js';
import type { NotificationCursor } from '../store/store.js';
import { sha256 } from './sha256.js';

interface Filters {
  organizationId: string;
  documentId: string | null;
  userId: string | null;
  locationId: string | null;
  notificationIds: string[] | null;
}

export function filterDigest(f: Filters): string {
  // The id filter is a set: its order and repeats do not make it another filter.
  const ids = f.notificationIds ? [...new Set(f.notificationIds)].sort() : null;
  const canonical = JSON.stringify([f.organizationId, f.documentId, f.userId, f.locationId, ids]);
  return sha256(canonical, 'base64url').slice(0, 16);
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
    typeof parsed[3] !== 'string'
  ) {
    throw invalid(`${spell(['pageToken'])} is malformed.`);
  }
  if (parsed[3] !== digest) throw invalid(`${spell(['pageToken'])} was issued for other filters than these.`);
  return { timestamp: parsed[1] as number, notificationId: parsed[2] as string };
}
