// Unsubscribe links (docs/api.md, "GET /email/unsubscribe"): a token naming the tenant, organization and user,
// with an expiry, signed with HMAC-SHA256 under the tenant's own key (email_secrets, made on first use). Anyone
// holding a mail can follow its link without logging in; nobody without the key can make one for another user.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a link works: long enough for an old mail, short enough that a leaked one ends. */
export const UNSUBSCRIBE_TOKEN_DAYS = 90;

export interface UnsubscribeClaims {
  tenantId: string;
  organizationId: string;
  userId: string;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const mac = (secret: string, payload: string) => createHmac('sha256', Buffer.from(secret, 'base64url')).update(payload).digest();

/** A new tenant key: 32 random bytes. */
export const newUnsubscribeSecret = (): string => randomBytes(32).toString('base64url');

export function signUnsubscribe(claims: UnsubscribeClaims, secret: string): string {
  const payload = b64(JSON.stringify({ t: claims.tenantId, o: claims.organizationId, u: claims.userId, x: claims.expiresAt }));
  return `u1.${payload}.${b64(mac(secret, payload))}`;
}

/** What a token says, unverified (the tenant names the key to verify it with); null: not a token at all. */
export function readUnsubscribe(token: string): { claims: UnsubscribeClaims; payload: string; signature: Buffer } | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'u1' || token.length > 4096) return null;
  try {
    const c = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof c.t !== 'string' || typeof c.o !== 'string' || typeof c.u !== 'string' || typeof c.x !== 'number') return null;
    return {
      claims: { tenantId: c.t, organizationId: c.o, userId: c.u, expiresAt: c.x },
      payload: parts[1]!,
      signature: Buffer.from(parts[2]!, 'base64url'),
    };
  } catch {
    return null;
  }
}

export type UnsubscribeCheck =
  | { ok: true; claims: UnsubscribeClaims }
  | { ok: false; why: 'malformed' | 'signature' | 'expired' };

/** Verifies a token against the tenant's key (null: the tenant has none, so no token of it can be good). */
export function verifyUnsubscribe(token: string, secretOf: (tenantId: string) => string | null, now: number): UnsubscribeCheck {
  const read = readUnsubscribe(token);
  if (!read) return { ok: false, why: 'malformed' };
  const secret = secretOf(read.claims.tenantId);
  const expected = secret === null ? null : mac(secret, read.payload);
  if (expected === null || expected.length !== read.signature.length || !timingSafeEqual(expected, read.signature))
    return { ok: false, why: 'signature' };
  if (read.claims.expiresAt <= now) return { ok: false, why: 'expired' };
  return { ok: true, claims: read.claims };
}

/** The link for a mail: `<public url>/email/unsubscribe?token=...`. */
export function unsubscribeUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/email/unsubscribe?token=${encodeURIComponent(token)}`;
}
