// Author resolution at read time (SPEC 6): a profile in the organization wins over what the writer
// sent, field by field; with neither, a field reads as "". This is why a users/update shows at once.
import type { Profile, Store, UserRef } from '../store/store.js';

export interface ShownUser {
  email: string;
  name: string;
  userId: string;
}

export function showUser(ref: UserRef, profile: Profile | undefined): ShownUser {
  return {
    email: profile?.email ?? ref.email ?? '',
    name: profile?.name ?? ref.name ?? '',
    userId: ref.userId,
  };
}

/** Loads the profiles of every distinct userId in one query. */
export async function loadProfiles(
  store: Store,
  tenantId: string,
  organizationId: string,
  userIds: Iterable<string>,
): Promise<Map<string, Profile>> {
  return store.findProfiles(tenantId, organizationId, [...new Set(userIds)]);
}
