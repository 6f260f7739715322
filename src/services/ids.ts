// Identifiers the service makes. All are made here, never by database defaults.
import { randomBytes, randomUUID } from 'node:crypto';
import { sha256 } from './sha256.js';

/**
 * SPEC 4: a 32-character lowercase hex id, the same for (tenant, organizationId, userId) every time.
 * Notification reads take their recipients' ids from the row (derived once, at notifications/add).
 */
export function internalUserId(tenantId: string, organizationId: string, userId: string): string {
  return sha256(JSON.stringify([tenantId, organizationId, userId]), 'hex').slice(0, 32);
}

export const newTenantId = (): string => randomUUID();
export const newAnnotationId = (): string => randomUUID();
/** Fits the notificationId shape of SPEC 4 (A-Z a-z 0-9 _ -). */
export const newNotificationId = (): string => randomUUID();

export const newApiKey = (): string => `mk_${randomBytes(24).toString('base64url')}`;
export const newAuthToken = (): string => `mt_${randomBytes(32).toString('base64url')}`;
