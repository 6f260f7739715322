// Profiles as reads show them (SPEC 6: an author or actor shows the organization's profile now), held
// in memory per organization instead of joined into every row of every read. Each read returns the
// organization's profile version (migration 7), which every write to its users bumps first, in its
// own transaction, on any instance. A cached organization whose version differs is dropped before it
// answers: a rename shows on the very next read, everywhere, and a page costs no users lookup at all
// once its users are known.
import { type Maybe, then } from '../maybe.js';
import type { Profile, Store } from '../store/store.js';

/** The profile of each user asked for; undefined where the user has none in the organization. */
export type Profiles = ReadonlyMap<string, Profile | undefined>;

/** How many profiles (of any organizations) the cache holds at most by default (MARGINALIA_PROFILE_CACHE_SIZE). */
export const DEFAULT_PROFILE_CACHE_SIZE = 100_000;

interface Organization {
  version: number;
  profiles: Map<string, Profile | undefined>;
}

export class ProfileCache {
  private readonly organizations = new Map<string, Organization>();
  private held = 0;

  constructor(
    private readonly store: Store,
    private readonly maxProfiles = DEFAULT_PROFILE_CACHE_SIZE,
  ) {}

  /**
   * The profiles of `userIds` in the organization as of `version` (the version its read returned) or
   * later. Users not held yet are read in one query.
   */
  resolve(tenantId: string, organizationId: string, version: number, userIds: Iterable<string>): Maybe<Profiles> {
    const key = `${tenantId}\n${organizationId}`;
    const org = this.organization(key, version);
    let missing: string[] | undefined;
    for (const userId of userIds) {
      if (!org.profiles.has(userId)) (missing ??= []).push(userId);
    }
    if (!missing) return org.profiles;
    const wanted = [...new Set(missing)];
    return then(this.store.findProfiles(tenantId, organizationId, wanted), (found) => {
      // Read after the version was: at least as new as it, so they may be kept under it, unless the
      // organization was dropped meanwhile (another version came) or alone is past the bound.
      const kept = this.organizations.get(key) === org && this.makeRoom(key, wanted.length);
      const shown = kept ? org.profiles : new Map(org.profiles);
      for (const userId of wanted) {
        if (kept && !org.profiles.has(userId)) this.held++;
        shown.set(userId, found.get(userId));
      }
      return shown;
    });
  }

  private organization(key: string, version: number): Organization {
    let org = this.organizations.get(key);
    if (org && org.version !== version) {
      this.held -= org.profiles.size;
      org = undefined;
    }
    if (!org) {
      org = { version, profiles: new Map() };
      this.organizations.set(key, org);
    }
    return org;
  }

  /**
   * Room for `wanted` more profiles of the organization at `key`: past the bound, the organizations
   * held longest go first (a Map iterates in insertion order), so those in use come back with one
   * query each. False when this organization alone would be past it.
   */
  private makeRoom(key: string, wanted: number): boolean {
    for (const [other, org] of this.organizations) {
      if (this.held + wanted <= this.maxProfiles) return true;
      if (other === key) continue;
      this.held -= org.profiles.size;
      this.organizations.delete(other);
    }
    return this.held + wanted <= this.maxProfiles;
  }
}
