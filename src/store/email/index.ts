// The email outbox (docs/decisions.md, "Email (issue 40)"), across tenants: each row carries its own.
// This feature's part of the Store (store.ts): each method runs its store code through the core. Rows are drafted
// by core.emitting (core.ts) from the notification.add events of every write, while email is on.
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import { emit } from '../events/emit.js';
import { settingsSet } from '../notifications/events.js';
import { ORGANIZATION_LEVEL } from '../../domain/notifications.js';
import * as outbox from './outbox.js';
import type { ClaimedDigest, EmailFinish } from './types.js';

export const emailStore = (core: StoreCore) => ({
  /** Whether a row is due: a read, so an idle sender takes no lock. */
  emailWork(now: number): Maybe<boolean> {
    return core.read('emailWork', () => outbox.work(now));
  },

  /** Claims up to `recipients` recipients' digests (each at most `most` rows) for `claimer` until `until`. */
  claimEmails(claimer: string, now: number, until: number, recipients: number, most: number): Maybe<ClaimedDigest[]> {
    return core.write('claimEmails', () => outbox.claim(claimer, now, until, recipients, most));
  },

  /** Ends or reschedules rows while `claimer` holds them; answers how many. */
  finishEmails(claimer: string, ids: readonly number[], outcome: EmailFinish): Maybe<number> {
    return core.write('finishEmails', () => outbox.finish(claimer, ids, outcome));
  },

  /** Hands back every row `claimer` holds, due at `at`. */
  releaseEmails(claimer: string, at: number): Maybe<number> {
    return core.write('releaseEmails', () => outbox.release(claimer, at));
  },

  /** Rows waiting to be mailed, and the time the oldest was drafted. */
  emailQueueStats(): Maybe<{ queued: number; oldestCreatedAt: number | null }> {
    return core.read('emailQueueStats', () => outbox.stats());
  },

  /** Deletes up to `limit` finished rows from before `before`. */
  pruneEmails(before: number, limit: number): Maybe<number> {
    return core.write('pruneEmails', () => outbox.prune(before, limit));
  },

  /** The tenant's key for unsubscribe links, made from `candidate` on first use. */
  emailSecret(tenantId: string, candidate: string, now: number): Maybe<string> {
    return core.write('emailSecret', () => outbox.secret(tenantId, candidate, now));
  },

  /** The tenant's key for unsubscribe links; null when it has none (it never had a mail). A read. */
  existingEmailSecret(tenantId: string): Maybe<string | null> {
    return core.read('existingEmailSecret', () => outbox.existingSecret(tenantId));
  },

  /** GET /email/unsubscribe: the user's email settings in the organization NONE; false when the user has no profile there. */
  unsubscribeEmail(tenantId: string, organizationId: string, userId: string, now: number): Maybe<boolean> {
    return core.emitting('unsubscribeEmail', tenantId, now, function* () {
      const done = yield* outbox.unsubscribe(tenantId, organizationId, userId);
      if (done) yield* emit(settingsSet(organizationId, [ORGANIZATION_LEVEL], [userId], { email: 'NONE' }));
      return done;
    });
  },
});

export type EmailStore = ReturnType<typeof emailStore>;
