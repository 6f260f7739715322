// Operator commands on the database that DATABASE_URL names (SPEC 2.1). Each prints JSON on stdout
// so scripts can read it; problems go to stderr with a non-zero exit code.
import { systemClock } from '../clock.js';
import { createTenant, hashToken, tokenRecord } from '../services/credentials.js';
import { newAuthToken } from '../services/ids.js';
import type { Store, Tenant } from '../store/store.js';

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

const json = (io: Io, value: unknown) => io.out(JSON.stringify(value, null, 2));

async function tenantByKey(store: Store, apiKey: string): Promise<Tenant> {
  const found = await store.findCredentials(apiKey);
  if (!found) throw new CliError(`No API key ${apiKey}.`);
  return found.tenant;
}

export async function keysCreate(store: Store, io: Io, name: string): Promise<void> {
  const creds = await createTenant(store, systemClock, name);
  io.out(JSON.stringify(creds));
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
  if (!(await store.revokeTenant(apiKey, systemClock()))) throw new CliError(`No API key ${apiKey}.`);
  json(io, { apiKey, revoked: true });
}

export async function keysSetDisabled(store: Store, io: Io, apiKey: string, disabled: boolean): Promise<void> {
  if (!(await store.setTenantDisabled(apiKey, disabled))) throw new CliError(`No API key ${apiKey}.`);
  json(io, { apiKey, disabled });
}

export async function tokensCreate(store: Store, io: Io, apiKey: string): Promise<void> {
  const tenant = await tenantByKey(store, apiKey);
  if (tenant.revoked) throw new CliError(`API key ${apiKey} is revoked; it cannot take new tokens.`);
  const authToken = newAuthToken();
  await store.addToken(tenant.id, tokenRecord(authToken, systemClock()));
  io.out(JSON.stringify({ apiKey, authToken }));
}

/** Revokes the one active token that the given prefix (or whole token) names. */
export async function tokensRevoke(store: Store, io: Io, apiKey: string, prefix: string): Promise<void> {
  if (prefix.length < 4) throw new CliError('Give at least 4 characters of the token.', 2);
  const tenant = await tenantByKey(store, apiKey);
  const active = (await store.listTokens(tenant.id)).filter((t) => !t.revoked);
  const whole = active.filter((t) => t.hash === hashToken(prefix));
  const matches = whole.length > 0 ? whole : active.filter((t) => t.prefix.startsWith(prefix) || prefix.startsWith(t.prefix));
  if (matches.length === 0) throw new CliError(`No active token of ${apiKey} starts with ${prefix}.`);
  if (matches.length > 1)
    throw new CliError(`${matches.length} active tokens start with ${prefix}; give more characters or the whole token.`);
  await store.revokeToken(tenant.id, matches[0]!.hash, systemClock());
  json(io, { apiKey, prefix: matches[0]!.prefix, revoked: true });
}
