// Profiles as reads show them (SPEC 6: an author or actor shows the organization's profile now), held
// in memory per organization instead of joined into every row of every read. Each read returns the
// organization's profile version (migration 7), which every write to its users bumps first, in its
// own transaction, on any instance. A cached organization whose version differs is dropped before it
// answers: a rename shows on the very next read, everywhere, and a page costs no users lookup at all
// once its organization is held.
import { type Maybe, then } from '../maybe.js';
import type { Profile, Store } from '../store/store.js';

/** The profile of each user asked for; undefined where the user has none in the organization. */
export type Profiles = ReadonlyMap<string, Profile | undefined>;

const NO_PROFILES: Profiles = new Map();

/** How many profiles (of any organizations) the cache holds at most by default (MARGINALIA_PROFILE_CACHE_SIZE). */
export const DEFAULT_PROFILE_CACHE_SIZE = 100_000;

/**
 * An organization with at most this many profiles is read whole the first time it is needed (one
 * range of the users table): from then on a user it lacks has no profile, and no read of it looks
 * anything up until its version moves. A larger one is read user by user, as pages need them.
 */
export const WHOLE_ORGANIZATION = 1000;

interface Organization {
  version: number;
  profiles: Map<string, Profile | undefined>;
  /** Every profile of the organization is in `profiles`. */
  whole: boolean;
  /** Reading it whole was tried (it is larger than WHOLE_ORGANIZATION when `whole` is false). */
  tried: boolean;
}

export class ProfileCache {
  private readonly organizations = new Map<string, Organization>();
  private held = 0;

  constructor(
    private readonly store: Store,
    private readonly maxProfiles = DEFAULT_PROFILE_CACHE_SIZE,
  ) {}

  /**
   * The profiles a read's rows show, as of the version the read returned: none for a read that found
   * no row (it returned no version, and shows nobody).
   */
  forRows(
    tenantId: string,
    organizationId: string,
    rows: readonly { profileVersion: number }[],
    userIds: Iterable<string>,
  ): Maybe<Profiles> {
    return rows.length === 0 ? NO_PROFILES : this.resolve(tenantId, organizationId, rows[0]!.profileVersion, userIds);
  }

  /**
   * The profiles of `userIds` in the organization as of `version` (the version its read returned) or
   * later. What is not held yet is read in one query.
   */
  resolve(tenantId: string, organizationId: string, version: number, userIds: Iterable<string>): Maybe<Profiles> {
    const key = `${tenantId}\n${organizationId}`;
    const org = this.organization(key, version);
    if (org.whole) return org.profiles;
    const missing: string[] = [];
    for (const userId of userIds) {
      if (!org.profiles.has(userId)) missing.push(userId);
    }
    if (missing.length === 0) return org.profiles;
    // Read after the version was: at least as new as it, so what is read may be kept under it.
    if (!org.tried && WHOLE_ORGANIZATION < this.maxProfiles) {
      org.tried = true;
      return then(this.store.organizationProfiles(tenantId, organizationId, WHOLE_ORGANIZATION + 1), (all) => {
        if (all.length > WHOLE_ORGANIZATION) return this.lookUp(key, org, tenantId, organizationId, missing);
        const found = new Map(all.map((p) => [p.userId, p]));
        const shown = this.keep(key, org, found.keys(), found);
        if (shown === org.profiles) org.whole = true;
        return shown;
      });
    }
    return this.lookUp(key, org, tenantId, organizationId, missing);
  }

  private lookUp(key: string, org: Organization, tenantId: string, organizationId: string, missing: string[]): Maybe<Profiles> {
    const wanted = [...new Set(missing)];
    return then(this.store.findProfiles(tenantId, organizationId, wanted), (found) => this.keep(key, org, wanted, found));
  }

  /**
   * Adds what was read to the organization, and answers with it. Kept unless the organization was
   * dropped meanwhile (another version came) or would alone be past the bound: then the answer is a
   * copy, and nothing is kept.
   */
  private keep(key: string, org: Organization, userIds: Iterable<string>, found: ReadonlyMap<string, Profile>): Profiles {
    const ids = [...userIds];
    const kept = this.organizations.get(key) === org && this.makeRoom(key, ids.length);
    const shown = kept ? org.profiles : new Map(org.profiles);
    for (const userId of ids) {
      if (kept && !org.profiles.has(userId)) this.held++;
      shown.set(userId, found.get(userId));
    }
    return shown;
  }

  private organization(key: string, version: number): Organization {
    let org = this.organizations.get(key);
    if (org && org.version !== version) {
      this.held -= org.profiles.size;
      org = undefined;
    }
    if (!org) {
      org = { version, profiles: new Map(), whole: false, tried: false };
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
