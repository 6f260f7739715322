// Retention policies (docs/api.md, "Retention"): retention/get and set read and write a tenant's policy or
// an organization's; retention/run applies them now, or counts what that would delete (jobs/retention.ts,
// which the server also runs every MARGINALIA_RETENTION_INTERVAL_SECONDS).
import { KEEP_EVERYTHING, organizationPolicy, type RetentionCounts, type RetentionPolicy } from '../domain/retention.js';
import { invalid } from '../errors.js';
import { DEFAULT_RETENTION_BATCH_SIZE, retainTenant } from '../jobs/retention.js';
import { NO_ORGANIZATION } from '../schemas/common.js';
import type { RetentionGetData, RetentionRunData, RetentionSetData } from '../schemas/retention.js';
import type { Caller, Services } from './context.js';

/** What retention needs of the services (the CLI passes these alone). */
export type RetentionServices = Pick<Services, 'store' | 'clock' | 'retentionBatchSize'>;

export const RETENTION_READ = 'Retention policy retrieved successfully.';
export const RETENTION_SET = 'Retention policy set successfully.';
export const RETENTION_RAN = 'Retention applied successfully.';
export const RETENTION_COUNTED = 'Retention dry run counted successfully.';

export interface RetentionAnswer {
  organizationId: string | null;
  policy: RetentionPolicy | null;
  inForce: RetentionPolicy;
}

const policyOnly = (p: RetentionPolicy): RetentionPolicy => ({
  notificationsDays: p.notificationsDays,
  notificationsScope: p.notificationsScope,
  resolvedThreadsDays: p.resolvedThreadsDays,
  eventsDays: p.eventsDays,
  activitiesDays: p.activitiesDays,
});

/** A level's policy as set, and the one in force there (an organization's, else the tenant's). */
async function answerFor(services: RetentionServices, caller: Caller, organizationId: string | null): Promise<RetentionAnswer> {
  const stored = await services.store.retentionPolicies(caller.id);
  const tenant = stored.find((p) => p.organizationId === NO_ORGANIZATION) ?? null;
  const own = organizationId === null ? tenant : (stored.find((p) => p.organizationId === organizationId) ?? null);
  const inForce = organizationId === null ? (tenant ?? KEEP_EVERYTHING) : organizationPolicy(tenant, own);
  return { organizationId, policy: own && policyOnly(own), inForce: policyOnly(inForce) };
}

export const getRetention = (services: RetentionServices, caller: Caller, data: RetentionGetData): Promise<RetentionAnswer> =>
  answerFor(services, caller, data.organizationId ?? null);

const WINDOWS = ['notificationsDays', 'notificationsScope', 'resolvedThreadsDays', 'eventsDays', 'activitiesDays'] as const;

export async function setRetention(
  services: RetentionServices,
  caller: Caller,
  data: RetentionSetData,
): Promise<RetentionAnswer> {
  const organizationId = data.organizationId ?? null;
  if (data.inherit) {
    if (organizationId === null) throw invalid("inherit needs organizationId: the tenant's own policy has nothing to inherit");
    const sent = WINDOWS.filter((w) => data[w] != null);
    if (sent.length > 0) throw invalid(`inherit removes the organization's policy: send it without ${sent.join(', ')}`);
    await services.store.removeRetentionPolicy(caller.id, organizationId);
    return answerFor(services, caller, organizationId);
  }
  if (organizationId !== null) {
    const logs = (['eventsDays', 'activitiesDays'] as const).filter((w) => data[w] != null);
    if (logs.length > 0)
      throw invalid(`${logs.join(' and ')}: events and activities are the tenant's logs; set them without organizationId`);
  }
  const policy: RetentionPolicy = {
    notificationsDays: data.notificationsDays ?? null,
    notificationsScope: data.notificationsScope ?? 'read',
    resolvedThreadsDays: data.resolvedThreadsDays ?? null,
    eventsDays: data.eventsDays ?? null,
    activitiesDays: data.activitiesDays ?? null,
  };
  await services.store.setRetentionPolicy(caller.id, organizationId ?? NO_ORGANIZATION, policy, services.clock());
  return answerFor(services, caller, organizationId);
}

export interface RetentionRunAnswer {
  dryRun: boolean;
  deleted: RetentionCounts;
}

export async function runRetention(
  services: RetentionServices,
  caller: Caller,
  data: RetentionRunData,
): Promise<RetentionRunAnswer> {
  const dryRun = data.dryRun ?? false;
  const deleted = await retainTenant(services.store, caller.id, data.organizationId ?? null, {
    dryRun,
    batchSize: services.retentionBatchSize ?? DEFAULT_RETENTION_BATCH_SIZE,
    now: services.clock,
  });
  return { dryRun, deleted };
}
