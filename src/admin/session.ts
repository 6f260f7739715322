// The admin console's login and sessions (docs/operations.md, "Admin console"). Stateless: a session is a
// signed value in a cookie, under a key derived from MARGINALIA_ADMIN_TOKEN, so nothing is stored, every
// instance accepts every instance's sessions, and changing the token ends them all. Each session has a
// CSRF token of its own (derived from its id) that every form carries back.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { sha256 } from '../domain/sha256.js';

export const SESSION_COOKIE = 'marginalia_admin';
export const ADMIN_PREFIX = '/admin';
const AUDIENCE = 'marginalia-admin';

export interface AdminSession {
  id: string;
  expiresAt: number;
}

export class AdminSessions {
  private readonly key: Uint8Array;
  private readonly tokenDigest: Buffer;

  constructor(
    token: string,
    private readonly hours: number,
  ) {
    // Its own purpose string: the key signs nothing else, and the token itself is never a key.
    this.key = createHmac('sha256', token).update('marginalia admin session key').digest();
    this.tokenDigest = Buffer.from(sha256(token, 'hex'), 'hex');
  }

  /** Whether the given text is the admin token, in the same time whatever it is (digests of equal length). */
  isToken(given: string): boolean {
    return timingSafeEqual(Buffer.from(sha256(given, 'hex'), 'hex'), this.tokenDigest);
  }

  /** A new session's cookie value and how long it lives, in seconds. */
  async open(now: number): Promise<{ value: string; maxAge: number }> {
    const maxAge = this.hours * 3600;
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(randomBytes(16).toString('base64url'))
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(now / 1000) + maxAge)
      .sign(this.key);
    return { value, maxAge };
  }

  /** The session a cookie value holds, or null: absent, forged, signed under another token, or expired. */
  async read(value: string | undefined, now: number): Promise<AdminSession | null> {
    if (!value) return null;
    try {
      const { payload } = await jwtVerify(value, this.key, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
        currentDate: new Date(now),
      });
      if (typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
      return { id: payload.jti, expiresAt: payload.exp * 1000 };
    } catch {
      return null;
    }
  }

  /** The session's CSRF token: only the holder of the session (and of the key) can know it. */
  csrfOf(session: AdminSession): string {
    return createHmac('sha256', this.key).update(`csrf\n${session.id}`).digest('base64url');
  }

  isCsrf(session: AdminSession, given: unknown): boolean {
    if (typeof given !== 'string') return false;
    const expected = Buffer.from(this.csrfOf(session));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}

/** The cookie's attributes: never readable by script, never sent from another site's page, only to /admin. */
export function sessionCookie(value: string, maxAge: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=${ADMIN_PREFIX}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** A cookie header's value of the session cookie, if it has one. */
export function sessionCookieOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}
