// Pages of threads (commentannotations/get) as they were last answered, held per process, so that a
// document's thread list, which every reader of the document asks for again and again, is one small
// read instead of the page read and its render (bench/README.md: about 120 us of CPU for 20 threads).
// A page is kept with the versions it was read under: the document's (document_versions, which
// triggers move on every change to its threads' rows, migration 11) and its organization's profiles'
// (migration 7). A read asks the database for both, and answers from memory only when both are
// unchanged, so a write on any instance shows on the very next read everywhere.
import type { Clock } from '../clock.js';
import { type Maybe, then } from '../maybe.js';
import type { DocumentVersions } from '../domain/threads.js';
import { Admission } from './admission.js';

/** How many megabytes of pages the cache holds at most by default (MARGINALIA_THREAD_PAGE_CACHE_MB). */
export const DEFAULT_THREAD_PAGE_CACHE_MB = 64;

/** A page as answered: its data member's bytes, and the next page's token. */
export interface ThreadPageAnswer {
  data: Buffer;
  nextPageToken: string | null;
}

interface Held extends ThreadPageAnswer {
  documentVersion: number;
  profileVersion: number;
  bytes: number;
}

/** What a read of the versions answers: the page when it is still what it was, and the credentials version seen. */
export interface CachedPage {
  page: ThreadPageAnswer | undefined;
  credentialsVersion: number;
}

/** What an entry costs besides its bytes and strings: the Map's slot, the entry and the Buffer objects. */
const ENTRY_BYTES = 200;
/** Keys whose page was let go for moved versions, remembered at most: its next page comes in without waiting. */
const MOVED_KEYS = 1024;

export class ThreadPageCache {
  private readonly pages = new Map<string, Held>();
  private held = 0;
  private readonly maxBytes: number;
  /** Once full, a page not held comes in at a bounded rate: a page read once (most are) is answered and not kept. */
  private readonly admission: Admission;
  /** Pages let go because their versions moved: the page read next under the key replaces them without waiting. */
  private readonly moved = new Set<string>();

  constructor(megabytes = DEFAULT_THREAD_PAGE_CACHE_MB, clock?: Clock) {
    this.maxBytes = megabytes * 1024 * 1024;
    this.admission = new Admission(clock);
  }

  /** What the pages held cost, in bytes: never more than the bound. */
  get bytes(): number {
    return this.held;
  }

  /** Whether a page under `key` is held (worth asking the database whether it is still current). */
  has(key: string): boolean {
    return this.pages.has(key);
  }

  /**
   * The page held under `key` if the versions the database reports now are those it was read under; a
   * page whose versions moved is let go, and the page read next under its key comes in without waiting
   * to be let in (keep).
   */
  current(key: string, versions: Maybe<DocumentVersions>): Maybe<CachedPage> {
    return then(versions, (now) => {
      const held = this.pages.get(key);
      if (held && held.documentVersion === now.documentVersion && held.profileVersion === now.profileVersion) {
        // Most recently used last: the Map's order is the order of letting go.
        this.pages.delete(key);
        this.pages.set(key, held);
        return { page: held, credentialsVersion: now.credentialsVersion };
      }
      if (held) {
        this.drop(key, held);
        if (this.moved.size >= MOVED_KEYS) this.moved.clear();
        this.moved.add(key);
      }
      return { page: undefined, credentialsVersion: now.credentialsVersion };
    });
  }

  /**
   * Keeps a page read under these versions: in place of the one held under `key` or let go for moved
   * versions, or else, once full, if it is let in (services/admission.ts). Past the bound, the pages used
   * longest ago go first.
   */
  keep(key: string, versions: Omit<DocumentVersions, 'credentialsVersion'>, answer: ThreadPageAnswer): void {
    const bytes = answer.data.length + (key.length + (answer.nextPageToken?.length ?? 0)) * 2 + ENTRY_BYTES;
    const old = this.pages.get(key);
    if (old) this.drop(key, old);
    const replacing = old !== undefined || this.moved.delete(key);
    if (bytes > this.maxBytes) return;
    if (!replacing && !this.admission.admits()) return;
    for (const [other, page] of this.pages) {
      if (this.held + bytes <= this.maxBytes) break;
      this.drop(other, page);
      this.admission.filled();
    }
    const { documentVersion, profileVersion } = versions;
    this.pages.set(key, { data: answer.data, nextPageToken: answer.nextPageToken, documentVersion, profileVersion, bytes });
    this.held += bytes;
  }

  /** Lets every page go (at rest: docs/decisions.md, "Memory at rest"). */
  clear(): void {
    this.pages.clear();
    this.moved.clear();
    this.held = 0;
    this.admission.holds(0, this.maxBytes);
  }

  private drop(key: string, page: Held): void {
    this.pages.delete(key);
    this.held -= page.bytes;
    this.admission.holds(this.held, this.maxBytes);
  }
}
