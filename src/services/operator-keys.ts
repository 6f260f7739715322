// What an operator does to tenants and their credentials (docs/api.md, "Credentials"): `marginalia keys ...` and
// `tokens ...` (cli/commands.ts) and the admin console (admin/) do the same thing through these, each recorded in
// the tenant's activity log as the operator's.
import type { Clock } from '../clock.js';
import { ApiError, invalid } from '../errors.js';
import type { Tenant, TenantListing } from '../domain/credentials.js';
import type { Maybe } from '../maybe.js';
import { newAuthToken } from '../domain/ids.js';
import type { Store } from '../store/store.js';
import { recordOperatorAction } from './activities.js';
import { rotateSigningKey } from './end-user-tokens.js';
import { createTenant, hashToken, type IssuedCredentials, tokenRecord } from './credentials.js';

/** Every tenant with its tokens (by prefix), as `marginalia keys list` shows them. */
export function listTenants(store: Store): Maybe<TenantListing[]> {
  return store.listTenants();
}

/** The tenant with this internal id: what the admin console's paths name. */
export async function tenantById(store: Store, tenantId: string): Promise<Tenant> {
  const tenant = (await store.listTenants()).find((t) => t.id === tenantId);
  if (!tenant) throw new ApiError('NOT_FOUND', `No tenant ${tenantId}.`);
  return tenant;
}

/** A new tenant with its API key and first auth token (shown once: only the token's hash is kept). */
export async function createTenantAsOperator(store: Store, clock: Clock, name: string): Promise<IssuedCredentials> {
  const creds = await createTenant(store, clock, name);
  const found = await store.findCredentials(creds.apiKey);
  if (found) await recordOperatorAction(store, clock, found.tenant.id, 'operator.key_create', creds.apiKey, { name });
  return creds;
}

/** A new auth token beside the key's others (rotation: issue one, move callers to it, revoke the old one). */
export async function issueAuthToken(store: Store, clock: Clock, tenant: Tenant): Promise<string> {
  if (tenant.revoked)
    throw new ApiError('FAILED_PRECONDITION', `API key ${tenant.apiKey} is revoked; it cannot take new tokens.`);
  const authToken = newAuthToken();
  const record = tokenRecord(authToken, clock());
  await store.addToken(tenant.id, record);
  await recordOperatorAction(store, clock, tenant.id, 'operator.token_create', tenant.apiKey, { prefix: record.prefix });
  return authToken;
}

/** Revokes the one active token that the prefix (or whole token) names; answers its prefix. */
export async function revokeAuthToken(store: Store, clock: Clock, tenant: Tenant, prefix: string): Promise<string> {
  if (prefix.length < 4) throw invalid('Give at least 4 characters of the token.');
  const active = (await store.listTokens(tenant.id)).filter((t) => !t.revoked);
  const whole = active.filter((t) => t.hash === hashToken(prefix));
  const matches = whole.length > 0 ? whole : active.filter((t) => t.prefix.startsWith(prefix) || prefix.startsWith(t.prefix));
  if (matches.length === 0) throw new ApiError('NOT_FOUND', `No active token of ${tenant.apiKey} starts with ${prefix}.`);
  if (matches.length > 1)
    throw new ApiError(
      'FAILED_PRECONDITION',
      `${matches.length} active tokens start with ${prefix}; give more characters or the whole token.`,
    );
  const token = matches[0]!;
  await store.revokeToken(tenant.id, token.hash, clock());
  await recordOperatorAction(store, clock, tenant.id, 'operator.token_revoke', tenant.apiKey, { prefix: token.prefix });
  return token.prefix;
}

/**
 * A new end-user token signing key for the tenant (docs/operations.md, "Secrets at rest"): tokens signed with the old
 * one are refused from the next request on. Null when the tenant never issued a token (its first token makes one).
 */
export async function rotateTokenSigningKey(store: Store, clock: Clock, tenant: Tenant): Promise<string | null> {
  const kid = await rotateSigningKey(store, clock, tenant.id);
  if (kid !== null) await recordOperatorAction(store, clock, tenant.id, 'operator.signing_key_rotate', tenant.apiKey, { kid });
  return kid;
}

/** Revokes the API key for good: every request with it is refused from then on. */
export async function revokeApiKey(store: Store, clock: Clock, tenant: Tenant): Promise<void> {
  if (!(await store.revokeTenant(tenant.apiKey, clock()))) throw new ApiError('NOT_FOUND', `No API key ${tenant.apiKey}.`);
  await recordOperatorAction(store, clock, tenant.id, 'operator.key_revoke', tenant.apiKey, {});
}
