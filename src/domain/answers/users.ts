// Author resolution at read time (docs/api.md, "Profiles at read time"): a profile in the organization wins over
// what the writer sent, field by field; with neither, a field reads as "". This is why a users/update shows at
// once.
import type { Static } from 'typebox';
import type { ShownUser as ShownUserSchema } from '../../schemas/responses.js';
import type { Profile, UserRef } from '../users.js';

/** A user as answers show it (a comment's `from`, a notification's `actionUser`). */
export type ShownUser = Static<typeof ShownUserSchema>;

export function showUser(ref: UserRef, profile: Profile | undefined): ShownUser {
  return {
    email: profile?.email ?? ref.email ?? '',
    name: profile?.name ?? ref.name ?? '',
    userId: ref.userId,
  };
}

/** A user as answers show it, as JSON text. */
export function userJson(ref: UserRef, profile: Profile | undefined | null): string {
  const u = showUser(ref, profile ?? undefined);
  return `{"email":${JSON.stringify(u.email)},"name":${JSON.stringify(u.name)},"userId":${JSON.stringify(u.userId)}}`;
}

/** Writes each user resolved against `profiles` (the profiles held for the version a read saw). */
export const resolvedAgainst =
  (profiles: ReadonlyMap<string, Profile | undefined>) =>
  (ref: UserRef): string =>
    userJson(ref, profiles.get(ref.userId));
