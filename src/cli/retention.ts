// `marginalia retention get|set|run`: retention/get, set and run from the command line (docs/api.md,
// "Retention"; docs/operations.md, "Retention"), through the same services as the HTTP operations, for the
// tenant --tenant names. Options are checked as the operations' bodies are.
import { systemClock } from '../clock.js';
import { ApiError } from '../errors.js';
import { MAX_ID_LENGTH } from '../schemas/common.js';
import { MAX_RETENTION_DAYS, type RetentionSetData } from '../schemas/retention.js';
import { getRetention, runRetention, setRetention } from '../services/retention.js';
import type { Store } from '../store/store.js';
import { CliError, chosenTenant, type Io } from './commands.js';

export const RETENTION_GET_USAGE = 'retention get [--org <organizationId>] [--tenant <tenant>]';
export const RETENTION_SET_USAGE =
  'retention set [--org <organizationId>] [--notifications-days <n>] [--notifications-scope read|all] ' +
  '[--resolved-threads-days <n>] [--events-days <n>] [--activities-days <n>] [--inherit] [--tenant <tenant>]';
export const RETENTION_RUN_USAGE = 'retention run [--org <organizationId>] [--dry-run] [--tenant <tenant>]';

export interface RetentionOptions {
  tenant?: string;
  org?: string[];
  'notifications-days'?: string;
  'notifications-scope'?: string;
  'resolved-threads-days'?: string;
  'events-days'?: string;
  'activities-days'?: string;
  inherit?: boolean;
  'dry-run'?: boolean;
}

export interface RetentionRequest {
  tenant: string | undefined;
  organizationId: string | null;
}

const json = (io: Io, value: unknown) => io.out(JSON.stringify(value, null, 2));

/** At most one --org, an id. */
function organizationOf(options: RetentionOptions, usage: string): string | null {
  const orgs = options.org ?? [];
  if (orgs.length > 1) throw new CliError(`--org names one organization.\nusage: marginalia ${usage}`, 2);
  const org = orgs[0];
  if (org !== undefined && (org.length < 1 || org.length > MAX_ID_LENGTH))
    throw new CliError(`--org: an id of 1 to ${MAX_ID_LENGTH} characters.`, 2);
  return org ?? null;
}

export const retentionRequest = (options: RetentionOptions, usage: string): RetentionRequest => ({
  tenant: options.tenant,
  organizationId: organizationOf(options, usage),
});

/** A window in days, 1 to MAX_RETENTION_DAYS, or `none` (kept for good). */
function days(options: RetentionOptions, name: keyof RetentionOptions & `${string}-days`): number | null | undefined {
  const given = options[name];
  if (given === undefined || given === 'none') return given === 'none' ? null : undefined;
  const n = Number(given);
  if (!/^\d+$/.test(given) || n < 1 || n > MAX_RETENTION_DAYS)
    throw new CliError(`--${name}: a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or none.`, 2);
  return n;
}

export interface RetentionSetRequest extends RetentionRequest {
  data: RetentionSetData;
}

export function retentionSetRequest(options: RetentionOptions): RetentionSetRequest {
  const scope = options['notifications-scope'];
  if (scope !== undefined && scope !== 'read' && scope !== 'all')
    throw new CliError('--notifications-scope: read (notifications every recipient has read) or all.', 2);
  const { tenant, organizationId } = retentionRequest(options, RETENTION_SET_USAGE);
  const data: RetentionSetData = {
    organizationId,
    notificationsDays: days(options, 'notifications-days'),
    notificationsScope: scope ?? null,
    resolvedThreadsDays: days(options, 'resolved-threads-days'),
    eventsDays: days(options, 'events-days'),
    activitiesDays: days(options, 'activities-days'),
    inherit: options.inherit ?? null,
  };
  return { tenant, organizationId, data };
}

/** What an operation refused, as the CLI says it: the message, exit code 2 for a refused argument, else 1. */
async function speaking<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError) throw new CliError(err.message, err.code === 'INVALID_ARGUMENT' ? 2 : 1);
    throw err;
  }
}

/** Prints {"organizationId","policy","inForce"}, as retention/get answers. */
export async function retentionGet(store: Store, io: Io, request: RetentionRequest): Promise<void> {
  const caller = await chosenTenant(store, request.tenant);
  json(io, await getRetention({ store, clock: systemClock }, caller, { organizationId: request.organizationId }));
}

/** Prints the policy set, as retention/set answers. */
export async function retentionSet(store: Store, io: Io, request: RetentionSetRequest): Promise<void> {
  const caller = await chosenTenant(store, request.tenant);
  json(io, await speaking(() => setRetention({ store, clock: systemClock }, caller, request.data)));
}

/** Prints {"dryRun","deleted":{"notifications","resolvedThreads","events","activities"}}, as retention/run answers. */
export async function retentionRun(
  store: Store,
  io: Io,
  request: RetentionRequest & { dryRun: boolean },
  batchSize: number,
): Promise<void> {
  const caller = await chosenTenant(store, request.tenant);
  const services = { store, clock: systemClock, retentionBatchSize: batchSize };
  json(
    io,
    await speaking(() => runRetention(services, caller, { organizationId: request.organizationId, dryRun: request.dryRun })),
  );
}
