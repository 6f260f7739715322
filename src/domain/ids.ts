// Identifiers the service makes. All are made here, never by database defaults.
import { randomBytes, randomUUID } from 'node:crypto';
import { sha256 } from './sha256.js';

/**
 * docs/api.md "Identifiers and limits": a 32-character lowercase hex id, the same for (tenant, organizationId,
 * userId) every time. Notification reads take their recipients' ids from the row (derived once, at
 * notifications/add).
 */
export function internalUserId(tenantId: string, organizationId: string, userId: string): string {
  return sha256(JSON.stringify([tenantId, organizationId, userId]), 'hex').slice(0, 32);
}

/**
 * An organization's internal id, 32 lowercase hex characters, the same every time (docs/api.md, "Organizations").
 */
export function internalOrganizationId(tenantId: string, organizationId: string): string {
  return sha256(JSON.stringify([tenantId, 'organization', organizationId]), 'hex').slice(0, 32);
}

/**
 * A document's internal id (documents/add), 32 lowercase hex characters, the same every time (docs/api.md,
 * "Documents").
 */
export function internalDocumentId(tenantId: string, organizationId: string, documentId: string): string {
  return sha256(JSON.stringify([tenantId, 'document', organizationId, documentId]), 'hex').slice(0, 32);
}

/**
 * An RFC 9562 version 7 UUID: the time in milliseconds, then random bits. Rows keyed by ids the
 * service makes land next to the rows made just before them, at the right edge of each B-tree,
 * instead of at a random leaf: a random id made every notifications/add dirty a leaf of its own
 * that SQLite then had to read in and write twice (WAL, then checkpoint).
 */
export function timeOrderedUuid(now: number = Date.now()): string {
  // A version 4 UUID gives the variant bits and the random ones; its first 48 bits become the time.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}

export const newTenantId = (): string => randomUUID();
export const newAnnotationId = (): string => timeOrderedUuid();
/** Fits the notificationId shape of docs/api.md "Identifiers and limits" (A-Z a-z 0-9 _ -). */
export const newNotificationId = (): string => timeOrderedUuid();

export const newApiKey = (): string => `mk_${randomBytes(24).toString('base64url')}`;
export const newAuthToken = (): string => `mt_${randomBytes(32).toString('base64url')}`;
/** The workspace's id: not a secret, but never one an API key could be (another prefix). */
export const newWorkspaceId = (): string => `mws_${randomBytes(12).toString('base64url')}`;
export const newWorkspaceToken = (): string => `mwt_${randomBytes(32).toString('base64url')}`;

/**
 * An organization user group's internal id, 32 lowercase hex characters, the same every time (docs/api.md,
 * "POST /v1/organizations/usergroups/add").
 */
export function internalGroupId(tenantId: string, organizationId: string, groupId: string): string {
  return sha256(JSON.stringify([tenantId, 'group', organizationId, groupId]), 'hex').slice(0, 32);
}

/** users/data/delete's job: a string (docs/api.md, "POST /v1/users/data/get"), ordered by time. */
export const newErasureJobId = (): string => timeOrderedUuid();

/** organizations/documents/migrate's job: a string, ordered by time (docs/api.md, "Document migration"). */
export const newMigrationId = (): string => timeOrderedUuid();
