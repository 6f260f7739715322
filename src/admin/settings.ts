// The admin console's settings' bounds (config/index.ts declares the settings from them).

/**
 * The shortest admin token taken: the token is the console's only secret, and a login can be tried
 * again and again, so it must be too long to guess (32 hex characters are 128 bits).
 */
export const MIN_ADMIN_TOKEN_LENGTH = 32;
export const DEFAULT_ADMIN_SESSION_HOURS = 12;

/** Why MARGINALIA_ADMIN_TOKEN is refused, or null. */
export function adminTokenProblem(raw: string): string | null {
  if (raw.length < MIN_ADMIN_TOKEN_LENGTH || raw.length > 1024 || !/^[\x21-\x7e]+$/.test(raw))
    return `MARGINALIA_ADMIN_TOKEN must be ${MIN_ADMIN_TOKEN_LENGTH} to 1024 visible ASCII characters without spaces.`;
  return null;
}
