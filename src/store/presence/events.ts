// The events of presence/add, update and delete (events/drafts.ts). Streams carry them by document
// access, as a thread's events (events/stream-access.ts).
import { presenceRemovedEventJson, presenceUsersEventJson } from '../../domain/answers/presence.js';
import type { PresenceRecord } from '../../domain/presence.js';
import { draft } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';

/** presence.add or presence.update: the users as written, with their new expiry. */
export const presenceWritten = (
  type: 'presence.add' | 'presence.update',
  organizationId: string,
  documentId: string,
  users: readonly PresenceRecord[],
): EventDraft[] => (users.length > 0 ? [draft(type, organizationId, documentId, presenceUsersEventJson(users))] : []);

/** presence.delete: the users whose presence went (none: no event). */
export const presenceRemoved = (organizationId: string, documentId: string, userIds: readonly string[]): EventDraft[] =>
  userIds.length > 0 ? [draft('presence.delete', organizationId, documentId, presenceRemovedEventJson(userIds))] : [];
