// Presence as JSON text (presence/get, and the presence events' data).
import type { PresenceRecord } from '../presence.js';

/** A user's presence, as presence/get lists it and presence.add and presence.update carry it. */
export const presenceUser = (p: PresenceRecord) => ({
  userId: p.userId,
  name: p.name,
  email: p.email,
  status: p.status,
  lastUpdated: p.lastUpdated,
  expiresAt: p.expiresAt,
});

/** The data of presence.add and presence.update: the users as written, with their new expiry. */
export const presenceUsersEventJson = (users: readonly PresenceRecord[]): string =>
  JSON.stringify({ users: users.map(presenceUser) });

/** The data of presence.delete: the users whose presence went. */
export const presenceRemovedEventJson = (userIds: readonly string[]): string => JSON.stringify({ userIds });
