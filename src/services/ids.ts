// Identifiers the service makes. All are made here, never by database defaults.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

// Every notification read shows an internal id per recipient; hashing each anew was a tenth of the
// read's CPU. The ids never change, so recent ones are kept, up to a bound.
const INTERNAL_ID_CACHE_SIZE = 50_000;
const internalIds = new Map<string, string>();

/** SPEC 4: a 32-character lowercase hex id, the same for (tenant, organizationId, userId) every time. */
export function internalUserId(tenantId: string, organizationId: string, userId: string): string {
  const key = JSON.stringify([tenantId, organizationId, userId]);
  let id = internalIds.get(key);
  if (id === undefined) {
    id = createHash('sha256').update(key).digest('hex').slice(0, 32);
    if (internalIds.size >= INTERNAL_ID_CACHE_SIZE) internalIds.clear();
    internalIds.set(key, id);
  }
  return id;
}

export const newTenantId = (): string => randomUUID();
export const newAnnotationId = (): string => randomUUID();
/** Fits the notificationId shape of SPEC 4 (A-Z a-z 0-9 _ -). */
export const newNotificationId = (): string => randomUUID();

export const newApiKey = (): string => `mk_${randomBytes(24).toString('base64url')}`;
export const newAuthToken = (): string => `mt_${randomBytes(32).toString('base64url')}`;
