// Store code of what an end-user token's event stream may carry (docs/events.md,
// "End-user tokens and what a token's stream carries"; events/stream-access.ts).
import { first, type Work } from '../sql.js';
import { ACCESS_SQL as SQL } from './sql.js';

export interface StreamAccess {
  /** The user has a profile in the organization. */
  member: boolean;
  /** The user may see the document's threads. */
  document: boolean;
}

export function* streamAccess(tenantId: string, organizationId: string, documentId: string, userId: string): Work<StreamAccess> {
  const row = (yield* first<{ member: unknown; access_type: string | null; listed: unknown }>(SQL.access, {
    tenantId,
    organizationId,
    documentId,
    userId,
  }))!;
  const member = Boolean(row.member);
  const access = row.access_type ?? 'organizationPrivate';
  const document = access === 'public' ? true : access === 'restricted' ? Boolean(row.listed) : member;
  return { member, document };
}
