// A user's personal data: its export and its erasure.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { ErasureJob, UserDataCursor, UserDataPage } from '../../domain/personal-data.js';
import type { Maybe } from '../../maybe.js';
import { turn, type StepResult } from '../batches.js';
import type { StoreCore } from '../core.js';
import * as activities from '../activities/activities.js';
import type { NewActivity } from '../activities/activities.js';
import * as erasure from './erasure.js';
import * as personalData from './export.js';
import type { Work } from '../sql.js';

export const personalDataStore = (core: StoreCore) => ({
  /** users/data/get: at most `limit` of each list after the cursor. */
  getUserData(
    tenantId: string,
    organizationId: string,
    userId: string,
    cursor: UserDataCursor,
    limit: number,
  ): Maybe<UserDataPage> {
    return core.read('getUserData', () => personalData.userData(tenantId, organizationId, userId, cursor, limit));
  },

  /**
   * users/data/delete: every user's data in each organization (null: all of the tenant's), in
   * transactions of at most `batchSize` rows each; records the job when done. Answers how many batches ran.
   * Only where the users have rows or are named (the index by user of migration 27): users found
   * nowhere cost one read. In each organization every step runs once for all the users together, a
   * batch at a time (inBatches): the steps that find rows by user for the users with a row of their own
   * there, the scans of what may name a user in its JSON only where one is named (personal-data/erasure.ts).
   */
  async eraseUserData(
    tenantId: string,
    organizationIds: string[] | null,
    userIds: string[],
    batchSize: number,
    job: { jobId: string; now: () => number; activity?: NewActivity },
  ): Promise<number> {
    const visits = await core.read('erasureOrganizations', () => erasure.organizationsOf(tenantId, userIds, organizationIds));
    if (visits.length > 0) await core.dialect.freshenStatistics?.(erasure.ERASED_TABLES);
    let tasks = 0;
    const steps = (step: (cursor: unknown, limit: number) => Work<StepResult>) =>
      core.inBatches('eraseUserData', batchSize, step);
    for (const { organizationId, userIds: here, named } of visits) {
      const present = await core.read('erasureUsersWithRows', () => erasure.usersWithRows(tenantId, organizationId, here));
      await turn();
      for (const step of erasure.ERASURE_STEPS) {
        const users = step.byUser ? present : named;
        if (users.length === 0) continue;
        const scope = { tenantId, organizationId, userIds: users };
        tasks += await steps((at, limit) => step.run(scope, at, limit));
      }
      tasks += await steps((at, limit) => erasure.forgetVisit({ tenantId, organizationId, userIds: here }, at, limit));
    }
    // Then the tenant's history, once for every organization: the events and deliveries naming the users
    // go, and the erasure records none of its own (an erasure leaves no trace, docs/decisions.md).
    const history = {
      tenantId,
      organizationIds: organizationIds ? new Set(organizationIds) : null,
      userIds,
      visited: new Map(visits.map((v) => [v.organizationId, v.userIds])),
      found: false,
    };
    for (const step of erasure.HISTORY_STEPS) tasks += await steps((at, limit) => step.run(history, at, limit));
    // The job, and the erasure as an activity (naming no one it erased: docs/decisions.md, "Activities"), together.
    const byDefault = core.options.activitiesByDefault ?? false;
    await core.write('recordErasureJob', function* () {
      const at = job.now();
      yield* erasure.recordJob(tenantId, job.jobId, tasks, at);
      if (job.activity) yield* activities.record(tenantId, job.activity, at, byDefault);
    });
    // The erased values are in no row now, but still in the WAL (SQLite), or in dead row versions
    // (PostgreSQL) until vacuumed: scrubbed before the answer, when anything was erased.
    if (visits.length > 0 || history.found) await core.scrub(erasure.ERASED_TABLES);
    return tasks;
  },

  erasureJob(tenantId: string, jobId: string): Maybe<ErasureJob | null> {
    return core.read('erasureJob', () => personalData.erasureJob(tenantId, jobId));
  },

  /** The tenant's erasure jobs, newest first, older than `before` when given. */
  erasureJobs(tenantId: string, before: string | null, limit: number): Maybe<(ErasureJob & { jobId: string })[]> {
    return core.read('erasureJobs', () => personalData.erasureJobs(tenantId, before, limit));
  },
});

export type PersonalDataStore = ReturnType<typeof personalDataStore>;
