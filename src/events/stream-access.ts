// What an end-user token's stream carries (docs/events.md, "End-user tokens and what a token's stream carries"): of
// the token's organization only, the events of notifications addressed to its user (listed, or organization-wide
// while the user is a member there) and of threads, comments, live state and presence in documents the user may
// read (the access check every end-user request asks, services/document-access.ts, given by the route). Answers
// are held per stream and let go whenever an event that can change them passes by (users and their roles,
// documents, folders, groups and the organization itself): the tail hands every event of the tenant to `saw`, in
// order, so a change of access applies from the next event on, on every instance. A users/data/delete records no
// event (it leaves no trace), so answers are also let go after HELD_MS: an erased user's stream loses its access
// within that. A role that expires records no event either: HELD_MS bounds that too.
import type { Maybe } from '../maybe.js';
import type { StoredEvent } from '../store/store.js';
import type { StreamScope } from './stream.js';

/** What the stream asks of a document of the organization, for its user. */
export interface StreamAccess {
  /** The user is a member of the organization (organization-wide notifications reach them). */
  member: boolean;
  /** The user may read the document. */
  document: boolean;
}

/** Families whose events can change who may see what. */
const CHANGES_ACCESS = ['user.', 'document.', 'folder.', 'organization.'];
/**
 * A notification's events a user's stream carries. Not notification.config_set: its data lists every
 * user the settings were set for, which is the server's business.
 */
const NOTIFICATION = new Set([
  'notification.add',
  'notification.update',
  'notification.delete',
  'notification.read',
  'notification.unread',
  'notification.archive',
  'notification.unarchive',
]);
/** How long an access answer is held at most (see above). */
export const HELD_MS = 30_000;
/**
 * Families of a document's content, carried to users who may access the document: its threads, its live
 * state and who is on it (presence).
 */
const DOCUMENT_CONTENT = ['comment_annotation.', 'comment.', 'livestate.', 'presence.'];

export class EndUserScope implements StreamScope {
  private readonly held = new Map<string, StreamAccess | Promise<StreamAccess>>();
  private heldSince = Date.now();

  constructor(
    private readonly organizationId: string,
    private readonly userId: string,
    /** The user's access to a document of the organization, as of now. */
    private readonly accessOf: (documentId: string) => Maybe<StreamAccess>,
  ) {}

  saw(event: StoredEvent): void {
    const changes = event.organizationId === this.organizationId && CHANGES_ACCESS.some((f) => event.type.startsWith(f));
    if (changes || Date.now() - this.heldSince > HELD_MS) {
      this.held.clear();
      this.heldSince = Date.now();
    }
  }

  allows(event: StoredEvent): boolean | Promise<boolean> {
    if (event.organizationId !== this.organizationId) return false;
    if (NOTIFICATION.has(event.type)) {
      const audience = event.audience;
      if (!audience) return false;
      if (audience.users.includes(this.userId)) return true;
      return audience.wide ? this.accessTo(event.documentId ?? '', (a) => a.member) : false;
    }
    if (DOCUMENT_CONTENT.some((f) => event.type.startsWith(f)) && event.documentId !== null) {
      // A thread event meant for some users only (one user's read marks) goes to them alone.
      if (event.audience && !event.audience.users.includes(this.userId)) return false;
      return this.accessTo(event.documentId, (a) => a.document);
    }
    return false;
  }

  private accessTo(documentId: string, pick: (a: StreamAccess) => boolean): boolean | Promise<boolean> {
    let access = this.held.get(documentId);
    if (!access) {
      const read = this.accessOf(documentId);
      access =
        read instanceof Promise
          ? read.then(
              (a) => {
                this.held.set(documentId, a);
                return a;
              },
              (err: unknown) => {
                // A failed read is not held: the next event asks again.
                this.held.delete(documentId);
                throw err;
              },
            )
          : read;
      this.held.set(documentId, access);
    }
    return access instanceof Promise ? access.then(pick) : pick(access);
  }
}
