// Profiles as reads show them (docs/api.md, "Profiles at read time": an author or actor shows the organization's
// profile now), held in memory per organization instead of joined into every row of every read. Each read returns
// the organization's profile version (migration 7), which every write to its users bumps first, in its
// own transaction, on any instance. A cached organization whose version differs is dropped before it
// answers: a rename shows on the very next read, everywhere, and a page costs no users lookup at all
// once its organization is held.
import type { Clock } from '../clock.js';
import { Admission } from './admission.js';
import { type Maybe, then } from '../maybe.js';
import type { Store } from '../store/store.js';
import { PassingProfiles, type Profile } from '../domain/users.js';

/** The profile of each user asked for; undefined where the user has none in the organization. */
export type Profiles = ReadonlyMap<string, Profile | undefined>;

const NO_PROFILES: Profiles = new Map();

const isEmpty = (values: Iterable<unknown>): boolean => values[Symbol.iterator]().next().done === true;

/**
 * How many megabytes of profiles (of any organizations) the cache holds at most by default
 * (MARGINALIA_PROFILE_CACHE_MB): about 60,000 profiles of common sizes, 7,000 whose every field is
 * as long as it may be (docs/decisions.md).
 */
export const DEFAULT_PROFILE_CACHE_MB = 32;

/**
 * An organization with at most this many profiles is read whole the first time it is needed (one
 * range of the users table): from then on a user it lacks has no profile, and no read of it looks
 * anything up until its version moves. A larger one is read user by user, as pages need them.
 */
export const WHOLE_ORGANIZATION = 1000;

/**
 * What a profile held costs besides its strings: its object, its entry in the organization's Map and
 * its entry among the shown texts (answers/annotations.ts). Measured with 50,000 profiles held:
 * 552 bytes for a profile of common sizes, 4,466 for one whose every field is at its longest
 * (scratch measurement, docs/decisions.md); this and profileBytes below give 560 and 4,320.
 */
const PROFILE_OVERHEAD = 300;
/** A user looked up who has no profile: the key and the Map's entry. */
const ABSENT_OVERHEAD = 100;

/** A string's bytes in V8's heap: a header, and one byte a character, or two where one is past U+00FF. */
const stringBytes = (s: string | null): number => (s === null ? 0 : 24 + (/[\u0100-\uffff]/.test(s) ? 2 : 1) * s.length);

/**
 * The bytes a profile held under `userId` costs: its strings, the key, the text answers show it as
 * (made once per profile held, when it has a name and an email), and the objects around them. Long
 * fields are allowed (an id and a name of 256 characters, a photo URL of 2048), so the bound is on
 * bytes, not on a count of profiles.
 */
export function profileBytes(userId: string, p: Profile | undefined): number {
  if (!p) return ABSENT_OVERHEAD + stringBytes(userId);
  const shown = p.name !== null && p.email !== null ? stringBytes(`${p.name}${p.email}${p.userId}`) + 40 : 0;
  return (
    PROFILE_OVERHEAD +
    stringBytes(userId) +
    stringBytes(p.userId) +
    stringBytes(p.name) +
    stringBytes(p.email) +
    stringBytes(p.photoUrl) +
    shown
  );
}

interface Organization {
  version: number;
  profiles: Map<string, Profile | undefined>;
  /** What its profiles cost (profileBytes). */
  bytes: number;
  /** Every profile of the organization is in `profiles`. */
  whole: boolean;
  /** Reading it whole was tried (it is larger than WHOLE_ORGANIZATION when `whole` is false). */
  tried: boolean;
}

export class ProfileCache {
  private readonly organizations = new Map<string, Organization>();
  /** What every organization held costs, in bytes. */
  private held = 0;
  private readonly maxBytes: number;
  /** Once full, an organization not held comes in at a bounded rate; the others are looked up and not kept. */
  private readonly admission: Admission;

  constructor(
    private readonly store: Store,
    megabytes = DEFAULT_PROFILE_CACHE_MB,
    clock?: Clock,
  ) {
    this.maxBytes = megabytes * 1024 * 1024;
    this.admission = new Admission(clock);
  }

  /** What the organizations held cost, in bytes (profileBytes): within the bound, but for one organization's own entry. */
  get bytes(): number {
    return this.held;
  }

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
    // Nothing to show: no organization taken in (nor a place let in) for it.
    if (!this.organizations.has(key) && isEmpty(userIds)) return NO_PROFILES;
    const org = this.organization(key, version);
    if (!org) return this.passing(tenantId, organizationId, userIds);
    if (org.whole) return org.profiles;
    const missing: string[] = [];
    for (const userId of userIds) {
      if (!org.profiles.has(userId)) missing.push(userId);
    }
    if (missing.length === 0) return org.profiles;
    // Read after the version was: at least as new as it, so what is read may be kept under it. Not
    // tried when not even a whole organization of the smallest profiles could be kept.
    if (!org.tried && WHOLE_ORGANIZATION * PROFILE_OVERHEAD < this.maxBytes) {
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
    const added = [...userIds].filter((userId) => !org.profiles.has(userId));
    const bytes = added.reduce((sum, userId) => sum + profileBytes(userId, found.get(userId)), 0);
    const kept = this.organizations.get(key) === org && this.makeRoom(key, bytes);
    const shown = kept ? org.profiles : new Map(org.profiles);
    for (const userId of added) shown.set(userId, found.get(userId));
    if (kept) {
      org.bytes += bytes;
      this.held += bytes;
    }
    return shown;
  }

  /** The profiles of an organization not let in (services/admission.ts): looked up, answered, not kept. */
  private passing(tenantId: string, organizationId: string, userIds: Iterable<string>): Maybe<Profiles> {
    const wanted = [...new Set(userIds)];
    return then(this.store.findProfiles(tenantId, organizationId, wanted), (found) => {
      const shown = new PassingProfiles(found);
      for (const userId of wanted) if (!found.has(userId)) shown.set(userId, undefined);
      return shown;
    });
  }

  /** Lets every organization go (at rest: docs/decisions.md, "Memory at rest"). */
  clear(): void {
    this.organizations.clear();
    this.held = 0;
    this.admission.holds(0, this.maxBytes);
  }

  /** The organization held under `key` at `version`, last in the order of use; undefined if one is not let in now. */
  private organization(key: string, version: number): Organization | undefined {
    let org = this.organizations.get(key);
    // A held organization at another version is replaced without waiting to be let in: only its profiles are read again.
    const replaced = org !== undefined && org.version !== version;
    if (org && replaced) {
      this.let(key, org);
      org = undefined;
    }
    if (org) {
      // Most recently used last: makeRoom lets go from the front.
      this.organizations.delete(key);
      this.organizations.set(key, org);
    } else {
      if (!replaced && !this.admission.admits()) return undefined;
      // An organization held costs its key and its objects even before it holds a profile.
      org = { version, profiles: new Map(), bytes: stringBytes(key) + PROFILE_OVERHEAD, whole: false, tried: false };
      this.organizations.set(key, org);
      this.held += org.bytes;
      this.makeRoom(key, 0);
    }
    return org;
  }

  private let(key: string, org: Organization): void {
    this.held -= org.bytes;
    this.organizations.delete(key);
    this.admission.holds(this.held, this.maxBytes);
  }

  /**
   * Room for `wanted` more bytes of the organization at `key`: past the bound, the organizations used
   * longest ago go first (a Map iterates in insertion order, and each use moves one last). False when
   * this organization alone would be past it.
   */
  private makeRoom(key: string, wanted: number): boolean {
    for (const [other, org] of this.organizations) {
      if (this.held + wanted <= this.maxBytes) return true;
      if (other !== key) {
        this.let(other, org);
        this.admission.filled();
      }
    }
    return this.held + wanted <= this.maxBytes;
  }
}
