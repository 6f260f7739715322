// Who is on a document (docs/api.md, "Presence"): a user's presence lasts until its expiry, which every
// presence/add and presence/update of the user moves forward (MARGINALIA_PRESENCE_TTL_SECONDS); a read
// passes over an expired one, and retention's pruning deletes it.

import type { PRESENCE_STATUSES } from '../schemas/presence.js';

export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

/** What presence/add and presence/update send of a user: the members sent replace theirs, the others are kept. */
export interface PresenceChange {
  userId: string;
  name?: string | undefined;
  email?: string | undefined;
  status?: PresenceStatus | undefined;
}

/** A user's presence on a document, as a read and an event show it. */
export interface PresenceRecord {
  userId: string;
  name: string | null;
  email: string | null;
  status: PresenceStatus;
  /** ms since the epoch: the last add or update of the user here. */
  lastUpdated: number;
  /** ms since the epoch: when the presence ends unless an add or an update comes first. */
  expiresAt: number;
}

/** A presence write: the document, and the users, each once. */
export interface PresenceWrite {
  organizationId: string;
  documentId: string;
  users: readonly PresenceChange[];
}

/** How long a presence lasts after its last write, and how many users a document's presence holds at most. */
export interface PresenceBounds {
  ttlMs: number;
  most: number;
}

/** The status a user gets when presence/add does not say one: adding a user says they are there. */
export const DEFAULT_PRESENCE_STATUS: PresenceStatus = 'online';

/**
 * A user's presence after a write: what was sent over what the user's presence held (null: none, or
 * expired, so nothing is kept of it), with a new expiry.
 */
export function presenceAfter(held: PresenceRecord | null, sent: PresenceChange, now: number, ttlMs: number): PresenceRecord {
  return {
    userId: sent.userId,
    name: sent.name ?? held?.name ?? null,
    email: sent.email ?? held?.email ?? null,
    status: sent.status ?? held?.status ?? DEFAULT_PRESENCE_STATUS,
    lastUpdated: now,
    expiresAt: now + ttlMs,
  };
}
