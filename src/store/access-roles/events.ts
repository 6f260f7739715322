// The events of role changes (docs/events.md): one per user and organization a write touched, naming the
// resources. Their `user.` family makes end-user streams take access afresh (events/stream-access.ts).
import type { RoleGrant, RoleResource } from '../../domain/access.js';
import { draft, type EventType, json } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';

/** The resources as the pages name them: `type`, `id` (an organization's is its own id). */
const named = (r: RoleResource) => ({ type: r.kind, id: r.kind === 'organization' ? r.organizationId : r.resourceId });

function perUser<T extends RoleResource>(
  type: EventType,
  items: readonly T[],
  shown: (item: T) => Record<string, unknown>,
): EventDraft[] {
  const groups = new Map<string, { organizationId: string; userId: string; resources: Record<string, unknown>[] }>();
  for (const item of items) {
    const key = `${item.organizationId}\u0000${item.userId}`;
    let group = groups.get(key);
    if (!group) {
      group = { organizationId: item.organizationId, userId: item.userId, resources: [] };
      groups.set(key, group);
    }
    group.resources.push(shown(item));
  }
  return [...groups.values()].map((g) => draft(type, g.organizationId, null, json({ userId: g.userId, resources: g.resources })));
}

/** user.permissions_add: the roles given, with their expiry when they have one (ms since the epoch). */
export const rolesGranted = (grants: readonly RoleGrant[]): EventDraft[] =>
  perUser('user.permissions_add', grants, (g) => ({
    ...named(g),
    accessRole: g.role,
    ...(g.expiresAt !== null ? { expiresAt: g.expiresAt } : {}),
  }));

/** user.permissions_remove: the resources whose roles went. */
export const rolesRevoked = (resources: readonly RoleResource[]): EventDraft[] =>
  perUser('user.permissions_remove', resources, named);
