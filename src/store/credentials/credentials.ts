// Store code for tenants, API keys and auth tokens (operator side: keyed by API key). Every change
// bumps the credentials version in the same transaction, so a process may cache authentication and
// still see a revocation on the very next request.
import { all, first, type Query, query, run, type Work } from '../sql.js';
import type { Credentials, Tenant, TenantListing, TokenRecord } from '../../domain/credentials.js';
import { credentialsFrom, tenantFrom, tokenFrom, tokenListingFrom } from './rows.js';
import { CREDENTIALS_SQL as SQL } from './sql.js';

export type NewTenant = Omit<Tenant, 'disabled' | 'revoked'>;

export const version = (): Query<number> => query(SQL.version, {}, true, (rows) => Number((rows as unknown[][])[0]![0]));

export function* countTenants(): Work<number> {
  return Number((yield* first(SQL.countTenants))!.n);
}

/** A change to keys or tokens: the change, then the version bump, in the caller's transaction. */
export function* changing<T>(change: Work<T>): Work<T> {
  const result = yield* change;
  yield* run(SQL.bumpVersion);
  return result;
}

export function* insertTenant(tenant: NewTenant, token: TokenRecord | null): Work<void> {
  yield* run(SQL.insertTenant, {
    id: tenant.id,
    apiKey: tenant.apiKey,
    name: tenant.name,
    disabled: false,
    createdAt: tenant.createdAt,
  });
  // workspace/apikey/create without createAuthToken makes a key with no token yet.
  if (token) yield* run(SQL.insertToken, { tenantId: tenant.id, ...token });
}

export const createTenant = (tenant: NewTenant, token: TokenRecord): Work<void> => changing(insertTenant(tenant, token));

export function createFirstTenant(tenant: NewTenant, token: TokenRecord): Work<boolean> {
  return changing(
    (function* () {
      yield* first(SQL.firstTenantLock);
      if ((yield* countTenants()) > 0) return false;
      yield* insertTenant(tenant, token);
      return true;
    })(),
  );
}

export function* find(apiKey: string): Work<Credentials | null> {
  return credentialsFrom(yield* all(SQL.byKey, { apiKey }));
}

export function* listTenants(): Work<TenantListing[]> {
  const tenants = (yield* all(SQL.allTenants)).map((r) => ({ ...tenantFrom(r), tokens: [] as TenantListing['tokens'] }));
  const byId = new Map(tenants.map((t) => [t.id, t]));
  for (const t of yield* all(SQL.allTokens)) byId.get(t.tenant_id as string)?.tokens.push(tokenListingFrom(t));
  return tenants;
}

export const revokeTenant = (apiKey: string, at: number): Work<boolean> =>
  changing(
    (function* () {
      return (yield* run(SQL.revokeTenant, { apiKey, at })) > 0;
    })(),
  );

export const setTenantDisabled = (apiKey: string, disabled: boolean): Work<boolean> =>
  changing(
    (function* () {
      return (yield* run(SQL.setDisabled, { apiKey, disabled })) > 0;
    })(),
  );

export const addToken = (tenantId: string, token: TokenRecord): Work<void> =>
  changing(
    (function* () {
      yield* run(SQL.insertToken, { tenantId, ...token });
    })(),
  );

export function* listTokens(tenantId: string): Work<(TokenRecord & { revoked: boolean })[]> {
  return (yield* all(SQL.tokensOf, { tenantId })).map(tokenFrom);
}

export const revokeToken = (tenantId: string, hash: string, at: number): Work<boolean> =>
  changing(
    (function* () {
      return (yield* run(SQL.revokeToken, { tenantId, hash, at })) > 0;
    })(),
  );

/** The write readiness makes while writes are being refused, to learn when they are taken again. */
export function* probeWrite(): Work<void> {
  yield* run(SQL.readinessProbe);
}
