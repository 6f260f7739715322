// Operator commands on the database that DATABASE_URL names (docs/api.md, "Credentials"). Each prints JSON on
// stdout so scripts can read it; problems go to stderr with a non-zero exit code.
import { systemClock } from '../clock.js';
import { MAX_ID_LENGTH } from '../schemas/common.js';
import { recordOperatorAction } from '../services/activities.js';
import {
  createTenantAsOperator,
  issueAuthToken,
  revokeApiKey,
  revokeAuthToken,
  rotateTokenSigningKey,
} from '../services/operator-keys.js';
import { ApiError } from '../errors.js';
import { newErasureJobId, timeOrderedUuid } from '../domain/ids.js';
import { erasureActivity, OPERATOR_ACTOR } from '../domain/activities.js';
import type { Store } from '../store/store.js';
import type { Tenant } from '../domain/credentials.js';
import type { OrganizationRecord } from '../domain/organizations.js';

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface Io {
  out(line: string): void;
}

/** What a service refused, as the CLI says it: its message, exit code 1. */
async function speaking<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError) throw new CliError(err.message);
    throw err;
  }
}

const json = (io: Io, value: unknown) => io.out(JSON.stringify(value, null, 2));
const iso = (ms: number) => new Date(ms).toISOString();

async function tenantByKey(store: Store, apiKey: string): Promise<Tenant> {
  const found = await store.findCredentials(apiKey);
  if (!found) throw new CliError(`No API key ${apiKey}.`);
  return found.tenant;
}

const logged = (store: Store, tenantId: string, actionType: string, apiKey: string, data: Record<string, unknown>) =>
  recordOperatorAction(store, systemClock, tenantId, actionType, apiKey, data);

export async function keysCreate(store: Store, io: Io, name: string): Promise<void> {
  io.out(JSON.stringify(await createTenantAsOperator(store, systemClock, name)));
}

export async function keysList(store: Store, io: Io): Promise<void> {
  const tenants = await store.listTenants();
  json(
    io,
    tenants.map((t) => ({
      apiKey: t.apiKey,
      name: t.name,
      createdAt: new Date(t.createdAt).toISOString(),
      disabled: t.disabled,
      revoked: t.revoked,
      tokens: t.tokens.map((k) => ({ prefix: k.prefix, createdAt: new Date(k.createdAt).toISOString(), revoked: k.revoked })),
    })),
  );
}

export async function keysRevoke(store: Store, io: Io, apiKey: string): Promise<void> {
  const tenant = await tenantByKey(store, apiKey);
  await speaking(() => revokeApiKey(store, systemClock, tenant));
  json(io, { apiKey, revoked: true });
}

export async function keysSetDisabled(store: Store, io: Io, apiKey: string, disabled: boolean): Promise<void> {
  const tenant = await tenantByKey(store, apiKey);
  if (!(await store.setTenantDisabled(apiKey, disabled))) throw new CliError(`No API key ${apiKey}.`);
  await logged(store, tenant.id, disabled ? 'operator.key_disable' : 'operator.key_enable', apiKey, {});
  json(io, { apiKey, disabled });
}

/**
 * A new end-user token signing key for the tenant (docs/operations.md, "Secrets at rest"): tokens signed with
 * the old one are refused from the next request on. Prints {"apiKey","kid","rotated"}; a tenant that never
 * issued a token has no key yet (rotated false: its first token makes one).
 */
export async function keysRotateSigningKey(store: Store, io: Io, apiKey: string): Promise<void> {
  const kid = await rotateTokenSigningKey(store, systemClock, await tenantByKey(store, apiKey));
  json(io, { apiKey, kid, rotated: kid !== null });
}

export async function tokensCreate(store: Store, io: Io, apiKey: string): Promise<void> {
  const tenant = await tenantByKey(store, apiKey);
  const authToken = await speaking(() => issueAuthToken(store, systemClock, tenant));
  io.out(JSON.stringify({ apiKey, authToken }));
}

/** Revokes the one active token that the given prefix (or whole token) names. */
export async function tokensRevoke(store: Store, io: Io, apiKey: string, prefix: string): Promise<void> {
  if (prefix.length < 4) throw new CliError('Give at least 4 characters of the token.', 2);
  const tenant = await tenantByKey(store, apiKey);
  const revoked = await speaking(() => revokeAuthToken(store, systemClock, tenant, prefix));
  json(io, { apiKey, prefix: revoked, revoked: true });
}

/**
 * The tenant that --tenant names: its API key (what the keys and tokens commands take), its id, or a
 * name only one tenant has. Without --tenant, the only tenant there is: a single-tenant installation
 * (the first start's "default") should not have to look its key up, but with several a guess could
 * list or erase the wrong tenant's data, so that is refused.
 */
export async function chosenTenant(store: Store, given: string | undefined): Promise<Tenant> {
  const tenants = await store.listTenants();
  if (given === undefined) {
    if (tenants.length === 1) return tenants[0]!;
    if (tenants.length === 0) throw new CliError('No tenant yet: create one with marginalia keys create --name <name>.');
    throw new CliError(`There are ${tenants.length} tenants; name one with --tenant <apiKey, tenant id or name>.`, 2);
  }
  const exact = tenants.find((t) => t.apiKey === given || t.id === given);
  if (exact) return exact;
  const named = tenants.filter((t) => t.name === given);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw new CliError(`${named.length} tenants are named ${given}; give the API key instead.`);
  throw new CliError(`No tenant ${given} (neither an API key, a tenant id nor a name).`);
}

/** Organizations read per query: all of them are listed, a page at a time, so none is held open long. */
const ORGANIZATION_PAGE = 1000;

export const ORGS_LIST_USAGE = 'orgs list [--tenant <tenant>]';

/** orgs list's options: --tenant only; an --org or --user would suggest a filter that is not there. */
export function orgsListRequest(options: { tenant?: string; org?: string[]; user?: string[] }): string | undefined {
  if (options.org !== undefined || options.user !== undefined) throw new CliError(`usage: marginalia ${ORGS_LIST_USAGE}`, 2);
  return options.tenant;
}

/** Every organization of the tenant, in id order, as JSON (the times as ISO strings, as keys list shows them). */
export async function orgsList(store: Store, io: Io, tenant: string | undefined): Promise<void> {
  const { id } = await chosenTenant(store, tenant);
  const all: OrganizationRecord[] = [];
  for (let after: string | null = null; ; ) {
    const page: OrganizationRecord[] = await store.getOrganizations(id, null, after, ORGANIZATION_PAGE);
    all.push(...page);
    if (page.length < ORGANIZATION_PAGE) break;
    after = page[page.length - 1]!.organizationId;
  }
  json(
    io,
    all.map((o) => ({
      id: o.organizationId,
      name: o.name,
      disabled: o.disabled,
      createdAt: iso(o.createdAt),
      lastUpdated: iso(o.updatedAt),
    })),
  );
}

export interface EraseRequest {
  tenant: string | undefined;
  /** null: every organization of the tenant, as users/data/delete without organizationIds. */
  organizationIds: string[] | null;
  userIds: string[];
}

export const USERS_ERASE_USAGE = 'users erase --user <userId> [--user ...] [--org <organizationId> ...] [--tenant <tenant>]';

/** users erase's options, checked as users/data/delete checks its body (ids of 1 to 256 characters). */
export function eraseRequest(options: { tenant?: string; org?: string[]; user?: string[] }): EraseRequest {
  const userIds = [...new Set(options.user ?? [])];
  const organizationIds = [...new Set(options.org ?? [])];
  if (userIds.length === 0) throw new CliError(`usage: marginalia ${USERS_ERASE_USAGE}`, 2);
  for (const [option, ids] of [
    ['--user', userIds],
    ['--org', organizationIds],
  ] as const) {
    const bad = ids.find((v) => v.length < 1 || v.length > MAX_ID_LENGTH);
    if (bad !== undefined) throw new CliError(`${option} takes an id of 1 to ${MAX_ID_LENGTH} characters, not "${bad}".`, 2);
  }
  return { tenant: options.tenant, organizationIds: organizationIds.length > 0 ? organizationIds : null, userIds };
}

/**
 * Personal-data erasure, as users/data/delete does it (services/personal-data.ts): the same store call,
 * batch size and job record, so users/data/delete/status answers for the job id printed. A disabled or
 * revoked tenant is not refused: erasure is a legal obligation that outlives the tenant's access.
 */
export async function usersErase(store: Store, io: Io, request: EraseRequest, batchSize: number): Promise<void> {
  const tenant = await chosenTenant(store, request.tenant);
  const jobId = newErasureJobId();
  const activity = erasureActivity(timeOrderedUuid(), OPERATOR_ACTOR, jobId, request.userIds.length, request.organizationIds);
  const tasksCount = await store.eraseUserData(tenant.id, request.organizationIds, request.userIds, batchSize, {
    jobId,
    now: systemClock,
    activity,
  });
  json(io, { jobId, tasksCount });
}
