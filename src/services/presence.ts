// Who is on a document (docs/api.md, "Presence"): /v2's presence/add, update and delete, and presence/get
// (an extension). A presence lasts MARGINALIA_PRESENCE_TTL_SECONDS after its user's last add or update;
// every write is announced on the stream to users who may access the document (presence.* events).
import type { PresenceChange, PresenceRecord } from '../domain/presence.js';
import { type Maybe, then } from '../maybe.js';
import type { PresenceDeleteData, PresenceGetData, PresenceUsersData } from '../schemas/presence.js';
import type { Caller, Services } from './context.js';

/** How long a presence lasts after its last write unless the setting says otherwise: the original's 10 minutes to offline. */
export const DEFAULT_PRESENCE_TTL_SECONDS = 600;
/** How many users a document's presence holds at most unless the setting says otherwise. */
export const DEFAULT_MAX_PRESENCE_PER_DOCUMENT = 1000;
/** The most that setting may say: presence/get answers them all at once. */
export const MAX_PRESENCE_PER_DOCUMENT = 10_000;

const ttlMsOf = (services: Services) => (services.presenceTtlSeconds ?? DEFAULT_PRESENCE_TTL_SECONDS) * 1000;
const mostOf = (services: Services) => services.maxPresencePerDocument ?? DEFAULT_MAX_PRESENCE_PER_DOCUMENT;

/** Each user once: a user listed twice is written as the entries say in order (later members over earlier ones). */
function usersOnce(users: PresenceUsersData['users']): PresenceChange[] {
  const byUser = new Map<string, PresenceChange>();
  for (const u of users) {
    const held = byUser.get(u.userId) ?? { userId: u.userId };
    byUser.set(u.userId, {
      ...held,
      ...(u.name != null ? { name: u.name } : {}),
      ...(u.email != null ? { email: u.email } : {}),
      ...(u.status != null ? { status: u.status } : {}),
    });
  }
  return [...byUser.values()];
}

const done = () => ({ success: true as const });

export function addPresence(services: Services, caller: Caller, input: PresenceUsersData): Maybe<{ success: true }> {
  const write = { organizationId: input.organizationId, documentId: input.documentId, users: usersOnce(input.users) };
  const bounds = { ttlMs: ttlMsOf(services), most: mostOf(services) };
  return then(services.store.addPresence(caller.id, write, bounds, services.clock()), done);
}

export function updatePresence(services: Services, caller: Caller, input: PresenceUsersData): Maybe<{ success: true }> {
  const write = { organizationId: input.organizationId, documentId: input.documentId, users: usersOnce(input.users) };
  return then(services.store.updatePresence(caller.id, write, ttlMsOf(services), services.clock()), done);
}

export function deletePresence(services: Services, caller: Caller, input: PresenceDeleteData): Maybe<{ success: true }> {
  const userIds = [...new Set(input.userIds)];
  return then(services.store.deletePresence(caller.id, input.organizationId, input.documentId, userIds, services.clock()), done);
}

/** presence/get: every user present on the document now (at most the document's bound), in userId order. */
export function getPresence(services: Services, caller: Caller, input: PresenceGetData): Maybe<PresenceRecord[]> {
  return services.store.getPresence(caller.id, input.organizationId, input.documentId, services.clock(), mostOf(services));
}
