// End-user tokens (docs/api.md, "POST /v1/auth/token/get" and "POST /v2/auth/generate_token"): auth/token/get
// and v2's auth/generate_token sign a JWT for one user of one organization of the tenant (v2's also carries the
// resources the user may access), and the event stream verifies it. Each tenant signs with its own secret (HMAC-SHA256,
// 32 random bytes made on first use and stored: a hash of it could not sign), read each time it is used. A token
// names its tenant (`tid`) and its key (`kid` in the header: an operator's rotation refuses the old key's tokens);
// the verifier looks the secret up by `tid` and only then verifies, so a token claiming tenant B but
// signed with A's secret fails like any tampered one.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { ApiError } from '../errors.js';
import { type AuthTokenData, type GenerateTokenData, MAX_END_USER_TOKEN_LENGTH } from '../schemas/auth.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import type { SigningKey, Tenant } from '../domain/credentials.js';
import type { Caller, Services } from './context.js';
import { grantsOf } from './role-grants.js';
import { organizationOfResource, resourcesOfClaim, type TokenResource, tokenResource } from './token-resources.js';

/** How long an end-user token is valid. */
export const END_USER_TOKEN_TTL_SECONDS = 48 * 60 * 60;
const ALGORITHM = 'HS256';
/** The one answer to every token that does not check out: it tells nothing of why. */
const INVALID = 'The end-user token is invalid or expired.';

/** What a verified token says. */
export interface EndUserClaims {
  tenantId: string;
  userId: string;
  organizationId: string;
  email?: string;
  name?: string;
  isAdmin?: boolean;
  /** The resources a v2 token names, with their roles (token-resources.ts); absent in a v1 token. */
  resources?: TokenResource[];
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
  tokenId: string;
}

interface HeldKey {
  kid: string;
  secret: Uint8Array;
}

/** How many verified tokens a process holds by default (MARGINALIA_END_USER_TOKEN_CACHE). */
export const DEFAULT_END_USER_TOKEN_CACHE = 10_000;

/**
 * Tokens this process verified, per store, by the token's text, with the key that verified them: a request with the
 * same text again skips decoding and the signature (the costliest part of an end-user request, bench/README.md). A
 * token that differs by one character is another entry, so nothing forged can hit; the tenant's key is still read
 * each time (revocation, a key's kid), and expiry checked.
 */
const verified = new WeakMap<Store, Map<string, { kid: string; claims: EndUserClaims }>>();

/** A stored key as jose signs and verifies with it. */
const asHeld = (key: SigningKey): HeldKey => ({ kid: key.kid, secret: Buffer.from(key.secret, 'hex') });

/**
 * The tenant's key, made (32 random bytes) and stored on first use. Read on every use, never held: an
 * operator may replace it (`marginalia keys rotate-signing-key`), and a process signing with the key before
 * would make tokens that every process refuses.
 */
async function keyToSign({ store, clock }: Services, tenantId: string): Promise<HeldKey> {
  const found = await store.findSigningKey(tenantId);
  if (found) return asHeld(found);
  return asHeld(await store.ensureSigningKey(tenantId, newSigningKey(clock)));
}

const newSigningKey = (clock: Clock): SigningKey => ({
  kid: randomBytes(8).toString('hex'),
  secret: randomBytes(32).toString('hex'),
  createdAt: clock(),
});

/**
 * A new signing key for the tenant, in place of the one it has (docs/operations.md, "Secrets at rest"): every
 * token signed with the old one is refused from the next request on, in every process (each reads the key's kid
 * per request); apps fetch new tokens. Answers the new key's kid, or null when the tenant never had a key.
 */
export async function rotateSigningKey(store: Store, clock: Clock, tenantId: string): Promise<string | null> {
  const key = newSigningKey(clock);
  return (await store.replaceSigningKey(tenantId, key)) ? key.kid : null;
}

/**
 * A key of the tenant's for one purpose other than tokens (auth/generate_signature's is 'permission-provider'):
 * derived from its signing key (HMAC-SHA256 of the purpose), so one stored secret serves each use apart and
 * a signature of one kind can never pass for another.
 */
export async function signingSecret(services: Services, tenantId: string, purpose: string): Promise<Buffer> {
  const key = await keyToSign(services, tenantId);
  return createHmac('sha256', key.secret).update(`marginalia:${purpose}`).digest();
}

/**
 * The tenant's key, or null when it has none (it never issued a token, or does not exist) or the
 * tenant is disabled or revoked: read each time (a stream opens once), so a revocation holds at once.
 */
async function keyToVerify(store: Store, tenantId: string): Promise<{ key: HeldKey; tenant: Tenant } | null> {
  const found = await store.findSigningKey(tenantId);
  return found?.tenant && !found.tenantRefused ? { key: asHeld(found), tenant: found.tenant } : null;
}

/** An open token stream's check (events/credential-watch.ts): its tenant still takes tokens, or 401. */
export async function checkTokenTenant(store: Store, tenantId: string): Promise<void> {
  if (!(await keyToVerify(store, tenantId))) throw invalid();
}

/** The properties a token may carry of its user: each only when given (null is absent). */
interface UserClaims {
  email?: string | null | undefined;
  name?: string | null | undefined;
  isAdmin?: boolean | null | undefined;
}

/** The one way a token is made, whichever operation asks: `claims` of `userId` in `organizationId`, signed. */
async function sign(
  services: Services,
  caller: Caller,
  userId: string,
  organizationId: string,
  { email, name, isAdmin }: UserClaims,
  more: Record<string, unknown> = {},
): Promise<string> {
  const key = await keyToSign(services, caller.id);
  const claims: Record<string, unknown> = { tid: caller.id, org: organizationId };
  if (email != null) claims.email = email;
  if (name != null) claims.name = name;
  if (isAdmin != null) claims.isAdmin = isAdmin;
  const now = Math.floor(services.clock() / 1000);
  return new SignJWT({ ...claims, ...more })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid: key.kid })
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(now + END_USER_TOKEN_TTL_SECONDS)
    .setJti(randomUUID())
    .sign(key.secret);
}

/** auth/token/get: a token for `userId` in the organization, with the properties given. */
export async function issueEndUserToken(services: Services, caller: Caller, input: AuthTokenData): Promise<{ token: string }> {
  return { token: await sign(services, caller, input.userId, input.userProperties.organizationId, input.userProperties) };
}

/**
 * v2's auth/generate_token (and /v2/auth/token/get): v1's token, whose organization is the first resource's
 * (its stream's share, as v1's), with every resource and its role in the `res` claim. A token longer than
 * the event stream takes is refused rather than issued unusable.
 */
export async function issueResourceToken(
  services: Services,
  caller: Caller,
  input: GenerateTokenData,
): Promise<{ token: string }> {
  const resources = input.permissions.resources.map(tokenResource);
  const organizationId = organizationOfResource(resources[0]!);
  const token = await sign(services, caller, input.userId, organizationId, input.userProperties, { res: resources });
  if (token.length > MAX_END_USER_TOKEN_LENGTH)
    throw new ApiError(
      'INVALID_ARGUMENT',
      `data.permissions.resources: the token would be ${token.length} characters, more than the ` +
        `${MAX_END_USER_TOKEN_LENGTH} an end-user token may have; name fewer resources, or shorter ids.`,
    );
  // The roles are the user's from now on (docs/decisions.md, "Permissions"), not only the token's.
  await services.store.grantRoles(caller.id, grantsOf(input.userId, input.permissions.resources), services.clock());
  return { token };
}

const invalid = () => new ApiError('UNAUTHENTICATED', INVALID);
const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * The claims of a token auth/token/get issued, after checking its signature under the secret of the
 * tenant it names, its algorithm (HS256 only) and its lifetime (by the services' clock). Every failure
 * is UNAUTHENTICATED with one message.
 */
export async function verifyEndUserToken(services: Services, token: string): Promise<EndUserClaims> {
  return (await authenticateEndUser(services, token)).claims;
}

/**
 * An end-user request's token (docs/api.md, "End users"): its claims, checked as verifyEndUserToken checks them, and
 * the tenant it is a request of, read in the same statement as its key (so a revoked tenant is refused at once).
 */
export async function authenticateEndUser(
  { store, clock, endUserTokenCache = DEFAULT_END_USER_TOKEN_CACHE }: Services,
  token: string,
): Promise<{ tenant: Tenant; claims: EndUserClaims }> {
  let held = verified.get(store);
  if (!held) {
    held = new Map();
    verified.set(store, held);
  }
  const known = held.get(token);
  if (known) {
    const found = await keyToVerify(store, known.claims.tenantId);
    if (!found || found.key.kid !== known.kid) throw invalid();
    // As jwtVerify judges it: expired once now reaches exp.
    if (Math.floor(clock() / 1000) >= known.claims.expiresAt) {
      held.delete(token);
      throw invalid();
    }
    return { tenant: found.tenant, claims: known.claims };
  }
  let tenantId: unknown;
  let kid: unknown;
  try {
    tenantId = decodeJwt(token).tid;
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw invalid();
  }
  if (!str(tenantId)) throw invalid();
  const found = await keyToVerify(store, tenantId);
  if (!found || kid !== found.key.kid) throw invalid();
  const { key, tenant } = found;
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key.secret, {
      algorithms: [ALGORITHM],
      currentDate: new Date(clock()),
      requiredClaims: ['sub', 'iat', 'exp', 'jti'],
    }));
  } catch {
    throw invalid();
  }
  const { sub, org, tid, email, name, isAdmin, res, iat, exp, jti } = payload;
  if (tid !== tenantId || !str(sub) || !str(org) || typeof iat !== 'number' || typeof exp !== 'number' || !str(jti))
    throw invalid();
  const resources = res === undefined ? undefined : resourcesOfClaim(res);
  if (resources === null) throw invalid();
  const claims: EndUserClaims = {
    tenantId,
    userId: sub,
    organizationId: org,
    ...(typeof email === 'string' ? { email } : {}),
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof isAdmin === 'boolean' ? { isAdmin } : {}),
    ...(resources ? { resources } : {}),
    issuedAt: iat,
    expiresAt: exp,
    tokenId: jti,
  };
  if (endUserTokenCache > 0) {
    // The oldest held is let go first (a Map keeps insertion order).
    if (held.size >= endUserTokenCache) held.delete(held.keys().next().value!);
    held.set(token, { kid: key.kid, claims });
  }
  return { tenant, claims };
}
