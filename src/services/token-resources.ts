// The resources a v2 end-user token carries (docs/api.md, "POST /v2/auth/generate_token"): the `res` claim,
// written when the token is issued and read back, checked member by member, when it is verified. Issuing the
// token also gives the user those roles (services/role-grants.ts), which the access check reads.
import { type AccessRole, DEFAULT_ACCESS_ROLE, type ResourceKind } from '../domain/access.js';
import type { TokenResourceIn } from '../schemas/auth.js';

export type { AccessRole } from '../domain/access.js';
export type ResourceType = ResourceKind;

/** A resource as the token holds it: its role resolved (editor when none was given). */
export interface TokenResource {
  type: ResourceType;
  id: string;
  /** A folder's or a document's organization; absent for an organization, which is its own. */
  organizationId?: string;
  accessRole: AccessRole;
  /** When the role ends, as the caller gave it (a Unix timestamp); absent: it does not. */
  expiresAt?: number;
}

const TYPES: ReadonlySet<unknown> = new Set<ResourceType>(['organization', 'folder', 'document']);
const ROLES: ReadonlySet<unknown> = new Set<AccessRole>(['viewer', 'editor']);

/** A request's resource as the token holds it. */
export function tokenResource(r: TokenResourceIn): TokenResource {
  return {
    type: r.type,
    id: r.id,
    // The schema requires it for a folder and a document; an organization's own is its id.
    ...(r.type !== 'organization' ? { organizationId: r.organizationId! } : {}),
    accessRole: r.accessRole ?? DEFAULT_ACCESS_ROLE,
    ...(r.expiresAt != null ? { expiresAt: r.expiresAt } : {}),
  };
}

/** The organization a resource belongs to. */
export const organizationOfResource = (r: TokenResource): string => (r.type === 'organization' ? r.id : r.organizationId!);

const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** The `res` claim of a verified token, or null when it is not one that issuing writes (the token is then refused). */
export function resourcesOfClaim(claim: unknown): TokenResource[] | null {
  if (!Array.isArray(claim) || claim.length === 0) return null;
  const out: TokenResource[] = [];
  for (const entry of claim as unknown[]) {
    if (entry === null || typeof entry !== 'object') return null;
    const { type, id, organizationId, accessRole, expiresAt } = entry as Record<string, unknown>;
    if (!TYPES.has(type) || !str(id) || !ROLES.has(accessRole)) return null;
    if (type === 'organization' ? organizationId !== undefined : !str(organizationId)) return null;
    if (expiresAt !== undefined && !(Number.isSafeInteger(expiresAt) && (expiresAt as number) >= 0)) return null;
    out.push({
      type: type as ResourceType,
      id,
      ...(str(organizationId) ? { organizationId } : {}),
      accessRole: accessRole as AccessRole,
      ...(expiresAt !== undefined ? { expiresAt: expiresAt as number } : {}),
    });
  }
  return out;
}
