// Tenants and their credentials (operator side: keyed by API key, not tenant id). Every change to them
// bumps the credentials version in the same transaction.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { Credentials, Tenant, TenantListing, TokenRecord } from '../../domain/credentials.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import * as credentials from './credentials.js';

export const credentialsStore = (core: StoreCore) => ({
  // Tenants and credentials (operator side: keyed by API key, not tenant id). Every change to them
  // bumps the credentials version in the same transaction.
  /** A number that changes whenever any key or token changes: lets a process cache authentication safely. */
  credentialsVersion(): Maybe<number> {
    return core.query('credentialsVersion', credentials.version());
  },

  countTenants(): Maybe<number> {
    return core.read('countTenants', () => credentials.countTenants());
  },

  createTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Maybe<void> {
    return core.write('createTenant', () => credentials.createTenant(tenant, token));
  },

  /** Creates the tenant only while there is none (first start); false when one exists. Safe when instances start together. */
  createFirstTenant(tenant: Omit<Tenant, 'disabled' | 'revoked'>, token: TokenRecord): Maybe<boolean> {
    return core.write('createFirstTenant', () => credentials.createFirstTenant(tenant, token));
  },

  findCredentials(apiKey: string): Maybe<Credentials | null> {
    return core.read('findCredentials', () => credentials.find(apiKey));
  },

  /** findCredentials, seeing every commit made before it by any process (a key the CLI just made). */
  findLatestCredentials(apiKey: string): Maybe<Credentials | null> {
    return core.readLatest('findLatestCredentials', () => credentials.find(apiKey));
  },

  listTenants(): Maybe<TenantListing[]> {
    return core.read('listTenants', () => credentials.listTenants());
  },

  /** Returns false when no such key exists. */
  revokeTenant(apiKey: string, at: number): Maybe<boolean> {
    return core.write('revokeTenant', () => credentials.revokeTenant(apiKey, at));
  },

  setTenantDisabled(apiKey: string, disabled: boolean): Maybe<boolean> {
    return core.write('setTenantDisabled', () => credentials.setTenantDisabled(apiKey, disabled));
  },

  addToken(tenantId: string, token: TokenRecord): Maybe<void> {
    return core.write('addToken', () => credentials.addToken(tenantId, token));
  },

  listTokens(tenantId: string): Maybe<(TokenRecord & { revoked: boolean })[]> {
    return core.read('listTokens', () => credentials.listTokens(tenantId));
  },

  revokeToken(tenantId: string, tokenHash: string, at: number): Maybe<boolean> {
    return core.write('revokeToken', () => credentials.revokeToken(tenantId, tokenHash, at));
  },
});

export type CredentialsStore = ReturnType<typeof credentialsStore>;
