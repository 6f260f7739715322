// Tenants, API keys and auth tokens (docs/api.md, "Credentials"). Tokens are kept only as SHA-256 hashes: generated
// tokens carry 256 random bits, so a slow password hash would add latency to every request and no
// safety. Comparison is constant-time over every active token of the key.
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ApiError, BAD_CREDENTIALS } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { Store } from '../store/store.js';
import type { Credentials, Tenant, TokenRecord } from '../domain/credentials.js';
import { newApiKey, newAuthToken, newTenantId } from '../domain/ids.js';
import { sha256 } from '../domain/sha256.js';

export interface IssuedCredentials {
  apiKey: string;
  authToken: string;
}

export function hashToken(token: string): string {
  return sha256(token, 'hex');
}

/** Enough of a token to tell it apart in `keys list`, never enough to weaken it: at most a quarter of it. */
export function tokenPrefix(token: string): string {
  return token.slice(0, Math.min(11, Math.floor(token.length / 4)));
}

export function tokenRecord(token: string, now: number): TokenRecord {
  return { hash: hashToken(token), prefix: tokenPrefix(token), createdAt: now };
}

/** A new tenant and the record of its first token, for the store to create. */
function tenantWithToken(name: string, creds: IssuedCredentials, now: number) {
  return [{ id: newTenantId(), apiKey: creds.apiKey, name, createdAt: now }, tokenRecord(creds.authToken, now)] as const;
}

const newCredentials = (): IssuedCredentials => ({ apiKey: newApiKey(), authToken: newAuthToken() });

export async function createTenant(
  store: Store,
  clock: Clock,
  name: string,
  given?: IssuedCredentials,
): Promise<IssuedCredentials> {
  const creds = given ?? newCredentials();
  await store.createTenant(...tenantWithToken(name, creds, clock()));
  return creds;
}

/** First start: a tenant named "default", unless the database has one already (then null). */
export async function createFirstTenant(store: Store, clock: Clock): Promise<IssuedCredentials | null> {
  const creds = newCredentials();
  return (await store.createFirstTenant(...tenantWithToken('default', creds, clock()))) ? creds : null;
}

// Compared against when the key is unknown, so an unknown key costs the same time as a wrong token.
const DECOY_HASH = hashToken('decoy');

/**
 * Successful authentications of this process, valid while the store's credentials version stays the
 * same: any change to any key or token (by this process, another instance or the CLI) empties it
 * before the next request is checked. Keyed by the token's hash, never the token. Failures are not
 * kept, so guessing costs the database every time and cannot fill memory.
 */
export class AuthCache {
  private static readonly MAX_ENTRIES = 10_000;
  private version = -1;
  private readonly tenants = new Map<string, Tenant>();

  /** The cached tenant for (apiKey, tokenHash) under this credentials version, if any. */
  get(version: number, apiKey: string, tokenHash: string): Tenant | undefined {
    if (version !== this.version) {
      this.tenants.clear();
      this.version = version;
      return undefined;
    }
    return this.tenants.get(`${apiKey}\n${tokenHash}`);
  }

  /**
   * The tenant held for (apiKey, tokenHash) under the newest version this cache has seen, without
   * asking the store which version is current: whoever admits a request on it must have the database
   * confirm that version before the request's answer leaves (http/auth.ts).
   */
  held(apiKey: string, tokenHash: string): { tenant: Tenant; version: number } | undefined {
    const tenant = this.tenants.get(`${apiKey}\n${tokenHash}`);
    return tenant && { tenant, version: this.version };
  }

  set(version: number, apiKey: string, tokenHash: string, tenant: Tenant): void {
    if (version !== this.version) return;
    if (this.tenants.size >= AuthCache.MAX_ENTRIES) this.tenants.clear();
    this.tenants.set(`${apiKey}\n${tokenHash}`, tenant);
  }
}

/**
 * The tenant behind a key and token, or the 401/403 of docs/api.md "Credentials" (thrown, or a rejection on
 * PostgreSQL). On SQLite it answers synchronously, cache hit or not (maybe.ts).
 */
export function authenticate(store: Store, apiKey: string, authToken: string, cache?: AuthCache): Maybe<Tenant> {
  return authenticateHashed(store, apiKey, hashToken(authToken), cache);
}

/** authenticate, for a caller that has hashed the token already. */
export function authenticateHashed(store: Store, apiKey: string, tokenHash: string, cache?: AuthCache): Maybe<Tenant> {
  if (!cache)
    return then(store.findCredentials(apiKey), (found) =>
      matches(found, tokenHash) ? check(found, tokenHash) : again(store, apiKey, tokenHash),
    );
  return then(store.credentialsVersion(), (version) => {
    const cached = cache.get(version, apiKey, tokenHash);
    if (cached) return cached;
    return then(store.findCredentials(apiKey), (found) => {
      if (!matches(found, tokenHash)) return again(store, apiKey, tokenHash);
      const tenant = check(found, tokenHash);
      cache.set(version, apiKey, tokenHash, tenant);
      return tenant;
    });
  });
}

/**
 * Credentials that did not match are read once more, seeing every commit made before (store:
 * findLatestCredentials): on SQLite a turn's reads share one snapshot, and a key another process (the CLI,
 * a second instance) made since the turn began is not in it. Only refusals pay this second read.
 */
function again(store: Store, apiKey: string, tokenHash: string): Maybe<Tenant> {
  return then(store.findLatestCredentials(apiKey), (found) => check(found, tokenHash));
}

/** Whether a key is found and takes the token, unrevoked (check's first rule, without its answer). */
function matches(found: Credentials | null, tokenHash: string): boolean {
  if (!found || found.tenant.revoked) return false;
  const given = Buffer.from(tokenHash, 'hex');
  let match = false;
  // No early exit, as in check.
  for (const hash of found.activeTokenHashes) if (timingSafeEqual(given, Buffer.from(hash, 'hex'))) match = true;
  return match;
}

function check(found: Credentials | null, tokenHash: string): Tenant {
  const given = Buffer.from(tokenHash, 'hex');
  let match = false;
  for (const hash of found?.activeTokenHashes.length ? found.activeTokenHashes : [DECOY_HASH]) {
    // No early exit: every active token is compared, whichever matches.
    if (timingSafeEqual(given, Buffer.from(hash, 'hex'))) match = true;
  }
  if (!found || !match || found.tenant.revoked) throw new ApiError('UNAUTHENTICATED', BAD_CREDENTIALS);
  if (found.tenant.disabled) throw new ApiError('PERMISSION_DENIED', 'This tenant is disabled.');
  return found.tenant;
}

/**
 * docs/api.md "Credentials": with MARGINALIA_API_KEY and MARGINALIA_AUTH_TOKEN set, make sure the key exists and
 * takes the token. A key an operator revoked or disabled stays so: the environment does not undo that.
 */
export async function ensureBootstrapCredentials(
  store: Store,
  clock: Clock,
  creds: IssuedCredentials,
): Promise<'created' | 'token_added' | 'present' | 'revoked' | 'disabled' | 'token_revoked'> {
  const found = await store.findCredentials(creds.apiKey);
  if (!found) {
    try {
      await createTenant(store, clock, 'bootstrap', creds);
      return 'created';
    } catch (err) {
      // Another instance starting at the same moment created it first: fall through to the checks below.
      if (!(await store.findCredentials(creds.apiKey))) throw err;
      return ensureBootstrapCredentials(store, clock, creds);
    }
  }
  if (found.tenant.revoked) return 'revoked';
  if (found.tenant.disabled) return 'disabled';
  const hash = hashToken(creds.authToken);
  if (found.activeTokenHashes.includes(hash)) return 'present';
  // A token an operator revoked stays revoked, like a revoked key.
  if ((await store.listTokens(found.tenant.id)).some((t) => t.hash === hash)) return 'token_revoked';
  await store.addToken(found.tenant.id, tokenRecord(creds.authToken, clock()));
  return 'token_added';
}
